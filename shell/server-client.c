/* server-client: one connection on the session socket. A client either
 * attaches (MSG_HELLO, then input and resizes; the server sends drawn
 * output), runs one command (MSG_COMMAND, one MSG_REPLY, closed),
 * subscribes to events (MSG_SUBSCRIBE, then only listens: control.c) or
 * speaks the control interface (JSON lines from its first byte '{':
 * ctl.c). A
 * client that sends anything malformed is dropped with a log line; losing
 * a client never touches the session. */
#include "shell/mux.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "backends/bufsock.h"
#include "backends/loop.h"
#include "shell/proto.h"

#define READ_MAX 65536

static void on_client(struct watch *w, int events, void *arg);

void client_accept(struct server *s)
{
	int fd = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	struct ucred cred;
	socklen_t len = sizeof cred;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.uid != getuid()) {
		server_log(s, "refused a connection from uid %d", (int)cred.uid);
		close(fd);
		return;
	}
	const char *why = peer_refusal(s, cred.pid);
	if (why != NULL) {
		server_log(s, "refused a connection from pid %d: %s", (int)cred.pid, why);
		close(fd);
		return;
	}
	struct client *c = calloc(1, sizeof *c);
	if (c == NULL) {
		close(fd);
		return;
	}
	c->srv = s;
	c->fd = fd;
	c->tty = -1;
	c->w = watch_add(s->loop, fd, LOOP_IN, on_client, c);
	c->next = s->clients;
	s->clients = c;
}

static void client_flush(struct client *c)
{
	if (bufsock_send(&c->out, c->fd) < 0) {
		client_drop(c, NULL);
		return;
	}
	c->srv->hooks->caught_up(c);
	if (c->ctl && c->in.len > 0 && !client_behind(c)) {
		struct server *s = c->srv;
		s->hooks->ctl_input(c); /* the requests that waited for it to read */
		if (!client_alive(s, c))
			return;
	}
	if (c->full && c->out.len == 0 && c->attached)
		server_redraw(c->srv, false); /* it skipped frames while behind */
	if (c->closing && c->out.len == 0) {
		client_drop(c, NULL);
		return;
	}
	watch_set(c->w, client_reading(c) | (c->out.len > 0 ? LOOP_OUT : 0));
}

static int valid_size(const struct msg_size *sz)
{
	return sz->rows > 0 && sz->rows < 10000 && sz->cols > 0 && sz->cols < 10000;
}

static void client_hello(struct client *c, const char *p, size_t len)
{
	struct msg_hello h;
	const char *str[3] = { "", "", "" };
	int nstr = len < sizeof h ? -1 : proto_strings(p + sizeof h, len - sizeof h, str, 3);
	if (len < sizeof h || (memcpy(&h, p, sizeof h), !valid_size(&h.size)) || nstr < 2 ||
	    h.version != PROTO_VERSION || c->attached) {
		server_log(c->srv, "client %d: malformed hello; dropped", c->fd);
		client_fail(c, "protocol error");
		return;
	}
	if (str[1][0] != 0 && strcmp(str[1], c->srv->profile) != 0) {
		char why[256];
		snprintf(why, sizeof why,
			 "session \"%s\" runs with profile \"%s\"; a session keeps its profile for life "
			 "(attach without --sandbox, or start another session)",
			 c->srv->name, c->srv->profile);
		client_fail(c, why);
		return;
	}
	char err[256];
	const char *term = str[0][0] ? str[0] : "xterm-256color";
	bool truecolor = strcmp(str[2], "truecolor") == 0; /* the client's COLORTERM */
	struct server *s = c->srv;
	for (int i = 0; i < s->nparked && c->ui == NULL; i++)
		if (ui_reuse(s->parked[i], term, truecolor, h.size.rows, h.size.cols)) {
			c->ui = s->parked[i];
			s->parked[i] = s->parked[--s->nparked];
		}
	if (c->ui == NULL)
		c->ui = ui_new(term, truecolor, h.size.rows, h.size.cols, err, sizeof err);
	if (c->ui == NULL) {
		client_fail(c, err);
		return;
	}
	c->attached = true;
	c->rows = h.size.rows;
	c->cols = h.size.cols;
	c->full = true;
	server_log(c->srv, "client %d attached (%dx%d, %s)", c->fd, c->cols, c->rows, str[0]);
	malloc_trim(0); /* reading terminfo left free heap behind */
	if (c->srv->cfg_err[0])
		client_message(c, "%s", c->srv->cfg_err);
	session_resize(c->srv);
	server_redraw(c->srv, false);
}

