/* proxy: the listener, and each connection's life: read the request,
 * decide, resolve, decide again, connect, relay (see proxy.h). A
 * connection is one struct conn with two fds, two bounded buffers, at
 * most one timer and at most one pending DNS query. */
#include "backends/proxy-conn.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "backends/loop.h"
#include "backends/net-addr.h"
#include "policy/agents.h"

void conn_free(struct conn *c)
{
	struct proxy *px = c->px;
	watch_del(c->cw);
	watch_del(c->uw);
	close(c->cfd);
	if (c->ufd >= 0)
		close(c->ufd);
	if (c->timer != 0)
		timer_cancel(px->loop, c->timer);
	dns_cancel(c->dq);
	*c->pprev = c->next;
	if (c->next != NULL)
		c->next->pprev = c->pprev;
	buf_free(&c->up);
	buf_free(&c->down);
	free(c);
	px->stats.active--;
}

void conn_timer(struct conn *c, int ms, void (*cb)(void *))
{
	if (c->timer != 0)
		timer_cancel(c->px->loop, c->timer);
	c->timer = ms < 0 ? 0 : timer_add(c->px->loop, ms, cb, c);
}

static const char *http_reason(int status)
{
	switch (status) {
	case 400:
		return "Bad Request";
	case 403:
		return "Forbidden";
	case 407:
		return "Proxy Authentication Required";
	case 408:
		return "Request Timeout";
	case 431:
		return "Request Header Fields Too Large";
	case 504:
		return "Gateway Timeout";
	default:
		return "Bad Gateway";
	}
}

static void conn_linger_over(void *arg)
{
	struct conn *c = arg;
	c->timer = 0;
	conn_free(c);
}

/* The error path: one reply, flushed, our side shut, then the client's
 * remaining input read and dropped until it closes or CLOSE_MS pass (a
 * close with unread input would send a reset that can destroy the reply
 * before the client reads it). */
void conn_fail(struct conn *c, int status, int socks_code, const char *text)
{
	if (c->ufd >= 0) {
		watch_del(c->uw);
		c->uw = NULL;
		close(c->ufd);
		c->ufd = -1;
	}
	dns_cancel(c->dq);
	c->dq = NULL;
	buf_clear(&c->up);
	buf_clear(&c->down);
	if (c->proto == PROTO_SOCKS && !c->greeted) {
		buf_add(&c->down, "\x05\xff", 2);
	} else if (c->proto == PROTO_SOCKS && c->state == ST_SOCKS_AUTH) {
		buf_add(&c->down, "\x01\x01", 2); /* RFC 1929: failure */
	} else if (c->proto == PROTO_SOCKS) {
		uint8_t reply[32];
		buf_add(&c->down, reply, proxy_socks_reply(reply, socks_code, NULL, 0));
	} else {
		char head[256];
		int n = snprintf(head, sizeof head,
				 "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n%s"
				 "Connection: close\r\n\r\n",
				 status, http_reason(status), strlen(text) + 1,
				 status == 407 ? "Proxy-Authenticate: Basic realm=\"sandmux\"\r\n" : "");
		buf_add(&c->down, head, (size_t)n);
		buf_add(&c->down, text, strlen(text));
		buf_add(&c->down, "\n", 1);
	}
	c->state = ST_CLOSING;
	conn_timer(c, CLOSE_MS, conn_linger_over);
	if (bufsock_send(&c->down, c->cfd) < 0) {
		conn_free(c);
		return;
	}
	relay_update(c);
}

static void closing_io(struct conn *c, int events)
{
	if (c->down.len > 0 && bufsock_send(&c->down, c->cfd) < 0) {
		conn_free(c);
		return;
	}
	if (c->down.len == 0 && !c->c_shut) {
		shutdown(c->cfd, SHUT_WR);
		c->c_shut = true;
	}
	if (c->down.len == 0 && (events & (LOOP_IN | LOOP_ERR))) {
		int r = bufsock_recv(&c->up, c->cfd, PROXY_BUF);
		buf_clear(&c->up);
		if (r == 0 || r == -1) {
			conn_free(c);
			return;
		}
	}
	relay_update(c);
}

static const char *proto_name(enum conn_proto p)
{
	return p == PROTO_SOCKS ? "socks5" : p == PROTO_CONNECT ? "connect" : "http";
}

static void held_timeout(void *arg);
static int denial_fill(struct denial *d, const char *host, int port, const char *addr, const char *rule);

/* A suggestion only where an allow entry really helps: for the name (or
 * literal) itself, never for a resolved address that was refused, never
 * for what is fixed (suggest_host() itself offers nothing the policy's
 * own blocks or deny rules refuse). No suggestion: no prompt, no hold. */
