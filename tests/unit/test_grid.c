/* The grid on its own: ring scrolling, region rotation, the scrollback
 * ring and its compact lines, the alternate screen, resize. */
#include <stdio.h>
#include <string.h>

#include "pty/grid.h"
#include "unit.h"

/* Write s at row r (ASCII), with attribute a. */
static void text(struct grid *g, int r, const char *s, struct vt_attr a)
{
	struct grid_line *l = grid_line(g, r);
	for (int c = 0; s[c] && c < g->cols; c++) {
		l->cells[c] = (struct vt_cell){ .ch = { (uint8_t)s[c] }, .width = 1, .attr = a };
		grid_use(l, c + 1);
	}
}

static const char *row(const struct grid *g, int r)
{
	static char s[512];
	int n = 0, keep = 0;
	for (int c = 0; n < (int)sizeof s - 1; c++) {
		const struct vt_cell *cell = grid_cell(g, r, c);
		if (c >= g->cols && r >= 0)
			break;
		if (c >= 400)
			break;
		s[n++] = cell->ch[0] ? (char)cell->ch[0] : ' ';
		if (cell->ch[0])
			keep = n;
	}
	s[keep] = '\0';
	return s;
}

static const struct vt_attr plain;

static void fill(struct grid *g)
{
	char s[2] = "a";
	for (int r = 0; r < g->rows; r++, s[0]++)
		text(g, r, s, plain);
}

static void test_ring_scroll(struct unit *u)
{
	struct grid *g = grid_new(4, 8, 3);
	fill(g);
	for (int i = 0; i < 6; i++) /* the ring wraps around more than once */
		grid_scroll(g, 0, 4, 1, 0);
	CHECK_STR(u, row(g, 0), "");
	CHECK_INT(u, grid_history(g), 3); /* bounded */
	CHECK_STR(u, row(g, -3), "d");    /* a b c fell out; then two blank lines */
	CHECK_STR(u, row(g, -1), "");
	fill(g);
	grid_scroll(g, 0, 4, 2, 0);
	CHECK_STR(u, row(g, 0), "c");
	CHECK_STR(u, row(g, 1), "d");
	CHECK_STR(u, row(g, 2), "");
	CHECK_STR(u, row(g, -1), "b");
	grid_scroll(g, 0, 4, -1, 0); /* down: nothing comes back from history */
	CHECK_STR(u, row(g, 0), "");
	CHECK_STR(u, row(g, 1), "c");
	CHECK_INT(u, grid_history(g), 3);
	grid_scroll(g, 0, 4, 99, 0); /* more than the height: all blank */
	for (int r = 0; r < 4; r++)
		CHECK_STR(u, row(g, r), "");
	grid_free(g);
}

static void test_region(struct unit *u)
{
	struct grid *g = grid_new(5, 8, 10);
	fill(g);
	grid_clear_dirty(g);
	grid_scroll(g, 1, 4, 1, 0x01000004u);
	CHECK_STR(u, row(g, 0), "a");
	CHECK_STR(u, row(g, 1), "c");
	CHECK_STR(u, row(g, 2), "d");
	CHECK_STR(u, row(g, 3), "");
	CHECK_STR(u, row(g, 4), "e");
	CHECK_INT(u, grid_cell(g, 3, 7)->attr.bg, 0x01000004u); /* blanked with bg */
	CHECK_INT(u, grid_history(g), 0);
	CHECK(u, !g->dirty[0] && g->dirty[1] && g->dirty[3] && !g->dirty[4]);
	grid_scroll(g, 0, 3, -2, 0);
	CHECK_STR(u, row(g, 0), "");
	CHECK_STR(u, row(g, 1), "");
	CHECK_STR(u, row(g, 2), "a");
	CHECK_STR(u, row(g, 3), "");
	grid_free(g);
}

static void test_erase_move(struct unit *u)
{
	struct grid *g = grid_new(3, 8, 0);
	text(g, 0, "abcdefgh", plain);
	grid_erase(g, 0, 1, 2, 4, 0);
	CHECK_STR(u, row(g, 0), "ab  efgh");
	grid_move(g, 1, 1, 0, 4, 1, 4);
	CHECK_STR(u, row(g, 1), " efgh");
	grid_move(g, 0, 0, 0, 1, 1, 7); /* overlapping, leftwards */
	CHECK_STR(u, row(g, 0), "b  efghh");
	grid_move(g, 5, 0, 0, 0, 1, 8);   /* out of range: ignored */
	grid_erase(g, -5, 99, -5, 99, 0); /* clamped */
	CHECK_STR(u, row(g, 0), "");
	grid_free(g);
}

