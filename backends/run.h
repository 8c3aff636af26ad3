/* run: one running sandbox, the one door shell/ has to the launcher, the
 * observer, the proxy and the resource limits. A pane (and its restarts),
 * `sandmux run`, `sandmux doctor`'s trial launch and `sandmux request`
 * all start and end their sandboxes here, so that fail-closed and the
 * cleanup order live in one place.
 *
 * run_start() applies, in this order: the limits (cgroups, before the
 * child exists), the launch (launch.h: namespaces, Landlock, seccomp, the
 * command's exec), the observer on the seccomp listener (observer.h), the
 * filtering proxy on the listener made inside the sandbox (proxy.h), the
 * watch on the sandbox's end. When any step fails, everything the earlier
 * steps started is ended (one function, run.c's run_abort: the tree
 * killed and reaped, the observer and the proxy freed, the cgroups
 * removed, the audit socket closed), and the error names the step: "proxy: ...", "observer: ...",
 * "landlock: ...".
 *
 * Every layer's denials (the observer's, the proxy's, the limits') reach
 * one callback as one struct denial (policy/denial.h); d->layer says
 * which layer saw it ("observer", "proxy", ...; a limit hit has op
 * "limit"), and a proxy denial carries its proto, refused address and
 * whether the connection is held.
 *
 * Everything runs in the caller's event loop; nothing blocks except
 * run_stop() (which reaps) and run_observer_stats() with a wait. */
#ifndef RUN_H
#define RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct audit_stats;
struct denial;
struct loop;
struct limits;
struct observer_stats;
struct observer_zygote;
struct policy;
struct sandbox_limits;
struct suggestion;

/* One denial from any layer. d->pane is 0; the callee may set it, and
 * must copy what it keeps. Must not call run_stop(). */
typedef void (*run_denial_cb)(struct denial *d, void *arg);
/* The command ended: code is its exit status, or sig the signal that
 * ended it (then code is 128+sig). Called once, after the observer has
 * handed on the run's last denials and (unless early_exit) the limits'
 * last counters were taken. May call run_stop(). */
typedef void (*run_exit_cb)(int code, int sig, void *arg);

struct run_opts {
	/* Borrowed: must outlive the run. The observer and the proxy decide
	 * by it as it is at each decision; run_answer_held() broadens it in
	 * place. */
	struct policy *policy;
	char *const *argv;      /* argv[0] is looked up in $PATH */
	char *const *envp;      /* the environment the env policy starts from */
	char *const *extra_env; /* "NAME=VALUE" set after the env policy, or NULL */
	const char *cwd;        /* NULL: the workspace */

	/* The terminal: a PTY slave (tty >= 0) made the controlling
	 * terminal; or want_pty: a PTY made inside the sandbox's own devpts
	 * (run_take_pty() hands back the master); otherwise stdio (-1:
	 * inherit). run_opts_init() sets tty and stdio to -1. */
	int tty;
	bool want_pty;
	int stdio[3]; /* with want_pty, one >= 0 stays the command's */
	int pty_like; /* want_pty: the terminal whose modes and size the
		       * PTY starts with (not closed here), or -1 */

	/* Layers and options. */
	bool observer;               /* the denial observer (sandboxed policies only; the
				 * weaker sandbox requires it and turns it on) */
	bool audit;                  /* the writes' denials from Landlock's audit records, where
				  * they can be read (audit.h; sandmux.json's "denials":
				  * "audit"): the observer then leaves writes to existing
				  * files, truncations and removals un-notified. The cost:
				  * outside the write roots a read-only mount refuses
				  * those first (EROFS), which leaves no record, so they
				  * are reported by nobody. Only with the observer,
				  * never in the weaker sandbox; where the
				  * records cannot be read nothing changes
				  * (run_denials_channel says why). */
	int proxy_hold_ms;           /* NET_PROXY: how long a refused connection that an
				 * allow entry could lift is held for an answer
				 * (run_answer_held); 0: never held. The proxy itself
				 * is always on for NET_PROXY: without it every
				 * connect would hang. */
	const struct limits *limits; /* resource limits in force (already folded), or
				      * NULL: none. Polled every second while it runs;
				      * a limit hit is a denial (op "limit"). */
	const char *limits_tag;      /* names the sandbox's cgroups (unique in this process) */
	const char *capture_dir;     /* capture mode: the layer directory (backends/capture.h) */
	bool *tmpdir_made;           /* NULL, or policy->tmpdir is only named: made (and this set)
				  * by the weaker sandbox alone (launch.h) */
	int pass_fd;                 /* -1, or an fd the command alone gets as fd 3 (the shell
				  * integration's secret); not closed here */
	int request_fd;              /* -1, or the pane's end of its request channel, which every
				  * process of the command gets as fd 4 (launch.h); not
				  * closed here */
	bool exec_nodump;            /* exec argv[0] (absolute) not dumpable (launch.h) */
	bool early_exit;             /* on_exit as soon as the command's status is known,
				  * before the sandbox's init and namespaces are gone
				  * (`sandmux run`); otherwise when init is reaped */
	/* Where the observer process is forked from (observer-zygote.h); NULL: this process. */
	struct observer_zygote *observer_zygote;

