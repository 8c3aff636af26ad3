/* observer-zygote: see observer-zygote.h. */
#include "backends/observer-zygote.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "backends/fdpass.h"
#include "policy/pack.h"

#define ZYGOTE_FD         3
#define ZYGOTE_MAGIC      0x5a59474fu /* a request's first word */
#define ZYGOTE_FDS        3           /* the listener, the report socket, the memfd */
#define ZYGOTE_ANSWER_MS  5000        /* how long the server waits for the pidfd */
#define ZYGOTE_POLICY_MAX (64 << 20)  /* the largest packed policy read */

struct observer_zygote {
	int sock; /* -1: not running */
	pid_t pid;
};

struct zreq {
	uint32_t magic;
	int32_t weak_port;
};

struct zrep {
	int32_t pid;
	int32_t err; /* 0, or why there is no observer (an errno) */
};

/* One message of exactly len bytes and the fds it passed (*nfds of them,
 * at most max, every one closed on failure): 0, 1 at the end of the
 * stream, or -1. */
static int recv_with_fds(int sock, void *data, size_t len, int *fds, int max, int *nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * ZYGOTE_FDS)];
		struct cmsghdr align;
	} u;
	struct iovec iov = { data, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf };
	ssize_t n;
	*nfds = 0;
	while ((n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
		;
	for (struct cmsghdr *c = n >= 0 ? CMSG_FIRSTHDR(&m) : NULL; c != NULL; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
			for (int i = 0; i < k; i++) {
				int fd;
				memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
				if (*nfds < max)
					fds[(*nfds)++] = fd;
				else
					close(fd);
			}
		}
	if (n == 0)
		return 1;
	if (n == (ssize_t)len && !(m.msg_flags & (MSG_TRUNC | MSG_CTRUNC)))
		return 0;
	for (int i = 0; i < *nfds; i++)
		close(fds[i]);
	*nfds = 0;
	errno = n < 0 ? errno : EPROTO;
	return -1;
}

/* ---- in the zygote ---- */

/* The packed policy the memfd holds, unpacked; NULL on any failure. */
static struct policy *zygote_read_policy(int memfd)
{
	struct stat st;
	char err[256];
	if (fstat(memfd, &st) < 0 || st.st_size <= 0 || st.st_size > ZYGOTE_POLICY_MAX)
		return NULL;
	size_t len = (size_t)st.st_size;
	void *data = mmap(NULL, len, PROT_READ, MAP_PRIVATE, memfd, 0);
	if (data == MAP_FAILED)
		return NULL;
	struct policy *p = policy_unpack(data, len, err, sizeof err);
	munmap(data, len);
	return p;
}

/* The observer, in the zygote's child. */
static void zygote_child(pid_t zygote, const int *fds, int weak_port)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != zygote)
		_exit(1);
	struct policy *p = zygote_read_policy(fds[2]);
	close(fds[2]);
	if (p == NULL)
		_exit(1); /* its listener closes with it: every notified call fails */
	observer_proc_main(zygote, p, fds[0], weak_port, fds[1]);
}

/* Every page an observer writes becomes a copy of its own, and so does
 * every page the zygote writes after the fork (the observer keeps the
 * old one, alone). So an observer starts without fork()'s bookkeeping in
 * the child (the dynamic loader's locks and list of stacks, two pages of
 * ld.so's data; the thread's tid and robust list; a page of libc's
 * data), on a stack of its own, mapped here for it, and unmaps the one
 * the zygote's loop runs on (zygote_switch_stack); the main stack, argv
 * and the environment, stays shared. The child's stack is as large as
 * the main one's limit (at most 8 MiB; only what is touched is memory),
 * with a guard page below. The child is a copy like fork()'s (no
 * CLONE_VM) of a process with one thread: glibc needs no more (raise()
 * asks the kernel for the tid). ASan keeps its own idea of the stack:
 * fork() there. */
#if defined(__SANITIZE_ADDRESS__)
#define ZYGOTE_OWN_STACK 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZYGOTE_OWN_STACK 0
#endif
#endif
#ifndef ZYGOTE_OWN_STACK
#define ZYGOTE_OWN_STACK 1
#endif

