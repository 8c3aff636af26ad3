/* launch: the parent side (clone, then collect the child's verdict) and
 * the child's sequence of steps. The child is pid 1 of a new pid
 * namespace: it applies every layer to itself, hands the parent any fds it
 * asked for, then becomes the sandbox's init and forks the command.
 *
 * The parent and child talk over one SOCK_SEQPACKET pair, close-on-exec:
 * "E<message>" is a failed step, "F" carries passed fds (SCM_RIGHTS).
 * End of file without an "E" means the command's execve succeeded. The
 * parent's "M" (the go, with the limits it made after the clone) comes
 * before the sandboxed child's mounts; its "S" (the seccomp filters it
 * compiled meanwhile) before the child's seccomp step. */
#include "backends/launch.h"
#include "backends/reqchan.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <fcntl.h>
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "backends/chan.h"
#include "backends/limits.h"
#include "backends/procpath.h"
#include "backends/sandbox.h"
#include "backends/shadow.h"
#include "policy/policy.h"

/* The observer (backends/observer.c) compiles the filter of its seccomp
 * listener, which the child installs after ours. Weak so the launcher
 * builds and fails closed without it. */
int observer_compile(const struct policy *, bool weak, bool quiet_writes, struct seccomp_prog *) __attribute__((weak));

void launch_init(struct launch *l)
{
	memset(l, 0, sizeof *l);
	l->tty = -1;
	l->pty_like = -1;
	for (int i = 0; i < 3; i++)
		l->stdio[i] = -1;
	l->pid = -1;
	l->notify_fd = -1;
	l->proxy_fd = -1;
	l->pty_fd = -1;
	l->status_fd = -1;
	l->pass_fd = -1;
	l->audit_fd = -1;
	l->request_fd = -1;
}

bool launch_audited(const struct sbx *s)
{
	return s->l->audit_fd >= 0 && !s->weak;
}

int sbx_fail(struct sbx *s, const char *step, const char *what)
{
	int e = errno;
	snprintf(s->err, sizeof s->err, "%s: %s: %s", step, what, strerror(e));
	return -1;
}

int sbx_failx(struct sbx *s, const char *step, const char *what)
{
	snprintf(s->err, sizeof s->err, "%s: %s", step, what);
	return -1;
}

/* execvp's search, made with access() first: under the observer every
 * execve is a round trip to the host, and a PATH of ten directories made
 * ten of them for one command. Returns only if nothing was found or the
 * exec failed; execvp then runs the search again and reports it. */
static void launch_exec_found(char *const *argv)
{
	const char *path = getenv("PATH");
	if (strchr(argv[0], '/') != NULL || path == NULL)
		return;
	char file[PATH_MAX];
	for (const char *dir = path; dir != NULL; dir = strchr(dir, ':') ? strchr(dir, ':') + 1 : NULL) {
		int n = (int)strcspn(dir, ":");
		if (snprintf(file, sizeof file, "%.*s%s%s", n, dir, n > 0 ? "/" : "", argv[0]) >= (int)sizeof file)
			continue;
		struct stat st;
		if (access(file, X_OK) == 0 && stat(file, &st) == 0 && S_ISREG(st.st_mode)) {
			execv(file, argv);
			return;
		}
	}
}

/* request_fd becomes LAUNCH_REQUEST_FD, kept across exec by every
 * process of the command; pass_fd is moved out of its way first when it
 * sits there. Returns where pass_fd is now. */
static int launch_pass_request(const struct launch *l)
{
	int pass = l->pass_fd;
	if (l->request_fd < 0)
		return pass;
	if (pass == LAUNCH_REQUEST_FD)
		pass = fcntl(pass, F_DUPFD_CLOEXEC, 10);
	if (l->request_fd != LAUNCH_REQUEST_FD) {
		dup2(l->request_fd, LAUNCH_REQUEST_FD);
		if (l->request_fd != l->pass_fd)
			close(l->request_fd);
	} else
		fcntl(LAUNCH_REQUEST_FD, F_SETFD, 0);
	return pass;
}

