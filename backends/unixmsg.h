/* unixmsg: one sendmsg() message of a sandboxed process, copied out of
 * its memory so that the host can send it (backends/unixsock.c): the
 * destination, the bytes of every iovec in one buffer, and the fds an
 * SCM_RIGHTS message passes, taken from the process with pidfd_getfd. */
#ifndef UNIXMSG_H
#define UNIXMSG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#define UNIXMSG_MAX_FDS 253 /* the kernel's SCM_MAX_FD */

struct msgcopy {
	struct sockaddr_storage name;
	socklen_t namelen;
	char *data;
	size_t len;
	int fds[UNIXMSG_MAX_FDS];
	int nfds;
	int flags;
};

/* Reads the struct msghdr at addr in pid. 0, or -errno as the kernel
 * would fail the call (EFAULT, EINVAL, EMSGSIZE, EBADF), or EOPNOTSUPP
 * for ancillary data other than SCM_RIGHTS. */
int unixmsg_read(pid_t pid, uint64_t addr, int flags, struct msgcopy *);
/* Sends it on sock to a (NULL: the connected peer), never waiting and
 * never raising SIGPIPE: bytes sent, or -errno. */
int64_t unixmsg_send(int sock, const struct msgcopy *, const struct sockaddr *a, socklen_t len);
void unixmsg_free(struct msgcopy *);

#endif
