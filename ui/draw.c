/* draw: a pane's cells onto the client's curses screen. Only cells reach
 * the terminal: a character curses would expand (a control character) or
 * whose width disagrees with the cell is drawn as '?', so a program's
 * output can never move the outer cursor or shift a line. */
#include "ui/ui-private.h"

#include <wchar.h>

#include "pty/vt.h"

static bool in_sel(const struct ui_sel *s, int row, int col)
{
	if (s == NULL || !s->on || row < s->r0 || row > s->r1)
		return false;
	if (row == s->r0 && col < s->c0)
		return false;
	return !(row == s->r1 && col > s->c1);
}

static wchar_t safe_char(uint32_t ch, int width)
{
	if (ch >= 0x20 && ch < 0x7f) /* most cells: printable ASCII, one column */
		return width == 1 ? (wchar_t)ch : L'?';
	if (ch == 0)
		return L' ';
	if (ch < 0x20 || (ch >= 0x7f && ch < 0xa0) || ch > 0x10ffff)
		return L'?';
	int w = wcwidth((wchar_t)ch);
	return w == width ? (wchar_t)ch : L'?';
}

/* The last attribute mapped: neighbouring cells mostly share one, and
 * mapping means a colour-pair lookup. */
struct attr_cache {
	bool valid;
	struct vt_attr a;
	attr_t at;
	int pair;
};

static void cell_attr(struct ui *ui, struct attr_cache *ac, const struct vt_attr *a, attr_t *at, int *pair)
{
	if (!ac->valid || ac->a.fg != a->fg || ac->a.bg != a->bg || ac->a.flags != a->flags) {
		ui_attr(ui, a, &ac->at, &ac->pair);
		ac->a = *a;
		ac->valid = true;
	}
	*at = ac->at;
	*pair = ac->pair;
}

static void draw_cell(struct ui *ui, struct attr_cache *ac, int y, int x, const struct vt_cell *c, bool reverse)
{
	wchar_t wch[VT_MAX_CHARS + 1] = { 0 };
	wch[0] = safe_char(c->ch[0], c->width == 2 ? 2 : 1);
	if (wch[0] == L'?' && c->width == 2)
		wch[0] = L' '; /* keep the line's columns: two blanks */
	for (int i = 1, o = 1; i < VT_MAX_CHARS && c->ch[i] != 0 && wch[0] != L'?'; i++)
		if (wcwidth((wchar_t)c->ch[i]) == 0)
			wch[o++] = (wchar_t)c->ch[i];
	attr_t at;
	int pair;
	cell_attr(ui, ac, &c->attr, &at, &pair);
	if (reverse)
		at ^= A_REVERSE;
	cchar_t cc;
	setcchar(&cc, wch, at, 0, &pair);
	mvwadd_wch(newscr, y, x, &cc);
	if (c->width == 2 && wch[0] == L' ')
		mvwadd_wch(newscr, y, x + 1, &cc);
}

static void draw_row(struct ui *ui, struct attr_cache *ac, struct vt *vt, int vrow, int y, int x, int w,
		     const struct ui_sel *sel)
{
	int cols = vt_cols(vt);
	int c = 0;
	for (; c < w && c < cols; c++) {
		const struct vt_cell *cell = vt_cell(vt, vrow, c);
		if (cell == NULL)
			break;
		if (cell->width == 0)
			continue;
		if (cell->width == 2 && c + 1 >= w) {
			mvwaddch(newscr, y, x + c, ' ');
			continue;
		}
		draw_cell(ui, ac, y, x + c, cell, in_sel(sel, vrow, c));
	}
	if (c < w) {
		wmove(newscr, y, x + c);
		for (; c < w; c++)
			waddch(newscr, ' ');
	}
}

void ui_draw_vt(struct ui *ui, struct vt *vt, int x, int y, int w, int h, int scroll, bool all,
		const struct ui_sel *sel)
{
	set_term(ui->scr);
	int rows = vt_rows(vt);
	struct attr_cache ac = { .valid = false };
	for (int r = 0; r < h; r++) {
		int vrow = r - scroll;
		if (!all && scroll == 0 && r < rows && !vt_row_dirty(vt, r))
			continue;
		if (vrow >= rows || vrow < -vt_history(vt)) {
			mvwhline(newscr, y + r, x, ' ', w);
			continue;
		}
		draw_row(ui, &ac, vt, vrow, y + r, x, w, sel);
	}
}
