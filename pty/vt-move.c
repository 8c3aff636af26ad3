/* vt-move: the cursor moves libvterm 0.1.4 does not bound as xterm does.
 * CUU, CUD, CNL and CPL stop at the scrolling margin when they start
 * inside the scrolling region, at the screen's edge when they start
 * outside it; CNL and CPL then return as CR does (to the left margin
 * when the cursor is at or right of it). A line feed, IND, NEL or RI at
 * the bottom (top) margin but left or right of the left and right
 * margins neither scrolls nor moves. */
#include "pty/vt-int.h"

/* The column CR returns to. */
static int move_return(const struct vt *vt, int col)
{
	return vt->lrmm && (vt->origin || col >= vt->mleft) ? vt->mleft : 0;
}

bool move_csi(struct vt *vt, char final, long n, int *row, int *col)
{
	int r = vt->crow, c = vt->ccol, rows = vt->grid->rows;
	n = n < 1 ? 1 : n > rows ? rows : n;
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
