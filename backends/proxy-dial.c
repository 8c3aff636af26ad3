/* proxy-dial: from a requested host:port to a connected upstream socket.
 * The name is decided, resolved, every address decided again, and the
 * proxy connects to those vetted addresses only, in order, each attempt
 * bounded by CONNECT_MS. */
#include "backends/proxy-conn.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "backends/loop.h"
#include "backends/net-addr.h"
#include "policy/net.h"

/* Decides the name (a == NULL) or one address of it; reports and refuses
 * the connection when denied. An address of this host is refused as no
 * policy entry can change (a block of the policy's names it first, so
 * 127.0.0.1 is "loopback" rather than "an address of this host"). */
static bool dial_vet(struct conn *c, struct net_addr *a)
{
	if (a != NULL) {
		net_addr_unmap(a);
		if (net_blocked(a) == NULL && net_addr_is_local(a)) {
			conn_deny(c, a, "hardcoded: an address of this host", true);
			return false;
		}
	}
	struct decision d = policy_decide_host(c->px->policy, c->host, a, c->port);
	if (!d.allow)
		conn_deny(c, a, d.rule ? d.rule : "networkPolicy", false);
	return d.allow;
}

static void dial_close(struct conn *c)
{
	if (c->ufd < 0)
		return;
	watch_del(c->uw);
	c->uw = NULL;
	close(c->ufd);
	c->ufd = -1;
}

static void dial_next(struct conn *c, int err);

static void dial_timeout(void *arg)
{
	struct conn *c = arg;
	c->timer = 0;
	dial_close(c);
	if (c->next_addr < c->naddr) {
		dial_next(c, ETIMEDOUT);
		return;
	}
	c->px->stats.timeouts++;
	char text[400];
	snprintf(text, sizeof text, "sandmux proxy: connect to %s:%d timed out", c->host, c->port);
	conn_fail(c, 504, SOCKS_TTL, text);
}

static int socks_code(int err)
{
	switch (err) {
	case ECONNREFUSED:
		return SOCKS_REFUSED;
	case ENETUNREACH:
		return SOCKS_NET_UNREACH;
	case EHOSTUNREACH:
		return SOCKS_HOST_UNREACH;
	case ETIMEDOUT:
		return SOCKS_TTL;
	default:
		return SOCKS_FAIL;
	}
}

/* Tries the next vetted address; err: why the previous one failed. */
static void dial_next(struct conn *c, int err)
{
	while (c->next_addr < c->naddr) {
		struct sockaddr_storage ss;
		socklen_t sl = net_addr_sockaddr(&c->addr[c->next_addr], c->port, &ss);
		int fd = socket(c->addr[c->next_addr++].family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			err = errno;
			continue;
		}
		if (connect(fd, (struct sockaddr *)&ss, sl) == 0 || errno == EINPROGRESS) {
			c->ufd = fd;
			c->uw = watch_add(c->px->loop, fd, LOOP_OUT, conn_upstream_cb, c);
			conn_timer(c, CONNECT_MS, dial_timeout);
			return;
		}
		err = errno;
		close(fd);
	}
	c->px->stats.connect_failed++;
	char text[400];
	snprintf(text, sizeof text, "sandmux proxy: cannot connect to %s:%d: %s", c->host, c->port, strerror(err));
	conn_fail(c, 502, socks_code(err), text);
}

static void dial_resolved(const struct dns_result *res, void *arg)
{
	struct conn *c = arg;
	c->dq = NULL;
	if (res->status != DNS_OK) {
		c->px->stats.dns_failed++;
		char text[400];
		snprintf(text, sizeof text, "sandmux proxy: cannot resolve %s: %s", c->host,
			 dns_status_name(res->status));
		conn_fail(c, 502, SOCKS_HOST_UNREACH, text);
		return;
	}
	for (size_t i = 0; i < res->n; i++) {
		c->addr[i] = res->addr[i];
		if (!dial_vet(c, &c->addr[i]))
			return;
	}
	c->naddr = res->n;
	dial_next(c, EHOSTUNREACH);
}

void dial_start(struct conn *c)
{
	struct net_addr a;
	if (net_addr_parse(c->host, &a) == 0) {
		if (!dial_vet(c, &a))
			return;
		c->addr[0] = a;
		c->naddr = 1;
		dial_next(c, EHOSTUNREACH);
		return;
	}
	if (!dial_vet(c, NULL))
		return;
	c->dq = dns_resolve(c->px->dns, c->host, dial_resolved, c);
	if (c->dq == NULL)
		conn_fail(c, 502, SOCKS_FAIL, "sandmux proxy: out of memory");
}

/* Connected: the client learns it (CONNECT: 200, SOCKS: a reply with the
 * bound address; plain HTTP: the request simply goes out). */
static void dial_connected(struct conn *c)
{
	int one = 1;
	setsockopt(c->ufd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (c->proto == PROTO_CONNECT) {
		static const char ok[] = "HTTP/1.1 200 Connection established\r\n\r\n";
		buf_add(&c->down, ok, sizeof ok - 1);
	} else if (c->proto == PROTO_SOCKS) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof ss;
		struct net_addr bound = { .family = AF_INET };
		int port = 0;
		if (getsockname(c->ufd, (struct sockaddr *)&ss, &sl) == 0 && ss.ss_family == AF_INET6) {
			struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
			bound.family = AF_INET6;
			memcpy(bound.bytes, &s6->sin6_addr, 16);
			port = ntohs(s6->sin6_port);
		} else if (ss.ss_family == AF_INET) {
			struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
			memcpy(bound.bytes, &s4->sin_addr, 4);
			port = ntohs(s4->sin_port);
		}
		uint8_t reply[32];
		buf_add(&c->down, reply, proxy_socks_reply(reply, SOCKS_OK, &bound, port));
	}
	relay_start(c);
}

void conn_upstream_cb(struct watch *w, int events, void *arg)
{
	(void)w;
	struct conn *c = arg;
	if (c->state == ST_RELAY) {
		relay_io(c, events, false);
		return;
	}
	if (c->state != ST_DIAL)
		return;
	int err = 0;
	socklen_t len = sizeof err;
	if (getsockopt(c->ufd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		err = errno;
	if (err == 0) {
		dial_connected(c);
		return;
	}
	dial_close(c);
	dial_next(c, err);
}
