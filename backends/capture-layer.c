/* capture-layer: what a capture layer holds, read on the host after (or
 * while) the sandbox wrote it; see capture.h for the upper directory's
 * conventions. Nothing here follows a symlink: every entry is looked at
 * with lstat-like calls relative to its directory's fd. */
#include "backends/capture.h"
#include "policy/paths.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#define CAPTURE_MAX_DEPTH 128

/* What is never read nor applied; a removal's mode is the host's, and
 * nothing of the sandbox's is read for it. */
static const char *special_of(mode_t mode, const char *op)
{
	if (strcmp(op, "remove") == 0 || S_ISREG(mode) || S_ISDIR(mode) || S_ISLNK(mode))
		return NULL;
	return S_ISFIFO(mode) ? "fifo" : S_ISSOCK(mode) ? "socket" : "device";
}

static void list_add(struct capture_list *l, const char *path, const char *upper, const char *op, mode_t mode)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 32;
		struct capture_entry *v = realloc(l->v, cap * sizeof *v);
		if (v == NULL)
			abort();
		l->v = v;
		l->cap = cap;
	}
	struct capture_entry *e = &l->v[l->n++];
	e->path = strdup(path);
	e->upper = strdup(upper);
	if (e->path == NULL || e->upper == NULL)
		abort();
	e->op = op;
	e->dir = S_ISDIR(mode);
	e->link = S_ISLNK(mode);
	e->mode = mode;
	e->special = special_of(mode, op);
}

static bool is_opaque(int dirfd, const char *name)
{
	char v[4] = "";
	char proc[PATH_MAX];
	/* lgetxattr has no *at form: through the directory's fd. */
	snprintf(proc, sizeof proc, "/proc/self/fd/%d/%s", dirfd, name);
	ssize_t n = lgetxattr(proc, "user.overlay.opaque", v, sizeof v - 1);
	return n > 0 && v[0] == 'y';
}

/* A file copied up but left as it was (opened for writing, not written). */
static bool same_as_host(int dirfd, const char *name, const struct stat *up, const char *host)
{
	struct stat hs;
	if (lstat(host, &hs) < 0 || !S_ISREG(hs.st_mode) || !S_ISREG(up->st_mode) || hs.st_size != up->st_size ||
	    (hs.st_mode & 07777) != (up->st_mode & 07777) || hs.st_uid != up->st_uid || hs.st_gid != up->st_gid)
		return false;
	/* O_NONBLOCK: a FIFO swapped in since the stat never blocks the open */
	int a = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC),
	    b = open(host, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat as, bs;
	bool same = a >= 0 && b >= 0 && fstat(a, &as) == 0 && fstat(b, &bs) == 0 && S_ISREG(as.st_mode) &&
		    S_ISREG(bs.st_mode);
	char x[65536], y[65536];
	while (same) {
		ssize_t n = read(a, x, sizeof x), m = n > 0 ? read(b, y, (size_t)n) : 0;
		if (n <= 0) {
			same = n == 0 && read(b, y, 1) == 0;
			break;
		}
		same = m == n && memcmp(x, y, (size_t)n) == 0;
	}
	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	return same;
}

/* One listing: where it goes, and the overlaid directories (layer/roots,
 * written by capture.c), whose own upper directories are no change. */
struct walk {
	struct capture_list *l;
	char **roots;
	size_t nroots;
};

static bool is_root(const struct walk *w, const char *host)
{
	for (size_t i = 0; i < w->nroots; i++)
		if (strcmp(w->roots[i], host) == 0)
			return true;
	return false;
}

static int walk_dir(int fd, const char *host, const char *upper, struct walk *w, int depth);

