/* proxy: the request parsers, the DNS wire format, the address checks,
 * and a proxy on a loop answering bad input, denials and SOCKS errors
 * over loopback (every allowed path needs a test host: see
 * tests/sandbox/net-*.sh). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "backends/dns.h"
#include "backends/loop.h"
#include "backends/net-addr.h"
#include "backends/proxy.h"
#include "policy/agents.h"
#include "policy/net.h"
#include "tests/unit/unit.h"

static int http(const char *req, struct http_req *r)
{
	return proxy_http_parse(req, strlen(req), r);
}

static void test_http_parse(struct unit *u)
{
	struct http_req r;
	CHECK_INT(u, http("CONNECT Example.COM:443 HTTP/1.1\r\nHost: x\r\n\r\n", &r), PARSE_OK);
	CHECK(u, r.is_connect);
	CHECK_STR(u, r.host, "example.com");
	CHECK_INT(u, r.port, 443);
	CHECK_INT(u, http("CONNECT [2001:db8::1]:8443 HTTP/1.1\r\n\r\n", &r), PARSE_OK);
	CHECK_STR(u, r.host, "2001:db8::1");
	CHECK_INT(u, r.port, 8443);
	const char *get = "GET http://a.test:8080/p?q=1 HTTP/1.1\r\nHost: evil.test\r\n\r\nBODY";
	CHECK_INT(u, http(get, &r), PARSE_OK);
	CHECK(u, !r.is_connect);
	CHECK_STR(u, r.host, "a.test");
	CHECK_INT(u, r.port, 8080);
	CHECK_INT(u, r.head_len, strlen(get) - 4);
	CHECK_INT(u, http("GET http://a.test HTTP/1.0\n\n", &r), PARSE_OK);
	CHECK_INT(u, r.port, 80);
	CHECK_INT(u, http("GET http://a.test/ HTTP/1.1\r\nHost: a", &r), PARSE_MORE);
	CHECK_INT(u, http("", &r), PARSE_MORE);
	const char *bad[] = {
		"GET /relative HTTP/1.1\r\n\r\n",
		"GET https://a.test/ HTTP/1.1\r\n\r\n",
		"GET http://u:p@a.test/ HTTP/1.1\r\n\r\n",
		"CONNECT a.test HTTP/1.1\r\n\r\n",
		"CONNECT a.test:0 HTTP/1.1\r\n\r\n",
		"CONNECT a.test:99999 HTTP/1.1\r\n\r\n",
		"CONNECT a.test:443\r\n\r\n",
		"CONNECT a.test:443 HTTP/2.0\r\n\r\n",
		"GET http://a.test/ HTTP/1.1\r\n folded\r\n\r\n",
		"GET http://a.test/ HTTP/1.1\r\nNoColon\r\n\r\n",
		"GET http://a_b..test/ HTTP/1.1\r\n\r\n",
		"G\x01T http://a.test/ HTTP/1.1\r\n\r\n",
		"CONNECT [::1:443 HTTP/1.1\r\n\r\n",
		"GET http://a.test/\x7f HTTP/1.1\r\n\r\n",
		"GET\r\n\r\n",
		"CONNECT 1.2.3.4:443x HTTP/1.1\r\n\r\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		if (!CHECK_INT(u, http(bad[i], &r), PARSE_BAD))
			fprintf(stderr, "  for: %s\n", bad[i]);
	CHECK_INT(u, proxy_http_parse("G\0T", 3, &r), PARSE_BAD);
	char *big = malloc(PROXY_HEAD_MAX + 100);
	memset(big, 'a', PROXY_HEAD_MAX + 100);
	memcpy(big, "GET http://a.test/ HTTP/1.1\r\nX: ", 32);
	CHECK_INT(u, proxy_http_parse(big, PROXY_HEAD_MAX + 100, &r), PARSE_TOO_BIG);
	CHECK_INT(u, proxy_http_parse(big, PROXY_HEAD_MAX - 1, &r), PARSE_MORE);
	free(big);
}

static void test_http_rewrite(struct unit *u)
{
	struct http_req r;
	const char *req = "POST http://a.test:8080/x?y HTTP/1.1\r\nHost: evil.test\r\nProxy-Connection: keep-alive\r\n"
			  "Content-Length: 4\r\nConnection: keep-alive, Upgrade\r\nProxy-Authorization: secret\r\n\r\n";
	char out[1024];
	CHECK_INT(u, http(req, &r), PARSE_OK);
	int n = proxy_http_rewrite(req, &r, out, sizeof out);
	CHECK(u, n > 0);
	out[n > 0 ? n : 0] = '\0';
	CHECK_STR(u, out, "POST /x?y HTTP/1.1\r\nHost: a.test:8080\r\nContent-Length: 4\r\nConnection: close\r\n\r\n");
	CHECK_INT(u, http("GET http://a.test?q HTTP/1.0\r\n\r\n", &r), PARSE_OK);
	n = proxy_http_rewrite("GET http://a.test?q HTTP/1.0\r\n\r\n", &r, out, sizeof out);
	out[n > 0 ? n : 0] = '\0';
	CHECK_STR(u, out, "GET /?q HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n");
	CHECK_INT(u, proxy_http_rewrite(req, &r, out, 10), -1);
}

static void test_socks(struct unit *u)
{
	int noauth, userpass;
	CHECK_INT(u, proxy_socks_greeting((const uint8_t *)"\x05\x02\x02\x00", 4, SOCKS_NOAUTH, &noauth), 4);
	CHECK(u, noauth);
	CHECK_INT(u, proxy_socks_greeting((const uint8_t *)"\x05\x01\x02", 3, SOCKS_NOAUTH, &noauth), 3);
	CHECK(u, !noauth);
	CHECK_INT(u, proxy_socks_greeting((const uint8_t *)"\x05\x01\x02", 3, SOCKS_USERPASS, &userpass), 3);
	CHECK(u, userpass);
	CHECK_INT(u, proxy_socks_greeting((const uint8_t *)"\x05\x02\x00", 3, SOCKS_NOAUTH, &noauth), PARSE_MORE);
	CHECK_INT(u, proxy_socks_greeting((const uint8_t *)"\x04\x01", 2, SOCKS_NOAUTH, &noauth), PARSE_BAD);
	CHECK_INT(u, proxy_socks_greeting((const uint8_t *)"\x05\x00", 2, SOCKS_NOAUTH, &noauth), PARSE_BAD);
	char user[256], pass[256];
	CHECK_INT(u,
		  proxy_socks_auth((const uint8_t *)"\x01\x02"
						    "ab\x03"
						    "xyz",
				   8, user, pass),
		  8);
	CHECK_STR(u, user, "ab");
	CHECK_STR(u, pass, "xyz");
	CHECK_INT(u,
		  proxy_socks_auth((const uint8_t *)"\x01\x02"
						    "ab\x03"
						    "xy",
				   7, user, pass),
		  PARSE_MORE);
	CHECK_INT(u,
		  proxy_socks_auth((const uint8_t *)"\x05\x02"
						    "ab",
				   4, user, pass),
		  PARSE_BAD);
	CHECK_INT(u,
		  proxy_socks_auth((const uint8_t *)"\x01\x02"
						    "a\0\x01"
						    "x",
				   6, user, pass),
		  PARSE_BAD);

	struct socks_req r;
	const uint8_t dom[] = { 5, 1, 0, 3, 6, 'A', '.', 'T', 'e', 's', 't', 0x01, 0xbb };
	CHECK_INT(u, proxy_socks_request(dom, sizeof dom, &r), (int)sizeof dom);
	CHECK_STR(u, r.host, "a.test");
	CHECK_INT(u, r.port, 443);
	CHECK_INT(u, proxy_socks_request(dom, sizeof dom - 1, &r), PARSE_MORE);
	const uint8_t v4[] = { 5, 1, 0, 1, 198, 51, 100, 10, 0, 80 };
	CHECK_INT(u, proxy_socks_request(v4, sizeof v4, &r), (int)sizeof v4);
	CHECK_STR(u, r.host, "198.51.100.10");
	const uint8_t v6[] = { 5, 1, 0, 4, 0x20, 1, 0xd, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 80 };
	CHECK_INT(u, proxy_socks_request(v6, sizeof v6, &r), (int)sizeof v6);
	CHECK_STR(u, r.host, "2001:db8::1");
	const uint8_t bind[] = { 5, 2, 0, 1, 1, 2, 3, 4, 0, 80 };
	CHECK_INT(u, proxy_socks_request(bind, 2, &r), -SOCKS_BAD_COMMAND);
	const uint8_t udp[] = { 5, 3, 0 };
	CHECK_INT(u, proxy_socks_request(udp, 3, &r), -SOCKS_BAD_COMMAND);
	const uint8_t atyp[] = { 5, 1, 0, 9, 1 };
	CHECK_INT(u, proxy_socks_request(atyp, 5, &r), -SOCKS_BAD_ATYP);
	const uint8_t nul[] = { 5, 1, 0, 3, 3, 'a', 0, 'b', 0, 80 };
	CHECK_INT(u, proxy_socks_request(nul, sizeof nul, &r), -SOCKS_HOST_UNREACH);
	const uint8_t port0[] = { 5, 1, 0, 1, 1, 2, 3, 4, 0, 0 };
	CHECK_INT(u, proxy_socks_request(port0, sizeof port0, &r), -SOCKS_FAIL);
	uint8_t out[32];
	struct net_addr a = { .family = AF_INET, .bytes = { 1, 2, 3, 4 } };
	CHECK_INT(u, proxy_socks_reply(out, SOCKS_OK, &a, 0x1234), 10);
	CHECK(u, memcmp(out, "\x05\x00\x00\x01\x01\x02\x03\x04\x12\x34", 10) == 0);
	CHECK_INT(u, proxy_socks_reply(out, SOCKS_NOT_ALLOWED, NULL, 0), 10);
	CHECK_INT(u, out[1], 2);
}

/* An answer to `q` (as dns_msg_query made it) with the given records. */
static size_t dns_answer(uint8_t *m, const uint8_t *q, size_t qlen, int rcode, const uint8_t *rr, size_t rrlen,
			 int count)
{
	memcpy(m, q, qlen);
	m[2] |= 0x80;
	m[3] = (uint8_t)(0x80 | rcode);
	m[7] = (uint8_t)count;
	if (rrlen > 0)
		memcpy(m + qlen, rr, rrlen);
	return qlen + rrlen;
}

