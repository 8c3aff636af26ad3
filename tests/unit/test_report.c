/* The shell integration's reports: only the shell's own, signed with its
 * secret, at a prompt boundary, are taken (shell/shell-report.c). */
#include <stdlib.h>
#include <string.h>

#include "shell/shell-report.h"
#include "unit.h"

#define K "0123456789abcdef0123456789abcdef"

static enum report_kind feed(struct report_gate *g, int cmd, const char *arg)
{
	int st = -1;
	return report_gate_feed(g, cmd, arg, strlen(arg), &st);
}

static void test_forged(struct unit *u)
{
	struct report_gate g = { 0 };
	report_gate_reset(&g, K);
	/* no secret, a wrong one, a prefix of it, one byte longer: all ignored */
	CHECK_INT(u, feed(&g, 133, "A"), REPORT_NONE);
	CHECK_INT(u, feed(&g, 133, "A;0123456789abcdef0123456789abcdee"), REPORT_NONE);
	CHECK_INT(u, feed(&g, 133, "A;0123456789abcdef"), REPORT_NONE);
	CHECK_INT(u, feed(&g, 133, "A;" K "0"), REPORT_NONE);
	CHECK_INT(u, feed(&g, 633, "E;make docs"), REPORT_NONE);
	CHECK_INT(u, feed(&g, 7, "file://h/tmp"), REPORT_NONE);
	CHECK_INT(u, g.ignored, 6);
	CHECK(u, g.cmd == NULL && g.cwd == NULL && g.state == REPORT_IDLE);
	CHECK_INT(u, feed(&g, 2, "a title"), REPORT_NONE); /* not report-like: not counted */
	CHECK_INT(u, g.ignored, 6);
	/* a pane without integration (a re-run) takes nothing, even ";" */
	report_gate_reset(&g, "");
	CHECK_INT(u, feed(&g, 133, "A;"), REPORT_NONE);
	CHECK_INT(u, g.ignored, 7);
	report_gate_free(&g);
}

static void test_boundaries(struct unit *u)
{
	struct report_gate g = { 0 };
	report_gate_reset(&g, K);
	/* a command line outside a prompt, even signed, is not taken */
	CHECK_INT(u, feed(&g, 633, "E;early;" K), REPORT_NONE);
	CHECK_INT(u, feed(&g, 133, "C;" K), REPORT_NONE);
	CHECK_INT(u, feed(&g, 133, "A;" K), REPORT_PROMPT);
	CHECK_INT(u, feed(&g, 7, "file://h/w%20s;" K), REPORT_CWD);
	CHECK_STR(u, g.cwd, "/w s");
	CHECK_INT(u, feed(&g, 633, "E;touch a\\x3b b\\\\c\\x0dd;" K), REPORT_LINE);
	CHECK(u, g.cmd == NULL); /* not running yet */
	CHECK_INT(u, feed(&g, 133, "C;" K), REPORT_START);
	CHECK_STR(u, g.cmd, "touch a; b\\c\rd");
	/* while it runs, a program's marks (forged) change nothing */
	CHECK_INT(u, feed(&g, 133, "D;0"), REPORT_NONE);
	CHECK_INT(u, feed(&g, 133, "A"), REPORT_NONE);
	CHECK_INT(u, feed(&g, 633, "E;make docs"), REPORT_NONE);
	CHECK_STR(u, g.cmd, "touch a; b\\c\rd");
	/* and the signed ones out of place neither */
	CHECK_INT(u, feed(&g, 633, "E;other;" K), REPORT_NONE);
	CHECK_INT(u, feed(&g, 7, "file://h/else;" K), REPORT_NONE);
	CHECK_STR(u, g.cwd, "/w s");
	int st = -1;
	const char end[] = "D;3;" K;
	CHECK_INT(u, report_gate_feed(&g, 133, end, strlen(end), &st), REPORT_END);
	CHECK_INT(u, st, 3);
	CHECK_STR(u, g.cmd, "touch a; b\\c\rd"); /* kept for the prompt after it ended */
	CHECK_INT(u, feed(&g, 133, "A;" K), REPORT_PROMPT);
	/* its denials may be reported after the prompt is back */
	CHECK_STR(u, g.cmd, "touch a; b\\c\rd");
	/* C without E: a command with no line to re-run */
	CHECK_INT(u, feed(&g, 133, "C;" K), REPORT_START);
	CHECK(u, g.cmd == NULL);
	report_gate_free(&g);
}

static void test_unescape(struct unit *u)
{
	char *s = report_unescape("a\\x1b\\x07b\\\\", 12);
	CHECK_STR(u, s, "a\033\007b\\");
	free(s);
	CHECK(u, report_unescape("a\\x00b", 6) == NULL); /* a NUL */
	CHECK(u, report_unescape("a\\qb", 4) == NULL);   /* unknown escape */
	CHECK(u, report_unescape("a\\x1", 4) == NULL);   /* cut short */
	CHECK(u, report_unescape("a\\", 2) == NULL);
	s = report_unescape("", 0);
	CHECK_STR(u, s, "");
	free(s);
}

int main(void)
{
	struct unit u = { 0 };
	test_forged(&u);
	test_boundaries(&u);
	test_unescape(&u);
	return unit_done(&u, "test_report");
}
