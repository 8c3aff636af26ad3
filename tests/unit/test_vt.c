/* The emulator, fed known sequences, compared screen by screen. */
#include <stdlib.h>
#include <string.h>

#include "pty/vt.h"
#include "unit.h"
#include "vt-unit.h"

/* Row text as UTF-8, trailing blanks trimmed; blanks inside are spaces,
 * the second half of a wide character is skipped. */
static const char *row_text(struct vt *vt, int row)
{
	static char s[4096];
	size_t n = 0, keep = 0;
	for (int c = 0; c < vt_cols(vt) && n + 16 < sizeof s; c++) {
		const struct vt_cell *cell = vt_cell(vt, row, c);
		if (cell->width == 0)
			continue;
		if (cell->ch[0] == 0) {
			s[n++] = ' ';
			continue;
		}
		for (int i = 0; i < VT_MAX_CHARS && cell->ch[i]; i++) {
			uint32_t ch = cell->ch[i];
			if (ch < 0x80) {
				s[n++] = ch;
			} else if (ch < 0x800) {
				s[n++] = 0xc0 | ch >> 6;
				s[n++] = 0x80 | (ch & 0x3f);
			} else if (ch < 0x10000) {
				s[n++] = 0xe0 | ch >> 12;
				s[n++] = 0x80 | (ch >> 6 & 0x3f);
				s[n++] = 0x80 | (ch & 0x3f);
			} else {
				s[n++] = 0xf0 | ch >> 18;
				s[n++] = 0x80 | (ch >> 12 & 0x3f);
				s[n++] = 0x80 | (ch >> 6 & 0x3f);
				s[n++] = 0x80 | (ch & 0x3f);
			}
		}
		keep = n;
	}
	s[keep] = '\0';
	return s;
}

static void test_text_and_cursor(struct unit *u)
{
	struct vt *vt = vt_new(5, 10, 100);
	put(vt, "hello\r\nworld");
	CHECK_STR(u, row_text(vt, 0), "hello");
	CHECK_STR(u, row_text(vt, 1), "world");
	int r, c;
	vt_cursor(vt, &r, &c);
	CHECK_INT(u, r, 1);
	CHECK_INT(u, c, 5);
	put(vt, "\033[3;4HX\033[1;1H\033[2CY");
	CHECK_STR(u, row_text(vt, 2), "   X");
	CHECK_STR(u, row_text(vt, 0), "heYlo");
	put(vt, "\033[10;20HZ"); /* clamped to the corner */
	vt_cursor(vt, &r, &c);
	CHECK_INT(u, r, 4);
	CHECK_INT(u, c, 9);
	CHECK_STR(u, row_text(vt, 4), "         Z");
	vt_free(vt);
}

static const char *reply_to(struct vt *vt, const char *in);

static void test_save_restore(struct unit *u)
{
	struct vt *vt = vt_new(5, 10, 0);
	put(vt, "\033[3;3Habc\0337\033[1;1Hxyz\0338def");
	CHECK_STR(u, row_text(vt, 2), "  abcdef");
	put(vt, "\033[s\033[5;5Hq\033[");
	put(vt, "ur"); /* CSI s / CSI u, split across writes */
	CHECK_STR(u, row_text(vt, 2), "  abcdefr");
	CHECK_STR(u, row_text(vt, 4), "    q");
	put(vt, "\033[2J\033[Hab\033[sX\033[uY"); /* what comes before goes once */
	CHECK_STR(u, row_text(vt, 0), "abY");
	/* the character sets: vttest 2.15's case draws a line, not a q */
	put(vt, "\033[2J\033[H\033(0\0337\033(Bq\0338q");
	CHECK_INT(u, vt_cell(vt, 0, 0)->ch[0], 0x2500);
	put(vt, "\033(B\033[2;1H\033)0\016\0337\017q\0338q\017"); /* G1 and the shift */
	CHECK_INT(u, vt_cell(vt, 1, 0)->ch[0], 0x2500);
	put(vt, "\033(0\033[3;1H\033[s\033(Bq\033[uq\033(B"); /* CSI s / u too */
	CHECK_INT(u, vt_cell(vt, 2, 0)->ch[0], 0x2500);
	put(vt, "\0337\033(0\0338q"); /* and back to ASCII */
	CHECK_INT(u, vt_cell(vt, 2, 1)->ch[0], 'q');
	/* a pending wrap: the next glyph goes on the next row */
	put(vt, "\033[4;1H123456789X\0337\033[H\0338Y");
	CHECK_STR(u, row_text(vt, 3), "123456789X");
	CHECK_STR(u, row_text(vt, 4), "Y");
	/* origin mode: restored, and with it the cursor's place */
	char out[64];
	put(vt, "\033[2;4r\033[?6h\0337\033[?6l\033[H\0338\033[6n");
	size_t n = vt_take_reply(vt, out, sizeof out - 1);
	out[n] = '\0';
	CHECK_STR(u, out, "\033[1;1R");
	put(vt, "\033[?6$p");
	n = vt_take_reply(vt, out, sizeof out - 1);
	out[n] = '\0';
	CHECK_STR(u, out, "\033[?6;1$y");
	/* attributes */
	put(vt, "\033[!p\033[H\033[1;31m\0337\033[0m\0338Z");
	CHECK_INT(u, vt_cell(vt, 0, 0)->attr.flags & VT_BOLD, VT_BOLD);
	CHECK_INT(u, vt_cell(vt, 0, 0)->attr.fg, VT_COLOR_INDEX | 1);
	vt_free(vt);
}

/* CR goes to the left margin when the cursor is at or right of it; CNL,
 * CPL and CHA with zero or default parameters. */
static void test_cursor_edits(struct unit *u)
{
	struct vt *vt = vt_new(24, 80, 0);
	CHECK_STR(u, reply_to(vt, "\033[3;3H\r\033[6n"), "\033[3;1R");
	CHECK_STR(u, reply_to(vt, "\033[3;5H\033[0G\033[6n"), "\033[3;1R");
	CHECK_STR(u, reply_to(vt, "\033[3;5H\033[E\033[6n"), "\033[4;1R");
	CHECK_STR(u, reply_to(vt, "\033[3;6H\033[2E\033[6n"), "\033[5;1R");
	CHECK_STR(u, reply_to(vt, "\033[3;5H\033[F\033[6n"), "\033[2;1R");
	CHECK_STR(u, reply_to(vt, "\033[5;6H\033[2F\033[6n"), "\033[3;1R");
	CHECK_STR(u, reply_to(vt, "\033[5;5H\033#8\033[6n"), "\033[1;1R");
	CHECK_STR(u, row_text(vt, 23),
		  "EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE");
	CHECK_STR(u, reply_to(vt, "\033[?69h\033[5;10s\033[1;6H\r\033[6n"), "\033[1;5R");
	CHECK_STR(u, reply_to(vt, "\033[1;3H\r\033[6n"), "\033[1;1R");
	CHECK_STR(u, reply_to(vt, "\033[?6h\033[1;3H\r\033[6n"), "\033[1;1R"); /* relative */
	CHECK_STR(u, reply_to(vt, "\033#8\033P$qs\033\\"), "\033P1$r1;80s\033\\");
	vt_free(vt);
}