void conn_deny(struct conn *c, const struct net_addr *addr, const char *rule, bool fixed)
{
	struct proxy *px = c->px;
	char a[NET_ADDR_STRLEN] = "", line[4400];
	struct denial d = { 0 };
	struct net_addr lit;
	if (addr != NULL)
		net_addr_format(addr, a, sizeof a);
	if (!fixed && (addr == NULL || net_addr_parse(c->host, &lit) == 0))
		suggest_host(px->policy, c->host, &d.suggest);
	bool held = px->hold_ms > 0 && d.suggest.kind != SUGGEST_NONE && !c->hold_done && c->state == ST_DIAL &&
		    !agents_names_host(px->policy,
				       c->host); /* an agent's own hosts are never held: it would hang at its start */
	px->stats.denied += !c->hold_done;
	if (denial_fill(&d, c->host, c->port, a, rule) == 0) {
		snprintf(d.proto, sizeof d.proto, "%s", proto_name(c->proto));
		d.held = held;
		/* the 403's body: what the tool shows, told apart from sandmux's
		 * own line at the end of a run */
		memcpy(line, "sandmux proxy:", 14);
		proxy_denial_format(&d, line + 14, sizeof line - 14);
		if (px->cb != NULL && !c->hold_done)
			px->cb(&d, px->arg);
	} else {
		snprintf(line, sizeof line, "sandmux proxy: denied connect (out of memory)");
	}
	denial_clear(&d);
	if (held) {
		c->held = true;
		c->held_until = loop_now_ms() + (uint64_t)px->hold_ms;
		conn_timer(c, px->hold_ms, held_timeout);
		return;
	}
	conn_fail(c, 403, SOCKS_NOT_ALLOWED, line);
}

static void held_decide(struct conn *c)
{
	c->held = false;
	c->hold_done = true;
	conn_timer(c, -1, NULL);
	dial_start(c);
}

static void held_timeout(void *arg)
{
	struct conn *c = arg;
	c->timer = 0;
	held_decide(c);
}

void proxy_set_hold(struct proxy *px, int ms)
{
	px->hold_ms = ms;
}

size_t proxy_decide_held(struct proxy *px)
{
	size_t n = 0;
	struct conn *next;
	for (struct conn *c = px != NULL ? px->conns : NULL; c != NULL; c = next) {
		next = c->next; /* held_decide may end c, never another */
		if (c->held) {
			held_decide(c);
			n++;
		}
	}
	return n;
}

int proxy_held_left_ms(const struct proxy *px)
{
	uint64_t now = loop_now_ms(), left = UINT64_MAX;
	for (const struct conn *c = px != NULL ? px->conns : NULL; c != NULL; c = c->next) {
		uint64_t l = c->held_until > now ? c->held_until - now : 0;
		if (c->held && l < left)
			left = l;
	}
	return left == UINT64_MAX ? -1 : (int)left;
}

size_t proxy_held_count(const struct proxy *px)
{
	size_t n = 0;
	for (const struct conn *c = px != NULL ? px->conns : NULL; c != NULL; c = c->next)
		n += c->held;
	return n;
}

/* A plain request: the head becomes its origin-form rewrite, followed by
 * whatever body bytes came with it. */
static int http_plain(struct conn *c, const struct http_req *r)
{
	struct buf out = { 0 };
	if (!buf_bound(&out, PROXY_BUF))
		return -1;
	int n = proxy_http_rewrite(buf_data(&c->up), r, buf_reserve(&out, PROXY_BUF), PROXY_BUF);
	if (n >= 0)
		buf_commit(&out, (size_t)n);
	if (n < 0 || !buf_add(&out, buf_data(&c->up) + r->head_len, c->up.len - r->head_len)) {
		buf_free(&out);
		return -1;
	}
	buf_free(&c->up);
	c->up = out;
	return 0;
}

#define RULE_UNAUTHORIZED                                                                               \
	"sandmux proxy: proxy authentication required: this proxy serves one sandmux sandbox, through " \
	"the proxy variables set inside it"

/* Equal, in a time that does not depend on where they differ. */
static bool same_secret(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);
	unsigned char diff = alen != blen;
	for (size_t i = 0; i < alen && i < blen; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return diff == 0;
}

/* Without a secret, everyone; with one, exactly one Proxy-Authorization
 * header, "Basic" and base64(user:secret). */
