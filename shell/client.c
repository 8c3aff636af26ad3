/* client: the process on the person's terminal. It puts the terminal in
 * raw mode, forwards what is typed and every resize (SIGWINCH) to the
 * server, and writes what the server drew. It never interprets a pane's
 * output: the server sends only curses-drawn cells. */
#include "shell/client.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#include "backends/loop.h"
#include "backends/safefile.h"
#include "policy/paths.h"
#include "shell/home.h"
#include "shell/proto.h"
#include "shell/term-colors.h"

#define COLORS_WAIT_MS 2000 /* for a terminal that answers no DA1 (typed input is held meanwhile) */

struct attach {
	struct loop *loop;
	int sock, sig;
	struct buf in, out;
	struct watch *sw;
	bool done;
	int status;
	char why[512];
	char name[64];   /* the session's, from the socket's address */
	off_t log_start; /* server.log's size when attaching */
	struct term_colors colors;
	uint64_t colors_timer;
	bool tty_passed;       /* the server has the terminal (send_hello) */
	struct watch *stdin_w; /* NULL once the keys are handed over too */
};

int client_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof sa.sun_path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sa.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static void term_size(struct msg_size *sz)
{
	struct winsize ws = { 0 };
	if (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) < 0 || ws.ws_row == 0 || ws.ws_col == 0)
		ws = (struct winsize){ .ws_row = 24, .ws_col = 80 };
	*sz = (struct msg_size){ ws.ws_row, ws.ws_col };
}

static void on_sock(struct watch *w, int events, void *arg);

static void send_msg(struct attach *a, int type, const void *p, size_t len)
{
	proto_put(&a->out, (enum msg_type)type, p, len);
	int r = safefile_write_all(a->sock, buf_data(&a->out), a->out.len);
	buf_clear(&a->out);
	/* the server may have said why it closed: read that first */
	while (r < 0 && !a->done)
		on_sock(NULL, LOOP_IN, a);
}

/* The terminal's answers are in (or it gave none in time): the server
 * answers the panes' colour queries with them from now on. */
static void keys_hand_over(struct attach *a);

static void colors_send(struct attach *a)
{
	if (a->colors_timer != 0)
		timer_cancel(a->loop, a->colors_timer);
	a->colors_timer = 0;
	struct msg_colors m = { .known = a->colors.known };
	memcpy(m.rgb, a->colors.rgb, sizeof m.rgb);
	if (m.known != 0)
		send_msg(a, MSG_COLORS, &m, sizeof m);
	keys_hand_over(a);
}

static void colors_timeout(void *arg)
{
	struct attach *a = arg;
	a->colors_timer = 0;
	char held[TERM_HELD_MAX];
	size_t n = term_colors_stop(&a->colors, held);
	if (n > 0)
		send_msg(a, MSG_INPUT, held, n);
	colors_send(a);
}

/* Asks the terminal for its colours once, before anything is drawn. */
static void colors_ask(struct attach *a)
{
	const char *q = term_colors_query(&a->colors);
	if (safefile_write_all(STDOUT_FILENO, q, strlen(q)) < 0) {
		a->colors.waiting = false;
		return;
	}
	a->colors_timer = timer_add(a->loop, COLORS_WAIT_MS, colors_timeout, a);
}

static void on_stdin(struct watch *w, int events, void *arg)
{
	(void)w;
	(void)events;
	struct attach *a = arg;
	char buf[16384];
	ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		a->done = true;
		snprintf(a->why, sizeof a->why, "terminal closed");
		return;
	}
	if (!a->colors.waiting) {
		send_msg(a, MSG_INPUT, buf, (size_t)n);
		return;
	}
	char typed[sizeof buf + TERM_HELD_MAX];
	size_t len = term_colors_filter(&a->colors, buf, (size_t)n, typed);
	if (len > 0)
		send_msg(a, MSG_INPUT, typed, len);
	if (!a->colors.waiting)
		colors_send(a);
}

static void on_message(struct attach *a, const struct msg_hdr *h, const char *p)
{
	if (h->type == MSG_OUTPUT) {
		if (safefile_write_all(STDOUT_FILENO, p, h->len) < 0)
			a->done = true;
	} else if (h->type == MSG_EXIT) {
		a->done = true;
		int32_t st = 0;
		if (h->len >= sizeof st)
			memcpy(&st, p, sizeof st);
		a->status = st;
		snprintf(a->why, sizeof a->why, "%.*s", (int)(h->len >= sizeof st ? h->len - sizeof st : 0),
			 p + sizeof st);
	}
}