/* REP (CSI b): libvterm 0.1.4 loops forever on it with no glyph before
 * or after a zero-width one; a program must not be able to hang the host. */
static void test_rep(struct unit *u)
{
	struct vt *vt = vt_new(4, 10, 0);
	put(vt, "\033[b\033[5b"); /* nothing to repeat: nothing */
	CHECK_STR(u, row_text(vt, 0), "");
	put(vt, "\xe2\x80\x8b\033[3b");
	put(vt, "\033[1;1Hab\033[3b");
	CHECK_STR(u, row_text(vt, 0), "abbbb");
	put(vt, "\033[2;1Hx\033[");
	put(vt, "999999999999b"); /* split, and at most a row */
	CHECK_STR(u, row_text(vt, 1), "xxxxxxxxxx");
	CHECK_STR(u, row_text(vt, 2), "");
	/* libvterm's parser reads these as CSI too: so must the scan. */
	put(vt, "\033&[5b\033\001[5b\033 [5b\033\177[5b\033\200[5b\033[5\177b\033[5\001b");
	put(vt, "\033[4;1He\xcc\x81\033[2b");
	CHECK_INT(u, vt_cell(vt, 3, 2)->ch[0], 'e');
	CHECK_INT(u, vt_cell(vt, 3, 2)->ch[1], 0x301);
	CHECK_INT(u, vt_cell(vt, 3, 3)->ch[0], 0);
	vt_free(vt);
}

/* libvterm 0.1.4 writes past its argument array on a CSI with more than
 * 16 arguments; such a CSI is dropped before it gets there. */
static void test_many_args(struct unit *u)
{
	struct vt *vt = vt_new(3, 20, 0);
	char s[4096] = "\033[";
	for (int i = 0; i < 1000; i++)
		strcat(s, i % 2 ? "1;" : "2:");
	strcat(s, "mok");
	put(vt, s);
	CHECK_STR(u, row_text(vt, 0), "ok");
	CHECK_INT(u, vt_cell(vt, 0, 0)->attr.flags, 0);
	/* split across writes, and 16 arguments still work */
	put(vt, "\033[2;1H\033[1;1;1;1;1;1;1;1;");
	put(vt, "1;1;1;1;1;1;1;31mA\033[0;1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18mB");
	CHECK_STR(u, row_text(vt, 1), "AB");
	CHECK_INT(u, vt_cell(vt, 1, 0)->attr.fg, VT_COLOR_INDEX | 1);
	CHECK_INT(u, vt_cell(vt, 1, 1)->attr.fg, VT_COLOR_INDEX | 1); /* the long one dropped */
	vt_free(vt);
}

/* DECALN fills the screen with E; a flood of them costs a bounded time. */
static void test_decaln(struct unit *u)
{
	struct vt *vt = vt_new(4, 6, 0);
	put(vt, "\033#8");
	CHECK_STR(u, row_text(vt, 0), "EEEEEE");
	CHECK_STR(u, row_text(vt, 3), "EEEEEE");
	put(vt, "\033[2J\033 #8x"); /* an intermediate that is not # */
	CHECK_STR(u, row_text(vt, 0), "x");
	CHECK_STR(u, row_text(vt, 1), "");
	struct vt *big = vt_new(200, 1000, 0);
	static char flood[30000];
	for (size_t i = 0; i + 3 <= sizeof flood; i += 3)
		memcpy(flood + i, "\033#8", 3);
	/* 10,000 of them, 200,000 cells each: minutes through libvterm; the
	 * first runs, the others fit no budget */
	vt_write(big, flood, sizeof flood);
	CHECK_INT(u, vt_cell(big, 199, 999)->ch[0], 'E');
	vt_free(big);
	vt_free(vt);
}

/* A scroll region past the bottom of a shrunk screen: libvterm 0.1.4
 * would move a negative size on the next scroll. */
static void test_resize_region(struct unit *u)
{
	struct vt *vt = vt_new(60, 10, 10);
	put(vt, "\033[49r\033[3;4Hx");
	vt_resize(vt, 5, 10);
	int r, c;
	vt_cursor(vt, &r, &c);
	CHECK_INT(u, r, 2);
	CHECK_INT(u, c, 4);
	put(vt, "\n\n\n\n\n\n\033M\033M\033[5;1H\n\033[L\033[M");
	vt_resize(vt, 1, 1);
	put(vt, "\n\n\033[?1049h\n\033[2;1r\n\xe4\xb8\xad\n");
	vt_resize(vt, 30, 30);
	put(vt, "\n\n");
	CHECK_INT(u, vt_rows(vt), 30);
	vt_free(vt);
}

/* DECCOLM clears the screen, resets the margins, homes the cursor. */
static void test_deccolm(struct unit *u)
{
	struct vt *vt = vt_new(4, 10, 0);
	put(vt, "abc\033[2;3r\033[4;4H\033[?3lX");
	CHECK_STR(u, row_text(vt, 0), "X");
	CHECK_STR(u, row_text(vt, 3), "");
	put(vt, "\033[4;1H\n"); /* the margins are the whole screen again */
	CHECK_INT(u, vt_history(vt), 0);
	CHECK_STR(u, row_text(vt, 2), "");
	vt_free(vt);
}

static void test_erase(struct unit *u)
{
	struct vt *vt = vt_new(3, 10, 0);
	put(vt, "abcdefghij\r\nklmnopqrst\r\nuvwxyz");
	put(vt, "\033[1;4H\033[K"); /* erase to end of line */
	CHECK_STR(u, row_text(vt, 0), "abc");
	put(vt, "\033[2;4H\033[1K"); /* erase to start, cursor included */
	CHECK_STR(u, row_text(vt, 1), "    opqrst");
	put(vt, "\033[3;3H\033[X"); /* erase one character */
	CHECK_STR(u, row_text(vt, 2), "uv xyz");
	put(vt, "\033[2J");
	CHECK_STR(u, row_text(vt, 0), "");
	CHECK_STR(u, row_text(vt, 2), "");
	/* Erase paints the current background (BCE). */
	put(vt, "\033[44m\033[2;1H\033[K\033[m");
	CHECK_INT(u, vt_cell(vt, 1, 5)->attr.bg, VT_COLOR_INDEX | 4);
	vt_free(vt);
}

