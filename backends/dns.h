/* dns: a small asynchronous resolver that lives in the event loop, so a
 * slow answer never stalls a pane, the UI or another proxied connection.
 *
 * Names are looked up in the hosts file first, then sent as A and AAAA
 * queries over UDP to the nameservers of resolv.conf, one after the other
 * on timeout. Concurrent lookups of one name share one set of questions;
 * answers are kept for their TTL (at most DNS_CACHE_MAX_S) in a small
 * cache. Every use of an address is still decided by the caller: a cached
 * answer is no way around the policy, and the proxy never looks a name up
 * twice for one connection.
 * No search domains (names are taken as fully qualified), no
 * TCP fallback (a truncated answer is used for what it holds).
 *
 * Tests point it elsewhere with the host's environment, read by dns_new():
 *   SANDMUX_DNS=IP:PORT        one nameserver ([v6]:port for IPv6)
 *   SANDMUX_RESOLV_CONF=FILE   instead of /etc/resolv.conf
 *   SANDMUX_HOSTS=FILE         instead of /etc/hosts ("" disables it) */
#ifndef DNS_H
#define DNS_H

#include <stddef.h>
#include <stdint.h>

#include "policy/policy.h"

struct loop;
struct dns;
struct dns_query;

#define DNS_MAX_ADDRS   16
#define DNS_MAX_SERVERS 3
#define DNS_CACHE       64 /* names */
#define DNS_CACHE_MAX_S 300

enum dns_status { DNS_OK, DNS_NOTFOUND, DNS_TIMEOUT, DNS_FAILED };
const char *dns_status_name(enum dns_status);

struct dns_result {
	enum dns_status status;
	size_t n;
	struct net_addr addr[DNS_MAX_ADDRS]; /* IPv4 answers first */
};
/* Called once from the loop, never from inside dns_resolve(). */
typedef void (*dns_cb)(const struct dns_result *, void *arg);

/* NULL with *err set when no nameserver can be found. */
struct dns *dns_new(struct loop *, const char **err);
void dns_free(struct dns *); /* drops pending queries, without callbacks */
/* name: a host name (not an IP literal). NULL on allocation failure. */
struct dns_query *dns_resolve(struct dns *, const char *name, dns_cb, void *arg);
/* Drops a pending query; its callback is never called. */
void dns_cancel(struct dns_query *);

/* The wire format (net-dnsmsg.c), public for unit tests and the fuzzer. */
enum { DNS_TYPE_A = 1, DNS_TYPE_AAAA = 28 };
#define DNS_MSG_MAX 1232
/* Encodes one query; returns its length or -1 for an invalid name. */
int dns_msg_query(uint8_t *buf, size_t size, uint16_t id, const char *name, int qtype);
/* Parses an answer to that query, appending A/AAAA records to addr[*n]
 * and lowering *ttl (may be NULL) to the least TTL among them. Returns 0
 * (possibly with no records), -1 for a message that is not the answer
 * (wrong id, question, or malformed), 1 for NXDOMAIN/server error. */
int dns_msg_answer(const uint8_t *msg, size_t len, uint16_t id, const char *name, int qtype, struct net_addr *addr,
		   size_t max, size_t *n, uint32_t *ttl);
/* Is `name` a syntactically valid host name? (letters, digits, '-', '_',
 * labels of 1..63, total <= 253, optional final dot). */
int dns_name_valid(const char *name);

#endif
