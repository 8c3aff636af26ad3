/* vt: libvterm's state layer (parser + state machine) driving our grid.
 * This is the only file in sandmux that includes vterm.h.
 *
 * Why not libvterm's screen layer: in 0.1.4 it moves its whole buffer on
 * every line feed. Here a full-width scroll is a ring rotation in grid.c.
 * Why the OSC hold-back: 0.1.4 drops an OSC string split across two
 * vterm_input_write() calls, so an unterminated ESC ] is kept here until
 * its terminator arrives, then fed in one piece. */
#include "pty/vt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vterm.h>

#include "pty/grid.h"
#include "pty/utf8.h"
#include "pty/vt-int.h"

/* ---- state callbacks ---- */

static uint32_t vt_color(const VTermColor *c, bool fg)
{
	if (fg ? VTERM_COLOR_IS_DEFAULT_FG(c) : VTERM_COLOR_IS_DEFAULT_BG(c))
		return VT_COLOR_DEFAULT;
	if (VTERM_COLOR_IS_INDEXED(c))
		return VT_COLOR_INDEX | c->indexed.idx;
	return VT_COLOR_RGB | (uint32_t)c->rgb.red << 16 | (uint32_t)c->rgb.green << 8 | c->rgb.blue;
}

/* Overwriting half of a wide character blanks its other half. */
static void unwide(struct grid_line *l, int col, int w, int cols)
{
	struct vt_cell *c = l->cells;
	if (c[col].width == 0 && col > 0)
		c[col - 1] = grid_blank(c[col - 1].attr.bg);
	int end = col + w; /* first cell after the new glyph */
	if (end < cols && c[end].width == 0)
		c[end] = grid_blank(c[end].attr.bg);
}

static uint32_t glyph_char(uint32_t ch)
{
	return ch <= 0x10ffff ? ch : 0xfffd;
}

static int cb_putglyph(VTermGlyphInfo *info, VTermPos pos, void *user)
{
	struct vt *vt = user;
	struct grid *g = vt->grid;
	if (pos.row < 0 || pos.row >= g->rows || pos.col < 0 || pos.col >= g->cols)
		return 1;
	int w = info->width == 2 && pos.col + 1 < g->cols ? 2 : 1;
	struct grid_line *l = grid_line(g, pos.row);
	unwide(l, pos.col, w, g->cols);
	struct vt_cell *c = &l->cells[pos.col];
	/* the characters gathered first and the cell written once: reading
	 * back a cell just written stalls the store buffer (this is the
	 * hottest path of a flood) */
	uint32_t c0 = glyph_char(info->chars[0]), c1 = c0 ? glyph_char(info->chars[1]) : 0;
	uint32_t c2 = c1 ? glyph_char(info->chars[2]) : 0;
	*c = (struct vt_cell){ .ch = { c0, c1, c2 }, .width = w, .attr = vt->pen };
	if (w == 2)
		c[1] = (struct vt_cell){ .width = 0, .attr = vt->pen };
	vt->last_ch[0] = c0;
	vt->last_ch[1] = c1;
	vt->last_ch[2] = c2;
	vt->last_width = info->width;
	grid_use(l, pos.col + w);
	grid_touch(g, pos.row);
	if (vt->wrap_pending && pos.col == 0 && pos.row == vt->wrap_row + 1 && vt->wrap_row >= 0)
		grid_line(g, vt->wrap_row)->wrapped = true;
	vt->wrap_pending = pos.col + w == g->cols;
	vt->wrap_row = pos.row;
	return 1;
}

static int cb_movecursor(VTermPos pos, VTermPos oldpos, int visible, void *user)
{
	struct vt *vt = user;
	(void)oldpos;
	(void)visible;
	vt->crow = pos.row;
	vt->ccol = pos.col;
	vt->moved = true;
	if (!(pos.row == vt->wrap_row && pos.col == vt->grid->cols - 1))
		vt->wrap_pending = false;
	return 1;
}

static int cb_scrollrect(VTermRect r, int downward, int rightward, void *user)
{
	struct vt *vt = user;
	if (rightward != 0 || r.start_col != 0 || r.end_col != vt->grid->cols)
		return 0; /* libvterm falls back to moverect + erase */
	grid_scroll(vt->grid, r.start_row, r.end_row, downward, vt->pen.bg);
	if (vt->wrap_row >= r.start_row && vt->wrap_row < r.end_row) {
		vt->wrap_row -= downward;
		/* scrolled out of the region (into history or away): forget it */
		vt->wrap_pending &= vt->wrap_row >= r.start_row && vt->wrap_row < r.end_row;
	}
	return 1;
}

static int cb_moverect(VTermRect dest, VTermRect src, void *user)
{
	struct vt *vt = user;
	grid_move(vt->grid, dest.start_row, dest.start_col, src.start_row, src.start_col, src.end_row - src.start_row,
		  src.end_col - src.start_col);
	return 1;
}

static int cb_erase(VTermRect r, int selective, void *user)
{
	struct vt *vt = user;
	(void)selective;
	grid_erase(vt->grid, r.start_row, r.end_row, r.start_col, r.end_col, vt->pen.bg);
	return 1;
}

static int cb_initpen(void *user)
{
	struct vt *vt = user;
	vt->pen = (struct vt_attr){ 0 };
	return 1;
}

static void pen_flag(struct vt *vt, int flag, bool on)
{
	if (on)
		vt->pen.flags |= flag;
	else
		vt->pen.flags &= ~flag;
}