static void test_insert_delete(struct unit *u)
{
	struct vt *vt = vt_new(4, 10, 0);
	put(vt, "0123456789\r\nline1\r\nline2\r\nline3");
	put(vt, "\033[1;3H\033[2P"); /* delete 2 chars */
	CHECK_STR(u, row_text(vt, 0), "01456789");
	put(vt, "\033[1;3H\033[3@"); /* insert 3 blanks */
	CHECK_STR(u, row_text(vt, 0), "01   45678");
	put(vt, "\033[2;1H\033[L"); /* insert a line at row 2 */
	CHECK_STR(u, row_text(vt, 1), "");
	CHECK_STR(u, row_text(vt, 2), "line1");
	CHECK_STR(u, row_text(vt, 3), "line2");
	put(vt, "\033[2;1H\033[2M"); /* delete 2 lines */
	CHECK_STR(u, row_text(vt, 1), "line2");
	CHECK_STR(u, row_text(vt, 2), "");
	vt_free(vt);
}

static void test_scroll_region(struct unit *u)
{
	struct vt *vt = vt_new(5, 10, 100);
	put(vt, "a\r\nb\r\nc\r\nd\r\ne");
	put(vt, "\033[2;4r\033[4;1H\n"); /* region rows 2-4, LF at its bottom */
	CHECK_STR(u, row_text(vt, 0), "a");
	CHECK_STR(u, row_text(vt, 1), "c");
	CHECK_STR(u, row_text(vt, 2), "d");
	CHECK_STR(u, row_text(vt, 3), "");
	CHECK_STR(u, row_text(vt, 4), "e");
	CHECK_INT(u, vt_history(vt), 0); /* a partial region feeds no history */
	put(vt, "\033[2;1H\033M");       /* reverse index at the region's top */
	CHECK_STR(u, row_text(vt, 1), "");
	CHECK_STR(u, row_text(vt, 2), "c");
	CHECK_STR(u, row_text(vt, 3), "d");
	put(vt, "\033[r\033[5;1H\n");
	CHECK_INT(u, vt_history(vt), 1);
	CHECK_STR(u, row_text(vt, -1), "a");
	/* A narrowed region (DECLRMM) falls back to moving cells. */
	put(vt, "\033[?69h\033[1;3s\033[1;5r\033[1;1H\033[S\033[s\033[?69l\033[r");
	vt_free(vt);
}

static void test_scrollback(struct unit *u)
{
	struct vt *vt = vt_new(10, 20, 500);
	char line[32];
	for (int i = 0; i < 1000; i++) {
		snprintf(line, sizeof line, "line %d\r\n", i);
		put(vt, line);
	}
	CHECK_INT(u, vt_history(vt), 500);
	CHECK_STR(u, row_text(vt, -1), "line 990");
	CHECK_STR(u, row_text(vt, -500), "line 491");
	CHECK_STR(u, row_text(vt, 0), "line 991");
	CHECK_STR(u, row_text(vt, 8), "line 999");
	CHECK_STR(u, row_text(vt, -501), "");
	/* Colours survive the compact history. */
	put(vt, "\033[31mred\033[42mgreen\033[m plain\033[38;2;1;2;3mrgb\033[m\r\n");
	for (int i = 0; i < 9; i++)
		put(vt, "\r\n");
	CHECK_STR(u, row_text(vt, -1), "redgreen plainrgb");
	CHECK_INT(u, vt_cell(vt, -1, 0)->attr.fg, VT_COLOR_INDEX | 1);
	CHECK_INT(u, vt_cell(vt, -1, 3)->attr.bg, VT_COLOR_INDEX | 2);
	CHECK_INT(u, vt_cell(vt, -1, 3)->attr.fg, VT_COLOR_INDEX | 1);
	CHECK_INT(u, vt_cell(vt, -1, 9)->attr.fg, VT_COLOR_DEFAULT);
	CHECK_INT(u, vt_cell(vt, -1, 14)->attr.fg, VT_COLOR_RGB | 0x010203);
	vt_clear_history(vt);
	CHECK_INT(u, vt_history(vt), 0);
	vt_free(vt);
}

static void test_wide_and_combining(struct unit *u)
{
	struct vt *vt = vt_new(3, 6, 0);
	put(vt, "a\xe4\xb8\xad"
		"b"); /* a, U+4E2D (wide), b */
	CHECK_INT(u, vt_cell(vt, 0, 1)->ch[0], 0x4e2d);
	CHECK_INT(u, vt_cell(vt, 0, 1)->width, 2);
	CHECK_INT(u, vt_cell(vt, 0, 2)->width, 0);
	CHECK_INT(u, vt_cell(vt, 0, 3)->ch[0], 'b');
	/* A wide character at the last column wraps whole to the next row. */
	put(vt, "\033[2;6H\xe4\xb8\xad");
	CHECK_INT(u, vt_cell(vt, 1, 5)->ch[0], 0);
	CHECK_INT(u, vt_cell(vt, 2, 0)->ch[0], 0x4e2d);
	CHECK_INT(u, vt_cell(vt, 2, 0)->width, 2);
	/* Overwriting half of it blanks the other half. */
	put(vt, "\033[1;3Hx");
	CHECK_INT(u, vt_cell(vt, 0, 1)->ch[0], 0);
	CHECK_INT(u, vt_cell(vt, 0, 1)->width, 1);
	CHECK_STR(u, row_text(vt, 0), "a xb");
	/* e + combining acute, in one write and split over two. */
	put(vt, "\033[2;1He\xcc\x81");
	CHECK_INT(u, vt_cell(vt, 1, 0)->ch[0], 'e');
	CHECK_INT(u, vt_cell(vt, 1, 0)->ch[1], 0x301);
	put(vt, "\033[2;3Hu");
	put(vt, "\xcc\x88");
	CHECK_INT(u, vt_cell(vt, 1, 2)->ch[1], 0x308);
	/* A one-column pane: the cursor reported stays on the screen. */
	struct vt *one = vt_new(3, 1, 0);
	put(one, "\xe4\xb8\xad\xc2\xc2\xc2x\xe4\xb8\xad");
	int r, c;
	vt_cursor(one, &r, &c);
	CHECK(u, r >= 0 && r < 3 && c == 0);
	vt_free(one);
	/* Invalid UTF-8 becomes U+FFFD, not a crash. */
	put(vt, "\033[3;1H\xff\xc3(");
	CHECK(u, vt_cell(vt, 2, 0)->ch[0] == 0xfffd);
	vt_free(vt);
}

