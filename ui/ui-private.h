/* What the files of ui/ share: the struct behind struct ui, and colour
 * and attribute mapping. Not for use outside ui/. */
#ifndef UI_PRIVATE_H
#define UI_PRIVATE_H

#include <curses.h>
#include <stdint.h>

#include "ui/ui.h"

struct vt_attr;

struct ui {
	SCREEN *scr;
	FILE *out, *in;
	int fd;    /* memfd behind out */
	char *map; /* the memfd mapped (UI_MAP bytes), read without copying */
	int rows, cols;
	int ncolors;             /* 0: no colour */
	bool direct;             /* the terminal takes 24-bit colours as colour numbers */
	int direct_palette;      /* with direct: numbers below this are palette indices */
	bool truecolor;          /* asked for by the client (for ui_reuse) */
	bool mouse;              /* mouse reports turned on in the outer terminal */
	const char *pending_raw; /* bytes to send after the next flush */
	char term[64];           /* the terminal type, for ui_reuse() */
};

/* A vt attribute as curses attributes and a colour pair (ui/color.c). */
void ui_attr(struct ui *, const struct vt_attr *, attr_t *attrs, int *pair);
/* A pair for two curses colour numbers (-1: the terminal's default). */
int ui_pair(struct ui *, int fg, int bg);

#endif
