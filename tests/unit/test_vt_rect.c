/* Rectangle editing, selective erase and DECBI/DECFI (pty/vt-rect.c):
 * each sequence fed to a small pane, the whole screen compared. */
#include <stdio.h>
#include <string.h>

#include "pty/vt.h"
#include "unit.h"
#include "vt-unit.h"

#define ROWS 6
#define COLS 8

/* The whole screen, a '.' for a blank and '|' between rows. */
static const char *screen(struct vt *vt)
{
	static char s[ROWS * (COLS + 1) + 1];
	size_t n = 0;
	for (int r = 0; r < vt_rows(vt); r++) {
		for (int c = 0; c < vt_cols(vt); c++) {
			uint32_t ch = vt_cell(vt, r, c)->ch[0];
			s[n++] = ch == 0 ? '.' : ch < 0x80 ? (char)ch : '?';
		}
		s[n++] = r + 1 < vt_rows(vt) ? '|' : '\0';
	}
	return s;
}

/* Six rows of text, as esctest's rectangle tests start. */
static struct vt *prepared(void)
{
	struct vt *vt = vt_new(ROWS, COLS, 0);
	put(vt, "abcdefgh\r\nijklmnop\r\nqrstuvwx\r\nyz012345\r\nABCDEFGH\r\nIJKLMNOP");
	return vt;
}

static const char *const TEXT = "abcdefgh|ijklmnop|qrstuvwx|yz012345|ABCDEFGH|IJKLMNOP";

static void test_fill(struct unit *u)
{
	struct vt *vt = prepared();
	put(vt, "\033[3;4H\033[1;31m\033[37;2;2;4;5$x");
	CHECK_STR(u, screen(vt), "abcdefgh|i%%%%nop|q%%%%vwx|y%%%%345|ABCDEFGH|IJKLMNOP");
	CHECK_INT(u, vt_cell(vt, 1, 1)->attr.flags, VT_BOLD); /* the pen's attributes */
	CHECK_INT(u, vt_cell(vt, 1, 1)->attr.fg, VT_COLOR_INDEX | 1);
	cursor_is(u, vt, 2, 3); /* the cursor stays */
	vt_free(vt);

	vt = prepared();
	put(vt, "\033[37;5;5;4;4$x"); /* bottom above top: nothing */
	put(vt, "\033[31;1;1;2;2$x"); /* a control character: nothing */
	CHECK_STR(u, screen(vt), TEXT);
	put(vt, "\033[42;6;8;60;90$x"); /* clipped to the screen */
	CHECK_STR(u, screen(vt), "abcdefgh|ijklmnop|qrstuvwx|yz012345|ABCDEFGH|IJKLMNO*");
	put(vt, "\033[61$x"); /* the whole screen by default */
	CHECK_STR(u, screen(vt), "========|========|========|========|========|========");
	vt_free(vt);

	/* origin mode: relative to the margins and kept inside them */
	vt = prepared();
	put(vt, "\033[?69h\033[2;7s\033[2;5r\033[?6h\033[35;1;1;9;9$x\033[?6l\033[r\033[?69l");
	CHECK_STR(u, screen(vt), "abcdefgh|i######p|q######x|y######5|A######H|IJKLMNOP");
	vt_free(vt);

	/* without origin mode the margins do not matter */
	vt = prepared();
	put(vt, "\033[?69h\033[3;4s\033[3;4r\033[35;5;5;6;8$x");
	CHECK_STR(u, screen(vt), "abcdefgh|ijklmnop|qrstuvwx|yz012345|ABCD####|IJKL####");
	vt_free(vt);
}

static void test_erase(struct unit *u)
{
	struct vt *vt = prepared();
	put(vt, "\033[1;1H\033[2;2;3;3$z");
	CHECK_STR(u, screen(vt), "abcdefgh|i..lmnop|q..tuvwx|yz012345|ABCDEFGH|IJKLMNOP");
	cursor_is(u, vt, 0, 0);
	put(vt, "\033[4;4;3;3$z"); /* empty */
	CHECK_STR(u, screen(vt), "abcdefgh|i..lmnop|q..tuvwx|yz012345|ABCDEFGH|IJKLMNOP");
	put(vt, "\033[$z");
	CHECK_STR(u, screen(vt), "........|........|........|........|........|........");
	vt_free(vt);
}

