/* vt-rect: the VT420 editing libvterm 0.1.4 lacks, done on the grid as
 * xterm does it: rectangles filled (DECFRA), erased (DECERA), erased but
 * for the protected cells (DECSERA), copied (DECCRA) and given or
 * reversed attributes (DECCARA, DECRARA, over DECSACE's extent); the protection
 * itself (DECSCA, kept in the pen and so in every cell put), which
 * DECSED and DECSEL honour, and ISO's guarded areas (SPA, EPA) that ED,
 * EL and ECH spare; and the horizontal index (DECBI, DECFI)
 * that scrolls the margins sideways. Only this pane's cells change. */
#include <string.h>

#include "pty/vt-int.h"

static int arg_at(const long *args, int argc, int i, int def)
{
	return i < argc && args[i] > 0 ? (int)args[i] : def;
}

/* The area the coordinates count from and stay in: the screen, or in
 * origin mode the margins. */
static struct vt_rect rect_area(const struct vt *vt)
{
	if (vt->origin)
		return (struct vt_rect){ vt->mtop, vt->mleft, vt->mbottom, vt->mright };
	return (struct vt_rect){ 0, 0, vt->grid->rows, vt->grid->cols };
}

bool rect_parse(const struct vt *vt, const long *args, int argc, int first, struct vt_rect *r)
{
	struct vt_rect a = rect_area(vt);
	r->top = a.top + arg_at(args, argc, first, 1) - 1;
	r->left = a.left + arg_at(args, argc, first + 1, 1) - 1;
	r->bottom = a.top + arg_at(args, argc, first + 2, a.bottom - a.top);
	r->right = a.left + arg_at(args, argc, first + 3, a.right - a.left);
	r->bottom = r->bottom > a.bottom ? a.bottom : r->bottom;
	r->right = r->right > a.right ? a.right : r->right;
	return r->top < r->bottom && r->left < r->right;
}

/* DECFRA: the character (printable Latin-1 only, as xterm) in every
 * cell, with the pen's attributes. */
static void rect_fill(struct vt *vt, const long *args, int argc)
{
	long ch = argc > 0 ? args[0] : -1;
	struct vt_rect r;
	if (!((ch >= 0x20 && ch < 0x7f) || (ch >= 0xa0 && ch <= 0xff)) || !rect_parse(vt, args, argc, 1, &r))
		return;
	struct grid *g = vt->grid;
	grid_erase(g, r.top, r.bottom, r.left, r.right, vt->pen.bg); /* no half wide character left */
	for (int row = r.top; row < r.bottom; row++) {
		struct grid_line *l = grid_line(g, row);
		for (int col = r.left; col < r.right; col++)
			l->cells[col] = (struct vt_cell){ .ch = { (uint32_t)ch }, .width = 1, .attr = vt->pen };
		grid_use(l, r.right);
	}
}

void rect_erase(struct vt *vt, int r0, int r1, int c0, int c1, unsigned spare)
{
	struct grid *g = vt->grid;
	if (!vt->guarded)
		spare &= ~(unsigned)VT_GUARDED;
	if (!spare) {
		grid_erase(g, r0, r1, c0, c1, vt->pen.bg);
		return;
	}
	r0 = r0 < 0 ? 0 : r0;
	r1 = r1 > g->rows ? g->rows : r1;
	c0 = c0 < 0 ? 0 : c0;
	c1 = c1 > g->cols ? g->cols : c1;
	/* each run of cells to erase, erased as a whole (a wide
	 * character's halves are protected or not together) */
	for (int row = r0; row < r1; row++) {
		struct grid_line *l = grid_line(g, row);
		for (int col = c0; col < c1;) {
			int end = col;
			while (end < c1 && !(l->cells[end].attr.flags & spare))
				end++;
			if (end > col)
				grid_erase(g, row, row + 1, col, end, vt->pen.bg);
			col = end + 1;
		}
	}
}

/* DECCRA: Pts;Pls;Pbs;Prs;Pps;Ptd;Pld;Ppd (one page: the page numbers
 * are not looked at). Cut where the destination leaves the area. */
static void rect_copy(struct vt *vt, const long *args, int argc)
{
	struct vt_rect s, a = rect_area(vt);
	if (!rect_parse(vt, args, argc, 0, &s))
		return;
	int dt = a.top + arg_at(args, argc, 5, 1) - 1, dl = a.left + arg_at(args, argc, 6, 1) - 1;
	int h = s.bottom - s.top, w = s.right - s.left;
	h = dt + h > a.bottom ? a.bottom - dt : h;
	w = dl + w > a.right ? a.right - dl : w;
	grid_move(vt->grid, dt, dl, s.top, s.left, h, w);
}

/* The flag an attribute of DECCARA/DECRARA names (bold, underline, blink,
 * reverse, invisible), and whether it turns it on; 0 for none. */
static int rect_attr(long ps, bool *on)
{
	static const struct {
		int ps, flag;
	} map[] = { { 1, VT_BOLD }, { 4, VT_UNDERLINE }, { 5, VT_BLINK }, { 7, VT_REVERSE }, { 8, VT_CONCEAL } };
	*on = ps < 20;
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (map[i].ps == ps || map[i].ps + 20 == ps || (ps == 22 && map[i].ps == 1))
			return map[i].flag;
	return 0;
}