/* pass_fd becomes LAUNCH_PASS_FD, kept across exec; it is dropped when
 * the not-dumpable exec asked for cannot be made, so that no other
 * process could read what it carries from the command. */
static void launch_pass(const struct launch *l)
{
	int pass = launch_pass_request(l);
	if (pass < 0)
		return;
	if (pass != LAUNCH_PASS_FD) {
		dup2(pass, LAUNCH_PASS_FD);
		close(pass);
	} else
		fcntl(LAUNCH_PASS_FD, F_SETFD, 0);
	if (l->exec_nodump) {
		launch_exec_nodump(l->argv, environ);
		close(LAUNCH_PASS_FD);
	}
}

/* In the command's process: its terminal, its session, its directory,
 * then execve. Only returns by _exit. */
static void launch_exec(struct sbx *s)
{
	const struct launch *l = s->l;
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	/* A made PTY (want_pty) leaves a stdio given on purpose in place. */
	bool keep = s->tty < 0 || l->want_pty;
	for (int fd = 0; fd < 3; fd++) {
		int from = keep && l->stdio[fd] >= 0 ? l->stdio[fd] : s->tty;
		if (from >= 0 && from != fd && dup2(from, fd) < 0)
			goto fail_dup;
	}
	/* A session of its own and the PTY as its controlling terminal, so
	 * /dev/tty and job control work, and it is not the person's tty. */
	if (setsid() < 0) {
		chan_send_err(s->chan, "session: setsid", strerror(errno));
		_exit(127);
	}
	if (s->tty >= 0 && ioctl(s->tty, TIOCSCTTY, 0) < 0) {
		chan_send_err(s->chan, "session: make the pty the controlling terminal", strerror(errno));
		_exit(127);
	}
	/* The originals are not the command's to keep (no fd above 2 leaks). */
	if (s->tty > 2)
		close(s->tty);
	for (int fd = 0; fd < 3; fd++)
		if (l->stdio[fd] > 2 && keep)
			close(l->stdio[fd]);
	const char *cwd = l->cwd ? l->cwd : (l->policy ? l->policy->workspace : NULL);
	if (cwd != NULL && chdir(cwd) < 0) {
		chan_send_err(s->chan, "chdir", strerror(errno));
		_exit(127);
	}
	/* The weaker sandbox's command: a nested domain, so that it cannot
	 * signal its init (which would leave its orphans to the host). */
	if (s->weak && landlock_scope_self() < 0) {
		chan_send_err(s->chan, "landlock: scope the command's signals", strerror(errno));
		_exit(127);
	}
	const char *step = NULL;
	if (s->limits != NULL && limits_set_rlimits(s->limits, s->weak, &step) < 0) {
		char what[96];
		snprintf(what, sizeof what, "limits: %s", step);
		chan_send_err(s->chan, what, strerror(errno));
		_exit(127);
	}
	/* The parent answers twice once it took the observer's listener: init
	 * reads one (init.c), the command the other, and only then execs. */
	if (launch_listener_taken(s) < 0)
		_exit(127); /* init says why */
	environ = s->envp;  /* execvp looks up argv[0] in the command's own PATH */
	launch_pass(l);
	launch_exec_found(l->argv);
	execvp(l->argv[0], l->argv);
	char what[256];
	int e = errno;
	snprintf(what, sizeof what, "exec %s", l->argv[0]);
	chan_send_err(s->chan, what, strerror(e));
	/* With an observer the parent stopped listening once its fd came:
	 * say it on the command's own stderr, as a shell would. */
	if (l->want_notify)
		dprintf(2, "sandmux: %s: %s\n", what, strerror(e));
	_exit(e == ENOENT ? 127 : 126);
fail_dup:
	chan_send_err(s->chan, "stdio: dup2", strerror(errno));
	_exit(127);
}

/* Every fd above 2 except the ones passed on purpose: a leaked directory
 * fd would defeat every path rule. */
