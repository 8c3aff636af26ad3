/* capture: outsideWrites "capture" (DESIGN.md "Capture mode"). Writes
 * outside the write roots land in a per-pane copy-on-write layer: each
 * top-level directory of the file system (/usr, /etc, /home, /opt, /var,
 * /root, ...) is covered by an overlayfs mounted in the sandbox's own user
 * and mount namespaces, its upper and work directories in the layer
 * directory on the host (~/.sandmux/state/capture/SESSION/PANE/). The
 * host's files are the lower layer and are never written.
 *
 * Order (ns.c): the layer's directory and the sources of every later bind
 * that must stay the host's (the write roots, the session temp dir) are
 * opened first, the overlays mounted, and then the usual steps run on top:
 * every mount read-only, the overlays read-write again, the write roots
 * bound back from their pre-overlay fds, then the read-only bind-overs of
 * protected paths and sandmux's own files and the stand-ins over `deny`
 * matches, which cover the overlay as they covered the host. Landlock
 * grants writes (not reads) beneath each overlaid root: everything else
 * found there is a read-only mount or a write root already.
 *
 * A directory with other mounts beneath it is not overlaid: an overlay
 * would hide those mounts, and the kernel refuses it anyway (the lower
 * layer is a private clone of the mount, which a user namespace may not
 * make of a mount with locked children: "overlayfs: failed to clone
 * lowerpath"). Its subdirectories are, each on its own, down to the
 * mounts; the files directly in it stay read-only. /proc, /sys, /dev,
 * /tmp and /run are never overlaid. */
#include "backends/capture.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "backends/launch.h"
#include "backends/sandbox.h"
#include "policy/policy.h"

/* How far below a top-level directory with mounts beneath it the
 * overlays go looking for directories without. */
#define CAPTURE_MAX_DEPTH 3

/* Never overlaid: the kernel's and the sandbox's own (made fresh), the
 * session temp dir, and the host's runtime sockets. */
static bool capture_skipped(const char *name)
{
	static const char *const skip[] = { "proc", "sys", "dev", "tmp", "run", "lost+found", NULL };
	for (size_t i = 0; skip[i] != NULL; i++)
		if (strcmp(name, skip[i]) == 0)
			return true;
	return name[0] == '.';
}

/* The mount points of the sandbox's mount table (mountinfo's 5th
 * field), read once: the kernel makes that file anew on every read
 * (150 us with a hundred mounts), and the walk asks about every
 * directory it looks at. An overlay mounted during the walk never lies
 * beneath a directory looked at later: it goes on a directory found
 * without submounts, whose subtree is not walked. */
struct capture_mounts {
	char **v;
	size_t n;
	bool unknown; /* could not be read: every directory has submounts */
};

static void capture_mounts_read(struct capture_mounts *m)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], mp[PATH_MAX];
	memset(m, 0, sizeof *m);
	m->unknown = f == NULL;
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		char **v =
			sscanf(line, "%*s %*s %*s %*s %4095s", mp) == 1 ? realloc(m->v, (m->n + 1) * sizeof *v) : NULL;
		if (v == NULL || (v[m->n] = strdup(mp)) == NULL) {
			if (v != NULL)
				m->v = v;
			m->unknown = true;
			break;
		}
		m->v = v;
		m->n++;
	}
	if (f != NULL)
		fclose(f);
}

static void capture_mounts_free(struct capture_mounts *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i]);
	free(m->v);
}

/* Whether some mount lies strictly beneath /name; name is relative to /,
 * e.g. "root" or "root/work". */
static bool capture_has_submounts(const struct capture_mounts *m, const char *name)
{
	char dir[PATH_MAX];
	int n = snprintf(dir, sizeof dir, "/%s/", name);
	if (m->unknown)
		return true; /* cannot tell: leave it alone */
	for (size_t i = 0; i < m->n; i++)
		if (strncmp(m->v[i], dir, (size_t)n) == 0)
			return true;
	return false;
}

int capture_keep_source(struct sbx *s, const char *path)
{
	if (path == NULL || s->nsrc == SBX_MAX_SRC)
		return 0;
	for (int i = 0; i < s->nsrc; i++)
		if (strcmp(s->src[i].path, path) == 0)
			return 0;
	int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return 0; /* a root that does not exist is skipped later too */
	if ((s->src[s->nsrc].path = strdup(path)) == NULL) {
		close(fd);
		return sbx_fail(s, "capture", "keep a bind source");
	}
	s->src[s->nsrc++].fd = fd;
	return 0;
}

