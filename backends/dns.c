/* dns: the resolver's life in the loop (see dns.h). One UDP socket per
 * query, connected to the nameserver so the kernel drops datagrams from
 * anyone else; A and AAAA go out together with random ids; an attempt
 * that times out moves to the next nameserver. */
#include "backends/dns.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "backends/loop.h"
#include "backends/net-addr.h"

#define DNS_ATTEMPT_MS 2500
#define DNS_ATTEMPTS   2 /* per nameserver */

struct dns_server {
	struct net_addr addr;
	int port;
};

/* A name's answer, kept until it expires. */
struct dns_cached {
	char name[256];
	uint64_t expires_ms; /* 0: free */
	size_t n[2];
	struct net_addr addr[2][DNS_MAX_ADDRS];
};

struct dns {
	struct loop *loop;
	struct dns_server server[DNS_MAX_SERVERS];
	size_t nservers;
	char hosts[256];        /* "" when disabled */
	struct lookup *lookups; /* in flight */
	/* DNS_CACHE entries (58 KiB), allocated with the first answer: a
	 * pane whose proxy never resolves a name does not pay for them. */
	struct dns_cached *cache;
};

/* One caller waiting for a lookup: the handle dns_resolve() returns. */
struct dns_query {
	struct lookup *lk;
	dns_cb cb;
	void *arg;
	struct dns_query *next;
};

/* One name being looked up, for every caller asking for it meanwhile: a
 * burst of connections to one host makes one pair of questions, not
 * hundreds that would overflow a resolver's socket. */
struct lookup {
	struct dns *dns;
	struct lookup *next, **pprev;
	struct dns_query *waiters;
	bool delivering;
	char name[256];
	bool asked;   /* questions went out: the answer may be cached */
	uint32_t ttl; /* least TTL of the records received */
	int fd;
	struct watch *watch;
	uint64_t timer;
	int attempt;
	uint16_t id[2]; /* A, AAAA */
	bool answered[2];
	size_t n[2];
	struct net_addr addr[2][DNS_MAX_ADDRS];
};

const char *dns_status_name(enum dns_status s)
{
	switch (s) {
	case DNS_OK:
		return "ok";
	case DNS_NOTFOUND:
		return "no such host";
	case DNS_TIMEOUT:
		return "resolver timed out";
	default:
		return "resolver failed";
	}
}

/* "IP", "IP:PORT", "[V6]:PORT" */
static int parse_server(const char *text, struct dns_server *s)
{
	char buf[128];
	snprintf(buf, sizeof buf, "%s", text);
	char *host = buf, *port = NULL;
	if (buf[0] == '[') {
		host = buf + 1;
		char *end = strchr(host, ']');
		if (end == NULL)
			return -1;
		*end = '\0';
		if (end[1] == ':')
			port = end + 2;
		else if (end[1] != '\0')
			return -1;
	} else if (strchr(buf, ':') == strrchr(buf, ':') && strchr(buf, ':') != NULL) {
		port = strchr(buf, ':');
		*port++ = '\0';
	}
	char *pct = strchr(host, '%'); /* link-local zones: cannot be used */
	if (pct != NULL || net_addr_parse(host, &s->addr) < 0)
		return -1;
	s->port = 53;
	if (port != NULL) {
		char *end;
		long p = strtol(port, &end, 10);
		if (*end != '\0' || p < 1 || p > 65535)
			return -1;
		s->port = (int)p;
	}
	return 0;
}

static void read_resolv_conf(struct dns *d, const char *path)
{
	FILE *f = fopen(path, "re");
	if (f == NULL)
		return;
	char line[512];
	while (d->nservers < DNS_MAX_SERVERS && fgets(line, sizeof line, f) != NULL) {
		char key[32], val[128];
		if (sscanf(line, "%31s %127s", key, val) == 2 && strcmp(key, "nameserver") == 0 &&
		    parse_server(val, &d->server[d->nservers]) == 0 && d->server[d->nservers].port == 53)
			d->nservers++;
	}
	fclose(f);
}

struct dns *dns_new(struct loop *loop, const char **err)
{
	struct dns *d = calloc(1, sizeof *d);
	if (d == NULL) {
		*err = "out of memory";
		return NULL;
	}
	d->loop = loop;
	const char *hosts = getenv("SANDMUX_HOSTS");
	snprintf(d->hosts, sizeof d->hosts, "%s", hosts ? hosts : "/etc/hosts");
	const char *one = getenv("SANDMUX_DNS");
	if (one != NULL) {
		if (parse_server(one, &d->server[0]) < 0) {
			*err = "SANDMUX_DNS: expected IP:PORT or [IPv6]:PORT";
			free(d);
			return NULL;
		}
		d->nservers = 1;
		return d;
	}
	const char *conf = getenv("SANDMUX_RESOLV_CONF");
	read_resolv_conf(d, conf ? conf : "/etc/resolv.conf");
	if (d->nservers == 0) /* what the C library does too */
		parse_server("127.0.0.1", &d->server[d->nservers++]);
	return d;
}

