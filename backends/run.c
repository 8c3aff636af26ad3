/* run: one running sandbox (run.h): the launch, its observer, its proxy,
 * its limits, and its end, started and stopped in one place. */
#include "backends/run.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/audit.h"
#include "backends/launch.h"
#include "backends/limits.h"
#include "backends/loop.h"
#include "backends/observer.h"
#include "backends/proxy.h"
#include "policy/denial.h"
#include "policy/policy.h"
#include "policy/suggest.h"

#define RUN_LIMITS_POLL_MS 1000

struct run {
	struct loop *loop;
	struct policy *policy;
	struct launch l;
	struct observer *obs;
	struct proxy *proxy;
	struct audit_watch *audit; /* Landlock's records: the writes' denials (o->audit) */
	char audit_why[160];       /* why not the records, when not */
	struct sandbox_limits lim;
	bool have_limits;                 /* limits were asked for (lim describes them once lim_live) */
	const struct limits *limits_want; /* what was asked for, until the clone */
	const char *limits_tag;
	bool lim_live; /* their cgroups are not released yet */
	uint64_t lim_timer;
	int pidfd;
	struct watch *pidw, *statusw;
	bool exited;  /* on_exit was called */
	bool reaped;  /* init was waited for */
	int busy;     /* inside on_exit: run_stop() leaves the free to us */
	bool stopped; /* run_stop() ran while busy */
	run_denial_cb on_denial;
	run_exit_cb on_exit;
	void *arg;
};

void run_opts_init(struct run_opts *o)
{
	memset(o, 0, sizeof *o);
	o->tty = -1;
	o->pty_like = -1;
	o->pass_fd = -1;
	o->request_fd = -1;
	for (int i = 0; i < 3; i++)
		o->stdio[i] = -1;
}

static void run_denial(struct denial *d, void *arg)
{
	struct run *r = arg;
	if (r->on_denial != NULL)
		r->on_denial(d, r->arg);
}

static void run_denial_quiet(struct denial *d, void *arg)
{
	(void)d;
	(void)arg;
}

static void limits_tick(void *arg)
{
	struct run *r = arg;
	r->lim_timer = 0;
	if (r->reaped)
		return;
	limits_poll(&r->lim, r->l.pid, run_denial, r);
	r->lim_timer = timer_add(r->loop, RUN_LIMITS_POLL_MS, limits_tick, r);
}

/* The sandbox's init is gone: the observer's last denials, the limits'
 * last counters, the cgroups and the launcher's leftovers. */
static void run_settle(struct run *r, bool quiet)
{
	run_denial_cb cb = quiet ? run_denial_quiet : run_denial;
	watch_del(r->pidw);
	r->pidw = NULL;
	if (r->pidfd >= 0)
		close(r->pidfd);
	r->pidfd = -1;
	r->reaped = true;
	r->l.pid = -1;
	if (quiet)
		r->on_denial = NULL;
	observer_drain(r->obs);
	audit_watch_drain(r->audit);
	if (r->lim_timer != 0)
		timer_cancel(r->loop, r->lim_timer);
	r->lim_timer = 0;
	if (r->lim_live) {
		limits_poll(&r->lim, -1, cb, r);
		limits_release(&r->lim);
		r->lim_live = false;
	}
	launch_cleanup(&r->l);
}

static void run_free(struct run *r)
{
	if (r->statusw != NULL)
		watch_del(r->statusw);
	if (r->l.status_fd >= 0)
		close(r->l.status_fd);
	if (r->l.pty_fd >= 0)
		close(r->l.pty_fd);
	if (r->l.notify_fd >= 0)
		close(r->l.notify_fd);
	if (r->l.proxy_fd >= 0)
		close(r->l.proxy_fd);
	if (r->l.audit_fd >= 0)
		close(r->l.audit_fd);
	audit_watch_free(r->audit); /* decides by the policy too: before the observer */
	observer_free(r->obs);      /* it may decide by the policy the proxy is given too */
	proxy_free(r->proxy);
	free(r);
}

