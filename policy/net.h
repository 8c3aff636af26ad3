/* net: host patterns of networkPolicy (exact domain, `*.domain`, CIDR v4
 * and v6, each with an optional `:port` or `[v6]:port`) and the hardcoded
 * blocks; policy_decide_host() of policy.h lives in net.c. */
#ifndef POLICY_NET_H
#define POLICY_NET_H

#include <stdbool.h>
#include <stddef.h>

#include "policy/policy.h"

#define NET_ERR_MAX 160

enum host_kind { HOST_DOMAIN, HOST_WILDCARD, HOST_CIDR };

struct host_pattern {
	enum host_kind kind;
	char domain[254];     /* lower case, no trailing dot; for *.d: "d" */
	struct net_addr addr; /* CIDR: the network, IPv4-mapped forms folded to IPv4 */
	int prefix;
	int port; /* 0: any port */
};

/* 0, or -1 with errbuf (NET_ERR_MAX) saying what is wrong, e.g.
 * "\"10.0.0.0/33\" is not a valid CIDR". A scheme ("https://") and a URL
 * path are ignored: matching is on the host only. */
int host_pattern_parse(const char *text, struct host_pattern *, char *errbuf);
/* host: a name or an IP literal (may be NULL); addr: resolved (may be NULL);
 * port 0: any. */
bool host_pattern_match(const struct host_pattern *, const char *host, const struct net_addr *addr, int port);
/* Parses an IP literal ("1.2.3.4", "::1", "[::1]"), folding IPv4-mapped
 * IPv6 to IPv4. */
bool host_literal_parse(const char *text, struct net_addr *);
/* The hardcoded block containing addr (e.g. "hardcoded: private address
 * 10.0.0.0/8"), or NULL. */
const char *net_blocked(const struct net_addr *);
/* The i-th hardcoded block's rule text, NULL past the last (for show). */
const char *net_block_rule(size_t i);

#endif
