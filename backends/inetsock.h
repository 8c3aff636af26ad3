/* inetsock: the weaker sandbox's takeover of connect() on AF_INET and
 * AF_INET6 sockets (weak.c). Without a network namespace, Landlock's TCP
 * rule is the kernel's boundary, and it knows only a port: with the
 * proxy at 127.0.0.1:P, 203.0.113.9:P would be allowed too. So the
 * observer takes every such connect over, the way unixsock.c does for
 * AF_UNIX: the caller's socket is taken with pidfd_getfd, the address is
 * read once from its memory and decided on, and the host connects that
 * socket itself to its own copy of the address, then answers with the
 * result. The call is never handed back to the kernel (CONTINUE would
 * read the address again, after a racing thread rewrote it).
 *
 * The rule: only a TCP socket, only to 127.0.0.1, ::1 or
 * ::ffff:127.0.0.1, and only at the proxy's port; with no proxy (read-only,
 * strict, restrict_network without one), nothing. AF_UNSPEC (a TCP
 * socket's disconnect) is made as asked. Everything else fails with
 * EACCES and is a denial ("connect", layer "observer").
 *
 * sendto() with an address on a TCP socket is allowed (TCP ignores the
 * address unless MSG_FASTOPEN, which seccomp refuses in the weaker
 * sandbox): inetsock_call answers UNIXSOCK_CONTINUE, and unixsock.c makes
 * the send itself, as for every other family, rather than hand the fd
 * number back to the kernel; on any other inet socket (one inherited
 * through stdio, say: socket() makes only TCP here) it is refused.
 *
 * A blocking caller's connect is finished by the host (loopback: the
 * handshake completes at once; bounded wait), so it sees 0 as usual.
 *
 * No inbound connections: listen() on an AF_INET/AF_INET6 socket fails
 * with EACCES and is a denial ("bind"). Landlock's bind rule is not
 * enough: listen() on a socket never bound binds it itself, to
 * 0.0.0.0:<ephemeral> of the host's network, where any peer could
 * connect. Nothing else makes a socket that accepts: bind() is refused
 * by Landlock, socket() makes no UDP (so no recvfrom from strangers),
 * connect() reaches only the proxy, io_uring is refused. An inet socket
 * the caller hands over as stdio (`sandmux run` with a listening socket
 * on stdin) is used as given: the launcher passes nothing else. */
#ifndef INETSOCK_H
#define INETSOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

struct unixsock_answer;

struct inetsock {
	bool on;        /* the weaker sandbox with a restricted network */
	int port;       /* the proxy's port on the host's loopback; 0: no TCP at all */
	uint64_t taken; /* connects the host made */
};

/* Decides one call on sock (the caller's AF_INET/AF_INET6 socket, taken
 * into the host); ss/len: the address as read once. Fills out (what,
 * error, rule, path); for an allowed send, what is UNIXSOCK_CONTINUE and
 * the caller makes it. */
void inetsock_call(struct inetsock *, int sock, const struct sockaddr_storage *ss, socklen_t len, bool send,
		   struct unixsock_answer *out);
/* Refuses listen() on sock (the caller's, taken into the host); fills out
 * with the socket's local address and the rule. */
void inetsock_listen(int sock, struct unixsock_answer *out);

#endif
