/* proxy-conn: what the proxy's files share (internal to backends/):
 *   proxy.c        the listener, reading the request, replies, denials
 *   proxy-dial.c   decide, resolve, decide again, connect
 *   proxy-relay.c  the two bounded buffers and the byte pump */
#ifndef PROXY_CONN_H
#define PROXY_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/bufsock.h"
#include "backends/dns.h"
#include "backends/loop.h"
#include "backends/proxy.h"
#include "policy/buf.h"

#define HEAD_MS    30000 /* to send a whole request */
#define CONNECT_MS 10000 /* per connect() attempt */
#define CLOSE_MS   2000  /* to read an error reply before we close */

enum conn_state { ST_HEAD, ST_SOCKS_AUTH, ST_SOCKS_REQ, ST_DIAL, ST_RELAY, ST_CLOSING };
enum conn_proto { PROTO_UNKNOWN, PROTO_HTTP, PROTO_CONNECT, PROTO_SOCKS };

struct conn {
	struct proxy *px;
	struct conn *next, **pprev;
	enum conn_state state;
	enum conn_proto proto;
	int cfd, ufd; /* client (sandbox side), upstream */
	struct watch *cw, *uw;
	struct buf up, down; /* client -> upstream, upstream -> client; PROXY_BUF each */
	bool c_eof, u_eof;   /* that side will send nothing more */
	bool c_shut, u_shut; /* we told that side we send nothing more */
	bool greeted;        /* SOCKS: method reply sent */
	uint64_t timer;
	struct dns_query *dq;
	char host[256];
	int port;
	struct net_addr addr[DNS_MAX_ADDRS];
	size_t naddr, next_addr;
	bool held;           /* in ST_DIAL, refused, waiting for proxy_decide_held() */
	bool hold_done;      /* held once: the next refusal fails, unreported */
	uint64_t held_until; /* loop_now_ms() when the hold ends */
};

struct proxy {
	struct loop *loop;
	const struct policy *policy;
	struct dns *dns;
	int lfd;
	struct watch *lw;
	uint64_t ltimer; /* listener paused after EMFILE */
	proxy_event_cb cb;
	void *arg;
	int hold_ms; /* proxy_set_hold() */
	/* proxy_set_auth(): the password ("": none) and base64(user:password),
	 * as a client's Proxy-Authorization carries it */
	char secret[PROXY_SECRET_MAX + 1];
	char basic[((sizeof PROXY_USER + PROXY_SECRET_MAX + 2) / 3) * 4 + 1];

	struct conn *conns;
	struct proxy_stats stats;
};

/* proxy.c */
void conn_free(struct conn *);
void conn_timer(struct conn *, int ms, void (*cb)(void *));
/* Ends the connection with an HTTP status or a SOCKS code and a text. */
void conn_fail(struct conn *, int status, int socks_code, const char *text);
/* Reports and refuses. addr: the refused address or NULL; fixed: no
 * policy entry could allow it (nothing is suggested, nothing held). */
void conn_deny(struct conn *, const struct net_addr *addr, const char *rule, bool fixed);
void conn_client_cb(struct watch *, int events, void *conn);

/* proxy-dial.c: starts with c->host, c->port, c->proto set. */
void dial_start(struct conn *);
void conn_upstream_cb(struct watch *, int events, void *conn);

/* proxy-relay.c */
/* Recomputes what each fd waits for, and ends a finished tunnel. */
void relay_update(struct conn *);
/* Readiness on the client (client true) or upstream side of a tunnel. */
void relay_io(struct conn *, int events, bool client);
/* The tunnel is up: replies sent, relay from now on. */
void relay_start(struct conn *);

#endif