static void test_history_lines(struct unit *u)
{
	struct grid *g = grid_new(2, 10, 5);
	struct vt_attr red = { .fg = VT_COLOR_INDEX | 1, .flags = VT_BOLD };
	text(g, 0, "hi", red);
	struct grid_line *l = grid_line(g, 0);
	l->cells[5] = (struct vt_cell){ .ch = { 'e', 0x301, 0x302 }, .width = 1 };
	l->cells[7] = (struct vt_cell){ .ch = { 0x4e2d }, .width = 2 };
	l->cells[8] = (struct vt_cell){ .width = 0 };
	l->wrapped = true;
	grid_use(l, 9);
	grid_scroll(g, 0, 2, 1, 0);
	CHECK_INT(u, grid_history(g), 1);
	const struct vt_cell *c = grid_cell(g, -1, 0);
	CHECK_INT(u, c->ch[0], 'h');
	CHECK_INT(u, c->attr.fg, VT_COLOR_INDEX | 1);
	CHECK_INT(u, c->attr.flags, VT_BOLD);
	CHECK_INT(u, grid_cell(g, -1, 2)->attr.fg, VT_COLOR_DEFAULT);
	CHECK_INT(u, grid_cell(g, -1, 5)->ch[1], 0x301);
	CHECK_INT(u, grid_cell(g, -1, 5)->ch[2], 0x302);
	CHECK_INT(u, grid_cell(g, -1, 7)->width, 2);
	CHECK_INT(u, grid_cell(g, -1, 8)->width, 0);
	CHECK_INT(u, grid_cell(g, -1, 9)->ch[0], 0);
	CHECK(u, grid_wrapped(g, -1));
	CHECK(u, !grid_wrapped(g, -2));
	CHECK_INT(u, grid_cell(g, -2, 0)->ch[0], 0);
	CHECK(u, grid_history_bytes(g) > 0);
	/* A Latin-1 line (stored a byte per cell) keeps its marks and colours. */
	text(g, 0, "caf", red);
	l = grid_line(g, 0);
	l->cells[3] = (struct vt_cell){ .ch = { 'e', 0x301 }, .width = 1 };
	l->cells[4] = (struct vt_cell){ .ch = { 0xe9 }, .width = 1, .attr = { .bg = VT_COLOR_RGB | 0x123456 } };
	grid_use(l, 5);
	grid_scroll(g, 0, 2, 1, 0);
	CHECK_INT(u, grid_cell(g, -1, 0)->ch[0], 'c');
	CHECK_INT(u, grid_cell(g, -1, 2)->attr.fg, VT_COLOR_INDEX | 1);
	CHECK_INT(u, grid_cell(g, -1, 3)->ch[1], 0x301);
	CHECK_INT(u, grid_cell(g, -1, 3)->attr.fg, VT_COLOR_DEFAULT);
	CHECK_INT(u, grid_cell(g, -1, 4)->ch[0], 0xe9);
	CHECK_INT(u, grid_cell(g, -1, 4)->attr.bg, VT_COLOR_RGB | 0x123456);
	CHECK_INT(u, grid_cell(g, -1, 5)->ch[0], 0);
	grid_clear_history(g);
	CHECK_INT(u, grid_history(g), 0);
	grid_free(g);
}

static void test_alt(struct unit *u)
{
	struct grid *g = grid_new(3, 6, 10);
	fill(g);
	grid_set_alt(g, true);
	CHECK_STR(u, row(g, 0), "");
	text(g, 0, "alt", plain);
	grid_scroll(g, 0, 3, 1, 0);
	CHECK_INT(u, grid_history(g), 0);
	int cr = 2, cc = 0;
	grid_resize(g, 4, 8, &cr, &cc); /* both screens resize */
	grid_set_alt(g, false);
	CHECK_STR(u, row(g, 0), "a");
	CHECK_STR(u, row(g, 2), "c");
	CHECK_INT(u, g->rows, 4);
	grid_free(g);
}

