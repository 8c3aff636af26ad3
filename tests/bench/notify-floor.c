/* notify-floor: what one seccomp user notification costs on this machine
 * with a handler that decides nothing: a child makes N getppid() calls,
 * each notified; the parent receives each and answers "continue" at
 * once. Prints the child's wall time per call (the round trip) and the
 * handler's CPU per call, the floor under the observer's
 * cpu_us_per_call. Asserts nothing.
 *   notify-floor [N [SYNC]]   SYNC 1: SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int fd_send(int sock, int fd)
{
	char buf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec io = { .iov_base = "f", .iov_len = 1 };
	struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = buf, .msg_controllen = sizeof buf };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

static int fd_recv(int sock)
{
	char buf[CMSG_SPACE(sizeof(int))], byte;
	struct iovec io = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = buf, .msg_controllen = sizeof buf };
	struct cmsghdr *c = recvmsg(sock, &m, 0) == 1 ? CMSG_FIRSTHDR(&m) : NULL;
	int fd = -1;
	if (c != NULL && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof fd);
	return fd;
}

/* The notified side: getppid() is notified, everything else allowed. */
static void caller(int sock, long n)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof f / sizeof f[0], .filter = f };
	int fd = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0
			 ? -1
			 : (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	char go;
	if (fd < 0 || fd_send(sock, fd) < 0 || read(sock, &go, 1) != 1)
		_exit(1);
	close(fd);
	double t0 = now();
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	printf("round trip      %6.2f us a call\n", (now() - t0) / (double)n * 1e6);
	fflush(stdout);
	_exit(0);
}

static double cpu_seconds(void)
{
	struct rusage r;
	getrusage(RUSAGE_SELF, &r);
	return (double)(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
	       (double)(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	int sync_wake = argc > 2 ? atoi(argv[2]) : 1;
	int sv[2];
	if (n <= 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return 1;
	pid_t pid = fork();
	if (pid == 0)
		caller(sv[0], n);
	int fd = pid > 0 ? fd_recv(sv[1]) : -1;
	if (fd < 0) {
		fprintf(stderr, "notify-floor: no listener (seccomp user notification unavailable?)\n");
		return 1;
	}
	if (sync_wake && ioctl(fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS, 1UL) < 0)
		sync_wake = 0;
	double c0 = cpu_seconds();
	if (write(sv[1], "g", 1) != 1)
		return 1;
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	long got = 0;
	while (got < n) {
		memset(&req, 0, sizeof req);
		if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
			break;
		memset(&resp, 0, sizeof resp);
		resp.id = req.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
		got++;
	}
	double cpu = cpu_seconds() - c0;
	int st = 0;
	waitpid(pid, &st, 0);
	printf("handler CPU     %6.2f us a call (sync wake %s)\n", got > 0 ? cpu / (double)got * 1e6 : 0,
	       sync_wake ? "on" : "off");
	return got == n && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