/* What the child starts with, on its own stack. */
struct zchild {
	pid_t zygote;
	int sock;
	int fds[ZYGOTE_FDS];
	int weak_port;
	void *zstack; /* the zygote's own stack (NULL: the main one), to give back */
	size_t zstack_len;
};

static size_t zygote_stack_size(void)
{
	struct rlimit rl;
	size_t size = 8u << 20;
	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < size)
		size = (size_t)rl.rlim_cur;
	return size < (256u << 10) ? 256u << 10 : size;
}

/* A stack of len bytes and a guard page below it: its lowest address
 * (the guard's), NULL on failure. */
static char *zygote_stack_map(size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, len + page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	if (mprotect(m, page, PROT_NONE) < 0) {
		munmap(m, len + page);
		return NULL;
	}
	return m;
}

static int zygote_child_entry(void *arg)
{
	struct zchild c = *(const struct zchild *)arg; /* arg is on the zygote's stack */
	/* the zygote goes on writing its stack: the child's copy of each
	 * page would be a page of its own */
	if (c.zstack != NULL)
		munmap(c.zstack, c.zstack_len);
	close(c.sock);
	zygote_child(c.zygote, c.fds, c.weak_port);
	return 1;
}

static pid_t zygote_fork(struct zchild *c)
{
	if (!ZYGOTE_OWN_STACK) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(zygote_child_entry(c));
		return pid;
	}
	size_t len = zygote_stack_size(), page = (size_t)sysconf(_SC_PAGESIZE);
	char *m = zygote_stack_map(len);
	if (m == NULL)
		return -1;
	pid_t pid = clone(zygote_child_entry, m + page + len, SIGCHLD, c);
	int e = errno;
	munmap(m, len + page); /* the child's copy is its own */
	errno = e;
	return pid;
}

/* One request: fork the observer, answer with its pidfd. */
static void zygote_serve(int sock, void *zstack, size_t zstack_len)
{
	struct zreq q;
	int fds[ZYGOTE_FDS], nfds = 0;
	int rc = recv_with_fds(sock, &q, sizeof q, fds, ZYGOTE_FDS, &nfds);
	if (rc == 1 || (rc < 0 && errno != EPROTO))
		_exit(0); /* the server is gone */
	struct zrep r = { .pid = -1, .err = EPROTO };
	int pidfd = -1;
	if (rc == 0 && nfds == ZYGOTE_FDS && q.magic == ZYGOTE_MAGIC) {
		struct zchild c = { .zygote = getpid(),
				    .sock = sock,
				    .weak_port = q.weak_port,
				    .zstack = zstack,
				    .zstack_len = zstack_len };
		memcpy(c.fds, fds, sizeof c.fds);
		pid_t pid = zygote_fork(&c);
		/* a pid it has not reaped yet: the pidfd names this child */
		pidfd = pid > 0 ? (int)syscall(SYS_pidfd_open, pid, 0) : -1;
		r.err = pid < 0 ? errno : pidfd < 0 ? errno : 0;
		r.pid = pid;
		if (pid > 0 && pidfd < 0)
			kill(pid, SIGKILL);
	}
	for (int i = 0; i < nfds; i++)
		close(fds[i]); /* the observer holds the only copies now */
	fdpass_send(sock, &r, sizeof r, &pidfd, pidfd >= 0, 0);
	if (pidfd >= 0)
		close(pidfd);
}

static void zygote_reap(int sfd)
{
	struct signalfd_siginfo si;
	while (read(sfd, &si, sizeof si) > 0)
		;
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/* The zygote's loop and how it ended. */
struct zloop {
	int sfd; /* SIGCHLD */
	int status;
	void *stack; /* its own stack, or NULL: the main one */
	size_t stack_len;
};

static void zygote_loop(struct zloop *l)
{
	for (;;) {
		struct pollfd pf[2] = { { ZYGOTE_FD, POLLIN, 0 }, { l->sfd, POLLIN, 0 } };
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			l->status = 1;
			return;
		}
		if (pf[1].revents)
			zygote_reap(l->sfd);
		if (pf[0].revents & POLLIN)
			zygote_serve(ZYGOTE_FD, l->stack, l->stack_len);
		else if (pf[0].revents) {
			l->status = 0; /* the server closed its end */
			return;
		}
	}
}

