/* approve: reading a sandbox.json, adding one entry, writing it back
 * atomically. The edit itself is policy/jsonedit.c. */
#include "shell/approve.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/jsonedit.h"
#include "policy/suggest.h"

static int fail(char *err, size_t errlen, const char *step, const char *path)
{
	snprintf(err, errlen, "%s %s: %s", step, path, strerror(errno));
	return -1;
}

/* The file a write must replace: path itself, or what its symlink names. */
static void target_of(const char *path, char out[PATH_MAX])
{
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && realpath(path, out) != NULL)
		return;
	snprintf(out, PATH_MAX, "%s", path);
}

static int write_all(int fd, const char *s, size_t len)
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

static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	close(fd);
	return rc;
}

/* Fills the temp file; returns the failed step, or NULL. Closes fd. */
static const char *fill_temp(int fd, const char *text, mode_t mode)
{
	const char *step = NULL;
	if (fchmod(fd, mode) < 0)
		step = "chmod";
	else if (write_all(fd, text, strlen(text)) < 0)
		step = "write";
	else if (fsync(fd) < 0)
		step = "fsync";
	if (close(fd) < 0 && step == NULL)
		step = "close";
	return step;
}

int approve_write_atomic(const char *path, const char *text, char *err, size_t errlen)
{
	char file[PATH_MAX], copy[PATH_MAX], dir[PATH_MAX], tmp[PATH_MAX + 16];
	target_of(path, file);
	snprintf(copy, sizeof copy, "%s", file);
	snprintf(dir, sizeof dir, "%s", dirname(copy));
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return fail(err, errlen, "mkdir", dir);
	snprintf(tmp, sizeof tmp, "%s.XXXXXX", file);
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return fail(err, errlen, "create", tmp);
	struct stat st;
	mode_t mode = stat(file, &st) == 0 ? st.st_mode & 07777 : 0644;
	const char *step = fill_temp(fd, text, mode);
	if (step == NULL && rename(tmp, file) == 0)
		return sync_dir(dir) < 0 ? fail(err, errlen, "fsync", dir) : 0;
	fail(err, errlen, step ? step : "rename", step ? tmp : file);
	unlink(tmp);
	return -1;
}

/* The whole file, or "" when it does not exist. */
static char *read_text(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	if (f == NULL) {
		if (errno == ENOENT)
			return strdup("");
		fail(err, errlen, "open", path);
		return NULL;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	char chunk[4096];
	size_t n;
	while (m != NULL && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
		fwrite(chunk, 1, n, m);
	bool bad = m == NULL || ferror(f);
	if (m != NULL)
		fclose(m);
	fclose(f);
	if (bad || (buf != NULL && strlen(buf) != len)) {
		snprintf(err, errlen, "read %s: %s", path, bad ? "read error" : "contains a NUL byte");
		free(buf);
		return NULL;
	}
	return buf;
}

int approve_always(const char *path, const struct suggestion *s, char *err, size_t errlen)
{
	if (s->key == NULL) {
		snprintf(err, errlen, "nothing to approve");
		return -1;
	}
	char *text = read_text(path, err, errlen);
	if (text == NULL)
		return -1;
	bool added = false;
	char sub[256];
	char *edited = jsonedit_add(text, s->key, s->value, &added, sub, sizeof sub);
	free(text);
	if (edited == NULL) {
		/* jsonedit names "sandbox.json:L:C"; say which file. */
		bool pos = strncmp(sub, "sandbox.json:", 13) == 0;
		snprintf(err, errlen, "%s:%s%s", path, pos ? "" : " ", pos ? sub + 13 : sub);
		return -1;
	}
	int rc = added ? approve_write_atomic(path, edited, err, errlen) : 0;
	free(edited);
	return rc < 0 ? -1 : added;
}