static int cb_setpenattr(VTermAttr attr, VTermValue *val, void *user)
{
	struct vt *vt = user;
	switch (attr) {
	case VTERM_ATTR_BOLD:
		pen_flag(vt, VT_BOLD, val->boolean);
		break;
	case VTERM_ATTR_UNDERLINE:
		pen_flag(vt, VT_UNDERLINE, val->number != 0);
		break;
	case VTERM_ATTR_ITALIC:
		pen_flag(vt, VT_ITALIC, val->boolean);
		break;
	case VTERM_ATTR_BLINK:
		pen_flag(vt, VT_BLINK, val->boolean);
		break;
	case VTERM_ATTR_REVERSE:
		pen_flag(vt, VT_REVERSE, val->boolean);
		break;
	case VTERM_ATTR_STRIKE:
		pen_flag(vt, VT_STRIKE, val->boolean);
		break;
	case VTERM_ATTR_FOREGROUND:
		vt->pen.fg = vt_color(&val->color, true);
		break;
	case VTERM_ATTR_BACKGROUND:
		vt->pen.bg = vt_color(&val->color, false);
		break;
	default:
		break;
	}
	return 1;
}

/* Titles are stored, never sent on: printable characters only. */
static void title_set(struct vt *vt, const char *s)
{
	size_t n = 0;
	for (; *s && n + 1 < sizeof vt->title; s++)
		if ((unsigned char)*s >= 0x20 && *s != 0x7f)
			vt->title[n++] = *s;
	vt->title[n] = '\0';
}

static int cb_settermprop(VTermProp prop, VTermValue *val, void *user)
{
	struct vt *vt = user;
	switch (prop) {
	case VTERM_PROP_CURSORVISIBLE:
		vt->modes.cursor_visible = val->boolean;
		vt->moved = true;
		break;
	case VTERM_PROP_ALTSCREEN:
		vt->modes.altscreen = val->boolean;
		grid_set_alt(vt->grid, val->boolean);
		break;
	case VTERM_PROP_TITLE:
		title_set(vt, val->string ? val->string : "");
		break;
	case VTERM_PROP_MOUSE:
		vt->modes.mouse = val->number;
		break;
	case VTERM_PROP_REVERSE:
		vt->modes.reverse_screen = val->boolean;
		grid_dirty_all(vt->grid);
		break;
	case VTERM_PROP_CURSORSHAPE:
		vt->modes.cursor_shape = val->number;
		break;
	default:
		break;
	}
	return 1;
}

static int cb_bell(void *user)
{
	struct vt *vt = user;
	vt->bell = true;
	return 1;
}

static int cb_resize(int rows, int cols, VTermPos *delta, void *user)
{
	struct vt *vt = user;
	int crow = vt->crow, ccol = vt->ccol;
	grid_resize(vt->grid, rows, cols, &crow, &ccol);
	delta->row = crow - vt->crow;
	delta->col = ccol - vt->ccol;
	vt->wrap_pending = false;
	return 1;
}

static int cb_setlineinfo(int row, const VTermLineInfo *newinfo, const VTermLineInfo *oldinfo, void *user)
{
	(void)row;
	(void)newinfo;
	(void)oldinfo;
	(void)user;
	return 1; /* double-width lines are drawn single width */
}

static const VTermStateCallbacks vt_callbacks = {
	.putglyph = cb_putglyph,
	.movecursor = cb_movecursor,
	.scrollrect = cb_scrollrect,
	.moverect = cb_moverect,
	.erase = cb_erase,
	.initpen = cb_initpen,
	.setpenattr = cb_setpenattr,
	.settermprop = cb_settermprop,
	.bell = cb_bell,
	.resize = cb_resize,
	.setlineinfo = cb_setlineinfo,
};

/* OSC strings libvterm does not handle: colour queries are answered, cwd
 * (7) and shell integration (133, 633) go to the host's handler, the
 * clipboard (52) only when allowed. */
static int fb_osc(const char *command, size_t len, void *user)
{
	struct vt *vt = user;
	int num = 0;
	size_t i = 0;
	for (; i < len && i < 6 && command[i] >= '0' && command[i] <= '9'; i++)
		num = num * 10 + (command[i] - '0');
	if (i == 0)
		return 1;
	if (i < len && command[i] == ';')
		i++;
	if (report_osc_color(vt, num, command + i, len - i) || !vt->osc_fn || (num == 52 && !vt->clipboard))
		return 1;
	vt->osc_fn(num, command + i, len - i, vt->osc_data);
	return 1;
}

/* CSIs libvterm does not handle: the reports it lacks. */
static int fb_csi(const char *leader, const long args[], int argc, const char *inter, char command, void *user)
{
	long a[VT_CSI_ARGS];
	int n = argc < VT_CSI_ARGS ? argc : VT_CSI_ARGS;
	for (int i = 0; i < n; i++)
		a[i] = CSI_ARG_IS_MISSING(args[i]) ? -1 : CSI_ARG(args[i]);
	return report_csi(user, leader ? leader : "", a, n, inter ? inter : "", command);
}

static const VTermParserCallbacks vt_fallbacks = {
	.csi = fb_csi,
	.osc = fb_osc,
};

