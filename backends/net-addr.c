/* net-addr: see net-addr.h. */
#include "backends/net-addr.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

int net_addr_parse(const char *text, struct net_addr *out)
{
	memset(out, 0, sizeof *out);
	if (inet_pton(AF_INET, text, out->bytes) == 1) {
		out->family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, text, out->bytes) == 1) {
		out->family = AF_INET6;
		return 0;
	}
	return -1;
}

const char *net_addr_format(const struct net_addr *a, char *buf, size_t size)
{
	if (inet_ntop(a->family, a->bytes, buf, (socklen_t)size) == NULL)
		snprintf(buf, size, "?");
	return buf;
}

static const uint8_t v4mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

void net_addr_unmap(struct net_addr *a)
{
	if (a->family != AF_INET6 || memcmp(a->bytes, v4mapped, 12) != 0)
		return;
	memmove(a->bytes, a->bytes + 12, 4);
	memset(a->bytes + 4, 0, 12);
	a->family = AF_INET;
}

socklen_t net_addr_sockaddr(const struct net_addr *a, int port, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof *ss);
	if (a->family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
		memcpy(&sin->sin_addr, a->bytes, 4);
		return sizeof *sin;
	}
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons((uint16_t)port);
	memcpy(&sin6->sin6_addr, a->bytes, 16);
	return sizeof *sin6;
}

/* Asked on every connection rather than cached: addresses come and go
 * (DHCP, VPNs), and getifaddrs() costs a netlink round trip, not a wait. */
bool net_addr_is_local(const struct net_addr *a)
{
	struct ifaddrs *list, *i;
	bool local = false;
	if (getifaddrs(&list) < 0)
		return false;
	for (i = list; i != NULL && !local; i = i->ifa_next) {
		const struct sockaddr *sa = i->ifa_addr;
		if (sa == NULL || sa->sa_family != a->family)
			continue;
		const void *b = sa->sa_family == AF_INET ? (const void *)&((const struct sockaddr_in *)sa)->sin_addr
							 : (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr;
		local = memcmp(b, a->bytes, a->family == AF_INET ? 4 : 16) == 0;
	}
	freeifaddrs(list);
	return local;
}