static int launch_close_fds(struct sbx *s)
{
	int keep[8], n = 0;
	keep[n++] = s->chan;
	if (s->l->pass_fd >= 0)
		keep[n++] = s->l->pass_fd;
	if (s->l->request_fd >= 0)
		keep[n++] = s->l->request_fd;
	if (s->status_w >= 0)
		keep[n++] = s->status_w;
	if (s->l->tty >= 0)
		keep[n++] = s->l->tty;
	for (int i = 0; i < 3; i++)
		if (s->l->stdio[i] > 2)
			keep[n++] = s->l->stdio[i];
	for (int i = 1; i < n; i++) /* insertion sort: at most eight */
		for (int j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			int t = keep[j];
			keep[j] = keep[j - 1];
			keep[j - 1] = t;
		}
	unsigned lo = 3;
	for (int i = 0; i <= n; i++) {
		unsigned hi = i < n ? (unsigned)keep[i] : ~0U;
		if (i < n && (unsigned)keep[i] < lo)
			continue;
		if (hi > lo && syscall(SYS_close_range, lo, hi - 1, 0) < 0)
			return sbx_fail(s, "fds", "close_range");
		if (i < n)
			lo = hi + 1;
	}
	return 0;
}

int launch_loopback_listener(int port, int *bound)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
				 .sin_port = htons((uint16_t)port) };
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	/* a deep backlog: a client may open hundreds of tunnels at once */
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 1024) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		errno = e;
		return -1;
	}
	*bound = ntohs(a.sin_port);
	return fd;
}

static int launch_proxy_listener(struct sbx *s, int *fd, int *port)
{
	*fd = launch_loopback_listener(s->l->proxy_listen_port, port);
	return *fd < 0 ? sbx_fail(s, "proxy listener", "bind 127.0.0.1") : 0;
}

/* want_pty: the command's PTY from the sandbox's own devpts (dev.c), so
 * ttyname() finds it inside; the master goes to the parent. */
static int launch_inner_pty(struct sbx *s)
{
	/* The weaker sandbox has the host's devpts, whose ptmx node is
	 * usually mode 000: /dev/ptmx there. */
	const char *ptmx = s->weak ? "/dev/ptmx" : "/dev/pts/ptmx";
	s->pty_master = open(ptmx, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s->pty_master < 0 || unlockpt(s->pty_master) < 0)
		return sbx_fail(s, "pty", s->weak ? "open /dev/ptmx" : "open /dev/pts/ptmx inside");
	/* TIOCGPTPEER opens the slave of this very master, with no path. */
	s->tty = ioctl(s->pty_master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s->tty < 0)
		return sbx_fail(s, "pty", "open the slave");
	/* The terminal it stands in for: its modes and size from the first
	 * byte, so that nothing the command asks early sees 0x0. */
	struct termios tm;
	struct winsize ws;
	if (s->l->pty_like >= 0 && tcgetattr(s->l->pty_like, &tm) == 0)
		tcsetattr(s->tty, TCSANOW, &tm);
	if (s->l->pty_like >= 0 && ioctl(s->l->pty_like, TIOCGWINSZ, &ws) == 0)
		ioctl(s->tty, TIOCSWINSZ, &ws);
	return 0;
}

/* The observer's listener, last: from here on every sendmsg() waits for
 * the observer, so the fd goes by number and the parent takes it. The
 * child drops its capabilities and init forks the command meanwhile:
 * launch_listener_taken() waits for the parent's answer before the
 * command's execve, which is a notified call, can be let through. */