/* The hosts file wins over DNS, as with the C library's default order. */
static void hosts_lookup(const char *path, const char *name, struct lookup *q)
{
	FILE *f = path[0] ? fopen(path, "re") : NULL;
	if (f == NULL)
		return;
	char line[1024];
	while (fgets(line, sizeof line, f) != NULL) {
		char *hash = strchr(line, '#'), *save = NULL;
		if (hash != NULL)
			*hash = '\0';
		char *addr = strtok_r(line, " \t\r\n", &save), *alias;
		struct net_addr a;
		if (addr == NULL || net_addr_parse(addr, &a) < 0)
			continue;
		int k = a.family == AF_INET ? 0 : 1;
		while ((alias = strtok_r(NULL, " \t\r\n", &save)) != NULL) {
			if (strcasecmp(alias, name) == 0 && q->n[k] < DNS_MAX_ADDRS) {
				q->addr[k][q->n[k]++] = a;
				break;
			}
		}
	}
	fclose(f);
}

static void query_close(struct lookup *q)
{
	if (q->watch != NULL)
		watch_del(q->watch);
	if (q->fd >= 0)
		close(q->fd);
	if (q->timer != 0)
		timer_cancel(q->dns->loop, q->timer);
	q->watch = NULL;
	q->fd = -1;
	q->timer = 0;
}

static void lookup_free(struct lookup *q)
{
	query_close(q);
	*q->pprev = q->next;
	if (q->next != NULL)
		q->next->pprev = q->pprev;
	free(q);
}

void dns_free(struct dns *d)
{
	while (d->lookups != NULL) { /* only when callers forgot to cancel */
		struct lookup *q = d->lookups;
		while (q->waiters != NULL) {
			struct dns_query *w = q->waiters;
			q->waiters = w->next;
			free(w);
		}
		lookup_free(q);
	}
	free(d->cache);
	free(d);
}

void dns_cancel(struct dns_query *w)
{
	if (w == NULL)
		return;
	struct lookup *q = w->lk;
	for (struct dns_query **p = &q->waiters; *p != NULL; p = &(*p)->next)
		if (*p == w) {
			*p = w->next;
			break;
		}
	free(w);
	if (q->waiters == NULL && !q->delivering)
		lookup_free(q);
}

static void cache_put(struct dns *d, const struct lookup *q)
{
	if (d->cache == NULL && (d->cache = calloc(DNS_CACHE, sizeof *d->cache)) == NULL)
		return; /* out of memory: the answer is used, not kept */
	uint64_t now = loop_now_ms();
	struct dns_cached *slot = &d->cache[0];
	for (size_t i = 0; i < DNS_CACHE; i++) {
		struct dns_cached *c = &d->cache[i];
		if (strcmp(c->name, q->name) == 0 || c->expires_ms <= now) {
			slot = c;
			break;
		}
		if (c->expires_ms < slot->expires_ms)
			slot = c; /* else the one that would expire first */
	}
	uint32_t ttl = q->ttl < DNS_CACHE_MAX_S ? q->ttl : DNS_CACHE_MAX_S;
	snprintf(slot->name, sizeof slot->name, "%s", q->name);
	slot->expires_ms = now + (uint64_t)ttl * 1000;
	memcpy(slot->n, q->n, sizeof slot->n);
	memcpy(slot->addr, q->addr, sizeof slot->addr);
}

static bool cache_get(struct dns *d, struct lookup *q)
{
	if (d->cache == NULL)
		return false;
	uint64_t now = loop_now_ms();
	for (size_t i = 0; i < DNS_CACHE; i++) {
		const struct dns_cached *c = &d->cache[i];
		if (c->expires_ms > now && strcasecmp(c->name, q->name) == 0) {
			memcpy(q->n, c->n, sizeof q->n);
			memcpy(q->addr, c->addr, sizeof q->addr);
			return true;
		}
	}
	return false;
}

/* Every waiter gets the result; a callback may cancel other waiters or
 * start new lookups (this one is already out of the in-flight list). */
static void query_finish(struct lookup *q, enum dns_status status)
{
	struct dns_result r = { .status = status };
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < q->n[k] && r.n < DNS_MAX_ADDRS; i++)
			r.addr[r.n++] = q->addr[k][i];
	if (r.status == DNS_OK && r.n == 0)
		r.status = DNS_NOTFOUND;
	if (r.n > 0)
		r.status = DNS_OK;
	if (r.n > 0 && q->asked && q->ttl > 0)
		cache_put(q->dns, q);
	query_close(q);
	*q->pprev = q->next;
	if (q->next != NULL)
		q->next->pprev = q->pprev;
	q->next = NULL;
	q->pprev = &q->next;
	q->delivering = true;
	while (q->waiters != NULL) {
		struct dns_query *w = q->waiters;
		q->waiters = w->next;
		w->cb(&r, w->arg);
		free(w);
	}
	free(q);
}

static void query_deliver(void *arg)
{
	struct lookup *q = arg;
	q->timer = 0;
	query_finish(q, DNS_OK);
}

static void query_send(struct lookup *q);
static void query_timeout(void *arg);

