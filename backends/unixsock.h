/* unixsock: the observer's takeover of connect() (and of sendto() with a
 * destination address) on AF_UNIX sockets, so
 * that no sandboxed process reaches a host unix socket (the session bus,
 * ssh-agent, gpg-agent, docker, X11, tmux's and sandmux's own sockets),
 * wherever it lies and whatever Landlock lets the sandbox read or write
 * (Landlock does not mediate connect() to a pathname socket).
 *
 * The rule: a pathname socket is reachable only when some socket of the
 * sandbox itself is bound to that very file. The sandbox has a network
 * namespace of its own, and the sockets a process creates live in its
 * namespace, so "bound by a socket of the sandbox" is "listed, with that
 * file's device and inode, by unix_diag in the sandbox's namespace"
 * (backends/unixdiag.c). Why this is sound:
 * - only sandbox processes create sockets in that namespace (the host puts
 *   only the proxy's TCP listener there), and no host socket is ever in it;
 * - a file is bound by at most one socket, once, at its creation (bind on
 *   an existing name fails), and the host holds the file open (O_PATH)
 *   from the check to the connect, so the inode cannot be freed and
 *   reused by another bind in between;
 * - the host connects the caller's own socket (taken with pidfd_getfd)
 *   to that inode through /proc/self/fd/N, so the path is resolved once,
 *   by the host, in the sandbox's root and mount namespace: a thread that
 *   swaps the file or rewrites the address after the check changes
 *   nothing. The call is then answered with the connect's own result; it
 *   is never handed back to the kernel (CONTINUE would look the path up
 *   again).
 * A path never counts: renaming or hard-linking a host socket onto a name
 * the sandbox once bound still leads to an inode no sandbox socket holds.
 * No policy entry can open a host socket: there is nothing to suggest.
 *
 * In the weaker sandbox, AF_INET and AF_INET6 sockets are taken over as
 * well (inetsock.h). connect() and sendto() on sockets of another family
 * are made by the host as well, on the socket it took and the address it
 * read: handing them back to the kernel (CONTINUE) would let it look the
 * fd number up again, and a thread can dup2() a unix socket onto that
 * number in between (found in review: it reached a host socket in ~1000
 * tries). Abstract and unnamed addresses on AF_UNIX
 * sockets are connected by the host too (the address was read once; a
 * racing thread could otherwise turn it into a path after the read): the
 * lookup happens in the socket's own namespace, the sandbox's, which
 * holds only the sandbox's abstract sockets.
 *
 * Weaker cases, each failing closed:
 * - a sandbox on the host's network (devbox): the host's and the
 *   sandbox's sockets share one namespace, so a pathname socket counts as
 *   the sandbox's when a process in the sandbox's pid namespace holds it
 *   (a walk of /proc; only the launcher could hand it a host socket, and
 *   it passes none); abstract sockets are refused (the host connecting
 *   would bypass Landlock's scoping, which only binds the sandbox);
 * - without the caller's socket (no pidfd_getfd, or a caller that made
 *   itself non-dumpable where the host has no capability over it, as in
 *   the weaker sandbox): connect() and sendto() fail with EACCES;
 * - a blocking connect() on another family is waited for by the observer
 *   (poll, SO_SNDTIMEO honoured), during which the sandbox's other
 *   notified calls wait too: instant on the sandbox's own loopback, up to
 *   the kernel's SYN timeout for an unanswered host in devbox;
 * - the listener sees the host (the observer) as its peer in SO_PEERCRED,
 *   since the host made the connection;
 * - a blocking connect to a listener whose backlog is full, or a blocking
 *   sendto to a full receiver, fails with EAGAIN rather than wait (the
 *   host's event loop must never block); sendto never raises SIGPIPE;
 * - sendmsg()/sendmmsg() are notified whatever the socket (seccomp cannot
 *   see inside a msghdr): on AF_UNIX datagram sockets the host sends each
 *   message; ancillary data other than SCM_RIGHTS (SCM_CREDENTIALS would
 *   carry the host's identity) is refused with EOPNOTSUPP, and so is a
 *   32-bit caller's message. The launcher hands the observer's listener
 *   over by number (a sendmsg of its own would wait for the observer).
 *   On every other socket sendmsg is handed back to the kernel (doing
 *   every TCP send in the host would cost too much), so a thread that
 *   dup2()s a unix datagram socket onto the number in that window can
 *   send one to a host datagram socket it can name: in the full sandbox
 *   none of the usual ones is visible (/dev, /run, /tmp and the runtime
 *   dirs are its own or masked); the weaker sandbox refuses unix
 *   datagram sockets altogether.
 *
 * Cost: about ten syscalls on the host per AF_UNIX connect, one sock_diag
 * dump of the sandbox's own sockets among them (tests/bench/unixsock.sh);
 * a connect on another family, and every sendmsg that is not a unix
 * datagram, pays the notification round trip, a pidfd_getfd and a
 * getsockopt. */
