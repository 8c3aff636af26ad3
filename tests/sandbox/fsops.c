/* fsops: runs a list of file system calls in order, from one thread, for
 * tests/sandbox/observer-shortcuts.sh: each call is printed with its
 * result ("ok" or the errno's name), and a failed call does not stop the
 * list. Directory fds are kept in slots 0..9.
 *
 *   mkdir P | excl P (open O_CREAT|O_EXCL) | creat P (O_CREAT, no O_EXCL)
 *   rawcreat P (the creat system call itself, not libc's open)
 *   fifo P (mknod) | rmdir P | unlink P | symlink TARGET P | rename A B
 *   exchange A B (renameat2 RENAME_EXCHANGE) | link A B
 *   dir N P (slot N: open P O_DIRECTORY) | dup N M (dup2 slot N's fd onto slot M's)
 *   close N | at N P (openat O_CREAT|O_EXCL) | mkdirat N P | fifoat N P
 *   inroot N P (openat2 O_CREAT|O_WRONLY, RESOLVE_IN_ROOT at slot N)
 *   tmpfile N P (O_TMPFILE in slot N's directory, then linkat to P)
 *   bind P (an AF_UNIX socket file, the address not NUL-terminated: the
 *   bytes after P in it are not NUL either)
 *   touch P (a marker, for the host) | wait P (until P exists, at most 60 s) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

static int slot[10] = { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };

static int fd_of(const char *n)
{
	return slot[atoi(n) % 10];
}

static int opened(int fd)
{
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int inroot(int dirfd, const char *p)
{
	struct open_how how = { .flags = O_CREAT | O_WRONLY, .mode = 0644, .resolve = RESOLVE_IN_ROOT };
	return opened((int)syscall(SYS_openat2, dirfd, p, &how, sizeof how));
}

static int tmpfile_link(int dirfd, const char *p)
{
	int fd = openat(dirfd, ".", O_TMPFILE | O_WRONLY, 0644);
	if (fd < 0)
		return -1;
	int rc = linkat(fd, "", AT_FDCWD, p, AT_EMPTY_PATH);
	if (rc < 0) {
		char proc[64];
		snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
		rc = linkat(AT_FDCWD, proc, AT_FDCWD, p, AT_SYMLINK_FOLLOW);
	}
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

static int bind_to(const char *p)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	size_t n = strlen(p);
	memset(a.sun_path, 'z', sizeof a.sun_path);
	if (n >= sizeof a.sun_path)
		return -1;
	memcpy(a.sun_path, p, n);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	int rc = s < 0 ? -1 : bind(s, (struct sockaddr *)&a, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n));
	if (s >= 0)
		close(s);
	return rc;
}

static int wait_for(const char *p)
{
	for (int i = 0; i < 600 && access(p, F_OK) != 0; i++)
		usleep(100000);
	return access(p, F_OK);
}

/* One call: its result, or 1 for an unknown word. */
static int one(const char *op, const char *a, const char *b)
{
	if (strcmp(op, "mkdir") == 0)
		return mkdir(a, 0755);
	if (strcmp(op, "excl") == 0)
		return opened(open(a, O_CREAT | O_EXCL | O_WRONLY, 0644));
	if (strcmp(op, "creat") == 0)
		return opened(open(a, O_CREAT | O_WRONLY, 0644));
#ifdef SYS_creat
	if (strcmp(op, "rawcreat") == 0)
		return opened((int)syscall(SYS_creat, a, 0644));
#endif
	if (strcmp(op, "fifo") == 0)
		return mknod(a, S_IFIFO | 0644, 0);
	if (strcmp(op, "rmdir") == 0)
		return rmdir(a);
	if (strcmp(op, "unlink") == 0)
		return unlink(a);
	if (strcmp(op, "symlink") == 0)
		return symlink(a, b);
	if (strcmp(op, "rename") == 0)
		return rename(a, b);
	if (strcmp(op, "exchange") == 0)
		return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */);
	if (strcmp(op, "link") == 0)
		return link(a, b);
	if (strcmp(op, "dir") == 0) {
		int n = atoi(a) % 10;
		if (slot[n] >= 0)
			close(slot[n]);
		return (slot[n] = open(b, O_RDONLY | O_DIRECTORY)) < 0 ? -1 : 0;
	}
	if (strcmp(op, "dup") == 0)
		return dup2(fd_of(a), fd_of(b)) < 0 ? -1 : 0;
	if (strcmp(op, "close") == 0)
		return close(fd_of(a));
	if (strcmp(op, "at") == 0)
		return opened(openat(fd_of(a), b, O_CREAT | O_EXCL | O_WRONLY, 0644));
	if (strcmp(op, "mkdirat") == 0)
		return mkdirat(fd_of(a), b, 0755);
	if (strcmp(op, "fifoat") == 0)
		return mknodat(fd_of(a), b, S_IFIFO | 0644, 0);
	if (strcmp(op, "inroot") == 0)
		return inroot(fd_of(a), b);
	if (strcmp(op, "tmpfile") == 0)
		return tmpfile_link(fd_of(a), b);
	if (strcmp(op, "bind") == 0)
		return bind_to(a);
	if (strcmp(op, "touch") == 0)
		return opened(open(a, O_CREAT | O_WRONLY, 0644));
	if (strcmp(op, "wait") == 0)
		return wait_for(a);
	return 1;
}

static int arity(const char *op)
{
	static const char *const two[] = { "symlink", "rename",  "exchange", "link",   "dir",    "dup",
					   "at",      "mkdirat", "fifoat",   "inroot", "tmpfile" };
	for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
		if (strcmp(op, two[i]) == 0)
			return 2;
	return 1;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc;) {
		const char *op = argv[i];
		int n = arity(op);
		if (i + n >= argc) {
			fprintf(stderr, "fsops: %s needs %d argument(s)\n", op, n);
			return 2;
		}
		const char *a = n > 0 ? argv[i + 1] : "", *b = n > 1 ? argv[i + 2] : "";
		errno = 0;
		int rc = one(op, a, b);
		if (rc == 1) {
			fprintf(stderr, "fsops: unknown call %s\n", op);
			return 2;
		}
		printf("%s %s %s: %s\n", op, a, b, rc == 0 ? "ok" : strerrorname_np(errno));
		fflush(stdout);
		i += n + 1;
	}
	return 0;
}