/* One entry of a directory of the upper layer. */
static int walk_entry(int fd, const char *name, const char *host, const char *upper, struct walk *w, int depth)
{
	struct capture_list *l = w->l;
	struct stat st, hs;
	char hp[PATH_MAX], up[PATH_MAX];
	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0; /* gone meanwhile */
	if (snprintf(hp, sizeof hp, "%s/%s", host, name) >= (int)sizeof hp ||
	    snprintf(up, sizeof up, "%s/%s", upper, name) >= (int)sizeof up)
		return 0;
	bool on_host = lstat(hp, &hs) == 0;
	if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(0, 0)) {
		if (on_host)
			list_add(l, hp, up, "remove", hs.st_mode);
		return 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (!on_host || !same_as_host(fd, name, &st, hp))
			list_add(l, hp, up, on_host ? "write" : "create", st.st_mode);
		return 0;
	}
	if (is_root(w, hp))
		; /* made for an overlay, not by the sandbox */
	else if (is_opaque(fd, name) && on_host)
		list_add(l, hp, up, "replace", st.st_mode);
	else if (!on_host || !S_ISDIR(hs.st_mode))
		list_add(l, hp, up, on_host ? "replace" : "create", st.st_mode);
	int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0)
		return 0;
	return walk_dir(sub, hp, up, w, depth + 1);
}

/* Takes fd. */
static int walk_dir(int fd, const char *host, const char *upper, struct walk *w, int depth)
{
	DIR *d = depth < CAPTURE_MAX_DEPTH ? fdopendir(fd) : NULL;
	if (d == NULL) {
		close(fd);
		return 0;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			walk_entry(dirfd(d), e->d_name, host, upper, w, depth);
	closedir(d);
	return 0;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct capture_entry *)a)->path, ((const struct capture_entry *)b)->path);
}

/* layer/roots into w (none when missing: an older layer). */
static void read_roots(const char *layer, struct walk *w)
{
	char file[PATH_MAX], line[PATH_MAX];
	snprintf(file, sizeof file, "%s/roots", layer);
	FILE *f = fopen(file, "re");
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		char **v = realloc(w->roots, (w->nroots + 1) * sizeof *v);
		if (v == NULL || (v[w->nroots] = strdup(line)) == NULL)
			abort();
		w->roots = v;
		w->nroots++;
	}
	if (f != NULL)
		fclose(f);
}

int capture_list_read(const char *layer, struct capture_list *l)
{
	struct walk w = { .l = l };
	char upper[PATH_MAX];
	if (snprintf(upper, sizeof upper, "%s/upper", layer) >= (int)sizeof upper) {
		errno = ENAMETOOLONG;
		return -1;
	}
	int fd = open(upper, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	DIR *d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return -1;
	}
	read_roots(layer, &w);
	struct dirent *e;
	/* upper/NAME is /NAME: its own entry is never listed. */
	while ((e = readdir(d)) != NULL) {
		char host[PATH_MAX], up[PATH_MAX];
		if (e->d_name[0] == '.')
			continue;
		int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			continue;
		if (snprintf(host, sizeof host, "/%s", e->d_name) >= (int)sizeof host ||
		    snprintf(up, sizeof up, "%s/%s", upper, e->d_name) >= (int)sizeof up) {
			close(sub);
			continue;
		}
		walk_dir(sub, host, up, &w, 0);
	}
	closedir(d);
	for (size_t i = 0; i < w.nroots; i++)
		free(w.roots[i]);
	free(w.roots);
	if (l->n > 1)
		qsort(l->v, l->n, sizeof *l->v, entry_cmp);
	return 0;
}

void capture_list_free(struct capture_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].upper);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* Directory name of dirfd made 0700 and opened, never through a symlink
 * (one swapped in since the lstat): the chmod goes through an O_PATH fd
 * of the directory itself, which a mode 000 directory can be opened as. */
static int open_writable_dir(int dirfd, const char *name)
{
	char proc[64];
	int path = openat(dirfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (path < 0)
		return -1;
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", path);
	chmod(proc, 0700); /* the fd's own inode: /proc's link is not a path walk */
	int fd = openat(path, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(path);
	return fd;
}

/* Empties directory fd (taken), depth first; its subdirectories may be
 * mode 000 (the kernel's work dirs) or read-only (the sandbox's). */
static int discard_dir(int fd, int depth)
{
	DIR *d = depth < CAPTURE_MAX_DEPTH ? fdopendir(fd) : NULL;
	int rc = 0;
	if (d == NULL) {
		close(fd);
		return -1;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			int sub = open_writable_dir(dirfd(d), e->d_name);
			if (sub < 0 || discard_dir(sub, depth + 1) < 0 ||
			    unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) < 0)
				rc = -1;
		} else if (unlinkat(dirfd(d), e->d_name, 0) < 0) {
			rc = -1;
		}
	}
	closedir(d);
	return rc;
}

