/* unixdiag: the sandbox's bound AF_UNIX sockets, from sock_diag inside its
 * network namespace (see unixdiag.h). */
#include "backends/unixdiag.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

static int ns_open(pid_t pid, const char *ns)
{
	char link[64];
	snprintf(link, sizeof link, "/proc/%d/ns/%s", (int)pid, ns);
	return open(link, O_RDONLY | O_CLOEXEC);
}

static bool same_ns(int fd, const char *mine)
{
	struct stat a, b;
	return fstat(fd, &a) == 0 && stat(mine, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

/* The helper: joins the namespace and sends back one netlink socket.
 * Raw syscalls only (it runs after a fork of a possibly threaded host);
 * it never returns. */
static void helper_run(int userns, int netns, int chan)
{
	int s = -1;
	if (setns(netns, CLONE_NEWNET) < 0 && (setns(userns, CLONE_NEWUSER) < 0 || setns(netns, CLONE_NEWNET) < 0))
		_exit(1);
	s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (s < 0)
		_exit(2);
	char c = 0;
	struct iovec iov = { &c, 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	memset(&u, 0, sizeof u);
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &s, sizeof s);
	_exit(sendmsg(chan, &m, 0) == 1 ? 0 : 3);
}

static int recv_fd(int chan)
{
	char c;
	struct iovec iov = { &c, 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf };
	if (recvmsg(chan, &m, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
	if (cm == NULL || cm->cmsg_type != SCM_RIGHTS || cm->cmsg_len != CMSG_LEN(sizeof(int))) {
		errno = EPERM;
		return -1;
	}
	int fd;
	memcpy(&fd, CMSG_DATA(cm), sizeof fd);
	return fd;
}

/* A helper with no exit signal (clone flags 0): no SIGCHLD reaches a
 * host that reaps its own children, and only __WCLONE waits for it. */
static int helper_fetch(int userns, int netns)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	pid_t pid = (pid_t)syscall(SYS_clone, 0, NULL, NULL, NULL, NULL);
	if (pid == 0) {
		close(sv[0]);
		helper_run(userns, netns, sv[1]);
	}
	close(sv[1]);
	int fd = pid < 0 ? -1 : recv_fd(sv[0]);
	int e = errno;
	close(sv[0]);
	if (pid > 0)
		while (waitpid(pid, NULL, __WCLONE) < 0 && errno == EINTR)
			;
	errno = fd < 0 ? (e ? e : EPERM) : 0;
	return fd;
}

int unixdiag_open(pid_t pid)
{
	int userns = ns_open(pid, "user"), netns = ns_open(pid, "net"), fd = -1;
	if (userns >= 0 && netns >= 0) {
		if (same_ns(netns, "/proc/self/ns/net"))
			errno = EXDEV;
		else
			fd = helper_fetch(userns, netns);
	}
	int e = errno;
	if (userns >= 0)
		close(userns);
	if (netns >= 0)
		close(netns);
	errno = e;
	return fd;
}

/* The kernel's dev_t (diag reports the superblock's s_dev as is): 12 bits
 * of major above 20 of minor. */
static bool same_file(const struct unix_diag_vfs *v, const struct stat *st)
{
	return v->udiag_vfs_ino == st->st_ino && v->udiag_vfs_dev >> 20 == major(st->st_dev) &&
	       (v->udiag_vfs_dev & 0xfffff) == minor(st->st_dev);
}

/* 1 when this message names a socket bound to st's file; its inode
 * (in sockfs) into *sock_ino. */
static int msg_match(const struct nlmsghdr *h, const struct stat *st, uint32_t *sock_ino)
{
	const struct unix_diag_msg *m = NLMSG_DATA(h);
	if (h->nlmsg_len < NLMSG_LENGTH(sizeof *m))
		return 0;
	int len = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof *m));
	for (const struct rtattr *a = (const void *)(m + 1); RTA_OK(a, len); a = RTA_NEXT(a, len))
		if (a->rta_type == UNIX_DIAG_VFS && RTA_PAYLOAD(a) >= sizeof(struct unix_diag_vfs) &&
		    same_file(RTA_DATA(a), st)) {
			*sock_ino = m->udiag_ino;
			return 1;
		}
	return 0;
}

/* Reads the whole dump (so the next query starts clean). */
static int dump_read(int diag, const struct stat *st, uint32_t *sock_ino)
{
	long buf[8192 / sizeof(long)];
	int found = 0;
	for (;;) {
		ssize_t n = recv(diag, buf, sizeof buf, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		int len = (int)n;
		for (struct nlmsghdr *h = (void *)buf; NLMSG_OK(h, (unsigned)len); h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return found;
			if (h->nlmsg_type == NLMSG_ERROR) {
				errno = EIO;
				return -1;
			}
			found |= !found && msg_match(h, st, sock_ino);
		}
	}
}

int unixdiag_bound(int diag, const struct stat *st, uint32_t *sock_ino)
{
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req r;
	} req = {
		.nlh = { .nlmsg_len = sizeof req,
			 .nlmsg_type = SOCK_DIAG_BY_FAMILY,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.r = { .sdiag_family = AF_UNIX, .udiag_states = UINT32_MAX, .udiag_show = UDIAG_SHOW_VFS },
	};
	if (send(diag, &req, sizeof req, 0) != (ssize_t)sizeof req)
		return -1;
	return dump_read(diag, st, sock_ino);
}

/* Whether /proc/PID/fd holds socket:[ino]. */
static bool pid_holds(const char *pid, const char *want)
{
	char dir[64], link[128], got[64];
	snprintf(dir, sizeof dir, "/proc/%.20s/fd", pid);
	DIR *d = opendir(dir);
	bool found = false;
	for (struct dirent *e; d != NULL && !found && (e = readdir(d)) != NULL;) {
		snprintf(link, sizeof link, "%s/%.20s", dir, e->d_name);
		ssize_t n = readlink(link, got, sizeof got - 1);
		found = n > 0 && (got[n] = '\0', strcmp(got, want) == 0);
	}
	if (d != NULL)
		closedir(d);
	return found;
}

bool unixdiag_held(pid_t pid, uint32_t sock_ino)
{
	char link[64], want[64];
	snprintf(link, sizeof link, "/proc/%d/ns/pid", (int)pid);
	struct stat ns, other, mine;
	/* Sharing the host's pid namespace, the sandbox would own every
	 * socket some process holds: fail closed. */
	if (stat(link, &ns) < 0 || stat("/proc/self/ns/pid", &mine) < 0 ||
	    (ns.st_ino == mine.st_ino && ns.st_dev == mine.st_dev))
		return false;
	snprintf(want, sizeof want, "socket:[%u]", sock_ino);
	DIR *d = opendir("/proc");
	bool found = false;
	for (struct dirent *e; d != NULL && !found && (e = readdir(d)) != NULL;) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(link, sizeof link, "/proc/%.20s/ns/pid", e->d_name);
		if (stat(link, &other) == 0 && other.st_ino == ns.st_ino && other.st_dev == ns.st_dev)
			found = pid_holds(e->d_name, want);
	}
	if (d != NULL)
		closedir(d);
	return found;
}