/* The attached terminal's own colours: every pane answers its programs'
 * OSC 10/11/12 queries with them from now on (the latest client's). */
static void client_colors(struct client *c, const char *p, size_t len)
{
	struct msg_colors m;
	if (len != sizeof m || !c->attached)
		return;
	memcpy(&m, p, sizeof m);
	struct server *s = c->srv;
	for (int i = 0; i < 3; i++)
		if (m.known & (1u << i)) {
			s->term_rgb[i] = m.rgb[i] & 0xffffff;
			s->term_known |= 1u << i;
		}
	for (struct window *w = s->windows; w != NULL; w = w->next)
		for (struct pane *pn = w->panes; pn != NULL; pn = pn->next)
			pane_osc_colors(pn);
}

static void client_resize(struct client *c, const char *p, size_t len)
{
	struct msg_size sz;
	if (len != sizeof sz || (memcpy(&sz, p, sizeof sz), !valid_size(&sz)) || !c->attached) {
		server_log(c->srv, "client %d: malformed resize; dropped", c->fd);
		client_fail(c, "protocol error");
		return;
	}
	c->rows = sz.rows;
	c->cols = sz.cols;
	ui_resize(c->ui, sz.rows, sz.cols);
	c->full = true;
	session_resize(c->srv);
	server_redraw(c->srv, false);
}

/* Cuts typed bytes into keys; an incomplete escape sequence waits for the
 * next read. */
/* Hands on every whole key in c->keys; with `late`, the first byte of
 * what is left counts as a key of its own. Returns false when a key
 * dropped the client. */
static bool client_keys(struct client *c, bool late)
{
	size_t at = 0;
	struct server *s = c->srv;
	while (at < c->keys.len) {
		struct key k;
		size_t n = keys_next(buf_data(&c->keys) + at, c->keys.len - at, &k);
		if (n == 0 && late) {
			n = keys_next(buf_data(&c->keys) + at, 1, &k); /* ESC alone: Escape */
			if (n == 0)
				n = 1, k = (struct key){ .kind = KEY_UNKNOWN };
			late = false;
		}
		if (n == 0)
			break;
		c->srv->hooks->key(c, &k, buf_data(&c->keys) + at, n);
		at += n;
		if (!client_alive(s, c) || c->closing)
			return false;
	}
	buf_drop(&c->keys, at);
	return true;
}

/* A key that began an escape sequence (ESC [, ESC O, a UTF-8 lead byte)
 * and had nothing after it for a while was typed as it stands: M-[ or
 * Escape then [, as tmux's escape-time decides. */
#define KEYS_LATE_MS 50
static void client_keys_late(void *arg)
{
	struct client *c = arg;
	c->keys_timer = 0;
	while (c->keys.len > 0)
		if (!client_keys(c, true))
			return;
}

static void client_input(struct client *c, const char *p, size_t len)
{
	if (!c->attached) {
		client_fail(c, "protocol error");
		return;
	}
	buf_add(&c->keys, p, len);
	if (!client_keys(c, false))
		return;
	if (c->keys_timer != 0)
		timer_cancel(c->srv->loop, c->keys_timer);
	c->keys_timer = c->keys.len > 0 ? timer_add(c->srv->loop, KEYS_LATE_MS, client_keys_late, c) : 0;
}

/* Keys read from the client's terminal itself (client-io.c, on_tty). */
static void client_tty_keys(struct client *c, const char *p, size_t len)
{
	c->srv->last_input = loop_now_ms();
	client_input(c, p, len);
}

static void client_command(struct client *c, const char *p, size_t len)
{
	const char *argv[COMMAND_ARGS_MAX + 1];
	int argc = proto_strings(p, len, argv, COMMAND_ARGS_MAX);
	if (argc >= 0)
		argv[argc] = NULL; /* `new` execs the tail */
	if (argc < 2) {
		server_log(c->srv, "client %d: malformed command; dropped", c->fd);
		client_fail(c, "protocol error");
		return;
	}
	struct buf reply = { 0 };
	int32_t status = c->srv->hooks->command(c->srv, argc - 1, argv + 1, argv[0], &reply);
	struct buf msg = { 0 };
	buf_add(&msg, &status, sizeof status);
	buf_add(&msg, buf_data(&reply), reply.len);
	client_send(c, MSG_REPLY, buf_data(&msg), msg.len);
	buf_free(&msg);
	buf_free(&reply);
	c->closing = true;
}

