/* grid: the screen as a ring of rows, the scrollback as compact lines.
 * See grid.h for the shape; the point is that a line feed at the bottom of
 * the screen costs one encoded history line and one blanked row, never a
 * copy of the screen. */
#include "pty/grid.h"
#include "pty/grid-int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GRID_MAX 4096 /* rows and columns are clamped to this */

struct hrun {
	uint16_t col;
	struct vt_attr attr; /* from col up to the next run */
};

struct hmark {
	uint16_t col;
	uint32_t ch[VT_MAX_CHARS - 1];
};

struct grid_cache {
	const struct grid_hline *line; /* decoded into cells, or NULL */
	int cap;
	struct vt_cell *cells;
	struct vt_cell blank;
};

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static bool attr_eq(const struct vt_attr *a, const struct vt_attr *b)
{
	/* one test, no branch per field: this runs for every cell pushed
	 * into the scrollback */
	return ((a->fg ^ b->fg) | (a->bg ^ b->bg) | (uint32_t)(a->flags ^ b->flags)) == 0;
}

bool grid_cell_blank(const struct vt_cell *c)
{
	static const struct vt_attr none;
	return c->ch[0] == 0 && c->width == 1 && attr_eq(&c->attr, &none);
}

static void cells_blank(struct vt_cell *c, int n, uint32_t bg)
{
	struct vt_cell b = grid_blank(bg);
	for (int i = 0; i < n; i++)
		c[i] = b;
}

static bool line_blank(const struct grid_line *l, int cols)
{
	if (!l->cells)
		return true;
	for (int c = 0; c < cols; c++)
		if (!grid_cell_blank(&l->cells[c]))
			return false;
	return true;
}

/* ---- scrollback lines ---- */

/* Text of a narrow line (Latin-1, all single width, the usual case) takes
 * a byte per cell, otherwise four. */
static size_t text_bytes(int len, bool narrow)
{
	return narrow ? (len + 3u) & ~3u : len * sizeof(uint32_t);
}

static struct hrun *hline_runs(const struct grid_hline *h)
{
	return (struct hrun *)(void *)((char *)h + sizeof *h + text_bytes(h->len, h->narrow));
}

static struct hmark *hline_marks(const struct grid_hline *h)
{
	return (struct hmark *)(void *)(hline_runs(h) + h->nruns);
}

static size_t hline_size(int len, bool narrow, int nruns, int nmarks)
{
	return sizeof(struct grid_hline) + text_bytes(len, narrow) + nruns * sizeof(struct hrun) +
	       nmarks * sizeof(struct hmark);
}

/* Encode l, into the memory of reuse (a line leaving the ring) if given. */
struct grid_hline *grid_hline_encode(const struct grid_line *l, int cols, struct grid_hline *reuse)
{
	const struct vt_cell *c = l->cells;
	int len = !c ? 0 : l->used < cols ? l->used : cols, nruns = 0, nmarks = 0;
	while (len > 0 && grid_cell_blank(&c[len - 1]))
		len--;
	/* counted first, without a branch per cell; then each part written
	 * by a loop of its own */
	struct vt_attr prev = { 0 };
	uint32_t wide = 0;
	for (int i = 0; i < len; i++) {
		nruns += !attr_eq(&c[i].attr, &prev);
		prev = c[i].attr;
		nmarks += c[i].ch[1] != 0;
		wide |= c[i].ch[0] >> 8 | (uint32_t)(c[i].width ^ 1);
	}
	bool narrow = wide == 0;
	struct grid_hline *h = realloc(reuse, hline_size(len, narrow, nruns, nmarks));
	if (!h) {
		free(reuse);
		return NULL;
	}
	*h = (struct grid_hline){
		.len = len, .nruns = nruns, .nmarks = nmarks, .wrapped = l->wrapped, .narrow = narrow
	};
	uint8_t *text8 = (uint8_t *)h->ch;
	if (narrow)
		for (int i = 0; i < len; i++)
			text8[i] = (uint8_t)c[i].ch[0];
	else
		for (int i = 0; i < len; i++)
			h->ch[i] = (c[i].ch[0] & 0xffffff) | (uint32_t)c[i].width << 24;
	struct hrun *run = hline_runs(h);
	prev = (struct vt_attr){ 0 };
	for (int i = 0; i < len && nruns > 0; i++)
		if (!attr_eq(&c[i].attr, &prev)) {
			*run++ = (struct hrun){ .col = i, .attr = c[i].attr };
			prev = c[i].attr;
		}
	struct hmark *mark = hline_marks(h);
	for (int i = 0; i < len && nmarks > 0; i++)
		if (c[i].ch[1]) {
			mark->col = i;
			memcpy(mark->ch, &c[i].ch[1], sizeof mark->ch);
			mark++;
		}
	return h;
}