static void test_dns_msg(struct unit *u)
{
	uint8_t q[DNS_MSG_MAX], m[DNS_MSG_MAX];
	int qlen = dns_msg_query(q, sizeof q, 0x1234, "good.test", DNS_TYPE_A);
	CHECK_INT(u, qlen, 12 + 11 + 4);
	CHECK_INT(u, dns_msg_query(q, sizeof q, 1, "bad..test", DNS_TYPE_A), -1);
	qlen = dns_msg_query(q, sizeof q, 0x1234, "good.test", DNS_TYPE_A);
	/* a CNAME (skipped), then an A record whose name is a pointer */
	const uint8_t rr[] = { 0xc0, 12, 0, 5, 0, 1, 0, 0, 0, 60, 0, 4, 1,   'x', 0xc0, 12,
			       0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 198, 51,  100,  10 };
	size_t len = dns_answer(m, q, (size_t)qlen, 0, rr, sizeof rr, 2);
	struct net_addr a[4];
	size_t n = 0;
	uint32_t ttl = 3600;
	CHECK_INT(u, dns_msg_answer(m, len, 0x1234, "GOOD.test.", DNS_TYPE_A, a, 4, &n, &ttl), 0);
	CHECK_INT(u, ttl, 60);
	CHECK_INT(u, n, 1);
	CHECK(u, n == 1 && a[0].family == AF_INET && a[0].bytes[3] == 10);
	n = 0;
	CHECK_INT(u, dns_msg_answer(m, len, 0x1235, "good.test", DNS_TYPE_A, a, 4, &n, NULL), -1);
	CHECK_INT(u, dns_msg_answer(m, len, 0x1234, "evil.test", DNS_TYPE_A, a, 4, &n, NULL), -1);
	CHECK_INT(u, dns_msg_answer(m, len, 0x1234, "good.test", DNS_TYPE_AAAA, a, 4, &n, NULL), -1);
	CHECK_INT(u, dns_msg_answer(m, len - 1, 0x1234, "good.test", DNS_TYPE_A, a, 4, &n, NULL), -1);
	CHECK_INT(u, dns_msg_answer(q, (size_t)qlen, 0x1234, "good.test", DNS_TYPE_A, a, 4, &n, NULL),
		  -1); /* not a reply */
	len = dns_answer(m, q, (size_t)qlen, 3, NULL, 0, 0);
	CHECK_INT(u, dns_msg_answer(m, len, 0x1234, "good.test", DNS_TYPE_A, a, 4, &n, NULL), 1);
	/* a pointer loop must end */
	const uint8_t loop[] = { 0xc0, (uint8_t)qlen, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 1, 2, 3, 4 };
	len = dns_answer(m, q, (size_t)qlen, 0, loop, sizeof loop, 1);
	n = 0;
	CHECK(u, dns_msg_answer(m, len, 0x1234, "good.test", DNS_TYPE_A, a, 4, &n, NULL) >= -1);
	CHECK(u, dns_name_valid("a-b.c_d.example."));
	CHECK(u, !dns_name_valid(".a"));
	CHECK(u, !dns_name_valid("a b"));
	char label[80];
	memset(label, 'a', 64);
	label[64] = '\0';
	CHECK(u, !dns_name_valid(label));
}