static void zygote_loop_entry(unsigned hi, unsigned lo)
{
	zygote_loop((struct zloop *)(((uintptr_t)hi << 32) | lo));
}

/* The loop runs on a stack of its own, which each observer unmaps: the
 * pages of the main one hold argv and the environment (kept for
 * /proc/PID/cmdline) beside the frames the loop would write there after
 * each fork, and of a page the zygote writes after a fork each observer
 * keeps the old copy, a page of its own. */
#define ZYGOTE_LOOP_STACK (128 * 1024)
static void zygote_switch_stack(struct zloop *l)
{
	ucontext_t uc, back;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *m = ZYGOTE_OWN_STACK ? zygote_stack_map(ZYGOTE_LOOP_STACK) : NULL;
	if (m == NULL || getcontext(&uc) < 0) {
		if (m != NULL)
			munmap(m, ZYGOTE_LOOP_STACK + page);
		zygote_loop(l); /* on the main stack, then */
		return;
	}
	l->stack = m;
	l->stack_len = ZYGOTE_LOOP_STACK + page;
	uc.uc_stack.ss_sp = m + page;
	uc.uc_stack.ss_size = ZYGOTE_LOOP_STACK;
	uc.uc_link = &back;
	uintptr_t at = (uintptr_t)l;
	makecontext(&uc, (void (*)(void))zygote_loop_entry, 2, (unsigned)(at >> 32), (unsigned)at);
	swapcontext(&back, &uc);
}

int observer_zygote_main(void)
{
	int type = 0;
	socklen_t tl = sizeof type;
	if (getsockopt(ZYGOTE_FD, SOL_SOCKET, SO_TYPE, &type, &tl) < 0 || type != SOCK_SEQPACKET) {
		fprintf(stderr, "sandmux: %s: started by a sandmux server only\n", OBSERVER_ZYGOTE_NAME);
		return 2;
	}
	prctl(PR_SET_NAME, "sandmux-obs", 0, 0, 0);
	if (chdir("/") < 0) /* the server's directory is none of its business */
		return 1;
	sigset_t all, chld;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	int sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0)
		return 1;
	/* what every observer would otherwise do first, done once here to
	 * stay shared: libseccomp asks the kernel for the notify sizes */
	struct seccomp_notif *req = NULL;
	struct seccomp_notif_resp *resp = NULL;
	if (seccomp_notify_alloc(&req, &resp) == 0)
		seccomp_notify_free(req, resp);
	struct zloop l = { .sfd = sfd, .status = 1 };
	zygote_switch_stack(&l);
	return l.status;
}

/* ---- in the server ---- */

struct observer_zygote *observer_zygote_new(void)
{
	struct observer_zygote *z = calloc(1, sizeof *z);
	if (z != NULL)
		*z = (struct observer_zygote){ .sock = -1, .pid = -1 };
	return z;
}

