/* safefile: directories walked one component at a time with O_NOFOLLOW,
 * files replaced by rename, logs appended through a checked descriptor. */
#include "backends/safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *err, size_t errlen, const char *dir, const char *name, const char *what)
{
	snprintf(err, errlen, "%s%s%s: %s", dir, name[0] ? "/" : "", name, what);
	return -1;
}

static int fail_errno(char *err, size_t errlen, const char *dir, const char *name, const char *step)
{
	char what[256];
	snprintf(what, sizeof what, "%s: %s", step, strerror(errno));
	return fail(err, errlen, dir, name, what);
}

/* What stands at dir/name where a directory or a regular file should. */
static const char *kind_wrong(int dir, const char *name, bool want_dir)
{
	struct stat st;
	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return NULL;
	if (S_ISLNK(st.st_mode))
		return "a symbolic link; refused (sandmux does not write through links)";
	if (want_dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		return want_dir ? "not a directory; refused" : "not a regular file; refused";
	return NULL;
}

/* One component below dir: opened without following a link, made first
 * when missing and make. */
static int step_into(struct safedir *d, const char *name, bool make, char *err, size_t errlen)
{
	int fd = openat(d->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && make && (mkdirat(d->fd, name, 0700) == 0 || errno == EEXIST))
		fd = openat(d->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		const char *wrong = errno == ENOENT ? NULL : kind_wrong(d->fd, name, true);
		return wrong != NULL ? fail(err, errlen, d->path, name, wrong)
				     : fail_errno(err, errlen, d->path, name, "open");
	}
	close(d->fd);
	d->fd = fd;
	size_t n = strlen(d->path);
	snprintf(d->path + n, sizeof d->path - n, "/%s", name);
	return 0;
}

int safefile_dir_open(struct safedir *d, const char *root, const char *rel, bool make, char *err, size_t errlen)
{
	char part[256];
	snprintf(d->path, sizeof d->path, "%s", root);
	d->fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0)
		return fail_errno(err, errlen, root, "", "open");
	for (const char *p = rel; *p;) {
		size_t n = strcspn(p, "/");
		if (n >= sizeof part || (n == 2 && p[0] == '.' && p[1] == '.')) {
			safefile_dir_close(d);
			return fail(err, errlen, root, rel, "not a plain relative path");
		}
		memcpy(part, p, n);
		part[n] = '\0';
		if (n > 0 && strcmp(part, ".") != 0 && step_into(d, part, make, err, errlen) < 0) {
			safefile_dir_close(d);
			return -1;
		}
		p += n + (p[n] == '/');
	}
	return 0;
}

void safefile_dir_close(struct safedir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

int safefile_write_all(int fd, const char *s, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, s, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		len -= (size_t)w;
	}
	return 0;
}

/* A name suffix nobody can guess ahead. */
static unsigned random_u32(int tries)
{
	unsigned r = 0;
	if (getrandom(&r, sizeof r, 0) != sizeof r)
		r = (unsigned)getpid() * 2654435761u + (unsigned)tries;
	return r;
}

/* A fresh name beside name, opened O_EXCL | O_NOFOLLOW: nothing that was
 * there before (a planted link) is ever opened. */
