/* ns: what the sandbox sees of the file system, set up inside its new user
 * and mount namespaces: ids mapped to themselves, every mount a slave of
 * the host's, a fresh /proc for the new pid namespace, a private /dev
 * (dev.c), the session temp dir at /tmp and /var/tmp (tmp.c), read-only
 * bind-overs of protected paths and sandmux's own files, empty stand-ins
 * over `deny` matches and over host daemons' sockets.
 *
 * Order matters: a bind of a directory hides the mounts below it, and a
 * bind copies the read-only flag of its source. So: temp dirs first (their
 * source lives under ~/.sandmux, bound read-only later), then read-only
 * directories parents first, then writable exceptions, then the leaves
 * (deny matches, masks). Each protected directory becomes a mount point,
 * which rename() cannot move (EBUSY). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/capture.h"
#include "backends/launch.h"
#include "backends/ns.h"
#include "backends/sandbox.h"
#include "backends/shadow.h"
#include "policy/glob.h"
#include "policy/paths.h"
#include "policy/policy.h"

/* Where the empty stand-ins are made; /tmp is covered right after, and
 * they stay reachable through O_PATH fds (s->empty_file, s->empty_dir). */
#define NS_STAGE      "/tmp"
#define NS_EMPTY_FILE NS_STAGE "/.sandmux-empty"
#define NS_EMPTY_DIR  NS_STAGE "/.sandmux-emptydir"

static int ns_write_file(struct sbx *s, const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return sbx_fail(s, "user namespace: open", path);
	ssize_t n = write(fd, text, strlen(text));
	int e = errno;
	close(fd);
	if (n != (ssize_t)strlen(text)) {
		errno = n < 0 ? e : EIO;
		return sbx_fail(s, "user namespace: write", path);
	}
	return 0;
}

int ns_map_ids(struct sbx *s)
{
	char map[64];
	/* setgroups must be denied before an unprivileged gid_map write. */
	if (ns_write_file(s, "/proc/self/setgroups", "deny") < 0)
		return -1;
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)s->uid, (unsigned)s->uid);
	if (ns_write_file(s, "/proc/self/uid_map", map) < 0)
		return -1;
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)s->gid, (unsigned)s->gid);
	return ns_write_file(s, "/proc/self/gid_map", map);
}

/* The bind copies its source's flags, read-only included (every mount
 * is, after ns_root_readonly): mount_setattr(2) then sets or clears that
 * one flag and leaves the others, the locked ones too, as they are, with
 * no statvfs(3) to learn them first. */
int ns_bind(struct sbx *s, const char *src, const char *dst, bool ro)
{
	char what[PATH_MAX + 64];
	if (mount(src, dst, NULL, MS_BIND | MS_REC, NULL) < 0) {
		snprintf(what, sizeof what, "bind %s on %s", src, dst);
		return sbx_fail(s, "mount", what);
	}
	struct mount_attr a = { .attr_set = ro ? MOUNT_ATTR_RDONLY : 0, .attr_clr = ro ? 0 : MOUNT_ATTR_RDONLY };
	if (mount_setattr(AT_FDCWD, dst, 0, &a, sizeof a) < 0) {
		snprintf(what, sizeof what, "remount %s %s", dst, ro ? "read-only" : "read-write");
		return sbx_fail(s, "mount", what);
	}
	return 0;
}

/* Binds the empty stand-in of the right kind over path. */
static int ns_hide(struct sbx *s, const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return 0; /* gone since the walk: nothing to hide */
	if (S_ISLNK(st.st_mode))
		return 0; /* its target is what is matched and hidden */
	char src[64];
	snprintf(src, sizeof src, "/proc/self/fd/%d", S_ISDIR(st.st_mode) ? s->empty_dir : s->empty_file);
	return ns_bind(s, src, path, true);
}

