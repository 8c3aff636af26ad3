/* captured-apply: a capture layer's changes copied to the host, outside
 * any sandbox, for `sandmux captured apply` and the multiplexer's view of
 * a pane's layer (shell/captured-view.c).
 *
 * Exactly the chosen entry is written: a file is copied into a new
 * temporary file beside its target and renamed over it; missing parent
 * directories are made; no symlink on the host is followed on the way
 * (each component is opened O_NOFOLLOW from /), and a host target that is
 * a symlink is refused unless the captured entry is a symlink itself.
 * sandmux's own files (~/.sandmux), protected paths and deny matches are
 * never written; nor setuid, setgid or sticky bits, nor anything but
 * files, directories, symlinks and whiteouts (a FIFO is never opened
 * for reading: it would block the reader for as long as the sandbox
 * likes). Names are shown with their control characters as '?'. */
#include "shell/captured.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/capture.h"
#include "policy/paths.h"
#include "policy/policy.h"
#include "ui/denials.h"

const char *captured_name(const char *path, char *buf, size_t size)
{
	ui_safe_text(buf, size, path);
	return buf;
}

void captured_line(const struct capture_entry *e, char *buf, size_t size)
{
	char shown[PATH_MAX];
	snprintf(buf, size, "%-7s %s%s%s%s%s", e->op, captured_name(e->path, shown, sizeof shown), e->dir ? "/" : "",
		 e->special ? " (" : "", e->special ? e->special : "", e->special ? ", not applied)" : "");
}

int captured_lock(const char *layer, char *msg, size_t msize)
{
	int fd = capture_layer_lock(layer);
	if (fd < 0)
		snprintf(msg, msize, "%s",
			 errno == EWOULDBLOCK ? "in use: its sandbox still runs (apply or discard once its command "
						"has ended)"
					      : strerror(errno));
	return fd;
}

int captured_discard_locked(const char *layer, char *msg, size_t msize)
{
	int lock = captured_lock(layer, msg, msize);
	if (lock < 0)
		return -1;
	int rc = capture_discard(layer), e = errno;
	close(lock);
	if (rc < 0)
		snprintf(msg, msize, "discard: %s", strerror(e));
	return rc;
}

/* The parent directory of an absolute host path, opened component by
 * component without following a symlink; missing ones are made. The
 * final name goes to *name. -1 with a message. */