static void test_net_addr(struct unit *u)
{
	struct net_addr a;
	char buf[NET_ADDR_STRLEN];
	CHECK_INT(u, net_addr_parse("::ffff:127.0.0.1", &a), 0);
	net_addr_unmap(&a);
	CHECK_INT(u, a.family, AF_INET);
	CHECK_STR(u, net_addr_format(&a, buf, sizeof buf), "127.0.0.1");
	/* The proxy's fixed refusals are the policy's blocks, each named for
	 * what it is (::1 was once "unspecified address"). */
	static const char *const labels[][2] = {
		{ "0.1.2.3", "hardcoded: \"this network\" 0.0.0.0/8" },
		{ "224.0.0.1", "hardcoded: multicast 224.0.0.0/4" },
		{ "255.255.255.255", "hardcoded: reserved and broadcast 240.0.0.0/4" },
		{ "100.100.100.200", "hardcoded: shared address space 100.64.0.0/10" },
		{ "::", "hardcoded: unspecified address ::" },
		{ "::1", "hardcoded: loopback ::1" },
		{ "::1.2.3.4", "hardcoded: IPv4-compatible address ::/96" },
		{ "ff02::1", "hardcoded: multicast ff00::/8" },
		{ "fec0::1", "hardcoded: site-local fec0::/10" },
		{ "::ffff:127.0.0.1", "hardcoded: loopback 127.0.0.0/8" },
	};
	for (size_t i = 0; i < sizeof labels / sizeof *labels; i++) {
		net_addr_parse(labels[i][0], &a);
		const char *why = net_blocked(&a);
		if (!CHECK_STR(u, why ? why : "(open)", labels[i][1]))
			fprintf(stderr, "  for %s\n", labels[i][0]);
	}
	const char *fine[] = { "198.51.100.10", "2001:db8::10", "100.128.0.1", "1.1.1.1" };
	for (size_t i = 0; i < sizeof fine / sizeof *fine; i++) {
		net_addr_parse(fine[i], &a);
		CHECK(u, net_blocked(&a) == NULL);
	}
	CHECK_INT(u, net_addr_parse("1.2.3", &a), -1);
	CHECK_INT(u, net_addr_parse("[::1]", &a), -1);
}