int ns_stage(struct sbx *s)
{
	if (mount("tmpfs", NS_STAGE, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=64k") < 0)
		return sbx_fail(s, "mount", "tmpfs for the empty stand-ins");
	int fd = open(NS_EMPTY_FILE, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return sbx_fail(s, "mount", "create the empty stand-in file");
	close(fd);
	if (mkdir(NS_EMPTY_DIR, 0) < 0)
		return sbx_fail(s, "mount", "create the empty stand-in directory");
	s->empty_file = open(NS_EMPTY_FILE, O_PATH | O_CLOEXEC);
	s->empty_dir = open(NS_EMPTY_DIR, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (s->empty_file < 0 || s->empty_dir < 0)
		return sbx_fail(s, "mount", "open the empty stand-ins");
	return 0;
}

static int ns_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A protected directory that does not exist yet (no .vscode, no .sandmux
 * in this checkout) could be created and filled from inside, where no
 * bind can cover it: a mount needs an existing target, and Landlock has
 * no rule for one name inside a writable directory. The observer refuses
 * such a creation (policy_decide_path), so nothing is made in the
 * workspace when it runs. Without the observer (`run --no-observer`) an
 * empty one is made (by the parent, after the clone, before the child's
 * mounts), when its parent exists, lies in the workspace and the sandbox
 * could write there, and it is covered like the others; launch_cleanup()
 * removes it again if still empty. Returns how many were made. */
int ns_precreate(const struct policy *p, char **made, int max)
{
	int nmade = 0;
	for (size_t i = 0; p->workspace != NULL && i < p->protect.n; i++) {
		char dir[PATH_MAX];
		const char *g = p->protect.v[i].text;
		size_t n = strlen(g), w = strlen(p->workspace);
		if (n < 4 || n >= sizeof dir || strcmp(g + n - 3, "/**") != 0 || strncmp(g, p->workspace, w) != 0 ||
		    g[w] != '/')
			continue;
		memcpy(dir, g, n - 3);
		dir[n - 3] = '\0';
		/* Only where the sandbox could write (not in read-only). */
		if (glob_is_pattern(dir) || access(dir, F_OK) == 0 || !rules_cover(&p->write, dir))
			continue;
		char *slash = strrchr(dir, '/');
		*slash = '\0';
		bool parent = access(dir, W_OK) == 0;
		*slash = '/';
		/* Best effort: the observer still sees creations. */
		if (parent && nmade < max && mkdir(dir, 0755) == 0 && (made[nmade] = strdup(dir)) != NULL)
			nmade++;
	}
	return nmade;
}

/* The directories between the workspace and a protected path (.git for
 * .git/config and .git/hooks, .git/info for .git/info/attributes) become
 * writable mount points of their own, before any read-only bind below
 * them. Otherwise `mv .git .git2 && mkdir .git` would carry the covered
 * paths away with their parent and leave a fresh, writable .git (hooks,
 * config) for the person's next git command outside the sandbox:
 * rename() of a mount point fails with EBUSY. */
static int ns_pin_parents(struct sbx *s, const struct ns_paths *ro)
{
	const char *ws = s->p->workspace;
	size_t w = ws != NULL ? strlen(ws) : 0;
	char dir[PATH_MAX], last[PATH_MAX] = "";
	for (size_t i = 0; w > 0 && i < ro->n; i++) {
		const char *path = ro->v[i];
		if (!path_under(path, ws) || path[w] != '/' || strlen(path) >= sizeof dir)
			continue;
		for (const char *sl = strchr(path + w + 1, '/'); sl != NULL; sl = strchr(sl + 1, '/')) {
			struct stat st;
			memcpy(dir, path, (size_t)(sl - path));
			dir[sl - path] = '\0';
			/* sorted input: a parent shared with the previous entry is done */
			if (path_under(last, dir))
				continue;
			if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
				break; /* a symlink or nothing: no bind lands on a chosen target */
			if (ns_bind(s, dir, dir, false) < 0)
				return -1;
			snprintf(last, sizeof last, "%s", dir);
		}
	}
	return 0;
}

/* A walk that lost a path (ns.h): the pane is refused, naming where. */
static int ns_walk_fail(struct sbx *s, const struct ns_paths *a, const struct ns_paths *b, const char *what)
{
	const struct ns_paths *lost = a->err != 0 ? a : b;
	char msg[512];
	if (lost->err == ENAMETOOLONG) {
		snprintf(msg, sizeof msg,
			 "%s: a name in %.300s makes a path longer than PATH_MAX, which cannot be bound over", what,
			 lost->where);
		return sbx_failx(s, "mount", msg);
	}
	if (lost->err != 0)
		errno = lost->err;
	return sbx_fail(s, "mount", what);
}

/* Read-only roots and protected paths, parents first, then the writable
 * exceptions that lie beneath a protected directory. */
static int ns_readonly(struct sbx *s)
{
	const struct policy *p = s->p;
	struct ns_paths ro = { 0 }, ex = { 0 };
	int rc = -1;
	char own[PATH_MAX];
	for (size_t i = 0; i < SM_PATH_COUNT; i++) /* also where HOME is a link: p->readonly has it resolved */
		if (sm_paths[i].root != NULL && sm_path(p->home, i, own, sizeof own) == 0)
			ns_paths_add(&ro, own);
	for (size_t i = 0; i < p->readonly.n; i++)
		ns_paths_add(&ro, p->readonly.v[i].text);
	if (ns_glob_walk(&p->protect, &p->protect_except, &ro) < 0 || ns_glob_walk(&p->protect_except, NULL, &ex) < 0) {
		if (errno == E2BIG && ro.err == 0 && ex.err == 0)
			sbx_failx(s, "mount", "protected paths: too many entries to walk in the workspace");
		else
			ns_walk_fail(s, &ro, &ex, "walk the protected paths");
		goto out;
	}
	if (ro.n > 1)
		qsort(ro.v, ro.n, sizeof *ro.v, ns_cmp);
	if (ns_pin_parents(s, &ro) < 0)
		goto out;
	for (size_t i = 0; i < ro.n; i++) {
		struct stat st;
		/* A symlink is skipped: a bind would land on its target, which an
		 * earlier run could have chosen. What it points at keeps its own
		 * rules (Landlock) when written through it. */
		if ((i > 0 && strcmp(ro.v[i], ro.v[i - 1]) == 0) || lstat(ro.v[i], &st) < 0 || S_ISLNK(st.st_mode))
			continue;
		if (ns_bind(s, ro.v[i], ro.v[i], true) < 0)
			goto out;
	}
	for (size_t i = 0; i < ex.n; i++)
		if (ns_paths_under(&ro, ex.v[i]) && ns_bind(s, ex.v[i], ex.v[i], false) < 0)
			goto out;
	rc = 0;
out:
	ns_paths_free(&ro);
	ns_paths_free(&ex);
	return rc;
}

/* `deny` matches and what the ignore files name: both unreadable,
 * unwritable and immovable the same way. */
static int ns_deny(struct sbx *s)
{
	struct ns_paths d = { 0 };
	int rc = 0;
	if (ns_glob_walk(&s->p->deny, NULL, &d) < 0)
		rc = errno == E2BIG && d.err == 0
			     ? sbx_failx(
				       s, "mount",
				       "deny globs: too many entries to walk below their literal prefix; anchor them deeper")
			     : ns_walk_fail(s, &d, &d, "walk the deny globs");
	else if (ns_ignore_walk(s->p, &d) < 0)
		rc = errno == E2BIG && d.err == 0
			     ? sbx_failx(s, "mount",
					 "ignore files: too many entries in the workspace to walk; ignore the "
					 "big directories (node_modules/, say) by name")
			     : ns_walk_fail(s, &d, &d, "walk the workspace for the ignore files");
	for (size_t i = 0; rc == 0 && i < d.n; i++)
		rc = ns_hide(s, d.v[i]);
	ns_paths_free(&d);
	return rc;
}

/* Landlock does not mediate connect() to a pathname socket, and a network
 * namespace does not separate them: every socket in the system's and the
 * user's daemon directories is covered (the system bus, systemd's private
 * socket, containerd, gpg-agent), whatever its name. */
void ns_find_sockets(struct sbx *s)
{
	char dir[PATH_MAX];
	const char *homes[] = { ".gnupg", ".ssh", ".docker", ".local/share/containers" };
	ns_socket_walk("/run", 6, &s->socks);
	ns_socket_walk("/var/lib/docker", 0, &s->socks);
	for (size_t i = 0; s->p->home != NULL && i < sizeof homes / sizeof homes[0]; i++)
		if (snprintf(dir, sizeof dir, "%s/%s", s->p->home, homes[i]) < (int)sizeof dir)
			ns_socket_walk(dir, 2, &s->socks);
}

/* What ns_find_sockets() found; those under a directory hidden since
 * (/run/user) are gone from sight already, and skipped. */
static int ns_mask_sockets(struct sbx *s)
{
	int rc = 0;
	if (s->socks.err != 0)
		rc = ns_walk_fail(s, &s->socks, &s->socks, "find the host's unix sockets to hide");
	for (size_t i = 0; rc == 0 && i < s->socks.n; i++)
		rc = ns_hide(s, s->socks.v[i]);
	ns_paths_free(&s->socks);
	return rc;
}

/* Host sockets a readable directory would still expose: the session bus
 * and other per-user daemons, ssh-agent, docker. The agent's and the bus's
 * sockets are hidden themselves, not their directories, which may be one
 * the sandbox must read (~/.ssh). */
static int ns_masks(struct sbx *s)
{
	const char *fixed[] = { "/run/user", "/var/run/docker.sock", "/run/docker.sock", "/tmp/.X11-unix" };
	const char *vars[] = { "XDG_RUNTIME_DIR", "SSH_AUTH_SOCK", "DBUS_SESSION_BUS_ADDRESS" };
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (ns_hide(s, fixed[i]) < 0)
			return -1;
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		char path[PATH_MAX];
		if (ns_env_path(s->l->envp, vars[i], path, sizeof path) && ns_hide(s, path) < 0)
			return -1;
	}
	return ns_mask_sockets(s);
}

/* Only loopback inside the new network namespace, and up, so local
 * servers and the proxy listener work. */
int ns_loopback_up(struct sbx *s)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return sbx_fail(s, "network namespace", "socket");
	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "lo");
	int rc = 0;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		rc = sbx_fail(s, "network namespace", "read the flags of lo");
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	if (rc == 0 && ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		rc = sbx_fail(s, "network namespace", "bring lo up");
	close(fd);
	return rc;
}

/* Every mount read-only, recursively, unless a write root is "/"
 * (devbox). Landlock does not mediate chmod, chown, utimes or xattrs: on
 * a read-only mount they fail (EROFS), so root's uid cannot make a host
 * binary set-uid nor a user's sandbox chmod their ~/.ssh. The write roots
 * are bound back read-write afterwards (ns_write_roots). */
static int ns_root_readonly(struct sbx *s)
{
	struct mount_attr a = { .attr_set = MOUNT_ATTR_RDONLY };
	for (size_t i = 0; i < s->p->write.n; i++)
		if (strcmp(s->p->write.v[i].text, "/") == 0)
			return 0;
	if (mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, &a, sizeof a) < 0)
		return sbx_fail(s, "mount", "make every mount read-only");
	return 0;
}

/* The write roots, read-write again on top of the read-only tree. Those
 * under /tmp were bound back by tmp.c already. */
static int ns_write_roots(struct sbx *s)
{
	const struct rules *w = &s->p->write;
	for (size_t i = 0; i < w->n; i++) {
		const char *root = w->v[i].text;
		char src[64];
		if (path_under(root, "/tmp") || path_under(root, "/var/tmp") || access(root, F_OK) < 0)
			continue;
		/* capture: the host's own root, not the overlay's copy of it */
		if (ns_bind(s, capture_source(s, root, src, sizeof src), root, false) < 0)
			return -1;
	}
	return 0;
}

int ns_mount_all(struct sbx *s)
{
	/* Nothing done here may reach the host's mount table. */
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0)
		return sbx_fail(s, "mount", "make / a slave of the host");
	/* The shared cache's host directory, made while its parent (under
	 * ~/.sandmux) is still writable; ns_cache() binds it later. */
	char cache[PATH_MAX];
	if (s->p->shared_cache && s->p->tmpdir != NULL)
		cache_host_dir(s->p, cache, sizeof cache);
	/* capture: the overlays first, every later mount on top of them */
	if (capture_mount(s) < 0 || ns_root_readonly(s) < 0 || capture_rw(s) < 0) {
		capture_close_sources(s);
		return -1;
	}
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return sbx_fail(s, "mount", "a fresh /proc for the pid namespace");
	int rc = 0;
	if (ns_dev(s) < 0 || ns_tmp(s) < 0 || ns_write_roots(s) < 0 || shadow_mount(s) < 0 || ns_readonly(s) < 0 ||
	    shadow_state_rw(s) < 0 || ns_deny(s) < 0 || ns_masks(s) < 0)
		rc = -1;
	capture_close_sources(s);
	if (s->empty_file >= 0)
		close(s->empty_file);
	if (s->empty_dir >= 0)
		close(s->empty_dir);
	s->empty_file = s->empty_dir = -1;
	return rc;
}