int capture_discard(const char *layer)
{
	int fd = open_writable_dir(AT_FDCWD, layer);
	if (fd < 0)
		return -1;
	if (discard_dir(fd, 0) < 0)
		return -1;
	return rmdir(layer);
}

/* An empty layer, gone at once under its name and removed behind the
 * caller's back: its directories (two per overlay, and the kernel's work
 * directories in them) took 20-27 ms to remove on ext4 here, most of a
 * capture-mode `run -- true`, and the server's loop stood still for it
 * each time a capture pane ended. The name goes by rename (one call); a
 * detached grandchild, holding none of the caller's descriptors nor its
 * working directory, removes the rest. A ".gone-" name is never listed (captured skips dot names). */
static int capture_discard_soon(const char *layer)
{
	char gone[PATH_MAX];
	const char *base = strrchr(layer, '/');
	if (base == NULL ||
	    snprintf(gone, sizeof gone, "%.*s/.gone-%s", (int)(base - layer), layer, base + 1) >= (int)sizeof gone)
		return capture_discard(layer);
	if (rename(layer, gone) < 0)
		return capture_discard(layer);
	pid_t pid = fork();
	if (pid < 0)
		return capture_discard(gone);
	if (pid == 0) {
		if (fork() == 0) {
			setsid(); /* no terminal's ^C stops it halfway */
			close_range(3, ~0U, 0);
			/* nor does it hold the caller's directory: a workspace
			 * unmounted right after the run would be busy */
			if (chdir("/") < 0)
				_exit(1);
			_exit(capture_discard(gone) < 0);
		}
		_exit(0);
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return 0;
}

int capture_layer_settle(const char *layer, struct capture_list *l)
{
	if (capture_list_read(layer, l) < 0) {
		if (errno != ENOENT)
			return -1;
		/* no upper/: the sandbox never got as far as its overlays */
		return capture_discard_soon(layer);
	}
	if (l->n == 0)
		capture_discard_soon(layer);
	return 0;
}

int capture_layer_make(const char *home, const char *session, const char *name, char *out, size_t size)
{
	char dir[PATH_MAX];
	if (home == NULL || home[0] != '/' || session[0] == '.' || strchr(session, '/') != NULL ||
	    (name != NULL && (name[0] == '.' || strchr(name, '/') != NULL)) ||
	    snprintf(dir, sizeof dir, "%s/%s/%s", home, sm_path_rel(SM_PATH_CAPTURE), session) >= (int)sizeof dir) {
		errno = EINVAL;
		return -1;
	}
	/* mkdir -p, each level private to the user */
	for (char *c = dir + 1; *c; c++)
		if (*c == '/') {
			*c = '\0';
			int rc = mkdir(dir, 0700);
			*c = '/';
			if (rc < 0 && errno != EEXIST)
				return -1;
		}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -1;
	if (snprintf(out, size, "%s/%s", dir, name != NULL ? name : "XXXXXX") >= (int)size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	size_t n = strlen(out);
	if (n < 6 || strcmp(out + n - 6, "XXXXXX") != 0)
		return mkdir(out, 0700) < 0 && errno != EEXIST ? -1 : 0;
	return mkdtemp(out) != NULL ? 0 : -1;
}

int capture_layer_set_workspace(const char *layer, const char *workspace)
{
	char file[PATH_MAX];
	if (snprintf(file, sizeof file, "%s/workspace", layer) >= (int)sizeof file)
		return -1;
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	bool ok = dprintf(fd, "%s\n", workspace) > 0;
	return close(fd) == 0 && ok ? 0 : -1;
}

int capture_layer_workspace(const char *layer, char *buf, size_t size)
{
	char file[PATH_MAX];
	if (snprintf(file, sizeof file, "%s/workspace", layer) >= (int)sizeof file)
		return -1;
	int fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, size - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 1 || buf[0] != '/')
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* LOCK_EX either way: the sandbox's owner takes it on a layer nobody
 * reviews; a review takes it while no sandbox has it. The fd is
 * O_CLOEXEC and the launcher closes every fd it does not pass on: the
 * sandbox never holds the layer's directory. */
int capture_layer_lock(const char *layer)
{
	int fd = open(layer, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}
