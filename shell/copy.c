/* copy: copy mode of a pane — scroll back through its history, search
 * with '/', select with Space and copy with Enter into the session's
 * buffer (pasted with prefix ]). The program keeps running meanwhile;
 * its screen is frozen in view only. Rows here are vt rows: 0..rows-1 on
 * the screen, negative in the history. */
#include "shell/mux.h"

#include <stdlib.h>
#include <string.h>

#include "pty/vt.h"

struct copy {
	int scroll; /* lines scrolled up into the history */
	int cy, cx; /* cursor, in view rows */
	bool selecting;
	int sr, sc; /* selection anchor, in vt rows */
	char search[128];
};

static int view_rows(const struct pane *p)
{
	return vt_rows(p->vt);
}

void copy_enter(struct pane *p, int scroll)
{
	if (p->copy == NULL) {
		p->copy = calloc(1, sizeof *p->copy);
		if (p->copy == NULL)
			return;
		vt_cursor(p->vt, &p->copy->cy, &p->copy->cx);
	}
	p->copy->scroll += scroll;
	if (p->copy->scroll > vt_history(p->vt))
		p->copy->scroll = vt_history(p->vt);
	server_redraw(p->srv, true);
}

void copy_exit(struct pane *p)
{
	if (p->copy == NULL)
		return;
	free(p->copy);
	p->copy = NULL;
	server_redraw(p->srv, true);
}

int copy_scroll(const struct pane *p)
{
	return p->copy != NULL ? p->copy->scroll : 0;
}

void copy_view(const struct pane *p, int *cy, int *cx, struct ui_sel *sel)
{
	const struct copy *c = p->copy;
	*sel = (struct ui_sel){ 0 };
	if (c == NULL)
		return;
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
	struct copy *c = p->copy;
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
	int cy, cx;
	copy_view(p, &cy, &cx, &sel);
	struct buf *b = &p->srv->paste;
	b->len = 0;
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
	struct copy *c = p->copy;
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
	struct copy *c = p->copy;
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

void copy_search_done(struct client *cl, struct pane *p, const char *text)
{
	(void)cl;
	if (p->copy == NULL)
		return;
	snprintf(p->copy->search, sizeof p->copy->search, "%s", text);
	search_up(p);
	server_redraw(p->srv, true);
}

void copy_key(struct client *cl, struct pane *p, const struct key *k)
{
	struct copy *c = p->copy;
	int rows = view_rows(p), cols = vt_cols(p->vt);
	uint32_t code = k->code;
	if (k->mods == VT_MOD_SHIFT && (code == VT_KEY_UP || code == VT_KEY_DOWN)) {
		c->scroll += code == VT_KEY_UP ? 1 : -1; /* the wheel: scroll, keep the cursor */
		move_rows(p, 0);
		if (c->scroll == 0 && code == VT_KEY_DOWN && !c->selecting) {
			copy_exit(p);
			return;
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
		return;
	} else if (code == '/') {
		cl->prompt_on = true;
		cl->prompt_kind = PROMPT_SEARCH;
		cl->prompt[0] = 0;
	} else if (code == 'n')
		search_up(p);
	else if (code == 'q' || code == VT_KEY_ESCAPE || (code == 'c' && k->mods == VT_MOD_CTRL)) {
		copy_exit(p);
		return;
	}
	server_redraw(p->srv, true);
}
