/* net: host patterns, the hardcoded address blocks and
 * policy_decide_host(). */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "policy/net.h"

static const uint8_t v4mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

/* ::ffff:a.b.c.d is a.b.c.d: blocks and rules see one form only. */
static void addr_fold(struct net_addr *a)
{
	if (a->family == AF_INET6 && memcmp(a->bytes, v4mapped, 12) == 0) {
		memmove(a->bytes, a->bytes + 12, 4);
		memset(a->bytes + 4, 0, 12);
		a->family = AF_INET;
	}
}

bool host_literal_parse(const char *text, struct net_addr *a)
{
	char buf[64];
	size_t n = strlen(text);
	memset(a, 0, sizeof *a);
	if (n >= 2 && text[0] == '[' && text[n - 1] == ']' && n - 2 < sizeof buf) {
		memcpy(buf, text + 1, n - 2);
		buf[n - 2] = 0;
		text = buf;
	}
	if (inet_pton(AF_INET, text, a->bytes) == 1)
		a->family = AF_INET;
	else if (inet_pton(AF_INET6, text, a->bytes) == 1)
		a->family = AF_INET6;
	else
		return false;
	addr_fold(a);
	return true;
}

static bool addr_in(const struct net_addr *a, const struct net_addr *net, int prefix)
{
	if (a->family != net->family)
		return false;
	int full = prefix / 8, rest = prefix % 8;
	if (memcmp(a->bytes, net->bytes, (size_t)full) != 0)
		return false;
	if (!rest)
		return true;
	uint8_t mask = (uint8_t)(0xff << (8 - rest));
	return (a->bytes[full] & mask) == (net->bytes[full] & mask);
}

/* Every address no policy entry can open, first match wins (so :: and
 * ::1 come before the ::/96 they lie in). Beyond DESIGN.md's private and
 * loopback ranges: the unspecified and "this network" forms (they reach
 * the local host), shared address space (carrier-grade NAT; some clouds'
 * metadata lives there), multicast, the reserved 240/4 with the broadcast
 * address, and IPv6's deprecated IPv4-compatible and site-local forms.
 * The proxy adds the host's own interface addresses (net-addr.h), which
 * take a system call to know. */
static const struct block {
	const char *net;
	int prefix;
	const char *rule;
} blocks[] = {
	{ "0.0.0.0", 8, "hardcoded: \"this network\" 0.0.0.0/8" },
	{ "10.0.0.0", 8, "hardcoded: private address 10.0.0.0/8" },
	{ "100.64.0.0", 10, "hardcoded: shared address space 100.64.0.0/10" },
	{ "127.0.0.0", 8, "hardcoded: loopback 127.0.0.0/8" },
	{ "169.254.0.0", 16, "hardcoded: link-local and cloud metadata 169.254.0.0/16" },
	{ "172.16.0.0", 12, "hardcoded: private address 172.16.0.0/12" },
	{ "192.168.0.0", 16, "hardcoded: private address 192.168.0.0/16" },
	{ "224.0.0.0", 4, "hardcoded: multicast 224.0.0.0/4" },
	{ "240.0.0.0", 4, "hardcoded: reserved and broadcast 240.0.0.0/4" },
	{ "::", 128, "hardcoded: unspecified address ::" },
	{ "::1", 128, "hardcoded: loopback ::1" },
	{ "::", 96, "hardcoded: IPv4-compatible address ::/96" },
	{ "fe80::", 10, "hardcoded: link-local fe80::/10" },
	{ "fec0::", 10, "hardcoded: site-local fec0::/10" },
	{ "fc00::", 7, "hardcoded: unique local fc00::/7" },
	{ "ff00::", 8, "hardcoded: multicast ff00::/8" },
};

const char *net_block_rule(size_t i)
{
	return i < sizeof blocks / sizeof blocks[0] ? blocks[i].rule : NULL;
}

const char *net_blocked(const struct net_addr *a)
{
	struct net_addr folded = *a, net;
	addr_fold(&folded);
	for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
		host_literal_parse(blocks[i].net, &net);
		if (addr_in(&folded, &net, blocks[i].prefix))
			return blocks[i].rule;
	}
	return NULL;
}

