/* fdpass: one message with descriptors attached (SCM_RIGHTS), as the
 * launcher's channel, the request channel and the observers' zygote send
 * them. */
#ifndef FDPASS_H
#define FDPASS_H

#include <stddef.h>

#define FDPASS_MAX 4 /* the most any of them passes at once */

/* len bytes of buf with nfds of fds (at most FDPASS_MAX), retried on
 * EINTR; flags beside MSG_NOSIGNAL (MSG_DONTWAIT). 0 when all of it went,
 * else -1 (errno set; EINVAL for too many fds). */
int fdpass_send(int sock, const void *buf, size_t len, const int *fds, int nfds, int flags);

#endif
