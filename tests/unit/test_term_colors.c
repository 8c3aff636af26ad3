/* The attached terminal's colour answers taken out of typed input
 * (shell/term-colors.c): whole, cut across reads, mixed with keys, and
 * a terminal that answers only DA1. */
#include "shell/term-colors.h"

#include "tests/unit/unit.h"

static char typed[512];

static const char *feed(struct term_colors *t, const char *in)
{
	size_t n = term_colors_filter(t, in, strlen(in), typed);
	typed[n] = '\0';
	return typed;
}

static void test_rgb(struct unit *u)
{
	uint32_t v = 0;
	CHECK(u, term_colors_parse_rgb("rgb:ffff/8080/0000", 18, &v) && v == 0xff8000);
	CHECK(u, term_colors_parse_rgb("rgb:f/8/0", 9, &v) && v == 0xff8800);
	CHECK(u, term_colors_parse_rgb("rgb:12/34/56", 12, &v) && v == 0x123456);
	CHECK(u, !term_colors_parse_rgb("rgb:12/34", 9, &v));
	CHECK(u, !term_colors_parse_rgb("rgb:12345/0/0", 13, &v));
	CHECK(u, !term_colors_parse_rgb("#123456", 7, &v));
}

static void test_answers(struct unit *u)
{
	struct term_colors t;
	const char *q = term_colors_query(&t);
	CHECK(u, strstr(q, "\033]11;?") != NULL && t.waiting);
	CHECK_STR(u, feed(&t, "a\033]10;rgb:1010/2020/3030\033\\b\033]11;rgb:fefe/fdfd/fcfc\007"), "ab");
	CHECK_INT(u, t.known, 3);
	CHECK_INT(u, t.rgb[TERM_FG], 0x102030);
	CHECK_INT(u, t.rgb[TERM_BG], 0xfefdfc);
	/* cut across reads: nothing of it leaks out as typed */
	CHECK_STR(u, feed(&t, "\033]12;rgb:00"), "");
	CHECK_STR(u, feed(&t, "00/ffff/0000\033"), "");
	CHECK_STR(u, feed(&t, "\\\033[?6"), "");
	CHECK_INT(u, t.rgb[TERM_CURSOR], 0x00ff00);
	CHECK(u, t.waiting);
	CHECK_STR(u, feed(&t, "2;22cx\033]11;rgb:0/0/0\007"), "x\033]11;rgb:0/0/0\007"); /* DA1 ends the wait */
	CHECK(u, !t.waiting);
	CHECK_INT(u, t.rgb[TERM_BG], 0xfefdfc);
}

static void test_quiet(struct unit *u)
{
	struct term_colors t;
	term_colors_query(&t);
	/* keys typed meanwhile stay keys, an arrow key among them */
	CHECK_STR(u, feed(&t, "\033[Aq\033[?1;2c"), "\033[Aq");
	CHECK_INT(u, t.known, 0);
	CHECK(u, !t.waiting);
	/* a terminal answering nothing: what was held is given back */
	term_colors_query(&t);
	CHECK_STR(u, feed(&t, "\033"), "");
	char out[TERM_HELD_MAX];
	CHECK_INT(u, term_colors_stop(&t, out), 1);
	CHECK(u, out[0] == '\033' && !t.waiting);
	CHECK_STR(u, feed(&t, "\033]11;rgb:1/2/3\007"), "\033]11;rgb:1/2/3\007");
}

int main(void)
{
	struct unit u = { 0 };
	test_rgb(&u);
	test_answers(&u);
	test_quiet(&u);
	return unit_done(&u, "test_term_colors");
}
