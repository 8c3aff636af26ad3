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
	vt->scrolled = true;
	return 1;
}

static int cb_erase(VTermRect r, int selective, void *user)
{
	struct vt *vt = user;
	/* DECSED, DECSEL spare both protections, ED, EL, ECH the guarded
	 * cells; what a scroll uncovers goes whatever it was */
	unsigned spare = selective ? VT_PROTECTED | VT_GUARDED : vt->scrolled ? 0 : VT_GUARDED;
	vt->scrolled = false;
	rect_erase(vt, r.start_row, r.end_row, r.start_col, r.end_col, spare);
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
	struct vt *vt = user;
	(void)row;
	(void)oldinfo;
	/* drawn single width, but libvterm wraps such a row at half width */
	vt->ascii_unsure |= newinfo->doublewidth || newinfo->doubleheight;
	return 1;
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

/* CSIs libvterm does not handle: the reports and the rectangle editing
 * it lacks. */
static int fb_csi(const char *leader, const long args[], int argc, const char *inter, char command, void *user)
{
	long a[VT_CSI_ARGS];
	int n = argc < VT_CSI_ARGS ? argc : VT_CSI_ARGS;
	for (int i = 0; i < n; i++)
		a[i] = CSI_ARG_IS_MISSING(args[i]) ? -1 : CSI_ARG(args[i]);
	leader = leader ? leader : "";
	inter = inter ? inter : "";
	return report_csi(user, leader, a, n, inter, command) || rect_csi(user, leader, a, n, inter, command);
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

int vt_mode_get(struct vt *vt, long m)
{
	char q[24];
	int n = snprintf(q, sizeof q, "\033[?%ld$p", m), mode, v;
	vt->probing = true;
	vt->probe_len = 0;
	feed(vt, q, (size_t)n);
	vt->probing = false;
	vt->probe[vt->probe_len < sizeof vt->probe ? vt->probe_len : sizeof vt->probe - 1] = '\0';
	vt->probe_len = 0;
	return sscanf(vt->probe, "\033[?%d;%d$y", &mode, &v) == 2 && mode == m ? v : 0;
}

void vt_mode_set(struct vt *vt, const char *s, size_t len, long m, bool set)
{
	feed(vt, s, len);
	modes_read(vt);
	move_modes(vt, &m, 1, set);
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
	if (!report_csi(vt, leader, a, n, inter, final))
		rect_csi(vt, leader, a, n, inter, final);
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

/* The cursor to screen row r, column c (CUP counts from the margins in
 * origin mode). */
static void cursor_to(struct vt *vt, int r, int c)
{
	char s[32];
	if (vt->origin) {
		r -= vt->mtop;
		c -= vt->mleft;
	}
	int n = snprintf(s, sizeof s, "\033[%d;%dH", r + 1, c + 1);
	feed(vt, s, (size_t)n);
	vt->wrap_pending = false; /* also when the cursor stays where it was */
}

static void charsets_reset(struct vt *vt)
{
	memset(vt->g, 'B', sizeof vt->g);
	vt->gl = 0;
	vt->charsets_used = false;
	vt->autowrap = true; /* as libvterm's resets leave it */
	vt->revwrap = false;
	vt->morefix = false;
	vt->guarded = false; /* as xterm's: erases no longer spare SPA's cells */
	vt->sace = 0;
	for (int k = 0; k < 2; k++)
		vt->saved[k] = (struct vt_saved){ .g = { 'B', 'B', 'B', 'B' } };
}

/* DECSC, as in xterm: the position, the pen (with DECSCA's protection),
 * the character sets and the shift, origin mode and a pending wrap
 * (vttest 2.15 checks the sets), one record for each screen, so what the
 * alternate screen saves leaves the main screen's alone. */
static void cursor_save(struct vt *vt)
{
	struct vt_saved *sv = &vt->saved[vt->grid->cur];
	memcpy(sv->g, vt->g, sizeof vt->g);
	sv->gl = vt->gl;
	sv->origin = vt->origin;
	sv->wrap = vt->wrap_pending && vt->ccol == vt->grid->cols - 1 && vt->crow == vt->wrap_row;
	sv->row = vt->crow;
	sv->col = vt->ccol;
	sv->pen = vt->pen;
}

/* DECRC: origin mode first (setting it homes the cursor), the position
 * (relative to the margins in origin mode), then a pending wrap (by
 * putting the last column's glyph again, its cell kept as it was), then
 * the character sets and the pen. Nothing saved: home, plain. */
static void cursor_restore(struct vt *vt)
{
	const struct vt_saved *sv = &vt->saved[vt->grid->cur];
	char s[48];
	int n = snprintf(s, sizeof s, "\033[?6%c", sv->origin ? 'h' : 'l');
	feed(vt, s, (size_t)n);
	modes_read(vt);
	cursor_to(vt, sv->row, sv->col);
	int r = vt->crow, c = vt->ccol;
	if (sv->wrap && c == vt->grid->cols - 1 && r >= 0 && r < vt->grid->rows) {
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
	memcpy(vt->g, sv->g, sizeof vt->g);
	vt->gl = sv->gl;
	n = snprintf(s, sizeof s, "\033(%c\033)%c\033*%c\033+%c%c", vt->g[0], vt->g[1], vt->g[2], vt->g[3],
		     vt->gl ? 0x0e : 0x0f);
	feed(vt, s, (size_t)n);
	/* every SGR libvterm parses reaches the pen through setpenattr, so
	 * its own pen need not follow */
	vt->pen = sv->pen;
}

/* DECSET/DECRESET 1048 (screen false: DECSC/DECRC) and 1049 (screen
 * true: saved on the main screen, restored on coming back to it). */
static void cursor_alt(struct vt *vt, bool screen, bool set)
{
	if (screen && set && vt->grid->cur == 0) {
		cursor_save(vt);
		feed(vt, "\033[?1047h", 8); /* a cleared alternate screen */
	} else if (screen && !set && vt->grid->cur == 1) {
		feed(vt, "\033[?1047l", 8);
		cursor_restore(vt);
	} else if (!screen) {
		if (set)
			cursor_save(vt);
		else
			cursor_restore(vt);
	}
}

/* The first SO, SI (when character sets are in use) or BS, CR or line
 * feed or HT (with left and right margins, HT with DECSET 41 too) in
 * buf[i, end), or end. */
static size_t ground_control(const struct vt *vt, const char *buf, size_t i, size_t end)
{
	for (; i < end; i++) {
		char c = buf[i];
		if ((vt->charsets_used && (c == 0x0e || c == 0x0f)) || (vt->lrmm && c >= '\n' && c <= '\r') ||
		    ((vt->lrmm || vt->morefix) && c == '\t') || ((vt->lrmm || vt->revwrap) && c == '\b'))
			return i;
	}
	return end;
}

/* CR to the left margin when the cursor is at or right of it (or in
 * origin mode), as in xterm: 0.1.4 always goes to column 0. */
static void carriage_return(struct vt *vt)
{
	bool margin = vt->mleft > 0 && (vt->origin || vt->ccol >= vt->mleft);
	feed(vt, "\r", 1);
	if (margin) {
		char s[16];
		int n = snprintf(s, sizeof s, "\033[%dG", vt->mleft + 1);
		feed(vt, s, (size_t)n);
	}
}

/* A tab (HT, or CHT's s) stops at the right margin when it starts left of
 * it, as in xterm; 0.1.4 goes on to the screen's last column. */
static void tab_bounded(struct vt *vt, const char *s, size_t len)
{
	int before = vt->ccol;
	feed(vt, s, len);
	if (vt->lrmm && before < vt->mright && vt->ccol >= vt->mright)
		cursor_to(vt, vt->crow, vt->mright - 1);
}

/* SO and SI are only noted; CR goes as carriage_return() says, BS stops
 * at the left margin, a line feed (LF, VT, FF) is held as
 * move_index_held() says. Returns where the bytes to feed start. */
static size_t ground_byte(struct vt *vt, const char *buf, size_t start, size_t k)
{
	if (buf[k] == 0x0e || buf[k] == 0x0f) {
		vt->gl = buf[k] == 0x0e;
		return start;
	}
	feed(vt, buf + start, k - start);
	int r, c;
	if (buf[k] == '\r') {
		carriage_return(vt);
	} else if (buf[k] == '\t') {
		if (vt->morefix && vt->autowrap && vt->wrap_pending && vt->ccol == vt->grid->cols - 1 &&
		    vt->crow == vt->wrap_row) {
			/* xterm's 41, for curses: the pending wrap happens first */
			int row = vt->crow;
			feed(vt, "\r\n", 2);
			int was = vt->crow == row ? row - 1 : row; /* scrolled, or moved down */
			if (was >= 0)
				grid_line(vt->grid, was)->wrapped = true;
		}
		tab_bounded(vt, "\t", 1);
	} else if (buf[k] == '\b' && move_back_wrap(vt, 1, &r, &c)) {
		cursor_to(vt, r, c);
	} else if (buf[k] == '\b' ? move_back(vt, vt->ccol, 1) < vt->ccol : !move_index_held(vt, false)) {
		feed(vt, buf + k, 1);
	}
	return k + 1;
}

/* The escape ending at buf[i] is done here: what comes before it is fed,
 * and its ESC kept from libvterm (or cancelled, if fed already). */
static void esc_take(struct vt *vt, const char *buf, size_t start, size_t i)
{
	if (i == 0 || start >= i)
		feed(vt, "\030", 1); /* libvterm has seen the ESC */
	else
		feed(vt, buf + start, i - 1 - start);
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
	if ((ch == 'X' || ch == '^' || ch == '_') && !vt->esc_inter) {
		/* SOS, PM, APC: 0.1.4 prints what they hold; dropped here up
		 * to their ST (a BEL does not end them) */
		esc_take(vt, buf, start, i);
		vt->scan = SCAN_OSC;
		vt->str_dcs = true;
		vt->osc_drop = true;
		return i + 1;
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
			vt->insert = vt->newline = vt->irm = false;
			charsets_reset(vt);
			return i + 1;
		}
		if ((ch == '7' || ch == '8') && !vt->esc_inter) { /* DECSC, DECRC */
			esc_take(vt, buf, start, i);
			if (ch == '7')
				cursor_save(vt);
			else
				cursor_restore(vt);
			return i + 1;
		}
		if (vt->lrmm && !vt->esc_inter && (ch == 'D' || ch == 'E' || ch == 'M')) {
			/* IND, NEL, RI: held outside the left and right margins,
			 * and NEL's return goes to the left margin */
			esc_take(vt, buf, start, i);
			if (!move_index_held(vt, ch == 'M'))
				feed(vt, ch == 'M' ? "\033M" : "\033D", 2);
			if (ch == 'E')
				carriage_return(vt);
			return i + 1;
		}
		if (ch == 'Z' && !vt->esc_inter) { /* DECID: as DA1, as xterm */
			esc_take(vt, buf, start, i);
			report_da(vt, 0);
			return i + 1;
		}
		if ((ch == 'V' || ch == 'W') && !vt->esc_inter) { /* SPA, EPA: 0.1.4 ignores them */
			esc_take(vt, buf, start, i);
			rect_guard(vt, ch == 'V');
			return i + 1;
		}
		if ((ch == '6' || ch == '9') && !vt->esc_inter) { /* DECBI, DECFI: libvterm has neither */
			esc_take(vt, buf, start, i);
			int move = rect_index(vt, ch == '9');
			if (move)
				feed(vt, move > 0 ? "\033[C" : "\033[D", 3);
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

/* SM or RM: libvterm's insert mode follows the first argument alone,
 * read as it reads it (31 bits kept). A mode set past what csi[] holds
 * (insert, origin...) is not known here: text goes through libvterm from
 * then on. */
static void irm_track(struct vt *vt, bool on)
{
	if (vt->csi_other)
		return;
	if (vt->csi_long) {
		vt->ascii_unsure = true;
		return;
	}
	if (vt->csi_priv)
		return;
	uint64_t v = 0;
	size_t k = 0;
	for (; k < vt->csi_len && vt->csi[k] >= '0' && vt->csi[k] <= '9'; k++)
		v = v * 10 + (uint64_t)(vt->csi[k] - '0');
	if (k > 0 && (v & 0x7fffffff) == 4)
		vt->irm = on;
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
		vt->insert = vt->newline = vt->irm = false;
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
	if (ch == 'h' || ch == 'l')
		irm_track(vt, ch == 'h');
	if (ch == 'q' && vt->csi_inter == '"' && !vt->csi_priv && !vt->csi_long) {
		/* DECSCA: libvterm keeps it to itself; the pen carries it here */
		long a[VT_CSI_ARGS];
		csi_args(vt, a);
		feed(vt, buf + start, i + 1 - start);
		rect_protect(vt, a[0]);
		return i + 1;
	}
	if (ch == 'P' && !vt->csi_priv && !vt->csi_other && !vt->csi_long &&
	    (vt->mtop > 0 || vt->mbottom < vt->grid->rows)) {
		/* DCH outside the scrolling region: 0.1.4 ignores it */
		long a[VT_CSI_ARGS];
		csi_args(vt, a);
		feed(vt, buf + start, i - start);
		if (!rect_delete_chars(vt, a[0]))
			return i;
		feed(vt, "\030", 1);
		return i + 1;
	}
	if (ch == 'I' && vt->lrmm && !vt->csi_priv && !vt->csi_other && !vt->csi_long) { /* CHT */
		feed(vt, buf + start, i - start);
		feed(vt, "\030", 1);
		char s[16];
		int n = snprintf(s, sizeof s, "\033[%.*sI", (int)(vt->csi_len < 8 ? vt->csi_len : 8), vt->csi);
		tab_bounded(vt, s, (size_t)n);
		return i + 1;
	}
	if (!vt->csi_priv && !vt->csi_other && !vt->csi_long &&
	    (strchr("ABCDEF", ch) || (vt->origin && (ch == 'G' || ch == '`')))) {
		/* CUU, CUD, CUF, CUB, CNL, CPL: bounded by the margins as in
		 * xterm; CHA and HPA: from the left margin in origin mode */
		long a[VT_CSI_ARGS];
		csi_args(vt, a);
		feed(vt, buf + start, i - start);
		feed(vt, "\030", 1);
		int r, c;
		if (move_csi(vt, ch, a[0], &r, &c))
			cursor_to(vt, r, c);
		return i + 1;
	}
	if (ch == 'p' && vt->csi_priv == '?' && vt->csi_inter == '$') {
		/* DECRQM of a DEC mode: not below VT300 level, as in xterm (the
		 * level as what comes before leaves it) */
		feed(vt, buf + start, i - start);
		if (vt->level >= 3)
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
	if (vt->csi_priv == '?' && (ch == 'h' || ch == 'l') && vt->csi_len == 4 &&
	    (memcmp(vt->csi, "1048", 4) == 0 || memcmp(vt->csi, "1049", 4) == 0)) {
		/* 1048 is DECSC/DECRC, and 1049 saves before going to the
		 * alternate screen and restores after leaving it: ours, with
		 * the sets and a record per screen (0.1.4's has neither) */
		feed(vt, buf + start, i - start);
		feed(vt, "\030", 1);
		cursor_alt(vt, vt->csi[3] == '9', ch == 'h');
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
	if (vt->csi_priv == '?' && (ch == 's' || ch == 'r')) {
		/* XTSAVE, XTRESTORE: libvterm 0.1.4 has neither */
		long a[VT_CSI_ARGS];
		int n = csi_args(vt, a);
		feed(vt, buf + start, i - start);
		feed(vt, "\030", 1);
		if (ch == 's')
			modes_save(vt, a, n);
		else
			modes_restore(vt, a, n);
		return i + 1;
	}
	if (vt->csi_priv == '?' && (ch == 'h' || ch == 'l')) {
		long a[VT_CSI_ARGS];
		int n = csi_args(vt, a);
		feed(vt, buf + start, i + 1 - start);
		modes_read(vt);
		move_modes(vt, a, n, ch == 'h');
		return i + 1;
	}
	if (vt->csi_priv)
		return start;
	if (ch == 'h' || ch == 'l') {
		ansi_modes(vt, ch == 'h');
		return start;
	}
	if (((ch == 's' && !vt->lrmm) || ch == 'u') && vt->csi_len == 0) {
		/* ANSI.SYS cursor save/restore, as in xterm and tmux. 0.1.4
		 * has no CSI u, and its CSI s (DECSLRM) homes the cursor:
		 * cancel the CSI (CAN), send DECSC/DECRC instead. With left
		 * and right margins on, CSI s is DECSLRM, as in xterm. */
		feed(vt, buf + start, i - start);
		feed(vt, "\030", 1);
		if (ch == 's')
			cursor_save(vt);
		else
			cursor_restore(vt);
		return i + 1;
	}
	if (ch == 'r' || ch == 's') { /* DECSTBM, DECSLRM */
		long a[VT_CSI_ARGS];
		int n = csi_args(vt, a);
		if (n >= 2 && a[1] > 0 && (a[0] < 1 ? 1 : a[0]) >= a[1]) {
			/* top not above bottom (left not left of right): xterm
			 * ignores it, 0.1.4 makes a one-line region of it */
			feed(vt, buf + start, i - start);
			feed(vt, "\030", 1);
			return i + 1;
		}
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

/* ---- printable ASCII, straight into the grid ----
 *
 * Runs of printable ASCII are most of what programs print, and libvterm
 * decodes, measures and puts them one glyph at a time. Where that is
 * known to give the same cells, they are written here and libvterm's
 * cursor is moved past them with one CUF. The first two bytes and the
 * last of a run still go through libvterm: its UTF-8 decoders keep an
 * unfinished sequence until the next printable byte (a U+FFFD for it
 * comes first), a single shift applies to the first glyph alone, what it
 * keeps of its last glyph is what combining marks that follow attach to,
 * and a row's last column and the wrap after it stay its own. */

#define ASCII_MIN 8 /* a shorter run costs more to hand over than to feed */

static bool ascii_byte(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;
}

/* Whether libvterm would put printable ASCII as it is: all four sets
 * ASCII, no insert mode, no double-width line (libvterm wraps it at half
 * width), no origin mode (a CUF there is held inside the margins). */
static bool ascii_ok(const struct vt *vt)
{
	return memcmp(vt->g, "BBBB", 4) == 0 && !vt->irm && !vt->ascii_unsure && !vt->origin &&
	       vt->grid->cols > ASCII_MIN + 2;
}

static void feed_cuf(struct vt *vt, int n)
{
	char s[16], *d = s + sizeof s;
	*--d = 'C';
	for (; n > 0; n /= 10)
		*--d = (char)('0' + n % 10);
	*--d = '[';
	*--d = '\033';
	feed(vt, d, (size_t)(s + sizeof s - d));
}

/* n glyphs at row, col, short of the last column (so never at a pending
 * wrap): the cells cb_putglyph would write, then libvterm's cursor. */
static void ascii_put(struct vt *vt, int row, int col, const char *s, int n)
{
	struct grid *g = vt->grid;
	struct grid_line *l = grid_line(g, row);
	if (vt->wrap_pending && col == 0 && row == vt->wrap_row + 1 && vt->wrap_row >= 0)
		grid_line(g, vt->wrap_row)->wrapped = true;
	unwide(l, col, n, g->cols);
	struct vt_cell *c = l->cells + col;
	for (int i = 0; i < n; i++)
		c[i] = (struct vt_cell){ .ch = { (unsigned char)s[i] }, .width = 1, .attr = vt->pen };
	vt->last_ch[0] = (unsigned char)s[n - 1];
	vt->last_ch[1] = vt->last_ch[2] = 0;
	vt->last_width = 1;
	grid_use(l, col + n);
	grid_touch(g, row);
	vt->wrap_pending = false;
	vt->wrap_row = row;
	feed_cuf(vt, n);
}

/* The printable run buf[p, q), whose first byte starts libvterm's text:
 * what fits put straight in, row by row (libvterm takes each row's last
 * column and the wrap). Returns where the bytes not yet fed start. */
static size_t ascii_run(struct vt *vt, const char *buf, size_t start, size_t p, size_t q)
{
	bool edge = false;
	p += 2;
	while (p < q && q - p - 1 >= ASCII_MIN) {
		feed(vt, buf + start, p - start);
		start = p;
		VTermPos pos;
		vterm_state_get_cursorpos(vt->state, &pos);
		/* again: what was just fed may have set a double-width line */
		if (!ascii_ok(vt) || pos.row < 0 || pos.row >= vt->grid->rows || pos.col < 0)
			break;
		size_t room = vt->grid->cols - 1 - pos.col > 0 ? (size_t)(vt->grid->cols - 1 - pos.col) : 0;
		if (room < ASCII_MIN) {
			if (edge) /* no autowrap: the cursor stays at the edge */
				break;
			edge = true;
			p += room + 2 < q - p - 1 ? room + 2 : q - p - 1;
			continue;
		}
		size_t n = q - p - 1 < room ? q - p - 1 : room;
		ascii_put(vt, pos.row, pos.col, buf + p, (int)n);
		p += n;
		start = p;
		edge = false;
	}
	return start;
}

/* The printable runs in buf[i, end), ground text with no ESC, that start
 * libvterm's text: after a control, or at i unless a byte of 0x80 or more
 * came just before (a CSI ended by one leaves it as text). A run after
 * such a byte may be decoded by another of libvterm's UTF-8 decoders, so
 * it is left to libvterm. Returns where the bytes not yet fed start. */
static size_t ascii_runs(struct vt *vt, const char *buf, size_t start, size_t i, size_t end)
{
	if (end - i < ASCII_MIN + 3 || !ascii_ok(vt))
		return start;
	size_t seg = i;
	while (i < end) {
		while (i < end && !ascii_byte(buf[i]))
			i++;
		size_t p = i;
		while (i < end && ascii_byte(buf[i]))
			i++;
		unsigned char before = p > 0 ? (unsigned char)buf[p - 1] : 0;
		bool text_start = p == seg ? before < 0x80 : before < 0x20 || before == 0x7f;
		if (text_start && i - p >= ASCII_MIN + 3)
			start = ascii_run(vt, buf, start, p, i);
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
			if (vt->charsets_used || vt->lrmm || vt->revwrap || vt->morefix)
				k = ground_control(vt, buf, i, end);
			start = ascii_runs(vt, buf, start, i, k);
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
	return sizeof *vt + vt->reply_cap + grid_history_bytes(g) + grid_screen_bytes(g);
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
