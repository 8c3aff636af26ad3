/* copy: copy mode of a pane — scroll back through its history, search
 * with '/', select with Space and copy with Enter into the session's
 * buffer (pasted with prefix ]). The program keeps running meanwhile;
 * its screen is frozen in view only. Rows here are vt rows: 0..rows-1 on
 * the screen, negative in the history. */
#include "shell/mux.h"

#include <stdlib.h>
#include <string.h>

#include "pty/vt.h"
#include "shell/mode.h"

struct copy {
	int scroll; /* lines scrolled up into the history */
	int cy, cx; /* cursor, in view rows */
	bool selecting;
	int sr, sc; /* selection anchor, in vt rows */
	char search[128];
};

static struct copy *copy_of(const struct pane *p)
{
	return p->mode == &mode_copy ? p->mode_data : NULL;
}

static int view_rows(const struct pane *p)
{
	return vt_rows(p->vt);
}

/* Enters copy mode (a pane in another mode stays in it), or scrolls it. */
void copy_enter(struct pane *p, int scroll)
{
	struct copy *c = copy_of(p);
	if (p->mode != NULL && c == NULL)
		return;
	if (c == NULL) {
		if ((c = calloc(1, sizeof *c)) == NULL)
			return;
		vt_cursor(p->vt, &c->cy, &c->cx);
		p->mode = &mode_copy;
		p->mode_data = c;
	}
	c->scroll += scroll;
	if (c->scroll > vt_history(p->vt))
		c->scroll = vt_history(p->vt);
	server_redraw(p->srv, true);
}

static void copy_free(struct pane *p)
{
	free(p->mode_data);
	p->mode = NULL;
	p->mode_data = NULL;
}

static void copy_exit(struct pane *p)
{
	if (copy_of(p) == NULL)
		return;
	copy_free(p);
	server_redraw(p->srv, true);
}

/* How the pane shows: lines scrolled up, the cursor, the selection. */
static void copy_view(const struct pane *p, int *scroll, int *cy, int *cx, struct ui_sel *sel)
{
	const struct copy *c = copy_of(p);
	*sel = (struct ui_sel){ 0 };
	*scroll = c->scroll;
	*cy = c->cy;
	*cx = c->cx;
	if (!c->selecting)
		return;
	int r = c->cy - c->scroll;
	bool before = c->sr < r || (c->sr == r && c->sc <= c->cx);
	*sel = before ? (struct ui_sel){ true, c->sr, c->sc, r, c->cx }
		      : (struct ui_sel){ true, r, c->cx, c->sr, c->sc };
}

/* Moves the cursor by rows, scrolling the view at its edges. */
static void move_rows(struct pane *p, int d)
{
	struct copy *c = copy_of(p);
	c->cy += d;
	if (c->cy < 0) {
		c->scroll -= c->cy;
		c->cy = 0;
	} else if (c->cy >= view_rows(p)) {
		c->scroll -= c->cy - (view_rows(p) - 1);
		c->cy = view_rows(p) - 1;
	}
	if (c->scroll > vt_history(p->vt))
		c->scroll = vt_history(p->vt);
	if (c->scroll < 0)
		c->scroll = 0;
}

/* One row's text as UTF-8, trailing blanks dropped. */
static size_t row_text(const struct vt *vt, int row, int c0, int c1, char *out, size_t cap)
{
	size_t n = 0, keep = 0;
	for (int col = c0; col <= c1 && col < vt_cols(vt); col++) {
		const struct vt_cell *cell = vt_cell(vt, row, col);
		if (cell == NULL || cell->width == 0)
			continue;
		uint32_t ch = cell->ch[0] ? cell->ch[0] : ' ';
		char u[4];
		int len = ch < 0x80    ? (u[0] = (char)ch, 1)
			  : ch < 0x800 ? (u[0] = (char)(0xc0 | ch >> 6), u[1] = (char)(0x80 | (ch & 0x3f)), 2)
			  : ch < 0x10000
				  ? (u[0] = (char)(0xe0 | ch >> 12), u[1] = (char)(0x80 | (ch >> 6 & 0x3f)),
				     u[2] = (char)(0x80 | (ch & 0x3f)), 3)
				  : (u[0] = (char)(0xf0 | ch >> 18), u[1] = (char)(0x80 | (ch >> 12 & 0x3f)),
				     u[2] = (char)(0x80 | (ch >> 6 & 0x3f)), u[3] = (char)(0x80 | (ch & 0x3f)), 4);
		if (n + (size_t)len + 1 >= cap)
			break;
		memcpy(out + n, u, (size_t)len);
		n += (size_t)len;
		if (ch != ' ')
			keep = n;
	}
	out[keep] = 0;
	return keep;
}

