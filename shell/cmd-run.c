/* cmd-run: `sandmux run`: one command in a sandbox, in the foreground, no
 * UI. Exits with the command's status (128+N for signal N), 2 for bad
 * policy input (nothing runs), 1 when a layer cannot be applied.
 *
 * Shape: load the policy, make the session temp dir, launch, then one
 * event loop (backends/loop.h) that relays the terminal, resizes it,
 * forwards signals and notices the sandbox's end. The proxy and the
 * observer join that loop when they are enabled. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/capture.h"
#include "backends/launch.h"
#include "backends/limits.h"
#include "backends/observer.h"
#include "backends/loop.h"
#include "backends/proxy.h"
#include "backends/safefile.h"
#include "policy/policy.h"
#include "shell/cmd.h"
#include "shell/mux.h"
#include "shell/run-denials.h"
#include "shell/run-tty.h"

extern char **environ;

struct run_opts {
	struct policy_opts popts;
	const char *report; /* --report FILE: the observer's denial report */
	bool no_observer;   /* --no-observer: Landlock alone (benchmarks) */
	char **argv;
	char workspace[PATH_MAX];
};

struct run {
	struct loop *loop;
	struct launch l;
	struct policy *p;
	bool use_tty;
	struct run_tty tty;
	int sfd;
	struct watch *sigw;
	struct watch *statusw; /* the command's status, before init is gone */
	FILE *report;          /* --report, opened before the command runs */
	bool done;
	int status;
	char tmpdir[PATH_MAX];
	char capture[PATH_MAX];     /* capture mode: the layer directory */
	struct run_denials denials; /* the observer and its events */
	struct proxy *proxy;        /* NET_PROXY: the filtering proxy */
	struct sandbox_limits lim;  /* resource limits (backends/limits.h) */
	uint64_t lim_timer;
};

static int run_usage(void)
{
	fprintf(stderr,
		"usage: sandmux run [--sandbox NAME] [--workspace DIR] [--config FILE] [--report FILE] [--no-observer] -- CMD [ARG...]\n");
	return 2;
}

static int run_parse(int argc, char **argv, struct run_opts *o)
{
	const char *ws = ".";
	memset(o, 0, sizeof *o);
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		const char **dst = strcmp(a, "--sandbox") == 0     ? &o->popts.profile_flag
				   : strcmp(a, "--workspace") == 0 ? &ws
				   : strcmp(a, "--config") == 0    ? &o->popts.user_file
				   : strcmp(a, "--report") == 0    ? &o->report
								   : NULL;
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(a, "--no-observer") == 0) {
			o->no_observer = true;
			continue;
		}
		if (dst == NULL || i + 1 >= argc) {
			if (dst == NULL && a[0] != '-')
				break; /* `sandmux run CMD` without "--" */
			fprintf(stderr, "sandmux run: %s: %s\n", a, dst ? "needs a value" : "unknown option");
			return -1;
		}
		*dst = argv[++i];
	}
	if (i >= argc) {
		fprintf(stderr, "sandmux run: no command given\n");
		return -1;
	}
	o->argv = argv + i;
	if (realpath(ws, o->workspace) == NULL) {
		fprintf(stderr, "sandmux run: --workspace %s: %s\n", ws, strerror(errno));
		return -1;
	}
	o->popts.workspace = o->workspace;
	o->popts.home = getenv("HOME");
	o->popts.profile_env = getenv("SANDMUX_SANDBOX");
	o->popts.path_env = getenv("PATH");
	return 0;
}

/* ~/.sandmux/state/tmp/run-XXXXXX: the sandbox's /tmp, removed at the end,
 * so a run leaves nothing in the host's /tmp. */