/* Decode into n cells: truncated or padded with blanks. */
void grid_hline_decode(const struct grid_hline *h, struct vt_cell *out, int n)
{
	const struct hrun *run = hline_runs(h), *end = run + h->nruns;
	struct vt_attr a = { 0 };
	int len = h->len < n ? h->len : n;
	const uint8_t *text8 = (const uint8_t *)h->ch;
	for (int i = 0; i < len; i++) {
		if (run < end && run->col == i)
			a = (run++)->attr;
		if (h->narrow)
			out[i] = (struct vt_cell){ .ch = { text8[i] }, .width = 1, .attr = a };
		else
			out[i] = (struct vt_cell){ .ch = { h->ch[i] & 0xffffff }, .width = h->ch[i] >> 24, .attr = a };
	}
	cells_blank(out + len, n - len, 0);
	const struct hmark *m = hline_marks(h);
	for (int i = 0; i < h->nmarks; i++)
		if (m[i].col < len)
			memcpy(&out[m[i].col].ch[1], m[i].ch, sizeof m[i].ch);
	if (len > 0 && h->len > n && out[len - 1].width == 2)
		out[len - 1] = grid_blank(0);
}

size_t grid_hline_bytes(const struct grid_hline *h)
{
	return hline_size(h->len, h->narrow, h->nruns, h->nmarks);
}

static struct grid_hline **hist_slot(const struct grid *g, int i)
{
	return &g->hist[(g->hist_start + i) % g->hist_alloc];
}

int grid_hist_reserve(struct grid *g, int n)
{
	if (n <= g->hist_alloc)
		return 0;
	int cap = g->hist_alloc ? g->hist_alloc * 2 : 64;
	cap = clamp(cap > n ? cap : n, 0, g->hist_cap);
	if (cap < n)
		return -1;
	struct grid_hline **v = realloc(g->hist, cap * sizeof *v);
	if (!v)
		return -1;
	memset(v + g->hist_alloc, 0, (cap - g->hist_alloc) * sizeof *v);
	g->hist = v;
	g->hist_alloc = cap;
	return 0;
}

/* Take the oldest line out of the ring; the caller frees or reuses it. */
static struct grid_hline *hist_take_oldest(struct grid *g)
{
	struct grid_hline **slot = hist_slot(g, 0), *h = *slot;
	g->hist_bytes -= grid_hline_bytes(h);
	*slot = NULL;
	g->hist_start = (g->hist_start + 1) % g->hist_alloc;
	g->hist_len--;
	g->cache->line = NULL;
	return h;
}

static void hist_drop_oldest(struct grid *g)
{
	free(hist_take_oldest(g));
}

static void hist_push(struct grid *g, const struct grid_line *l)
{
	if (g->hist_cap == 0)
		return;
	if (g->hist_len == g->hist_alloc && g->hist_len < g->hist_cap && grid_hist_reserve(g, g->hist_len + 1) < 0)
		return; /* out of memory: the line is lost, the screen is not */
	struct grid_hline *old = g->hist_len == g->hist_cap ? hist_take_oldest(g) : NULL;
	struct grid_hline *h = grid_hline_encode(l, g->cols, old);
	if (!h)
		return; /* out of memory: the line is lost, the screen is not */
	g->cache->line = NULL;
	*hist_slot(g, g->hist_len++) = h;
	g->hist_bytes += grid_hline_bytes(h);
}

