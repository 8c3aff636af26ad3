/* proxy: the filtering HTTP/SOCKS5 proxy of one sandbox, living entirely
 * in the host's event loop (see DESIGN.md "Network").
 *
 * The listening socket was made inside the sandbox's network namespace and
 * handed over by the launcher; the proxy's outgoing connections are made
 * from the host's network. Each connection speaks HTTP CONNECT, plain HTTP
 * with an absolute URI, or SOCKS5 (told apart by the first byte), and is
 * decided like this:
 *   1. policy_decide_host() on the name (and port) as asked;
 *   2. the name is resolved asynchronously (backends/dns.h);
 *   3. every resolved address is decided again (the hardcoded blocks of
 *      policy/net.c: private, loopback, link-local, metadata, multicast...;
 *      the host's own addresses, net_addr_is_local(); CIDR rules); one
 *      refused address refuses the connection;
 *   4. the proxy connects to the vetted address itself: there is no second
 *      lookup, so DNS rebinding gets nowhere.
 * Plain HTTP is one request per connection: the request goes upstream in
 * origin form with "Connection: close", and the tunnel closes when the
 * server does (a client must open a new connection per request, which
 * every client does when it sees the close).
 *
 * Buffers are bounded (PROXY_BUF each way; a full buffer stops reading),
 * a side that ends is passed on with shutdown(SHUT_WR), connects time out. */
#ifndef PROXY_H
#define PROXY_H

#include <stddef.h>
#include <stdint.h>

#include "backends/events.h"
#include "policy/policy.h"
#include "policy/suggest.h"

struct loop;
struct proxy;

#define PROXY_BUF          65536 /* per direction, per connection */
#define PROXY_HEAD_MAX     16384 /* a longer request head gets 431 */
#define PROXY_MAX_CONNS    4096  /* more are accepted and closed at once */
#define PROXY_SANDBOX_PORT 3128  /* the listener's port on the sandbox's loopback */

/* A refused connection, as a denial (policy/denial.h): op "connect",
 * layer "proxy", target "HOST:PORT", the rule (naming the refused address
 * when a resolved one was refused), addr, proto ("http", "connect",
 * "socks5"), the networkPolicy.allow suggestion that would allow it (key
 * NULL when no entry can: always-blocked addresses, deny rules), and held:
 * the connection waits (proxy_set_hold) for proxy_decide_held() instead
 * of failing now. Valid during the callback only; must not free the
 * proxy. */
typedef void (*proxy_event_cb)(struct denial *, void *arg);

/* What happened, for tests, doctor and the benchmark. */
struct proxy_stats {
	uint64_t accepted, active, tunnels, denied;
	uint64_t bad_request;  /* 400 */
	uint64_t too_large;    /* 431 */
	uint64_t socks_errors; /* unsupported command, address type, method */
	uint64_t dns_failed, connect_failed, timeouts, overloaded;
	uint64_t unauthorized; /* 407, or SOCKS5 authentication refused */
};

/* Takes over listen_fd (closed by proxy_free, or at once on failure).
 * policy must outlive the proxy. cb may be NULL. NULL with *err set on
 * failure. */
struct proxy *proxy_new(struct loop *, const struct policy *, int listen_fd, proxy_event_cb cb, void *arg,
			const char **err);
/* Closes every connection at once. */
void proxy_free(struct proxy *);
const struct proxy_stats *proxy_stats(const struct proxy *);
/* Holding (an escalation prompt, shell/escalate.h): a connection refused
 * by a rule that an allow entry could lift is reported with held set and
 * kept waiting, without an answer, up to ms (0: never held, the default),
 * then decided again. proxy_decide_held() decides every held connection
 * again now, by the policy as it is then (the host may have broadened it
 * in place): allowed ones proceed, the others fail (not reported twice).
 * Returns how many were held. */
void proxy_set_hold(struct proxy *, int ms);
/* Credentials (a proxy on the host's loopback, where every local process
 * can reach it: the weaker sandbox): with a secret, every client must
 * prove it with user PROXY_USER and that password, as
 * "Proxy-Authorization: Basic" on HTTP (CONNECT and plain; else 407) or
 * SOCKS5 username/password authentication (RFC 1929; else refused),
 * before any request is decided. NULL or "": none (the listener is in
 * the sandbox's own network namespace, where only the sandbox is). */