static int run_make_tmpdir(struct run *r, const char *home)
{
	char err[600];
	if (home == NULL || home[0] != '/') {
		fprintf(stderr, "sandmux run: $HOME is not set to an absolute path: needed for the session temp dir\n");
		return -1;
	}
	if (safefile_mkdtemp(home, SAFEFILE_TMP_REL, "run", r->tmpdir, sizeof r->tmpdir, err, sizeof err) < 0) {
		fprintf(stderr, "sandmux run: session temp dir: %s\n", err);
		r->tmpdir[0] = '\0';
		return -1;
	}
	return 0;
}

static int run_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) < 0 ? 0 : 0;
	return unlink(path) < 0 ? 0 : 0;
}

static void run_remove_tmpdir(struct run *r)
{
	if (r->tmpdir[0] == '\0')
		return;
	/* A directory the command made read-only still has to go. */
	chmod(r->tmpdir, 0700);
	nftw(r->tmpdir, run_rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	r->tmpdir[0] = '\0';
}

static void run_on_signal(struct watch *w, int events, void *arg)
{
	struct run *r = arg;
	struct signalfd_siginfo si;
	(void)events;
	while (read(watch_fd(w), &si, sizeof si) == (ssize_t)sizeof si) {
		if (si.ssi_signo == SIGWINCH && r->use_tty) {
			run_tty_resize(&r->tty);
		} else if (si.ssi_signo == SIGCHLD) {
			int st;
			if (waitpid(r->l.pid, &st, WNOHANG) == r->l.pid) {
				r->done = true;
				r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			}
		} else if (si.ssi_signo != SIGWINCH) {
			/* The sandbox has its own session: pass on what was meant for it. */
			kill(r->l.pid, (int)si.ssi_signo);
		}
	}
}

static void run_on_limit(struct denial *d, void *arg)
{
	struct run *r = arg;
	events_emit(&r->denials.ev, d);
}

/* A look at the limits' counters once a second while the command runs. */
static void run_limits_tick(void *arg)
{
	struct run *r = arg;
	limits_poll(&r->lim, r->l.pid, run_on_limit, r);
	r->lim_timer = timer_add(r->loop, 1000, run_limits_tick, r);
}

/* sandmux.json's "limits", lowered by the profile's: made before the
 * launch (cgroups), applied in the child. */
static void run_limits_prepare(struct run *r, const char *home)
{
	struct mux_config cfg;
	char path[PATH_MAX], err[600];
	snprintf(path, sizeof path, "%s/.sandmux/sandmux.json", home != NULL ? home : "/");
	if (mux_config_load(&cfg, path, err, sizeof err) < 0)
		fprintf(stderr, "sandmux run: %s (using the default limits)\n", err);
	limits_fold(&r->p->limits, &cfg.limits);
	char tag[64];
	snprintf(tag, sizeof tag, "run-%d", (int)getpid());
	limits_prepare(&r->lim, &r->p->limits, tag);
	r->l.limits = &r->lim;
	r->denials.limits = &r->lim;
}

/* The command's status from the sandbox's init, ahead of init's own
 * exit (which waits for the namespaces to be torn down). */
static void run_on_status(struct watch *w, int events, void *arg)
{
	struct run *r = arg;
	int status;
	(void)events;
	if (read(watch_fd(w), &status, sizeof status) == (ssize_t)sizeof status) {
		r->status = status;
		r->done = true;
		/* the namespaces are still there: a full /tmp can be seen */
		limits_poll(&r->lim, r->l.pid, run_on_limit, r);
	}
	watch_del(w); /* end of file: the SIGCHLD path decides */
	r->statusw = NULL;
}

static int run_signals(struct run *r, sigset_t *old)
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
	r->sigw = watch_add(r->loop, r->sfd, LOOP_IN, run_on_signal, r);
	return r->sigw ? 0 : -1;
}

static void run_on_net_denial(const struct net_denial *nd, void *arg)
{
	struct run *r = arg;
	struct denial d;
	if (net_denial_event(nd, &d) == 0)
		events_emit(&r->denials.ev, &d);
	denial_clear(&d);
}