/* Take the newest line back out of the scrollback into l. */
static void hist_pop(struct grid *g, struct grid_line *l, int cols)
{
	struct grid_hline **slot = hist_slot(g, g->hist_len - 1);
	/* a blank line stays without cells (out of memory: the line is lost) */
	if (((*slot)->len > 0 || (*slot)->wrapped) && grid_line_alloc(l, cols)) {
		grid_hline_decode(*slot, l->cells, cols);
		l->used = (*slot)->len < cols ? (*slot)->len : cols;
		l->wrapped = (*slot)->wrapped;
	}
	g->hist_bytes -= grid_hline_bytes(*slot);
	free(*slot);
	*slot = NULL;
	g->hist_len--;
	g->cache->line = NULL;
}

void grid_clear_history(struct grid *g)
{
	while (g->hist_len > 0)
		hist_drop_oldest(g);
	free(g->hist); /* the slots too: the ring grows again with new lines */
	g->hist = NULL;
	g->hist_alloc = 0;
	g->hist_start = 0;
	g->cache->line = NULL;
}

/* ---- screens ---- */

int grid_screen_alloc(struct grid_screen *s, int rows, int cols)
{
	(void)cols; /* the rows get their cells when first written */
	s->line = calloc(rows, sizeof *s->line);
	s->top = 0;
	return s->line ? 0 : -1;
}

void grid_screen_free(struct grid_screen *s, int rows)
{
	for (int r = 0; s->line && r < rows; r++)
		free(s->line[r].cells);
	free(s->line);
	s->line = NULL;
}

bool grid_line_alloc(struct grid_line *l, int cols)
{
	if (l->cells)
		return true;
	l->cells = malloc(cols * sizeof *l->cells);
	if (!l->cells)
		return false;
	cells_blank(l->cells, cols, 0);
	return true;
}

struct grid_line *grid_line_cells(struct grid *g, struct grid_line *l)
{
	return grid_line_alloc(l, g->cols) ? l : &g->spare;
}

static void touch_rows(struct grid *g, int r0, int r1)
{
	for (int r = r0; r < r1; r++)
		g->dirty[r] = true;
	g->any_dirty = true;
}

static void line_clear(struct grid_line *l, int cols, uint32_t bg)
{
	if (!l->cells && (!bg || !grid_line_alloc(l, cols))) {
		l->wrapped = false; /* blank already (or out of memory: left blank) */
		return;
	}
	cells_blank(l->cells, bg ? cols : l->used, bg);
	l->used = bg ? cols : 0;
	l->wrapped = false;
}

struct grid *grid_new(int rows, int cols, int hist_cap)
{
	struct grid *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	g->rows = clamp(rows, 1, GRID_MAX);
	g->cols = clamp(cols, 1, GRID_MAX);
	g->hist_cap = hist_cap > 0 ? hist_cap : 0;
	g->cache = calloc(1, sizeof *g->cache);
	g->dirty = calloc(g->rows, sizeof *g->dirty);
	g->tmp = calloc(g->rows, sizeof *g->tmp);
	g->spare.cells = malloc(g->cols * sizeof *g->spare.cells);
	bool ok = g->cache && g->dirty && g->tmp && g->spare.cells;
	/* The alternate screen is allocated only while a program uses it. */
	if (!ok || grid_screen_alloc(&g->scr[0], g->rows, g->cols) < 0) {
		free(g->cache);
		free(g->dirty);
		free(g->tmp);
		free(g->spare.cells);
		free(g);
		return NULL;
	}
	g->cache->blank = grid_blank(0);
	touch_rows(g, 0, g->rows);
	return g;
}