/* Sends the questions not answered yet, with new random ids or not. */
static void query_ask(struct lookup *q, bool new_ids)
{
	q->asked = true;
	for (int k = 0; k < 2; k++) {
		uint8_t msg[DNS_MSG_MAX];
		if (q->answered[k])
			continue;
		if (new_ids && getrandom(&q->id[k], sizeof q->id[k], 0) != sizeof q->id[k])
			q->id[k] = (uint16_t)(loop_now_ms() * 31 + (uint64_t)k);
		int len = dns_msg_query(msg, sizeof msg, q->id[k], q->name, k == 0 ? DNS_TYPE_A : DNS_TYPE_AAAA);
		if (len > 0)
			send(q->fd, msg, (size_t)len, 0);
	}
}

/* The attempt is over: use what came, or try again. */
static void query_next(struct lookup *q)
{
	if (q->n[0] + q->n[1] > 0)
		query_finish(q, DNS_OK);
	else if (q->attempt + 1 >= DNS_ATTEMPTS * (int)q->dns->nservers)
		query_finish(q, DNS_TIMEOUT);
	else {
		q->attempt++;
		query_send(q);
	}
}

static void query_timeout(void *arg)
{
	struct lookup *q = arg;
	q->timer = 0;
	query_next(q);
}

static void query_read(struct watch *w, int events, void *arg)
{
	(void)w;
	(void)events;
	struct lookup *q = arg;
	uint8_t msg[DNS_MSG_MAX];
	for (;;) {
		ssize_t len = recv(q->fd, msg, sizeof msg, 0);
		if (len < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (len < 0) { /* ICMP unreachable: try the next server now */
			query_next(q);
			return;
		}
		for (int k = 0; k < 2; k++) {
			int type = k == 0 ? DNS_TYPE_A : DNS_TYPE_AAAA;
			if (q->answered[k] || dns_msg_answer(msg, (size_t)len, q->id[k], q->name, type, q->addr[k],
							     DNS_MAX_ADDRS, &q->n[k], &q->ttl) < 0)
				continue;
			q->answered[k] = true;
		}
		if (q->answered[0] && q->answered[1]) {
			query_finish(q, DNS_OK);
			return;
		}
	}
}

/* One attempt, to server attempt % nservers. A new server gets a fresh
 * socket and fresh ids; the same server again (a single nameserver) gets
 * the same questions on the same socket, so a late answer to the first
 * send still counts. */
static void query_send(struct lookup *q)
{
	if (q->fd >= 0 && q->dns->nservers == 1) {
		timer_cancel(q->dns->loop, q->timer);
		q->timer = timer_add(q->dns->loop, DNS_ATTEMPT_MS, query_timeout, q);
		query_ask(q, false);
		return;
	}
	query_close(q);
	const struct dns_server *s = &q->dns->server[q->attempt % (int)q->dns->nservers];
	struct sockaddr_storage ss;
	socklen_t sl = net_addr_sockaddr(&s->addr, s->port, &ss);
	q->fd = socket(s->addr.family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	q->timer = timer_add(q->dns->loop, DNS_ATTEMPT_MS, query_timeout, q);
	if (q->fd < 0 || connect(q->fd, (struct sockaddr *)&ss, sl) < 0)
		return; /* the timer moves on */
	q->watch = watch_add(q->dns->loop, q->fd, LOOP_IN, query_read, q);
	query_ask(q, true);
}

static struct lookup *lookup_start(struct dns *d, const char *name)
{
	struct lookup *q = calloc(1, sizeof *q);
	if (q == NULL)
		return NULL;
	*q = (struct lookup){ .dns = d, .fd = -1, .ttl = UINT32_MAX, .next = d->lookups, .pprev = &d->lookups };
	if (d->lookups != NULL)
		d->lookups->pprev = &q->next;
	d->lookups = q;
	snprintf(q->name, sizeof q->name, "%s", name);
	if (!dns_name_valid(q->name)) {
		q->timer = timer_add(d->loop, 0, query_deliver, q); /* reports "no such host" */
		return q;
	}
	hosts_lookup(d->hosts, q->name, q);
	if (q->n[0] + q->n[1] > 0 || cache_get(d, q))
		q->timer = timer_add(d->loop, 0, query_deliver, q);
	else
		query_send(q);
	return q;
}

struct dns_query *dns_resolve(struct dns *d, const char *name, dns_cb cb, void *arg)
{
	char key[256];
	snprintf(key, sizeof key, "%s", name);
	size_t len = strlen(key);
	if (len > 1 && key[len - 1] == '.')
		key[len - 1] = '\0';
	struct dns_query *w = calloc(1, sizeof *w);
	if (w == NULL)
		return NULL;
	struct lookup *q = d->lookups;
	while (q != NULL && strcasecmp(q->name, key) != 0)
		q = q->next;
	if (q == NULL && (q = lookup_start(d, key)) == NULL) {
		free(w);
		return NULL;
	}
	*w = (struct dns_query){ .lk = q, .cb = cb, .arg = arg, .next = q->waiters };
	q->waiters = w;
	return w;
}