/* ---- a proxy on a loop, spoken to over loopback ---- */

struct seen {
	struct unit *u;
	int n;
	char rule[256], host[256], addr[64], suggest[4096];
	int port;
};

/* The denial's parts: target "HOST:PORT" ("[V6]:PORT"), the rule
 * without the "; HOST resolved to ADDR" that names a refused address. */
static void on_denial(struct denial *d, void *arg)
{
	struct seen *s = arg;
	s->n++;
	CHECK_STR(s->u, d->op, "connect");
	CHECK_STR(s->u, d->layer, "proxy");
	const char *colon = strrchr(d->target, ':');
	bool v6 = d->target[0] == '[';
	snprintf(s->host, sizeof s->host, "%.*s", (int)(colon - d->target) - 2 * v6, d->target + v6);
	s->port = atoi(colon + 1);
	snprintf(s->addr, sizeof s->addr, "%s", d->addr != NULL ? d->addr : "");
	const char *tail = strstr(d->rule, " resolved to ");
	size_t n = strlen(d->rule);
	if (d->addr != NULL && tail != NULL && strcmp(tail + 13, d->addr) == 0)
		n = (size_t)(strrchr(d->rule, ';') - d->rule);
	snprintf(s->rule, sizeof s->rule, "%.*s", (int)n, d->rule);
	snprintf(s->suggest, sizeof s->suggest, "%s", d->suggest.kind != SUGGEST_NONE ? d->suggest.value : "");
}

/* A new connection to the proxy on port, req sent; -1 when that failed. */
static int send_to(int port, const void *req, size_t len)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0 || send(fd, req, len, 0) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Sends req, runs the loop until the proxy closes or 3 s pass. */
static size_t exchange(struct loop *l, int port, const void *req, size_t len, char *out, size_t size)
{
	int fd = send_to(port, req, len);
	size_t got = 0;
	out[0] = '\0';
	if (fd < 0)
		return 0;
	fcntl(fd, F_SETFL, O_NONBLOCK);
	uint64_t end = loop_now_ms() + 3000;
	while (loop_now_ms() < end) {
		loop_once(l, 10);
		ssize_t n = recv(fd, out + got, size - 1 - got, 0);
		if (n == 0 || (n < 0 && errno != EAGAIN))
			break;
		if (n > 0)
			got += (size_t)n;
	}
	out[got] = '\0';
	close(fd);
	return got;
}

static int listen_any(int *port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof a;
	if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 16) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &sl) < 0)
		return -1;
	*port = ntohs(a.sin_port);
	return fd;
}

/* A proxy for p on a loopback port of its own, telling seen. */
static struct proxy *proxy_on(struct loop *l, const struct policy *p, struct seen *seen, int *port)
{
	const char *err = NULL;
	return proxy_new(l, p, listen_any(port), on_denial, seen, &err);
}

/* An address of this host's own interfaces outside every fixed block
 * (eth0's, say), or "" when it has none. */
static void own_address(char *buf, size_t size)
{
	struct ifaddrs *list;
	buf[0] = '\0';
	if (getifaddrs(&list) < 0)
		return;
	for (struct ifaddrs *i = list; i != NULL && buf[0] == '\0'; i = i->ifa_next) {
		struct net_addr a = { 0 };
		if (i->ifa_addr == NULL || i->ifa_addr->sa_family != AF_INET)
			continue;
		a.family = AF_INET;
		memcpy(a.bytes, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, 4);
		if (net_blocked(&a) == NULL)
			net_addr_format(&a, buf, size);
	}
	freeifaddrs(list);
}