static int launch_pass_listener(struct sbx *s)
{
	if (s->notify.len == 0)
		return sbx_failx(s, "observer", "no seccomp listener filter from the parent");
	s->listener = seccomp_load_prog(&s->notify, SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (s->listener < 0)
		return sbx_fail(s, "observer", "install the seccomp listener");
	if (chan_send_listener(s->chan, s->listener) < 0)
		return sbx_fail(s, "observer", "pass the listener to the host");
	return 0;
}

/* The parent's answer to the listener: kept open until it was taken.
 * Init waits for it once the command is forked (init.c). */
int launch_listener_taken(struct sbx *s)
{
	if (s->listener < 0)
		return 0;
	int answer = chan_wait_reply(s->chan);
	close(s->listener);
	s->listener = -1;
	if (answer != 'A')
		return sbx_failx(s, "observer", "the host could not take the listener (see its message)");
	return 0;
}

/* The fds the parent asked for, made in here and handed over. */
static int launch_pass_fds(struct sbx *s)
{
	const struct launch *l = s->l;
	int proxy = -1, port = 0;
	bool listener = l->want_proxy_listener && !s->weak; /* weak: the parent made it */
	if (listener && launch_proxy_listener(s, &proxy, &port) < 0)
		return -1;
	if ((proxy >= 0 || s->pty_master >= 0) && chan_send_fds(s->chan, -1, proxy, s->pty_master, port) < 0)
		return sbx_fail(s, "launch", "pass fds to the parent");
	if (s->pty_master >= 0)
		close(s->pty_master);
	s->pty_master = -1;
	if (proxy >= 0)
		close(proxy);
	return l->want_notify ? launch_pass_listener(s) : 0;
}

/* The parent's go ('M', launch_go()): what it made while we made our
 * first steps is there, and the limits it made come with it; their
 * cgroups joined. */
static int launch_wait_go(struct sbx *s)
{
	struct limits_wire *sl = &s->lim;
	const char *step = NULL;
	char type = 0;
	struct iovec iov[2] = { { &type, 1 }, { sl, sizeof *sl } };
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };
	ssize_t n;
	do
		n = recvmsg(s->chan, &mh, 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)(1 + sizeof *sl) || type != 'M')
		return sbx_failx(s, "launch", "no word from the parent");
	if (s->l->limits == NULL)
		return 0;
	if (limits_join(sl, &step) < 0)
		return sbx_fail(s, "limits", step);
	s->limits = sl;
	return 0;
}

/* The child's life tied to the parent's (sig at its death), and no fd
 * kept by accident. */
static int launch_bind_parent(struct sbx *s, int sig)
{
	if (prctl(PR_SET_PDEATHSIG, sig) < 0)
		return sbx_fail(s, "process", "parent-death signal");
	/* The parent may have died before the line above: then nobody holds
	 * the other end of the channel any more. */
	struct pollfd pf = { s->chan, POLLOUT, 0 };
	if (poll(&pf, 1, 0) < 0 || (pf.revents & (POLLHUP | POLLERR)))
		return sbx_failx(s, "process", "the parent is gone");
	return launch_close_fds(s);
}

/* The weaker sandbox (weak.c) has no pid namespace and no mounts: init
 * becomes a subreaper instead, so whatever the command leaves behind is
 * re-parented to it and ended with it; the parent's death reaches init
 * as SIGPWR, which ends the whole tree (SIGKILL would end init alone). */
static int launch_subreaper(struct sbx *s)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		return sbx_fail(s, "process", "become the subreaper of the command's processes");
	return 0;
}

/* Every layer, in an order where each step still has what it needs:
 * mounts need capabilities (in the new user namespace), Landlock and
 * seccomp need no_new_privs, the deny list forbids mount() afterwards. */
static int launch_layers(struct sbx *s)
{
	if (launch_bind_parent(s, s->weak ? SIGPWR : SIGKILL) < 0)
		return -1;
	if (!s->weak && ns_map_ids(s) < 0)
		return -1;
	if (setsid() < 0)
		return sbx_fail(s, "session", "setsid");
	/* independent of the rest: made while the parent makes what we wait for */
	if (s->netns && ns_loopback_up(s) < 0)
		return -1;
	if (!s->weak)
		ns_find_sockets(s);
	/* before anything forks: every process the sandbox makes is counted */
	if (launch_wait_go(s) < 0)
		return -1;
	if (s->weak ? launch_subreaper(s) < 0 : ns_mount_all(s) < 0)
		return -1;
	if (s->l->want_pty && launch_inner_pty(s) < 0)
		return -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return sbx_fail(s, "process", "no_new_privs");
	if (landlock_apply(s) < 0)
		return -1;
	if (chan_recv_filters(s->chan, &s->deny, &s->notify) < 0)
		return sbx_failx(s, "seccomp", "no filter from the parent");
	if (seccomp_apply(s) < 0)
		return -1;
	/* init's stdio-to-be, before the observer's filter would make its
	 * open a round trip to the host (init.c init_drop_stdio) */
	s->devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (launch_pass_fds(s) < 0)
		return -1;
	/* both loaded: one allocation, at deny's (chan_recv_filters) */
	seccomp_prog_free(&s->deny);
	s->notify = (struct seccomp_prog){ 0 };
	if (caps_drop(s) < 0)
		return -1;
	return 0;
}

