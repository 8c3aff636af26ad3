/* grid-reflow: a width change re-wraps the text, like tmux. The
 * scrollback and the main screen are read as logical lines (rows joined
 * where they wrapped), and split again at the new width; the newest rows
 * form the screen, with the cursor's line on it, the rest the scrollback.
 * The alternate screen is not reflowed: its program redraws it. */
#include <stdlib.h>
#include <string.h>

#include "pty/grid-int.h"

struct reflow {
	int cols;             /* the new width */
	struct vt_cell *line; /* the logical line being joined */
	int len, cap;
	struct vt_cell *row;     /* one output row of cols cells */
	struct grid_hline **out; /* output rows, a ring of out_cap */
	int out_cap, out_start, out_len;
	long emitted;  /* output rows so far */
	long lines;    /* logical lines so far */
	long cur_line; /* the cursor's logical line, -1: none */
	int cur_off;   /* its offset in that line */
	long cur_abs;  /* the output row it landed on, -1: none yet */
	int cur_col;
	bool pending; /* the last row read wrapped: its line goes on */
	bool failed;
};

static void line_add(struct reflow *rf, const struct vt_cell *c, int n)
{
	if (rf->len + n > rf->cap) {
		int cap = 2 * (rf->len + n) + 64;
		struct vt_cell *p = realloc(rf->line, cap * sizeof *p);
		if (!p) {
			rf->failed = true;
			return;
		}
		rf->line = p;
		rf->cap = cap;
	}
	memcpy(rf->line + rf->len, c, n * sizeof *c);
	rf->len += n;
}

static struct grid_hline **out_slot(struct reflow *rf, int i)
{
	return &rf->out[(rf->out_start + i) % rf->out_cap];
}

static void emit_row(struct reflow *rf, const struct vt_cell *c, int n, bool wrapped)
{
	memcpy(rf->row, c, n * sizeof *c);
	for (int i = n; i < rf->cols; i++)
		rf->row[i] = grid_blank(0);
	struct grid_line l = { .cells = rf->row, .used = n, .wrapped = wrapped };
	struct grid_hline *reuse = NULL;
	if (rf->out_len == rf->out_cap) { /* the oldest row falls off */
		reuse = *out_slot(rf, 0);
		*out_slot(rf, 0) = NULL;
		rf->out_start = (rf->out_start + 1) % rf->out_cap;
		rf->out_len--;
	}
	struct grid_hline *h = grid_hline_encode(&l, rf->cols, reuse);
	if (!h) {
		rf->failed = true;
		return;
	}
	*out_slot(rf, rf->out_len++) = h;
	rf->emitted++;
}

/* Split the joined line at the new width; a wide character that would
 * straddle the edge moves to the next row whole. */
static void emit_line(struct reflow *rf)
{
	bool cursor = rf->lines == rf->cur_line;
	static const struct vt_cell blank = { .width = 1 };
	while (cursor && rf->len <= rf->cur_off && !rf->failed)
		line_add(rf, &blank, 1); /* the cursor sits past the text */
	int pos = 0;
	do {
		int k = rf->len - pos < rf->cols ? rf->len - pos : rf->cols, take = k;
		if (k == rf->cols && rf->line[pos + k - 1].width == 2) {
			/* its second half would be on the next row */
			k = k > 1 ? k - 1 : 0;
			take = k > 0 ? k : 2; /* one column: it cannot fit at all */
		}
		if (cursor && rf->cur_off >= pos && rf->cur_off < pos + take) {
			rf->cur_abs = rf->emitted;
			rf->cur_col = rf->cur_off - pos < rf->cols ? rf->cur_off - pos : rf->cols - 1;
		}
		emit_row(rf, rf->line + pos, k, pos + take < rf->len);
		pos += take;
	} while (pos < rf->len && !rf->failed);
	rf->len = 0;
	rf->lines++;
}

/* One input row: appended to the logical line, which ends unless the row
 * wrapped. A row that wrapped counts whole (blanks at its end too). */
static void take_row(struct reflow *rf, const struct vt_cell *c, int n, bool wrapped, int cursor_col)
{
	while (!wrapped && n > 0 && grid_cell_blank(&c[n - 1]))
		n--;
	if (cursor_col >= 0) {
		rf->cur_line = rf->lines;
		rf->cur_off = rf->len + cursor_col;
	}
	line_add(rf, c, n);
	rf->pending = wrapped;
	if (!wrapped)
		emit_line(rf);
}

static int last_row(struct grid *g, int crow)
{
	int last = crow;
	for (int r = g->rows - 1; r > last; r--) {
		struct grid_line *l = &g->scr[0].line[(g->scr[0].top + r) % g->rows];
		for (int c = 0; c < l->used; c++)
			if (!grid_cell_blank(&l->cells[c]))
				return r;
	}
	return last;
}