void vt_reply(struct vt *vt, const char *s, size_t len)
{
	if (len > VT_REPLY_MAX - vt->reply_len)
		return; /* the host is not reading replies: drop, never grow without bound */
	if (vt->reply_len + len > vt->reply_cap) {
		size_t cap = vt->reply_len + len < 256 ? 256 : 2 * (vt->reply_len + len);
		char *r = realloc(vt->reply, cap < VT_REPLY_MAX ? cap : VT_REPLY_MAX);
		if (!r)
			return;
		vt->reply = r;
		vt->reply_cap = cap < VT_REPLY_MAX ? cap : VT_REPLY_MAX;
	}
	memcpy(vt->reply + vt->reply_len, s, len);
	vt->reply_len += len;
}

static void cb_output(const char *s, size_t len, void *user)
{
	struct vt *vt = user;
	if (vt->probing) {
		size_t n = len < sizeof vt->probe - vt->probe_len ? len : sizeof vt->probe - vt->probe_len;
		memcpy(vt->probe + vt->probe_len, s, n);
		vt->probe_len += n;
		return;
	}
	vt_reply(vt, s, len);
}

static void modes_read(struct vt *vt);
static void charsets_reset(struct vt *vt);

/* ---- life ---- */

struct vt *vt_new(int rows, int cols, int scrollback_lines)
{
	struct vt *vt = calloc(1, sizeof *vt);
	if (!vt)
		return NULL;
	vt->grid = grid_new(rows, cols, scrollback_lines);
	if (vt->grid)
		vt->vterm = vterm_new(vt->grid->rows, vt->grid->cols);
	if (!vt->vterm) {
		vt_free(vt);
		return NULL;
	}
	vterm_set_utf8(vt->vterm, 1);
	vterm_output_set_callback(vt->vterm, cb_output, vt);
	vt->state = vterm_obtain_state(vt->vterm);
	vterm_state_set_callbacks(vt->state, &vt_callbacks, vt);
	vterm_state_set_unrecognised_fallbacks(vt->state, &vt_fallbacks, vt);
	vterm_state_set_bold_highbright(vt->state, 0);
	vt->modes.cursor_visible = true;
	vt->default_fg = 0xe5e5e5; /* a dark terminal, the common case */
	vt->default_bg = 0x000000;
	vterm_state_reset(vt->state, 1);
	vt->level = 4; /* a VT420, as xterm */
	modes_read(vt);
	charsets_reset(vt);
	return vt;
}

void vt_free(struct vt *vt)
{
	if (!vt)
		return;
	if (vt->vterm)
		vterm_free(vt->vterm);
	grid_free(vt->grid);
	free(vt->reply);
	free(vt->held);
	free(vt);
}

void vt_set_default_colors(struct vt *vt, uint32_t fg_rgb, uint32_t bg_rgb)
{
	vt->default_fg = fg_rgb & 0xffffff;
	vt->default_bg = bg_rgb & 0xffffff;
}

void vt_set_cursor_color(struct vt *vt, uint32_t rgb)
{
	vt->cursor_color = rgb & 0xffffff;
	vt->cursor_color_set = true;
}

void vt_focus(struct vt *vt, bool in)
{
	if (in)
		vterm_state_focus_in(vt->state);
	else
		vterm_state_focus_out(vt->state);
}

void vt_set_osc_handler(struct vt *vt, vt_osc_fn *fn, void *data)
{
	vt->osc_fn = fn;
	vt->osc_data = data;
}

void vt_allow_clipboard(struct vt *vt, bool allow)
{
	vt->clipboard = allow;
}

/* ---- input ---- */

/* Ask libvterm how it would encode a key or event, to learn the modes it
 * tracks internally (DECCKM, DECKPAM, bracketed paste, SGR mouse). */
static bool probe_starts(struct vt *vt, const char *prefix)
{
	bool yes = vt->probe_len >= strlen(prefix) && memcmp(vt->probe, prefix, strlen(prefix)) == 0;
	vt->probe_len = 0;
	return yes;
}

static void modes_probe(struct vt *vt)
{
	vt->probing = true;
	vt->probe_len = 0;
	vterm_keyboard_key(vt->vterm, VTERM_KEY_UP, VTERM_MOD_NONE);
	vt->modes.app_cursor = probe_starts(vt, "\033O");
	vterm_keyboard_key(vt->vterm, VTERM_KEY_KP_0, VTERM_MOD_NONE);
	vt->modes.app_keypad = probe_starts(vt, "\033O");
	vterm_keyboard_start_paste(vt->vterm);
	vt->modes.bracketed_paste = probe_starts(vt, "\033[200~");
	vterm_keyboard_end_paste(vt->vterm);
	vt->probe_len = 0;
	vt->modes.mouse_sgr = false;
	if (vt->modes.mouse) {
		/* A wheel press changes no button state in libvterm. */
		vterm_mouse_button(vt->vterm, 4, true, VTERM_MOD_NONE);
		vt->modes.mouse_sgr = probe_starts(vt, "\033[<");
	}
	vt->probing = false;
}

static void feed(struct vt *vt, const char *buf, size_t len)
{
	if (len > 0)
		vterm_input_write(vt->vterm, buf, len);
}

/* Read back the margins and the origin and left-right margin modes from
 * libvterm (through its own reports: 0.1.4 has no getters), after a
 * sequence that may have changed them. */
static void modes_read(struct vt *vt)
{
	static const char q[] = "\033P$qr\033\\\033P$qs\033\\\033[?6$p\033[?69$p";
	vt->probing = true;
	vt->probe_len = 0;
	feed(vt, q, sizeof q - 1);
	vt->probing = false;
	vt->probe[vt->probe_len < sizeof vt->probe ? vt->probe_len : sizeof vt->probe - 1] = '\0';
	int t, b, l, r, o, m;
	if (sscanf(vt->probe, "\033P1$r%d;%dr\033\\\033P1$r%d;%ds\033\\\033[?6;%d$y\033[?69;%d$y", &t, &b, &l, &r, &o,
		   &m) == 6) {
		vt->mtop = t - 1;
		vt->mbottom = b;
		vt->mleft = l - 1;
		vt->mright = r;
		vt->origin = o == 1;
		vt->lrmm = m == 1;
	}
	vt->probe_len = 0;
}

