/* escalate-queue: one pane's escalation state — its pending prompts,
 * oldest first, and its grants (once, for the pane's life, denied) — and
 * what a restart runs. Pure: no server, no processes
 * (tests/unit/test_escalate.c). The hooks are shell/escalate.h. */
#ifndef ESCALATE_QUEUE_H
#define ESCALATE_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/events.h"
#include "policy/suggest.h"
#include "shell/shell-report.h"

struct esc_spawn;
struct request;

enum esc_scope {
	ESC_ONCE,        /* re-run with it, then drop it */
	ESC_SESSION,     /* keep it for the pane's life */
	ESC_ALWAYS_USER, /* ~/.sandmux/sandbox.json, and the pane's life */
	ESC_ALWAYS_REPO, /* <workspace>/.sandmux/sandbox.json, and the pane's life */
	ESC_DENY,        /* no, and do not ask again in this pane */
	ESC_DISMISS,     /* no, for now: the next denial may ask again */
};

/* "once", "session", "always", "repo", "deny", "dismiss": the control
 * interface's names; esc_scope_parse() is -1 for another word. */
const char *esc_scope_key(enum esc_scope);
int esc_scope_parse(const char *key);

struct esc_prompt {
	struct denial d;         /* an owned copy; d.suggest is what is offered */
	int exit_status;         /* -1; or the non-zero status it was offered again after */
	unsigned seq;            /* its id in the pane, from 1: "PANE.SEQ" on the control interface */
	char *cmd, *cwd;         /* shell pane: the command line running then, and where; or NULL */
	struct suggestion exact; /* what was offered first; d.suggest may be widened from it */
	char *proc;              /* the denied process's command line (an agent's tool call), or NULL */
	int level;               /* how many directories up the person widened it (0: exact) */
	struct request *req;     /* a `sandmux request` (shell/request.h), owned; NULL: a denial */
	bool by_request;         /* a denial of a request's command: an answer re-runs nothing */
	/* request_cancel, given with req: the queue is below request.c */
	void (*cancel)(struct request *, const char *why);
};

struct esc_grants {
	struct suggestion *v;
	size_t n;
};

/* Prompts waiting in one pane at most: a program can make a distinct
 * denial for every directory on the host or every host name it invents,
 * and each prompt holds a denial and a command line in the server. */
#define ESC_QUEUE_MAX 64

struct esc_pane {
	struct esc_prompt *q; /* pending, oldest first; q[0] is the one shown */
	size_t nq;
	struct esc_grants session; /* applied at every start of the pane */
	struct esc_grants denied;  /* never offered again in this pane */
	/* Allocated only while set (a suggestion is 4 KiB; most panes never
	 * have one): */
	struct suggestion *once;     /* applied at the next start only, or NULL */
	struct suggestion *req_once; /* a request's command's denial, once: the next request only */
	unsigned denials_run;        /* denials since the command last started */
	unsigned next_seq;           /* the last prompt's seq */
	unsigned not_queued;         /* denials past ESC_QUEUE_MAX prompts: events only */
	/* what a restart runs (escalate-pane.c) */
	char **argv;             /* the pane's own command; NULL: a shell pane */
	char *cwd;               /* where the pane started */
	struct report_gate gate; /* shell pane: the last command line and cwd its shell reported */
	char *rerun_cmd;         /* shell pane: the approved prompt's command line, re-run now */
	char *rerun_cwd;         /*   and where; the shell comes back there after */
	bool rerun;
	struct esc_spawn *spawn; /* between escalate_spawn_begin and _end */
	/* agent presets (policy/agents.h): a restart resumes the conversation */
	char *agent;              /* --agent NAME, or NULL: recognised by the program's name */
	struct esc_agent *agents; /* the enabled presets that can resume, from the pane's policy */
	size_t nagents;
	size_t turned;       /* `n` within this pane: how many times the queue turned */
	size_t dropped;      /* stale prompts dropped (their processes gone, the pane moved on) */
	uint64_t held_timer; /* while a connection is held: the title's countdown (escalate-view.c) */
};

struct esc_agent {
	char *name;
	char **resume; /* the arguments that resume its last conversation */
};

/* Queues a prompt for a denial that has a suggestion not yet granted,
 * denied or pending in this pane; it remembers the shell's last command
 * line and cwd as they are now. 1: queued, 0: not, -1: no memory. */
int esc_offer(struct esc_pane *, const struct denial *, int exit_status);
bool esc_pending(const struct esc_pane *);
/* Makes the prompt seq the head (the one shown and answered); -1 when no
 * such prompt waits. */
int esc_raise(struct esc_pane *, unsigned seq);
const struct esc_prompt *esc_head(const struct esc_pane *);
/* Answers the head prompt; its suggestion goes to *out (key NULL after a
 * deny or dismiss). Prompts the answer also settles (the same suggestion)
 * leave the queue with it. -1 when nothing is pending. */
int esc_answer(struct esc_pane *, enum esc_scope, struct suggestion *out);
/* Drops a once grant (*slot is e->once or e->req_once). */
void esc_once_drop(struct suggestion **slot);

/* Broadens a policy by the session grants and, if set, the once grant,
 * which is then dropped (consume). */
void esc_broaden(struct esc_pane *, struct policy *, bool consume);
/* The same for an approved request's command: the session grants and the
 * once grant of a request's denial (dropped). */
void esc_broaden_request(struct esc_pane *, struct policy *);
bool esc_grants_has(const struct esc_grants *, const struct suggestion *);
void esc_pane_clear(struct esc_pane *);
/* The pane moved on: drops the prompts that gone(prompt, arg) says are
 * past (their process tree has exited; NULL: all of them), and counts
 * them in e->dropped. Returns how many went. */
size_t esc_drop_stale(struct esc_pane *, bool (*gone)(const struct esc_prompt *, void *arg), void *arg);
/* `n`: the next prompt of this pane comes first; false when every one
 * of them has been shown since the last time (the caller moves on to the
 * next pane, the queue back in its order). */
bool esc_turn(struct esc_pane *);
/* Queues a prompt for a request (d: what the prompt bar shows, no
 * suggestion; req is then the queue's, ended by cancel when the prompt is
 * dropped unanswered). 1, 0 when the queue is full, -1. */
int esc_offer_request(struct esc_pane *, const struct denial *d, struct request *req,
		      void (*cancel)(struct request *, const char *why));
/* Removes prompt i unanswered (a request in it is cancelled with why). */
void esc_drop(struct esc_pane *, size_t i, const char *why);
/* The person widens (step 1) or narrows (-1) the head prompt's path by
 * one directory; never narrower than what was denied, never wider than
 * /. Only path suggestions. Returns the level now, or -1. */
int esc_widen(struct esc_pane *, int step);

#endif