static void test_resize(struct unit *u)
{
	struct grid *g = grid_new(4, 6, 10);
	fill(g);
	/* Fewer rows, same width: the top goes into the scrollback. */
	int cr = 3, cc = 5;
	grid_resize(g, 2, 6, &cr, &cc);
	CHECK_STR(u, row(g, 0), "c");
	CHECK_STR(u, row(g, 1), "d");
	CHECK_INT(u, cr, 1);
	CHECK_INT(u, cc, 5);
	CHECK_INT(u, grid_history(g), 2);
	/* Narrower: re-wrapped; the cursor past the text takes a row of its own. */
	grid_resize(g, 2, 3, &cr, &cc);
	CHECK_STR(u, row(g, 0), "d");
	CHECK(u, grid_wrapped(g, 0));
	CHECK_STR(u, row(g, 1), "");
	CHECK_INT(u, cr, 1);
	CHECK_INT(u, cc, 2);
	CHECK_INT(u, grid_history(g), 3);
	/* Back to the old width and more rows: the same text, the same cursor. */
	grid_resize(g, 5, 6, &cr, &cc);
	CHECK_STR(u, row(g, 0), "a");
	CHECK_STR(u, row(g, 3), "d");
	CHECK_STR(u, row(g, 4), "");
	CHECK_INT(u, cr, 3);
	CHECK_INT(u, cc, 5);
	CHECK_INT(u, grid_history(g), 0);
	/* A wide character cut by the new width is blanked whole. */
	struct grid_line *l = grid_line(g, 0);
	l->cells[2] = (struct vt_cell){ .ch = { 0x4e2d }, .width = 2 };
	l->cells[3] = (struct vt_cell){ .width = 0 };
	grid_use(l, 4);
	grid_resize(g, 5, 3, &cr, &cc);
	CHECK_INT(u, grid_cell(g, 0, 2)->width, 1);
	CHECK_INT(u, grid_cell(g, 0, 2)->ch[0], 0);
	grid_resize(g, 0, -4, &cr, &cc); /* clamped to 1x1 */
	CHECK_INT(u, g->rows, 1);
	CHECK_INT(u, g->cols, 1);
	grid_free(g);
}

/* Push line "Ln" off the top of the whole screen. */
static void push_line(struct grid *g, int n)
{
	char s[16];
	snprintf(s, sizeof s, "L%d", n);
	text(g, 0, s, plain);
	grid_scroll(g, 0, g->rows, 1, 0);
}

/* What an idle pane does not use is not allocated: the scrollback ring's
 * slots grow with the lines, the alternate screen comes with the first
 * switch to it; both work after being allocated late. */
static void test_lazy(struct unit *u)
{
	struct grid *g = grid_new(3, 10, 200);
	CHECK_INT(u, g->hist_alloc, 0);
	CHECK(u, g->scr[1].line == NULL);
	CHECK_INT(u, (int)grid_history_bytes(g), 0);
	/* A re-wrap (new width) with no scrollback and no alternate screen. */
	text(g, 0, "abcdefgh", plain);
	int cr = 0, cc = 8;
	grid_resize(g, 3, 4, &cr, &cc);
	CHECK_STR(u, row(g, 0), "abcd");
	CHECK_STR(u, row(g, 1), "efgh");
	CHECK(u, g->scr[1].line == NULL);
	CHECK_INT(u, g->hist_alloc, 0);
	grid_resize(g, 3, 10, &cr, &cc);
	CHECK_STR(u, row(g, 0), "abcdefgh");
	grid_erase(g, 0, 3, 0, 10, 0);
	/* The ring grows past its first sizes in order, then turns at 200. */
	for (int i = 0; i < 150; i++)
		push_line(g, i);
	CHECK_INT(u, grid_history(g), 150);
	CHECK(u, g->hist_alloc >= 150 && g->hist_alloc <= 200);
	CHECK_STR(u, row(g, -1), "L149");
	CHECK_STR(u, row(g, -150), "L0");
	for (int i = 150; i < 260; i++)
		push_line(g, i);
	CHECK_INT(u, grid_history(g), 200);
	CHECK_INT(u, g->hist_alloc, 200);
	CHECK_STR(u, row(g, -1), "L259");
	CHECK_STR(u, row(g, -200), "L60");
	/* A re-wrap of a full ring keeps the newest 200 rows, which come
	 * back as 100 lines (the newest on the screen, with the cursor). */
	grid_resize(g, 3, 2, &cr, &cc);
	CHECK_INT(u, grid_history(g), 200);
	CHECK_STR(u, row(g, -200), "L1");
	CHECK_STR(u, row(g, -199), "61");
	grid_resize(g, 3, 10, &cr, &cc);
	CHECK_INT(u, grid_history(g), 97);
	CHECK_STR(u, row(g, -97), "L161");
	CHECK_STR(u, row(g, -1), "L257");
	CHECK_STR(u, row(g, 0), "L258");
	/* The alternate screen, entered late at the new size, then left. */
	text(g, 1, "main", plain);
	grid_set_alt(g, true);
	CHECK(u, g->scr[1].line != NULL);
	CHECK_STR(u, row(g, 1), "");
	text(g, 2, "alt", plain);
	CHECK_STR(u, row(g, 2), "alt");
	grid_scroll(g, 0, 3, 1, 0);
	CHECK_STR(u, row(g, 1), "alt");
	CHECK_INT(u, grid_history(g), 97);
	grid_set_alt(g, false);
	CHECK(u, g->scr[1].line == NULL);
	CHECK_STR(u, row(g, 1), "main");
	/* Clearing the scrollback gives its slots back; new lines come again. */
	grid_clear_history(g);
	CHECK_INT(u, g->hist_alloc, 0);
	CHECK_INT(u, (int)grid_history_bytes(g), 0);
	push_line(g, 1000);
	CHECK_INT(u, grid_history(g), 1);
	CHECK_STR(u, row(g, -1), "L1000");
	grid_free(g);
	/* No scrollback at all: lines leave and nothing is kept. */
	g = grid_new(2, 4, 0);
	push_line(g, 1);
	CHECK_INT(u, grid_history(g), 0);
	CHECK_INT(u, g->hist_alloc, 0);
	grid_free(g);
}

