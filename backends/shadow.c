/* shadow: the agents' state shadows and the per-workspace histories
 * (policy/agents.h), made real.
 *
 * On the host, before the clone and as the person (shadow_prepare): the
 * workspace's state dir, each shadow seeded once by copying the real
 * files (reflinked where the file system can), a real directory that
 * does not exist yet made empty so there is something to mount on, and
 * the Python startup file that moves its history. Inside, after the
 * write roots (shadow_mount): each shadow bound read-write over its real
 * path, before the read-only binds, so a policy file inside a shadowed
 * directory (~/.cursor/sandbox.json) is covered read-only on top; after
 * them (shadow_state_rw): the state dir read-write again under the
 * read-only ~/.sandmux. Nothing here ever writes a real path's content:
 * `sandmux agents apply` is the only way back. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backends/sandbox.h"
#include "backends/shadow.h"
#include "policy/agents.h"
#include "policy/config.h"
#include "policy/policy.h"

#define SHADOW_DEPTH 64

/* Python before 3.13 ignores PYTHON_HISTORY: its startup file runs
 * before the interactive hook that would write ~/.python_history, and
 * replaces it with one that reads and writes $PYTHON_HISTORY. */
static const char python_startup[] =
	"# sandmux: the interactive history in $PYTHON_HISTORY (before 3.13 Python ignores it)\n"
	"def _sandmux_history():\n"
	"    import os, sys\n"
	"    path = os.environ.get('PYTHON_HISTORY')\n"
	"    if not path or sys.version_info >= (3, 13):\n"
	"        return\n"
	"    def hook():\n"
	"        try:\n"
	"            import atexit, readline, rlcompleter\n"
	"        except ImportError:\n"
	"            return\n"
	"        readline.parse_and_bind('tab: complete')\n"
	"        try:\n"
	"            readline.read_history_file(path)\n"
	"        except OSError:\n"
	"            pass\n"
	"        def save():\n"
	"            try:\n"
	"                readline.write_history_file(path)\n"
	"            except OSError:\n"
	"                pass\n"
	"        atexit.register(save)\n"
	"    sys.__interactivehook__ = hook\n"
	"_sandmux_history()\n"
	"del _sandmux_history\n";

static int shadow_err(char *err, size_t len, const char *what, const char *path)
{
	snprintf(err, len, "agent shadow: %s %s: %s", what, path, strerror(errno));
	return -1;
}

/* mkdir -p, 0700 for what it makes. */
static int shadow_mkdirs(const char *path)
{
	char buf[PATH_MAX];
	if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *s = strchr(buf + 1, '/');; s = strchr(s + 1, '/')) {
		if (s != NULL)
			*s = '\0';
		if (mkdir(buf, 0700) < 0 && errno != EEXIST)
			return -1;
		if (s == NULL)
			return 0;
		*s = '/';
	}
}

static int shadow_copy_fd(int in, int out, off_t size)
{
	if (ioctl(out, FICLONE, in) == 0)
		return 0; /* copy-on-write: btrfs, xfs */
	for (off_t done = 0; done < size;) {
		ssize_t n = copy_file_range(in, NULL, out, NULL, (size_t)(size - done), 0);
		if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL)) {
			char buf[65536];
			n = read(in, buf, sizeof buf);
			if (n > 0 && write(out, buf, (size_t)n) != n)
				return -1;
		}
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += n;
	}
	return 0;
}

/* A regular file, its mode kept; never through a symlink at either end. */
static int shadow_copy_file(const char *from, const char *to, mode_t mode)
{
	int in = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0)
		return -1;
	struct stat st;
	int out =
		fstat(in, &st) == 0 ? open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 07777) : -1;
	int rc = out < 0 ? -1 : shadow_copy_fd(in, out, st.st_size);
	int e = errno;
	if (out >= 0 && close(out) < 0)
		rc = -1;
	close(in);
	errno = e;
	return rc;
}

static int shadow_copy_tree(const char *from, const char *to, int depth);

static int shadow_copy_entry(const char *from, const char *to, int depth)
{
	struct stat st;
	if (lstat(from, &st) < 0)
		return errno == ENOENT ? 0 : -1; /* gone meanwhile */
	if (S_ISDIR(st.st_mode))
		return depth > 0 ? shadow_copy_tree(from, to, depth - 1) : 0;
	if (S_ISREG(st.st_mode))
		return shadow_copy_file(from, to, st.st_mode);
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlink(from, target, sizeof target - 1);
		if (n < 0)
			return -1;
		target[n] = '\0';
		return symlink(target, to);
	}
	return 0; /* sockets, fifos, devices: the agent makes its own */
}

