/* inetsock: connect() on AF_INET/AF_INET6, made by the host for the
 * weaker sandbox (see inetsock.h for the rule and why it holds). */
#include "backends/inetsock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backends/unixsock.h"

#define RULE_PROXY      "weaker sandbox (no network namespace): only the proxy on 127.0.0.1 is reachable"
#define RULE_NONE       "weaker sandbox (no network namespace): this profile has no network"
#define RULE_TCP        "weaker sandbox (no network namespace): only TCP sockets"
#define RULE_LISTEN     "weaker sandbox (no network namespace): no listening TCP socket (a peer could connect in)"
/* Long enough for a loopback handshake, short enough for the host's loop. */
#define CONNECT_WAIT_MS 200

static bool is_tcp(int sock)
{
	int type = 0, proto = 0;
	socklen_t a = sizeof type, b = sizeof proto;
	return getsockopt(sock, SOL_SOCKET, SO_TYPE, &type, &a) == 0 && type == SOCK_STREAM &&
	       getsockopt(sock, SOL_SOCKET, SO_PROTOCOL, &proto, &b) == 0 && proto == IPPROTO_TCP;
}

/* The port and whether the address is the host's loopback as the proxy
 * listens on it; false when len is too short for the family. */
static bool addr_parse(const struct sockaddr_storage *ss, socklen_t len, int *port, bool *loopback, char *text,
		       size_t size)
{
	char ip[INET6_ADDRSTRLEN] = "?";
	if (ss->ss_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *a = (const void *)ss;
		*port = ntohs(a->sin_port);
		*loopback = a->sin_addr.s_addr == htonl(INADDR_LOOPBACK);
		inet_ntop(AF_INET, &a->sin_addr, ip, sizeof ip);
		snprintf(text, size, "%s:%d", ip, *port);
		return true;
	}
	/* 24: the kernel's SIN6_LEN_RFC2133, the shortest it takes */
	if (ss->ss_family == AF_INET6 && len >= 24) {
		const struct sockaddr_in6 *a = (const void *)ss;
		static const struct in6_addr mapped = { .s6_addr = { [10] = 0xff, [11] = 0xff, 127, 0, 0, 1 } };
		*port = ntohs(a->sin6_port);
		*loopback = IN6_IS_ADDR_LOOPBACK(&a->sin6_addr) || memcmp(&a->sin6_addr, &mapped, sizeof mapped) == 0;
		inet_ntop(AF_INET6, &a->sin6_addr, ip, sizeof ip);
		snprintf(text, size, "[%s]:%d", ip, *port);
		return true;
	}
	return false;
}

/* connect() on the caller's socket; a blocking caller gets the finished
 * result (the handshake on loopback takes microseconds). */
static int connect_vetted(int sock, const struct sockaddr_storage *ss, socklen_t len)
{
	return (int)unixsock_connect_wait(sock, (const struct sockaddr *)ss, len, CONNECT_WAIT_MS, -1, 0);
}

static void refuse(struct unixsock_answer *out, const char *rule)
{
	out->error = -EACCES;
	out->rule = rule;
}

void inetsock_call(struct inetsock *in, int sock, const struct sockaddr_storage *ss, socklen_t len, bool send,
		   struct unixsock_answer *out)
{
	int port = 0;
	bool loopback = false;
	bool parsed = addr_parse(ss, len, &port, &loopback, out->path, sizeof out->path);
	if (!is_tcp(sock))
		return refuse(out, RULE_TCP);
	if (send) {
		out->what = UNIXSOCK_CONTINUE; /* allowed: TCP ignores the address (inetsock.h) */
		return;
	}
	if (len >= sizeof ss->ss_family && ss->ss_family == AF_UNSPEC) {
		out->error = connect_vetted(sock, ss, len);
		return;
	}
	if (!parsed) {
		out->error = ss->ss_family == AF_INET || ss->ss_family == AF_INET6 ? -EINVAL : -EAFNOSUPPORT;
		return;
	}
	if (in->port <= 0)
		return refuse(out, RULE_NONE);
	if (!loopback || port != in->port)
		return refuse(out, RULE_PROXY);
	out->error = connect_vetted(sock, ss, len);
	in->taken++;
}

void inetsock_listen(int sock, struct unixsock_answer *out)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof ss;
	int port;
	bool loopback;
	if (getsockname(sock, (struct sockaddr *)&ss, &len) < 0 ||
	    !addr_parse(&ss, len, &port, &loopback, out->path, sizeof out->path))
		snprintf(out->path, sizeof out->path, "listen");
	refuse(out, RULE_LISTEN);
}