static bool http_authorized(const struct proxy *px, const char *buf, const struct http_req *r)
{
	if (px->secret[0] == '\0')
		return true;
	if (r->auth_n != 1 || r->auth_len < 6 || strncasecmp(buf + r->auth_off, "Basic ", 6) != 0)
		return false;
	const char *token = buf + r->auth_off + 6;
	size_t n = r->auth_len - 6;
	for (; n > 0 && *token == ' '; n--)
		token++;
	return same_secret(token, n, px->basic);
}

static void base64(const char *in, char *out, size_t size)
{
	static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t n = strlen(in), o = 0;
	for (size_t i = 0; i < n && o + 5 <= size; i += 3) {
		unsigned v = (unsigned char)in[i] << 16 | (i + 1 < n ? (unsigned char)in[i + 1] << 8 : 0) |
			     (i + 2 < n ? (unsigned char)in[i + 2] : 0);
		out[o++] = digits[v >> 18 & 63];
		out[o++] = digits[v >> 12 & 63];
		out[o++] = i + 1 < n ? digits[v >> 6 & 63] : '=';
		out[o++] = i + 2 < n ? digits[v & 63] : '=';
	}
	out[o] = '\0';
}

void proxy_set_auth(struct proxy *px, const char *secret)
{
	char userpass[sizeof PROXY_USER + PROXY_SECRET_MAX + 1];
	px->secret[0] = px->basic[0] = '\0';
	if (secret == NULL || secret[0] == '\0')
		return;
	snprintf(px->secret, sizeof px->secret, "%s", secret);
	snprintf(userpass, sizeof userpass, "%s:%s", PROXY_USER, px->secret);
	base64(userpass, px->basic, sizeof px->basic);
	explicit_bzero(userpass, sizeof userpass);
}

/* The request is read and parsed: decide, resolve and connect (proxy-dial.c). */
static void conn_dial(struct conn *c, const char *host, int port)
{
	snprintf(c->host, sizeof c->host, "%s", host);
	c->port = port;
	c->state = ST_DIAL;
	relay_update(c);
	dial_start(c);
}

static void head_http(struct conn *c)
{
	struct http_req r;
	int p = proxy_http_parse(buf_data(&c->up), c->up.len, &r);
	if (p == PARSE_MORE && !c->c_eof) {
		relay_update(c);
		return;
	}
	if (p == PARSE_MORE) /* cut short by EOF: the rest never comes */
		p = PARSE_BAD;
	if (p == PARSE_OK && !http_authorized(c->px, buf_data(&c->up), &r)) {
		c->px->stats.unauthorized++;
		conn_fail(c, 407, 0, RULE_UNAUTHORIZED);
		return;
	}
	if (p == PARSE_OK && !r.is_connect && http_plain(c, &r) < 0)
		p = PARSE_TOO_BIG;
	if (p == PARSE_BAD || p == PARSE_TOO_BIG) {
		bool big = p == PARSE_TOO_BIG;
		c->px->stats.bad_request += !big;
		c->px->stats.too_large += big;
		conn_fail(c, big ? 431 : 400, 0,
			  big ? "sandmux proxy: request head too large" : "sandmux proxy: malformed request");
		return;
	}
	if (r.is_connect)
		buf_drop(&c->up, r.head_len);
	c->proto = r.is_connect ? PROTO_CONNECT : PROTO_HTTP;
	conn_dial(c, r.host, r.port);
}

static void socks_error(struct conn *c, int code)
{
	c->px->stats.socks_errors++;
	conn_fail(c, 400, code, "");
}

/* The method greeting: "no authentication", or with a secret
 * username/password only. */
static bool socks_greet(struct conn *c)
{
	bool auth = c->px->secret[0] != '\0';
	int offered, n = proxy_socks_greeting((uint8_t *)buf_data(&c->up), c->up.len,
					      auth ? SOCKS_USERPASS : SOCKS_NOAUTH, &offered);
	if (n == PARSE_MORE && !c->c_eof) {
		relay_update(c);
		return false;
	}
	if (n <= 0 || !offered) {
		c->px->stats.unauthorized += auth && n > 0;
		socks_error(c, SOCKS_FAIL);
		return false;
	}
	buf_drop(&c->up, (size_t)n);
	buf_add(&c->down, auth ? "\x05\x02" : "\x05\x00", 2);
	c->greeted = true;
	c->state = auth ? ST_SOCKS_AUTH : ST_SOCKS_REQ;
	if (bufsock_send(&c->down, c->cfd) < 0) {
		conn_free(c);
		return false;
	}
	return true;
}