static int bad(char *errbuf, const char *text, const char *what)
{
	snprintf(errbuf, NET_ERR_MAX, "\"%.80s\" is not %s", text, what);
	return -1;
}

static bool domain_valid(const char *d)
{
	size_t n = strlen(d), label = 0;
	if (n == 0 || n > 253)
		return false;
	for (size_t i = 0; i <= n; i++) {
		char c = d[i];
		if (c == '.' || c == 0) {
			if (label == 0 || label > 63 || d[i - 1] == '-' || d[i - label] == '-')
				return false;
			label = 0;
		} else if (isalnum((unsigned char)c) || c == '-' || c == '_') {
			label++;
		} else {
			return false;
		}
	}
	return true;
}

static int port_parse(const char *s, int *port)
{
	if (!*s || strlen(s) > 5 || strspn(s, "0123456789") != strlen(s))
		return -1;
	*port = atoi(s);
	return *port >= 1 && *port <= 65535 ? 0 : -1;
}

/* Splits "host:port", "[v6]:port", "[v6]" and bare v6 into host and port. */
static int split_port(char *h, struct host_pattern *hp, const char *text, char *errbuf)
{
	char *colon;
	if (h[0] == '[') {
		char *close = strchr(h, ']');
		if (!close || (close[1] && close[1] != ':'))
			return bad(errbuf, text, "a valid [IPv6]:port");
		if (close[1] == ':' && port_parse(close + 2, &hp->port) < 0)
			return bad(errbuf, text, "a valid host:port (port 1-65535)");
		memmove(h, h + 1, (size_t)(close - h - 1));
		h[close - h - 1] = 0;
		return 0;
	}
	colon = strchr(h, ':');
	if (colon && strchr(colon + 1, ':'))
		return 0; /* bare IPv6, no port */
	if (colon) {
		if (port_parse(colon + 1, &hp->port) < 0)
			return bad(errbuf, text, "a valid host:port (port 1-65535)");
		*colon = 0;
	}
	return 0;
}

static int cidr_parse(char *h, struct host_pattern *hp, const char *text, char *errbuf)
{
	char *slash = strchr(h, '/');
	int max;
	hp->kind = HOST_CIDR;
	if (slash)
		*slash = 0;
	if (inet_pton(AF_INET, h, hp->addr.bytes) == 1)
		hp->addr.family = AF_INET, max = 32;
	else if (inet_pton(AF_INET6, h, hp->addr.bytes) == 1)
		hp->addr.family = AF_INET6, max = 128;
	else
		return bad(errbuf, text, "a valid CIDR");
	hp->prefix = max;
	if (slash) {
		const char *len = slash + 1;
		if (!*len || strlen(len) > 3 || strspn(len, "0123456789") != strlen(len) || atoi(len) > max)
			return bad(errbuf, text, "a valid CIDR");
		hp->prefix = atoi(len);
	}
	if (hp->addr.family == AF_INET6 && memcmp(hp->addr.bytes, v4mapped, 12) == 0 && hp->prefix >= 96) {
		addr_fold(&hp->addr);
		hp->prefix -= 96;
	}
	return 0;
}

/* Strips "scheme://" and a URL path; a "/N" after an address stays (CIDR). */
static void strip_url(char *h)
{
	char *scheme = strstr(h, "://");
	if (scheme)
		memmove(h, scheme + 3, strlen(scheme + 3) + 1);
	char *slash = strchr(h, '/');
	if (slash && (!slash[1] || strspn(slash + 1, "0123456789") != strlen(slash + 1)))
		*slash = 0;
}

