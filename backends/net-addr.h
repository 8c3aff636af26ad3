/* net-addr: IP literals for the proxy and the resolver: parse, format, and
 * the host's own addresses, which no sandbox may reach whatever the policy
 * says (the fixed address blocks are the policy's: policy/net.h). */
#ifndef NET_ADDR_H
#define NET_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "policy/policy.h"

/* Longest formatted address, "[v6]" brackets excluded. */
#define NET_ADDR_STRLEN 46

/* Parses an IPv4 or IPv6 literal (no brackets, no zone). 0 or -1. */
int net_addr_parse(const char *text, struct net_addr *out);
/* Writes the literal form into buf (at least NET_ADDR_STRLEN bytes). */
const char *net_addr_format(const struct net_addr *, char *buf, size_t size);
/* ::ffff:a.b.c.d becomes a.b.c.d, so that every check below and in the
 * policy sees the address the kernel will really connect to. */
void net_addr_unmap(struct net_addr *);
/* Is addr one of this host's own interface addresses? Connecting to it
 * reaches the host's own listeners (a database on 0.0.0.0, say), as
 * loopback would, whatever range it is in. */
bool net_addr_is_local(const struct net_addr *);
/* Fills a sockaddr for connect(); returns its length. */
socklen_t net_addr_sockaddr(const struct net_addr *, int port, struct sockaddr_storage *);

#endif
