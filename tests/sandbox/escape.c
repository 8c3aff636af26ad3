/* escape: tries one thing a sandbox must forbid, for tests/sandbox/*.sh.
 * Exit status 0: the attempt succeeded (an escape, unless expected);
 * 1: it failed, with the errno printed; 2: bad usage. Each test verifies
 * the outcome from outside as well. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

static int report(const char *what, long rc)
{
	if (rc < 0) {
		printf("%s: failed: %s\n", what, strerror(errno));
		return 1;
	}
	printf("%s: succeeded\n", what);
	return 0;
}

static int tiocsti(const char *fdarg)
{
	int fd = strcmp(fdarg, "tty") == 0 ? open("/dev/tty", O_RDWR) : atoi(fdarg);
	char c = '#';
	if (fd < 0)
		return report("open /dev/tty", -1);
	/* The plain request, then the same with upper bits set, which a
	 * filter comparing all 64 bits would miss (CVE-2019-10063). */
	long a = syscall(SYS_ioctl, fd, (unsigned long)TIOCSTI, &c);
	int ea = errno;
	long b = syscall(SYS_ioctl, fd, (unsigned long)TIOCSTI | 0xdead00000000UL, &c);
	if (a == 0 || b == 0)
		return report("TIOCSTI", 0);
	errno = ea;
	return report("TIOCSTI", -1);
}

static int abstract(const char *name)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	size_t n = strlen(name);
	memcpy(a.sun_path + 1, name, n);
	return report("connect abstract", connect(fd, (struct sockaddr *)&a, (socklen_t)(sizeof(sa_family_t) + 1 + n)));
}

static int tcp(const char *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((unsigned short)atoi(port)),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	return report("connect tcp", connect(fd, (struct sockaddr *)&a, sizeof a));
}

static int io_uring(void)
{
	struct io_uring_params p;
	memset(&p, 0, sizeof p);
	return report("io_uring_setup", syscall(__NR_io_uring_setup, 4, &p));
}

int main(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";
	const char *arg = argc > 2 ? argv[2] : "0";
	if (strcmp(op, "tiocsti") == 0)
		return tiocsti(arg);
	if (strcmp(op, "tiocsti-ok") == 0) /* a tty is there: TCGETS works */
		return report("TCGETS", ioctl(atoi(arg), TCGETS, &(struct termios){ 0 }));
	if (strcmp(op, "io_uring") == 0)
		return io_uring();
	if (strcmp(op, "ptrace") == 0)
		return report("ptrace attach", ptrace(PTRACE_ATTACH, atoi(arg), 0, 0));
	if (strcmp(op, "kill") == 0)
		return report("kill", kill(atoi(arg), SIGTERM));
	if (strcmp(op, "abstract") == 0)
		return abstract(arg);
	if (strcmp(op, "tcp") == 0)
		return tcp(arg);
	if (strcmp(op, "fd") == 0)
		return report("fd open", fcntl(atoi(arg), F_GETFD));
	if (strcmp(op, "devtty") == 0)
		return report("open /dev/tty", open("/dev/tty", O_RDWR));
	if (strcmp(op, "userns") == 0)
		return report("unshare user", unshare(CLONE_NEWUSER));
	if (strcmp(op, "mount") == 0)
		return report("mount tmpfs", mount("none", "/mnt", "tmpfs", 0, NULL));
	if (strcmp(op, "remount") == 0)
		return report("remount / rw", mount(NULL, "/", NULL, MS_REMOUNT, NULL));
	if (strcmp(op, "raw") == 0)
		return report("raw socket", socket(AF_INET, SOCK_RAW, IPPROTO_ICMP));
	if (strcmp(op, "packet") == 0)
		return report("packet socket", socket(AF_PACKET, SOCK_RAW, 0));
	if (strcmp(op, "sctp") == 0)
		return report("sctp socket", socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP));
	if (strcmp(op, "mptcp") == 0)
		return report("mptcp socket", socket(AF_INET, SOCK_STREAM, 262));
	if (strcmp(op, "netlink") == 0) /* NETLINK_AUDIT */
		return report("netlink audit socket", socket(AF_NETLINK, SOCK_RAW, 9));
	if (strcmp(op, "bpf") == 0)
		return report("bpf", syscall(__NR_bpf, 0, NULL, 0));
	if (strcmp(op, "keyctl") == 0)
		return report("add_key", syscall(__NR_add_key, "user", "x", "y", 1, -2));
	if (strcmp(op, "clone3") == 0) {
		long rc = syscall(__NR_clone3, NULL, 0);
		printf("clone3: %s\n", rc < 0 && errno == ENOSYS ? "ENOSYS" : strerror(errno));
		return rc < 0 && errno == ENOSYS ? 1 : 0;
	}
	fprintf(stderr, "usage: escape OP [ARG]\n");
	return 2;
}