#define PROXY_USER       "sandmux"
#define PROXY_SECRET_MAX 64
void proxy_set_auth(struct proxy *, const char *secret);
size_t proxy_decide_held(struct proxy *);
size_t proxy_held_count(const struct proxy *);

/* A proxy denial as the tail of a line (the body of the proxy's 403 is
 * "sandmux proxy:" and this):
 *  denied connect HOST:PORT (RULE)[ — allow with: "networkPolicy": {"allow": ["HOST"]}] */
void proxy_denial_format(const struct denial *, char *buf, size_t size);
/* The environment a sandboxed child needs to find the proxy on its own
 * loopback: HTTP_PROXY, HTTPS_PROXY, ALL_PROXY (socks5h), their lowercase
 * twins, NO_PROXY and no_proxy; with a secret (NULL or "": none) the URLs
 * carry the credentials, http://sandmux:SECRET@127.0.0.1:PORT. Fills
 * env[0..PROXY_ENV_N-1] with malloc'd "NAME=VALUE" strings; returns 0 or
 * -1. */
#define PROXY_ENV_N 8
int proxy_env(int port, const char *secret, char *env[PROXY_ENV_N]);
void proxy_env_free(char *env[PROXY_ENV_N]);

/* The request parsers (proxy-http.c, proxy-socks.c), pure, for unit tests
 * and tests/fuzz/fuzz_proxy.c. */
enum { PARSE_MORE = 0, PARSE_OK = 1, PARSE_BAD = -1, PARSE_TOO_BIG = -2 };

struct http_req {
	int is_connect;
	char method[16];
	char host[256];      /* lowercased name, or IP literal without brackets */
	char authority[270]; /* as it goes into Host: */
	int port;
	size_t path_off, path_len; /* origin-form path inside the buffer ("/" if empty) */
	size_t head_len;           /* bytes of the head, final empty line included */
	int version_minor;
	size_t auth_off, auth_len; /* the Proxy-Authorization value inside the buffer, trimmed */
	int auth_n;                /* how many Proxy-Authorization headers */
};
int proxy_http_parse(const char *buf, size_t len, struct http_req *);
/* The head to send upstream for a plain request: origin-form target, Host
 * from the URI, hop-by-hop headers dropped, "Connection: close". Returns
 * its length, or -1 when it does not fit in size. */
int proxy_http_rewrite(const char *buf, const struct http_req *, char *out, size_t size);

enum { SOCKS_CONNECT = 1 };
enum {
	SOCKS_OK = 0,
	SOCKS_FAIL = 1,
	SOCKS_NOT_ALLOWED = 2,
	SOCKS_NET_UNREACH = 3,
	SOCKS_HOST_UNREACH = 4,
	SOCKS_REFUSED = 5,
	SOCKS_TTL = 6,
	SOCKS_BAD_COMMAND = 7,
	SOCKS_BAD_ATYP = 8,
};
struct socks_req {
	int cmd;
	char host[256];
	int port;
};
enum { SOCKS_NOAUTH = 0, SOCKS_USERPASS = 2 };
/* The method greeting: >0 bytes consumed, PARSE_MORE, or PARSE_BAD;
 * *offered says whether method (SOCKS_NOAUTH, SOCKS_USERPASS) was. */
int proxy_socks_greeting(const uint8_t *buf, size_t len, int method, int *offered);
/* The username/password subnegotiation (RFC 1929): >0 bytes consumed,
 * PARSE_MORE, or PARSE_BAD; user and pass are NUL-terminated (each at
 * most 255 bytes, so 256-byte buffers). */
int proxy_socks_auth(const uint8_t *buf, size_t len, char user[256], char pass[256]);
/* The request: >0 bytes consumed, PARSE_MORE, or -SOCKS_* (a reply code
 * to send before closing). */
int proxy_socks_request(const uint8_t *buf, size_t len, struct socks_req *);
/* A reply with code and bound address (NULL: 0.0.0.0:0); returns length. */
size_t proxy_socks_reply(uint8_t *out, int code, const struct net_addr *bound, int port);

#endif