static void on_sock(struct watch *w, int events, void *arg)
{
	(void)w;
	(void)events;
	struct attach *a = arg;
	char buf[65536];
	ssize_t n = read(a->sock, buf, sizeof buf);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		a->done = true;
		if (a->why[0] == 0)
			snprintf(a->why, sizeof a->why, "lost the server");
		return;
	}
	buf_add(&a->in, buf, (size_t)n);
	struct msg_hdr h;
	const char *p;
	int r;
	while (!a->done && (r = proto_get(&a->in, &h, &p)) == 1) {
		on_message(a, &h, p);
		buf_drop(&a->in, sizeof h + h.len);
	}
}

static void on_signal(struct watch *w, int events, void *arg)
{
	(void)events;
	struct attach *a = arg;
	struct signalfd_siginfo si;
	while (read(watch_fd(w), &si, sizeof si) == sizeof si) {
		if (si.ssi_signo == SIGWINCH) {
			struct msg_size sz;
			term_size(&sz);
			send_msg(a, MSG_RESIZE, &sz, sizeof sz);
		} else {
			a->done = true;
			snprintf(a->why, sizeof a->why, "terminal hung up");
		}
	}
}

/* Once the terminal's colours are in (its answers are read here), the
 * server reads the keys from the terminal it was given, as tmux's does:
 * from then on this process only waits for the end and passes resizes. */
static void keys_hand_over(struct attach *a)
{
	if (!a->tty_passed || a->stdin_w == NULL || a->done)
		return;
	send_msg(a, MSG_TTY_INPUT, "", 0);
	watch_del(a->stdin_w);
	a->stdin_w = NULL;
}

/* Whether fd is the terminal stdin is. */
static bool same_terminal(int fd)
{
	struct stat in, t;
	return isatty(STDIN_FILENO) && fstat(STDIN_FILENO, &in) == 0 && fstat(fd, &t) == 0 && in.st_rdev == t.st_rdev;
}

/* The hello, with the terminal for the server to draw on (as tmux's
 * client passes its own): a description of it of its own, so that the
 * server's O_NONBLOCK does not reach this process's stdin and stdout nor
 * the shell's after it. Without one (output not a terminal), the server
 * sends the frames here to be written out. */
static void send_hello(struct attach *a, const struct buf *hello)
{
	char name[PATH_MAX];
	int tty = isatty(STDOUT_FILENO) && ttyname_r(STDOUT_FILENO, name, sizeof name) == 0
			  ? open(name, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
			  : -1;
	if (tty >= 0 && !isatty(tty)) {
		close(tty);
		tty = -1;
	}
	if (tty < 0) {
		send_msg(a, MSG_HELLO, buf_data(hello), hello->len);
		return;
	}
	proto_put(&a->out, MSG_HELLO, buf_data(hello), hello->len);
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int))];
	} ctl = { 0 };
	struct iovec iov = { .iov_base = buf_data(&a->out), .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = &ctl, .msg_controllen = sizeof ctl };
	struct cmsghdr *h = CMSG_FIRSTHDR(&mh);
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &tty, sizeof tty);
	/* its first byte carries the terminal; the rest goes as any message */
	ssize_t n;
	do
		n = sendmsg(a->sock, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	a->tty_passed = n == 1 && same_terminal(tty);
	close(tty);
	struct buf rest = { 0 };
	if (n == 1)
		buf_add(&rest, buf_data(&a->out) + 1, a->out.len - 1);
	else
		buf_add(&rest, buf_data(&a->out), a->out.len);
	buf_clear(&a->out);
	int r = safefile_write_all(a->sock, buf_data(&rest), rest.len);
	buf_free(&rest);
	while (r < 0 && !a->done)
		on_sock(NULL, LOOP_IN, a);
}

static int attach_loop(struct attach *a, const char *profile)
{
	const char *term = getenv("TERM");
	struct msg_hello h = { .version = PROTO_VERSION };
	term_size(&h.size);
	struct buf hello = { 0 };
	buf_add(&hello, &h, sizeof h);
	buf_add(&hello, term != NULL ? term : "", strlen(term != NULL ? term : "") + 1);
	buf_add(&hello, profile != NULL ? profile : "", strlen(profile != NULL ? profile : "") + 1);
	/* 24-bit colour, as terminals announce it (there is no terminfo way) */
	const char *ct = getenv("COLORTERM");
	bool tc = ct != NULL && (strcmp(ct, "truecolor") == 0 || strcmp(ct, "24bit") == 0);
	buf_add(&hello, tc ? "truecolor" : "", tc ? 10 : 1);
	colors_ask(a);
	send_hello(a, &hello);
	buf_free(&hello);
	a->stdin_w = watch_add(a->loop, STDIN_FILENO, LOOP_IN, on_stdin, a);
	struct watch *w[2] = {
		watch_add(a->loop, a->sock, LOOP_IN, on_sock, a),
		watch_add(a->loop, a->sig, LOOP_IN, on_signal, a),
	};
	bool ok = a->stdin_w != NULL && w[0] != NULL && w[1] != NULL;
	while (!a->done && ok)
		if (loop_once(a->loop, -1) < 0)
			break;
	watch_del(a->stdin_w);
	for (int i = 0; i < 2; i++)
		watch_del(w[i]);
	return a->status;
}