/* RFC 1929: the pane's user and password, or the connection ends. */
static bool socks_login(struct conn *c)
{
	char user[256], pass[256];
	int n = proxy_socks_auth((uint8_t *)buf_data(&c->up), c->up.len, user, pass);
	if (n == PARSE_MORE && !c->c_eof) {
		relay_update(c);
		return false;
	}
	bool ok = n > 0 && strcmp(user, PROXY_USER) == 0 && same_secret(pass, strlen(pass), c->px->secret);
	explicit_bzero(pass, sizeof pass);
	if (!ok) {
		c->px->stats.unauthorized++;
		conn_fail(c, 407, SOCKS_FAIL, "");
		return false;
	}
	buf_drop(&c->up, (size_t)n);
	buf_add(&c->down, "\x01\x00", 2);
	c->state = ST_SOCKS_REQ;
	if (bufsock_send(&c->down, c->cfd) < 0) {
		conn_free(c);
		return false;
	}
	return true;
}

static void head_socks(struct conn *c)
{
	if (!c->greeted && !socks_greet(c))
		return;
	if (c->state == ST_SOCKS_AUTH && !socks_login(c))
		return;
	struct socks_req r;
	int n = proxy_socks_request((uint8_t *)buf_data(&c->up), c->up.len, &r);
	if (n == PARSE_MORE && !c->c_eof) {
		relay_update(c);
		return;
	}
	if (n == PARSE_MORE)
		n = -SOCKS_FAIL;
	if (n < 0) {
		socks_error(c, -n);
		return;
	}
	buf_drop(&c->up, (size_t)n);
	conn_dial(c, r.host, r.port);
}

/* Reading the request: no more than PROXY_HEAD_MAX bytes are looked at,
 * so the rewrite of a plain request always fits its buffer. */
static void head_io(struct conn *c, int events)
{
	if (c->down.len > 0 && bufsock_send(&c->down, c->cfd) < 0) {
		conn_free(c);
		return;
	}
	if (!(events & (LOOP_IN | LOOP_ERR))) {
		relay_update(c);
		return;
	}
	int r = c->up.len < PROXY_HEAD_MAX ? bufsock_recv(&c->up, c->cfd, PROXY_HEAD_MAX) : 1;
	if (r == -1 || (r == 0 && c->up.len == 0)) {
		conn_free(c);
		return;
	}
	c->c_eof = r == 0;
	if (r == -2) {
		relay_update(c);
		return;
	}
	if (c->proto == PROTO_UNKNOWN)
		c->proto = buf_data(&c->up)[0] == 5 ? PROTO_SOCKS : PROTO_HTTP;
	if (c->proto == PROTO_SOCKS)
		head_socks(c);
	else
		head_http(c);
}

void conn_client_cb(struct watch *w, int events, void *arg)
{
	(void)w;
	struct conn *c = arg;
	switch (c->state) {
	case ST_HEAD:
	case ST_SOCKS_AUTH:
	case ST_SOCKS_REQ:
		head_io(c, events);
		break;
	case ST_DIAL:
		break;
	case ST_RELAY:
		relay_io(c, events, true);
		break;
	case ST_CLOSING:
		closing_io(c, events);
		break;
	}
}

static void head_timeout(void *arg)
{
	struct conn *c = arg;
	c->timer = 0;
	c->px->stats.timeouts++;
	conn_fail(c, 408, SOCKS_TTL, "sandmux proxy: request timed out");
}

static void conn_new(struct proxy *px, int fd)
{
	struct conn *c = calloc(1, sizeof *c);
	if (c == NULL || !buf_bound(&c->up, PROXY_BUF) || !buf_bound(&c->down, PROXY_BUF)) {
		if (c != NULL) {
			buf_free(&c->up);
			free(c);
		}
		close(fd);
		return;
	}
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	*c = (struct conn){ .px = px, .cfd = fd, .ufd = -1, .up = c->up, .down = c->down, .state = ST_HEAD };
	c->next = px->conns;
	if (c->next != NULL)
		c->next->pprev = &c->next;
	c->pprev = &px->conns;
	px->conns = c;
	px->stats.accepted++;
	px->stats.active++;
	c->timer = timer_add(px->loop, HEAD_MS, head_timeout, c);
	relay_update(c);
	if (c->cw == NULL)
		conn_free(c);
}

static void accept_resume(void *arg)
{
	struct proxy *px = arg;
	px->ltimer = 0;
	watch_set(px->lw, LOOP_IN);
}

