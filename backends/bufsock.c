/* bufsock: see bufsock.h. */
#include "backends/bufsock.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <unistd.h>

static int would_block(void)
{
	return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
}

int bufsock_recv(struct buf *b, int fd, size_t max)
{
	if (b->max > 0 && max > b->max)
		max = b->max;
	if (b->len >= max)
		return -2;
	char *end = buf_reserve(b, max - b->len);
	if (end == NULL)
		return -2;
	ssize_t n = recv(fd, end, max - b->len, 0);
	if (n > 0) {
		buf_commit(b, (size_t)n);
		return 1;
	}
	if (n == 0)
		return 0;
	return would_block() ? -2 : -1;
}

static int out(struct buf *b, int fd, bool sock)
{
	while (b->len > 0) {
		ssize_t n = sock ? send(fd, buf_data(b), b->len, MSG_NOSIGNAL) : write(fd, buf_data(b), b->len);
		if (n < 0)
			return would_block() ? 0 : -1;
		if (n == 0)
			return -1; /* nothing taken of a non-empty write: gone */
		buf_drop(b, (size_t)n);
	}
	return 0;
}

int bufsock_send(struct buf *b, int fd)
{
	return out(b, fd, true);
}

int bufsock_write(struct buf *b, int fd)
{
	return out(b, fd, false);
}