/* ANSI modes set or reset (CSI 4 h, CSI 20 l), kept for DECRQM. */
static void ansi_modes(struct vt *vt, bool on)
{
	const char *p = vt->csi, *end = vt->csi + vt->csi_len;
	while (p < end) {
		int n = 0;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			n = n < 10000 ? n * 10 + (*p - '0') : n;
		if (n == 4)
			vt->insert = on;
		else if (n == 20)
			vt->newline = on;
		p += p < end;
	}
}

/* The string held is done with: its buffer goes back, an idle pane
 * keeps none. */
static void held_free(struct vt *vt)
{
	free(vt->held);
	vt->held = NULL;
	vt->held_len = 0;
	vt->osc_drop = false;
	vt->scan = SCAN_GROUND;
}

static void held_add(struct vt *vt, const char *buf, size_t len)
{
	if (vt->osc_drop)
		return;
	if (vt->held == NULL)
		vt->held = malloc(VT_OSC_MAX); /* NULL: dropped as if too long */
	if (vt->held == NULL || len > VT_OSC_MAX - vt->held_len) {
		/* A runaway OSC: drop it, and cancel the ESC libvterm has seen. */
		vt->osc_drop = true;
		vt->held_len = 0;
		feed(vt, "\030", 1);
		return;
	}
	memcpy(vt->held + vt->held_len, buf, len);
	vt->held_len += len;
}

/* The OSC or DCS being held ended with buf[0..end): feed it whole,
 * unless it is a DCS report answered here. */
static void held_flush(struct vt *vt, const char *buf, size_t end)
{
	held_add(vt, buf, end);
	/* held[] starts at the P: libvterm has seen the ESC, a CAN cancels it */
	bool ours = vt->str_dcs && !vt->osc_drop && vt->held_len >= 3 && vt->held[vt->held_len - 1] == '\\' &&
		    report_dcs(vt, vt->held + 1, vt->held_len - 3);
	if (ours)
		feed(vt, "\030", 1);
	else if (!vt->osc_drop)
		feed(vt, vt->held, vt->held_len);
	held_free(vt);
}

/* CAN or SUB inside the OSC abort it, as in xterm and tmux; libvterm has
 * seen only its ESC, which a CAN cancels. */
static void held_abort(struct vt *vt)
{
	if (!vt->osc_drop)
		feed(vt, "\030", 1);
	held_free(vt);
}

/* Skip n parameters after p (colour arguments of SGR 38/48/58). */
static const char *sgr_skip(const char *p, const char *end, int n)
{
	for (; n > 0 && p < end; p++)
		if (*p == ';')
			n--;
	return p;
}

static void sgr_apply(struct vt *vt, int n)
{
	switch (n) {
	case 0:
		vt->pen.flags &= ~(VT_DIM | VT_CONCEAL);
		break;
	case 2:
		vt->pen.flags |= VT_DIM;
		break;
	case 22:
		vt->pen.flags &= ~VT_DIM;
		break;
	case 8:
		vt->pen.flags |= VT_CONCEAL;
		break;
	case 28:
		vt->pen.flags &= ~VT_CONCEAL;
		break;
	default:
		break;
	}
}

/* The SGR just fed, for what libvterm ignores: dim and conceal. An empty
 * parameter is 0 (reset). */
static void sgr_extra(struct vt *vt)
{
	const char *p = vt->csi, *end = vt->csi + vt->csi_len;
	for (;;) {
		int n = 0;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			if (n < 10000)
				n = n * 10 + (*p - '0');
		bool sub = p < end && *p == ':';
		while (p < end && *p != ';')
			p++; /* sub-parameters (38:2:r:g:b, 4:3) belong to this one */
		bool more = p < end;
		p += more;
		sgr_apply(vt, n);
		if (more && !sub && (n == 38 || n == 48 || n == 58)) {
			/* 38;5;N and 38;2;R;G;B: their arguments are not SGRs */
			p = sgr_skip(p, end, *p == '5' ? 2 : *p == '2' ? 4 : 1);
			more = p < end;
		}
		if (!more)
			break;
	}
}

/* Worth splitting the input at this SGR: it may set or clear dim/conceal. */
static bool sgr_wanted(const struct vt *vt)
{
	return (vt->pen.flags & (VT_DIM | VT_CONCEAL)) || memchr(vt->csi, '2', vt->csi_len) ||
	       memchr(vt->csi, '8', vt->csi_len);
}

static void esc_start(struct vt *vt)
{
	vt->scan = SCAN_ESC;
	vt->esc_inter = 0;
}

static void csi_byte(struct vt *vt, unsigned char ch)
{
	if ((ch >= '0' && ch <= '9') || ch == ';' || ch == ':') {
		if (vt->csi_len < sizeof vt->csi)
			vt->csi[vt->csi_len++] = ch;
		else
			vt->csi_long = true;
	} else if (ch == 0x1b) {
		esc_start(vt);
	} else if (ch == 0x18 || ch == 0x1a || ch >= 0x80) {
		vt->scan = SCAN_GROUND; /* cancelled, as libvterm does */
	} else if (ch < 0x20 || ch == 0x7f) {
		/* C0 controls run inside a CSI without ending it; DEL is ignored */
	} else if (ch >= '<' && ch <= '?' && vt->csi_len == 0 && !vt->csi_priv) {
		vt->csi_priv = ch;
	} else if (ch >= 0x20) {
		if (!vt->csi_other && ch <= 0x2f)
			vt->csi_inter = ch;
		vt->csi_other = true;
	}
}