/* The session's name is its socket's: the server bound dir/NAME. */
static void attach_name(struct attach *a)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof sa;
	a->name[0] = '\0';
	if (getpeername(a->sock, (struct sockaddr *)&sa, &len) < 0 || len <= offsetof(struct sockaddr_un, sun_path))
		return;
	sa.sun_path[sizeof sa.sun_path - 1] = '\0';
	const char *slash = strrchr(sa.sun_path, '/');
	snprintf(a->name, sizeof a->name, "%.63s", slash != NULL ? slash + 1 : sa.sun_path);
}

static int log_open_read(void)
{
	char path[PATH_MAX];
	if (sm_path(home_env(), SM_PATH_SERVER_LOG, path, sizeof path) < 0)
		return -1;
	return open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
}

/* The last line about the session's end ("exiting: ...", "died ...",
 * "cannot ...") the server wrote into server.log since we attached,
 * after its "TIME NAME: " prefix; empty when it wrote none (SIGKILL). */
static void attach_log_reason(const struct attach *a, char *out, size_t cap)
{
	out[0] = '\0';
	int fd = log_open_read();
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= a->log_start || a->name[0] == '\0') {
		if (fd >= 0)
			close(fd);
		return;
	}
	off_t from = st.st_size - a->log_start > 65536 ? st.st_size - 65536 : a->log_start;
	char buf[65537];
	ssize_t n = pread(fd, buf, sizeof buf - 1, from);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	char key[80];
	snprintf(key, sizeof key, " %s: ", a->name);
	for (char *line = buf, *next; line != NULL && *line; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		char *k = strstr(line, key), *what = k != NULL ? k + strlen(key) : NULL;
		if (k != NULL && k == strchr(line, ' ') &&
		    (strncmp(what, "exiting", 7) == 0 || strncmp(what, "died", 4) == 0 ||
		     strncmp(what, "cannot", 6) == 0))
			snprintf(out, cap, "%s", what);
	}
}

/* The session is gone while the person looked at it: the shell they see
 * now is the one they started sandmux from, with no sandbox around it,
 * and it may look exactly like the one in the pane. Say so, loudly. */
static void attach_say_ended(const struct attach *a)
{
	char reason[640];
	attach_log_reason(a, reason, sizeof reason);
	if (reason[0] == '\0')
		snprintf(reason, sizeof reason, "%s%s", a->why,
			 strcmp(a->why, "lost the server") == 0
				 ? " (no reason logged: killed with SIGKILL, or out of memory?)"
				 : "");
	fprintf(stderr,
		"\r\n\033[1;31msandmux: the sandmux server%s%s ended: %s\033[0m\r\n"
		"\033[1;31msandmux: the shell you see now is NOT sandboxed\033[0m\r\n",
		a->name[0] ? " of session " : "", a->name, reason);
}

int client_attach(int sock, const char *profile)
{
	struct termios saved, raw;
	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved) < 0) {
		fprintf(stderr, "sandmux: not a terminal (attaching needs one; `sandmux new` works without)\n");
		close(sock);
		return 1;
	}
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGWINCH);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	struct attach a = { .sock = sock, .sig = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK), .loop = loop_new() };
	if (a.loop == NULL || a.sig < 0) {
		fprintf(stderr, "sandmux: cannot attach: %s\n", strerror(errno));
		return 1;
	}
	attach_name(&a);
	int logfd = log_open_read();
	struct stat st;
	a.log_start = logfd >= 0 && fstat(logfd, &st) == 0 ? st.st_size : 0;
	if (logfd >= 0)
		close(logfd);
	raw = saved;
	cfmakeraw(&raw);
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw);
	int status = attach_loop(&a, profile);
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
	loop_free(a.loop);
	close(a.sig);
	close(sock);
	buf_free(&a.in);
	buf_free(&a.out);
	if (strncmp(a.why, "detached", 8) == 0)
		printf("[%s]\n", a.why);
	else if (status != 0) /* this client alone was let go: refused, a bad message */
		fprintf(stderr, "sandmux: %s\n", a.why);
	else /* the server said it ends, or went away without a word */
		attach_say_ended(&a);
	return status;
}