void grid_free(struct grid *g)
{
	if (!g)
		return;
	grid_clear_history(g);
	grid_screen_free(&g->scr[0], g->rows);
	grid_screen_free(&g->scr[1], g->rows);
	free(g->spare.cells);
	free(g->cache->cells);
	free(g->cache);
	free(g->dirty);
	free(g->tmp);
	free(g->hist);
	free(g);
}

/* Rows [top, bottom) of the current screen rotate by n (up when n > 0);
 * only line structs move. */
static void rotate_region(struct grid *g, int top, int bottom, int n)
{
	int h = bottom - top, m = n > 0 ? n : -n;
	int from = n > 0 ? top : bottom - m;
	for (int k = 0; k < m; k++)
		g->tmp[k] = *grid_line_at(g, from + k);
	if (n > 0)
		for (int r = top; r < bottom - m; r++)
			*grid_line_at(g, r) = *grid_line_at(g, r + m);
	else
		for (int r = bottom - 1; r >= top + m; r--)
			*grid_line_at(g, r) = *grid_line_at(g, r - m);
	int to = n > 0 ? top + h - m : top;
	for (int k = 0; k < m; k++)
		*grid_line_at(g, to + k) = g->tmp[k];
}

void grid_scroll(struct grid *g, int top, int bottom, int n, uint32_t bg)
{
	top = clamp(top, 0, g->rows);
	bottom = clamp(bottom, top, g->rows);
	int h = bottom - top;
	if (h == 0 || n == 0)
		return;
	n = clamp(n, -h, h);
	int m = n > 0 ? n : -n;
	struct grid_screen *s = &g->scr[g->cur];
	if (h == g->rows) {
		/* The whole screen: move the ring's start. */
		if (n > 0 && g->cur == 0)
			for (int k = 0; k < n; k++)
				hist_push(g, grid_line_at(g, k));
		s->top = ((s->top + n) % g->rows + g->rows) % g->rows;
	} else {
		rotate_region(g, top, bottom, n);
	}
	int first = n > 0 ? bottom - m : top;
	for (int k = 0; k < m; k++)
		line_clear(grid_line_at(g, first + k), g->cols, bg);
	touch_rows(g, top, bottom);
}

void grid_erase(struct grid *g, int r0, int r1, int c0, int c1, uint32_t bg)
{
	r0 = clamp(r0, 0, g->rows);
	r1 = clamp(r1, r0, g->rows);
	c0 = clamp(c0, 0, g->cols);
	c1 = clamp(c1, c0, g->cols);
	if (c0 == c1)
		return;
	for (int r = r0; r < r1; r++) {
		struct grid_line *l = grid_line_at(g, r);
		if (!l->cells && !bg) { /* blank already */
			if (c1 == g->cols)
				l->wrapped = false;
			grid_touch(g, r);
			continue;
		}
		l = grid_line(g, r);
		/* Never leave half of a wide character behind. */
		if (c0 > 0 && l->cells[c0].width == 0)
			l->cells[c0 - 1] = grid_blank(l->cells[c0 - 1].attr.bg);
		if (c1 < g->cols && l->cells[c1].width == 0)
			l->cells[c1] = grid_blank(l->cells[c1].attr.bg);
		cells_blank(l->cells + c0, c1 - c0, bg);
		if (bg)
			grid_use(l, c1);
		if (c1 == g->cols)
			l->wrapped = false;
		grid_touch(g, r);
	}
}

/* After cells moved, no half of a wide character may stand alone. */
static void line_fix_wide(struct grid_line *l, int c0, int c1, int cols)
{
	c0 = clamp(c0, 0, cols);
	c1 = clamp(c1, c0, cols);
	for (int c = c0; c < c1; c++) {
		struct vt_cell *cell = &l->cells[c];
		bool orphan = cell->width == 0 ? c == 0 || cell[-1].width != 2
					       : cell->width == 2 && (c + 1 == cols || cell[1].width != 0);
		if (orphan)
			*cell = grid_blank(cell->attr.bg);
	}
}

