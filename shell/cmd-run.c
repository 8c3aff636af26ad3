/* cmd-run: `sandmux run`: one command in a sandbox, in the foreground, no
 * UI. Exits with the command's status (128+N for signal N), 2 for bad
 * policy input (nothing runs), 1 when a layer cannot be applied.
 *
 * Shape: load the policy, make the session temp dir, start the sandbox
 * (backends/run.h: launch, observer, proxy, limits), then one event loop
 * (backends/loop.h) that relays the terminal, resizes it, forwards
 * signals and notices the command's end; then the report (run-report.c). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "backends/capture.h"
#include "backends/launch.h"
#include "backends/loop.h"
#include "backends/run.h"
#include "policy/policy.h"
#include "shell/cmd.h"
#include "shell/home.h"
#include "shell/mux.h"
#include "shell/run-cmd.h"
#include "shell/run-tty.h"

extern char **environ;

struct run_cmd {
	struct loop *loop;
	struct run *sb;
	struct policy *p;
	bool use_tty;
	struct run_tty tty;
	int sfd;
	struct watch *sigw;
	FILE *report; /* --report, opened before the command runs */
	bool done;
	int status;
	bool audit; /* sandmux.json's "denials": "audit" */
	char tmpdir[PATH_MAX];
	bool tmpdir_made;       /* tmpdir is there to remove (not only named) */
	char capture[PATH_MAX]; /* capture mode: the layer directory */
	int capture_lock;       /* ... held until the end: no apply or discard meanwhile */
	struct run_report rep;  /* the denials, the report */
};

static void on_signal(struct watch *w, int events, void *arg)
{
	struct run_cmd *r = arg;
	struct signalfd_siginfo si;
	(void)events;
	while (read(watch_fd(w), &si, sizeof si) == (ssize_t)sizeof si) {
		if (si.ssi_signo == SIGWINCH && r->use_tty)
			run_tty_resize(&r->tty);
		else if (si.ssi_signo != SIGWINCH && si.ssi_signo != SIGCHLD && run_pid(r->sb) > 0)
			kill(run_pid(r->sb), (int)si.ssi_signo); /* the sandbox has its own session */
	}
}

