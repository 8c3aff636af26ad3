/* fdpass: see fdpass.h. */
#include "backends/fdpass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

int fdpass_send(int sock, const void *buf, size_t len, const int *fds, int nfds, int flags)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int) * FDPASS_MAX)];
	} u;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	if (nfds < 0 || nfds > FDPASS_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (nfds > 0) {
		memset(&u, 0, sizeof u);
		mh.msg_control = u.b;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
		struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)nfds);
	}
	ssize_t r;
	do
		r = sendmsg(sock, &mh, MSG_NOSIGNAL | flags);
	while (r < 0 && errno == EINTR);
	return r == (ssize_t)len ? 0 : -1;
}