/* Returns false when the client was dropped. */
static bool client_dispatch(struct client *c)
{
	struct msg_hdr h;
	const char *p;
	int r;
	while ((r = proto_get(&c->in, &h, &p)) == 1) {
		struct server *s = c->srv;
		switch (c->subscribed ? 0u : h.type) { /* a subscriber only listens */
		case MSG_HELLO:
			client_hello(c, p, h.len);
			break;
		case MSG_INPUT:
			s->last_input = loop_now_ms();
			client_input(c, p, h.len);
			break;
		case MSG_COLORS:
			client_colors(c, p, h.len);
			break;
		case MSG_TTY_INPUT:
			if (c->attached && c->tty >= 0) {
				c->tty_input = client_tty_keys;
				client_tty_watch(c);
			}
			break;
		case MSG_RESIZE:
			client_resize(c, p, h.len);
			break;
		case MSG_COMMAND:
			client_command(c, p, h.len);
			break;
		case MSG_SUBSCRIBE:
			if (c->srv->hooks->subscribe(c, p, h.len) < 0)
				client_fail(c, "protocol error");
			break;
		default:
			server_log(s, "client %d: unexpected message %u; dropped", c->fd, h.type);
			client_fail(c, "protocol error");
			return false;
		}
		if (!client_alive(s, c))
			return false;
		buf_drop(&c->in, sizeof h + h.len);
	}
	if (r < 0) {
		server_log(c->srv, "client %d: malformed message (type %u, %u bytes); dropped", c->fd, h.type, h.len);
		client_fail(c, "protocol error");
		return false;
	}
	return true;
}

/* A read of the client's socket; a terminal passed before it attached
 * is kept (one, and only a terminal: frames are all it is given). */
static ssize_t client_read(struct client *c, char *buf, size_t len)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int) * 4)];
	} ctl;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = &ctl, .msg_controllen = sizeof ctl };
	ssize_t n = recvmsg(c->fd, &mh, MSG_CMSG_CLOEXEC);
	for (struct cmsghdr *h = CMSG_FIRSTHDR(&mh); n >= 0 && h != NULL; h = CMSG_NXTHDR(&mh, h)) {
		if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS)
			continue;
		size_t nfd = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < nfd; i++) {
			int fd;
			memcpy(&fd, CMSG_DATA(h) + i * sizeof fd, sizeof fd);
			if (c->tty < 0 && !c->attached && isatty(fd) && fcntl(fd, F_SETFL, O_NONBLOCK) == 0)
				c->tty = fd;
			else
				close(fd);
		}
	}
	return n;
}

static void on_client(struct watch *w, int events, void *arg)
{
	(void)w;
	struct client *c = arg;
	if (events & LOOP_OUT) {
		struct server *s = c->srv;
		client_flush(c);
		if (!client_alive(s, c))
			return;
	}
	if (!(events & (LOOP_IN | LOOP_ERR)))
		return;
	char buf[READ_MAX];
	ssize_t n = client_read(c, buf, sizeof buf);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n == 0 && c->ctl && !c->ctl_eof && (c->out.len > 0 || c->subscribed)) {
		/* a control client that is done asking still gets its answers,
		 * and a subscriber its events, until it closes its end too */
		c->ctl_eof = true;
		c->closing = !c->subscribed;
		watch_set(c->w, c->out.len > 0 ? LOOP_OUT : 0);
		return;
	}
	if (n <= 0) {
		server_log(c->srv, "client %d went away", c->fd);
		client_drop(c, NULL);
		return;
	}
	/* the control interface's JSON lines: no framed message starts with '{' */
	if (c->in.len == 0 && !c->attached && !c->subscribed && !c->ctl && buf[0] == '{')
		c->ctl = true;
	buf_add(&c->in, buf, (size_t)n);
	if (c->ctl) {
		struct server *s = c->srv;
		c->srv->hooks->ctl_input(c);
		if (client_alive(s, c) && c->out.len > 0)
			client_flush(c);
		return;
	}
	if (client_dispatch(c) && c->out.len > 0)
		client_flush(c);
}
