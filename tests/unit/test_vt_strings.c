/* SOS, PM and APC strings are dropped to their ST, never printed; DECID
 * is answered as DA1; DECRQM needs VT300 level. */
#include <string.h>

#include "pty/vt.h"
#include "unit.h"
#include "vt-unit.h"

static const char *row0(struct vt *vt)
{
	static char s[16];
	for (int c = 0; c < 8; c++) {
		uint32_t ch = vt_cell(vt, 0, c)->ch[0];
		s[c] = ch ? (char)ch : '.';
	}
	s[8] = '\0';
	return s;
}

static void test_dropped(struct unit *u)
{
	struct vt *vt = vt_new(4, 8, 0);
	put(vt, "\033_xyz\033\\A\033^p\am\033\\B\033Xs");
	put(vt, "os\033\\C"); /* split across writes */
	CHECK_STR(u, row0(vt), "ABC.....");
	put(vt, "\033_ab\030D\033_cd\033[1mE"); /* CAN ends one, another escape too */
	CHECK_STR(u, row0(vt), "ABCDE...");
	CHECK_INT(u, vt_cell(vt, 0, 4)->attr.flags & VT_BOLD, VT_BOLD);
	vt_free(vt);
}

static void test_decid(struct unit *u)
{
	struct vt *vt = vt_new(4, 8, 0);
	char out[64];
	put(vt, "a\033Zb");
	size_t n = vt_take_reply(vt, out, sizeof out - 1);
	out[n] = '\0';
	CHECK_STR(u, out, "\033[?64;1;2;6;9;15;16;17;18;21;22;28;29c");
	CHECK_STR(u, row0(vt), "ab......");
	vt_free(vt);
}

/* Below VT300 level (DECSCL 62) DECRQM goes unanswered, as in xterm. */
static void test_decrqm_level(struct unit *u)
{
	struct vt *vt = vt_new(4, 8, 0);
	char out[64];
	put(vt, "\033[62;1\"p\033[4$p\033[?7$p\033[6n");
	size_t n = vt_take_reply(vt, out, sizeof out - 1);
	out[n] = '\0';
	CHECK_STR(u, out, "\033[1;1R");
	put(vt, "\033[64;1\"p\033[4$p\033[?7$p");
	n = vt_take_reply(vt, out, sizeof out - 1);
	out[n] = '\0';
	CHECK_STR(u, out, "\033[4;2$y\033[?7;1$y");
	vt_free(vt);
}

int main(void)
{
	struct unit u = { 0 };
	test_dropped(&u);
	test_decid(&u);
	test_decrqm_level(&u);
	return unit_done(&u, "test_vt_strings");
}