static void launch_child(struct sbx *s)
{
	if (!s->p->sandboxed) {
		if (launch_close_fds(s) < 0) {
			chan_send_err(s->chan, s->err, NULL);
			_exit(127);
		}
		launch_exec(s);
	}
	if (launch_layers(s) < 0) {
		chan_send_err(s->chan, s->err, NULL);
		_exit(127);
	}
	_exit(init_run(s, launch_exec));
}

/* The child's observer listener, taken from it (pidfd_getfd: the same
 * ptrace rules as the observer's reading of paths). */
static int launch_take_listener(struct launch *l, int chan, int num)
{
	int fd = procpath_take_fd(l->pid, num);
	if (fd < 0) {
		snprintf(l->err, sizeof l->err, "observer: take the listener from the sandbox: pidfd_getfd: %s%s",
			 strerror(errno), errno == EPERM ? " (ptrace restricted: kernel.yama.ptrace_scope?)" : "");
		chan_reply(chan, 'X');
		chan_reply(chan, 'X');
		return -1;
	}
	l->notify_fd = fd;
	/* one answer for init, one for the command it forked meanwhile */
	return chan_reply(chan, 'A') == 0 && chan_reply(chan, 'A') == 0 ? 0 : -1;
}

/* Reads the child's messages until end of file (the command's execve
 * closed the last copy) or, with an observer, until its listener was
 * taken: the observer may hold the command at execve until someone answers. */
static int launch_collect(struct launch *l, int chan)
{
	int rc = 0;
	bool reset = false;
	for (;;) {
		struct chan_msg m;
		int n = chan_recv(chan, &m);
		/* A child that failed before reading the filters ('S') left them
		 * unread: its end's close reports ECONNRESET once, ahead of the
		 * messages it sent, which are still there to read. */
		if (n < 0 && errno == ECONNRESET && !reset) {
			reset = true;
			continue;
		}
		if (n <= 0) {
			if (n < 0) {
				snprintf(l->err, sizeof l->err, "launch: read from the child: %s", strerror(errno));
				rc = -1;
			}
			break;
		}
		if (m.type == 'E') {
			if (rc == 0) /* after a refused listener, ours says more */
				snprintf(l->err, sizeof l->err, "%s", m.text);
			rc = -1;
		} else if (m.type == 'F') {
			l->pty_fd = m.pty_fd;
			if (!l->weak) { /* weak: the parent's own listener */
				l->proxy_fd = m.proxy_fd;
				l->proxy_port = m.port;
			}
		} else if (m.type == 'L') {
			if (launch_take_listener(l, chan, m.listener) == 0)
				break;
			rc = -1;
		}
	}
	return rc;
}

void launch_cleanup(struct launch *l)
{
	for (size_t i = 0; i < sizeof l->made / sizeof l->made[0]; i++) {
		if (l->made[i] != NULL)
			rmdir(l->made[i]); /* only if still empty: ENOTEMPTY keeps it */
		free(l->made[i]);
		l->made[i] = NULL;
	}
}

/* Right after the clone, while the sandboxed child maps its ids: what it
 * needs only from its mounts on (the protected directories' stand-ins,
 * the agents' state shadows, the caller's after_clone: the limits'
 * cgroups), then 'M' with the limits, which the child waits for before
 * its mounts. */