void grid_move(struct grid *g, int dr, int dc, int sr, int sc, int h, int w)
{
	if (h <= 0 || w <= 0 || dr < 0 || sr < 0 || dc < 0 || sc < 0 || dr + h > g->rows || sr + h > g->rows ||
	    dc + w > g->cols || sc + w > g->cols)
		return;
	bool down = dr > sr;
	for (int k = 0; k < h; k++) {
		int i = down ? h - 1 - k : k;
		const struct grid_line *src = grid_line_at(g, sr + i);
		if (!src->cells) { /* blank cells move */
			grid_erase(g, dr + i, dr + i + 1, dc, dc + w, 0);
			continue;
		}
		struct grid_line *l = grid_line(g, dr + i);
		memmove(l->cells + dc, src->cells + sc, w * sizeof *l->cells);
		grid_use(l, dc + w);
		line_fix_wide(l, dc - 1, dc + 1, g->cols);
		line_fix_wide(l, dc + w - 1, dc + w + 1, g->cols);
		grid_touch(g, dr + i);
	}
}

void grid_set_alt(struct grid *g, bool on)
{
	if ((g->cur == 1) == on)
		return;
	if (on && grid_screen_alloc(&g->scr[1], g->rows, g->cols) < 0)
		return; /* out of memory: the program draws on the main screen */
	if (!on)
		grid_screen_free(&g->scr[1], g->rows);
	g->cur = on;
	touch_rows(g, 0, g->rows);
}

/* ---- resize ---- */

static void row_copy(struct grid_line *d, const struct grid_line *s, int cols, int ocols)
{
	int n = cols < ocols ? cols : ocols;
	if (!s->cells || !grid_line_alloc(d, cols)) /* blank (or out of memory: the row is lost) */
		return;
	memcpy(d->cells, s->cells, n * sizeof *d->cells);
	cells_blank(d->cells + n, cols - n, 0);
	if (n > 0 && d->cells[n - 1].width == 2 && n < ocols)
		d->cells[n - 1] = grid_blank(d->cells[n - 1].attr.bg);
	d->used = s->used < cols ? s->used : cols;
	d->wrapped = s->wrapped && cols >= ocols;
}

/* Blank rows at the bottom of screen `which`, below row `below`. */
static int blank_tail(struct grid *g, int which, int below)
{
	int save = g->cur, n = 0;
	g->cur = which;
	for (int r = g->rows - 1; r > below && line_blank(grid_line_at(g, r), g->cols); r--)
		n++;
	g->cur = save;
	return n;
}

static int screen_resize(struct grid *g, int which, int rows, int cols, int *crow)
{
	struct grid_screen ns;
	if (grid_screen_alloc(&ns, rows, cols) < 0)
		return -1;
	int orows = g->rows, skip = 0, pull = 0, save = g->cur;
	if (rows < orows) {
		int n = orows - rows, tail = blank_tail(g, which, *crow);
		skip = n - (tail < n ? tail : n);
	} else if (which == 0 && g->cur == 0) {
		pull = rows - orows < g->hist_len ? rows - orows : g->hist_len;
	}
	g->cur = which;
	for (int k = 0; k < skip; k++)
		if (which == 0)
			hist_push(g, grid_line_at(g, k));
	for (int k = pull - 1; k >= 0; k--)
		hist_pop(g, &ns.line[k], cols);
	for (int r = pull; r < rows && skip + r - pull < orows; r++)
		row_copy(&ns.line[r], grid_line_at(g, skip + r - pull), cols, g->cols);
	g->cur = save;
	grid_screen_free(&g->scr[which], g->rows);
	g->scr[which] = ns;
	*crow += pull - skip;
	return 0;
}