static void zygote_stop(struct observer_zygote *z)
{
	if (z->sock >= 0)
		close(z->sock);
	if (z->pid > 0) {
		kill(z->pid, SIGKILL); /* not reaped yet: still this child */
		while (waitpid(z->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	z->sock = -1;
	z->pid = -1;
}

/* In the forked child: nothing but the socket (fd 3) and /dev/null for
 * stdio, every signal blocked, then the fresh program. */
static void zygote_exec(pid_t host, int sock)
{
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != host)
		_exit(127);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0 || sock < ZYGOTE_FD)
		_exit(127);
	for (int fd = 0; fd < ZYGOTE_FD; fd++)
		dup2(null, fd);
	if (sock == ZYGOTE_FD ? fcntl(sock, F_SETFD, 0) < 0 : dup2(sock, ZYGOTE_FD) < 0)
		_exit(127);
	syscall(SYS_close_range, ZYGOTE_FD + 1, ~0U, 0);
	char *argv[] = { OBSERVER_ZYGOTE_NAME, NULL };
	/* bound now, in the zygote: lazy binding in each observer would
	 * write its own copy of the pages it binds in; no restartable
	 * sequences: the kernel would write the CPU number into each
	 * observer's thread data at every switch, a private copy of that
	 * page each (nothing here uses them); of the rest of the
	 * environment only a sanitizer's options (the tests' ASan build) */
	char *envp[6] = { "LD_BIND_NOW=1", "GLIBC_TUNABLES=glibc.pthread.rseq=0" }, **e = envp + 2;
	for (char **v = environ; v != NULL && *v != NULL && e < envp + 5; v++)
		if (strncmp(*v, "ASAN_OPTIONS=", 13) == 0 || strncmp(*v, "UBSAN_OPTIONS=", 14) == 0 ||
		    strncmp(*v, "LSAN_OPTIONS=", 13) == 0)
			*e++ = *v;
	execve("/proc/self/exe", argv, envp);
	_exit(127);
}

static int zygote_start(struct observer_zygote *z)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	pid_t host = getpid(), pid = fork();
	if (pid == 0)
		zygote_exec(host, sv[1]);
	int e = errno;
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		errno = e;
		return -1;
	}
	z->sock = sv[0];
	z->pid = pid;
	return 0;
}

/* The policy, packed into a sealed memfd. */
static int policy_memfd(const struct policy *p)
{
	struct buf b = { 0 };
	int fd = -1;
	if (policy_pack(p, &b))
		fd = memfd_create("sandmux-policy", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	size_t off = 0;
	while (fd >= 0 && off < b.len) {
		ssize_t n = write(fd, buf_data(&b) + off, b.len - off);
		if (n <= 0 && errno != EINTR) {
			close(fd);
			fd = -1;
		}
		off += n > 0 ? (size_t)n : 0;
	}
	if (fd >= 0)
		fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	if (fd < 0 && errno == 0)
		errno = ENOMEM;
	buf_free(&b);
	return fd;
}

/* One request on a running zygote: the pidfd, or -1; *dead: the zygote
 * did not answer (it must be replaced). */
static int zygote_ask(struct observer_zygote *z, const int *fds, int weak_port, pid_t *pid, bool *dead)
{
	struct zreq q = { ZYGOTE_MAGIC, weak_port };
	struct zrep r;
	int pidfd = -1, n = 0;
	struct pollfd pf = { z->sock, POLLIN, 0 };
	*dead = true;
	if (fdpass_send(z->sock, &q, sizeof q, fds, ZYGOTE_FDS, 0) < 0)
		return -1;
	int rc;
	while ((rc = poll(&pf, 1, ZYGOTE_ANSWER_MS)) < 0 && errno == EINTR)
		;
	if (rc == 0)
		errno = ETIMEDOUT;
	if (rc <= 0 || recv_with_fds(z->sock, &r, sizeof r, &pidfd, 1, &n) != 0)
		return errno = errno != 0 ? errno : EPIPE, -1;
	*dead = false;
	if (r.err != 0 || n != 1) {
		if (n == 1)
			close(pidfd);
		errno = r.err != 0 ? r.err : EPROTO;
		return -1;
	}
	*pid = r.pid;
	return pidfd;
}

int observer_zygote_spawn(struct observer_zygote *z, const struct policy *p, int notify_fd, int report_sock,
			  int weak_port, pid_t *pid)
{
	int memfd = policy_memfd(p);
	if (memfd < 0)
		return -1;
	const int fds[ZYGOTE_FDS] = { notify_fd, report_sock, memfd };
	int pidfd = -1;
	/* a zygote that died since the last pane is replaced, once */
	for (int tries = 0; tries < 2 && pidfd < 0; tries++) {
		bool dead = true;
		errno = 0;
		if (z->sock < 0 && zygote_start(z) < 0)
			break;
		pidfd = zygote_ask(z, fds, weak_port, pid, &dead);
		if (pidfd < 0 && !dead)
			break;
		if (pidfd < 0)
			zygote_stop(z);
	}
	int e = errno;
	close(memfd);
	errno = e;
	return pidfd;
}

void observer_zygote_free(struct observer_zygote *z)
{
	if (z == NULL)
		return;
	zygote_stop(z);
	free(z);
}
