/* cmd-request: `sandmux request` and `sandmux why`, run inside a pane's
 * sandbox. They talk to the server over the pane's request channel
 * ($SANDMUX_REQUEST_FD, backends/reqchan.h), which only asks: the answer
 * comes on a socketpair of this process's own, passed with the request.
 *
 * request: exits with the command's status once the person approved and
 * it ran; 126 with one line on stderr when refused, denied or timed out.
 * On a terminal, the command runs on a PTY of its own in its sandbox,
 * whose master comes back here ("pty"): this process relays it to and
 * from its terminal (raw, as `sandmux run` does: run-tty.h) and passes
 * on the terminal's size changes, until the command's status comes. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/loop.h"
#include "backends/reqchan.h"
#include "shell/cmd.h"
#include "shell/run-tty.h"

#define REFUSED 126

static int fail(const char *verb, const char *why)
{
	fprintf(stderr, "sandmux: %s: %s\n", verb, why);
	return REFUSED;
}

static int channel(void)
{
	const char *v = getenv(REQCHAN_ENV);
	struct stat st;
	if (v == NULL || strcmp(v, "4") != 0 || fstat(LAUNCH_REQUEST_FD, &st) < 0 || !S_ISSOCK(st.st_mode))
		return -1;
	return LAUNCH_REQUEST_FD;
}

/* A relative path is the caller's cwd's; a trailing / is kept (a new
 * directory). */
static const char *absolute(const char *path, const char *cwd, char *buf, size_t cap)
{
	if (path[0] == '/')
		return path;
	if ((size_t)snprintf(buf, cap, "%s/%s", cwd, path) >= cap)
		return NULL;
	return buf;
}

static int parse(int argc, char **argv, struct reqchan_msg *m, char paths[][PATH_MAX], const char *cwd)
{
	int i = 1;
	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int g = strcmp(o, "--write") == 0  ? REQCHAN_WRITE
			: strcmp(o, "--read") == 0 ? REQCHAN_READ
			: strcmp(o, "--net") == 0  ? REQCHAN_NET
						   : -1;
		if (v == NULL || (g < 0 && strcmp(o, "--reason") != 0)) {
			fprintf(stderr, "sandmux: request: %s: unknown option or no value\n", o);
			return -1;
		}
		i++;
		if (g < 0) {
			m->reason = v;
			continue;
		}
		if (m->ngrants >= REQCHAN_MAX_GRANTS) {
			fprintf(stderr, "sandmux: request: at most %d grants\n", REQCHAN_MAX_GRANTS);
			return -1;
		}
		if (g != REQCHAN_NET && (v = absolute(v, cwd, paths[m->ngrants], PATH_MAX)) == NULL) {
			fprintf(stderr, "sandmux: request: %s: path too long\n", argv[i]);
			return -1;
		}
		m->grant[m->ngrants].kind = (enum reqchan_grant)g;
		m->grant[m->ngrants++].value = v;
	}
	if (i + 1 >= argc) {
		fprintf(stderr,
			"usage: sandmux request [--write PATH] [--read PATH] [--net HOST[:PORT]] [--reason TEXT] "
			"-- CMD [ARG...]\n");
		return -1;
	}
	for (i++; i < argc && m->argc < REQCHAN_MAX_ARGS; i++)
		m->argv[m->argc++] = argv[i];
	return i < argc ? -1 : 0;
}

/* Sends the message with the peer of a fresh answer socket (and, for a
 * request, stdio); the answer socket, or -1. */
static int ask(int chan, const char *buf, size_t len, bool stdio)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	int fds[REQCHAN_FDS] = { sv[1], 0, 1, 2 };
	int r;
	while ((r = reqchan_send(chan, buf, len, fds, stdio ? REQCHAN_FDS : 1)) < 0 && errno == EAGAIN) {
		struct pollfd pf = { chan, POLLOUT, 0 };
		poll(&pf, 1, 1000);
	}
	close(sv[1]);
	if (r < 0) {
		close(sv[0]);
		return -1;
	}
	return sv[0];
}

/* One answer: 1 and its type and text, 0 at end of file, -1. */
static int answer(int sock, char *buf, size_t cap, const char **type, const char **text)
{
	ssize_t n;
	do
		n = recv(sock, buf, cap, 0);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return n == 0 ? 0 : -1;
	return reqchan_reply_parse(buf, (size_t)n, type, text) == 0 ? 1 : -1;
}

static int why(int chan)
{
	char buf[REQCHAN_MAX_FIELD + 64];
	struct reqchan_msg m = { .kind = REQCHAN_WHY };
	size_t len = reqchan_build(&m, buf, sizeof buf);
	int sock = len > 0 ? ask(chan, buf, len, false) : -1;
	if (sock < 0)
		return fail("why", "cannot ask the host");
	const char *type, *text;
	int r;
	while ((r = answer(sock, buf, sizeof buf, &type, &text)) == 1 && strcmp(type, "line") == 0)
		printf("%s\n", text);
	close(sock);
	if (r == 1 && strcmp(type, "refused") == 0)
		return fail("why", text);
	return r == 1 && strcmp(type, "end") == 0 ? 0 : fail("why", "the host did not answer");
}

