/* hintfd: a denial hint onto the denied process's stderr (hintfd.h). */
#include "backends/hintfd.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "policy/agents.h"
#include "policy/hint.h"
#include "policy/policy.h"

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

#define HINT_BURST    5
#define HINT_REFILL_S 1.0
#define HINT_ARGS     64

static bool rate_take(struct hintfd_rate *r)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t now = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
	r->tokens = r->at_ms == 0 ? HINT_BURST : r->tokens + (double)(now - r->at_ms) / 1000.0 / HINT_REFILL_S;
	r->at_ms = now;
	if (r->tokens > HINT_BURST)
		r->tokens = HINT_BURST;
	if (r->tokens < 1.0)
		return false;
	r->tokens -= 1.0;
	return true;
}

/* The denied process's words; argv points into buf. */
static void proc_argv(pid_t pid, char *buf, size_t cap, char **argv)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
	/* read(), not stdio: in the observer, a FILE and its 4 KiB buffer
	 * would be pages of its heap of its own */
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;
	ssize_t k;
	while (fd >= 0 && n < cap - 1 && (k = read(fd, buf + n, cap - 1 - n)) > 0)
		n += (size_t)k;
	if (fd >= 0)
		close(fd);
	buf[n] = '\0';
	int argc = 0;
	for (size_t i = 0; i < n && argc < HINT_ARGS; i += strlen(buf + i) + 1)
		argv[argc++] = buf + i;
	argv[argc] = NULL;
}

void hintfd_denial(const struct policy *p, const struct denial *d, struct hintfd_rate *rate)
{
	if (p == NULL || !p->denial_hints || d->pid <= 0 || d->target == NULL)
		return;
	/* quiet denials (a TUI saving its settings, histories) stay quiet:
	 * a line would land in the middle of a full-screen program */
	if (d->target[0] == '/' ? agents_quiet_path(p, d->target) : agents_quiet_host(p, d->target))
		return;
	if (!rate_take(rate))
		return;
	char words[2048], *argv[HINT_ARGS + 1], line[1024];
	proc_argv(d->pid, words, sizeof words, argv);
	size_t n = hint_format(d, p->home, argv[0] != NULL ? argv : NULL, line, sizeof line);
	(void)hintfd_write(d->pid, line, n);
}
