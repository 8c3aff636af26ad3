/* unixsock: connect() and sendto() on AF_UNIX sockets, made by the host
 * for the sandbox (see unixsock.h for the rule and why it holds). */
#include "backends/unixsock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/procpath.h"
#include "backends/unixdiag.h"
#include "backends/unixmsg.h"

#define RULE_HOST         "host unix socket: only the sandbox's own sockets are reachable"
#define RULE_SHARED       "abstract unix socket: the sandbox shares the host's network"
#define RULE_NOGETFD      "socket: the observer cannot take the caller's socket (pidfd_getfd), so it refuses"
#define RULE_NOGETFD_INET "weaker sandbox: pidfd_getfd unavailable, no connect can be vetted"

void unixsock_init(struct unixsock *u)
{
	*u = (struct unixsock){ .diag = -1 };
}

void unixsock_free(struct unixsock *u)
{
	if (u->diag >= 0)
		close(u->diag);
	u->diag = -1;
}

/* The call taken over: connect(fd, addr, len) or sendto(fd, buf, n,
 * flags, addr, len) on the caller's socket, duplicated into the host. */
struct call {
	const struct seccomp_notif *req;
	int notify_fd, root, sock;
	enum { CALL_CONNECT, CALL_SENDTO, CALL_SENDMSG, CALL_SENDMMSG, CALL_LISTEN } kind;
	const struct msgcopy *msg; /* sendmsg/sendmmsg: the message being sent */
};

/* The address as given, read once. -errno when the kernel would refuse
 * it before looking at it. */
static int read_addr(const struct call *c, struct sockaddr_storage *ss, socklen_t *len)
{
	const __u64 *args = c->req->data.args;
	if (c->msg != NULL) {
		*ss = c->msg->name;
		*len = c->msg->namelen;
		return 0;
	}
	int n = (int)args[c->kind == CALL_SENDTO ? 5 : 2];
	memset(ss, 0, sizeof *ss);
	*len = 0;
	if (n < 0 || (size_t)n > sizeof *ss)
		return -EINVAL;
	if (n > 0 &&
	    procpath_read_mem((pid_t)c->req->pid, args[c->kind == CALL_SENDTO ? 4 : 1], ss, (size_t)n, false) != n)
		return -EFAULT;
	*len = (socklen_t)n;
	return 0;
}

static bool is_pathname(const struct sockaddr_storage *ss, socklen_t len)
{
	const struct sockaddr_un *a = (const void *)ss;
	return ss->ss_family == AF_UNIX && len > offsetof(struct sockaddr_un, sun_path) && a->sun_path[0] != '\0';
}

/* The wait of a connect in progress, in slices, so that it ends with
 * the caller (notify_fd >= 0: its notification no longer valid). */
static int64_t connect_finish(int sock, int max_ms, int notify_fd, uint64_t id)
{
	struct timeval tv = { 0 };
	socklen_t tl = sizeof tv;
	getsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &tv, &tl);
	int64_t timeo = tv.tv_sec || tv.tv_usec ? (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000 : -1;
	bool capped = max_ms >= 0 && (timeo < 0 || max_ms < timeo);
	for (int64_t left = capped ? max_ms : timeo; left != 0; left = left < 0 ? -1 : left > 100 ? left - 100 : 0) {
		struct pollfd pf = { sock, POLLOUT, 0 };
		if (poll(&pf, 1, left < 0 || left > 100 ? 100 : (int)left) > 0) {
			int err = 0;
			socklen_t el = sizeof err;
			return getsockopt(sock, SOL_SOCKET, SO_ERROR, &err, &el) == 0 ? -err : -errno;
		}
		if (notify_fd >= 0 && seccomp_notify_id_valid(notify_fd, id) != 0)
			return -EINPROGRESS;
	}
	return capped ? -ETIMEDOUT : -EINPROGRESS;
}

