/* Prompt text shown exactly (ui/exact.c) and wrapped, never cut
 * (ui/prompt.c). */
#include <stdlib.h>
#include <string.h>

#include "ui/denials.h"
#include "unit.h"

static void check_exact(struct unit *u, const char *in, const char *want)
{
	char *got = ui_exact_text(in);
	CHECK_STR(u, got, want);
	free(got);
}

static void test_exact(struct unit *u)
{
	check_exact(u, "make docs", "make docs");
	check_exact(u, "rm -rf ~\rmake docs", "rm -rf ~\\rmake docs");
	check_exact(u, "a\tb\nc\033[2Jd\x7f", "a\\tb\\nc\\x1b[2Jd\\x7f");
	check_exact(u, "a\\rb", "a\\\\rb"); /* a typed backslash is not an escape */
	/* bidi overrides and isolates, zero-width, BOM, word joiner */
	check_exact(u,
		    "ls \xe2\x80\xae"
		    "fdp.exe",
		    "ls \\u202efdp.exe");
	check_exact(u, "\xe2\x81\xa6x\xe2\x81\xa9", "\\u2066x\\u2069");
	check_exact(u,
		    "a\xe2\x80\x8b"
		    "b\xef\xbb\xbf"
		    "c\xe2\x81\xa0",
		    "a\\u200bb\\ufeffc\\u2060");
	/* a no-break space looks like a space but makes one word */
	check_exact(u, "rm\xc2\xa0-rf", "rm\\u00a0-rf");
	/* C1 controls, combining marks, tags */
	check_exact(u,
		    "a\xc2\x9b"
		    "b",
		    "a\\u009bb");
	check_exact(u, "e\xcc\x81", "e\\u0301");
	check_exact(u, "x\xf3\xa0\x80\x81", "x\\U000e0001");
	/* bytes that are not UTF-8, an overlong '/', a surrogate */
	check_exact(u,
		    "a\xff"
		    "b",
		    "a\\xffb");
	check_exact(u, "\xc0\xaf", "\\xc0\\xaf");
	check_exact(u, "\xed\xa0\x80", "\\xed\\xa0\\x80");
	/* visible text other than ASCII stays */
	check_exact(u, "caf\xc3\xa9 \xe6\x97\xa5", "caf\xc3\xa9 \xe6\x97\xa5");
}

static void test_rows(struct unit *u)
{
	CHECK_INT(u, ui_prompt_rows("", 10), 1);
	CHECK_INT(u, ui_prompt_rows("0123456789", 10), 1);
	CHECK_INT(u, ui_prompt_rows("0123456789a", 10), 2);
	char *big = malloc(5001);
	memset(big, 'x', 5000);
	big[5000] = 0;
	CHECK_INT(u, ui_prompt_rows(big, 100), 50); /* as many rows as it takes */
	free(big);
	/* other than ASCII counts two cells: a row never overflows the box */
	CHECK_INT(u, ui_prompt_rows("\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5", 4), 2);
}

int main(void)
{
	struct unit u = { 0 };
	test_exact(&u);
	test_rows(&u);
	return unit_done(&u, "test_exact");
}