static void test_sgr(struct unit *u)
{
	struct vt *vt = vt_new(2, 20, 0);
	put(vt, "\033[1;3;4;7;9mA\033[22;23;24;27;29mB\033[38;5;208;48;2;10;20;30mC\033[39;49mD\033[95mE");
	const struct vt_cell *a = vt_cell(vt, 0, 0);
	CHECK_INT(u, a->attr.flags, VT_BOLD | VT_ITALIC | VT_UNDERLINE | VT_REVERSE | VT_STRIKE);
	CHECK_INT(u, vt_cell(vt, 0, 1)->attr.flags, 0);
	CHECK_INT(u, vt_cell(vt, 0, 2)->attr.fg, VT_COLOR_INDEX | 208);
	CHECK_INT(u, vt_cell(vt, 0, 2)->attr.bg, VT_COLOR_RGB | 0x0a141e);
	CHECK_INT(u, vt_cell(vt, 0, 3)->attr.fg, VT_COLOR_DEFAULT);
	CHECK_INT(u, vt_cell(vt, 0, 3)->attr.bg, VT_COLOR_DEFAULT);
	CHECK_INT(u, vt_cell(vt, 0, 4)->attr.fg, VT_COLOR_INDEX | 13);
	/* Dim and conceal, which libvterm 0.1.4 does not know, also split. */
	put(vt, "\033[H\033[2mG\033[38;5;2mH\033[22mI\033[2;8");
	put(vt, "mJ\033[0mK\033[2;38;2;2;2;2mL\033[mM\033[1;2;22mN");
	CHECK_INT(u, vt_cell(vt, 0, 0)->attr.flags, VT_DIM);
	CHECK_INT(u, vt_cell(vt, 0, 1)->attr.flags, VT_DIM);
	CHECK_INT(u, vt_cell(vt, 0, 1)->attr.fg, VT_COLOR_INDEX | 2);
	CHECK_INT(u, vt_cell(vt, 0, 2)->attr.flags, 0);
	CHECK_INT(u, vt_cell(vt, 0, 3)->attr.flags, VT_DIM | VT_CONCEAL);
	CHECK_INT(u, vt_cell(vt, 0, 4)->attr.flags, 0);
	CHECK_INT(u, vt_cell(vt, 0, 5)->attr.flags, VT_DIM);
	CHECK_INT(u, vt_cell(vt, 0, 5)->attr.fg, VT_COLOR_RGB | 0x020202);
	CHECK_INT(u, vt_cell(vt, 0, 6)->attr.flags, 0);
	CHECK_INT(u, vt_cell(vt, 0, 7)->attr.flags, 0);
	put(vt, "\033[38;5;8mO");
	CHECK_INT(u, vt_cell(vt, 0, 8)->attr.flags, 0);
	put(vt, "\033[m\033[1;5H");
	/* Bold does not brighten the colour: the drawing code decides. */
	put(vt, "\033[1;31mF");
	CHECK_INT(u, vt_cell(vt, 0, 4)->attr.fg, VT_COLOR_INDEX | 1);
	vt_free(vt);
}

static void test_altscreen(struct unit *u)
{
	struct vt *vt = vt_new(4, 10, 100);
	put(vt, "shell\r\nprompt$ ");
	put(vt, "\033[?1049h");
	CHECK(u, vt_modes(vt)->altscreen);
	CHECK_STR(u, row_text(vt, 0), "");
	put(vt, "\033[Hvim screen\r\n\r\n\r\n\r\n\r\n\r\n");
	CHECK_INT(u, vt_history(vt), 0); /* the alternate screen keeps none */
	put(vt, "\033[?1049l");
	CHECK(u, !vt_modes(vt)->altscreen);
	CHECK_STR(u, row_text(vt, 0), "shell");
	CHECK_STR(u, row_text(vt, 1), "prompt$ ");
	int r, c;
	vt_cursor(vt, &r, &c);
	CHECK_INT(u, r, 1);
	CHECK_INT(u, c, 8);
	vt_free(vt);
}

static void test_resize(struct unit *u)
{
	struct vt *vt = vt_new(5, 10, 100);
	put(vt, "1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7");
	CHECK_INT(u, vt_history(vt), 2);
	vt_resize(vt, 3, 10); /* the cursor's line stays on screen */
	CHECK_INT(u, vt_rows(vt), 3);
	CHECK_STR(u, row_text(vt, 2), "7");
	CHECK_STR(u, row_text(vt, 0), "5");
	CHECK_INT(u, vt_history(vt), 4);
	int r, c;
	vt_cursor(vt, &r, &c);
	CHECK_INT(u, r, 2);
	vt_resize(vt, 6, 10); /* growing pulls lines back */
	CHECK_STR(u, row_text(vt, 0), "2");
	CHECK_STR(u, row_text(vt, 5), "7");
	CHECK_INT(u, vt_history(vt), 1);
	vt_cursor(vt, &r, &c);
	CHECK_INT(u, r, 5);
	/* Blank rows under the cursor go first when shrinking. */
	put(vt, "\033[2J\033[Htop");
	int h = vt_history(vt);
	vt_resize(vt, 2, 10);
	CHECK_STR(u, row_text(vt, 0), "top");
	CHECK_INT(u, vt_history(vt), h);
	vt_free(vt);

	/* A new width re-wraps, both ways, and keeps the cursor on its text. */
	vt = vt_new(4, 10, 100);
	put(vt, "0123456789abcde\r\nnext");
	vt_resize(vt, 4, 5);
	CHECK_STR(u, row_text(vt, 0), "01234");
	CHECK_STR(u, row_text(vt, 1), "56789");
	CHECK_STR(u, row_text(vt, 2), "abcde");
	CHECK_STR(u, row_text(vt, 3), "next");
	vt_cursor(vt, &r, &c);
	CHECK_INT(u, r, 3);
	CHECK_INT(u, c, 4);
	vt_resize(vt, 4, 20);
	CHECK_STR(u, row_text(vt, 0), "0123456789abcde");
	CHECK_STR(u, row_text(vt, 1), "next");
	vt_cursor(vt, &r, &c);
	CHECK_INT(u, r, 1);
	CHECK_INT(u, c, 4);
	vt_resize(vt, 2, 4); /* into the scrollback, still wrapped */
	CHECK_STR(u, row_text(vt, 0), "next");
	CHECK_STR(u, row_text(vt, 1), ""); /* the cursor, past the edge */
	CHECK_INT(u, vt_history(vt), 4);
	CHECK_STR(u, row_text(vt, -4), "0123");
	CHECK(u, vt_row_wrapped(vt, -4));
	CHECK_STR(u, row_text(vt, -1), "cde");
	CHECK(u, !vt_row_wrapped(vt, -1));
	vt_resize(vt, 4, 10);
	CHECK_STR(u, row_text(vt, 0), "0123456789");
	CHECK_STR(u, row_text(vt, 1), "abcde");
	CHECK_STR(u, row_text(vt, 2), "next");
	CHECK_INT(u, vt_history(vt), 0);
	put(vt, "!");
	CHECK_STR(u, row_text(vt, 2), "next!");
	/* A wide character that would straddle the edge moves down whole. */
	put(vt, "\033[2J\033[Habc\xe4\xb8\xad");
	vt_resize(vt, 4, 4);
	CHECK_STR(u, row_text(vt, 0), "abc");
	CHECK_INT(u, vt_cell(vt, 1, 0)->ch[0], 0x4e2d);
	CHECK_INT(u, vt_cell(vt, 1, 1)->width, 0);
	vt_free(vt);
}