static void accept_cb(struct watch *w, int events, void *arg)
{
	(void)events;
	struct proxy *px = arg;
	for (int i = 0; i < 64; i++) {
		int fd = accept4(px->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0 && (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)) {
			/* out of fds: pause rather than spin on a ready listener */
			watch_set(w, 0);
			px->ltimer = timer_add(px->loop, 100, accept_resume, px);
			return;
		}
		if (fd < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (fd < 0)
			continue;
		if (px->stats.active >= PROXY_MAX_CONNS) {
			px->stats.overloaded++;
			close(fd);
			continue;
		}
		conn_new(px, fd);
	}
}

/* Each tunnel holds two fds: 500 of them need more than the usual soft
 * limit of 1024. */
static void raise_nofile(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max && rl.rlim_cur < 65536) {
		rl.rlim_cur = rl.rlim_max < 65536 ? rl.rlim_max : 65536;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

struct proxy *proxy_new(struct loop *loop, const struct policy *policy, int listen_fd, proxy_event_cb cb, void *arg,
			const char **err)
{
	struct proxy *px = calloc(1, sizeof *px);
	if (px == NULL) {
		*err = "proxy: out of memory";
		close(listen_fd);
		return NULL;
	}
	*px = (struct proxy){ .loop = loop, .policy = policy, .lfd = listen_fd, .cb = cb, .arg = arg };
	px->dns = dns_new(loop, err);
	if (px->dns == NULL) {
		close(listen_fd);
		free(px);
		return NULL;
	}
	fcntl(listen_fd, F_SETFL, fcntl(listen_fd, F_GETFL) | O_NONBLOCK);
	raise_nofile();
	px->lw = watch_add(loop, listen_fd, LOOP_IN, accept_cb, px);
	if (px->lw == NULL) {
		*err = "proxy: cannot watch the listening socket";
		close(listen_fd);
		dns_free(px->dns);
		free(px);
		return NULL;
	}
	return px;
}

void proxy_free(struct proxy *px)
{
	if (px == NULL)
		return;
	while (px->conns != NULL)
		conn_free(px->conns);
	watch_del(px->lw);
	if (px->ltimer != 0)
		timer_cancel(px->loop, px->ltimer);
	close(px->lfd);
	dns_free(px->dns);
	explicit_bzero(px->secret, sizeof px->secret);
	explicit_bzero(px->basic, sizeof px->basic);
	free(px);
}

const struct proxy_stats *proxy_stats(const struct proxy *px)
{
	return &px->stats;
}

/* op "connect", layer "proxy", target "HOST:PORT" ("[V6]:PORT"), the
 * rule naming the refused address when a resolved one was refused. */
static int denial_fill(struct denial *d, const char *host, int port, const char *addr, const char *rule)
{
	char target[300], full[600];
	bool v6 = strchr(host, ':') != NULL;
	snprintf(target, sizeof target, "%s%s%s:%d", v6 ? "[" : "", host, v6 ? "]" : "", port);
	if (addr[0] != '\0' && strcmp(addr, host) != 0)
		snprintf(full, sizeof full, "%s; %s resolved to %s", rule, host, addr);
	else
		snprintf(full, sizeof full, "%s", rule);
	if (denial_set(d, "connect", "proxy", target, full) < 0)
		return -1;
	d->addr = addr[0] != '\0' ? strdup(addr) : NULL;
	return addr[0] != '\0' && d->addr == NULL ? -1 : 0;
}

void proxy_denial_format(const struct denial *d, char *buf, size_t size)
{
	char how[4200];
	if (suggest_format(&d->suggest, how, sizeof how) > 0)
		snprintf(buf, size, " denied connect %s (%s) \u2014 allow with: %s", d->target, d->rule, how);
	else
		snprintf(buf, size, " denied connect %s (%s)", d->target, d->rule);
}

int proxy_env(int port, const char *secret, char *env[PROXY_ENV_N])
{
	static const char *const names[PROXY_ENV_N] = { "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
							"http_proxy", "https_proxy", "all_proxy", "no_proxy" };
	bool auth = secret != NULL && secret[0] != '\0';
	for (int i = 0; i < PROXY_ENV_N; i++)
		env[i] = NULL;
	for (int i = 0; i < PROXY_ENV_N; i++) {
		const char *scheme = i % 4 == 2 ? "socks5h" : "http";
		int r = i % 4 == 3 ? asprintf(&env[i], "%s=localhost,127.0.0.1,::1", names[i])
				   : asprintf(&env[i], "%s=%s://%s%s%s%s127.0.0.1:%d", names[i], scheme,
					      auth ? PROXY_USER : "", auth ? ":" : "", auth ? secret : "",
					      auth ? "@" : "", port);
		if (r < 0) {
			env[i] = NULL; /* asprintf leaves it undefined */
			proxy_env_free(env);
			return -1;
		}
	}
	return 0;
}

void proxy_env_free(char *env[PROXY_ENV_N])
{
	for (int i = 0; i < PROXY_ENV_N; i++) {
		free(env[i]);
		env[i] = NULL;
	}
}
