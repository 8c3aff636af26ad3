/* tmp: the session temp dir at /tmp and /var/tmp inside (DESIGN.md "Temp
 * dirs"): writable unless disableTmpWrite, inspectable from outside, and
 * free of the host's sockets. Roots the policy grants under /tmp (a
 * workspace made by mktemp, say) are bound back at their own paths. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/launch.h"
#include "backends/limits.h"
#include "backends/capture.h"
#include "backends/sandbox.h"
#include "policy/policy.h"

/* Roots the policy grants that live under /tmp or /var/tmp (a workspace
 * in /tmp, say) would vanish under the session temp dir: they are opened
 * before /tmp is covered and bound back at the same path afterwards. */
struct ns_keep {
	int tmpdir; /* the session temp dir, O_PATH: HOME may lie under /tmp */
	int tmpdir_errno;
	char *path[16];
	int fd[16];
	bool ro[16]; /* not under a write root: bound back read-only */
	int n;
};

static bool ns_in_tmp(const char *path)
{
	return strncmp(path, "/tmp/", 5) == 0 || strncmp(path, "/var/tmp/", 9) == 0;
}

static void ns_keep_add(const struct sbx *s, struct ns_keep *k, const char *path, const struct rules *write)
{
	char src[64];
	if (!ns_in_tmp(path) || k->n == 16)
		return;
	for (int i = 0; i < k->n; i++)
		if (strcmp(k->path[i], path) == 0)
			return;
	int fd = open(capture_source(s, path, src, sizeof src), O_PATH | O_CLOEXEC);
	if (fd < 0)
		return;
	k->path[k->n] = (char *)path;
	k->ro[k->n] = !rules_cover(write, path);
	k->fd[k->n++] = fd;
}

static void ns_keep_open(struct sbx *s, struct ns_keep *k)
{
	const struct policy *p = s->p;
	k->n = 0;
	char src[64];
	/* capture: the host's temp dir, not the overlay's copy of it */
	k->tmpdir = p->tmpdir != NULL
			    ? open(capture_source(s, p->tmpdir, src, sizeof src), O_PATH | O_DIRECTORY | O_CLOEXEC)
			    : -1;
	k->tmpdir_errno = errno;
	if (p->workspace)
		ns_keep_add(s, k, p->workspace, &p->write);
	for (size_t i = 0; i < p->write.n; i++)
		ns_keep_add(s, k, p->write.v[i].text, &p->write);
	for (size_t i = 0; !p->read_all && i < p->read.n; i++)
		ns_keep_add(s, k, p->read.v[i].text, &p->write);
}

static void ns_keep_close(struct ns_keep *k)
{
	for (int i = 0; i < k->n; i++)
		close(k->fd[i]);
	k->n = 0;
	if (k->tmpdir >= 0)
		close(k->tmpdir);
}

/* mkdir -p (or an empty file for a file root) of path inside the new
 * /tmp, then the kept original bound on it. */
static int ns_keep_restore(struct sbx *s, struct ns_keep *k, const char *under)
{
	for (int i = 0; i < k->n; i++) {
		char path[PATH_MAX], src[64];
		struct stat st;
		size_t n = strlen(under);
		if (strncmp(k->path[i], under, n) != 0 || k->path[i][n] != '/' || fstat(k->fd[i], &st) < 0)
			continue;
		snprintf(path, sizeof path, "%s", k->path[i]);
		for (char *c = path + n + 1; *c; c++)
			if (*c == '/') {
				*c = '\0';
				mkdir(path, 0700);
				*c = '/';
			}
		if (S_ISDIR(st.st_mode) ? mkdir(path, 0700) < 0 && errno != EEXIST
					: close(open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600)) < 0)
			return sbx_fail(s, "mount", "make a mount point for a root under the temp dir");
		snprintf(src, sizeof src, "/proc/self/fd/%d", k->fd[i]);
		/* Landlock's rule on /tmp would cover it: the mount says no. */
		if (ns_bind(s, src, path, k->ro[i]) < 0)
			return -1;
	}
	return 0;
}

/* limits.tmp: one tmpfs of that size for /tmp and /var/tmp together, in
 * the sandbox's own mount namespace, instead of the session temp dir on
 * the host (whose file system it could fill). Seen from outside through
 * /proc/PID/root/tmp. */
static int tmp_bounded(struct sbx *s, const char *dir, char *first)
{
	char opts[64];
	if (first[0] != '\0')
		return ns_bind(s, first, dir, false);
	snprintf(opts, sizeof opts, "mode=1777,size=%ldm", s->limits->want.tmp_mib);
	if (mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0)
		return sbx_fail(s, "mount", "the size-limited tmpfs on the temp dir (limits.tmp)");
	snprintf(first, PATH_MAX, "%s", dir);
	return 0;
}

/* The session temp dir at /tmp and /var/tmp; without one, a fresh tmpfs,
 * so the host's sockets in /tmp (tmux, X11, sandmux) are never in sight. */
static int tmp_mount(struct sbx *s, struct ns_keep *k)
{
	const char *dirs[] = { "/tmp", "/var/tmp" };
	char first[PATH_MAX] = "";
	bool bounded = s->limits != NULL && s->limits->tmp == LIMIT_TMPFS;
	for (size_t i = 0; i < 2; i++) {
		if (access(dirs[i], F_OK) < 0)
			continue;
		if (bounded) {
			if (tmp_bounded(s, dirs[i], first) < 0)
				return -1;
		} else if (s->p->tmpdir != NULL) {
			char src[64];
			if (k->tmpdir < 0) {
				char what[PATH_MAX + 32];
				snprintf(what, sizeof what, "bind %s on %s", s->p->tmpdir, dirs[i]);
				errno = k->tmpdir_errno;
				return sbx_fail(s, "mount", what);
			}
			snprintf(src, sizeof src, "/proc/self/fd/%d", k->tmpdir);
			if (ns_bind(s, src, dirs[i], false) < 0)
				return -1;
		} else if (mount("tmpfs", dirs[i], "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") < 0) {
			return sbx_fail(s, "mount", "tmpfs on the temp dir");
		}
		if (ns_keep_restore(s, k, dirs[i]) < 0)
			return -1;
		if (i == 0 && s->p->shared_cache && ns_cache(s) < 0)
			return -1;
		/* disableTmpWrite: read-only only now, after the mount points. */
		struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY };
		if (!s->p->tmp_writable && mount_setattr(AT_FDCWD, dirs[i], 0, &ro, sizeof ro) < 0)
			return sbx_fail(s, "mount", "remount the temp dir read-only");
	}
	return 0;
}

int ns_tmp(struct sbx *s)
{
	struct ns_keep keep;
	/* Opened before anything covers /tmp: the stand-ins' tmpfs does. */
	ns_keep_open(s, &keep);
	int rc = ns_stage(s) < 0 ? -1 : tmp_mount(s, &keep);
	ns_keep_close(&keep);
	return rc;
}