static void test_wrap_flag(struct unit *u)
{
	struct vt *vt = vt_new(6, 5, 10);
	put(vt, "abcdefg\r\nxy\r\n12345\r\nz");
	CHECK(u, vt_row_wrapped(vt, 0));
	CHECK(u, !vt_row_wrapped(vt, 1));
	CHECK(u, !vt_row_wrapped(vt, 2)); /* exactly full, then CR LF */
	put(vt, "\r\n\r\n\r\n\r\n\r\n\r\n");
	CHECK_INT(u, vt_history(vt), 5);
	CHECK(u, vt_row_wrapped(vt, -5)); /* the flag goes into the scrollback */
	CHECK(u, !vt_row_wrapped(vt, -4));
	CHECK_STR(u, row_text(vt, -4), "fg");
	vt_free(vt);
}

static void test_osc(struct unit *u)
{
	struct vt *vt = vt_new(3, 20, 0);
	CHECK_STR(u, vt_title(vt), "");
	put(vt, "\033]2;first title\007");
	CHECK_STR(u, vt_title(vt), "first title");
	/* Split across writes, in several places. */
	put(vt, "ab\033]0;spl");
	put(vt, "it ti");
	put(vt, "tle\033");
	put(vt, "\\cd");
	CHECK_STR(u, vt_title(vt), "split title");
	CHECK_STR(u, row_text(vt, 0), "abcd");
	put(vt, "\033");
	put(vt, "]2;esc alone\007");
	CHECK_STR(u, vt_title(vt), "esc alone");
	/* Control characters never reach the stored title. */
	put(vt, "\033]2;a\033[31mb\007");
	CHECK(u, strchr(vt_title(vt), '\033') == NULL);
	/* A runaway OSC is dropped, and what follows still works. */
	put(vt, "\033]2;");
	char junk[1000];
	memset(junk, 'x', sizeof junk);
	for (int i = 0; i < 10; i++)
		vt_write(vt, junk, sizeof junk);
	put(vt, "\007\033[2;1Hafter");
	CHECK_STR(u, row_text(vt, 1), "after");
	/* Another escape cuts an OSC short: dropped, and the escape works. */
	put(vt, "\033]2;cut\033[3;1H\033[31mR");
	put(vt, "\033]2;cut again\033");
	put(vt, "[mP");
	CHECK(u, strncmp(vt_title(vt), "cut", 3) != 0);
	CHECK_INT(u, vt_cell(vt, 2, 0)->attr.fg, VT_COLOR_INDEX | 1);
	CHECK_INT(u, vt_cell(vt, 2, 1)->ch[0], 'P');
	CHECK_INT(u, vt_cell(vt, 2, 1)->attr.fg, VT_COLOR_DEFAULT);
	/* CAN aborts an OSC; what follows is text again. */
	put(vt, "\033]2;never\030\033[3;1Hshown");
	CHECK_STR(u, row_text(vt, 2), "shown");
	CHECK(u, strcmp(vt_title(vt), "never") != 0);
	CHECK(u, strlen(vt_title(vt)) < 1000);
	vt_free(vt);
}

struct osc_seen {
	int count, last;
	char arg[64];
};

static void osc_record(int command, const char *arg, size_t len, void *data)
{
	struct osc_seen *s = data;
	s->count++;
	s->last = command;
	snprintf(s->arg, sizeof s->arg, "%.*s", (int)len, arg);
}

static void test_osc_hooks(struct unit *u)
{
	struct vt *vt = vt_new(3, 20, 0);
	struct osc_seen seen = { 0 };
	put(vt, "\033]52;c;aGVsbG8=\007"); /* no handler: ignored */
	vt_set_osc_handler(vt, osc_record, &seen);
	put(vt, "\033]52;c;aGVsbG8=\007"); /* clipboard not allowed: ignored */
	CHECK_INT(u, seen.count, 0);
	put(vt, "\033]7;file://host/tmp\033\\");
	CHECK_INT(u, seen.count, 1);
	CHECK_INT(u, seen.last, 7);
	CHECK_STR(u, seen.arg, "file://host/tmp");
	put(vt, "\033]133;A\007");
	CHECK_INT(u, seen.last, 133);
	vt_allow_clipboard(vt, true);
	put(vt, "\033]52;c;aGk=\007");
	CHECK_INT(u, seen.last, 52);
	CHECK_STR(u, seen.arg, "c;aGk=");
	/* Nothing was answered or passed through. */
	char out[64];
	CHECK_INT(u, vt_take_reply(vt, out, sizeof out), 0);
	/* Colour queries are answered, not passed on. */
	int before = seen.count;
	vt_set_default_colors(vt, 0xffffff, 0x102030);
	put(vt, "\033]11;?\007");
	size_t n = vt_take_reply(vt, out, sizeof out - 1);
	out[n] = '\0';
	CHECK_STR(u, out, "\033]11;rgb:1010/2020/3030\033\\");
	CHECK_INT(u, seen.count, before);
	vt_free(vt);
}

/* What the emulator answers to in. */
static const char *reply_to(struct vt *vt, const char *in)
{
	static char out[512];
	char junk[512];
	while (vt_take_reply(vt, junk, sizeof junk) > 0)
		;
	put(vt, in);
	size_t n = vt_take_reply(vt, out, sizeof out - 1);
	out[n] = '\0';
	return out;
}

