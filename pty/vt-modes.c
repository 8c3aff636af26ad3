/* vt-modes: XTSAVE (CSI ? Pm s) and XTRESTORE (CSI ? Pm r), xterm's save
 * and restore of DEC private modes, which libvterm 0.1.4 lacks. A mode's
 * value is asked of libvterm (DECRQM) or, for reverse wraparound, kept
 * here; the screens (47, 1047, 1049), DECSC's 1048 and DECCOLM are not
 * saved, as restoring them would switch screens or clear one. */
#include <stdio.h>

#include "pty/vt-int.h"

static bool mode_saveable(long m)
{
	return m > 0 && m != 3 && m != 47 && m != 1047 && m != 1048 && m != 1049;
}

static struct vt_xsave *xsave_find(struct vt *vt, long m)
{
	for (int i = 0; i < vt->nxsave; i++)
		if (vt->xsave[i].mode == m)
			return &vt->xsave[i];
	return NULL;
}

void modes_save(struct vt *vt, const long *args, int argc)
{
	for (int i = 0; i < argc; i++) {
		long m = args[i];
		int v = !mode_saveable(m) ? 0 : m == 45 || m == 1045 ? (vt->revwrap ? 1 : 2) : vt_mode_get(vt, m);
		if (v != 1 && v != 2)
			continue; /* a mode libvterm does not know */
		struct vt_xsave *s = xsave_find(vt, m);
		if (!s && vt->nxsave < VT_XSAVE_MAX)
			s = &vt->xsave[vt->nxsave++];
		if (s)
			*s = (struct vt_xsave){ .mode = (int)m, .set = v == 1 };
	}
}

void modes_restore(struct vt *vt, const long *args, int argc)
{
	for (int i = 0; i < argc; i++) {
		const struct vt_xsave *s = xsave_find(vt, args[i]);
		if (!s)
			continue;
		char q[24];
		int n = snprintf(q, sizeof q, "\033[?%d%c", s->mode, s->set ? 'h' : 'l');
		vt_mode_set(vt, q, (size_t)n, s->mode, s->set);
	}
}