static int launch_go(struct launch *l, int chan)
{
	struct limits_wire w = { 0 }; /* on the stack: the paths whole only for the send */
	if (!l->policy->sandboxed)
		return 0;
	/* With the observer, a protected directory missing at launch is
	 * refused when created (nothing is made in the workspace); without
	 * it, only a covered stand-in keeps it from being made: a mkdir on
	 * the workspace's file system each, made while the child makes its
	 * first steps rather than before the clone. */
	if (!l->want_notify)
		ns_precreate(l->policy, l->made, (int)(sizeof l->made / sizeof l->made[0]));
	if (shadow_prepare(l->policy, l->err, sizeof l->err) < 0)
		return -1;
	if (l->after_clone != NULL)
		l->after_clone(l->after_clone_arg);
	char type = 'M';
	if (l->limits != NULL)
		limits_to_wire(l->limits, &w);
	struct iovec iov[2] = { { &type, 1 }, { &w, sizeof w } };
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };
	if (sendmsg(chan, &mh, MSG_NOSIGNAL) == (ssize_t)(1 + sizeof w) || errno == EPIPE || errno == ECONNRESET)
		return 0; /* EPIPE: the child is gone, and says why (or its end does) */
	snprintf(l->err, sizeof l->err, "launch: send the go to the child: %s", strerror(errno));
	return -1;
}

/* After the go, while the child makes its mounts: the seccomp filters,
 * compiled here so that the child only loads them. A filter that cannot
 * be built fails the launch (and ends the child) with its layer's
 * message. */
static int launch_filters(struct launch *l, struct sbx *s, int chan)
{
	if (!l->policy->sandboxed)
		return 0;
	int rc = seccomp_prepare(s);
	if (rc == 0 && l->want_notify && observer_compile == NULL)
		rc = sbx_failx(s, "observer", "not built into this sandmux");
	else if (rc == 0 && l->want_notify && observer_compile(l->policy, s->weak, launch_audited(s), &s->notify) < 0)
		rc = sbx_fail(s, "observer", "compile the seccomp listener's filter");
	if (rc == 0 && chan_send_filters(chan, &s->deny, &s->notify) < 0 && errno != EPIPE && errno != ECONNRESET)
		rc = sbx_fail(s, "launch", "send the seccomp filters to the child");
	if (rc < 0)
		snprintf(l->err, sizeof l->err, "%s", s->err);
	seccomp_prog_free(&s->deny);
	seccomp_prog_free(&s->notify);
	return rc;
}

static void launch_undo(struct launch *l)
{
	launch_kill(l->pid, l->weak);
	waitpid(l->pid, NULL, 0);
	l->pid = -1;
	launch_cleanup(l);
	if (l->notify_fd >= 0)
		close(l->notify_fd);
	if (l->proxy_fd >= 0)
		close(l->proxy_fd);
	if (l->pty_fd >= 0)
		close(l->pty_fd);
	if (l->status_fd >= 0)
		close(l->status_fd);
	l->notify_fd = l->proxy_fd = l->pty_fd = l->status_fd = -1;
}

/* Whether a failed clone means "no user namespaces here" (the kernel
 * or a sysctl forbids them, or the namespace limit is reached), rather
 * than a sandmux sandbox refusing a nested one. */
static bool launch_no_userns(int e)
{
	return (e == EPERM || e == ENOSPC || e == EINVAL || e == EUSERS) && getenv("SANDMUX_SANDBOX") == NULL;
}

/* The session temp dir named but not made (launch.h tmpdir_made): the
 * weaker sandbox's TMPDIR, on the host. mkdir fails if something took the
 * name since it was chosen. */
static int launch_weak_tmpdir(struct launch *l)
{
	const char *dir = l->policy->tmpdir;
	if (l->tmpdir_made == NULL || dir == NULL)
		return 0;
	if (mkdir(dir, 0700) < 0) {
		snprintf(l->err, sizeof l->err, "session temp dir: mkdir %s: %s", dir, strerror(errno));
		return -1;
	}
	*l->tmpdir_made = true;
	return 0;
}

/* The weaker sandbox (weak.c): a plain fork, after the checks that it
 * may run this policy; the proxy's listener is made here, on the host's
 * loopback at a free port, and the environment rebuilt to name it. */
