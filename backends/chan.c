/* chan: see chan.h. The 'F' message carries which fds follow in its
 * payload, since SCM_RIGHTS only keeps their order. */
#include "backends/chan.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "backends/fdpass.h"
#include "backends/sandbox.h"

struct fds_payload {
	char type;
	char has_notify, has_proxy, has_pty;
	int port;
};

void chan_send_err(int fd, const char *what, const char *why)
{
	char buf[1 + sizeof((struct chan_msg *)0)->text];
	int n = snprintf(buf, sizeof buf, "E%s%s%s", what, why ? ": " : "", why ? why : "");
	if (n < 0)
		return;
	if ((size_t)n >= sizeof buf)
		n = sizeof buf - 1;
	while (send(fd, buf, (size_t)n, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
}

int chan_send_fds(int fd, int notify_fd, int proxy_fd, int pty_fd, int port)
{
	struct fds_payload pl = { 'F', notify_fd >= 0, proxy_fd >= 0, pty_fd >= 0, port };
	int fds[3], n = 0;
	if (notify_fd >= 0)
		fds[n++] = notify_fd;
	if (proxy_fd >= 0)
		fds[n++] = proxy_fd;
	if (pty_fd >= 0)
		fds[n++] = pty_fd;
	return fdpass_send(fd, &pl, sizeof pl, fds, n, 0);
}

static void chan_take_fds(struct msghdr *mh, const struct fds_payload *pl, struct chan_msg *m)
{
	int fds[3] = { -1, -1, -1 }, n = 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			n = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
			if (n > 3)
				n = 3;
			memcpy(fds, CMSG_DATA(c), sizeof(int) * (size_t)n);
		}
	int i = 0;
	m->notify_fd = pl->has_notify && i < n ? fds[i++] : -1;
	m->proxy_fd = pl->has_proxy && i < n ? fds[i++] : -1;
	m->pty_fd = pl->has_pty && i < n ? fds[i++] : -1;
	m->port = pl->port;
}

int chan_recv(int fd, struct chan_msg *m)
{
	char buf[sizeof m->text + 16];
	union {
		char buf[CMSG_SPACE(3 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { buf, sizeof buf - 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf };
	ssize_t n;
	memset(m, 0, sizeof *m);
	m->notify_fd = m->proxy_fd = m->pty_fd = -1;
	do
		n = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return (int)n;
	buf[n] = '\0';
	m->type = buf[0];
	if (m->type == 'L' && (size_t)n >= 1 + sizeof(int)) {
		memcpy(&m->listener, buf + 1, sizeof m->listener);
	} else if (m->type == 'F' && (size_t)n >= sizeof(struct fds_payload)) {
		struct fds_payload pl;
		memcpy(&pl, buf, sizeof pl);
		chan_take_fds(&mh, &pl, m);
	} else {
		size_t len = strnlen(buf + 1, sizeof m->text - 1);
		memcpy(m->text, buf + 1, len);
		m->text[len] = '\0';
	}
	return 1;
}

int chan_send_listener(int fd, int listener)
{
	char buf[1 + sizeof listener] = { 'L' };
	memcpy(buf + 1, &listener, sizeof listener);
	return send(fd, buf, sizeof buf, MSG_NOSIGNAL) < 0 ? -1 : 0;
}

int chan_reply(int fd, char answer)
{
	return send(fd, &answer, 1, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

int chan_wait_reply(int fd)
{
	char c;
	ssize_t n;
	do
		n = recv(fd, &c, 1, 0);
	while (n < 0 && errno == EINTR);
	return n == 1 ? (unsigned char)c : -1;
}

struct filters_head {
	char type; /* 'S' */
	uint16_t deny, notify;
};

int chan_send_filters(int fd, const struct seccomp_prog *deny, const struct seccomp_prog *notify)
{
	struct filters_head h = { 'S', deny->len, notify->len };
	struct iovec iov[3] = { { &h, sizeof h },
				{ deny->insn, deny->len * sizeof *deny->insn },
				{ notify->insn, notify->len * sizeof *notify->insn } };
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 3 };
	ssize_t want = (ssize_t)(iov[0].iov_len + iov[1].iov_len + iov[2].iov_len);
	return sendmsg(fd, &mh, MSG_NOSIGNAL) == want ? 0 : -1;
}

int chan_recv_filters(int fd, struct seccomp_prog *deny, struct seccomp_prog *notify)
{
	struct filters_head h;
	size_t max = 2 * BPF_MAXINSNS * sizeof(struct sock_filter);
	struct sock_filter *insn = malloc(max);
	if (insn == NULL)
		return -1;
	struct iovec iov[2] = { { &h, sizeof h }, { insn, max } };
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };
	ssize_t n;
	do
		n = recvmsg(fd, &mh, 0);
	while (n < 0 && errno == EINTR);
	if (n < (ssize_t)sizeof h || h.type != 'S' || (mh.msg_flags & MSG_TRUNC) ||
	    (size_t)n != sizeof h + ((size_t)h.deny + h.notify) * sizeof *insn) {
		free(insn);
		return -1;
	}
	*deny = (struct seccomp_prog){ insn, h.deny };
	*notify = (struct seccomp_prog){ h.notify > 0 ? insn + h.deny : NULL, h.notify };
	return 0;
}