int64_t unixsock_connect_wait(int sock, const struct sockaddr *a, socklen_t len, int max_ms, int notify_fd, uint64_t id)
{
	int fl = fcntl(sock, F_GETFL);
	if (fl < 0 || (fl & O_NONBLOCK))
		return connect(sock, a, len) == 0 ? 0 : -errno;
	fcntl(sock, F_SETFL, fl | O_NONBLOCK);
	int64_t rc = connect(sock, a, len) == 0 ? 0 : -errno;
	if (rc == -EINPROGRESS) /* never on AF_UNIX: EAGAIN there */
		rc = connect_finish(sock, max_ms, notify_fd, id);
	fcntl(sock, F_SETFL, fl);
	return rc;
}

/* The datagram, copied out of the caller's memory and sent from the
 * host: never waiting (MSG_DONTWAIT; a blocking caller gets EAGAIN on a
 * full receiver) and never raising SIGPIPE in the host. */
#define SEND_MAX (4 << 20)
static int64_t send_now(const struct call *c, const struct sockaddr *a, socklen_t len)
{
	const __u64 *args = c->req->data.args;
	size_t n = (size_t)args[2];
	if (n > SEND_MAX)
		return -EMSGSIZE;
	char *buf = malloc(n ? n : 1);
	if (buf == NULL)
		return -ENOBUFS;
	int64_t r = -EFAULT;
	if (n == 0 || procpath_read_mem((pid_t)c->req->pid, args[1], buf, n, false) == (ssize_t)n) {
		ssize_t k = sendto(c->sock, buf, n, (int)args[3] | MSG_DONTWAIT | MSG_NOSIGNAL, a, len);
		r = k < 0 ? -errno : k;
	}
	free(buf);
	return r;
}

static void call_do(const struct call *c, const struct sockaddr *a, socklen_t len, struct unixsock_answer *out)
{
	int64_t r = c->msg != NULL           ? unixmsg_send(c->sock, c->msg, a, len)
		    : c->kind == CALL_SENDTO ? send_now(c, a, len)
					     : unixsock_connect_wait(c->sock, a, len, -1, c->notify_fd, c->req->id);
	if (r < 0)
		out->error = (int)r;
	else
		out->val = r;
}

/* Makes the diag socket once, from the process waiting in a still-valid
 * notification (so its namespaces are the sandbox's). A sandbox on the
 * host's network gets one in the host's namespace (`shared`). False when
 * there is none: nodiag says why. */
static bool diag_ready(struct unixsock *u, int notify_fd, const struct seccomp_notif *req)
{
	if (u->diag < 0 && u->nodiag == 0) {
		u->diag = unixdiag_open((pid_t)req->pid);
		u->shared = u->diag < 0 && errno == EXDEV;
		if (u->shared)
			u->diag = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
		u->nodiag = u->diag < 0 ? (errno ? errno : EPERM) : 0;
		if (seccomp_notify_id_valid(notify_fd, req->id) != 0) {
			unixsock_free(u); /* maybe another process's: ask again next time */
			*u = (struct unixsock){ .diag = -1, .taken = u->taken, .inet = u->inet };
			return false;
		}
	}
	return u->diag >= 0;
}

/* Whether a socket of the sandbox is bound to st's file: in its own
 * namespace; on the host's network, held by one of its processes. */
static bool sandbox_owns(struct unixsock *u, int notify_fd, const struct seccomp_notif *req, const struct stat *st)
{
	uint32_t ino = 0;
	if (!diag_ready(u, notify_fd, req) || unixdiag_bound(u->diag, st, &ino) != 1)
		return false;
	return !u->shared || unixdiag_held((pid_t)req->pid, ino);
}

static void deny(struct unixsock_answer *out, const char *rule, int err)
{
	out->error = -err;
	out->rule = rule;
}

/* A pathname address: resolved once, by the host, in the process's root;
 * connected through the inode it checked. */