static int shadow_copy_tree(const char *from, const char *to, int depth)
{
	struct stat st;
	if (lstat(from, &st) < 0 || mkdir(to, (st.st_mode & 07777) | 0700) < 0)
		return -1;
	DIR *d = opendir(from);
	if (d == NULL)
		return -1;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		char a[PATH_MAX], b[PATH_MAX];
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (snprintf(a, sizeof a, "%s/%s", from, e->d_name) >= (int)sizeof a ||
		    snprintf(b, sizeof b, "%s/%s", to, e->d_name) >= (int)sizeof b)
			continue;
		/* best effort below the top: a file the person cannot read
		 * (a root-owned lock) is left out rather than the pane */
		shadow_copy_entry(a, b, depth);
	}
	closedir(d);
	return 0;
}

/* The state dir is writable from inside: a path in it is only used when
 * no component is a symlink (one planted there could point a seeding
 * copy, or a bind, at the person's real files). */
static int shadow_open_plain(const char *path)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS };
	return (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
}

/* The shadow of one real path, seeded the first time. */
static int shadow_seed(const char *real, const char *src, bool dir, char *err, size_t len)
{
	struct stat st;
	char parent[PATH_MAX];
	snprintf(parent, sizeof parent, "%s", src);
	*strrchr(parent, '/') = '\0';
	if (shadow_mkdirs(parent) < 0)
		return shadow_err(err, len, "make", parent);
	int pfd = shadow_open_plain(parent);
	if (pfd < 0)
		return shadow_err(err, len, "open (no symlinks allowed)", parent);
	close(pfd);
	if (lstat(src, &st) == 0)
		return 0; /* seeded before: the agent's own state since */
	bool there = stat(real, &st) == 0;
	if (there && S_ISDIR(st.st_mode) != dir) {
		snprintf(err, len, "agent shadow: %s is a %s, the preset names a %s", real, dir ? "file" : "directory",
			 dir ? "directory" : "file");
		return -1;
	}
	/* A real path that is a symlink is copied from where it points. */
	char resolved[PATH_MAX];
	const char *from = there && realpath(real, resolved) != NULL ? resolved : real;
	int rc = !there ? mkdir(src, 0700)
		 : dir  ? shadow_copy_tree(from, src, SHADOW_DEPTH)
			: shadow_copy_file(from, src, st.st_mode);
	if (rc < 0)
		return shadow_err(err, len, there ? "copy into the shadow" : "make", there ? real : src);
	return 0;
}

/* Something to mount on: a directory the agent has never made is made
 * empty on the host (the agent's files go to the shadow). Where that is
 * not possible (a read-only home) nothing is mounted there and the path
 * stays as Landlock has it: not writable. */
static void shadow_target(const char *real, bool dir)
{
	struct stat st;
	if (dir && lstat(real, &st) < 0)
		shadow_mkdirs(real);
}

/* A preset's "FROM=TO": a real file copied into the shadow at another
 * place (claude's ~/.claude.json into the shadowed ~/.claude). */
static void shadow_seed_moved(const struct policy *p, const struct policy_agent *ag)
{
	const struct policy_agents *a = p->agents;
	for (size_t i = 0; i < ag->seed.n; i++) {
		const char *kv = ag->seed.v[i].text, *eq = strchr(kv, '=');
		char *from = eq ? strndup(kv, (size_t)(eq - kv)) : NULL;
		char *rfrom = from ? path_expand(from, p->home) : NULL, *rto = eq ? path_expand(eq + 1, p->home) : NULL;
		for (size_t k = 0; rfrom && rto && k < a->shadow.n; k++) {
			const char *root = a->shadow.v[k].text;
			size_t n = strlen(root);
			char dst[PATH_MAX];
			struct stat st;
			if (strncmp(rto, root, n) != 0 || rto[n] != '/' ||
			    snprintf(dst, sizeof dst, "%s%s", a->shadow_src.v[k].text, rto + n) >= (int)sizeof dst)
				continue;
			char parent[PATH_MAX];
			snprintf(parent, sizeof parent, "%s", dst);
			*strrchr(parent, '/') = '\0';
			int pfd = shadow_open_plain(parent); /* as in shadow_seed() */
			if (pfd >= 0 && lstat(dst, &st) < 0 && lstat(rfrom, &st) == 0 && S_ISREG(st.st_mode))
				shadow_copy_file(rfrom, dst, st.st_mode); /* best effort: a fresh login otherwise */
			if (pfd >= 0)
				close(pfd);
		}
		free(from);
		free(rfrom);
		free(rto);
	}
}

