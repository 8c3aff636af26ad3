/* What DECSC, DECSET 1048 and DECSET 1049 save and restore: the
 * position, the pen with DECSCA's protection, one record per screen. */
#include <string.h>

#include "pty/vt.h"
#include "unit.h"
#include "vt-unit.h"

static void test_protection(struct unit *u)
{
	struct vt *vt = vt_new(4, 10, 0);
	put(vt, "\033[1\"q\0337\033[0\"q\0338a\033[0\"qb\033[1;1;1;10${");
	CHECK_INT(u, vt_cell(vt, 0, 0)->ch[0], 'a'); /* protected again by DECRC */
	CHECK_INT(u, vt_cell(vt, 0, 1)->ch[0], 0);
	vt_free(vt);
}

static void test_per_screen(struct unit *u)
{
	struct vt *vt = vt_new(10, 20, 0);
	put(vt, "\033[3;2H\0337\033[?47h\033[7;6H\0337\033[?47l\0338");
	cursor_is(u, vt, 2, 1);
	put(vt, "\033[?47h\0338");
	cursor_is(u, vt, 6, 5);
	put(vt, "\033[?47l\033[H\033[?1048l"); /* 1048 restores from the same record */
	cursor_is(u, vt, 2, 1);
	put(vt, "\033[9;9H\033[?1048h\033[H\0338");
	cursor_is(u, vt, 8, 8);
	vt_free(vt);

	/* nothing saved: home */
	vt = vt_new(10, 20, 0);
	put(vt, "\033[5;5H\0338");
	cursor_is(u, vt, 0, 0);
	vt_free(vt);
}

/* With left and right margins on, CSI s sets them (DECSLRM), as in
 * xterm, instead of saving the cursor; CSI u still restores. */
static void test_csi_s(struct unit *u)
{
	struct vt *vt = vt_new(10, 20, 0);
	put(vt, "\033[3;2H\033[s\033[?69h\033[1;10s\033[6;5H\033[s");
	cursor_is(u, vt, 0, 0); /* DECSLRM homes the cursor */
	put(vt, "\033[5;4H\033[u");
	cursor_is(u, vt, 2, 1);
	put(vt, "\033[1;15Hx"); /* the margins are the whole row again */
	CHECK_INT(u, vt_cell(vt, 0, 14)->ch[0], 'x');
	vt_free(vt);
}

/* XTSAVE and XTRESTORE of DEC modes: DECAWM, origin mode, the cursor's
 * visibility, reverse wraparound; never the screens. */
static void test_xtsave(struct unit *u)
{
	struct vt *vt = vt_new(10, 20, 0);
	put(vt, "\033[?7h\033[?7s\033[?7l\033[?7r\033[1;19Hxxx");
	cursor_is(u, vt, 1, 1); /* autowrap is back on */
	put(vt, "\033[?7l\033[?7;25;45s\033[?7;45h\033[?25l\033[?7;25;45r\033[1;19Hxxx");
	cursor_is(u, vt, 0, 19); /* and off again */
	CHECK(u, vt_modes(vt)->cursor_visible);
	put(vt, "\033[?7h\033[3;1H\b");
	cursor_is(u, vt, 2, 0); /* reverse wraparound restored off */
	put(vt, "\033[2;5r\033[?6h\033[?6s\033[?6l\033[?6r\033[?6$p");
	char out[32];
	size_t n = vt_take_reply(vt, out, sizeof out - 1);
	out[n] = '\0';
	CHECK_STR(u, out, "\033[?6;1$y");             /* origin mode is on again */
	put(vt, "\033[?1049s\033[?1049h\033[?1049r"); /* the screens are not saved */
	CHECK(u, vt_modes(vt)->altscreen);
	vt_free(vt);
}

static void test_1049(struct unit *u)
{
	struct vt *vt = vt_new(10, 20, 0);
	put(vt, "abc\r\nabc\033[1m\0337\033[0m\033[?1049h");
	CHECK(u, vt_modes(vt)->altscreen);
	CHECK_INT(u, vt_cell(vt, 0, 0)->ch[0], 0); /* a clear alternate screen */
	put(vt, "\033[5;5Hdef\0337\033[?1049l");
	CHECK(u, !vt_modes(vt)->altscreen);
	cursor_is(u, vt, 1, 3); /* where 1049 saved it, not DECSC on the other screen */
	CHECK_INT(u, vt_cell(vt, 0, 0)->ch[0], 'a');
	put(vt, "x");
	CHECK_INT(u, vt_cell(vt, 1, 3)->attr.flags & VT_BOLD, 0);
	put(vt, "\0338y"); /* DECSC's record on the main screen was replaced by 1049 */
	CHECK_INT(u, vt_cell(vt, 1, 3)->ch[0], 'y');
	vt_free(vt);
}

int main(void)
{
	struct unit u = { 0 };
	test_protection(&u);
	test_per_screen(&u);
	test_1049(&u);
	test_csi_s(&u);
	test_xtsave(&u);
	return unit_done(&u, "test_vt_save");
}