/* Read the scrollback, then the main screen down to its last text or the
 * cursor, whichever is lower. */
static void read_all(struct reflow *rf, struct grid *g, int crow, int ccol)
{
	struct vt_cell *buf = malloc(4096 * sizeof *buf);
	if (!buf) {
		rf->failed = true;
		return;
	}
	for (int i = 0; i < g->hist_len && !rf->failed; i++) {
		const struct grid_hline *h = g->hist[(g->hist_start + i) % g->hist_alloc];
		grid_hline_decode(h, buf, h->len);
		take_row(rf, buf, h->len, h->wrapped, -1);
	}
	free(buf);
	int last = last_row(g, g->cur == 0 ? crow : -1);
	for (int r = 0; r <= last && !rf->failed; r++) {
		struct grid_line *l = &g->scr[0].line[(g->scr[0].top + r) % g->rows];
		if (!l->cells) { /* a blank row */
			take_row(rf, rf->row, 0, false, g->cur == 0 && r == crow ? ccol : -1);
			continue;
		}
		take_row(rf, l->cells, l->wrapped ? g->cols : l->used, l->wrapped,
			 g->cur == 0 && r == crow ? ccol : -1);
	}
	if (rf->pending && !rf->failed)
		emit_line(rf); /* the last line was still wrapping */
}

static void reflow_free(struct reflow *rf)
{
	for (int i = 0; i < rf->out_len; i++)
		free(*out_slot(rf, i));
	free(rf->out);
	free(rf->line);
	free(rf->row);
}

/* The output rows [start, start + rows) become the screen, up to hist_cap
 * rows before them the scrollback. */
static void install(struct reflow *rf, struct grid *g, struct grid_screen *ns, int rows, long start)
{
	long first = rf->emitted - rf->out_len; /* oldest output row still held */
	grid_clear_history(g);
	long hfrom = start - g->hist_cap > first ? start - g->hist_cap : first;
	if (start > hfrom && grid_hist_reserve(g, (int)(start - hfrom)) < 0)
		hfrom = start - g->hist_alloc; /* out of memory: the oldest lines go */
	for (long a = first; a < rf->emitted; a++) {
		struct grid_hline **slot = out_slot(rf, (int)(a - first));
		if (a >= hfrom && a < start) {
			g->hist[g->hist_len++] = *slot;
			g->hist_bytes += grid_hline_bytes(*slot);
		} else {
			if (a >= start && a < start + rows) {
				struct grid_line *l = &ns->line[a - start];
				/* a blank row needs no cells (out of memory: it is lost) */
				if (((*slot)->len > 0 || (*slot)->wrapped) && grid_line_alloc(l, rf->cols)) {
					grid_hline_decode(*slot, l->cells, rf->cols);
					l->used = (*slot)->len < rf->cols ? (*slot)->len : rf->cols;
					l->wrapped = (*slot)->wrapped;
				}
			}
			free(*slot);
		}
		*slot = NULL;
	}
	rf->out_len = 0;
}

int grid_reflow(struct grid *g, int rows, int cols, int *crow, int *ccol)
{
	struct reflow rf = { .cols = cols, .cur_line = -1, .cur_abs = -1 };
	rf.out_cap = g->hist_cap + rows;
	rf.out = calloc(rf.out_cap, sizeof *rf.out);
	rf.row = malloc(cols * sizeof *rf.row);
	rf.cap = cols + 64;
	rf.line = malloc(rf.cap * sizeof *rf.line); /* never NULL below */
	struct grid_screen ns;
	if (!rf.out || !rf.row || !rf.line || grid_screen_alloc(&ns, rows, cols) < 0) {
		reflow_free(&rf);
		return -1;
	}
	read_all(&rf, g, *crow, *ccol);
	if (rf.failed) {
		grid_screen_free(&ns, rows);
		reflow_free(&rf);
		return -1;
	}
	long first = rf.emitted - rf.out_len, start = rf.emitted - rows;
	if (rf.cur_abs >= 0 && rf.cur_abs < start)
		start = rf.cur_abs; /* keep the cursor's row on screen */
	if (start < first)
		start = first;
	install(&rf, g, &ns, rows, start);
	grid_screen_free(&g->scr[0], g->rows);
	g->scr[0] = ns;
	if (g->cur == 0 && rf.cur_abs >= 0) {
		*crow = (int)(rf.cur_abs - start);
		*ccol = rf.cur_col;
	}
	reflow_free(&rf);
	return 0;
}
