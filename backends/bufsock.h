/* bufsock: a buf's bytes to and from a non-blocking socket (the proxy's
 * relay, the server's clients) or terminal (an attached client's). send()
 * never raises SIGPIPE, whatever the process ignores. */
#ifndef BUFSOCK_H
#define BUFSOCK_H

#include <stddef.h>

#include "policy/buf.h"

/* Reads what fits from fd, up to max bytes in the buffer (and never past
 * its bound): 1 data, 0 EOF, -1 error, -2 nothing yet (or no room). */
int bufsock_recv(struct buf *, int fd, size_t max);
/* Sends what it can and drops it: 0, or -1 when the peer is gone. */
int bufsock_send(struct buf *, int fd);
/* The same with write(), for a descriptor that is no socket. */
int bufsock_write(struct buf *, int fd);

#endif