static void cursor_report(struct vt *vt, bool dec)
{
	VTermPos pos;
	vterm_state_get_cursorpos(vt->state, &pos);
	if (vt->origin) {
		pos.row -= vt->mtop;
		pos.col -= vt->mleft;
	}
	char s[48];
	int n = snprintf(s, sizeof s, dec ? "\033[?%d;%d;1R" : "\033[%d;%dR", pos.row + 1, pos.col + 1);
	vt_reply(vt, s, (size_t)n);
}

/* The CSI's arguments, parsed as libvterm does (-1 for a missing one). */
static int csi_args(const struct vt *vt, long *a)
{
	int n = 0;
	const char *p = vt->csi, *end = vt->csi + vt->csi_len;
	while (n < VT_CSI_ARGS) {
		long v = -1;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			v = (v < 0 ? 0 : v) * 10 + (*p - '0') > 99999 ? 99999 : (v < 0 ? 0 : v) * 10 + (*p - '0');
		a[n++] = v;
		if (p >= end)
			break;
		p++;
	}
	return n;
}

/* A DEC DSR answered by the reports (the cursor's, 6, stays with
 * cursor_report): true if it was. */
static bool csi_dec_dsr(struct vt *vt)
{
	long a[VT_CSI_ARGS];
	int n = csi_args(vt, a);
	return a[0] != 6 && report_dec_dsr(vt, a[0], n > 1 ? a[1] : -1);
}

/* A CSI libvterm would drop, given to the reports. */
static void csi_report(struct vt *vt, char final)
{
	long a[VT_CSI_ARGS];
	int n = csi_args(vt, a);
	char leader[2] = { vt->csi_priv, 0 }, inter[2] = { vt->csi_inter, 0 };
	report_csi(vt, leader, a, n, inter, final);
}

/* Repeat the last glyph as many times as the CSI says, at most a row. */
static void rep(struct vt *vt)
{
	int n = 0;
	for (size_t k = 0; k < vt->csi_len && vt->csi[k] >= '0' && vt->csi[k] <= '9'; k++)
		if (n <= vt->grid->cols)
			n = n * 10 + (vt->csi[k] - '0');
	int room = vt->grid->cols - vt->ccol; /* as in xterm: to the end of the row */
	n = n < 1 ? 1 : n > room ? room : n;
	/* A stream of REPs may not cost much more than the text it stands
	 * for: ncurses saves some bytes with it, a program may try more. */
	if ((size_t)n > vt->rep_budget)
		n = (int)vt->rep_budget;
	vt->rep_budget -= n > 0 ? (size_t)n : 0;
	if (vt->last_width <= 0 || !vt->last_ch[0])
		return;
	char glyph[4 * VT_MAX_CHARS], chunk[512];
	size_t len = 0, m = 0;
	for (int i = 0; i < VT_MAX_CHARS && vt->last_ch[i]; i++)
		len += utf8_encode(vt->last_ch[i], glyph + len);
	for (int k = 0; k < n; k++) {
		if (m + len > sizeof chunk) {
			feed(vt, chunk, m);
			m = 0;
		}
		memcpy(chunk + m, glyph, len);
		m += len;
	}
	feed(vt, chunk, m);
}

/* DECALN fills the screen through libvterm's putglyph: the first in a
 * read is free, more only within the REP budget. Returns where the bytes
 * to feed start. */
static size_t decaln(struct vt *vt, const char *buf, size_t start, size_t i)
{
	size_t cost = (size_t)vt->grid->rows * vt->grid->cols;
	if (vt->decaln && cost > vt->rep_budget) {
		feed(vt, buf + start, i - start);
		feed(vt, "\030", 1);
		return i + 1;
	}
	vt->decaln = true;
	vt->rep_budget -= cost < vt->rep_budget ? cost : vt->rep_budget;
	/* then, as in xterm, the margins reset and the cursor home (0.1.4
	 * only fills the screen) */
	feed(vt, buf + start, i + 1 - start);
	feed(vt, vt->lrmm ? "\033[r\033[s\033[H" : "\033[r\033[H", vt->lrmm ? 9 : 6);
	modes_read(vt);
	return i + 1;
}

static void charsets_reset(struct vt *vt)
{
	memset(vt->g, 'B', sizeof vt->g);
	vt->gl = 0;
	vt->charsets_used = false;
	vt->saved = (struct vt_saved){ .g = { 'B', 'B', 'B', 'B' } };
}

/* DECSC: libvterm 0.1.4 keeps the position, the pen and the cursor's
 * look; the character sets, the shift, origin mode and a pending wrap
 * are kept here, as in xterm (vttest 2.15 checks the sets). */
static void cursor_save(struct vt *vt)
{
	feed(vt, "\0337", 2);
	memcpy(vt->saved.g, vt->g, sizeof vt->g);
	vt->saved.gl = vt->gl;
	vt->saved.origin = vt->origin;
	vt->saved.wrap = vt->wrap_pending && vt->ccol == vt->grid->cols - 1 && vt->crow == vt->wrap_row;
}

