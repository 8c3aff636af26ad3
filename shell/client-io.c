/* client-io: what the server sends a client, and a client's end: the
 * bottom of server-client.c, which every file that answers or draws for
 * a client calls (the dispatcher above it calls them all). */
#include "shell/mux.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "backends/bufsock.h"
#include "backends/loop.h"
#include "shell/mode.h"
#include "shell/proto.h"

#define OUT_HIGH (4u << 20) /* a client this far behind gets no new frames */

bool client_alive(const struct server *s, const struct client *c)
{
	for (const struct client *x = s->clients; x != NULL; x = x->next)
		if (x == c)
			return true;
	return false;
}

static void sink_buf(void *arg, const char *data, size_t len)
{
	buf_add(arg, data, len);
}

static void client_end(struct client *c, int32_t status, const char *why);
static void tty_close(struct client *c);

void client_drop(struct client *c, const char *why)
{
	client_end(c, 0, why);
}

void client_fail(struct client *c, const char *why)
{
	client_end(c, 1, why);
}

static void client_end(struct client *c, int32_t status, const char *why)
{
	struct server *s = c->srv;
	for (struct client **p = &s->clients; *p != NULL; p = &(*p)->next)
		if (*p == c) {
			*p = c->next;
			break;
		}
	if (c->tty >= 0) {
		/* what the terminal has not taken goes through the client now,
		 * before the tail: nothing is written to it from here after */
		struct buf rest = c->tty_out;
		c->tty_out = (struct buf){ 0 };
		tty_close(c);
		client_output(c, buf_data(&rest), rest.len);
		buf_free(&rest);
	}
	if (c->ui != NULL) {
		/* leave the client's terminal as it was: out of curses, mouse off */
		struct buf tail = { 0 };
		if (s->nparked < MUX_MAX_PARKED) {
			ui_park(c->ui, sink_buf, &tail);
			s->parked[s->nparked++] = c->ui;
		} else {
			ui_free(c->ui, sink_buf, &tail);
		}
		client_output(c, buf_data(&tail), tail.len);
		buf_free(&tail);
	}
	if (why != NULL) {
		struct buf msg = { 0 };
		buf_add(&msg, &status, sizeof status);
		buf_addstr(&msg, why);
		proto_put(&c->out, MSG_EXIT, buf_data(&msg), msg.len);
		buf_free(&msg);
		/* best effort: the client may be gone already */
		if (write(c->fd, buf_data(&c->out), c->out.len) < 0)
			(void)0;
	}
	if (c->keys_timer != 0)
		timer_cancel(s->loop, c->keys_timer);
	if (c->mode != NULL && c->mode->exit != NULL)
		c->mode->exit(c); /* what the modes hold */
	if (c->mode_under != NULL && c->mode_under->exit != NULL)
		c->mode_under->exit(c);
	watch_del(c->w);
	close(c->fd);
	buf_free(&c->in);
	buf_free(&c->out);
	buf_free(&c->keys);
	free(c);
	if (s->rows > 0)
		s->hooks->resize(s); /* session_resize: the session is above this file */
}

/* LOOP_IN, unless a control client has said all it will say, or has not
 * read the answers it has: then its requests wait in the socket (ctl.c
 * stops at the same mark), so a client that asks and never reads cannot
 * grow the server. */
int client_reading(const struct client *c)
{
	return c->ctl_eof || (c->ctl && client_behind(c)) ? 0 : LOOP_IN;
}

void client_send(struct client *c, int type, const void *data, size_t len)
{
	proto_put(&c->out, (enum msg_type)type, data, len);
	watch_set(c->w, client_reading(c) | LOOP_OUT);
}

void client_output(struct client *c, const char *data, size_t len)
{
	if (c->tty >= 0) {
		buf_add(&c->tty_out, data, len);
		return;
	}
	/* split into messages the client accepts */
	while (len > 0) {
		size_t n = len > MSG_MAX ? MSG_MAX : len;
		proto_put(&c->out, MSG_OUTPUT, data, n);
		data += n;
		len -= n;
	}
}

static void tty_flush(struct client *c);

/* The terminal took more, or has keys (read here once the client handed
 * them over, as tmux's server reads them: the client is not woken). One
 * that hung up is let go: the client sees it gone too, and ends. */
static void on_tty(struct watch *w, int events, void *arg)
{
	(void)w;
	struct client *c = arg;
	if (events & LOOP_OUT) {
		tty_flush(c);
		if (c->full && c->tty_out.len == 0 && c->out.len == 0 && c->attached)
			server_redraw(c->srv, false); /* it skipped frames while behind */
	}
	if (c->tty < 0 || !(events & (LOOP_IN | LOOP_ERR)))
		return;
	if (c->tty_input == NULL) {
		tty_close(c); /* an error, and no keys expected */
		return;
	}
	char buf[16384];
	ssize_t n = read(c->tty, buf, sizeof buf);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		tty_close(c);
		return;
	}
	c->tty_input(c, buf, (size_t)n); /* may end the client */
}

static int tty_events(const struct client *c)
{
	return (c->tty_input != NULL ? LOOP_IN : 0) | (c->tty_out.len > 0 ? LOOP_OUT : 0);
}

void client_tty_watch(struct client *c)
{
	if (c->tty < 0)
		return;
	if (c->tty_w == NULL && tty_events(c) != 0)
		c->tty_w = watch_add(c->srv->loop, c->tty, tty_events(c), on_tty, c);
	else if (c->tty_w != NULL)
		watch_set(c->tty_w, tty_events(c));
}

/* The terminal given back: from now on the client writes what it is sent. */
static void tty_close(struct client *c)
{
	watch_del(c->tty_w);
	c->tty_w = NULL;
	close(c->tty);
	c->tty = -1;
	c->tty_input = NULL;
}

/* What the terminal takes now; the rest when it can take more. A
 * terminal that fails (hung up) is let go, its bytes dropped: the client
 * sees it gone too, and ends. */
static void tty_flush(struct client *c)
{
	if (bufsock_write(&c->tty_out, c->tty) < 0) {
		buf_clear(&c->tty_out);
		tty_close(c);
		return;
	}
	client_tty_watch(c);
}

void client_send_line(struct client *c, const char *text)
{
	buf_addstr(&c->out, text);
	buf_add(&c->out, "\n", 1);
	watch_set(c->w, client_reading(c) | LOOP_OUT);
}

void client_message(struct client *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->message, sizeof c->message, fmt, ap);
	va_end(ap);
	server_redraw(c->srv, false);
}

bool client_behind(const struct client *c)
{
	return c->out.len + c->tty_out.len > OUT_HIGH;
}

void client_push(struct client *c)
{
	if (c->tty_out.len > 0)
		tty_flush(c);
	(void)bufsock_send(&c->out, c->fd); /* the rest when it can take it (or its error) */
	/* the loop drops a closing one; unchanged interest costs nothing */
	watch_set(c->w, client_reading(c) | (c->closing || c->out.len > 0 ? LOOP_OUT : 0));
}