/* Waiting for the answer to a request, and relaying the command's PTY
 * once it runs. */
struct req_wait {
	struct loop *loop;
	int sock, sfd;
	char *buf;
	bool relay; /* tty holds the command's PTY */
	struct run_tty tty;
	int code; /* -1 until the request has ended */
	char why[REQCHAN_MAX_FIELD + 1];
};

/* The command's PTY: relayed to the terminal its stdin (else its stdout)
 * is; output goes to stdout when that is the terminal too. */
static void relay_start(struct req_wait *w, int master)
{
	int outer = isatty(STDIN_FILENO) ? STDIN_FILENO : STDOUT_FILENO;
	if (w->relay || run_tty_open(&w->tty, outer, false) < 0) {
		close(master);
		return;
	}
	w->tty.to = isatty(STDOUT_FILENO) ? STDOUT_FILENO : outer;
	run_tty_attach(&w->tty, master);
	w->relay = true;
	if (run_tty_start(&w->tty, w->loop) < 0)
		fprintf(stderr, "sandmux: request: %s\n", w->tty.err);
}

static void on_answer(struct watch *wt, int events, void *arg)
{
	struct req_wait *w = arg;
	int fds[REQCHAN_FDS], nfds = 0;
	pid_t pid;
	const char *type, *text;
	(void)events;
	ssize_t n = reqchan_recv(watch_fd(wt), w->buf, REQCHAN_MAX_MSG, fds, &nfds, &pid);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0 || reqchan_reply_parse(w->buf, (size_t)n, &type, &text) < 0) {
		for (int i = 0; i < nfds; i++)
			close(fds[i]);
		snprintf(w->why, sizeof w->why, "the host ended the request");
		w->code = REFUSED;
		return;
	}
	if (strcmp(type, "pty") == 0 && nfds == 1) {
		relay_start(w, fds[0]);
		return;
	}
	for (int i = 0; i < nfds; i++)
		close(fds[i]);
	if (strcmp(type, "exit") == 0)
		w->code = atoi(text);
	else {
		snprintf(w->why, sizeof w->why, "%s",
			 strcmp(type, "refused") == 0 ? text : "the host ended the request");
		w->code = REFUSED;
	}
}

/* SIGWINCH: the new size to the command's PTY. Another signal ends the
 * wait (the terminal restored); the host then ends the command. */
static void on_signal(struct watch *wt, int events, void *arg)
{
	struct req_wait *w = arg;
	struct signalfd_siginfo si;
	(void)events;
	while (read(watch_fd(wt), &si, sizeof si) == (ssize_t)sizeof si) {
		if (si.ssi_signo == SIGWINCH && w->relay)
			run_tty_resize(&w->tty);
		else if (si.ssi_signo != SIGWINCH)
			w->code = 128 + (int)si.ssi_signo;
	}
}

static int wait_answer(int sock, char *buf)
{
	struct req_wait w = { .sock = sock, .sfd = -1, .buf = buf, .code = -1 };
	sigset_t set, old;
	sigemptyset(&set);
	int sigs[] = { SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaddset(&set, sigs[i]);
	sigprocmask(SIG_BLOCK, &set, &old);
	w.loop = loop_new();
	w.sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (w.loop == NULL || w.sfd < 0 || watch_add(w.loop, sock, LOOP_IN, on_answer, &w) == NULL ||
	    watch_add(w.loop, w.sfd, LOOP_IN, on_signal, &w) == NULL) {
		snprintf(w.why, sizeof w.why, "event loop: %s", strerror(errno));
		w.code = REFUSED;
	}
	while (w.code < 0)
		loop_once(w.loop, -1);
	if (w.relay) {
		run_tty_drain(&w.tty);
		run_tty_close(&w.tty);
	}
	if (w.sfd >= 0)
		close(w.sfd);
	loop_free(w.loop);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (w.why[0] != '\0')
		return fail("request", w.why);
	return w.code;
}

static int request(int chan, int argc, char **argv)
{
	static char paths[REQCHAN_MAX_GRANTS][PATH_MAX];
	char cwd[PATH_MAX], *buf = malloc(REQCHAN_MAX_MSG);
	struct reqchan_msg m = { .kind = REQCHAN_REQUEST };
	if (buf == NULL || getcwd(cwd, sizeof cwd) == NULL)
		return fail("request", "no working directory");
	m.cwd = cwd;
	if (parse(argc, argv, &m, paths, cwd) < 0)
		return 2;
	size_t len = reqchan_build(&m, buf, REQCHAN_MAX_MSG);
	if (len == 0)
		return fail("request", "the request is too long, or a path or host is not valid");
	int sock = ask(chan, buf, len, true);
	if (sock < 0)
		return fail("request", "cannot ask the host");
	int code = wait_answer(sock, buf);
	close(sock);
	free(buf);
	return code;
}

int cmd_request(int argc, char **argv)
{
	bool is_why = strcmp(argv[0], "why") == 0;
	int chan = channel();
	if (chan < 0)
		return fail(argv[0], "no request channel here (run it inside a sandboxed sandmux pane)");
	return is_why ? why(chan) : request(chan, argc, argv);
}
