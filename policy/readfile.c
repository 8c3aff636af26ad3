/* readfile: one open, checks on the descriptor, one bounded read. */
#include "policy/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* O_NONBLOCK: a FIFO put where a file is expected must not hang the
 * open; it is refused below as not a regular file. */
#define READ_FLAGS (O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)

static int open_beneath(const char *root, const char *path)
{
	int dir = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -1;
	struct open_how how = {
		.flags = READ_FLAGS,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, dir, path, &how, sizeof how);
	int saved = errno;
	close(dir);
	errno = saved;
	return fd;
}

static void open_why(const char *root, char *why, size_t whylen)
{
	if (root != NULL && errno == ELOOP)
		snprintf(why, whylen, "a symbolic link is on its way below %s", root);
	else if (root != NULL && errno == EXDEV)
		snprintf(why, whylen, "resolves outside %s", root);
	else if (errno == ENOSYS)
		snprintf(why, whylen, "cannot open: openat2 is missing (Linux 5.6 or later needed)");
	else
		snprintf(why, whylen, "cannot open: %s", strerror(errno));
}

static int check_fd(int fd, unsigned flags, char *why, size_t whylen)
{
	struct stat st;
	if (fstat(fd, &st) < 0) {
		snprintf(why, whylen, "cannot stat: %s", strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "not a regular file");
		return -1;
	}
	if ((flags & READFILE_ONE_LINK) && st.st_nlink > 1) {
		snprintf(why, whylen, "has %lu hard links", (unsigned long)st.st_nlink);
		return -1;
	}
	return 0;
}

/* Reads fd to its end, at most max bytes. */
static char *read_all(int fd, size_t max, size_t *len, char *why, size_t whylen)
{
	size_t n = 0, cap = 4096;
	char *buf = malloc(cap + 1);
	while (buf != NULL) {
		if (n == cap) {
			char *more = cap <= max ? realloc(buf, cap * 2 + 1) : NULL;
			if (more == NULL)
				break;
			buf = more;
			cap *= 2;
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(why, whylen, "cannot read: %s", strerror(errno));
			free(buf);
			return NULL;
		}
		if (r == 0) {
			buf[n] = '\0';
			*len = n;
			return buf;
		}
		n += (size_t)r;
		if (n > max) {
			if (max % (1024 * 1024) == 0)
				snprintf(why, whylen, "larger than %zu MiB", max / (1024 * 1024));
			else
				snprintf(why, whylen, "larger than %zu bytes", max);
			free(buf);
			return NULL;
		}
	}
	free(buf);
	snprintf(why, whylen, "cannot read: out of memory");
	return NULL;
}

int readfile(const char *root, const char *path, unsigned flags, size_t max, char **text, size_t *len, char *why,
	     size_t whylen)
{
	int fd = root != NULL ? open_beneath(root, path) : open(path, READ_FLAGS);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		open_why(root, why, whylen);
		return -1;
	}
	*text = check_fd(fd, flags, why, whylen) == 0 ? read_all(fd, max, len, why, whylen) : NULL;
	close(fd);
	return *text != NULL ? 1 : -1;
}