/* A literal of the host's own address: refused as such, and nothing
 * offered (an allow entry would not help: the proxy refuses it anyway). */
static int test_own_address(struct unit *u, struct loop *l, int port, struct seen *seen)
{
	char own[NET_ADDR_STRLEN], req[128], out[4096];
	own_address(own, sizeof own);
	if (own[0] == '\0') {
		fprintf(stderr,
			"test_proxy: no address of this host outside the fixed blocks; own-address check skipped\n");
		return 0;
	}
	snprintf(req, sizeof req, "CONNECT %s:443 HTTP/1.1\r\n\r\n", own);
	exchange(l, port, req, strlen(req), out, sizeof out);
	CHECK(u, strncmp(out, "HTTP/1.1 403 ", 13) == 0);
	CHECK_STR(u, seen->rule, "hardcoded: an address of this host");
	CHECK_STR(u, seen->suggest, "");
	CHECK(u, strstr(out, "allow with") == NULL);
	return 1;
}

static void test_proxy_loop(struct unit *u)
{
	static const struct origin user = { .layer = LAYER_USER };
	struct policy p = { .profile = "workspace", .sandboxed = true };
	p.net.mode = NET_PROXY;
	rules_add(&p.net.allow, "allowed.test", user);
	rules_add(&p.net.allow, "*.wild.test", user);
	rules_add(&p.net.deny, "bad.wild.test", user);
	char hosts[] = "/tmp/sandmux-test-hosts.XXXXXX";
	int hfd = mkstemp(hosts);
	dprintf(hfd, "127.0.0.1 allowed.test\n10.0.0.1 a.wild.test\n::1 v6lo.wild.test\n");
	close(hfd);
	setenv("SANDMUX_HOSTS", hosts, 1);
	setenv("SANDMUX_DNS", "127.0.0.1:9", 1); /* nothing listens: never the real resolver */

	struct loop *l = loop_new();
	struct seen seen = { .u = u };
	int port = 0;
	struct proxy *px = proxy_on(l, &p, &seen, &port);
	CHECK(u, px != NULL);
	if (px == NULL)
		return;
	char out[8192];
	const char *garbage = "GARBAGE\r\n\r\n";
	exchange(l, port, garbage, strlen(garbage), out, sizeof out);
	CHECK(u, strncmp(out, "HTTP/1.1 400 ", 13) == 0);
	CHECK_INT(u, proxy_stats(px)->bad_request, 1);

	char *big = malloc(PROXY_HEAD_MAX + 10);
	memset(big, 'a', PROXY_HEAD_MAX + 10);
	memcpy(big, "GET http://allowed.test/ HTTP/1.1\r\nX: ", 38);
	exchange(l, port, big, PROXY_HEAD_MAX + 10, out, sizeof out);
	free(big);
	CHECK(u, strncmp(out, "HTTP/1.1 431 ", 13) == 0);
	CHECK_INT(u, proxy_stats(px)->too_large, 1);

	const char *denied = "CONNECT other.test:443 HTTP/1.1\r\n\r\n";
	exchange(l, port, denied, strlen(denied), out, sizeof out);
	CHECK(u, strncmp(out, "HTTP/1.1 403 ", 13) == 0);
	CHECK(u,
	      strstr(out, "sandmux proxy: denied connect other.test:443 (networkPolicy: not in allow list)") != NULL);
	CHECK_INT(u, seen.n, 1);
	CHECK_STR(u, seen.host, "other.test");
	CHECK_INT(u, seen.port, 443);
	CHECK_STR(u, seen.rule, "networkPolicy: not in allow list");
	CHECK_STR(u, seen.suggest, "other.test");
	CHECK_STR(u, seen.addr, "");

	const char *deny = "GET http://bad.wild.test/ HTTP/1.1\r\n\r\n";
	exchange(l, port, deny, strlen(deny), out, sizeof out);
	CHECK_STR(u, seen.rule, "bad.wild.test"); /* policy_load adds the "networkPolicy.deny: " label */
	CHECK_STR(u, seen.suggest, "");

	/* allowed names resolving (hosts file) to loopback and private */
	const char *lo = "CONNECT allowed.test:443 HTTP/1.1\r\n\r\n";
	exchange(l, port, lo, strlen(lo), out, sizeof out);
	CHECK(u, strncmp(out, "HTTP/1.1 403 ", 13) == 0);
	CHECK_STR(u, seen.host, "allowed.test");
	CHECK_STR(u, seen.addr, "127.0.0.1");
	CHECK_STR(u, seen.rule, "hardcoded: loopback 127.0.0.0/8");
	CHECK_STR(u, seen.suggest, "");
	const char *v6lo = "CONNECT v6lo.wild.test:443 HTTP/1.1\r\n\r\n";
	exchange(l, port, v6lo, strlen(v6lo), out, sizeof out);
	CHECK_STR(u, seen.addr, "::1");
	CHECK_STR(u, seen.rule, "hardcoded: loopback ::1");
	CHECK_STR(u, seen.suggest, "");
	const char *v6lit = "CONNECT [::1]:443 HTTP/1.1\r\n\r\n";
	exchange(l, port, v6lit, strlen(v6lit), out, sizeof out);
	CHECK_STR(u, seen.rule, "hardcoded: loopback ::1");
	CHECK_STR(u, seen.suggest, "");
	CHECK(u, strstr(out, "allow with") == NULL);
	const char *mcast = "CONNECT 224.0.0.1:443 HTTP/1.1\r\n\r\n";
	exchange(l, port, mcast, strlen(mcast), out, sizeof out);
	CHECK_STR(u, seen.rule, "hardcoded: multicast 224.0.0.0/4");
	CHECK_STR(u, seen.suggest, ""); /* was offered: an allow entry the proxy refused anyway */
	int own_tried = test_own_address(u, l, port, &seen);
	const uint8_t socks_priv[] = { 5,   1,   0,   5,   1,   0,   3,   11,  'a', '.', 'w',
				       'i', 'l', 'd', '.', 't', 'e', 's', 't', 0,   80 };
	exchange(l, port, socks_priv, sizeof socks_priv, out, sizeof out);
	CHECK(u, memcmp(out, "\x05\x00\x05\x02", 4) == 0);
	CHECK_STR(u, seen.addr, "10.0.0.1");

	const uint8_t bind[] = { 5, 1, 0, 5, 2, 0, 1, 1, 2, 3, 4, 0, 80 };
	exchange(l, port, bind, sizeof bind, out, sizeof out);
	CHECK(u, memcmp(out, "\x05\x00\x05\x07", 4) == 0);
	CHECK_INT(u, proxy_stats(px)->socks_errors, 1);
	const uint8_t meta[] = { 5, 1, 0, 5, 1, 0, 1, 169, 254, 169, 254, 0, 80 };
	exchange(l, port, meta, sizeof meta, out, sizeof out);
	CHECK(u, memcmp(out, "\x05\x00\x05\x02", 4) == 0);
	CHECK_STR(u, seen.host, "169.254.169.254");
	const uint8_t zero[] = { 5, 1, 0, 5, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 80 };
	exchange(l, port, zero, sizeof zero, out, sizeof out);
	CHECK(u, memcmp(out, "\x05\x00\x05\x02", 4) == 0);
	CHECK_STR(u, seen.rule, "hardcoded: unspecified address ::");
	CHECK_INT(u, proxy_stats(px)->denied, 9 + own_tried);
	CHECK_INT(u, proxy_stats(px)->active, 0);
	proxy_free(px);
	loop_free(l);
	rules_free(&p.net.allow);
	rules_free(&p.net.deny);
	unlink(hosts);
}