/* DECRC: origin mode first (setting it homes the cursor), then libvterm's
 * restore, then a pending wrap (by putting the last column's glyph again,
 * its cell kept as it was), then the character sets. */
static void cursor_restore(struct vt *vt)
{
	char s[32];
	int n = snprintf(s, sizeof s, "\033[?6%c\0338", vt->saved.origin ? 'h' : 'l');
	feed(vt, s, (size_t)n);
	modes_read(vt);
	int r = vt->crow, c = vt->ccol;
	if (vt->saved.wrap && c == vt->grid->cols - 1 && r >= 0 && r < vt->grid->rows) {
		struct grid_line *l = grid_line(vt->grid, r);
		struct vt_cell keep = l->cells[c];
		char glyph[8];
		size_t len = keep.ch[0] && keep.width == 1 ? utf8_encode(keep.ch[0], glyph) : 1;
		if (len == 1 && !(keep.ch[0] && keep.width == 1))
			glyph[0] = ' ';
		feed(vt, "\033(B\017", 4);
		feed(vt, glyph, len);
		l->cells[c] = keep;
	}
	memcpy(vt->g, vt->saved.g, sizeof vt->g);
	vt->gl = vt->saved.gl;
	n = snprintf(s, sizeof s, "\033(%c\033)%c\033*%c\033+%c%c", vt->g[0], vt->g[1], vt->g[2], vt->g[3],
		     vt->gl ? 0x0e : 0x0f);
	feed(vt, s, (size_t)n);
}

/* The first SO, SI (when character sets are in use) or CR (with left and
 * right margins) in buf[i, end), or end. */
static size_t ground_control(const struct vt *vt, const char *buf, size_t i, size_t end)
{
	for (; i < end; i++) {
		char c = buf[i];
		if ((vt->charsets_used && (c == 0x0e || c == 0x0f)) || (vt->lrmm && c == '\r'))
			return i;
	}
	return end;
}

/* SO and SI are only noted; CR is moved to the left margin when the
 * cursor is at or right of it (or in origin mode), as in xterm: 0.1.4
 * always goes to column 0. Returns where the bytes to feed start. */
static size_t ground_byte(struct vt *vt, const char *buf, size_t start, size_t k)
{
	if (buf[k] != '\r') {
		vt->gl = buf[k] == 0x0e;
		return start;
	}
	feed(vt, buf + start, k - start);
	bool margin = vt->mleft > 0 && (vt->origin || vt->ccol >= vt->mleft);
	feed(vt, "\r", 1);
	if (margin) {
		char s[16];
		int n = snprintf(s, sizeof s, "\033[%dG", vt->mleft + 1);
		feed(vt, s, (size_t)n);
	}
	return k + 1;
}

/* A byte after ESC; returns where the bytes to feed start. */
static size_t esc_byte(struct vt *vt, const char *buf, size_t start, size_t i)
{
	unsigned char ch = buf[i];
	if (ch == ']' || (ch == 'P' && !vt->esc_inter)) {
		/* An OSC or DCS string: everything before (the ESC too) goes
		 * now; the rest waits for its end. */
		feed(vt, buf + start, i - start);
		vt->scan = SCAN_OSC;
		vt->str_dcs = ch == 'P';
		return i;
	}
	if (ch == '[') {
		vt->scan = SCAN_CSI;
		vt->csi_len = 0;
		vt->csi_priv = 0;
		vt->csi_other = false;
		vt->csi_inter = 0;
		vt->csi_long = false;
		vt->csi_seps = 0;
	} else if (ch >= 0x20 && ch <= 0x2f) {
		vt->esc_inter = ch;
	} else if (ch == 0x18 || ch == 0x1a || (ch >= 0x30 && ch < 0x7f)) {
		vt->scan = SCAN_GROUND; /* cancelled, or a final byte */
		if (ch == '8' && vt->esc_inter == '#')
			return decaln(vt, buf, start, i);
		if (ch == 'c' && !vt->esc_inter) { /* RIS */
			feed(vt, buf + start, i + 1 - start);
			modes_read(vt);
			vt->insert = vt->newline = false;
			charsets_reset(vt);
			return i + 1;
		}
		if ((ch == '7' || ch == '8') && !vt->esc_inter) { /* DECSC, DECRC */
			if (i == 0 || start >= i)
				feed(vt, "\030", 1); /* libvterm has seen the ESC */
			else
				feed(vt, buf + start, i - 1 - start);
			if (ch == '7')
				cursor_save(vt);
			else
				cursor_restore(vt);
			return i + 1;
		}
		if (vt->esc_inter >= '(' && vt->esc_inter <= '+') { /* SCS */
			vt->g[vt->esc_inter - '('] = (char)ch;
			vt->charsets_used |= ch != 'B';
		}
	} /* else libvterm goes on with the escape: C0 controls, DEL and bytes
	   * >= 0x80 do not end it */
	return start;
}

/* A byte of a CSI being dropped; returns where the bytes to feed start. */
static size_t csi_drop(struct vt *vt, unsigned char ch, size_t i)
{
	if (ch == 0x1b) {
		esc_start(vt); /* a new escape: fed */
		return i;
	}
	if (ch >= 0x80) {
		vt->scan = SCAN_GROUND; /* ends the CSI, and is text */
		return i;
	}
	if (ch == 0x18 || ch == 0x1a || (ch >= 0x40 && ch <= 0x7e))
		vt->scan = SCAN_GROUND; /* the end, dropped with the rest */
	return i + 1;
}