const char *capture_source(const struct sbx *s, const char *path, char *buf, size_t size)
{
	for (int i = 0; i < s->nsrc; i++)
		if (strcmp(s->src[i].path, path) == 0) {
			snprintf(buf, size, "/proc/self/fd/%d", s->src[i].fd);
			return buf;
		}
	return path;
}

void capture_close_sources(struct sbx *s)
{
	for (int i = 0; i < s->nsrc; i++) {
		close(s->src[i].fd);
		free(s->src[i].path);
	}
	s->nsrc = 0;
}

/* mkdir -p of rel beneath the directory fd at, component by component,
 * following no symlink: a pane's layer outlives its runs, and a run that
 * saw /root/sub inside the overlay of /root could leave a symlink at
 * upper/root/sub for a later run to take as its upper layer. Returns an
 * fd of the directory, or -1 (ELOOP, ENOTDIR: something in the way). */
static int capture_open_dirs(int at, const char *rel, mode_t mode)
{
	char part[PATH_MAX];
	if (snprintf(part, sizeof part, "%s", rel) >= (int)sizeof part) {
		errno = ENAMETOOLONG;
		return -1;
	}
	int fd = openat(at, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (char *c = part, *next; fd >= 0 && c != NULL && *c; c = next) {
		next = strchr(c, '/');
		if (next != NULL)
			*next++ = '\0';
		int sub = -1;
		if (mkdirat(fd, c, mode) == 0 || errno == EEXIST)
			sub = openat(fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = errno;
		close(fd);
		errno = e;
		fd = sub;
	}
	return fd;
}

/* The overlay itself, on /name; ufd and wfd its upper and work dirs. */
static int capture_mount_overlay(struct sbx *s, const char *name, int ufd, int wfd, int depth)
{
	char opts[1024], what[PATH_MAX + 128], target[264];
	/* The layers by fd: the layer directory itself lies under an
	 * overlaid root (HOME), and an upper layer on an overlay is refused.
	 * Test hook: an option overlayfs does not know, so the mount fails
	 * (EINVAL) as it does on a kernel without overlayfs in user
	 * namespaces. */
	const char *hook = getenv("SANDMUX_TEST_CAPTURE_NO_OVERLAY") != NULL ? ",sandmux_test_no_overlay" : "";
	if (snprintf(opts, sizeof opts, "lowerdir=/%s,upperdir=/proc/self/fd/%d,workdir=/proc/self/fd/%d,userxattr%s",
		     name, ufd, wfd, hook) >= (int)sizeof opts ||
	    snprintf(target, sizeof target, "/%s", name) >= (int)sizeof target) {
		errno = ENAMETOOLONG;
		return sbx_fail(s, "capture", "overlay options");
	}
	if (mount("overlay", target, "overlay", MS_NOSUID | MS_NODEV, opts) < 0) {
		if (errno == ENOENT && depth > 0)
			return 0; /* removed on the host since the walk: stays read-only */
		snprintf(what, sizeof what,
			 "mount an overlay on /%s (outsideWrites \"capture\" needs overlayfs in user namespaces)",
			 name);
		return sbx_fail(s, "capture", what);
	}
	if (s->ncapture == SBX_MAX_CAPTURE) {
		errno = E2BIG;
		return sbx_fail(s, "capture", "too many directories to overlay");
	}
	snprintf(s->capture[s->ncapture++], sizeof s->capture[0], "%s", target);
	return 0;
}

/* One overlay on /name, its layers in the layer directory (fd layer). */
static int capture_overlay(struct sbx *s, int layer, const char *name, int depth)
{
	char what[PATH_MAX + 128], upper[272], work[272];
	if (snprintf(upper, sizeof upper, "upper/%s", name) >= (int)sizeof upper ||
	    snprintf(work, sizeof work, "work/%s", name) >= (int)sizeof work)
		return 0; /* too deep a name: left as it is, writes refused */
	int ufd = capture_open_dirs(layer, upper, 0755), wfd = ufd >= 0 ? capture_open_dirs(layer, work, 0700) : -1;
	if (ufd < 0 || wfd < 0) {
		int e = errno;
		if (ufd >= 0)
			close(ufd);
		errno = e;
		snprintf(what, sizeof what, "make the layers of /%s in %s", name, s->l->capture_dir);
		return sbx_fail(s, "capture", what);
	}
	int rc = capture_mount_overlay(s, name, ufd, wfd, depth);
	close(ufd);
	close(wfd);
	return rc;
}

static int capture_open_layer(struct sbx *s)
{
	char what[PATH_MAX + 32];
	int fd = s->l->capture_dir != NULL ? open(s->l->capture_dir, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
	if (s->l->capture_dir == NULL) {
		errno = EINVAL;
		return sbx_fail(s, "capture", "no layer directory given for outsideWrites \"capture\"");
	}
	if (fd < 0) {
		snprintf(what, sizeof what, "open the layer directory %s", s->l->capture_dir);
		return sbx_fail(s, "capture", what);
	}
	/* upper/ and work/: made here, while the host's mounts are writable. */
	if ((mkdirat(fd, "upper", 0755) < 0 && errno != EEXIST) || (mkdirat(fd, "work", 0700) < 0 && errno != EEXIST)) {
		close(fd);
		snprintf(what, sizeof what, "make upper/ and work/ in %s", s->l->capture_dir);
		return sbx_fail(s, "capture", what);
	}
	/* O_PATH cannot mkdirat: a real directory fd. */
	int dir = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(fd);
	if (dir < 0) {
		snprintf(what, sizeof what, "open the layer directory %s", s->l->capture_dir);
		return sbx_fail(s, "capture", what);
	}
	return dir;
}

/* layer/roots: the overlaid directories, one a line, so the listing
 * does not take the upper directory of one for a directory the sandbox
 * made (when the host's was removed meanwhile). */
static int capture_write_roots(struct sbx *s, int layer)
{
	int fd = openat(layer, "roots", O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	bool ok = fd >= 0;
	for (int i = 0; ok && i < s->ncapture; i++)
		ok = dprintf(fd, "%s\n", s->capture[i]) > 0;
	if (fd >= 0 && close(fd) < 0)
		ok = false;
	return ok ? 0 : sbx_fail(s, "capture", "write the list of overlaid directories");
}

/* The directory /name overlaid if no mount lies beneath it; otherwise
 * (the kernel refuses the overlay then, see above) each of its
 * subdirectories the same way, a few levels down. Files directly in such
 * a directory stay the host's, read-only. */
static int capture_tree(struct sbx *s, const struct capture_mounts *m, int layer, const char *name, int depth)
{
	char path[PATH_MAX];
	struct stat st;
	if (snprintf(path, sizeof path, "/%s", name) >= (int)sizeof path || lstat(path, &st) < 0 ||
	    !S_ISDIR(st.st_mode))
		return 0;
	/* Writable anyway; and an overlay on a write root's own mount would
	 * come back with it in the recursive bind of the root (ns.c). */
	if (rules_cover(&s->p->write, path))
		return 0;
	if (!capture_has_submounts(m, name))
		return capture_overlay(s, layer, name, depth);
	DIR *d = depth < CAPTURE_MAX_DEPTH ? opendir(path) : NULL;
	if (d == NULL)
		return 0;
	int rc = 0;
	struct dirent *e;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		char sub[PATH_MAX];
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    snprintf(sub, sizeof sub, "%s/%s", name, e->d_name) >= (int)sizeof sub)
			continue;
		rc = capture_tree(s, m, layer, sub, depth + 1);
	}
	closedir(d);
	return rc;
}

int capture_mount(struct sbx *s)
{
	const struct policy *p = s->p;
	if (!p->capture)
		return 0;
	/* The host's own view of what later steps bind. */
	for (size_t i = 0; i < p->write.n; i++)
		capture_keep_source(s, p->write.v[i].text);
	capture_keep_source(s, p->tmpdir);
	char cache[PATH_MAX];
	if (p->shared_cache && p->tmpdir != NULL && cache_host_dir(p, cache, sizeof cache) == 0)
		capture_keep_source(s, cache);
	int layer = capture_open_layer(s);
	if (layer < 0)
		return -1;
	DIR *root = opendir("/");
	if (root == NULL) {
		close(layer);
		return sbx_fail(s, "capture", "list the top-level directories");
	}
	struct capture_mounts m;
	capture_mounts_read(&m);
	int rc = 0;
	struct dirent *e;
	while (rc == 0 && (e = readdir(root)) != NULL)
		if (!capture_skipped(e->d_name))
			rc = capture_tree(s, &m, layer, e->d_name, 0);
	capture_mounts_free(&m);
	closedir(root);
	if (rc == 0)
		rc = capture_write_roots(s, layer);
	close(layer);
	return rc;
}

int capture_rw(struct sbx *s)
{
	int kept = 0;
	for (int i = 0; i < s->ncapture; i++) {
		if (ns_bind(s, s->capture[i], s->capture[i], false) < 0) {
			if (errno != ENOENT)
				return -1;
			/* removed on the host since the walk (another program's
			 * temp dir in HOME): stays read-only, no write rule */
			s->err[0] = '\0';
			continue;
		}
		if (kept != i)
			memcpy(s->capture[kept], s->capture[i], sizeof s->capture[0]);
		kept++;
	}
	s->ncapture = kept;
	return 0;
}
