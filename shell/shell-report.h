/* shell-report: the shell integration's reports, taken only from the
 * shell itself. Each OSC 133 / 633 / 7 the integration sends ends in
 * ";SECRET", the per-shell secret it read from its fd at startup
 * (shell/integration.c); anything else that looks like a report (a
 * program in the pane printing marks) is ignored and counted. A command
 * line is taken only at a prompt boundary: between the shell's prompt
 * (133;A) and its command start (133;C). Pure: no server, no processes
 * (tests/unit/test_report.c, tests/fuzz/fuzz_report.c).
 *
 *   133;A;K            the prompt is shown
 *   7;file://H/PATH;K  the cwd at that prompt (percent-escaped)
 *   633;E;LINE;K       the command line about to run (\\ and \xHH escapes)
 *   133;C;K            it starts
 *   133;D;STATUS;K     it ended */
#ifndef SHELL_REPORT_H
#define SHELL_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "shell/integration.h"

enum report_kind {
	REPORT_NONE,   /* not a shell report, or ignored */
	REPORT_PROMPT, /* 133;A */
	REPORT_CWD,    /* 7 */
	REPORT_LINE,   /* 633;E */
	REPORT_START,  /* 133;C */
	REPORT_END,    /* 133;D */
};

enum report_state { REPORT_IDLE, REPORT_AT_PROMPT, REPORT_RUNNING };

struct report_gate {
	char secret[INTEGRATION_SECRET_LEN + 1]; /* "": no integration, nothing is taken */
	enum report_state state;
	char *line;            /* 633;E at the current prompt, until its 133;C */
	char *cmd;             /* the command line running, or that ran last (NULL: none reported) */
	char *cwd;             /* the cwd of the last prompt, or NULL */
	unsigned long ignored; /* report-like OSC strings not taken */
};

/* A new shell with this secret ("" for none): the state starts over,
 * the count goes on. */
void report_gate_reset(struct report_gate *, const char *secret);
void report_gate_free(struct report_gate *);
/* One OSC string from the pane. Returns what was taken (REPORT_NONE:
 * nothing, and ignored counts up when it was report-like); *status is
 * set for REPORT_END. */
enum report_kind report_gate_feed(struct report_gate *, int command, const char *arg, size_t len, int *status);

/* 633;E's escapes undone ("\\" and "\xHH"); NULL when malformed or when
 * it holds a NUL byte. malloc'ed. */
char *report_unescape(const char *arg, size_t len);
/* Parses OSC 7's "file://host/path" (percent-escapes decoded); NULL when
 * it is not one. malloc'ed. */
char *report_osc7_path(const char *arg, size_t len);

#endif