#ifndef UNIXSOCK_H
#define UNIXSOCK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/inetsock.h"

struct seccomp_notif;

struct unixsock {
	int diag;             /* NETLINK_SOCK_DIAG in the sandbox's netns; -1: not yet or none */
	int nodiag;           /* 0, or why there is none */
	bool shared;          /* the sandbox is on the host's network: diag is the host's */
	uint64_t taken;       /* connects the host made for the sandbox */
	struct inetsock inet; /* the weaker sandbox: AF_INET/AF_INET6 taken over too */
};

void unixsock_init(struct unixsock *);
void unixsock_free(struct unixsock *);

enum unixsock_what {
	UNIXSOCK_CONTINUE, /* not an AF_UNIX socket: the kernel goes on */
	UNIXSOCK_RESULT,   /* answer with `error` */
	UNIXSOCK_GONE,     /* the call went away */
};

struct unixsock_answer {
	enum unixsock_what what;
	int error;           /* 0, or -errno: the call fails with it */
	int64_t val;         /* without error: what the call returns (sendto: bytes) */
	const char *rule;    /* non-NULL: a denial to report, about `path` */
	char path[PATH_MAX]; /* as the process sees it */
};

/* Handles one notified connect(): takes the caller's socket, decides,
 * connects it when allowed. root: an O_PATH fd of the process's root. */
void unixsock_connect(struct unixsock *, int notify_fd, const struct seccomp_notif *req, int root,
		      struct unixsock_answer *out);
/* The same for sendto() with a destination address (notified only when
 * it has one): the datagram is copied and sent by the host. */
void unixsock_sendto(struct unixsock *, int notify_fd, const struct seccomp_notif *req, int root,
		     struct unixsock_answer *out);

/* sendmsg() (many: sendmmsg()): on an AF_UNIX datagram socket each
 * message is copied (with the fds it passes, taken from the caller) and
 * sent by the host, its destination decided as for sendto(). */
void unixsock_sendmsg(struct unixsock *, int notify_fd, const struct seccomp_notif *req, int root, bool many,
		      struct unixsock_answer *out);

/* listen(): in the weaker sandbox with a restricted network, refused on
 * AF_INET/AF_INET6 sockets (inetsock.h) and made by the host on others;
 * elsewhere handed back to the kernel (the sandbox's network namespace
 * holds nothing but its loopback). */
void unixsock_listen(struct unixsock *, int notify_fd, const struct seccomp_notif *req, struct unixsock_answer *out);

/* connect() on a caller's socket taken into the host (the same open
 * file): a blocking one is made non-blocking for the call and the
 * handshake waited for here, in slices, at most max_ms (-1: no cap;
 * ETIMEDOUT when the cap runs out) and no longer than its SO_SNDTIMEO
 * (EINPROGRESS then, as the kernel says) or, with notify_fd >= 0, than
 * the caller waits (its notification id still valid). 0 or -errno. */
int64_t unixsock_connect_wait(int sock, const struct sockaddr *a, socklen_t len, int max_ms, int notify_fd,
			      uint64_t id);

/* For `sandmux doctor`: 0 when the takeover works fully on this kernel;
 * otherwise -1 and, in msg, what is missing and what it means:
 * pidfd_getfd (Linux 5.6; without it pathname sockets are refused as
 * read, racily) or unix_diag (CONFIG_UNIX_DIAG; without it the sandbox's
 * own pathname sockets are refused too). */
int unixsock_probe(char *msg, size_t size);

#endif