int client_request(int sock, int argc, char **argv, char *reply, size_t cap)
{
	char cwd[4096];
	if (getcwd(cwd, sizeof cwd) == NULL)
		snprintf(cwd, sizeof cwd, "/");
	struct buf msg = { 0 }, out = { 0 }, in = { 0 };
	buf_add(&msg, cwd, strlen(cwd) + 1);
	for (int i = 0; i < argc; i++)
		buf_add(&msg, argv[i], strlen(argv[i]) + 1);
	proto_put(&out, MSG_COMMAND, buf_data(&msg), msg.len);
	int status = -1;
	snprintf(reply, cap, "no answer from the server\n");
	if (safefile_write_all(sock, buf_data(&out), out.len) == 0) {
		char buf[65536];
		ssize_t n;
		struct msg_hdr h;
		const char *p = NULL;
		int r = 0;
		while ((r = proto_get(&in, &h, &p)) == 0 && (n = read(sock, buf, sizeof buf)) > 0)
			buf_add(&in, buf, (size_t)n);
		if (r == 1 && h.type == MSG_REPLY && h.len >= sizeof(int32_t)) {
			int32_t st;
			memcpy(&st, p, sizeof st);
			status = st;
			size_t len = h.len - sizeof st < cap - 1 ? h.len - sizeof st : cap - 1;
			memcpy(reply, p + sizeof st, len);
			reply[len] = 0;
		}
	}
	close(sock);
	buf_free(&msg);
	buf_free(&out);
	buf_free(&in);
	return status;
}

int client_command(int sock, int argc, char **argv)
{
	char reply[65536];
	int status = client_request(sock, argc, argv, reply, sizeof reply);
	if (status < 0) {
		fprintf(stderr, "sandmux: %s", reply);
		return 1;
	}
	fputs(reply, status == 0 ? stdout : stderr);
	return status;
}

/* One message of the subscription: an event is printed as a line in one
 * write (a reader of a pipe never sees half of one). 1: go on, 0: done,
 * -1: failed. */
static int events_message(const struct msg_hdr *h, const char *p, bool *accepted)
{
	if (h->type == MSG_REPLY && !*accepted) {
		*accepted = true;
		return 1;
	}
	if (h->type == MSG_EXIT) {
		int32_t st = -1;
		if (h->len >= sizeof st)
			memcpy(&st, p, sizeof st);
		return st == 0 ? 0 : -1;
	}
	if (h->type != MSG_EVENT || !*accepted)
		return -1;
	struct buf line = { 0 };
	buf_add(&line, p, h->len);
	buf_add(&line, "\n", 1);
	int r = safefile_write_all(STDOUT_FILENO, buf_data(&line), line.len);
	buf_free(&line);
	return r < 0 ? 0 : 1; /* the reader went away: a normal end */
}

/* Reads the socket until the subscription ends. stdout is watched too,
 * so that a reader that closes the pipe ends this at once, not at the
 * next event. */
static int events_loop(int sock, struct buf *in, bool *accepted)
{
	struct pollfd pf[2] = { { .fd = sock, .events = POLLIN }, { .fd = STDOUT_FILENO } };
	for (;;) {
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (pf[1].revents & (POLLERR | POLLHUP | POLLNVAL))
			return 0;
		char buf[65536];
		ssize_t n = pf[0].revents != 0 ? read(sock, buf, sizeof buf) : 0;
		if (pf[0].revents == 0 || (n < 0 && errno == EINTR))
			continue;
		if (n <= 0)
			return *accepted ? 0 : -1;
		buf_add(in, buf, (size_t)n);
		struct msg_hdr h;
		const char *p;
		int r, go = 1;
		while (go == 1 && (r = proto_get(in, &h, &p)) == 1) {
			go = events_message(&h, p, accepted);
			buf_drop(in, sizeof h + h.len);
		}
		if (go != 1 || r < 0)
			return go == 0 ? 0 : -1;
	}
}

int client_events(int sock, int pane, unsigned kinds)
{
	signal(SIGPIPE, SIG_IGN); /* a gone reader is EPIPE, handled */
	struct {
		int32_t pane;
		uint32_t kinds;
	} filter = { pane, kinds };
	struct buf out = { 0 }, in = { 0 };
	proto_put(&out, MSG_SUBSCRIBE, &filter, sizeof filter);
	bool accepted = false;
	int r = safefile_write_all(sock, buf_data(&out), out.len) < 0 ? -1 : events_loop(sock, &in, &accepted);
	close(sock);
	buf_free(&out);
	buf_free(&in);
	if (r < 0)
		fprintf(stderr, "sandmux: %s\n", accepted ? "lost the server" : "the server refused the subscription");
	return r < 0 ? 1 : 0;
}