static pid_t launch_weak(struct launch *l, struct sbx *s, char ***env)
{
	const char *why = launch_weak_refusal(l->policy, landlock_abi(), l->want_notify);
	/* capture mode's overlays need a mount namespace of its own */
	if (why == NULL && l->policy->capture)
		why = "capture: outsideWrites \"capture\" needs overlayfs in a user namespace, and this system allows no "
		      "user namespaces (see sandmux doctor)";
	if (why != NULL) {
		snprintf(l->err, sizeof l->err, "%s", why);
		return -1;
	}
	if (launch_weak_tmpdir(l) < 0)
		return -1;
	l->weak = s->weak = true;
	s->netns = false;
	if (l->want_proxy_listener) {
		if (weak_proxy_listener(l) < 0)
			return -1;
		s->proxy_port = l->proxy_port;
	}
	strv_free(*env);
	*env = s->envp = launch_env(l); /* TMPDIR and the proxy's port differ */
	if (*env == NULL) {
		snprintf(l->err, sizeof l->err, "environment: out of memory");
		return -1;
	}
	return (pid_t)syscall(SYS_clone, SIGCHLD, NULL, NULL, NULL, NULL);
}

static void launch_fail(struct launch *l, int sv[2], char **env, int status[2])
{
	close(sv[0]);
	close(sv[1]);
	strv_free(env);
	launch_cleanup(l);
	if (status[0] >= 0) {
		close(status[0]);
		close(status[1]);
	}
	if (l->proxy_fd >= 0)
		close(l->proxy_fd);
	l->proxy_fd = -1;
}

int launch_start(struct launch *l)
{
	const struct policy *p = l->policy;
	struct sbx s = { .l = l,
			 .p = p,
			 .uid = getuid(),
			 .gid = getgid(),
			 .empty_file = -1,
			 .empty_dir = -1,
			 .tty = l->tty,
			 .pty_master = -1,
			 .status_w = -1,
			 .listener = -1,
			 .devnull = -1 };
	int sv[2];
	unsigned long flags = SIGCHLD;
	l->err[0] = '\0';
	l->weak = false;
	l->proxy_secret[0] = '\0';
	if (p == NULL || l->argv == NULL || l->argv[0] == NULL) {
		snprintf(l->err, sizeof l->err, "launch: no policy or no command");
		return -1;
	}
	char **env = launch_env(l);
	if (env == NULL) {
		snprintf(l->err, sizeof l->err, "environment: out of memory");
		launch_cleanup(l);
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(l->err, sizeof l->err, "launch: socketpair: %s", strerror(errno));
		strv_free(env);
		launch_cleanup(l);
		return -1;
	}
	s.envp = env;
	int status[2] = { -1, -1 };
	if (p->sandboxed && l->want_status && pipe2(status, O_CLOEXEC) == 0)
		s.status_w = status[1];
	if (p->sandboxed) {
		flags |= CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID;
		s.netns = p->net.mode != NET_HOST;
		if (s.netns)
			flags |= CLONE_NEWNET;
	}
	/* A raw clone behaves like fork but can enter the new namespaces at
	 * once, so the child is pid 1 of its pid namespace. */
	pid_t pid = (pid_t)syscall(SYS_clone, flags, NULL, NULL, NULL, NULL);
	if (pid < 0 && p->sandboxed && launch_no_userns(errno))
		pid = launch_weak(l, &s, &env);
	if (pid < 0) {
		bool nested = errno == EPERM && getenv("SANDMUX_SANDBOX") != NULL;
		if (l->err[0] == '\0')
			snprintf(l->err, sizeof l->err, "namespaces: clone (user, mount, pid%s): %s%s",
				 s.netns ? ", net" : "", strerror(errno),
				 nested ? " (inside a sandmux sandbox, which allows no new user namespace)" : "");
		launch_fail(l, sv, env, status);
		return -1;
	}
	if (pid == 0) {
		if (status[0] >= 0)
			close(status[0]);
		close(sv[0]);
		s.chan = sv[1];
		launch_child(&s);
	}
	close(sv[1]);
	if (status[1] >= 0)
		close(status[1]);
	l->status_fd = status[0];
	l->pid = pid;
	int rc = launch_go(l, sv[0]);
	if (rc == 0)
		rc = launch_filters(l, &s, sv[0]);
	if (rc == 0)
		rc = launch_collect(l, sv[0]);
	close(sv[0]);
	strv_free(env);
	if (rc < 0)
		launch_undo(l);
	return rc;
}
