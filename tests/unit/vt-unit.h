/* vt-unit: what the emulator's unit tests share: feeding a string, and
 * a check of where the cursor is. */
#ifndef VT_UNIT_H
#define VT_UNIT_H

#include <string.h>

#include "pty/vt.h"
#include "unit.h"

static inline void put(struct vt *vt, const char *s)
{
	vt_write(vt, s, strlen(s));
}

static inline void cursor_is(struct unit *u, struct vt *vt, int row, int col)
{
	int r, c;
	vt_cursor(vt, &r, &c);
	CHECK_INT(u, r, row);
	CHECK_INT(u, c, col);
}

#endif