static int temp_open(struct safedir *d, const char *name, char *tmp, size_t size)
{
	for (int tries = 0; tries < 16; tries++) {
		snprintf(tmp, size, ".%s.%08x.tmp", name, random_u32(tries));
		int fd = openat(d->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

/* Fills the temp file; the failed step, or NULL. Closes fd. */
static const char *fill_temp(int fd, const char *text, size_t len, mode_t mode)
{
	const char *step = NULL;
	if (fchmod(fd, mode) < 0)
		step = "chmod";
	else if (safefile_write_all(fd, text, len) < 0)
		step = "write";
	else if (fsync(fd) < 0)
		step = "fsync";
	if (close(fd) < 0 && step == NULL)
		step = "close";
	return step;
}

int safefile_replace_at(struct safedir *d, const char *name, const char *text, size_t len, mode_t mode, char *err,
			size_t errlen)
{
	struct stat st;
	const char *wrong = kind_wrong(d->fd, name, false);
	if (wrong != NULL)
		return fail(err, errlen, d->path, name, wrong);
	if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		mode = st.st_mode & 07777;
	char tmp[300];
	int fd = temp_open(d, name, tmp, sizeof tmp);
	if (fd < 0)
		return fail_errno(err, errlen, d->path, name, "create a temp file beside it");
	const char *step = fill_temp(fd, text, len, mode);
	/* rename() replaces the name whatever it is now; it follows nothing */
	if (step == NULL && renameat(d->fd, tmp, d->fd, name) < 0)
		step = "rename";
	if (step != NULL) {
		int saved = errno;
		unlinkat(d->fd, tmp, 0);
		errno = saved;
		return fail_errno(err, errlen, d->path, name, step);
	}
	return fsync(d->fd) < 0 ? fail_errno(err, errlen, d->path, "", "fsync") : 0;
}

/* rel split at its last slash: the directory part into dir. */
static const char *split(const char *rel, char *dir, size_t size)
{
	const char *slash = strrchr(rel, '/');
	snprintf(dir, size, "%.*s", slash != NULL ? (int)(slash - rel) : 0, rel);
	return slash != NULL ? slash + 1 : rel;
}

int safefile_replace(const char *root, const char *rel, const char *text, size_t len, mode_t mode, char *err,
		     size_t errlen)
{
	char dir[4096];
	const char *name = split(rel, dir, sizeof dir);
	struct safedir d;
	if (safefile_dir_open(&d, root, dir, true, err, errlen) < 0)
		return -1;
	int rc = safefile_replace_at(&d, name, text, len, mode, err, errlen);
	safefile_dir_close(&d);
	return rc;
}

int safefile_append_at(struct safedir *d, const char *name, char *err, size_t errlen)
{
	struct stat st;
	int fd = openat(d->fd, name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
			0600);
	if (fd < 0) {
		const char *wrong = kind_wrong(d->fd, name, false);
		return wrong != NULL ? fail(err, errlen, d->path, name, wrong)
				     : fail_errno(err, errlen, d->path, name, "open");
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
		close(fd);
		return fail(err, errlen, d->path, name,
			    "not a regular file with one link; refused (another name of it could be anywhere)");
	}
	return fd;
}

int safefile_append(const char *root, const char *rel, char *err, size_t errlen)
{
	char dir[4096];
	const char *name = split(rel, dir, sizeof dir);
	struct safedir d;
	if (safefile_dir_open(&d, root, dir, true, err, errlen) < 0)
		return -1;
	int fd = safefile_append_at(&d, name, err, errlen);
	safefile_dir_close(&d);
	return fd;
}

/* Whether name is free: made now (make), or nothing there (errno EEXIST
 * when something is). */
static bool name_take(struct safedir *d, const char *name, bool make)
{
	struct stat st;
	if (make)
		return mkdirat(d->fd, name, 0700) == 0;
	if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		errno = EEXIST;
		return false;
	}
	return errno == ENOENT;
}

static int mkdtemp_at(struct safedir *d, const char *prefix, bool make, char *out, size_t outlen, char *err,
		      size_t errlen)
{
	const char *step = make ? "mkdir" : "stat";
	for (int tries = 0; tries < 16; tries++) {
		char name[256];
		snprintf(name, sizeof name, "%s-%06x", prefix, random_u32(tries) & 0xffffff);
		if (name_take(d, name, make)) {
			if (snprintf(out, outlen, "%s/%s", d->path, name) < (int)outlen)
				return 0;
			if (make)
				unlinkat(d->fd, name, AT_REMOVEDIR);
			errno = ENAMETOOLONG;
		}
		if (errno != EEXIST)
			return fail_errno(err, errlen, d->path, name, step);
	}
	return fail_errno(err, errlen, d->path, prefix, step);
}

static int tempdir(const char *root, const char *rel, const char *prefix, bool make, char *out, size_t outlen,
		   char *err, size_t errlen)
{
	struct safedir d;
	if (safefile_dir_open(&d, root, rel, true, err, errlen) < 0)
		return -1;
	int rc = mkdtemp_at(&d, prefix, make, out, outlen, err, errlen);
	safefile_dir_close(&d);
	return rc;
}

int safefile_mkdtemp(const char *root, const char *rel, const char *prefix, char *out, size_t outlen, char *err,
		     size_t errlen)
{
	return tempdir(root, rel, prefix, true, out, outlen, err, errlen);
}

int safefile_tempname(const char *root, const char *rel, const char *prefix, char *out, size_t outlen, char *err,
		      size_t errlen)
{
	return tempdir(root, rel, prefix, false, out, outlen, err, errlen);
}
