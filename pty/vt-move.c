/* vt-move: the cursor moves libvterm 0.1.4 does not bound as xterm does.
 * CUU, CUD, CNL and CPL stop at the top or bottom margin when they start
 * at or inside it, at the screen's edge when they start outside it; CNL
 * and CPL then return as CR does (to the left margin when the cursor is
 * at or right of it). CUB, CUF and BS stop at the left or right margin
 * the same way, or with reverse wraparound (xterm's 45, before its 383:
 * through any row) go on to the row above. In origin mode CHA and HPA
 * count from the left margin. A line feed, IND, NEL or RI at
 * the bottom (top) margin but left or right of the left and right
 * margins neither scrolls nor moves. */
#include "pty/vt-int.h"

/* The column CR returns to. */
static int move_return(const struct vt *vt, int col)
{
	return vt->lrmm && (vt->origin || col >= vt->mleft) ? vt->mleft : 0;
}

int move_back(const struct vt *vt, int col, int n)
{
	int left = col >= vt->mleft ? vt->mleft : 0;
	return col - n < left ? left : col - n;
}

bool move_back_wrap(const struct vt *vt, int n, int *row, int *col)
{
	if (!vt->revwrap || !vt->autowrap)
		return false;
	int rows = vt->grid->rows, cols = vt->grid->cols, r = vt->crow, c = vt->ccol;
	/* just past the last column (a glyph put there): the first step
	 * only takes that back, as in xterm */
	bool past = vt->wrap_pending && c == cols - 1 && r == vt->wrap_row;
	int right = vt->lrmm ? vt->mright - 1 : cols - 1;
	n = n > 2 * rows * cols ? 2 * rows * cols : n;
	for (int k = 0; k < n; k++) {
		int left = c >= vt->mleft ? vt->mleft : 0;
		if (past) {
			past = false;
		} else if (c > left) {
			c--;
		} else {
			bool in = r >= vt->mtop && r < vt->mbottom;
			int top = in ? vt->mtop : 0, bottom = in ? vt->mbottom - 1 : rows - 1;
			r = r == top ? bottom : r - 1;
			c = right;
		}
	}
	*row = r;
	*col = c;
	return true;
}

void move_modes(struct vt *vt, const long *args, int argc, bool set)
{
	for (int i = 0; i < argc; i++) {
		if (args[i] == 7)
			vt->autowrap = set;
		else if (args[i] == 45 || args[i] == 1045)
			vt->revwrap = set;
		else if (args[i] == 41)
			vt->morefix = set;
	}
}

bool move_csi(struct vt *vt, char final, long n, int *row, int *col)
{
	int r = vt->crow, c = vt->ccol, rows = vt->grid->rows, cols = vt->grid->cols;
	/* a reverse-wrapping CUB may go round the screen twice; more is the same */
	n = n < 1 ? 1 : n > 2L * rows * cols ? 2L * rows * cols : n;
	switch (final) {
	case 'A': /* CUU */
	case 'F': /* CPL */ {
		int top = r >= vt->mtop ? vt->mtop : 0;
		r = r - n < top ? top : r - (int)n;
		break;
	}
	case 'B': /* CUD */
	case 'E': /* CNL */ {
		int bottom = r < vt->mbottom ? vt->mbottom - 1 : rows - 1;
		r = r + n > bottom ? bottom : r + (int)n;
		break;
	}
	case 'C': /* CUF */ {
		int right = c < vt->mright ? vt->mright - 1 : cols - 1;
		c = c + n > right ? right : c + (int)n;
		break;
	}
	case 'G': /* CHA */
	case '`': /* HPA */
		c = vt->mleft + (int)n - 1;
		c = c >= vt->mright ? vt->mright - 1 : c;
		break;
	case 'D': /* CUB */
		if (!move_back_wrap(vt, (int)n, &r, &c))
			c = move_back(vt, c, (int)n);
		break;
	default:
		return false;
	}
	*row = r;
	*col = final == 'E' || final == 'F' ? move_return(vt, c) : c;
	return true;
}

bool move_index_held(const struct vt *vt, bool up)
{
	if (!vt->lrmm || (vt->ccol >= vt->mleft && vt->ccol < vt->mright))
		return false;
	return up ? vt->crow == vt->mtop : vt->crow == vt->mbottom - 1;
}