/* DECCARA (set: change the attributes Ps... say) and DECRARA (reverse the
 * ones named); 0 or none means all of them. The extent is DECSACE's: a
 * rectangle (2), or else the stream of cells from the first corner to the
 * second, as the text runs. */
static void rect_attrs(struct vt *vt, const long *args, int argc, bool reverse)
{
	const int all = VT_BOLD | VT_UNDERLINE | VT_BLINK | VT_REVERSE | VT_CONCEAL;
	int set = 0, clear = 0;
	for (int i = 4; i < argc || i == 4; i++) {
		long ps = i < argc && args[i] > 0 ? args[i] : 0;
		bool on;
		int f = rect_attr(ps, &on);
		if (ps == 0) {
			clear |= all;
			set &= ~all;
		} else if (on || reverse) {
			set |= f;
			clear &= ~f;
		} else {
			clear |= f;
			set &= ~f;
		}
	}
	struct vt_rect r;
	if (!rect_parse(vt, args, argc, 0, &r))
		return;
	struct grid *g = vt->grid;
	for (int row = r.top; row < r.bottom; row++) {
		bool stream = vt->sace != 2;
		int c0 = stream && row > r.top ? 0 : r.left, c1 = stream && row + 1 < r.bottom ? g->cols : r.right;
		struct grid_line *l = grid_line(g, row);
		for (int col = c0; col < c1; col++) {
			struct vt_attr *a = &l->cells[col].attr;
			if (reverse)
				a->flags ^= (uint16_t)(set ? set : all);
			else
				a->flags = (uint16_t)((a->flags & ~clear) | set);
		}
		grid_use(l, c1);
		grid_touch(g, row);
	}
}

bool rect_csi(struct vt *vt, const char *leader, const long *args, int argc, const char *inter, char command)
{
	if (!leader[0] && strcmp(inter, "*") == 0 && command == 'x') { /* DECSACE */
		vt->sace = argc > 0 && args[0] >= 0 && args[0] <= 2 ? (int)args[0] : 0;
		return true;
	}
	if (leader[0] || inter[0] != '$' || inter[1])
		return false;
	struct vt_rect r;
	switch (command) {
	case 'x': /* DECFRA */
		rect_fill(vt, args, argc);
		return true;
	case 'z': /* DECERA */
	case '{': /* DECSERA */
		if (rect_parse(vt, args, argc, 0, &r))
			rect_erase(vt, r.top, r.bottom, r.left, r.right, command == '{' ? VT_PROTECTED : 0);
		return true;
	case 'v': /* DECCRA */
		rect_copy(vt, args, argc);
		return true;
	case 'r': /* DECCARA */
	case 't': /* DECRARA */
		rect_attrs(vt, args, argc, command == 't');
		return true;
	default:
		return false;
	}
}

bool rect_delete_chars(struct vt *vt, long n)
{
	struct grid *g = vt->grid;
	int r = vt->crow, c = vt->ccol, right = vt->lrmm ? vt->mright : g->cols;
	if ((r >= vt->mtop && r < vt->mbottom) || c < vt->mleft || c >= right)
		return false; /* inside the region libvterm does it; outside the left and right margins nothing is */
	int k = n < 1 ? 1 : n > right - c ? right - c : (int)n;
	grid_move(g, r, c, r, c + k, 1, right - c - k);
	grid_erase(g, r, r + 1, right - k, right, vt->pen.bg);
	return true;
}

void rect_guard(struct vt *vt, bool on)
{
	if (on) {
		vt->pen.flags |= VT_GUARDED;
		vt->guarded = true;
	} else {
		vt->pen.flags &= ~VT_GUARDED;
	}
}

void rect_protect(struct vt *vt, long ps)
{
	if (ps == 1)
		vt->pen.flags |= VT_PROTECTED;
	else if (ps <= 0 || ps == 2)
		vt->pen.flags &= ~VT_PROTECTED;
}

int rect_index(struct vt *vt, bool forward)
{
	struct grid *g = vt->grid;
	int row = vt->crow, col = vt->ccol;
	int margin = forward ? vt->mright - 1 : vt->mleft;
	if (col != margin || row < vt->mtop || row >= vt->mbottom) {
		/* outside the margins it moves, up to the screen's edge */
		if (forward)
			return col < g->cols - 1 ? 1 : 0;
		return col > 0 ? -1 : 0;
	}
	/* at the margin: the margins' contents shift one column, a blank
	 * one comes in at the cursor */
	int h = vt->mbottom - vt->mtop, w = vt->mright - vt->mleft - 1;
	if (forward)
		grid_move(g, vt->mtop, vt->mleft, vt->mtop, vt->mleft + 1, h, w);
	else
		grid_move(g, vt->mtop, vt->mleft + 1, vt->mtop, vt->mleft, h, w);
	grid_erase(g, vt->mtop, vt->mbottom, margin, margin + 1, 0);
	return 0;
}