/* With a secret, nothing is decided for a client that does not prove it
 * (no denial event, no connection out): HTTP gets 407, SOCKS5 has to
 * log in with RFC 1929. */
static void test_proxy_auth(struct unit *u)
{
	struct policy p = { .profile = "workspace", .sandboxed = true };
	p.net.mode = NET_PROXY;
	setenv("SANDMUX_DNS", "127.0.0.1:9", 1);
	struct loop *l = loop_new();
	struct seen seen = { .u = u };
	int port = 0;
	struct proxy *px = proxy_on(l, &p, &seen, &port);
	if (!CHECK(u, px != NULL))
		return;
	proxy_set_auth(px, "s3cret");
	char out[8192];
	const char *none = "CONNECT other.test:443 HTTP/1.1\r\n\r\n";
	exchange(l, port, none, strlen(none), out, sizeof out);
	CHECK(u, strncmp(out, "HTTP/1.1 407 ", 13) == 0);
	CHECK(u, strstr(out, "Proxy-Authenticate: Basic realm=\"sandmux\"\r\n") != NULL);
	/* base64("sandmux:wrong"), then base64("sandmux:s3cret") */
	const char *wrong =
		"GET http://other.test/ HTTP/1.1\r\nProxy-Authorization: Basic c2FuZG11eDp3cm9uZw==\r\n\r\n";
	exchange(l, port, wrong, strlen(wrong), out, sizeof out);
	CHECK(u, strncmp(out, "HTTP/1.1 407 ", 13) == 0);
	const char *twice = "CONNECT other.test:443 HTTP/1.1\r\nProxy-Authorization: Basic c2FuZG11eDpzM2NyZXQ=\r\n"
			    "Proxy-Authorization: Basic c2FuZG11eDp3cm9uZw==\r\n\r\n";
	exchange(l, port, twice, strlen(twice), out, sizeof out);
	CHECK(u, strncmp(out, "HTTP/1.1 407 ", 13) == 0);
	CHECK_INT(u, seen.n, 0);
	CHECK_INT(u, proxy_stats(px)->unauthorized, 3);
	const char *good =
		"CONNECT other.test:443 HTTP/1.1\r\nproxy-authorization:  basic c2FuZG11eDpzM2NyZXQ= \r\n\r\n";
	exchange(l, port, good, strlen(good), out, sizeof out);
	CHECK(u, strncmp(out, "HTTP/1.1 403 ", 13) == 0); /* past the check: decided */
	CHECK_INT(u, seen.n, 1);

	const uint8_t noauth[] = { 5, 1, 0 };
	exchange(l, port, noauth, sizeof noauth, out, sizeof out);
	CHECK(u, memcmp(out, "\x05\xff", 2) == 0);
	const uint8_t bad[] = { 5, 2, 0, 2, 1, 7, 's', 'a', 'n', 'd', 'm', 'u', 'x', 5, 'w', 'r', 'o', 'n', 'g' };
	exchange(l, port, bad, sizeof bad, out, sizeof out);
	CHECK(u, memcmp(out, "\x05\x02\x01\x01", 4) == 0);
	CHECK_INT(u, proxy_stats(px)->unauthorized, 5);
	const uint8_t login[] = { 5,   1,   2,   1,   7, 's', 'a', 'n', 'd', 'm', 'u', 'x', 6, 's', '3',
				  'c', 'r', 'e', 't', 5, 1,   0,   1,   192, 0,   2,   1,   0, 80 };
	exchange(l, port, login, sizeof login, out, sizeof out);
	CHECK(u, memcmp(out, "\x05\x02\x01\x00\x05\x02", 6) == 0); /* logged in, then decided: not allowed */
	CHECK_INT(u, seen.n, 2);
	CHECK_STR(u, seen.host, "192.0.2.1");
	CHECK_INT(u, proxy_stats(px)->active, 0);
	proxy_free(px);
	loop_free(l);
}