/* The CSI ending at buf[i]: a few are completed or replaced here, after
 * feeding what comes before. Returns where the bytes not yet fed start. */
static size_t csi_final(struct vt *vt, const char *buf, size_t start, size_t i)
{
	char ch = buf[i];
	vt->scan = SCAN_GROUND;
	if (ch == 'b' && !vt->csi_priv && !vt->csi_other) {
		/* REP: 0.1.4 loops forever on it when no glyph came before or
		 * the last one had no width. Cancel it, repeat the glyph here. */
		feed(vt, buf + start, i - start);
		feed(vt, "\030", 1);
		rep(vt);
		return i + 1;
	}
	bool da_arg = vt->csi_len == 0 || (vt->csi_len == 1 && vt->csi[0] == '0');
	if (ch == 'c' && (!vt->csi_priv || vt->csi_priv == '>') && !vt->csi_other && da_arg) {
		/* DA1, DA2: answered as xterm does at the DECSCL level */
		feed(vt, buf + start, i - start);
		feed(vt, "\030", 1);
		report_da(vt, vt->csi_priv);
		return i + 1;
	}
	if ((vt->csi_priv == '=' || vt->csi_inter == '*') && !vt->csi_long) {
		/* what libvterm drops unseen (DA3, DECRQCRA): the reports here */
		feed(vt, buf + start, i - start);
		feed(vt, "\030", 1);
		csi_report(vt, ch);
		return i + 1;
	}
	if (ch == 'p' && vt->csi_inter == '!' && !vt->csi_priv && vt->csi_len == 0) {
		/* DECSTR: 0.1.4 parses it but never runs its soft reset */
		feed(vt, buf + start, i - start);
		feed(vt, "\030", 1);
		vterm_state_reset(vt->state, 0);
		feed(vt, "\033[m", 3); /* 0.1.4's soft reset leaves the pen black on black */
		modes_read(vt);
		vt->insert = vt->newline = false;
		charsets_reset(vt);
		return i + 1;
	}
	if (ch == 'n' && (!vt->csi_priv || vt->csi_priv == '?') && !vt->csi_other && vt->csi_len == 1 &&
	    vt->csi[0] == '6') {
		/* CPR, DECXCPR: relative to the margins in origin mode, as in
		 * xterm (0.1.4 answers the absolute position) */
		feed(vt, buf + start, i - start);
		feed(vt, "\030", 1);
		cursor_report(vt, vt->csi_priv == '?');
		return i + 1;
	}
	if (ch == 'n' && vt->csi_priv == '?' && !vt->csi_other && !vt->csi_long) {
		/* the bytes before go first (their replies first); then the
		 * CSI is answered here and cancelled, or left to libvterm */
		feed(vt, buf + start, i - start);
		if (!csi_dec_dsr(vt))
			return i;
		feed(vt, "\030", 1);
		return i + 1;
	}
	if (vt->csi_other || vt->csi_long)
		return start;
	if (vt->csi_priv == '?' && (ch == 'h' || ch == 'l') && vt->csi_len == 2 && memcmp(vt->csi, "47", 2) == 0) {
		/* The old alternate screen, which 0.1.4 lacks: as 1047. */
		feed(vt, buf + start, i - start);
		feed(vt, ch == 'h' ? "\030\033[?1047h" : "\030\033[?1047l", 9);
		return i + 1;
	}
	if (vt->csi_priv == '?' && (ch == 'h' || ch == 'l') && vt->csi_len == 1 && vt->csi[0] == '3') {
		/* DECCOLM: the width stays, but as in xterm and tmux the
		 * screen is cleared, the margins reset and the cursor homed
		 * (vttest relies on it); 0.1.4 does none of it. */
		feed(vt, buf + start, i + 1 - start);
		feed(vt, "\033[r\033[H\033[2J", 10);
		return i + 1;
	}
	if (vt->csi_priv == '?' && (ch == 'h' || ch == 'l')) {
		feed(vt, buf + start, i + 1 - start);
		modes_read(vt);
		return i + 1;
	}
	if (vt->csi_priv)
		return start;
	if (ch == 'h' || ch == 'l') {
		ansi_modes(vt, ch == 'h');
		return start;
	}
	if ((ch == 's' || ch == 'u') && vt->csi_len == 0) {
		/* ANSI.SYS cursor save/restore, as in xterm and tmux. 0.1.4
		 * has no CSI u, and its CSI s (DECSLRM) homes the cursor:
		 * cancel the CSI (CAN), send DECSC/DECRC instead. */
		feed(vt, buf + start, i - start);
		feed(vt, "\030", 1);
		if (ch == 's')
			cursor_save(vt);
		else
			cursor_restore(vt);
		return i + 1;
	}
	if (ch == 'r' || ch == 's') { /* DECSTBM, DECSLRM */
		feed(vt, buf + start, i + 1 - start);
		modes_read(vt);
		return i + 1;
	}
	if (ch == 'm' && sgr_wanted(vt)) {
		/* dim and conceal, after libvterm's own SGR handling */
		feed(vt, buf + start, i + 1 - start);
		sgr_extra(vt);
		return i + 1;
	}
	return start;
}