/* STATE/../python-startup.py: beside the workspaces' dirs, read-only
 * inside (only the workspace's own dir is writable). */
static int shadow_python_startup(const struct policy *p, char *path, size_t size)
{
	char tmp[PATH_MAX];
	if (snprintf(path, size, "%s", p->agents->state) >= (int)size)
		return -1;
	*strrchr(path, '/') = '\0';
	strncat(path, "/python-startup.py", size - strlen(path) - 1);
	struct stat st;
	if (stat(path, &st) == 0 && st.st_size == (off_t)(sizeof python_startup - 1))
		return 0;
	snprintf(tmp, sizeof tmp, "%s.%d", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	bool ok = write(fd, python_startup, sizeof python_startup - 1) == (ssize_t)(sizeof python_startup - 1);
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path) < 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

int shadow_prepare(const struct policy *p, char *err, size_t len)
{
	const struct policy_agents *a = p->agents;
	char dir[PATH_MAX];
	if (!p->sandboxed || a == NULL || a->state == NULL)
		return 0;
	if (agents_history_dir(p, dir, sizeof dir) == NULL || shadow_mkdirs(dir) < 0)
		return shadow_err(err, len, "make", a->state);
	if (shadow_python_startup(p, dir, sizeof dir) < 0)
		return shadow_err(err, len, "write", dir);
	for (size_t i = 0; i < a->shadow.n; i++) {
		bool isdir = strcmp(a->shadow_src.v[i].label, "dir") == 0;
		if (shadow_seed(a->shadow.v[i].text, a->shadow_src.v[i].text, isdir, err, len) < 0)
			return -1;
		shadow_target(a->shadow.v[i].text, isdir);
	}
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].enabled && a->v[i].present)
			shadow_seed_moved(p, &a->v[i]);
	return 0;
}