/* Rows 1, 3 and 5 written protected (DECSCA 1), the others not. */
static struct vt *protected_rows(void)
{
	struct vt *vt = vt_new(ROWS, COLS, 0);
	put(vt, "\033[1\"qabcdefgh\r\n\033[0\"qijklmnop\r\n\033[1\"qqrstuvwx\r\n\033[2\"qyz012345\r\n"
		"\033[1\"q\033[mABCDEFGH\r\n\033[\"qIJKLMNOP");
	return vt;
}

static void test_selective_erase(struct unit *u)
{
	struct vt *vt = protected_rows();
	put(vt, "\033[2;2;5;7${"); /* DECSERA */
	CHECK_STR(u, screen(vt), "abcdefgh|i......p|qrstuvwx|y......5|ABCDEFGH|IJKLMNOP");
	put(vt, "\033[$z"); /* DECERA ignores protection */
	CHECK_STR(u, screen(vt), "........|........|........|........|........|........");
	vt_free(vt);

	vt = protected_rows();
	put(vt, "\033[3;3H\033[?J"); /* DECSED 0 */
	CHECK_STR(u, screen(vt), "abcdefgh|ijklmnop|qrstuvwx|........|ABCDEFGH|........");
	put(vt, "\033[?2J");
	CHECK_STR(u, screen(vt), "abcdefgh|........|qrstuvwx|........|ABCDEFGH|........");
	put(vt, "\033[2J"); /* ED erases everything */
	CHECK_STR(u, screen(vt), "........|........|........|........|........|........");
	vt_free(vt);

	vt = protected_rows();
	put(vt, "\033[4;4H\033[?1J"); /* DECSED 1: up to the cursor */
	CHECK_STR(u, screen(vt), "abcdefgh|........|qrstuvwx|....2345|ABCDEFGH|IJKLMNOP");
	vt_free(vt);

	/* DECSEL within a row of mixed cells */
	vt = vt_new(ROWS, COLS, 0);
	put(vt, "ab\033[1\"qcd\033[0\"qef\033[1\"qgh\033[0\"q\033[1;4H\033[?K");
	CHECK_STR(u, screen(vt), "abcd..gh|........|........|........|........|........");
	put(vt, "\033[?2K");
	CHECK_STR(u, screen(vt), "..cd..gh|........|........|........|........|........");
	put(vt, "\033[?1K\033[K"); /* EL 0 from column 4 */
	CHECK_STR(u, screen(vt), "..c.....|........|........|........|........|........");
	vt_free(vt);

	/* protection survives SGR 0; a soft reset ends it */
	vt = vt_new(ROWS, COLS, 0);
	put(vt, "\033[1\"q\033[0ma\033[!pb\033[1;1H\033[?K");
	CHECK_STR(u, screen(vt), "a.......|........|........|........|........|........");
	CHECK(u, (vt_cell(vt, 0, 0)->attr.flags & VT_PROTECTED) != 0);
	vt_free(vt);
}

/* SPA..EPA guards: ED, EL and ECH spare it, as do DECSED and DECSEL (as
 * xterm); DECSERA and DECERA do not. */
static void test_guarded(struct unit *u)
{
	struct vt *vt = vt_new(ROWS, COLS, 0);
	put(vt, "ab\033Vcd\033Wef\r\nab\033Vcd\033Wef\033[H\033[J");
	CHECK_STR(u, screen(vt), "..cd....|..cd....|........|........|........|........");
	put(vt, "\033[1;1Hxy\033[1;1H\033[8X"); /* ECH */
	CHECK_STR(u, screen(vt), "..cd....|..cd....|........|........|........|........");
	put(vt, "\033[1;1Hxy\033[2K\033[?2K\033[?J"); /* EL, DECSEL, DECSED */
	CHECK_STR(u, screen(vt), "..cd....|..cd....|........|........|........|........");
	put(vt, "\033[1;1;1;8${"); /* DECSERA */
	CHECK_STR(u, screen(vt), "........|..cd....|........|........|........|........");
	put(vt, "\033[2;3H\033[P"); /* a scroll moves it: its old cell is cleared */
	CHECK_STR(u, screen(vt), "........|..d.....|........|........|........|........");
	put(vt, "\033[$z"); /* DECERA */
	CHECK_STR(u, screen(vt), "........|........|........|........|........|........");
	put(vt, "\033Vab\033W\033[!p\033[2J"); /* a soft reset ends the guarding */
	CHECK_STR(u, screen(vt), "........|........|........|........|........|........");
	vt_free(vt);
}

