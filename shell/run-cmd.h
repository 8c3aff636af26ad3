/* run-cmd: the pieces of `sandmux run` (cmd-run.c drives them):
 *
 *   run-args.c    the command line, and the session temp dir it makes
 *   run-report.c  the denials it saw, and what it says about them at the
 *                 end: a JSON report (--report FILE, "-" for stderr) or
 *                 one hint line per coalesced denial on stderr, so that a
 *                 person or an agent reading the output knows the failure
 *                 came from the sandbox and what to ask for
 *   run-tty.c     the person's terminal (run-tty.h) */
#ifndef RUN_CMD_H
#define RUN_CMD_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "backends/audit.h"
#include "backends/events.h"
#include "backends/limits.h"
#include "backends/observer.h"
#include "policy/policy.h"

struct run_args {
	struct policy_opts popts;
	const char *report; /* --report FILE: the denial report */
	bool no_observer;   /* --no-observer: Landlock alone (benchmarks) */
	char **argv;
	char workspace[PATH_MAX];
};

/* run-args.c: 0, or -1 after one line on stderr (then run_usage()). */
int run_args_parse(int argc, char **argv, struct run_args *);
int run_usage(void);
/* ~/.sandmux/state/tmp/run-XXXXXX: the sandbox's /tmp, removed at the
 * end, so a run leaves nothing in the host's /tmp. Made unless !make
 * (then only a name nothing has now). 0, or -1 said. */
int run_tmpdir_make(const char *home, bool make, char *dir, size_t cap);
void run_tmpdir_remove(char *dir);
/* sandmux.json's "limits", lowered by the profile's, into p->limits;
 * true when its "denials" chooses Landlock's audit records. */
bool run_config_load(struct policy *p, const char *home);

/* run-report.c */
struct run_report {
	struct events ev; /* the coalesced denials, logged to denials.jsonl */
	const struct policy *policy;
	bool weak;                    /* the weaker sandbox (no user namespaces) ran the command */
	bool have_limits;             /* limits were in force: */
	struct sandbox_limits limits; /* how, for the report */
	bool have_stats;              /* the observer ran: */
	struct observer_stats stats;  /* its counters */
	const char *channel;          /* what reported the writes: "audit", "observer", "none" */
	char audit_why[160];          /* why not the audit records, when not */
	bool have_audit;              /* the audit records were read: */
	struct audit_stats audit;     /* their counters */
	const char *capture_dir;      /* capture mode: the layer (kept when it holds anything) */
};
/* Logs to $HOME/.sandmux/state/denials.jsonl (no log without a home). */
int run_report_init(struct run_report *, const struct policy *, const char *home);
/* Opens the --report file ("-": stderr) before the command starts, so a
 * link the sandboxed command plants at that path is never written
 * through. NULL: said on stderr. */
FILE *run_report_open(const char *path);
/* report NULL: hint lines; otherwise the report into it (closed, unless
 * stderr). Returns -1 when the report cannot be written (said on stderr). */
int run_report_finish(struct run_report *, char *const *argv, int status, FILE *report);
void run_report_free(struct run_report *);

#endif