	run_denial_cb on_denial; /* NULL: denials are dropped */
	run_exit_cb on_exit;     /* NULL: the caller only stops the run */
	void *arg;
};

struct run;

void run_opts_init(struct run_opts *);

/* Starts the sandbox (see above). NULL on failure, with one line in err
 * naming the step; then nothing it started runs any more. */
struct run *run_start(struct loop *, const struct run_opts *, char *err, size_t errlen);

/* Ends the run (on_exit may call it; on_denial may not): kills the sandbox's whole tree if it still runs and
 * reaps it, lets the observer hand on its last denials (to on_denial,
 * unless quiet: the receiver is going away), takes the limits' last
 * counters, removes the cgroups and the launcher's leftovers, then frees
 * the observer and the proxy, in that order. NULL is a no-op. */
void run_stop(struct run *, bool quiet);

/* The sandbox's init, as a host pid (-1 once reaped). */
pid_t run_pid(const struct run *);
/* The command has ended (on_exit was called). */
bool run_exited(const struct run *);
/* The weaker sandbox ran (no user namespaces, backends/weak.c). */
bool run_weak(const struct run *);
/* want_pty: the PTY master, once (-1 afterwards). */
int run_take_pty(struct run *);

/* Held connections (the proxy's): how many wait for an answer, and the
 * answer: grant (NULL: refused) is added to the policy for the rest of
 * this run, and every held connection is decided again now. Returns how
 * many were decided. */
size_t run_held_count(const struct run *);
/* ms until the first held connection is refused, or -1 when none waits. */
int run_held_left_ms(const struct run *);
size_t run_answer_held(struct run *, const struct suggestion *grant);

/* The layers in force, as text for a title or a report, e.g.
 * "landlock · seccomp · user+mount+pid ns · net ns + proxy · observer",
 * "... · observer (writes: audit records)" with the audit channel,
 * or in the weaker sandbox "weak: landlock · seccomp · proxy (landlock
 * tcp) · observer"; "no sandbox" for an unsandboxed policy; "" for NULL
 * (nothing started). */
void run_layers(const struct run *, char *buf, size_t cap);
/* The limits in force, short ("pids 64 · mem 64M · tmp 16M"), "" when
 * none. */
void run_limits_brief(const struct run *, char *buf, size_t cap);
/* The limits as set up (for a report), or NULL without any. */
const struct sandbox_limits *run_limits(const struct run *);
/* The observer's counters into out; false without an observer. First
 * hands on the denials it has sent (to on_denial) and, wait_ms > 0,
 * waits up to that long until its process has sent its counters (after
 * the command's end: the full counters come once no process uses the
 * filter any more). */
bool run_observer_stats(struct run *, int wait_ms, struct observer_stats *out);

/* Which channel reports the writes' denials: "audit" (Landlock's
 * records), "observer" or "none"; *why (may be NULL) says why not the
 * records: "" when they are used, "not chosen" when opts.audit was not
 * set, otherwise what is missing (audit_open's reason, the weaker
 * sandbox); *why lives as long as the run. */
const char *run_denials_channel(const struct run *, const char **why);
/* The audit channel's counters into out; false without it. First hands
 * on the records received (to on_denial) and, wait_ms > 0, waits up to
 * that long for those still queued in the kernel (after the command's
 * end: until the domain's end is logged). */
bool run_audit_stats(struct run *, int wait_ms, struct audit_stats *out);
/* Whether Landlock's audit records can be read here (a probe sandbox);
 * false with one line in why: what is missing. */
bool run_audit_available(char *why, size_t size);

#endif