/* NET_PROXY: the child makes the listener on its own loopback at a fixed
 * port (its netns is new and empty, so the port is free), and the
 * launcher sets the proxy variables (in the weaker sandbox: a free port
 * of the host's loopback). */
static void run_proxy_ask(struct run *r)
{
	if (!r->p->sandboxed || r->p->net.mode != NET_PROXY)
		return;
	r->l.want_proxy_listener = true;
	r->l.proxy_listen_port = PROXY_SANDBOX_PORT;
}

static int run_proxy_start(struct run *r)
{
	const char *err = NULL;
	if (r->l.proxy_fd < 0)
		return 0;
	r->proxy = proxy_new(r->loop, r->p, r->l.proxy_fd, run_on_net_denial, r, &err);
	r->l.proxy_fd = -1;
	if (r->proxy == NULL) {
		fprintf(stderr, "sandmux run: %s\n", err);
		return -1;
	}
	proxy_set_auth(r->proxy, r->l.proxy_secret);
	return 0;
}

/* Without a PTY, a stdout or stderr that is the person's terminal would
 * usually be open read-write (shells open the tty once): the command could
 * read the person's keystrokes through it. It gets a write-only open of
 * the same terminal instead. */
static void run_stdio_writeonly(struct run *r)
{
	for (int fd = 1; fd < 3; fd++) {
		char path[32];
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		if (isatty(fd) && (fcntl(fd, F_GETFL) & O_ACCMODE) != O_WRONLY)
			r->l.stdio[fd] = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	}
}

/* Launches the command and runs the loop until the sandbox is gone. */
static int run_sandbox(struct run *r, struct run_opts *o)
{
	launch_init(&r->l);
	r->l.policy = r->p;
	r->l.argv = o->argv;
	r->l.envp = environ;
	r->l.cwd = NULL; /* the current directory when inside the workspace */
	char cwd[PATH_MAX];
	size_t wn = strlen(o->workspace);
	if (getcwd(cwd, sizeof cwd) && strncmp(cwd, o->workspace, wn) == 0 && (cwd[wn] == '\0' || cwd[wn] == '/'))
		r->l.cwd = cwd;
	/* A sandboxed command's PTY is made inside (its own devpts). */
	if (r->use_tty && r->p->sandboxed)
		r->l.want_pty = true;
	else if (r->use_tty)
		r->l.tty = r->tty.slave;
	else
		run_stdio_writeonly(r);
	/* The observer reports denials as they happen (hint lines or
	 * --report at the end); Landlock is the boundary either way. */
	r->l.want_notify = r->p->sandboxed && !o->no_observer;
	r->l.want_status = true;
	r->l.capture_dir = r->capture[0] ? r->capture : NULL;
	r->denials.capture_dir = r->l.capture_dir;
	run_proxy_ask(r);
	if (r->p->sandboxed)
		run_limits_prepare(r, o->popts.home);
	run_denials_audit_open(&r->denials, &r->l);
	int rc = launch_start(&r->l);
	run_denials_audit(&r->denials, r->loop, &r->l);
	for (int fd = 1; fd < 3; fd++)
		if (r->l.stdio[fd] > 2)
			close(r->l.stdio[fd]);
	if (rc < 0) {
		fprintf(stderr, "sandmux run: %s\n", r->l.err);
		if (r->l.limits != NULL)
			limits_release(&r->lim);
		if (r->capture[0])
			capture_discard(r->capture);
		return 1;
	}
	if (r->l.weak)
		fprintf(stderr, "sandmux: weaker sandbox: no user namespaces (%s; see sandmux doctor)\n",
			launch_weak_summary(r->p));
	if (r->l.limits != NULL) {
		limits_launched(&r->lim, r->l.weak, r->l.pid);
		r->lim_timer = timer_add(r->loop, 1000, run_limits_tick, r);
	}
	if (r->l.notify_fd >= 0 &&
	    run_denials_watch(&r->denials, r->loop, r->l.notify_fd, r->l.weak ? r->l.proxy_port : -1) < 0) {
		/* The command waits at execve for an answer: it cannot go on. */
		fprintf(stderr, "sandmux run: observer: %s\n", strerror(errno));
		launch_kill(r->l.pid, r->l.weak);
	}
	r->l.notify_fd = -1;
	if (r->l.status_fd >= 0)
		r->statusw = watch_add(r->loop, r->l.status_fd, LOOP_IN, run_on_status, r);
	if (run_proxy_start(r) < 0) /* no proxy: the command would wait on connects forever */
		launch_kill(r->l.pid, r->l.weak);
	if (r->use_tty) {
		if (r->l.pty_fd >= 0)
			run_tty_attach(&r->tty, r->l.pty_fd);
		r->l.pty_fd = -1;
		if (r->tty.slave >= 0)
			close(r->tty.slave);
		r->tty.slave = -1;
		if (run_tty_start(&r->tty, r->loop) < 0)
			fprintf(stderr, "sandmux run: %s\n", r->tty.err);
	}
	while (!r->done)
		loop_once(r->loop, -1);
	if (r->use_tty)
		run_tty_drain(&r->tty);
	if (r->statusw != NULL)
		watch_del(r->statusw);
	r->statusw = NULL;
	if (r->l.status_fd >= 0)
		close(r->l.status_fd);
	r->l.status_fd = -1;
	launch_cleanup(&r->l);
	if (r->l.limits != NULL) {
		limits_poll(&r->lim, -1, run_on_limit, r); /* the counters' last word */
		limits_release(&r->lim);
	}
	int rep = run_denials_finish(&r->denials, o->argv, r->status, r->report);
	r->report = NULL; /* closed by it */
	if (rep < 0 && r->status == 0)
		return 1;
	return r->status;
}