static int run_signals(struct run_cmd *r, sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	int sigs[] = { SIGCHLD, SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaddset(&set, sigs[i]);
	sigprocmask(SIG_BLOCK, &set, old);
	r->sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (r->sfd < 0)
		return -1;
	r->sigw = watch_add(r->loop, r->sfd, LOOP_IN, on_signal, r);
	return r->sigw ? 0 : -1;
}

static void on_denial(struct denial *d, void *arg)
{
	struct run_cmd *r = arg;
	if (strcmp(d->op, "captured") == 0)
		return; /* the report lists the layer's whole content when the command ends */
	events_emit(&r->rep.ev, d);
}

static void on_exit_status(int code, int sig, void *arg)
{
	struct run_cmd *r = arg;
	(void)sig;
	r->status = code;
	r->done = true;
}

static struct run *run_begin(struct run_cmd *r, struct run_args *a)
{
	struct run_opts o;
	char cwd[PATH_MAX], tag[64], err[600];
	run_opts_init(&o);
	o.policy = r->p;
	o.argv = a->argv;
	o.envp = environ;
	size_t wn = strlen(a->workspace); /* the current directory when inside the workspace */
	if (getcwd(cwd, sizeof cwd) && strncmp(cwd, a->workspace, wn) == 0 && (cwd[wn] == '\0' || cwd[wn] == '/'))
		o.cwd = cwd;
	run_tty_opts(&r->tty, r->use_tty, r->p->sandboxed, &o);
	/* The observer reports denials as they happen (hint lines or
	 * --report at the end); Landlock is the boundary either way. */
	o.observer = !a->no_observer;
	o.early_exit = true;
	o.capture_dir = r->capture[0] ? r->capture : NULL;
	o.tmpdir_made = r->tmpdir_made ? NULL : &r->tmpdir_made;
	if (r->p->sandboxed) {
		o.audit = r->audit;
		snprintf(tag, sizeof tag, "run-%d", (int)getpid());
		o.limits = &r->p->limits;
		o.limits_tag = tag;
	}
	o.on_denial = on_denial;
	o.on_exit = on_exit_status;
	o.arg = r;
	struct run *sb = run_start(r->loop, &o, err, sizeof err);
	for (int fd = 1; fd < 3; fd++)
		if (o.stdio[fd] > 2)
			close(o.stdio[fd]);
	if (sb == NULL)
		fprintf(stderr, "sandmux run: %s\n", err);
	return sb;
}

/* The run's end: the terminal's last output, the observer's counters
 * and the limits kept for the report, then the sandbox stopped. */
static void run_end(struct run_cmd *r)
{
	if (r->use_tty)
		run_tty_drain(&r->tty);
	r->rep.weak = run_weak(r->sb);
	r->rep.have_stats = run_observer_stats(r->sb, r->report != NULL ? 2000 : 0, &r->rep.stats);
	if (r->rep.have_stats && r->rep.stats.unreadable > 0 && r->report == NULL)
		run_observer_stats(r->sb, 2000, &r->rep.stats); /* said at the end: the full count */
	const char *why;
	r->rep.channel = run_denials_channel(r->sb, &why);
	snprintf(r->rep.audit_why, sizeof r->rep.audit_why, "%s", why);
	r->rep.have_audit = run_audit_stats(r->sb, 2000, &r->rep.audit); /* the records still queued */
	const struct sandbox_limits *sl = run_limits(r->sb);
	if ((r->rep.have_limits = sl != NULL))
		r->rep.limits = *sl;
	run_stop(r->sb, false); /* the counters' last word reaches the report */
	r->sb = NULL;
}

/* Starts the command and runs the loop until it has ended. */
static int run_sandbox(struct run_cmd *r, struct run_args *a)
{
	r->rep.capture_dir = r->capture[0] ? r->capture : NULL;
	if ((r->sb = run_begin(r, a)) == NULL) {
		if (r->capture[0])
			capture_discard(r->capture);
		return 1;
	}
	if (run_weak(r->sb))
		fprintf(stderr, "sandmux: weaker sandbox: no user namespaces (%s; see sandmux doctor)\n",
			launch_weak_summary(r->p));
	if (r->use_tty) {
		int master = run_take_pty(r->sb);
		if (master >= 0)
			run_tty_attach(&r->tty, master);
		if (r->tty.slave >= 0)
			close(r->tty.slave);
		r->tty.slave = -1;
		if (run_tty_start(&r->tty, r->loop) < 0)
			fprintf(stderr, "sandmux run: %s\n", r->tty.err);
	}
	while (!r->done)
		loop_once(r->loop, -1);
	run_end(r);
	int rep = run_report_finish(&r->rep, a->argv, r->status, r->report);
	r->report = NULL; /* closed by it */
	return rep < 0 && r->status == 0 ? 1 : r->status;
}

static int run_policy(struct run_cmd *r, struct run_args *a)
{
	struct perr err = { 0 };
	int rc = policy_load(&a->popts, &r->p, &err);
	perr_print_warnings(&err, stderr);
	if (rc < 0)
		fprintf(stderr, "%s\n", err.msg);
	perr_free(&err);
	return rc < 0 ? 2 : 0;
}

/* Everything before the start; 0, or -1 said on stderr. */
static int run_prepare(struct run_cmd *r, struct run_args *a, sigset_t *old)
{
	const char *home = a->popts.home;
	if (a->report != NULL && (r->report = run_report_open(a->report)) == NULL)
		return -1;
	if (r->p->sandboxed)
		r->audit = run_config_load(r->p, home); /* its limits decide the temp dir */
	/* A namespaced sandbox with limits.tmp has a tmpfs at /tmp: the dir on
	 * the host is only named (the weaker sandbox makes it), which spares
	 * a run two ext4 directory operations (0.5-2 ms). */
	r->tmpdir_made = !r->p->sandboxed || r->p->limits.tmp_mib <= 0 || r->p->capture;
	if (run_tmpdir_make(home, r->tmpdir_made, r->tmpdir, sizeof r->tmpdir) < 0)
		return -1;
	free(r->p->tmpdir);
	r->p->tmpdir = strdup(r->tmpdir);
	if (run_report_init(&r->rep, r->p, home) < 0) {
		fprintf(stderr, "sandmux run: out of memory\n");
		return -1;
	}
	if (r->p->sandboxed && r->p->capture &&
	    (capture_layer_make(home, "run", NULL, r->capture, sizeof r->capture) < 0 ||
	     capture_layer_set_workspace(r->capture, r->p->workspace) < 0 ||
	     (r->capture_lock = capture_layer_lock(r->capture)) < 0)) {
		fprintf(stderr, "sandmux run: capture: make the layer directory: %s\n", strerror(errno));
		r->capture[0] = '\0';
		return -1;
	}
	r->use_tty = isatty(STDIN_FILENO);
	if (r->use_tty && run_tty_open(&r->tty, STDIN_FILENO, !r->p->sandboxed) < 0) {
		fprintf(stderr, "sandmux run: %s\n", r->tty.err);
		return -1;
	}
	r->loop = loop_new();
	if (r->loop == NULL || run_signals(r, old) < 0) {
		fprintf(stderr, "sandmux run: event loop: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct run_cmd r = { .sfd = -1, .capture_lock = -1 };
	sigset_t old;
	int rc;
	if (run_args_parse(argc, argv, &a) < 0)
		return run_usage();
	if ((rc = run_policy(&r, &a)) == 0)
		rc = run_prepare(&r, &a, &old) < 0 ? 1 : run_sandbox(&r, &a);
	run_stop(r.sb, true);
	if (r.capture_lock >= 0)
		close(r.capture_lock); /* the sandbox is gone */
	if (r.use_tty)
		run_tty_close(&r.tty);
	if (r.sigw)
		watch_del(r.sigw);
	if (r.sfd >= 0) {
		close(r.sfd);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (r.report != NULL && r.report != stderr)
		fclose(r.report);
	run_report_free(&r.rep);
	loop_free(r.loop);
	if (r.tmpdir_made)
		run_tmpdir_remove(r.tmpdir);
	if (r.p)
		policy_free(r.p);
	return rc;
}