static void path_call(struct unixsock *u, const struct call *c, const struct sockaddr_storage *ss, socklen_t len,
		      struct unixsock_answer *out)
{
	const struct sockaddr_un *a = (const void *)ss;
	char name[sizeof a->sun_path + 1];
	size_t n = len - offsetof(struct sockaddr_un, sun_path);
	memcpy(name, a->sun_path, n);
	name[n] = '\0';
	snprintf(out->path, sizeof out->path, "%s", name);
	char abs[PATH_MAX];
	if (procpath_join((pid_t)c->req->pid, AT_FDCWD, name, abs, sizeof abs) < 0)
		return deny(out, RULE_HOST, EACCES);
	snprintf(out->path, sizeof out->path, "%s", abs);
	int fd = procpath_open(c->root, abs, false);
	if (fd < 0) {
		int e = errno;
		if (e == ENOENT || e == ENOTDIR || e == ENAMETOOLONG || e == ELOOP)
			out->error = -e; /* fails by itself: nothing to report */
		else
			deny(out, RULE_HOST, EACCES);
		return;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode))
		out->error = -ECONNREFUSED; /* what the kernel says of a non-socket */
	else if (!sandbox_owns(u, c->notify_fd, c->req, &st)) {
		procpath_fd_path(fd, out->path, sizeof out->path);
		deny(out, RULE_HOST, EACCES);
	} else {
		struct sockaddr_un via = { .sun_family = AF_UNIX };
		snprintf(via.sun_path, sizeof via.sun_path, "/proc/self/fd/%d", fd);
		call_do(c, (const struct sockaddr *)&via, sizeof via, out);
		u->taken++;
	}
	close(fd);
}

/* Without the caller's socket (no pidfd_getfd, or a caller that made
 * itself non-dumpable), nothing read from its memory can decide: the
 * kernel would read it again. connect() and sendto() fail; sendmsg()
 * goes on (unixsock.h says why that one is handed back). */
static void call_blind(const struct unixsock *u, const struct call *c, struct unixsock_answer *out)
{
	if (c->kind == CALL_SENDMSG || c->kind == CALL_SENDMMSG) {
		out->what = UNIXSOCK_CONTINUE;
		return;
	}
	snprintf(out->path, sizeof out->path, "%s",
		 c->kind == CALL_CONNECT  ? "connect"
		 : c->kind == CALL_LISTEN ? "listen"
					  : "sendto");
	deny(out, u->inet.on ? RULE_NOGETFD_INET : RULE_NOGETFD, EACCES);
}

static void unix_call(struct unixsock *u, const struct call *c, struct unixsock_answer *out)
{
	struct sockaddr_storage ss;
	socklen_t len;
	if ((out->error = read_addr(c, &ss, &len)) < 0)
		return;
	if (is_pathname(&ss, len))
		return path_call(u, c, &ss, len, out);
	const struct sockaddr_un *a = (const void *)&ss;
	bool abstract = ss.ss_family == AF_UNIX && len > offsetof(struct sockaddr_un, sun_path);
	if (abstract)
		diag_ready(u, c->notify_fd, c->req); /* tells whether the network is the host's */
	if (abstract && u->shared) {
		snprintf(out->path, sizeof out->path, "@%.*s", (int)(len - offsetof(struct sockaddr_un, sun_path) - 1),
			 a->sun_path + 1);
		return deny(out, RULE_SHARED, EPERM);
	}
	call_do(c, (const struct sockaddr *)&ss, len, out);
}

/* One message at addr (a struct msghdr in the caller), copied, decided
 * and sent like sendto's datagram. */
static void msg_one(struct unixsock *u, struct call *c, uint64_t addr, int flags, struct unixsock_answer *out)
{
	struct msgcopy m;
	int rc = unixmsg_read((pid_t)c->req->pid, addr, flags, &m);
	if (rc < 0) {
		out->error = rc;
		return;
	}
	c->msg = &m;
	unix_call(u, c, out);
	c->msg = NULL;
	unixmsg_free(&m);
}

/* sendmmsg: message by message, each one's length written back; stops at
 * the first that fails, which fails the call only when it is the first. */