void grid_resize(struct grid *g, int rows, int cols, int *crow, int *ccol)
{
	rows = clamp(rows, 1, GRID_MAX);
	cols = clamp(cols, 1, GRID_MAX);
	if (rows == g->rows && cols == g->cols)
		return;
	bool *dirty = calloc(rows, sizeof *dirty);
	struct grid_line *tmp = calloc(rows, sizeof *tmp);
	struct vt_cell *spare = malloc(cols * sizeof *spare);
	if (!dirty || !tmp || !spare) {
		free(dirty);
		free(tmp);
		free(spare);
		return; /* out of memory: keep the old size */
	}
	for (int which = 0; which < 2 && g->scr[which].line; which++) {
		int other = -1, otherc = 0, *cr = which == g->cur ? crow : &other;
		/* A new width re-wraps the main screen and the scrollback. */
		if (which == 0 && cols != g->cols &&
		    grid_reflow(g, rows, cols, cr, which == g->cur ? ccol : &otherc) == 0)
			continue;
		if (screen_resize(g, which, rows, cols, cr) == 0)
			continue;
		if (which == 0) { /* nothing changed yet */
			free(dirty);
			free(tmp);
			free(spare);
			return;
		}
		grid_screen_free(&g->scr[1], g->rows); /* out of memory: back to the main screen */
		g->cur = 0;
	}
	free(g->dirty);
	free(g->tmp);
	g->dirty = dirty;
	g->tmp = tmp;
	free(g->spare.cells);
	g->spare.cells = spare;
	g->rows = rows;
	g->cols = cols;
	g->cache->line = NULL;
	*crow = clamp(*crow, 0, rows - 1);
	*ccol = clamp(*ccol, 0, cols - 1);
	touch_rows(g, 0, rows);
}

/* ---- reading ---- */

static const struct grid_hline *hist_line(const struct grid *g, int row)
{
	int i = g->hist_len + row;
	return row < 0 && i >= 0 ? *hist_slot(g, i) : NULL;
}

const struct vt_cell *grid_cell(const struct grid *g, int row, int col)
{
	struct grid_cache *cache = g->cache;
	if (col < 0 || row >= g->rows)
		return &cache->blank;
	if (row >= 0) {
		if (col >= g->cols)
			return &cache->blank;
		const struct grid_screen *s = &g->scr[g->cur];
		const struct grid_line *l = &s->line[(s->top + row) % g->rows];
		return l->cells ? &l->cells[col] : &cache->blank;
	}
	const struct grid_hline *h = hist_line(g, row);
	if (!h || col >= h->len)
		return &cache->blank;
	if (cache->line != h) {
		if (cache->cap < h->len) {
			struct vt_cell *c = realloc(cache->cells, h->len * sizeof *c);
			if (!c)
				return &cache->blank;
			cache->cells = c;
			cache->cap = h->len;
		}
		grid_hline_decode(h, cache->cells, h->len);
		cache->line = h;
	}
	return &cache->cells[col];
}

bool grid_wrapped(const struct grid *g, int row)
{
	if (row >= g->rows)
		return false;
	if (row >= 0) {
		const struct grid_screen *s = &g->scr[g->cur];
		return s->line[(s->top + row) % g->rows].wrapped;
	}
	const struct grid_hline *h = hist_line(g, row);
	return h && h->wrapped;
}

int grid_history(const struct grid *g)
{
	return g->hist_len;
}

void grid_dirty_all(struct grid *g)
{
	touch_rows(g, 0, g->rows);
}

void grid_clear_dirty(struct grid *g)
{
	memset(g->dirty, 0, g->rows * sizeof *g->dirty);
	g->any_dirty = false;
}

size_t grid_history_bytes(const struct grid *g)
{
	return g->hist_bytes + g->hist_alloc * sizeof *g->hist;
}

size_t grid_screen_bytes(const struct grid *g)
{
	size_t n = g->cols * sizeof(struct vt_cell); /* the spare row */
	for (int which = 0; which < 2; which++)
		for (int r = 0; g->scr[which].line && r < g->rows; r++)
			n += sizeof(struct grid_line) +
			     (g->scr[which].line[r].cells ? g->cols * sizeof(struct vt_cell) : 0);
	return n;
}
