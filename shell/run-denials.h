/* run-denials: the observer and the denial events of `sandmux run`, and
 * what it says about them at the end: a JSON report (--report FILE, "-"
 * for stderr) or one hint line per coalesced denial on stderr, so that a
 * person or an agent reading the output knows the failure came from the
 * sandbox and what to ask for. */
#ifndef RUN_DENIALS_H
#define RUN_DENIALS_H

#include <stdbool.h>
#include <stdio.h>

#include "backends/events.h"

struct audit_watch;
struct launch;
struct loop;
struct observer;
struct policy;
struct sandbox_limits;

struct run_denials {
	struct events ev;
	struct observer *obs;
	const struct policy *policy;
	bool weak;                           /* the weaker sandbox (no user namespaces) ran the command */
	const struct sandbox_limits *limits; /* in force, for the report; NULL: none */
	const char *capture_dir;             /* capture mode: the layer (kept when it holds anything) */
	struct audit_watch *audit;           /* Landlock's audit records report the writes (backends/audit.h) */
	char audit_why[160];                 /* why not, when not */
};

/* Logs to $HOME/.sandmux/state/denials.jsonl (no log without a home). */
int run_denials_init(struct run_denials *, const struct policy *, const char *home);
/* Hands the launcher's listener fd to an observer on the loop; owns it. */
int run_denials_watch(struct run_denials *, struct loop *, int notify_fd, int weak_port);
/* Before the launch: l->audit_fd, the audit socket when Landlock's
 * records can report this sandbox's writes (backends/audit.h). */
void run_denials_audit_open(struct run_denials *, struct launch *l);
/* After it: reads the records of the sandbox l started (not of a weaker
 * sandbox: its observer keeps every call); takes l->audit_fd. */
void run_denials_audit(struct run_denials *, struct loop *, struct launch *l);
/* Opens the --report file ("-": stderr) before the command starts, so a
 * link the sandboxed command plants at that path is never written
 * through. NULL: said on stderr. */
FILE *run_denials_report_open(const char *path);
/* report NULL: hint lines; otherwise the report into it (closed, unless
 * stderr). Returns -1 when the report cannot be written (said on stderr). */
int run_denials_finish(struct run_denials *, char *const *argv, int status, FILE *report);
void run_denials_free(struct run_denials *);

#endif
