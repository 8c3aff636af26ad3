/* unixmsg: see unixmsg.h. Every length is checked against the kernel's
 * own limits before anything is read, so a hostile msghdr costs the host
 * at most SEND_MAX bytes and UIO_MAXIOV iovecs. */
#include "backends/unixmsg.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "backends/procpath.h"

#define SEND_MAX    (4 << 20)
#define CONTROL_MAX 4096

static int read_exact(pid_t pid, uint64_t addr, void *buf, size_t n)
{
	return n == 0 || procpath_read_mem(pid, addr, buf, n, false) == (ssize_t)n ? 0 : -EFAULT;
}

/* Every iovec's bytes, one after the other. */
static int read_data(pid_t pid, const struct msghdr *mh, struct msgcopy *m)
{
	if (mh->msg_iovlen > UIO_MAXIOV)
		return -EMSGSIZE;
	struct iovec *iov = calloc(mh->msg_iovlen ? mh->msg_iovlen : 1, sizeof *iov);
	int rc = iov ? read_exact(pid, (uintptr_t)mh->msg_iov, iov, mh->msg_iovlen * sizeof *iov) : -ENOBUFS;
	size_t total = 0;
	for (size_t i = 0; rc == 0 && i < mh->msg_iovlen; i++) {
		if (iov[i].iov_len > SEND_MAX - total) /* checked before adding: no wrap */
			rc = -EMSGSIZE;
		else
			total += iov[i].iov_len;
	}
	if (rc == 0 && (m->data = malloc(total ? total : 1)) == NULL)
		rc = -ENOBUFS;
	for (size_t i = 0; rc == 0 && i < mh->msg_iovlen; i++) {
		rc = read_exact(pid, (uintptr_t)iov[i].iov_base, m->data + m->len, iov[i].iov_len);
		m->len += iov[i].iov_len;
	}
	free(iov);
	return rc;
}

/* SCM_RIGHTS only: each fd taken from the process. */
static int read_fds(pid_t pid, const struct msghdr *mh, struct msgcopy *m)
{
	if (mh->msg_controllen == 0)
		return 0;
	if (mh->msg_controllen > CONTROL_MAX)
		return -ENOBUFS;
	union {
		char buf[CONTROL_MAX];
		struct cmsghdr align;
	} u;
	int rc = read_exact(pid, (uintptr_t)mh->msg_control, u.buf, mh->msg_controllen);
	struct msghdr local = { .msg_control = u.buf, .msg_controllen = mh->msg_controllen };
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&local); rc == 0 && c != NULL; c = CMSG_NXTHDR(&local, c)) {
		/* the kernel's own check (__cmsg_ok): a length that fits */
		if (c->cmsg_len < CMSG_LEN(0) || c->cmsg_len > mh->msg_controllen - (size_t)((char *)c - u.buf))
			return -EINVAL;
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			return -EOPNOTSUPP;
		size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		const int *fds = (const int *)(const void *)CMSG_DATA(c);
		for (size_t i = 0; rc == 0 && i < n; i++) {
			if (m->nfds == UNIXMSG_MAX_FDS)
				return -EINVAL;
			int fd = procpath_take_fd(pid, fds[i]);
			if (fd < 0)
				return -EBADF;
			m->fds[m->nfds++] = fd;
		}
	}
	return rc;
}

int unixmsg_read(pid_t pid, uint64_t addr, int flags, struct msgcopy *m)
{
	struct msghdr mh;
	memset(m, 0, sizeof *m);
	m->flags = flags;
	int rc = read_exact(pid, addr, &mh, sizeof mh);
	if (rc == 0 && mh.msg_name != NULL && mh.msg_namelen > 0) {
		if (mh.msg_namelen > sizeof m->name)
			rc = -EINVAL;
		else if ((rc = read_exact(pid, (uintptr_t)mh.msg_name, &m->name, mh.msg_namelen)) == 0)
			m->namelen = mh.msg_namelen;
	}
	if (rc == 0)
		rc = read_data(pid, &mh, m);
	if (rc == 0)
		rc = read_fds(pid, &mh, m);
	if (rc < 0)
		unixmsg_free(m);
	return rc;
}

int64_t unixmsg_send(int sock, const struct msgcopy *m, const struct sockaddr *a, socklen_t len)
{
	struct iovec iov = { m->data, m->len };
	union {
		char buf[CMSG_SPACE(sizeof(int) * UNIXMSG_MAX_FDS)];
		struct cmsghdr align;
	} u;
	struct msghdr mh = { .msg_name = (void *)a, .msg_namelen = a ? len : 0, .msg_iov = &iov, .msg_iovlen = 1 };
	if (m->nfds > 0) {
		memset(&u, 0, sizeof u);
		mh.msg_control = u.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)m->nfds);
		struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)m->nfds);
		memcpy(CMSG_DATA(c), m->fds, sizeof(int) * (size_t)m->nfds);
	}
	ssize_t k = sendmsg(sock, &mh, m->flags | MSG_DONTWAIT | MSG_NOSIGNAL);
	return k < 0 ? -errno : k;
}

void unixmsg_free(struct msgcopy *m)
{
	for (int i = 0; i < m->nfds; i++)
		close(m->fds[i]);
	m->nfds = 0;
	free(m->data);
	m->data = NULL;
}
