/* vt-report: answers to the reports programs and test suites ask for,
 * where libvterm 0.1.4 gives none or a wrong one. Every answer is about
 * this pane alone (its size, its cells, its modes): nothing about the
 * person's terminal or another pane. */
#include <stdio.h>
#include <string.h>

#include "pty/vt-int.h"

/* A cell's size in pixels, for the pixel reports: the pane cannot know the
 * outer terminal's font, and must not ask it, so a common one is used. */
#define CELL_W 8
#define CELL_H 16

static void reply_str(struct vt *vt, const char *s)
{
	vt_reply(vt, s, strlen(s));
}

static void reply_fmt(struct vt *vt, const char *fmt, int a, int b)
{
	char s[64];
	int n = snprintf(s, sizeof s, fmt, a, b);
	if (n > 0 && (size_t)n < sizeof s)
		vt_reply(vt, s, (size_t)n);
}

/* XTWINOPS reports: the pane's own size, in cells or (assumed) pixels. */
static bool report_window(struct vt *vt, long op)
{
	int rows = vt->grid->rows, cols = vt->grid->cols;
	switch (op) {
	case 11: /* iconified? never */
		reply_str(vt, "\033[1t");
		return true;
	case 13: /* position: the pane is its own window, at 0,0 */
		reply_fmt(vt, "\033[3;%d;%dt", 0, 0);
		return true;
	case 14: /* text area in pixels */
		reply_fmt(vt, "\033[4;%d;%dt", rows * CELL_H, cols * CELL_W);
		return true;
	case 15: /* screen in pixels: the pane is the whole screen */
		reply_fmt(vt, "\033[5;%d;%dt", rows * CELL_H, cols * CELL_W);
		return true;
	case 16: /* cell size in pixels */
		reply_fmt(vt, "\033[6;%d;%dt", CELL_H, CELL_W);
		return true;
	case 18: /* text area in cells */
		reply_fmt(vt, "\033[8;%d;%dt", rows, cols);
		return true;
	case 19: /* screen in cells */
		reply_fmt(vt, "\033[9;%d;%dt", rows, cols);
		return true;
	default:
		return false;
	}
}

static int arg_or(const long *args, int argc, int i, int def)
{
	return i < argc && args[i] > 0 ? (int)args[i] : def;
}

/* DECRQCRA: the checksum of a rectangle of cells, as xterm computes it
 * (the negated 16-bit sum of the characters, a blank counting as a
 * space), answered as DCS Pid ! ~ XXXX ST. In origin mode the rectangle
 * is relative to the margins and clipped to them. */
static void report_checksum(struct vt *vt, const long *args, int argc)
{
	const struct grid *g = vt->grid;
	struct vt_rect rc;
	unsigned sum = 0;
	bool some = rect_parse(vt, args, argc, 2, &rc);
	for (int row = rc.top; some && row < rc.bottom; row++)
		for (int col = rc.left; col < rc.right; col++) {
			const struct vt_cell *c = grid_cell(g, row, col);
			if (c->width == 0)
				continue; /* the second half of a wide character */
			sum += c->ch[0] ? c->ch[0] : ' ';
		}
	char s[64];
	int n = snprintf(s, sizeof s, "\033P%d!~%04X\033\\", arg_or(args, argc, 0, 0),
			 (0x10000 - (sum & 0xffff)) & 0xffff);
	vt_reply(vt, s, (size_t)n);
}

/* DECRQM for the ANSI modes: insert (4) and newline (20) are tracked;
 * the ones a pane never has are permanently reset, as in xterm (the
 * keyboard never locks, echo is never local, no guarded or selected
 * areas, no editing beyond the screen). */
static void report_ansi_mode(struct vt *vt, long mode)
{
	static const long fixed[] = { 1, 2, 5, 7, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 };
	int v = mode == 4 ? (vt->insert ? 1 : 2) : mode == 20 ? (vt->newline ? 1 : 2) : 0;
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		v = mode == fixed[i] ? 4 : v;
	reply_fmt(vt, "\033[%d;%d$y", (int)mode, v);
}

bool report_dec_dsr(struct vt *vt, long ps, long pid)
{
	switch (ps) {
	case 15: /* printer: none */
		reply_str(vt, "\033[?13n");
		return true;
	case 25: /* user-defined keys: locked (a pane cannot define any) */
		reply_str(vt, "\033[?21n");
		return true;
	case 26: /* keyboard: North American, ready, a PC keyboard */
		reply_str(vt, "\033[?27;1;0;0n");
		return true;
	case 55: /* locator: none */
		reply_str(vt, "\033[?53n");
		return true;
	case 56: /* locator type: unknown */
		reply_str(vt, "\033[?57;0n");
		return true;
	case 62: /* macro space: none */
		reply_str(vt, "\033[0*{");
		return true;
	case 63: /* memory checksum: of no macros */
		reply_fmt(vt, "\033P%d!~%04X\033\\", pid < 0 ? 0 : (int)pid, 0);
		return true;
	case 75: /* data integrity: no errors */
		reply_str(vt, "\033[?70n");
		return true;
	case 85: /* multiple sessions: not configured */
		reply_str(vt, "\033[?83n");
		return true;
	default:
		return false;
	}
}

