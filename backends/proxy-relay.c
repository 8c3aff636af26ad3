/* proxy-relay: two bounded buffers per connection and the pump between
 * the client and the upstream. Reading stops while a buffer is full; a
 * side that ends (EOF) is passed on with shutdown(SHUT_WR) once its bytes
 * are delivered; an fd that is done both ways is closed at once. A watch
 * with nothing to wait for is removed: epoll reports hang-ups even for an
 * empty event mask, and a hung-up fd we cannot yet read would spin. */
#include "backends/proxy-conn.h"

#include <sys/socket.h>
#include <unistd.h>

#include "backends/loop.h"

static void set_watch(struct conn *c, struct watch **w, int fd, int events, watch_cb cb)
{
	if (fd < 0)
		return;
	if (events == 0) {
		watch_del(*w);
		*w = NULL;
	} else if (*w == NULL)
		*w = watch_add(c->px->loop, fd, events, cb, c);
	else
		watch_set(*w, events);
}

static void close_upstream(struct conn *c)
{
	watch_del(c->uw);
	c->uw = NULL;
	close(c->ufd);
	c->ufd = -1;
}

/* Passes each finished direction on; true when the whole tunnel is done. */
static bool relay_finish(struct conn *c)
{
	if (c->c_eof && c->up.len == 0 && !c->u_shut && c->ufd >= 0) {
		shutdown(c->ufd, SHUT_WR);
		c->u_shut = true;
	}
	if ((c->u_eof || c->ufd < 0) && c->down.len == 0 && !c->c_shut) {
		shutdown(c->cfd, SHUT_WR);
		c->c_shut = true;
	}
	if (c->ufd >= 0 && c->u_eof && c->u_shut)
		close_upstream(c);
	return c->c_shut && (c->c_eof || c->ufd < 0) && (c->ufd < 0 || c->u_shut);
}

void relay_update(struct conn *c)
{
	int ce = 0, ue = 0;
	switch (c->state) {
	case ST_HEAD:
	case ST_SOCKS_AUTH:
	case ST_SOCKS_REQ:
		ce = (buf_room(&c->up) > 0 ? LOOP_IN : 0) | (c->down.len > 0 ? LOOP_OUT : 0);
		break;
	case ST_DIAL: /* proxy-dial.c owns the upstream watch until relay_start */
		set_watch(c, &c->cw, c->cfd, 0, conn_client_cb);
		return;
	case ST_RELAY:
		if (relay_finish(c)) {
			conn_free(c);
			return;
		}
		ce = (!c->c_eof && buf_room(&c->up) > 0 ? LOOP_IN : 0) | (c->down.len > 0 ? LOOP_OUT : 0);
		ue = (!c->u_eof && buf_room(&c->down) > 0 ? LOOP_IN : 0) | (c->up.len > 0 ? LOOP_OUT : 0);
		break;
	case ST_CLOSING:
		ce = c->down.len > 0 ? LOOP_OUT : LOOP_IN;
		break;
	}
	set_watch(c, &c->cw, c->cfd, ce, conn_client_cb);
	set_watch(c, &c->uw, c->ufd, ue, conn_upstream_cb);
}

/* Reads what fits and passes it straight on to the other side, a few
 * times while both keep up (saving epoll rounds on a bulk transfer).
 * -1: the tunnel is broken. */
static int relay_pump(int fd, int other, struct buf *in, bool *eof)
{
	for (int i = 0; i < 8 && !*eof && buf_room(in) > 0; i++) {
		int r = bufsock_recv(in, fd, PROXY_BUF);
		if (r == -1)
			return -1;
		if (r == 0)
			*eof = true;
		if (r != 1)
			break;
		if (other >= 0 && bufsock_send(in, other) < 0)
			return -1;
		if (in->len > 0) /* the other side is full: wait for it */
			break;
	}
	return 0;
}

/* One readiness report on one side of a tunnel: pump what it sends, send
 * what waits for it. */
void relay_io(struct conn *c, int events, bool client)
{
	int fd = client ? c->cfd : c->ufd, other = client ? c->ufd : c->cfd;
	struct buf *in = client ? &c->up : &c->down, *out = client ? &c->down : &c->up;
	bool *eof = client ? &c->c_eof : &c->u_eof;
	if ((events & (LOOP_IN | LOOP_ERR)) && relay_pump(fd, other, in, eof) < 0) {
		conn_free(c);
		return;
	}
	if ((events & (LOOP_OUT | LOOP_ERR)) && out->len > 0 && bufsock_send(out, fd) < 0) {
		conn_free(c);
		return;
	}
	relay_update(c);
}

void relay_start(struct conn *c)
{
	c->state = ST_RELAY;
	c->px->stats.tunnels++;
	if (c->timer != 0)
		conn_timer(c, -1, NULL);
	if (c->ufd >= 0 && c->up.len > 0 && bufsock_send(&c->up, c->ufd) < 0) {
		conn_free(c);
		return;
	}
	relay_update(c);
}