/* Ends the sandbox's whole tree and reaps its init. The sandbox's init
 * is pid 1 of its namespace: killing it ends every process in it; the
 * weaker sandbox's processes are ended one by one first. */
static void run_kill(struct run *r)
{
	if (r->reaped || r->l.pid <= 0)
		return;
	kill(-r->l.pid, SIGHUP);
	launch_kill(r->l.pid, r->l.weak);
	kill(-r->l.pid, SIGKILL);
	waitpid(r->l.pid, NULL, 0);
}

/* The one place a failed start is undone: whatever the earlier steps
 * started ends here, and err names the step that failed. */
static struct run *run_abort(struct run *r, const char *step, const char *why, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s%s%s", step, step[0] ? ": " : "", why);
	run_kill(r);
	run_settle(r, true);
	run_free(r);
	return NULL;
}

/* sig: the command was killed by it (code 128+sig); sandboxed, init
 * reports signal N as status 128+N. */
static void run_exit(struct run *r, int code, int sig)
{
	if (r->exited)
		return;
	r->exited = true;
	if (sig == 0 && r->policy->sandboxed && code > 128 && code < 128 + 65)
		sig = code - 128;
	if (r->on_exit == NULL)
		return;
	r->busy++;
	r->on_exit(code, sig, r->arg);
	r->busy--;
	if (r->stopped)
		run_free(r);
}

