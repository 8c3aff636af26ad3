/* grid: the cells of one pane, kept by sandmux (not libvterm).
 *
 * The screen is a ring of rows: scrolling the whole screen moves the ring's
 * start (O(1)), scrolling a region rotates row pointers (no cell copies).
 * Lines that scroll off the top of the main screen go into a bounded
 * scrollback ring, stored compactly (trimmed, attributes run-length coded)
 * since history is most of a pane's memory. The alternate screen is a
 * second ring of the same size with no history. */
#ifndef GRID_H
#define GRID_H

#include <stdbool.h>
#include <stdint.h>

#include "pty/vt.h"

struct grid_line {
	struct vt_cell *cells;
	uint16_t used; /* cells from here on are plain blanks: clearing and
			* pushing into the scrollback stop here */
	bool wrapped;  /* the text goes on in the next row (autowrap) */
};

struct grid_screen {
	struct grid_line *line; /* rows entries, a ring; a row's cells are
				 * allocated when first written (NULL: blank) */
	int top;                /* ring index of screen row 0 */
};

struct grid_hline;
struct grid_cache;

struct grid {
	int rows, cols;
	struct grid_screen scr[2]; /* main, alternate */
	int cur;                   /* index into scr */
	bool *dirty;               /* per screen row, since grid_clear_dirty */
	bool any_dirty;
	struct grid_line *tmp; /* rows entries, scratch for rotations */

	struct grid_hline **hist; /* ring of compact lines, hist_alloc slots */
	int hist_cap, hist_start, hist_len;
	int hist_alloc; /* grows up to hist_cap as lines arrive: an idle
			 * pane's scrollback has no slots */
	size_t hist_bytes;
	struct grid_cache *cache; /* one decoded history line, for grid_cell */
	struct grid_line spare;   /* cols cells: where a write goes when a row's
				   * cells cannot be allocated */
};

struct grid *grid_new(int rows, int cols, int hist_cap);
void grid_free(struct grid *);

/* Screen row r (0..rows-1) of the current screen, as it is: cells NULL
 * when the row is blank and was never written. */
static inline struct grid_line *grid_line_at(struct grid *g, int r)
{
	struct grid_screen *s = &g->scr[g->cur];
	int i = s->top + r;
	return &s->line[i >= g->rows ? i - g->rows : i];
}

/* l with its cells allocated; out of memory: a spare row the write is
 * lost in (l stays blank). */
struct grid_line *grid_line_cells(struct grid *, struct grid_line *l);

/* Screen row r (0..rows-1) of the current screen, to write: an idle
 * pane's untouched rows cost no cells. */
static inline struct grid_line *grid_line(struct grid *g, int r)
{
	struct grid_line *l = grid_line_at(g, r);
	return l->cells != NULL ? l : grid_line_cells(g, l);
}

static inline void grid_use(struct grid_line *l, int end)
{
	if (end > l->used)
		l->used = end;
}

static inline void grid_touch(struct grid *g, int r)
{
	g->dirty[r] = true;
	g->any_dirty = true;
}

/* A blank cell painted with background bg (erase uses the pen's bg). */
static inline struct vt_cell grid_blank(uint32_t bg)
{
	struct vt_cell c = { .width = 1, .attr = { .bg = bg } };
	return c;
}

/* Rows [top, bottom) move up by n (n > 0) or down by -n, full width; the
 * rows uncovered are blanked with bg. Lines leaving the top of the whole
 * main screen are pushed into the scrollback. */
void grid_scroll(struct grid *, int top, int bottom, int n, uint32_t bg);
/* Cells [r0,r1) x [c0,c1) are blanked with bg. */
void grid_erase(struct grid *, int r0, int r1, int c0, int c1, uint32_t bg);
/* Copy the rectangle at (sr, sc) of h x w cells to (dr, dc). */
void grid_move(struct grid *, int dr, int dc, int sr, int sc, int h, int w);
/* Switch to the alternate screen (cleared) or back to the main one. */
void grid_set_alt(struct grid *, bool on);
/* New size. *crow, *ccol is the cursor, moved with the content: rows leave
 * into the scrollback when shrinking and come back from it when growing,
 * keeping the cursor's line on screen. */
void grid_resize(struct grid *, int rows, int cols, int *crow, int *ccol);
/* Drop the scrollback. */
void grid_clear_history(struct grid *);

/* row 0..rows-1: the screen; -1..-grid_history(): scrollback, newest
 * first. Out of range gives a blank cell. */
const struct vt_cell *grid_cell(const struct grid *, int row, int col);
bool grid_wrapped(const struct grid *, int row);
int grid_history(const struct grid *);
void grid_clear_dirty(struct grid *);
void grid_dirty_all(struct grid *);
/* Bytes used by the scrollback (for memory reports). */
size_t grid_history_bytes(const struct grid *);
/* Bytes used by the screens: the rows written so far have cells. */
size_t grid_screen_bytes(const struct grid *);

#endif