static int run_policy(struct run *r, struct run_opts *o)
{
	struct perr err = { 0 };
	int rc = policy_load(&o->popts, &r->p, &err);
	perr_print_warnings(&err, stderr);
	if (rc < 0)
		fprintf(stderr, "%s\n", err.msg);
	perr_free(&err);
	if (rc < 0)
		return 2;
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct run r = { .sfd = -1 };
	sigset_t old;
	int rc;
	if (run_parse(argc, argv, &o) < 0)
		return run_usage();
	if ((rc = run_policy(&r, &o)) != 0)
		goto out;
	rc = 1;
	if (o.report != NULL && (r.report = run_denials_report_open(o.report)) == NULL)
		goto out;
	if (run_make_tmpdir(&r, o.popts.home) < 0)
		goto out;
	free(r.p->tmpdir);
	r.p->tmpdir = strdup(r.tmpdir);
	if (run_denials_init(&r.denials, r.p, o.popts.home) < 0) {
		fprintf(stderr, "sandmux run: out of memory\n");
		goto out;
	}
	if (r.p->sandboxed && r.p->capture &&
	    (capture_layer_make(o.popts.home, "run", NULL, r.capture, sizeof r.capture) < 0 ||
	     capture_layer_set_workspace(r.capture, r.p->workspace) < 0)) {
		fprintf(stderr, "sandmux run: capture: make the layer directory: %s\n", strerror(errno));
		r.capture[0] = '\0';
		goto out;
	}
	r.use_tty = isatty(STDIN_FILENO);
	if (r.use_tty && run_tty_open(&r.tty, STDIN_FILENO, !r.p->sandboxed) < 0) {
		fprintf(stderr, "sandmux run: %s\n", r.tty.err);
		goto out;
	}
	r.loop = loop_new();
	if (r.loop == NULL || run_signals(&r, &old) < 0) {
		fprintf(stderr, "sandmux run: event loop: %s\n", strerror(errno));
		goto out;
	}
	rc = run_sandbox(&r, &o);
out:
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
	proxy_free(r.proxy);
	run_denials_free(&r.denials);
	loop_free(r.loop);
	run_remove_tmpdir(&r);
	if (r.p)
		policy_free(r.p);
	return rc;
}