static void on_pidfd(struct watch *w, int events, void *arg)
{
	struct run *r = arg;
	int st;
	(void)w;
	(void)events;
	if (waitpid(r->l.pid, &st, WNOHANG) <= 0)
		return;
	run_settle(r, false);
	run_exit(r, WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st), WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* early_exit: the command's status from the sandbox's init, ahead of
 * init's own exit (which waits for the namespaces to be torn down). */
static void on_status(struct watch *w, int events, void *arg)
{
	struct run *r = arg;
	int status;
	(void)events;
	ssize_t n = read(watch_fd(w), &status, sizeof status);
	watch_del(w); /* end of file: init's own exit decides */
	r->statusw = NULL;
	if (n == (ssize_t)sizeof status) {
		if (r->lim_live) /* the namespaces are still there: a full /tmp can be seen */
			limits_poll(&r->lim, r->l.pid, run_denial, r);
		run_exit(r, status, 0);
	}
}

/* Right after the clone, while the child maps its ids (launch.h
 * after_clone): the cgroups made, the rest decided. */
static void run_prepare_limits(void *arg)
{
	struct run *r = arg;
	limits_prepare(&r->lim, r->limits_want, r->limits_tag);
	r->lim_live = true;
}

static void launch_fill(struct launch *l, const struct run_opts *o, struct run *r)
{
	const struct policy *p = o->policy;
	launch_init(l);
	l->policy = p;
	l->argv = o->argv;
	l->envp = o->envp;
	l->extra_env = o->extra_env;
	l->cwd = o->cwd;
	l->tty = o->tty;
	l->want_pty = o->want_pty;
	l->pty_like = o->pty_like;
	for (int i = 0; i < 3; i++)
		l->stdio[i] = o->stdio[i];
	l->want_notify = p->sandboxed && o->observer;
	l->want_proxy_listener = p->sandboxed && p->net.mode == NET_PROXY;
	l->proxy_listen_port = PROXY_SANDBOX_PORT;
	l->want_status = o->early_exit && p->sandboxed;
	l->pass_fd = o->pass_fd;
	l->request_fd = o->request_fd;
	l->exec_nodump = o->exec_nodump;
	l->capture_dir = p->sandboxed ? o->capture_dir : NULL;
	l->tmpdir_made = o->tmpdir_made;
	l->limits = r->have_limits ? &r->lim : NULL;
	l->after_clone = r->have_limits ? run_prepare_limits : NULL;
	l->after_clone_arg = r;
	r->limits_want = o->limits;
	r->limits_tag = o->limits_tag != NULL ? o->limits_tag : "run";
}

/* Before the launch: the audit socket, when its records are asked for
 * and can be read (the launcher then has Landlock log the command's
 * denials and the observer leave the writes to them). */
static void run_audit_open(struct run *r, const struct run_opts *o)
{
	snprintf(r->audit_why, sizeof r->audit_why, "%s",
		 !o->audit           ? "not chosen"
		 : !r->l.want_notify ? "no observer"
				     : "");
	if (r->audit_why[0] == '\0')
		r->l.audit_fd = audit_open(r->audit_why, sizeof r->audit_why);
}

/* After the launch: the records of the domain the sandbox's init made.
 * The weaker sandbox's observer keeps every call: no records read.
 * False when they cannot be watched: the observer leaves the writes to
 * them, so nobody would report those. */
static bool run_audit_watch(struct run *r)
{
	int fd = r->l.audit_fd;
	r->l.audit_fd = -1;
	if (fd < 0)
		return true;
	if (r->l.weak) {
		snprintf(r->audit_why, sizeof r->audit_why, "the weaker sandbox: its observer sees every call");
		close(fd);
		return true;
	}
	r->audit = audit_watch_new(r->loop, fd, r->policy, r->l.pid, run_denial, r);
	return r->audit != NULL;
}

/* After the launch: the observer, the proxy, the records, the watch on
 * the end. NULL or the step that failed, with why. */
static const char *run_attach(struct run *r, const struct run_opts *o, const char **why)
{
	struct launch *l = &r->l;
	if (l->notify_fd >= 0) {
		int fd = l->notify_fd;
		l->notify_fd = -1;
		/* the command waits at its next notified call: it cannot go on without it */
		int mode = l->weak ? l->proxy_port : l->audit_fd >= 0 ? OBSERVER_AUDITED : -1;
		r->obs = observer_new_from(o->observer_zygote, r->loop, r->policy, fd, mode, run_denial, r);
		if (r->obs == NULL)
			return *why = errno != 0 ? strerror(errno) : "cannot start", "observer";
	}
	if (l->proxy_fd >= 0) {
		int fd = l->proxy_fd;
		l->proxy_fd = -1;
		/* without its proxy every connect would hang */
		r->proxy = proxy_new(r->loop, r->policy, fd, run_denial, r, why);
		if (r->proxy == NULL)
			return strncmp(*why, "proxy: ", 7) == 0 ? "" : "proxy";
		proxy_set_auth(r->proxy, l->proxy_secret);
		proxy_set_hold(r->proxy, o->proxy_hold_ms);
	}
	if (!run_audit_watch(r))
		return *why = errno != 0 ? strerror(errno) : "cannot start", "audit records";
	r->pidfd = (int)syscall(SYS_pidfd_open, l->pid, 0);
	if (r->pidfd < 0 || (r->pidw = watch_add(r->loop, r->pidfd, LOOP_IN, on_pidfd, r)) == NULL)
		return *why = strerror(errno), "watch the sandbox: pidfd";
	if (l->status_fd >= 0 && (r->statusw = watch_add(r->loop, l->status_fd, LOOP_IN, on_status, r)) == NULL)
		return *why = strerror(errno), "watch the sandbox: status";
	if (r->have_limits) {
		limits_launched(&r->lim, l->weak, l->pid);
		r->lim_timer = timer_add(r->loop, RUN_LIMITS_POLL_MS, limits_tick, r);
	}
	return NULL;
}

struct run *run_start(struct loop *loop, const struct run_opts *o, char *err, size_t errlen)
{
	struct run *r = calloc(1, sizeof *r);
	if (r == NULL) {
		snprintf(err, errlen, "run: out of memory");
		return NULL;
	}
	r->loop = loop;
	r->policy = o->policy;
	r->pidfd = -1;
	r->on_denial = o->on_denial;
	r->on_exit = o->on_exit;
	r->arg = o->arg;
	r->have_limits = o->policy->sandboxed && o->limits != NULL;
	launch_fill(&r->l, o, r);
	run_audit_open(r, o);
	if (launch_start(&r->l) < 0) {
		r->reaped = true; /* launch_start() ended what it started */
		return run_abort(r, "", r->l.err, err, errlen);
	}
	const char *why = NULL, *step = run_attach(r, o, &why);
	if (step != NULL)
		return run_abort(r, step, why != NULL ? why : "failed", err, errlen);
	return r;
}

void run_stop(struct run *r, bool quiet)
{
	if (r == NULL || r->stopped)
		return;
	if (!r->reaped) {
		run_kill(r);
		run_settle(r, quiet);
	}
	if (r->busy > 0) {
		r->stopped = true; /* freed when on_exit returns */
		return;
	}
	run_free(r);
}

pid_t run_pid(const struct run *r)
{
	return r != NULL && !r->reaped ? r->l.pid : -1;
}

bool run_exited(const struct run *r)
{
	return r != NULL && r->exited;
}

bool run_weak(const struct run *r)
{
	return r != NULL && r->l.weak;
}

int run_take_pty(struct run *r)
{
	int fd = r->l.pty_fd;
	r->l.pty_fd = -1;
	return fd;
}

size_t run_held_count(const struct run *r)
{
	return r != NULL ? proxy_held_count(r->proxy) : 0;
}

int run_held_left_ms(const struct run *r)
{
	return r != NULL ? proxy_held_left_ms(r->proxy) : -1;
}

size_t run_answer_held(struct run *r, const struct suggestion *grant)
{
	if (r == NULL || r->proxy == NULL)
		return 0;
	if (grant != NULL && grant->kind != SUGGEST_NONE)
		suggest_apply(r->policy, grant);
	return proxy_decide_held(r->proxy);
}

void run_layers(const struct run *r, char *buf, size_t cap)
{
	if (r == NULL) {
		snprintf(buf, cap, "%s", "");
		return;
	}
	const struct policy *p = r->policy;
	if (!p->sandboxed) {
		snprintf(buf, cap, "no sandbox");
		return;
	}
	const char *net = p->net.mode == NET_HOST ? "" : r->proxy != NULL ? " · net ns + proxy" : " · net ns";
	if (r->l.weak)
		net = r->proxy != NULL ? " · proxy (landlock tcp)" : "";
	snprintf(buf, cap, "%slandlock · seccomp%s%s%s%s", r->l.weak ? "weak: " : "",
		 r->l.weak ? "" : " · user+mount+pid ns", net, r->obs != NULL ? " · observer" : "",
		 r->audit != NULL ? " (writes: audit records)" : "");
}

void run_limits_brief(const struct run *r, char *buf, size_t cap)
{
	buf[0] = '\0';
	if (r != NULL && r->have_limits)
		limits_brief(&r->lim, buf, cap);
}

const struct sandbox_limits *run_limits(const struct run *r)
{
	return r != NULL && r->have_limits ? &r->lim : NULL;
}

bool run_observer_stats(struct run *r, int wait_ms, struct observer_stats *out)
{
	if (r == NULL || r->obs == NULL)
		return false;
	observer_drain(r->obs);
	if (wait_ms > 0)
		observer_finish(r->obs, wait_ms);
	*out = *observer_stats(r->obs);
	return true;
}

const char *run_denials_channel(const struct run *r, const char **why)
{
	if (why != NULL)
		*why = r != NULL ? r->audit_why : "";
	return r != NULL && r->audit != NULL ? "audit" : r != NULL && r->obs != NULL ? "observer" : "none";
}

bool run_audit_stats(struct run *r, int wait_ms, struct audit_stats *out)
{
	if (r == NULL || r->audit == NULL)
		return false;
	if (wait_ms > 0)
		audit_watch_finish(r->audit, wait_ms); /* drains first */
	else
		audit_watch_drain(r->audit);
	*out = *audit_watch_stats(r->audit);
	return true;
}

bool run_audit_available(char *why, size_t size)
{
	int fd = audit_open(why, size);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}