int host_pattern_parse(const char *text, struct host_pattern *hp, char *errbuf)
{
	char h[300];
	memset(hp, 0, sizeof *hp);
	if (strlen(text) >= sizeof h)
		return bad(errbuf, text, "a host pattern (too long)");
	snprintf(h, sizeof h, "%s", text);
	strip_url(h);
	if (split_port(h, hp, text, errbuf) < 0)
		return -1;
	if (strchr(h, '/') || strchr(h, ':') || strspn(h, "0123456789.") == strlen(h))
		return cidr_parse(h, hp, text, errbuf);
	hp->kind = HOST_DOMAIN;
	const char *d = h;
	if (strncmp(h, "*.", 2) == 0) {
		hp->kind = HOST_WILDCARD;
		d += 2;
	}
	size_t n = strlen(d);
	if (n && d[n - 1] == '.')
		n--; /* "example.com." is example.com */
	snprintf(hp->domain, sizeof hp->domain, "%.*s", (int)n, d);
	for (char *c = hp->domain; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	if (!domain_valid(hp->domain))
		return bad(errbuf, text, "a valid domain, *.domain or CIDR");
	return 0;
}

static bool name_match(const struct host_pattern *hp, const char *host)
{
	char name[256];
	size_t n = strlen(host);
	if (n && host[n - 1] == '.')
		n--;
	if (n >= sizeof name)
		return false;
	for (size_t i = 0; i < n; i++)
		name[i] = (char)tolower((unsigned char)host[i]);
	name[n] = 0;
	if (strcmp(name, hp->domain) == 0)
		return true;
	size_t dn = strlen(hp->domain);
	return hp->kind == HOST_WILDCARD && n > dn && name[n - dn - 1] == '.' && strcmp(name + n - dn, hp->domain) == 0;
}

bool host_pattern_match(const struct host_pattern *hp, const char *host, const struct net_addr *addr, int port)
{
	if (hp->port && port && hp->port != port)
		return false;
	struct net_addr lit;
	if (hp->kind != HOST_CIDR)
		return host && !host_literal_parse(host, &lit) && name_match(hp, host);
	if (host && host_literal_parse(host, &lit) && addr_in(&lit, &hp->addr, hp->prefix))
		return true;
	if (addr) {
		struct net_addr a = *addr;
		addr_fold(&a);
		return addr_in(&a, &hp->addr, hp->prefix);
	}
	return false;
}

static struct decision decision(bool allow, const char *rule, struct origin o)
{
	return (struct decision){ .allow = allow, .rule = rule, .origin = o };
}

static const struct rule *rules_match_host(const struct rules *r, const char *host, const struct net_addr *addr,
					   int port)
{
	char err[NET_ERR_MAX];
	struct host_pattern hp;
	for (size_t i = 0; i < r->n; i++)
		if (host_pattern_parse(r->v[i].text, &hp, err) == 0 && host_pattern_match(&hp, host, addr, port))
			return &r->v[i];
	return NULL;
}

static bool is_localhost(const char *host)
{
	size_t n = host ? strlen(host) : 0;
	if (n && host[n - 1] == '.')
		n--;
	return (n == 9 && strncasecmp(host, "localhost", 9) == 0) ||
	       (n > 10 && strncasecmp(host + n - 10, ".localhost", 10) == 0);
}

/* The hardcoded blocks, on the literal asked for and the resolved address. */
static const char *blocked(const char *host, const struct net_addr *addr)
{
	struct net_addr lit;
	const char *why = NULL;
	if (is_localhost(host))
		return "hardcoded: loopback name localhost";
	if (host && host_literal_parse(host, &lit))
		why = net_blocked(&lit);
	if (!why && addr)
		why = net_blocked(addr);
	return why;
}

struct decision policy_decide_host(const struct policy *p, const char *host, const struct net_addr *addr, int port)
{
	const struct origin hard = { .layer = LAYER_HARDCODED };
	if (!p->sandboxed)
		return decision(true, "no sandbox", p->profile_origin);
	if (p->net.mode == NET_HOST)
		return decision(true, "profile: unrestricted network", p->profile_origin);
	if (p->net.mode == NET_NONE)
		return decision(false, "profile: no network (read-only, strict or restrict_network)",
				p->profile_origin);
	const char *why = blocked(host, addr);
	if (why)
		return decision(false, why, hard);
	const struct rule *r = rules_match_host(&p->net.deny, host, addr, port);
	if (r)
		return decision(false, r->label ? r->label : r->text, r->origin);
	if ((r = rules_match_host(&p->net.allow, host, addr, port)))
		return decision(true, r->label ? r->label : r->text, r->origin);
	if (p->net.default_allow)
		return decision(true, "networkPolicy.default: allow", p->net.default_origin);
	return decision(false, "networkPolicy: not in allow list", p->net.default_origin);
}
