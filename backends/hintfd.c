/* hintfd: a denial hint onto the denied process's stderr (hintfd.h). */
#include "backends/hintfd.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* A pipe, or a UNIX 98 pseudo-terminal slave (majors 136-143): never a
 * file, a socket or another device. */
static bool hint_target(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return false;
	if (S_ISFIFO(st.st_mode))
		return true;
	return S_ISCHR(st.st_mode) && major(st.st_rdev) >= 136 && major(st.st_rdev) <= 143;
}

static int fail(int e, int a, int b)
{
	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	errno = e;
	return -1;
}

int hintfd_write(pid_t pid, const char *line, size_t len)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		return -1;
	int fd = (int)syscall(SYS_pidfd_getfd, pidfd, 2, 0);
	if (fd < 0)
		return fail(errno, pidfd, -1);
	close(pidfd);
	if (!hint_target(fd))
		return fail(ENOTTY, fd, -1);
	/* our own open file of the same pipe or terminal, non-blocking */
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	int w = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (w < 0)
		return fail(errno, fd, -1);
	close(fd);
	ssize_t n = write(w, line, len);
	return n < 0 ? fail(errno, w, -1) : (close(w), 0);
}