static int captured_parent(const char *path, char *copy, size_t size, const char **name, char *msg, size_t msize)
{
	char name_buf[PATH_MAX];
	if (snprintf(copy, size, "%s", path) >= (int)size || copy[0] != '/')
		return -1;
	char *slash = strrchr(copy, '/');
	*slash = '\0';
	*name = slash + 1;
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	for (char *c = copy + 1; fd >= 0 && *c;) {
		char *end = strchr(c, '/');
		if (end != NULL)
			*end = '\0';
		int next = openat(fd, c, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && mkdirat(fd, c, 0755) == 0)
			next = openat(fd, c, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			snprintf(msg, msize, "%s: %s%s", captured_name(path, name_buf, sizeof name_buf),
				 strerror(errno),
				 errno == ENOTDIR || errno == ELOOP ? " (a symlink or file in the way: not followed)"
								    : "");
		close(fd);
		fd = next;
		if (end == NULL)
			break;
		*end = '/';
		c = end + 1;
	}
	*slash = '/';
	return fd;
}

/* The captured file, opened beneath the layer with no symlink on the way:
 * a sandbox still running could have turned a directory of its upper
 * layer into a symlink to a file of the person's since the listing. */
static int captured_open_upper(const char *layer, const char *upper)
{
	size_t n = strlen(layer);
	if (strncmp(upper, layer, n) != 0 || upper[n] != '/') {
		errno = EINVAL;
		return -1;
	}
	int dir = open(layer, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -1;
	struct open_how how = { .flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
				.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH };
	int fd = (int)syscall(SYS_openat2, dir, upper + n + 1, &how, sizeof how);
	int e = errno;
	close(dir);
	errno = e;
	return fd;
}

/* Copies the captured file (never followed) into a temporary beside the
 * target and renames it over the target. */
static int captured_copy(int dir, const char *name, const struct capture_entry *e, const char *layer)
{
	char tmp[NAME_MAX + 1], buf[65536];
	struct stat st;
	int in = captured_open_upper(layer, e->upper);
	if (in < 0 || fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (in >= 0)
			close(in);
		errno = in < 0 ? errno : EINVAL;
		return -1;
	}
	snprintf(tmp, sizeof tmp, ".sandmux-apply-%d", (int)getpid());
	mode_t mode = st.st_mode & 0777; /* never setuid, setgid or sticky on the host */
	int out = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	ssize_t n = 0;
	while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	int e2 = errno;
	close(in);
	if (out < 0)
		return -1;
	if (n < 0 || fchmod(out, mode) < 0 || fsync(out) < 0 || close(out) < 0 || renameat(dir, tmp, dir, name) < 0) {
		e2 = errno ? errno : e2;
		unlinkat(dir, tmp, 0);
		errno = e2;
		return -1;
	}
	return 0;
}

int captured_apply_entry(const struct capture_entry *e, const char *home, const char *layer, const struct policy *p,
			 char *msg, size_t msize)
{
	char copy[PATH_MAX], target[PATH_MAX], own[PATH_MAX + 16], real[PATH_MAX], shown[PATH_MAX];
	sm_path(realpath(home, real) ? real : home, SM_PATH_DIR, own, sizeof own);
	const char *name, *rule, *path = captured_name(e->path, shown, sizeof shown);
	struct stat hs;
	if (e->special != NULL) {
		snprintf(msg, msize, "%s: a %s in the layer: not applied", path, e->special);
		return -1;
	}
	if (path_under(e->path, own)) {
		snprintf(msg, msize, "%s: sandmux's own files are never applied", path);
		return -1;
	}
	/* protected paths and deny matches are never captured; one that got
	 * in anyway (the observer alone refuses those made after launch) is
	 * not written to the host either */
	if (policy_path_guarded(p, e->path, &rule)) {
		snprintf(msg, msize, "%s: refused by the policy (%s): never applied", path, rule);
		return -1;
	}
	snprintf(msg, msize, "%s: its directory cannot be opened", path);
	int dir = captured_parent(e->path, copy, sizeof copy, &name, msg, msize);
	if (dir < 0)
		return -1;
	bool exists = fstatat(dir, name, &hs, AT_SYMLINK_NOFOLLOW) == 0;
	int rc = 0;
	if (exists && S_ISLNK(hs.st_mode) && !e->link && strcmp(e->op, "remove") != 0) {
		snprintf(msg, msize, "%s: a symlink on the host: not followed, not applied", path);
		close(dir);
		return -1;
	}
	if (strcmp(e->op, "remove") == 0)
		rc = exists ? unlinkat(dir, name, S_ISDIR(hs.st_mode) ? AT_REMOVEDIR : 0) : 0;
	else if (e->dir)
		rc = exists && S_ISDIR(hs.st_mode) ? 0 : mkdirat(dir, name, 0755);
	else if (e->link) {
		ssize_t len = readlink(e->upper, target, sizeof target - 1);
		rc = len < 0 ? -1 : 0;
		if (rc == 0) {
			target[len] = '\0';
			if (exists && S_ISLNK(hs.st_mode))
				unlinkat(dir, name, 0);
			rc = symlinkat(target, dir, name);
		}
	} else
		rc = captured_copy(dir, name, e, layer);
	if (rc < 0)
		snprintf(msg, msize, "apply %s: %s", path,
			 errno == EINVAL ? "not a regular file in the layer" : strerror(errno));
	else
		snprintf(msg, msize, "applied %-7s %s", e->op, path);
	close(dir);
	return rc;
}

/* The policy of the workspace the layer was made for, as it is now. */
struct policy *captured_policy(const char *layer, const char *home, char *msg, size_t msize)
{
	char ws[PATH_MAX];
	struct policy *p = NULL;
	struct perr err = { 0 };
	if (capture_layer_workspace(layer, ws, sizeof ws) < 0) {
		snprintf(msg, msize, "%s does not name its workspace: not applied", layer);
		return NULL;
	}
	struct policy_opts o = { .home = home, .workspace = ws };
	if (policy_load(&o, &p, &err) < 0)
		snprintf(msg, msize, "the policy of %s: %s", ws, err.msg);
	perr_free(&err);
	return p;
}

/* A NUL in the first 8 KiB: a binary file, shown as no diff. */
static bool captured_binary(int fd)
{
	char buf[8192];
	ssize_t n = fd >= 0 ? pread(fd, buf, sizeof buf, 0) : 0;
	return n > 0 && memchr(buf, '\0', (size_t)n) != NULL;
}

/* One side of a diff: /dev/null, or a regular file opened before a byte
 * is read (O_NONBLOCK: a FIFO never blocks the open), its stat in *st.
 * -1 with why. */
static int diff_side(const char *path, const char *layer, struct stat *st, char *why, size_t wsize)
{
	int fd = layer != NULL ? captured_open_upper(layer, path)
			       : open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		snprintf(why, wsize, "%s", fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int captured_diff_start(const struct capture_entry *e, const char *layer, char *head, size_t hsize, pid_t *pid)
{
	char shown[PATH_MAX], why[128];
	struct stat os = { .st_mode = 0 }, ns = { .st_mode = 0 };
	const char *path = captured_name(e->path, shown, sizeof shown);
	bool created = strcmp(e->op, "create") == 0, removed = strcmp(e->op, "remove") == 0;
	int old = -1, new = -1;
	*pid = -1;
	head[0] = '\0';
	if (e->special != NULL || e->dir || e->link) {
		snprintf(head, hsize, "%s: a %s, %s\n", path,
			 e->special ? e->special
			 : e->dir   ? "directory"
				    : "symlink",
			 e->special ? "not read, not applied" : "no diff");
		return -1;
	}
	if ((!created && (old = diff_side(e->path, NULL, &os, why, sizeof why)) < 0) ||
	    (!removed && (new = diff_side(e->upper, layer, &ns, why, sizeof why)) < 0)) {
		snprintf(head, hsize, "%s: %s on the %s, no diff\n", path, why, old < 0 && !created ? "host" : "layer");
		goto fail;
	}
	if (!created && !removed && (os.st_mode & 07777) != (ns.st_mode & 07777))
		snprintf(head, hsize, "%s: mode %04o -> %04o%s\n", path, (unsigned)(os.st_mode & 07777),
			 (unsigned)(ns.st_mode & 07777),
			 ns.st_mode & 07000 ? " (setuid, setgid, sticky: not applied)" : "");
	else if (created)
		snprintf(head, hsize, "%s: new file, mode %04o%s\n", path, (unsigned)(ns.st_mode & 07777),
			 ns.st_mode & 07000 ? " (setuid, setgid, sticky: not applied)" : "");
	if (captured_binary(old) || captured_binary(new)) {
		size_t n = strlen(head);
		snprintf(head + n, hsize - n, "%s: a binary file, no diff\n", path);
		goto fail;
	}
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0)
		goto fail;
	*pid = fork();
	if (*pid == 0) {
		char a[32] = "/dev/null", b[32] = "/dev/null";
		/* the files opened here, not their names: nothing swapped in
		 * since is read */
		if (old >= 0 && fcntl(old, F_SETFD, 0) == 0)
			snprintf(a, sizeof a, "/dev/fd/%d", old);
		if (new >= 0 && fcntl(new, F_SETFD, 0) == 0)
			snprintf(b, sizeof b, "/dev/fd/%d", new);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execlp("diff", "diff", "-u", "--label", e->path, "--label", e->path, a, b, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	if (*pid < 0) {
		close(pfd[0]);
		pfd[0] = -1;
	}
	if (old >= 0)
		close(old);
	if (new >= 0)
		close(new);
	return pfd[0];
fail:
	if (old >= 0)
		close(old);
	if (new >= 0)
		close(new);
	return -1;
}

int captured_diff_end(int fd, pid_t pid)
{
	int st = 0;
	if (fd >= 0)
		close(fd); /* a longer diff: cut here, diff gets EPIPE */
	if (pid < 0)
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) <= 1 ? 0 : -1;
}

int captured_diff_text(const struct capture_entry *e, const char *layer, char *out, size_t size)
{
	pid_t pid;
	if (size == 0)
		return -1;
	int fd = captured_diff_start(e, layer, out, size, &pid);
	size_t n = strlen(out);
	if (fd < 0)
		return pid < 0 && n > 0 ? 0 : -1;
	ssize_t r = 1;
	while (n + 1 < size && (r = read(fd, out + n, size - 1 - n)) > 0)
		n += (size_t)r;
	out[n] = '\0';
	return captured_diff_end(fd, pid) < 0 && n == 0 ? -1 : 0;
}
