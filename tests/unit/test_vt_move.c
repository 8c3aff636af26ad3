/* Cursor moves bounded as in xterm (pty/vt-move.c): CUU, CUD, CNL, CPL,
 * CUF, CUB and BS stop at the margin of the region they start in; a line feed, IND, NEL
 * or RI outside the left and right margins never scrolls. */
#include <string.h>

#include "pty/vt.h"
#include "unit.h"
#include "vt-unit.h"

static void test_vertical(struct unit *u)
{
	struct vt *vt = vt_new(24, 80, 0);
	put(vt, "\033[2;4r\033[3;1H\033[99B"); /* inside: to the bottom margin */
	cursor_is(u, vt, 3, 0);
	put(vt, "\033[3;1H\033[99A"); /* and the top one */
	cursor_is(u, vt, 1, 0);
	put(vt, "\033[6;7H\033[99B"); /* below: to the screen's last row */
	cursor_is(u, vt, 23, 6);
	put(vt, "\033[1;7H\033[99A\033[B"); /* above: CUU stops at row 1, CUD goes on */
	cursor_is(u, vt, 1, 6);
	put(vt, "\033[6;7H\033[2A"); /* from below, CUU stops at the top margin */
	cursor_is(u, vt, 3, 6);
	put(vt, "\033[3;7H\033[0B"); /* 0 is 1 */
	cursor_is(u, vt, 3, 6);
	/* CNL and CPL: the same, then a return to the left margin */
	put(vt, "\033[?69h\033[5;10s\033[3;7H\033[99E");
	cursor_is(u, vt, 3, 4);
	put(vt, "\033[6;7H\033[99E");
	cursor_is(u, vt, 23, 4);
	put(vt, "\033[6;2H\033[F"); /* left of the margin: column 1 */
	cursor_is(u, vt, 4, 0);
	put(vt, "\033[3;7H\033[99F");
	cursor_is(u, vt, 1, 4);
	vt_free(vt);
}

static void test_horizontal(struct unit *u)
{
	struct vt *vt = vt_new(24, 80, 0);
	put(vt, "\033[3;7H\033[80C\033[3;7H\033[80D"); /* no margins: the edges */
	cursor_is(u, vt, 2, 0);
	put(vt, "\033[?69h\033[5;10s\033[3;7H\033[80C"); /* inside: the margin */
	cursor_is(u, vt, 2, 9);
	put(vt, "\033[3;12H\033[80C"); /* right of it: the edge */
	cursor_is(u, vt, 2, 79);
	put(vt, "\033[3;7H\033[80D");
	cursor_is(u, vt, 2, 4);
	put(vt, "\033[3;4H\033[2D");
	cursor_is(u, vt, 2, 1);
	put(vt, "\033[1;5H\b"); /* BS stops at the left margin */
	cursor_is(u, vt, 0, 4);
	put(vt, "\033[1;4H\b\b");
	cursor_is(u, vt, 0, 1);
	put(vt, "\033[1;7Hab\b\bX"); /* and otherwise moves */
	CHECK_INT(u, vt_cell(vt, 0, 6)->ch[0], 'X');
	vt_free(vt);
}

/* Reverse wraparound (45 with DECAWM): BS and CUB go on to the row above,
 * within the margins. */
static void test_reverse_wrap(struct unit *u)
{
	struct vt *vt = vt_new(24, 80, 0);
	put(vt, "\033[3;1H\b"); /* off: stays */
	cursor_is(u, vt, 2, 0);
	put(vt, "\033[?45h\033[?7l\033[3;1H\b"); /* needs DECAWM */
	cursor_is(u, vt, 2, 0);
	put(vt, "\033[?7h\033[3;1H\b");
	cursor_is(u, vt, 1, 79);
	put(vt, "\033[3;2H\033[3D"); /* CUB too, by its count */
	cursor_is(u, vt, 1, 78);
	put(vt, "\033[5;5H\033[160D"); /* over rows, more than a screen's height and width */
	cursor_is(u, vt, 2, 4);
	put(vt, "\033[1;1H\b"); /* from the top to the bottom */
	cursor_is(u, vt, 23, 79);
	put(vt, "\033[2;5r\033[2;1H\b"); /* of the margins */
	cursor_is(u, vt, 4, 79);
	put(vt, "\033[r\033[?69h\033[5;10s\033[3;5H\b"); /* to the right margin */
	cursor_is(u, vt, 1, 9);
	put(vt, "\033[3;1H\b"); /* from the screen's edge too */
	cursor_is(u, vt, 1, 9);
	put(vt, "\033[?69l\033[1;79Hab\bX"); /* after the last column: back onto it */
	CHECK_INT(u, vt_cell(vt, 0, 78)->ch[0], 'a');
	CHECK_INT(u, vt_cell(vt, 0, 79)->ch[0], 'X');
	put(vt, "\033[?45l\033[3;1H\b");
	cursor_is(u, vt, 2, 0);
	put(vt, "\033[?45h\033[!p\033[3;1H\b"); /* DECSTR ends it */
	cursor_is(u, vt, 2, 0);
	vt_free(vt);
}