static void mmsg_call(struct unixsock *u, struct call *c, struct unixsock_answer *out)
{
	const __u64 *args = c->req->data.args;
	unsigned vlen = args[2] > UIO_MAXIOV ? UIO_MAXIOV : (unsigned)args[2], sent = 0;
	for (; sent < vlen; sent++) {
		uint64_t at = args[1] + sent * sizeof(struct mmsghdr);
		msg_one(u, c, at, (int)args[3], out);
		if (out->error != 0)
			break;
		unsigned len = (unsigned)out->val;
		procpath_write_mem((pid_t)c->req->pid, at + offsetof(struct mmsghdr, msg_len), &len, sizeof len);
	}
	if (sent > 0) {
		out->error = 0;
		out->val = sent;
	}
}

/* sendmsg() and sendmmsg() on an AF_UNIX datagram socket: the message
 * may name any destination, so the host sends it. Stream and seqpacket
 * sockets refuse a destination by themselves: those calls go on. The
 * message layout read is the native one; a compat caller is refused. */
static void msgs_call(struct unixsock *u, struct call *c, struct unixsock_answer *out)
{
	int type = 0;
	socklen_t tl = sizeof type;
	if (getsockopt(c->sock, SOL_SOCKET, SO_TYPE, &type, &tl) < 0 || type != SOCK_DGRAM) {
		out->what = UNIXSOCK_CONTINUE;
		return;
	}
	if (c->req->data.arch != seccomp_arch_native()) {
		out->error = -EOPNOTSUPP;
		return;
	}
	if (c->kind == CALL_SENDMMSG)
		return mmsg_call(u, c, out);
	msg_one(u, c, c->req->data.args[1], (int)c->req->data.args[2], out);
}

/* The weaker sandbox's AF_INET/AF_INET6 calls (inetsock.h), on the
 * address read once. */
static void inet_call(struct unixsock *u, const struct call *c, struct unixsock_answer *out)
{
	struct sockaddr_storage ss;
	socklen_t len;
	if ((out->error = read_addr(c, &ss, &len)) < 0)
		return;
	inetsock_call(&u->inet, c->sock, &ss, len, c->kind == CALL_SENDTO, out);
	if (out->what == UNIXSOCK_CONTINUE) { /* a TCP send: allowed, made here like any other */
		out->what = UNIXSOCK_RESULT;
		call_do(c, (const struct sockaddr *)&ss, len, out);
	}
}

/* connect() and sendto() on a socket of another family: made here on the
 * socket taken and the address read once, never handed back to the
 * kernel, which would look the fd number up again (another thread may
 * have put a unix socket there by then) and read the address again. */
static void other_call(const struct call *c, struct unixsock_answer *out)
{
	struct sockaddr_storage ss;
	socklen_t len;
	if ((out->error = read_addr(c, &ss, &len)) == 0)
		call_do(c, (const struct sockaddr *)&ss, len, out);
}

/* listen() in the weaker sandbox: refused on AF_INET/AF_INET6 (inetsock.h);
 * on other sockets made here, on the socket taken, for the same reason
 * as other_call: the fd number could name an inet socket by now. */
static void listen_call(const struct call *c, int domain, struct unixsock_answer *out)
{
	if (domain == AF_INET || domain == AF_INET6)
		return inetsock_listen(c->sock, out);
	out->error = listen(c->sock, (int)c->req->data.args[1]) == 0 ? 0 : -errno;
}

static void unixsock_take(struct unixsock *u, struct call *c, struct unixsock_answer *out)
{
	memset(out, 0, sizeof *out);
	out->what = UNIXSOCK_RESULT;
	c->sock = procpath_take_fd((pid_t)c->req->pid, (int)c->req->data.args[0]);
	if (c->sock < 0 && (errno == ENOSYS || errno == EPERM)) {
		call_blind(u, c, out);
		return;
	}
	int e = errno;
	/* The fd came from the process that waits, not from one that took
	 * over its pid. */
	if (seccomp_notify_id_valid(c->notify_fd, c->req->id) != 0) {
		out->what = UNIXSOCK_GONE;
	} else if (c->sock < 0) {
		out->error = -e; /* EBADF, or the host is out of fds: fail */
	} else {
		int domain = 0;
		socklen_t dl = sizeof domain;
		if (getsockopt(c->sock, SOL_SOCKET, SO_DOMAIN, &domain, &dl) < 0)
			out->error = -errno; /* ENOTSOCK */
		else if (c->kind == CALL_LISTEN)
			listen_call(c, domain, out);
		else if ((domain == AF_INET || domain == AF_INET6) && u->inet.on &&
			 (c->kind == CALL_CONNECT || c->kind == CALL_SENDTO))
			inet_call(u, c, out);
		else if (domain != AF_UNIX && (c->kind == CALL_SENDMSG || c->kind == CALL_SENDMMSG))
			out->what = UNIXSOCK_CONTINUE; /* see unixsock.h: the one call handed back */
		else if (domain != AF_UNIX)
			other_call(c, out);
		else if (c->kind == CALL_SENDMSG || c->kind == CALL_SENDMMSG)
			msgs_call(u, c, out);
		else
			unix_call(u, c, out);
	}
	if (c->sock >= 0)
		close(c->sock);
}