static void test_copy(struct unit *u)
{
	struct vt *vt = prepared();
	put(vt, "\033[2;2;4;4;1;4;5;1$v");
	CHECK_STR(u, screen(vt), "abcdefgh|ijklmnop|qrstuvwx|yz01jkl5|ABCDrstH|IJKLz01P");
	cursor_is(u, vt, 5, 7);
	vt_free(vt);

	vt = prepared(); /* overlapping: as if through a buffer */
	put(vt, "\033[2;2;4;4;1;3;3;1$v");
	CHECK_STR(u, screen(vt), "abcdefgh|ijklmnop|qrjklvwx|yzrst345|ABz01FGH|IJKLMNOP");
	vt_free(vt);

	vt = prepared(); /* the destination leaves the screen: cut */
	put(vt, "\033[1;1;3;3;1;5;7;1$v");
	CHECK_STR(u, screen(vt), "abcdefgh|ijklmnop|qrstuvwx|yz012345|ABCDEFab|IJKLMNij");
	put(vt, "\033[;;2;2$v"); /* defaults: from 1;1 to 1;1 */
	CHECK_STR(u, screen(vt), "abcdefgh|ijklmnop|qrstuvwx|yz012345|ABCDEFab|IJKLMNij");
	put(vt, "\033[2;2;1;1;1;5;5$v"); /* empty source */
	CHECK_STR(u, screen(vt), "abcdefgh|ijklmnop|qrstuvwx|yz012345|ABCDEFab|IJKLMNij");
	vt_free(vt);

	vt = prepared(); /* origin mode: both corners from the margins */
	put(vt, "\033[?69h\033[2;8s\033[2;6r\033[?6h\033[1;1;2;2;1;4;4$v\033[?6l\033[r\033[?69l");
	CHECK_STR(u, screen(vt), "abcdefgh|ijklmnop|qrstuvwx|yz012345|ABCDjkGH|IJKLrsOP");
	vt_free(vt);
}

static void test_index(struct unit *u)
{
	struct vt *vt = prepared();
	put(vt, "\033[3;5H\0336"); /* DECBI inside: moves */
	cursor_is(u, vt, 2, 3);
	put(vt, "\033[3;5H\0339"); /* DECFI */
	cursor_is(u, vt, 2, 5);
	put(vt, "\033[2;8H\0339"); /* the screen's edge is the right margin */
	cursor_is(u, vt, 1, 7);
	CHECK_STR(u, screen(vt), "bcdefgh.|jklmnop.|rstuvwx.|z012345.|BCDEFGH.|JKLMNOP.");
	put(vt, "\033[2;1H\0336");
	CHECK_STR(u, screen(vt), ".bcdefgh|.jklmnop|.rstuvwx|.z012345|.BCDEFGH|.JKLMNOP");
	cursor_is(u, vt, 1, 0);
	vt_free(vt);

	/* at the margins: only the rectangle they make scrolls */
	vt = prepared();
	put(vt, "\033[?69h\033[3;5s\033[2;4r\033[3;3H\0336");
	CHECK_STR(u, screen(vt), "abcdefgh|ij.klnop|qr.stvwx|yz.01345|ABCDEFGH|IJKLMNOP");
	cursor_is(u, vt, 2, 2);
	put(vt, "\033[3;5H\0339");
	CHECK_STR(u, screen(vt), "abcdefgh|ijkl.nop|qrst.vwx|yz01.345|ABCDEFGH|IJKLMNOP");
	cursor_is(u, vt, 2, 4);
	put(vt, "\033[1;2H\0336"); /* outside them: moves, never scrolls */
	cursor_is(u, vt, 0, 0);
	put(vt, "\0336\033[1;6H\0339");
	cursor_is(u, vt, 0, 6);
	put(vt, "\033[5;3H\0336\0339");
	cursor_is(u, vt, 4, 2);
	CHECK_STR(u, screen(vt), "abcdefgh|ijkl.nop|qrst.vwx|yz01.345|ABCDEFGH|IJKLMNOP");
	vt_free(vt);
}