static void test_reports(struct unit *u)
{
	struct vt *vt = vt_new(24, 80, 0);
	/* XTWINOPS: the pane's own size; pixels from an assumed 8x16 cell */
	CHECK_STR(u, reply_to(vt, "\033[18t"), "\033[8;24;80t");
	CHECK_STR(u, reply_to(vt, "\033[19t"), "\033[9;24;80t");
	CHECK_STR(u, reply_to(vt, "\033[14t"), "\033[4;384;640t");
	CHECK_STR(u, reply_to(vt, "\033[16t"), "\033[6;16;8t");
	CHECK_STR(u, reply_to(vt, "\033[8;25;80t"), ""); /* no resizing */
	/* device attributes, as xterm at VT420 level, then at VT220 */
	CHECK_STR(u, reply_to(vt, "\033[c"), "\033[?64;1;2;6;9;15;16;17;18;21;22;28;29c");
	CHECK_STR(u, reply_to(vt, "\033[0c"), "\033[?64;1;2;6;9;15;16;17;18;21;22;28;29c");
	CHECK_STR(u, reply_to(vt, "\033[>c"), "\033[>41;354;0c");
	CHECK_STR(u, reply_to(vt, "\033[=c"), "\033P!|00000000\033\\");
	CHECK_STR(u, reply_to(vt, "\033[62;1\"p\033[c"), "\033[?62;1;2;6;9;15;22;29c");
	CHECK_STR(u, reply_to(vt, "\033P$q\"p\033\\"), "\033P1$r62;1\"p\033\\");
	CHECK_STR(u, reply_to(vt, "\033[65;1\"p\033P$q\"p\033\\"), "\033P1$r64;1\"p\033\\"); /* a VT420 at most */
	CHECK_STR(u, reply_to(vt, "\033[31m\033[!p\033P$qm\033\\"), "\033P1$r0m\033\\");     /* DECSTR resets the pen */
	/* cursor position; relative to the margins in origin mode */
	CHECK_STR(u, reply_to(vt, "\033[3;5H\033[6n"), "\033[3;5R");
	CHECK_STR(u, reply_to(vt, "\033[?6n"), "\033[?3;5;1R");
	CHECK_STR(u, reply_to(vt, "\033[5n"), "\033[0n");
	CHECK_STR(u, reply_to(vt, "\033[5n\033[?15n\033[?26n"), "\033[0n\033[?13n\033[?27;1;0;0n");
	CHECK_STR(u, reply_to(vt, "\033[?63;7n\033[?99n\033[?6n"), "\033P7!~0000\033\\\033[?3;5;1R");
	CHECK_STR(u, reply_to(vt, "\033[6;11r\033[?6h\033[2;3H\033[6n"), "\033[2;3R");
	CHECK_STR(u, reply_to(vt, "\033[?6$p"), "\033[?6;1$y");
	/* DECSTR resets origin mode and the margins */
	CHECK_STR(u, reply_to(vt, "\033[!p\033[?6$p"), "\033[?6;2$y");
	CHECK_STR(u, reply_to(vt, "\033P$qr\033\\"), "\033P1$r1;24r\033\\");
	/* DECRQM: DEC modes from libvterm, ANSI insert and newline here */
	CHECK_STR(u, reply_to(vt, "\033[?7$p"), "\033[?7;1$y");
	CHECK_STR(u, reply_to(vt, "\033[?2004h\033[?2004$p"), "\033[?2004;1$y");
	CHECK_STR(u, reply_to(vt, "\033[4h\033[4$p"), "\033[4;1$y");
	CHECK_STR(u, reply_to(vt, "\033[4l\033[4$p\033[20$p"), "\033[4;2$y\033[20;2$y");
	CHECK_STR(u, reply_to(vt, "\033[19$p\033[2$p\033[3$p"), "\033[19;4$y\033[2;4$y\033[3;0$y");
	/* DECRQSS */
	CHECK_STR(u, reply_to(vt, "\033[1;2;38;5;100m\033P$qm\033\\"), "\033P1$r0;1;2;38:5:100m\033\\");
	CHECK_STR(u, reply_to(vt, "\033[0;4;31;42m\033P$qm\033\\"), "\033P1$r0;4;31;42m\033\\");
	CHECK_STR(u, reply_to(vt, "\033[m\033P$qm\033\\"), "\033P1$r0m\033\\");
	CHECK_STR(u, reply_to(vt, "\033[5;6r\033P$qr\033\\"), "\033P1$r5;6r\033\\");
	CHECK_STR(u, reply_to(vt, "\033[?69h\033[3;4s\033P$qs\033\\"), "\033P1$r3;4s\033\\");
	CHECK_STR(u, reply_to(vt, "\033[4 q\033P$q q\033\\"), "\033P1$r4 q\033\\");
	put(vt, "\033[!p\033[2J\033[H");
	/* DECRQCRA: the negated sum of the cells, blanks as spaces */
	put(vt, "ab\033[2;1Hc");
	CHECK_STR(u, reply_to(vt, "\033[7;0;1;1;1;1*y"), "\033P7!~FF9F\033\\"); /* 'a' */
	CHECK_STR(u, reply_to(vt, "\033[8;0;1;1;2;2*y"), "\033P8!~FEBA\033\\"); /* a b c ' ' */
	/* OSC 10/11/12 colour queries */
	vt_set_default_colors(vt, 0x112233, 0xffeedd);
	CHECK_STR(u, reply_to(vt, "\033]10;?\033\\"), "\033]10;rgb:1111/2222/3333\033\\");
	CHECK_STR(u, reply_to(vt, "\033]11;?\007"), "\033]11;rgb:ffff/eeee/dddd\033\\");
	CHECK_STR(u, reply_to(vt, "\033]12;?\007"), "\033]12;rgb:1111/2222/3333\033\\");
	/* a DCS split across writes is still answered, and text goes on */
	put(vt, "\033P$");
	CHECK_STR(u, reply_to(vt, "qr\033\\x"), "\033P1$r1;24r\033\\");
	vt_free(vt);
}

static void test_modes_and_replies(struct unit *u)
{
	struct vt *vt = vt_new(3, 20, 0);
	const struct vt_modes *m = vt_modes(vt);
	CHECK(u, m->cursor_visible);
	put(vt, "\033[?25l\033[?1h\033=\033[?2004h\033[?1002h\033[?1006h");
	CHECK(u, !m->cursor_visible);
	CHECK(u, m->app_cursor);
	CHECK(u, m->app_keypad);
	CHECK(u, m->bracketed_paste);
	CHECK_INT(u, m->mouse, 2);
	CHECK(u, m->mouse_sgr);
	put(vt, "\033[?25h\033[?1l\033>\033[?2004l\033[?1002l\033[?1006l");
	CHECK(u, m->cursor_visible && !m->app_cursor && !m->app_keypad && !m->bracketed_paste);
	CHECK_INT(u, m->mouse, 0);
	put(vt, "\033[c\033[6n");
	char out[64];
	size_t n = vt_take_reply(vt, out, sizeof out);
	out[n] = '\0';
	CHECK(u, strncmp(out, "\033[?64;", 6) == 0);
	CHECK(u, strstr(out, "\033[1;1R") != NULL);
	CHECK_INT(u, vt_take_reply(vt, out, sizeof out), 0);
	vt_focus(vt, true); /* not asked for: nothing */
	CHECK_INT(u, vt_take_reply(vt, out, sizeof out), 0);
	put(vt, "\033[?1004h");
	vt_focus(vt, false);
	n = vt_take_reply(vt, out, sizeof out);
	out[n] = '\0';
	CHECK_STR(u, out, "\033[O");
	put(vt, "\033[?5h\033[4 q");
	CHECK(u, m->reverse_screen);
	CHECK_INT(u, m->cursor_shape, 2);
	put(vt, "\033[?5l");
	CHECK(u, !m->reverse_screen);
	put(vt, "\007");
	CHECK(u, vt_take_bell(vt));
	CHECK(u, !vt_take_bell(vt));
	vt_free(vt);
}