/* A row gets its cells when first written: an idle screen has none, and
 * scrolling, erasing, moving and resizing blank rows keep them so. */
static void test_lazy_rows(struct unit *u)
{
	struct grid *g = grid_new(10, 20, 100);
	size_t empty = grid_screen_bytes(g), row_bytes = 20 * sizeof(struct vt_cell);
	for (int r = 0; r < 10; r++)
		CHECK(u, grid_line_at(g, r)->cells == NULL);
	grid_erase(g, 0, 10, 0, 20, 0); /* a clear of blank rows */
	grid_scroll(g, 0, 10, 3, 0);
	grid_scroll(g, 2, 8, -2, 0);
	grid_move(g, 1, 2, 4, 0, 3, 10);
	CHECK(u, grid_screen_bytes(g) == empty);
	CHECK_INT(u, grid_history(g), 3); /* blank lines still scroll into the history */
	text(g, 4, "prompt", plain);
	CHECK(u, grid_screen_bytes(g) == empty + row_bytes);
	CHECK_STR(u, row(g, 4), "prompt");
	CHECK_STR(u, row(g, 5), "");
	/* moving the written row down fills the row it lands on */
	grid_move(g, 6, 0, 4, 0, 1, 20);
	CHECK_STR(u, row(g, 6), "prompt");
	CHECK(u, grid_screen_bytes(g) == empty + 2 * row_bytes);
	/* a blank row moved over a written one blanks it */
	grid_move(g, 6, 0, 7, 0, 1, 20);
	CHECK_STR(u, row(g, 6), "");
	/* an erase with a background colour fills the row */
	grid_erase(g, 8, 9, 0, 20, 5);
	CHECK_INT(u, (int)grid_cell(g, 8, 3)->attr.bg, 5);
	/* resize (a new width re-wraps): the blank rows stay without cells */
	int crow = 4, ccol = 6;
	grid_resize(g, 12, 30, &crow, &ccol);
	CHECK_STR(u, row(g, crow), "prompt");
	int with = 0;
	for (int r = 0; r < 12; r++)
		with += grid_line_at(g, r)->cells != NULL;
	CHECK(u, with <= 3);
	grid_resize(g, 6, 30, &crow, &ccol);
	CHECK_STR(u, row(g, crow), "prompt");
	grid_free(g);
}

int main(void)
{
	struct unit u = { 0 };
	test_ring_scroll(&u);
	test_region(&u);
	test_erase_move(&u);
	test_history_lines(&u);
	test_alt(&u);
	test_resize(&u);
	test_lazy(&u);
	test_lazy_rows(&u);
	return unit_done(&u, "test_grid");
}