/* DCH above or below the scrolling region still deletes (xterm since
 * its patch 316); outside the left and right margins it does nothing. */
static void test_delete_outside(struct unit *u)
{
	struct vt *vt = prepared();
	put(vt, "\033[2;3r\033[1;2H\033[2P\033[6;7H\033[9P");
	CHECK_STR(u, screen(vt), "adefgh..|ijklmnop|qrstuvwx|yz012345|ABCDEFGH|IJKLMN..");
	put(vt, "\033[2;2H\033[P"); /* inside, as before */
	CHECK_STR(u, screen(vt), "adefgh..|iklmnop.|qrstuvwx|yz012345|ABCDEFGH|IJKLMN..");
	put(vt, "\033[?69h\033[3;6s\033[5;2H\033[P\033[5;3H\033[P");
	CHECK_STR(u, screen(vt), "adefgh..|iklmnop.|qrstuvwx|yz012345|ABDEF.GH|IJKLMN..");
	vt_free(vt);
}

/* The attributes of the flags in a row, as one letter each: b bold, u
 * underline, r reverse, - none. */
static const char *attrs(struct vt *vt, int row)
{
	static char s[COLS + 1];
	for (int c = 0; c < COLS; c++) {
		int f = vt_cell(vt, row, c)->attr.flags;
		s[c] = f == VT_BOLD ? 'b' : f == VT_UNDERLINE ? 'u' : f == VT_REVERSE ? 'r' : f == 0 ? '-' : '+';
	}
	s[COLS] = '\0';
	return s;
}

/* DECCARA and DECRARA over DECSACE's extent: the stream of cells (the
 * default) or the rectangle; DECRQSS reads DECSACE back. */
static void test_attributes(struct unit *u)
{
	struct vt *vt = prepared();
	char out[32];
	put(vt, "\033[2;3;3;4;1$r"); /* a stream: row 2 from column 3, row 3 to 4 */
	CHECK_STR(u, attrs(vt, 0), "--------");
	CHECK_STR(u, attrs(vt, 1), "--bbbbbb");
	CHECK_STR(u, attrs(vt, 2), "bbbb----");
	put(vt, "\033[2*x\033[4;2;5;3;4$r"); /* a rectangle */
	CHECK_STR(u, attrs(vt, 3), "-uu-----");
	CHECK_STR(u, attrs(vt, 4), "-uu-----");
	put(vt, "\033[4;3;4;4;24;7$r"); /* underline off, reverse on */
	CHECK_STR(u, attrs(vt, 3), "-urr----");
	put(vt, "\033[2;1;2;4;1$t"); /* DECRARA turns bold over */
	CHECK_STR(u, attrs(vt, 1), "bb--bbbb");
	put(vt, "\033[1;1;6;8;0$r"); /* 0: all off */
	for (int r = 0; r < ROWS; r++)
		CHECK_STR(u, attrs(vt, r), "--------");
	CHECK_STR(u, screen(vt), TEXT); /* the characters stay */
	put(vt, "\033P$q*x\033\\");
	size_t n = vt_take_reply(vt, out, sizeof out - 1);
	out[n] = '\0';
	CHECK_STR(u, out, "\033P1$r2*x\033\\");
	vt_free(vt);
}

/* DECRQCRA still reads the rectangles the same way. */
static void test_checksum(struct unit *u)
{
	struct vt *vt = vt_new(ROWS, COLS, 0);
	char out[64];
	put(vt, "\033[65;1;1;1;2$x\033[1;1;1;1;1;2*y");
	size_t n = vt_take_reply(vt, out, sizeof out - 1);
	out[n] = '\0';
	CHECK_STR(u, out, "\033P1!~FF7E\033\\"); /* -(65 + 65) */
	vt_free(vt);
}

int main(void)
{
	struct unit u = { 0 };
	test_fill(&u);
	test_erase(&u);
	test_selective_erase(&u);
	test_guarded(&u);
	test_copy(&u);
	test_index(&u);
	test_delete_outside(&u);
	test_attributes(&u);
	test_checksum(&u);
	return unit_done(&u, "test_vt_rect");
}