/* CHA and HPA count from the left margin in origin mode, and stay
 * inside the margins. */
static void test_origin_columns(struct unit *u)
{
	struct vt *vt = vt_new(24, 80, 0);
	put(vt, "\033[6;11r\033[?69h\033[5;10s\033[?6h\033[3;3H\033[2`");
	cursor_is(u, vt, 7, 5);
	put(vt, "\033[4G");
	cursor_is(u, vt, 7, 7);
	put(vt, "\033[40G");
	cursor_is(u, vt, 7, 9);
	put(vt, "\033[?6l\033[2`"); /* without it: the screen's */
	cursor_is(u, vt, 0, 1);
	vt_free(vt);
}

/* HT and CHT stop at the right margin when they start left of it. */
static void test_tabs(struct unit *u)
{
	struct vt *vt = vt_new(24, 80, 0);
	put(vt, "\033[?69h\033[10;20s\t\t");
	cursor_is(u, vt, 0, 16);
	put(vt, "\t\t");
	cursor_is(u, vt, 0, 19);
	put(vt, "\033[1;22H\t"); /* right of it: the next stop */
	cursor_is(u, vt, 0, 24);
	put(vt, "\033[5;30s\033[9;1H\033[9I");
	cursor_is(u, vt, 8, 29);
	put(vt, "\033[?69l\033[9;1H\033[9I"); /* no margins: the screen's last column */
	cursor_is(u, vt, 8, 72);
	/* after the last column a tab stays there, or with DECSET 41 wraps */
	char line[96];
	memset(line, 'x', 80);
	strcpy(line + 80, "\t");
	put(vt, "\033[3;1H");
	put(vt, line);
	cursor_is(u, vt, 2, 79);
	put(vt, "\033[?41h\033[3;1H");
	put(vt, line);
	cursor_is(u, vt, 3, 8);
	CHECK(u, vt_row_wrapped(vt, 2));
	vt_free(vt);
}

/* DECSTBM and DECSLRM with the top not above the bottom (the left not
 * left of the right) are ignored, as in xterm: no one-line region. */
static void test_bad_margins(struct unit *u)
{
	struct vt *vt = vt_new(24, 80, 0);
	put(vt, "\033[5;6H\033[3;3r");
	cursor_is(u, vt, 4, 5); /* not even homed */
	put(vt, "\033[3;1Hx\033[24;1H\n");
	CHECK_INT(u, vt_cell(vt, 1, 0)->ch[0], 'x'); /* the whole screen scrolled */
	put(vt, "\033[10;4r\033[?69h\033[7;7s\033[1;7H\033[5C");
	cursor_is(u, vt, 0, 11);
	vt_free(vt);
}

/* What the screen holds at row r, column c. */
static uint32_t at(struct vt *vt, int r, int c)
{
	return vt_cell(vt, r, c)->ch[0];
}

static void test_index_outside(struct unit *u)
{
	struct vt *vt = vt_new(24, 80, 0);
	put(vt, "\033[2;5r\033[?69h\033[2;5s\033[5;3Hx");
	put(vt, "\033[5;6H\n"); /* at the bottom margin, right of the margins */
	cursor_is(u, vt, 4, 5);
	put(vt, "\033[5;6H\v\f\033D");
	cursor_is(u, vt, 4, 5);
	put(vt, "\033[4;6H\n"); /* above it: moves */
	cursor_is(u, vt, 4, 5);
	put(vt, "\033[24;6H\n");
	cursor_is(u, vt, 23, 5);
	put(vt, "\033[5;6H\033E"); /* NEL: no scroll, still the return */
	cursor_is(u, vt, 4, 1);
	put(vt, "\033[5;1H\033E");
	cursor_is(u, vt, 4, 0);
	put(vt, "\033[2;6H\033M\033[2;1H\033M"); /* RI at the top margin */
	cursor_is(u, vt, 1, 0);
	CHECK_INT(u, at(vt, 4, 2), 'x'); /* nothing scrolled */
	put(vt, "\033[5;3H\n");          /* inside the margins it scrolls */
	CHECK_INT(u, at(vt, 4, 2), 0);
	CHECK_INT(u, at(vt, 3, 2), 'x');
	put(vt, "\033[2;3H\033M");
	CHECK_INT(u, at(vt, 4, 2), 'x');
	vt_free(vt);
}

int main(void)
{
	struct unit u = { 0 };
	test_vertical(&u);
	test_horizontal(&u);
	test_reverse_wrap(&u);
	test_bad_margins(&u);
	test_tabs(&u);
	test_origin_columns(&u);
	test_index_outside(&u);
	return unit_done(&u, "test_vt_move");
}
