/* grid-int: what grid.c shares with grid-reflow.c, and nobody else. */
#ifndef GRID_INT_H
#define GRID_INT_H

#include <stddef.h>
#include <stdint.h>

#include "pty/grid.h"

/* A scrollback line: the cells up to the last non-blank one, as code
 * points (bytes when they all fit), then the attribute changes
 * (runs), then the combining marks of the few cells that have any. */
struct grid_hline {
	uint16_t len, nruns, nmarks;
	bool wrapped;
	bool narrow;   /* ch holds one byte per cell (Latin-1, single width) */
	uint32_t ch[]; /* else: code point | width << 24 */
};

bool grid_cell_blank(const struct vt_cell *);
/* Encode cols cells of l, into the memory of reuse if given (freed on
 * failure). NULL when out of memory. */
struct grid_hline *grid_hline_encode(const struct grid_line *l, int cols, struct grid_hline *reuse);
/* Decode into n cells: truncated or padded with blanks. */
void grid_hline_decode(const struct grid_hline *, struct vt_cell *out, int n);
size_t grid_hline_bytes(const struct grid_hline *);
int grid_screen_alloc(struct grid_screen *, int rows, int cols);
/* Room for n (at most hist_cap) lines in the scrollback ring, which is
 * not full (so hist_start is 0). -1 when out of memory. */
int grid_hist_reserve(struct grid *, int n);
void grid_screen_free(struct grid_screen *, int rows);
/* Cells for l, a row of cols, blank; false when out of memory. */
bool grid_line_alloc(struct grid_line *l, int cols);

/* Re-wrap the main screen and the scrollback to cols, and size the
 * screen to rows (grid-reflow.c). g->rows and g->cols are still the old
 * size. -1 when out of memory, with nothing changed. */
int grid_reflow(struct grid *g, int rows, int cols, int *crow, int *ccol);

#endif