void report_da(struct vt *vt, char leader)
{
	static const char *const da1[] = {
		"\033[?1;2c",
		"\033[?1;2c",
		"\033[?62;1;2;6;9;15;22;29c",
		"\033[?63;1;2;6;9;15;22;29c",
		"\033[?64;1;2;6;9;15;16;17;18;21;22;28;29c",
		"\033[?65;1;2;6;9;15;16;17;18;21;22;28;29c",
	};
	static const int da2[] = { 0, 0, 1, 24, 41, 64 };
	int level = vt->level < 1 ? 1 : vt->level > 5 ? 5 : vt->level;
	if (leader == '>')
		reply_fmt(vt, "\033[>%d;%d;0c", da2[level], 354); /* as xterm 354 */
	else
		vt_reply(vt, da1[level], strlen(da1[level]));
}

bool report_csi(struct vt *vt, const char *leader, const long *args, int argc, const char *inter, char command)
{
	bool plain = !leader[0] && !inter[0];
	if (plain && command == 't' && argc >= 1)
		return report_window(vt, args[0]);
	if (!leader[0] && strcmp(inter, "*") == 0 && command == 'y') {
		report_checksum(vt, args, argc);
		return true;
	}
	if (strcmp(leader, "=") == 0 && !inter[0] && command == 'c' && arg_or(args, argc, 0, 0) == 0) {
		reply_str(vt, "\033P!|00000000\033\\"); /* DA3: a unit id of zeros */
		return true;
	}
	if (!leader[0] && strcmp(inter, "$") == 0 && command == 'p' && argc >= 1) {
		if (vt->level >= 3) /* DECRQM came with the VT300s, as in xterm */
			report_ansi_mode(vt, args[0]);
		return true;
	}
	if (!leader[0] && strcmp(inter, "\"") == 0 && command == 'p') {
		int l = arg_or(args, argc, 0, 65);
		/* DECSCL: at most a VT420, as xterm set up as one */
		vt->level = l >= 61 && l <= 65 ? (l - 60 < 4 ? l - 60 : 4) : l < 61 ? 1 : vt->level;
		return true;
	}
	return false;
}

/* DECRQSS of SGR from the pen sandmux keeps (libvterm's misses dim and
 * conceal). */
static void report_sgr(struct vt *vt)
{
	static const struct {
		int flag, sgr;
	} map[] = { { VT_BOLD, 1 },  { VT_DIM, 2 },     { VT_ITALIC, 3 },  { VT_UNDERLINE, 4 },
		    { VT_BLINK, 5 }, { VT_REVERSE, 7 }, { VT_CONCEAL, 8 }, { VT_STRIKE, 9 } };
	char s[160];
	size_t n = (size_t)snprintf(s, sizeof s, "\033P1$r0");
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (vt->pen.flags & map[i].flag)
			n += (size_t)snprintf(s + n, sizeof s - n, ";%d", map[i].sgr);
	uint32_t col[2] = { vt->pen.fg, vt->pen.bg };
	for (int k = 0; k < 2; k++) {
		uint32_t c = col[k], v = c & 0xffffff;
		if (c & VT_COLOR_INDEX)
			n += v < 8    ? (size_t)snprintf(s + n, sizeof s - n, ";%u", (k ? 40 : 30) + v)
			     : v < 16 ? (size_t)snprintf(s + n, sizeof s - n, ";%u", (k ? 100 : 90) + v - 8)
				      : (size_t)snprintf(s + n, sizeof s - n, ";%d:5:%u", k ? 48 : 38, v);
		else if (c & VT_COLOR_RGB)
			n += (size_t)snprintf(s + n, sizeof s - n, ";%d:2::%u:%u:%u", k ? 48 : 38, v >> 16,
					      v >> 8 & 0xff, v & 0xff);
	}
	n += (size_t)snprintf(s + n, sizeof s - n, "m\033\\");
	vt_reply(vt, s, n);
}

bool report_dcs(struct vt *vt, const char *s, size_t len)
{
	if (len < 2 || memcmp(s, "$q", 2) != 0)
		return false;
	s += 2;
	len -= 2;
	if (len == 1 && s[0] == 'm') {
		report_sgr(vt);
		return true;
	}
	if (len == 2 && memcmp(s, "*x", 2) == 0) { /* DECSACE */
		reply_fmt(vt, "\033P1$r%d*x\033\\", vt->sace, 0);
		return true;
	}
	if (len == 2 && memcmp(s, "\"p", 2) == 0) {
		reply_fmt(vt, "\033P1$r6%d;%d\"p\033\\", vt->level, 1);
		return true;
	}
	return false;
}

/* OSC 10/11/12 "?": programs (editors, agent TUIs) ask for the default
 * colours to pick a light or dark theme; answer rather than let them wait,
 * with the attached terminal's own colours once the host has them. The
 * cursor (12) takes the foreground colour unless its own is known. */
bool report_osc_color(struct vt *vt, int num, const char *arg, size_t len)
{
	if (num < 10 || num > 12 || len != 1 || arg[0] != '?')
		return false;
	uint32_t rgb = num == 11                           ? vt->default_bg
		       : num == 12 && vt->cursor_color_set ? vt->cursor_color
							   : vt->default_fg;
	char s[64];
	int n = snprintf(s, sizeof s, "\033]%d;rgb:%02x%02x/%02x%02x/%02x%02x\033\\", num, rgb >> 16 & 0xff,
			 rgb >> 16 & 0xff, rgb >> 8 & 0xff, rgb >> 8 & 0xff, rgb & 0xff, rgb & 0xff);
	vt_reply(vt, s, (size_t)n);
	return true;
}