static void test_dirty(struct unit *u)
{
	struct vt *vt = vt_new(4, 10, 0);
	vt_clear_dirty(vt);
	CHECK(u, !vt_dirty(vt));
	put(vt, "\033[3;1Hx");
	CHECK(u, vt_dirty(vt));
	CHECK(u, vt_row_dirty(vt, 2));
	CHECK(u, !vt_row_dirty(vt, 0));
	vt_clear_dirty(vt);
	CHECK(u, !vt_row_dirty(vt, 2));
	vt_free(vt);
}

static size_t key(struct vt *vt, uint32_t k, int mods, char *out)
{
	size_t n = vt_key(vt, k, mods, out, 32);
	out[n] = '\0';
	return n;
}

static void test_keys(struct unit *u)
{
	struct vt *vt = vt_new(3, 20, 0);
	char o[33];
	key(vt, VT_KEY_UP, 0, o);
	CHECK_STR(u, o, "\033[A");
	key(vt, VT_KEY_HOME, 0, o);
	CHECK_STR(u, o, "\033[H");
	key(vt, VT_KEY_RIGHT, VT_MOD_CTRL, o);
	CHECK_STR(u, o, "\033[1;5C");
	put(vt, "\033[?1h");
	key(vt, VT_KEY_UP, 0, o);
	CHECK_STR(u, o, "\033OA");
	key(vt, VT_KEY_END, 0, o);
	CHECK_STR(u, o, "\033OF");
	key(vt, VT_KEY_LEFT, VT_MOD_SHIFT, o);
	CHECK_STR(u, o, "\033[1;2D");
	put(vt, "\033[?1l");
	key(vt, VT_KEY_F1, 0, o);
	CHECK_STR(u, o, "\033OP");
	key(vt, VT_KEY_F1 + 4, 0, o);
	CHECK_STR(u, o, "\033[15~");
	key(vt, VT_KEY_F12, VT_MOD_ALT, o);
	CHECK_STR(u, o, "\033[24;3~");
	key(vt, VT_KEY_PAGEUP, 0, o);
	CHECK_STR(u, o, "\033[5~");
	key(vt, VT_KEY_DEL, VT_MOD_CTRL, o);
	CHECK_STR(u, o, "\033[3;5~");
	key(vt, 'c', VT_MOD_CTRL, o);
	CHECK_STR(u, o, "\003");
	key(vt, 'x', VT_MOD_ALT, o);
	CHECK_STR(u, o, "\033x");
	key(vt, 'i', VT_MOD_CTRL | VT_MOD_ALT, o);
	CHECK_STR(u, o, "\033\t");
	key(vt, 0xe9, 0, o);
	CHECK_STR(u, o, "\xc3\xa9");
	key(vt, VT_KEY_ENTER, 0, o);
	CHECK_STR(u, o, "\r");
	key(vt, VT_KEY_BACKSPACE, 0, o);
	CHECK_STR(u, o, "\177");
	key(vt, VT_KEY_TAB, VT_MOD_SHIFT, o);
	CHECK_STR(u, o, "\033[Z");
	CHECK_INT(u, vt_key(vt, VT_KEY_F1 + 4, 0, o, 2), 0); /* never half a key */
	vt_free(vt);
}

static void test_paste_and_mouse(struct unit *u)
{
	struct vt *vt = vt_new(3, 20, 0);
	char o[64];
	size_t n = vt_paste(vt, "a\nb", 3, o, sizeof o);
	CHECK_INT(u, n, 3);
	CHECK(u, memcmp(o, "a\rb", 3) == 0);
	put(vt, "\033[?2004h");
	n = vt_paste(vt, "x\033[201~y", 8, o, sizeof o);
	o[n] = '\0';
	CHECK_STR(u, o, "\033[200~x[201~y\033[201~");
	CHECK_INT(u, vt_mouse(vt, 0, 0, 1, true, 0, o, sizeof o), 0); /* not asked for */
	put(vt, "\033[?1000h");
	n = vt_mouse(vt, 2, 4, 1, true, 0, o, sizeof o);
	o[n] = '\0';
	CHECK_STR(u, o, "\033[M %#");
	n = vt_mouse(vt, 2, 4, 1, false, 0, o, sizeof o);
	o[n] = '\0';
	CHECK_STR(u, o, "\033[M#%#");
	CHECK_INT(u, vt_mouse(vt, 2, 4, 1 | VT_MOUSE_MOTION, true, 0, o, sizeof o), 0);
	put(vt, "\033[?1002h\033[?1006h");
	n = vt_mouse(vt, 2, 4, 3, true, VT_MOD_CTRL, o, sizeof o);
	o[n] = '\0';
	CHECK_STR(u, o, "\033[<18;5;3M");
	n = vt_mouse(vt, 2, 4, 3, false, 0, o, sizeof o);
	o[n] = '\0';
	CHECK_STR(u, o, "\033[<2;5;3m");
	n = vt_mouse(vt, 0, 0, 1 | VT_MOUSE_MOTION, true, 0, o, sizeof o);
	o[n] = '\0';
	CHECK_STR(u, o, "\033[<32;1;1M");
	n = vt_mouse(vt, 0, 0, 4, true, 0, o, sizeof o);
	o[n] = '\0';
	CHECK_STR(u, o, "\033[<64;1;1M");
	vt_free(vt);
}