void vt_write(struct vt *vt, const char *buf, size_t len)
{
	size_t start = 0, i = 0;
	vt->rep_budget = 16 * len + vt->grid->cols;
	vt->decaln = false;
	while (i < len) {
		unsigned char ch = buf[i];
		switch (vt->scan) {
		case SCAN_GROUND: {
			const char *esc = memchr(buf + i, 0x1b, len - i);
			size_t end = esc ? (size_t)(esc - buf) : len, k = end;
			if (vt->charsets_used || vt->lrmm)
				k = ground_control(vt, buf, i, end);
			if (k < end) {
				start = ground_byte(vt, buf, start, k);
				i = k + 1;
				continue;
			}
			if (!esc) {
				i = len;
				continue;
			}
			i = esc - buf;
			esc_start(vt);
			break;
		}
		case SCAN_ESC:
			start = esc_byte(vt, buf, start, i);
			break;
		case SCAN_CSI:
			if (ch >= 0x40 && ch <= 0x7e) {
				start = csi_final(vt, buf, start, i);
			} else if ((ch == ';' || ch == ':') && ++vt->csi_seps >= VT_CSI_ARGS) {
				/* libvterm 0.1.4 writes past its argument array from
				 * the 17th argument on: cancel the CSI, drop the rest. */
				feed(vt, buf + start, i - start);
				feed(vt, "\030", 1);
				start = i + 1;
				vt->scan = SCAN_CSI_DROP;
			} else {
				csi_byte(vt, ch);
			}
			break;
		case SCAN_CSI_DROP:
			start = csi_drop(vt, ch, i);
			break;
		case SCAN_OSC:
			if (ch == 0x07 && !vt->str_dcs) {
				held_flush(vt, buf + start, i + 1 - start);
				start = i + 1;
			} else if (ch == 0x1b) {
				vt->scan = SCAN_OSC_ESC;
			} else if (ch == 0x18 || ch == 0x1a) {
				held_abort(vt);
				start = i + 1;
			}
			break;
		case SCAN_OSC_ESC:
			if (ch == '\\') { /* ST */
				held_flush(vt, buf + start, i + 1 - start);
				start = i + 1;
				break;
			}
			/* Another escape cuts the string short: 0.1.4 over-reads
			 * such a string, so it is dropped; the ESC starts the new
			 * escape and ch is looked at again. */
			held_abort(vt);
			feed(vt, "\033", 1);
			start = i;
			esc_start(vt);
			continue;
		}
		i++;
	}
	if (vt->scan == SCAN_OSC || vt->scan == SCAN_OSC_ESC)
		held_add(vt, buf + start, len - start);
	else
		feed(vt, buf + start, len - start);
	modes_probe(vt);
}

void vt_resize(struct vt *vt, int rows, int cols)
{
	if (rows < 1 || cols < 1 || (rows == vt->grid->rows && cols == vt->grid->cols))
		return;
	vterm_set_size(vt->vterm, rows, cols);
	/* 0.1.4 keeps a top margin past a smaller screen, and its next scroll
	 * moves a negative size: reset the margins, as tmux does on resize,
	 * and put the cursor back (DECSTBM and DECSLRM home it). */
	char s[48];
	int n = snprintf(s, sizeof s, "\033[r\033[s\033[%d;%dH", vt->crow + 1, vt->ccol + 1);
	feed(vt, s, n);
	modes_read(vt);
}

/* ---- reading ---- */

int vt_rows(const struct vt *vt)
{
	return vt->grid->rows;
}

int vt_cols(const struct vt *vt)
{
	return vt->grid->cols;
}

const struct vt_cell *vt_cell(const struct vt *vt, int row, int col)
{
	return grid_cell(vt->grid, row, col);
}

bool vt_row_wrapped(const struct vt *vt, int row)
{
	return grid_wrapped(vt->grid, row);
}

int vt_history(const struct vt *vt)
{
	return grid_history(vt->grid);
}

void vt_clear_history(struct vt *vt)
{
	grid_clear_history(vt->grid);
}

size_t vt_memory(const struct vt *vt)
{
	const struct grid *g = vt->grid;
	int screens = g->scr[1].line ? 2 : 1;
	return sizeof *vt + vt->reply_cap + grid_history_bytes(g) +
	       screens * (size_t)g->rows * (g->cols * sizeof(struct vt_cell) + sizeof(struct grid_line));
}

/* Clamped: libvterm 0.1.4 can report a column past the edge (a wide
 * character in a one-column pane). */
void vt_cursor(const struct vt *vt, int *row, int *col)
{
	int r = vt->crow, c = vt->ccol, rows = vt->grid->rows, cols = vt->grid->cols;
	*row = r < 0 ? 0 : r >= rows ? rows - 1 : r;
	*col = c < 0 ? 0 : c >= cols ? cols - 1 : c;
}

const struct vt_modes *vt_modes(const struct vt *vt)
{
	return &vt->modes;
}

const char *vt_title(const struct vt *vt)
{
	return vt->title;
}

bool vt_row_dirty(const struct vt *vt, int row)
{
	return row >= 0 && row < vt->grid->rows && vt->grid->dirty[row];
}

bool vt_dirty(const struct vt *vt)
{
	return vt->grid->any_dirty || vt->moved;
}

void vt_clear_dirty(struct vt *vt)
{
	grid_clear_dirty(vt->grid);
	vt->moved = false;
}

bool vt_take_bell(struct vt *vt)
{
	bool b = vt->bell;
	vt->bell = false;
	return b;
}

size_t vt_take_reply(struct vt *vt, char *out, size_t cap)
{
	size_t n = vt->reply_len < cap ? vt->reply_len : cap;
	if (n == 0)
		return 0;
	memcpy(out, vt->reply, n);
	memmove(vt->reply, vt->reply + n, vt->reply_len - n);
	vt->reply_len -= n;
	return n;
}