void unixsock_connect(struct unixsock *u, int notify_fd, const struct seccomp_notif *req, int root,
		      struct unixsock_answer *out)
{
	struct call c = { .req = req, .notify_fd = notify_fd, .root = root, .sock = -1, .kind = CALL_CONNECT };
	unixsock_take(u, &c, out);
}

void unixsock_sendto(struct unixsock *u, int notify_fd, const struct seccomp_notif *req, int root,
		     struct unixsock_answer *out)
{
	struct call c = { .req = req, .notify_fd = notify_fd, .root = root, .sock = -1, .kind = CALL_SENDTO };
	unixsock_take(u, &c, out);
}

void unixsock_sendmsg(struct unixsock *u, int notify_fd, const struct seccomp_notif *req, int root, bool many,
		      struct unixsock_answer *out)
{
	struct call c = { .req = req,
			  .notify_fd = notify_fd,
			  .root = root,
			  .sock = -1,
			  .kind = many ? CALL_SENDMMSG : CALL_SENDMSG };
	unixsock_take(u, &c, out);
}

void unixsock_listen(struct unixsock *u, int notify_fd, const struct seccomp_notif *req, struct unixsock_answer *out)
{
	struct call c = { .req = req, .notify_fd = notify_fd, .root = -1, .sock = -1, .kind = CALL_LISTEN };
	if (!u->inet.on) { /* a network namespace of its own, or the host's network (devbox) */
		memset(out, 0, sizeof *out);
		out->what = UNIXSOCK_CONTINUE;
		return;
	}
	unixsock_take(u, &c, out);
}

/* pidfd_getfd on ourselves, and a unix_diag dump in our own namespace. */
/* pidfd_getfd from a child, as the observer does it (ptrace rules such
 * as Yama's apply to another process, not to oneself). */
static int probe_getfd(void)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC); /* the child's copy is taken */
	pid_t child = null < 0 ? -1 : fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	if (child < 0) {
		if (null >= 0)
			close(null);
		return -1;
	}
	int pidfd = (int)syscall(SYS_pidfd_open, child, 0);
	int fd = pidfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, pidfd, null, 0);
	int e = errno;
	close(null);
	if (pidfd >= 0)
		close(pidfd);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	errno = e;
	return fd;
}

int unixsock_probe(char *msg, size_t size)
{
	int fd = probe_getfd();
	int e = errno;
	if (fd < 0) {
		snprintf(msg, size,
			 "pidfd_getfd: %s (host unix sockets are refused by the address as read, "
			 "which a racing thread can change)",
			 strerror(e));
		return -1;
	}
	close(fd);
	struct stat st;
	uint32_t ino;
	int diag = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	int rc = diag < 0 || fstat(diag, &st) < 0 ? -1 : unixdiag_bound(diag, &st, &ino);
	e = errno;
	if (diag >= 0)
		close(diag);
	if (rc < 0) {
		snprintf(msg, size, "unix_diag: %s (the sandbox's own pathname unix sockets are refused too)",
			 strerror(e));
		return -1;
	}
	snprintf(msg, size, "the observer connects AF_UNIX sockets itself: host unix sockets unreachable");
	return 0;
}