int shadow_mount(struct sbx *s)
{
	const struct policy_agents *a = s->p->agents;
	for (size_t i = 0; a != NULL && i < a->shadow.n; i++) {
		struct stat real, src;
		const char *dst = a->shadow.v[i].text, *from = a->shadow_src.v[i].text;
		if (lstat(dst, &real) < 0 && errno == ENOENT)
			continue; /* nothing to cover (shadow_target() could not make it) */
		/* Made or checked by shadow_prepare(): anything else now is a
		 * race, and the pane does not start with its real state open. */
		int fd = shadow_open_plain(from);
		if (lstat(dst, &real) < 0 || fd < 0 || fstat(fd, &src) < 0 ||
		    S_ISDIR(real.st_mode) != S_ISDIR(src.st_mode)) {
			char what[PATH_MAX + 64];
			snprintf(what, sizeof what, "shadow %s changed since it was prepared (or holds a symlink)",
				 from);
			if (fd >= 0)
				close(fd);
			return sbx_failx(s, "mount", what);
		}
		/* bound through the fd checked, not the path a pane may change */
		char byfd[64];
		snprintf(byfd, sizeof byfd, "/proc/self/fd/%d", fd);
		int rc = ns_bind(s, byfd, dst, false);
		close(fd);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int shadow_state_rw(struct sbx *s)
{
	const struct policy_agents *a = s->p->agents;
	if (a == NULL || a->state == NULL || access(a->state, F_OK) < 0)
		return 0;
	return ns_bind(s, a->state, a->state, false);
}

int shadow_landlock(const struct sbx *s, int (*grant)(struct sbx *, const char *, void *), void *arg)
{
	const struct policy_agents *a = s->p->agents;
	if (a == NULL || a->state == NULL)
		return 0;
	if (grant((struct sbx *)s, a->state, arg) < 0)
		return -1;
	for (size_t i = 0; !s->weak && i < a->shadow.n; i++) { /* weak: nothing is mounted there */
		/* only a path the shadow is bound on: the real one stays ungranted */
		struct stat real, src;
		int fd = shadow_open_plain(a->shadow_src.v[i].text);
		bool bound = fd >= 0 && fstat(fd, &src) == 0 && stat(a->shadow.v[i].text, &real) == 0 &&
			     real.st_dev == src.st_dev && real.st_ino == src.st_ino;
		if (fd >= 0)
			close(fd);
		if (bound && grant((struct sbx *)s, a->shadow.v[i].text, arg) < 0)
			return -1;
	}
	return 0;
}

/* What the history variables name, under STATE/history. */
static const char *const shadow_hist[][2] = {
	{ "HISTFILE", "bash_history" },       { "SANDMUX_HISTDIR", "" },      { "LESSHISTFILE", "less" },
	{ "NODE_REPL_HISTORY", "node_repl" }, { "PYTHON_HISTORY", "python" }, { "SQLITE_HISTORY", "sqlite" },
	{ "PSQL_HISTORY", "psql" },           { "MYSQL_HISTFILE", "mysql" },
};
#define SHADOW_NHIST (sizeof shadow_hist / sizeof shadow_hist[0])

/* Without a mount namespace nothing is bound over the real paths: the
 * agents that can be told where their state is are pointed at their
 * shadow instead (Landlock grants the state dir). */
static const char *const shadow_weak_vars[][3] = {
	{ "claude", "/.claude", "CLAUDE_CONFIG_DIR" },
	{ "codex", "/.codex", "CODEX_HOME" },
	{ "gemini", "", "GEMINI_CLI_HOME" }, /* its home: it keeps .gemini there */
};
#define SHADOW_NWEAK (sizeof shadow_weak_vars / sizeof shadow_weak_vars[0])

/* The shadow dir STATE/AGENT<rel> when AGENT's state is shadowed. */
static bool shadow_weak_dir(const struct policy *p, size_t i, char *buf, size_t size)
{
	const struct policy_agents *a = p->agents;
	char want[PATH_MAX];
	snprintf(want, sizeof want, "%s/%s%s", a->state, shadow_weak_vars[i][0], "/.");
	for (size_t k = 0; k < a->shadow_src.n; k++)
		if (strncmp(a->shadow_src.v[k].text, want, strlen(want) - 1) == 0) {
			snprintf(buf, size, "%s/%s%s", a->state, shadow_weak_vars[i][0], shadow_weak_vars[i][1]);
			return true;
		}
	return false;
}

static bool shadow_env_named(const char *entry, const char *name)
{
	size_t n = strlen(name);
	return strncmp(entry, name, n) == 0 && entry[n] == '=';
}

static bool shadow_has_startup(char *const *envp)
{
	for (size_t i = 0; envp != NULL && envp[i] != NULL; i++)
		if (shadow_env_named(envp[i], "PYTHONSTARTUP"))
			return true;
	return false;
}

size_t shadow_env(const struct policy *p, char *const *envp, bool weak, char **out)
{
	char dir[PATH_MAX];
	if (out == NULL)
		return SHADOW_NHIST + 1 + SHADOW_NWEAK;
	if (!p->sandboxed || agents_history_dir(p, dir, sizeof dir) == NULL)
		return 0;
	size_t k = 0;
	for (size_t i = 0; i < SHADOW_NHIST; i++)
		if (asprintf(&out[k], "%s=%s%s%s", shadow_hist[i][0], dir, shadow_hist[i][1][0] ? "/" : "",
			     shadow_hist[i][1]) >= 0)
			k++;
	if (!shadow_has_startup(envp)) {
		char py[PATH_MAX];
		snprintf(py, sizeof py, "%s", p->agents->state);
		*strrchr(py, '/') = '\0';
		if (asprintf(&out[k], "PYTHONSTARTUP=%s/python-startup.py", py) >= 0)
			k++;
	}
	for (size_t i = 0; weak && i < SHADOW_NWEAK; i++)
		if (shadow_weak_dir(p, i, dir, sizeof dir) &&
		    asprintf(&out[k], "%s=%s", shadow_weak_vars[i][2], dir) >= 0)
			k++;
	return k;
}

bool shadow_env_is(const struct policy *p, bool weak, const char *entry)
{
	char dir[PATH_MAX];
	if (p->agents == NULL || p->agents->state == NULL)
		return false;
	for (size_t i = 0; i < SHADOW_NHIST; i++)
		if (shadow_env_named(entry, shadow_hist[i][0]))
			return true;
	for (size_t i = 0; weak && i < SHADOW_NWEAK; i++)
		if (shadow_env_named(entry, shadow_weak_vars[i][2]) && shadow_weak_dir(p, i, dir, sizeof dir))
			return true;
	return false;
}