static void test_env(struct unit *u)
{
	char *env[PROXY_ENV_N];
	CHECK_INT(u, proxy_env(3128, NULL, env), 0);
	CHECK_STR(u, env[0], "HTTP_PROXY=http://127.0.0.1:3128");
	CHECK_STR(u, env[2], "ALL_PROXY=socks5h://127.0.0.1:3128");
	CHECK_STR(u, env[7], "no_proxy=localhost,127.0.0.1,::1");
	proxy_env_free(env);
	CHECK_INT(u, proxy_env(40000, "0123abcd", env), 0);
	CHECK_STR(u, env[1], "HTTPS_PROXY=http://sandmux:0123abcd@127.0.0.1:40000");
	CHECK_STR(u, env[6], "all_proxy=socks5h://sandmux:0123abcd@127.0.0.1:40000");
	CHECK_STR(u, env[3], "NO_PROXY=localhost,127.0.0.1,::1");
	proxy_env_free(env);
}

/* Sends req on a new connection and runs the loop for ms; what came
 * back so far is in out. Returns the connection. */
static int send_spin(struct loop *l, int port, const char *req, int ms, char *out, size_t size)
{
	int fd = send_to(port, req, strlen(req));
	out[0] = '\0';
	if (fd < 0)
		return fd;
	for (uint64_t end = loop_now_ms() + (uint64_t)ms; loop_now_ms() < end;)
		loop_once(l, 10);
	ssize_t n = recv(fd, out, size - 1, MSG_DONTWAIT);
	out[n > 0 ? n : 0] = '\0';
	return fd;
}

/* Holding: a refused host an allow entry could open waits, counting
 * down, until decided again; a host an agent preset names (an admin
 * allow list without it, say) is refused at once, never held. */
static void test_proxy_hold(struct unit *u)
{
	static const struct origin user = { .layer = LAYER_USER };
	struct policy p = { .profile = "workspace", .sandboxed = true };
	p.net.mode = NET_PROXY;
	rules_add(&p.net.allow, "allowed.test", user);
	struct policy_agent agent = { .name = "agentx", .enabled = true };
	rules_add(&agent.hosts, "api.agentx.test", user);
	struct policy_agents agents = { .v = &agent, .n = 1 };
	p.agents = &agents;
	setenv("SANDMUX_DNS", "127.0.0.1:9", 1);
	struct loop *l = loop_new();
	struct seen seen = { .u = u };
	int port = 0;
	struct proxy *px = proxy_on(l, &p, &seen, &port);
	CHECK(u, px != NULL);
	if (px == NULL)
		return;
	proxy_set_hold(px, 1500);
	char out[8192];
	int fd = send_spin(l, port, "CONNECT api.agentx.test:443 HTTP/1.1\r\n\r\n", 300, out, sizeof out);
	CHECK(u, strncmp(out, "HTTP/1.1 403 ", 13) == 0); /* at once, not after the hold */
	CHECK_INT(u, seen.n, 1);
	CHECK_STR(u, seen.suggest, "api.agentx.test"); /* still offered: a prompt, not a hang */
	CHECK_INT(u, (int)proxy_held_count(px), 0);
	CHECK_INT(u, proxy_held_left_ms(px), -1);
	close(fd);

	fd = send_spin(l, port, "CONNECT other.test:443 HTTP/1.1\r\n\r\n", 300, out, sizeof out);
	CHECK_STR(u, out, ""); /* held: no answer yet */
	CHECK_INT(u, (int)proxy_held_count(px), 1);
	int left = proxy_held_left_ms(px);
	CHECK(u, left > 0 && left <= 1300);
	for (uint64_t end = loop_now_ms() + 300; loop_now_ms() < end;)
		loop_once(l, 10);
	CHECK(u, proxy_held_left_ms(px) < left - 200); /* counting down */
	CHECK_INT(u, (int)proxy_decide_held(px), 1);
	CHECK_INT(u, proxy_held_left_ms(px), -1);
	close(fd);
	proxy_free(px);
	loop_free(l);
	rules_free(&p.net.allow);
	rules_free(&agent.hosts);
}