/* Garbage must neither crash nor hang; bounded, deterministic. */
static void test_random_bytes(struct unit *u)
{
	unsigned seed = 12345;
	struct vt *vt = vt_new(24, 80, 200);
	char buf[512], out[256];
	for (int iter = 0; iter < 3000; iter++) {
		size_t len = 1 + (seed = seed * 1103515245 + 12345) % sizeof buf;
		for (size_t i = 0; i < len; i++) {
			seed = seed * 1103515245 + 12345;
			unsigned r = seed >> 16;
			/* Bias towards escape-sequence bytes so the parser goes deep. */
			static const char pick[] = "\033[];?0123456789;mHJKLMP@hlrSTXcb\007\\\r\n\x9b\xe4\xb8\xad\xcc";
			buf[i] = r % 3 ? pick[r % (sizeof pick - 1)] : (char)r;
			if (r % 11 == 0 && i + 3 < len) { /* a whole wide character */
				memcpy(buf + i, "\xe4\xb8\xad", 3);
				i += 2;
			}
		}
		vt_write(vt, buf, len);
		vt_take_reply(vt, out, sizeof out);
		if (iter % 500 == 0)
			vt_resize(vt, 5 + iter % 40, 10 + iter % 150);
	}
	/* Every wide character is whole: a head (2) followed by its tail (0). */
	int broken = 0;
	for (int r = 0; r < vt_rows(vt); r++)
		for (int c = 0; c < vt_cols(vt); c++) {
			int w = vt_cell(vt, r, c)->width;
			if (w == 0 && (c == 0 || vt_cell(vt, r, c - 1)->width != 2))
				broken++;
			if (w == 2 && (c + 1 == vt_cols(vt) || vt_cell(vt, r, c + 1)->width != 0))
				broken++;
		}
	CHECK_INT(u, broken, 0);
	for (int r = -vt_history(vt); r < 0; r++)
		for (int c = 0; c < vt_cols(vt); c++)
			(void)vt_cell(vt, r, c);
	CHECK(u, vt_rows(vt) > 0);
	vt_free(vt);
}

/* Runs of printable ASCII long enough to go straight into the grid give
 * the cells libvterm would: around wraps, modes, character sets and
 * what libvterm's decoder and last glyph carry over. */
static void test_ascii_runs(struct unit *u)
{
	struct vt *vt = vt_new(4, 12, 10);
	put(vt, "\033[1;4H\033[31mabcdefghijklmnopqrstu\033[m"); /* wraps after l */
	CHECK_STR(u, row_text(vt, 0), "   abcdefghi");
	CHECK_STR(u, row_text(vt, 1), "jklmnopqrstu");
	CHECK(u, vt_row_wrapped(vt, 0));
	CHECK_INT(u, vt_cell(vt, 0, 5)->attr.fg, VT_COLOR_INDEX | 1);
	int r, c;
	vt_cursor(vt, &r, &c);
	CHECK(u, r == 1 && c == 11);
	/* a combining mark after a run at the last column joins its glyph */
	put(vt, "\033[3;1Habcdefghijkl\xcc\x81");
	CHECK_INT(u, vt_cell(vt, 2, 11)->ch[0], 'l');
	CHECK_INT(u, vt_cell(vt, 2, 11)->ch[1], 0x301);
	/* an unfinished UTF-8 sequence, then a line of text: U+FFFD first */
	put(vt, "\033[4;1Hx\xc3\r");
	put(vt, "abcdefghijk");
	CHECK_INT(u, vt_cell(vt, 3, 0)->ch[0], 0xfffd);
	CHECK_INT(u, vt_cell(vt, 3, 1)->ch[0], 'a');
	/* DEL and NUL inside text are dropped */
	static const char del[] = "\033[4;1Habcdef\177ghijkl\0mnopqrstuv";
	vt_write(vt, del, sizeof del - 1);
	CHECK_STR(u, row_text(vt, 2), "abcdefghijkl"); /* scrolled up by the wrap */
	CHECK_STR(u, row_text(vt, 3), "mnopqrstuv");
	/* insert mode shifts what was there */
	put(vt, "\033[2J\033[1;1H0123\033[1;1H\033[4habcdefgh\033[4l");
	CHECK_STR(u, row_text(vt, 0), "abcdefgh0123");
	/* only the first argument of SM counts in libvterm */
	put(vt, "\033[2;1H0123\033[2;1H\033[20;4habcdefgh\033[4;20l");
	CHECK_STR(u, row_text(vt, 1), "abcdefgh");
	/* DEC line drawing, and a single shift into it for one glyph */
	put(vt, "\033[3;1H\033(0lqqqqqqqqqk\033(B");
	CHECK_INT(u, vt_cell(vt, 2, 1)->ch[0], 0x2500);
	put(vt, "\033[4;1H\033*0\033Nqqqqqqqqqqq\033*B");
	CHECK_INT(u, vt_cell(vt, 3, 0)->ch[0], 0x2500);
	CHECK_INT(u, vt_cell(vt, 3, 1)->ch[0], 'q');
	/* a double-width line wraps at half the width */
	put(vt, "\033[2J\033[1;1H\033#6abcdefghij");
	CHECK_STR(u, row_text(vt, 0), "abcdef");
	CHECK_STR(u, row_text(vt, 1), "ghij");
	vt_free(vt);
	/* a run starting on the second half of a wide character blanks the
	 * first; one ending on the first half blanks the second */
	vt = vt_new(2, 20, 0);
	put(vt, "\xe4\xb8\xad\xe4\xb8\xad\033[1;2Habcdefghijk");
	CHECK_INT(u, vt_cell(vt, 0, 0)->ch[0], 0);
	CHECK_STR(u, row_text(vt, 0), " abcdefghijk");
	put(vt, "\033[2;12H\xe4\xb8\xad\033[2;1Habcdefghijkl");
	CHECK_STR(u, row_text(vt, 1), "abcdefghijkl");
	CHECK_INT(u, vt_cell(vt, 1, 12)->width, 1);
	/* no autowrap: the last column is written over */
	put(vt, "\033[?7l\033[2;1Habcdefghijklmnopqrstuvwxyz\033[?7h");
	CHECK_STR(u, row_text(vt, 1), "abcdefghijklmnopqrsz");
	vt_free(vt);
}

int main(void)
{
	struct unit u = { 0 };
	test_text_and_cursor(&u);
	test_save_restore(&u);
	test_rep(&u);
	test_many_args(&u);
	test_decaln(&u);
	test_deccolm(&u);
	test_resize_region(&u);
	test_erase(&u);
	test_insert_delete(&u);
	test_scroll_region(&u);
	test_scrollback(&u);
	test_wide_and_combining(&u);
	test_ascii_runs(&u);
	test_sgr(&u);
	test_altscreen(&u);
	test_resize(&u);
	test_wrap_flag(&u);
	test_osc(&u);
	test_osc_hooks(&u);
	test_modes_and_replies(&u);
	test_reports(&u);
	test_cursor_edits(&u);
	test_dirty(&u);
	test_keys(&u);
	test_paste_and_mouse(&u);
	test_random_bytes(&u);
	return unit_done(&u, "test_vt");
}