static void copy_selection(struct pane *p)
{
	struct ui_sel sel;
	int scroll, cy, cx;
	copy_view(p, &scroll, &cy, &cx, &sel);
	struct buf *b = &p->srv->paste;
	buf_clear(b);
	if (!sel.on)
		return;
	char line[4096];
	for (int r = sel.r0; r <= sel.r1; r++) {
		size_t n = row_text(p->vt, r, r == sel.r0 ? sel.c0 : 0, r == sel.r1 ? sel.c1 : vt_cols(p->vt) - 1, line,
				    sizeof line);
		buf_add(b, line, n);
		if (r < sel.r1 && !vt_row_wrapped(p->vt, r)) /* a wrapped line goes on */
			buf_add(b, "\n", 1);
	}
}

/* Whether row r holds the search text; moves the cursor there if so. */
static bool search_row(struct pane *p, int r)
{
	struct copy *c = copy_of(p);
	char line[4096];
	row_text(p->vt, r, 0, vt_cols(p->vt) - 1, line, sizeof line);
	char *hit = strstr(line, c->search);
	if (hit == NULL)
		return false;
	move_rows(p, r - (c->cy - c->scroll));
	c->cx = (int)(hit - line); /* a byte offset: exact for ASCII lines */
	return true;
}

/* Upwards from the cursor, then on from the bottom of the screen. */
static void search_up(struct pane *p)
{
	struct copy *c = copy_of(p);
	if (c->search[0] == 0)
		return;
	int from = c->cy - c->scroll;
	for (int r = from - 1; r >= -vt_history(p->vt); r--)
		if (search_row(p, r))
			return;
	for (int r = vt_rows(p->vt) - 1; r > from; r--)
		if (search_row(p, r))
			return;
}

/* The search prompt's text: the nearest line above that holds it. */
static void copy_search_done(struct client *cl, const char *text)
{
	struct pane *p = cl->srv->cur != NULL ? cl->srv->cur->active : NULL;
	if (p == NULL || copy_of(p) == NULL)
		return;
	snprintf(copy_of(p)->search, sizeof copy_of(p)->search, "%s", text);
	search_up(p);
	server_redraw(p->srv, true);
}

/* Every key typed at the pane is copy mode's. */
static bool copy_key(struct client *cl, struct pane *p, const struct key *k)
{
	struct copy *c = copy_of(p);
	int rows = view_rows(p), cols = vt_cols(p->vt);
	uint32_t code = k->code;
	if (k->mods == VT_MOD_SHIFT && (code == VT_KEY_UP || code == VT_KEY_DOWN)) {
		c->scroll += code == VT_KEY_UP ? 1 : -1; /* the wheel: scroll, keep the cursor */
		move_rows(p, 0);
		if (c->scroll == 0 && code == VT_KEY_DOWN && !c->selecting) {
			copy_exit(p);
			return true;
		}
	} else if (code == VT_KEY_UP || code == 'k')
		move_rows(p, -1);
	else if (code == VT_KEY_DOWN || code == 'j')
		move_rows(p, 1);
	else if ((code == VT_KEY_LEFT || code == 'h') && c->cx > 0)
		c->cx--;
	else if ((code == VT_KEY_RIGHT || code == 'l') && c->cx < cols - 1)
		c->cx++;
	else if (code == VT_KEY_PAGEUP || (code == 'b' && k->mods == VT_MOD_CTRL))
		move_rows(p, -rows - c->cy);
	else if (code == VT_KEY_PAGEDOWN || (code == 'f' && k->mods == VT_MOD_CTRL))
		move_rows(p, 2 * rows - 1 - c->cy);
	else if (code == 'g')
		move_rows(p, -c->cy - vt_history(p->vt) - rows);
	else if (code == 'G')
		move_rows(p, c->scroll + rows);
	else if (code == '0' || code == VT_KEY_HOME)
		c->cx = 0;
	else if (code == '$' || code == VT_KEY_END)
		c->cx = cols - 1;
	else if (code == ' ' || code == 'v') {
		c->selecting = true;
		c->sr = c->cy - c->scroll;
		c->sc = c->cx;
	} else if (code == VT_KEY_ENTER || code == 'y') {
		copy_selection(p);
		copy_exit(p);
		return true;
	} else if (code == '/') {
		prompt_open(cl, "search: ", copy_search_done);
	} else if (code == 'n')
		search_up(p);
	else if (code == 'q' || code == VT_KEY_ESCAPE || (code == 'c' && k->mods == VT_MOD_CTRL)) {
		copy_exit(p);
		return true;
	}
	server_redraw(p->srv, true);
	return true;
}

/* The wheel: up scrolls, down scrolls back and leaves at the bottom. */
static void copy_wheel(struct client *cl, struct pane *p, int dir)
{
	struct key step = { .kind = KEY_PLAIN, .code = dir > 0 ? VT_KEY_UP : VT_KEY_DOWN, .mods = VT_MOD_SHIFT };
	(void)copy_key(cl, p, &step);
}

const struct pane_mode mode_copy = {
	.name = "copy",
	.title = " [copy mode]",
	.key = copy_key,
	.wheel = copy_wheel,
	.view = copy_view,
	.exit = copy_free,
};