struct dns_seen {
	int calls;
	struct dns_result r;
};

static void dns_seen_cb(const struct dns_result *r, void *arg)
{
	struct dns_seen *seen = arg;
	seen->calls++;
	seen->r = *r;
}

/* Answers what the fake nameserver received: A 192.0.2.7 (TTL 60), no
 * AAAA. Returns how many questions it answered. */
static int dns_serve(int fd)
{
	uint8_t q[DNS_MSG_MAX], m[DNS_MSG_MAX + 16];
	const uint8_t rr[] = { 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 192, 0, 2, 7 };
	struct sockaddr_in from;
	socklen_t flen = sizeof from;
	int answered = 0;
	ssize_t n;
	while ((n = recvfrom(fd, q, sizeof q, MSG_DONTWAIT, (struct sockaddr *)&from, &flen)) > 12) {
		bool a = q[n - 3] == DNS_TYPE_A;
		size_t len = dns_answer(m, q, (size_t)n, 0, rr, a ? sizeof rr : 0, a);
		sendto(fd, m, len, 0, (struct sockaddr *)&from, flen);
		answered++;
		flen = sizeof from;
	}
	return answered;
}

/* The answer cache, allocated with the first answer: a second lookup of
 * the name is answered from it, with the nameserver gone. */
static void test_dns_cache(struct unit *u)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t salen = sizeof sa;
	CHECK(u, fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0 &&
			 getsockname(fd, (struct sockaddr *)&sa, &salen) == 0);
	char server[32];
	snprintf(server, sizeof server, "127.0.0.1:%d", ntohs(sa.sin_port));
	setenv("SANDMUX_DNS", server, 1);
	setenv("SANDMUX_HOSTS", "", 1);
	struct loop *l = loop_new();
	const char *err = NULL;
	struct dns *d = dns_new(l, &err);
	CHECK(u, d != NULL);
	if (d == NULL)
		return;
	struct dns_seen seen = { 0 };
	int questions = 0;
	CHECK(u, dns_resolve(d, "cached.test", dns_seen_cb, &seen) != NULL);
	for (uint64_t until = loop_now_ms() + 10000; seen.calls == 0 && loop_now_ms() < until;) {
		loop_once(l, 20);
		questions += dns_serve(fd);
	}
	CHECK_INT(u, seen.calls, 1);
	CHECK_INT(u, seen.r.status, DNS_OK);
	CHECK_INT(u, seen.r.n, 1);
	CHECK(u, seen.r.n == 1 && seen.r.addr[0].family == AF_INET && seen.r.addr[0].bytes[3] == 7);
	CHECK_INT(u, questions, 2); /* A and AAAA */
	close(fd);                  /* nothing answers now: only the cache can */
	seen = (struct dns_seen){ 0 };
	CHECK(u, dns_resolve(d, "CACHED.test", dns_seen_cb, &seen) != NULL);
	for (uint64_t until = loop_now_ms() + 10000; seen.calls == 0 && loop_now_ms() < until;)
		loop_once(l, 20);
	CHECK_INT(u, seen.calls, 1);
	CHECK_INT(u, seen.r.status, DNS_OK);
	CHECK(u, seen.r.n == 1 && seen.r.addr[0].bytes[3] == 7);
	dns_free(d);
	loop_free(l);
	unsetenv("SANDMUX_DNS");
	unsetenv("SANDMUX_HOSTS");
}

int main(void)
{
	struct unit u = { 0 };
	test_http_parse(&u);
	test_http_rewrite(&u);
	test_socks(&u);
	test_dns_msg(&u);
	test_dns_cache(&u);
	test_net_addr(&u);
	test_proxy_loop(&u);
	test_proxy_auth(&u);
	test_proxy_hold(&u);
	test_env(&u);
	return unit_done(&u, "test_proxy");
}
