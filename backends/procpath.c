/* procpath: a path argument of a process that waits in a seccomp
 * notification, as that process names it and as the kernel will resolve
 * it: its memory through process_vm_readv, its cwd and fds through
 * /proc/PID, its root through openat2(RESOLVE_IN_ROOT). For the observer;
 * nothing here decides anything. */
#include "backends/procpath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/kcmp.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "policy/config.h"

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

/* The thread group of a thread id (pidfd_open of a thread needs
 * PIDFD_THREAD, Linux 6.9); 0 when unknown. */
static pid_t tgid_of(pid_t tid)
{
	char path[64], line[128];
	snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
	FILE *f = fopen(path, "re");
	pid_t tgid = 0;
	while (f != NULL && tgid == 0 && fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, "Tgid:", 5) == 0)
			tgid = (pid_t)atoi(line + 5);
	if (f != NULL)
		fclose(f);
	return tgid;
}

/* A pidfd of thread tid: 0 with *pidfd, or -1 with errno. */
static int pidfd_of(pid_t tid, int *pidfd)
{
	*pidfd = (int)syscall(SYS_pidfd_open, tid, PIDFD_THREAD);
	if (*pidfd < 0 && errno == EINVAL) {
		pid_t tgid = tgid_of(tid);
		*pidfd = tgid > 0 ? (int)syscall(SYS_pidfd_open, tgid, 0) : -1;
	}
	return *pidfd < 0 ? -1 : 0;
}

int procpath_take_fd(pid_t tid, int fd)
{
	int pidfd;
	if (pidfd_of(tid, &pidfd) < 0)
		return -1;
	int s = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	int e = errno;
	close(pidfd);
	errno = e;
	return s;
}

/* procpath_take_fd() through the memo's pidfd, kept for the next fd of
 * the same thread (an unpacker or rm -rf takes one per directory). A
 * pidfd names one process for life: once it is gone the kept one fails
 * (ESRCH) and a new one is opened, so a reused pid is never mistaken
 * for it. */
static int memo_take_fd(struct procpath_memo *m, pid_t tid, int fd)
{
	if (m->pidfd >= 0 && m->pidfd_tid == tid) {
		int s = (int)syscall(SYS_pidfd_getfd, m->pidfd, fd, 0);
		if (s >= 0 || errno != ESRCH)
			return s;
	}
	if (m->pidfd >= 0)
		close(m->pidfd);
	m->pidfd = -1;
	if (pidfd_of(tid, &m->pidfd) < 0)
		return -1;
	m->pidfd_tid = tid;
	return (int)syscall(SYS_pidfd_getfd, m->pidfd, fd, 0);
}

/* A string's first read: most paths are shorter, and every byte read is
 * copied by the kernel and written to the observer's buffer, where each
 * page of stack touched is one of the observer's own. The rest of the
 * page only when no NUL came. */
#define READ_FIRST 256

ssize_t procpath_read_mem(pid_t pid, uint64_t addr, void *buf, size_t size, bool stop_at_nul)
{
	size_t got = 0;
	while (got < size) {
		size_t page = 4096 - ((addr + got) & 4095);
		size_t want = size - got < page ? size - got : page;
		if (stop_at_nul && got == 0 && want > READ_FIRST)
			want = READ_FIRST;
		struct iovec local = { (char *)buf + got, want };
		struct iovec remote = { (void *)(uintptr_t)(addr + got), want };
		ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
		if (n <= 0)
			return got > 0 ? (ssize_t)got : -1;
		if (stop_at_nul && memchr((char *)buf + got, '\0', (size_t)n) != NULL)
			return (ssize_t)(got + (size_t)n);
		got += (size_t)n;
	}
	return (ssize_t)got;
}

ssize_t procpath_write_mem(pid_t pid, uint64_t addr, const void *buf, size_t size)
{
	struct iovec local = { (void *)buf, size };
	struct iovec remote = { (void *)(uintptr_t)addr, size };
	return process_vm_writev(pid, &local, 1, &remote, 1, 0);
}

/* readlink of /proc/PID/WHAT into buf; only absolute results count
 * ("pipe:[12]" or "/x (deleted)" do not name a path to decide on). */
static int proc_link(pid_t pid, const char *what, char *buf, size_t size)
{
	char link[64];
	snprintf(link, sizeof link, "/proc/%d/%s", (int)pid, what);
	ssize_t n = readlink(link, buf, size - 1);
	if (n <= 0 || buf[0] != '/')
		return -1;
	buf[n] = '\0';
	if (n > 10 && strcmp(buf + n - 10, " (deleted)") == 0)
		return -1;
	return 0;
}

/* The directory dirfd (AT_FDCWD: the cwd) of pid names. */
static int proc_dir(pid_t pid, int dirfd, char *out, size_t size)
{
	char what[32];
	if (dirfd == AT_FDCWD)
		snprintf(what, sizeof what, "cwd");
	else
		snprintf(what, sizeof what, "fd/%d", dirfd);
	return proc_link(pid, what, out, size);
}

/* self: the process the copies belong to, the observer's own (the memo
 * is made there, after the fork). */
void procpath_memo_init(struct procpath_memo *m)
{
	*m = (struct procpath_memo){ .pidfd = -1, .via = -1 };
	for (size_t i = 0; i < PROCPATH_MEMOS; i++)
		m->v[i] = (struct procpath_dirfd){ .ours = -1 };
	m->self = getpid();
}

static void slot_drop(struct procpath_dirfd *d)
{
	if (d->ours >= 0)
		close(d->ours);
	free(d->path);
	*d = (struct procpath_dirfd){ .ours = -1 };
}

void procpath_memo_drop(struct procpath_memo *m)
{
	for (size_t i = 0; i < PROCPATH_MEMOS; i++)
		if (m->v[i].ours >= 0)
			slot_drop(&m->v[i]);
	m->via = -1;
}

/* Closes the spent fds: sorted, each run of consecutive numbers (all of
 * them ours, none closed yet) in one close_range(). */
static void memo_close_spent(struct procpath_memo *m)
{
	int *v = m->spent, n = m->nspent;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			int t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	for (int i = 0; i < n;) {
		int j = i;
		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		if (syscall(SYS_close_range, (unsigned)v[i], (unsigned)v[j], 0) != 0)
			for (int k = i; k <= j; k++)
				close(v[k]);
		i = j + 1;
	}
	m->nspent = 0;
}

void procpath_memo_free(struct procpath_memo *m)
{
	procpath_memo_drop(m);
	memo_close_spent(m);
	if (m->pidfd >= 0)
		close(m->pidfd);
	m->pidfd = -1;
}

/* The slot remembering pid's dirfd, or -1. */
static int memo_find(const struct procpath_memo *m, pid_t pid, int dirfd)
{
	for (int i = 0; i < PROCPATH_MEMOS; i++)
		if (m->v[i].ours >= 0 && m->v[i].pid == pid && m->v[i].fd == dirfd)
			return i;
	return -1;
}

/* The same open file as the slot's (kcmp, Linux 3.5; ptrace rules
 * apply): a directory fd names the same directory while it is open. */
static bool memo_hit(const struct procpath_memo *m, int i, pid_t pid, int dirfd)
{
	return syscall(SYS_kcmp, m->self, pid, KCMP_FILE, m->v[i].ours, dirfd) == 0;
}

/* Remembers pid's dirfd in slot i (its own, a free one or the least
 * recently used), read from a copy of its open file: the path then
 * belongs to that file, whatever another thread does to the fd
 * meanwhile. 0, or -1 (then nothing is remembered there). Its buffer in
 * a frame of its own: the common call (a hit) goes on with a small
 * stack (the observer's pages of stack touched are its own). */
static __attribute__((noinline)) int memo_fill(struct procpath_memo *m, int i, pid_t pid, int dirfd)
{
	struct procpath_dirfd *d = &m->v[i];
	char path[PATH_MAX];
	slot_drop(d);
	int fd = memo_take_fd(m, pid, dirfd);
	if (fd < 0)
		return -1;
	size_t len;
	if (procpath_fd_path(fd, path, sizeof path) < 0 ||
	    ((len = strlen(path)) > 10 && strcmp(path + len - 10, " (deleted)") == 0) ||
	    (d->path = strdup(path)) == NULL) {
		close(fd);
		return -1;
	}
	d->ours = fd;
	d->len = len;
	d->pid = pid;
	d->fd = dirfd;
	return 0;
}

static int memo_slot(struct procpath_memo *m, pid_t pid, int dirfd)
{
	int i = memo_find(m, pid, dirfd);
	if (i >= 0 && memo_hit(m, i, pid, dirfd))
		return i;
	if (i < 0) {
		i = 0;
		for (int j = 1; j < PROCPATH_MEMOS && m->v[i].ours >= 0; j++)
			if (m->v[j].ours < 0 || m->v[j].used < m->v[i].used)
				i = j;
	}
	return memo_fill(m, i, pid, dirfd) == 0 ? i : -1;
}

bool procpath_plain_name(int dirfd, const char *name)
{
	struct stat st;
	if (name == NULL)
		return true;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return !S_ISLNK(st.st_mode);
	return errno == ENOENT;
}

bool procpath_plain_dir(struct procpath_memo *m, int fd, const char *dir, size_t n, bool in_root, const char *name)
{
	char buf[PATH_MAX];
	if (n == 0 || n >= sizeof buf)
		return false;
	memcpy(buf, dir, n);
	buf[n] = '\0';
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = (in_root ? RESOLVE_IN_ROOT : RESOLVE_BENEATH) | RESOLVE_NO_SYMLINKS,
	};
	int d = (int)syscall(SYS_openat2, fd, buf, &how, sizeof how);
	if (d < 0)
		return false;
	bool plain = procpath_plain_name(d, name);
	m->spent[m->nspent++] = d;
	if (m->nspent == PROCPATH_SPENT)
		memo_close_spent(m);
	return plain;
}

/* base + "/" + path into out, as snprintf would (0, or -1 too long),
 * without its format parsing: every notified call joins one. */
static int join(const char *base, size_t blen, const char *path, char *out, size_t size)
{
	size_t plen = strlen(path);
	if (blen + 1 + plen >= size)
		return -1;
	memcpy(out, base, blen);
	out[blen] = '/';
	memcpy(out + blen + 1, path, plen + 1);
	return 0;
}

/* A relative path against a dirfd: through the memo. */
static int absolute_memo(struct procpath_memo *m, pid_t pid, int dirfd, const char *path, char *out, size_t size)
{
	int i = memo_slot(m, pid, dirfd);
	if (i < 0)
		return procpath_join(pid, dirfd, path, out, size);
	m->v[i].used = ++m->tick;
	m->via = i;
	return join(m->v[i].path, m->v[i].len, path, out, size);
}

int procpath_absolute(struct procpath_memo *m, pid_t pid, uint64_t addr, int dirfd, char *out, size_t size)
{
	char path[PATH_MAX];
	ssize_t n = procpath_read_mem(pid, addr, path, sizeof path, true);
	if (n <= 0 || memchr(path, '\0', (size_t)n) == NULL)
		return -1;
	if (m != NULL)
		m->via = -1;
	if (m == NULL || path[0] == '/' || dirfd == AT_FDCWD)
		return procpath_join(pid, dirfd, path, out, size);
	return absolute_memo(m, pid, dirfd, path, out, size);
}

static __attribute__((noinline)) int join_dir(pid_t pid, int dirfd, const char *path, char *out, size_t size)
{
	char base[PATH_MAX];
	if (proc_dir(pid, dirfd, base, sizeof base) < 0)
		return -1;
	return join(base, strlen(base), path, out, size);
}

int procpath_join(pid_t pid, int dirfd, const char *path, char *out, size_t size)
{
	size_t n = strlen(path);
	if (path[0] == '/')
		return n < size ? (memcpy(out, path, n + 1), 0) : -1;
	return join_dir(pid, dirfd, path, out, size);
}

int procpath_fd_path(int fd, char *buf, size_t size)
{
	char link[64];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, buf, size - 1);
	if (n <= 0 || buf[0] != '/')
		return -1;
	buf[n] = '\0';
	return 0;
}

int procpath_open(int root, const char *abs, bool dir)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | (dir ? O_DIRECTORY : 0),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	return (int)syscall(SYS_openat2, root, abs, &how, sizeof how);
}

/* The canonical directory of abs plus its last name, as
 * procpath_canon() without following; fd: the directory, left open for
 * the caller (-1 when it cannot be resolved); NULL then. got: the
 * caller's scratch of size bytes. The joined path is allocated, not a
 * buffer of 2 * PATH_MAX: each page of stack the observer touches is a
 * page of its own, and so is each buffer's first page. */
static char *canon_name(int root, const char *abs, int *fd, char *name_buf, size_t name_size, char *got, size_t size)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", abs);
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		dir[--n] = '\0';
	char *slash = strrchr(dir, '/');
	const char *name = slash ? slash + 1 : dir;
	if (slash == dir)
		name = dir[1] ? dir + 1 : ".";
	snprintf(name_buf, name_size, "%s", name);
	dir[slash && slash != dir ? (size_t)(slash - dir) : 1] = '\0'; /* the parent, in place: name is in name_buf */
	*fd = procpath_open(root, dir, true);
	if (*fd < 0)
		return NULL;
	size_t len = 0;
	char *out = NULL;
	if (procpath_fd_path(*fd, got, size) == 0 && (out = malloc(len = strlen(got) + strlen(name_buf) + 2)) != NULL)
		snprintf(out, len, "%s/%s", got, name_buf);
	char *r = out != NULL ? path_normalize(out) : NULL;
	free(out);
	if (r == NULL) {
		close(*fd);
		*fd = -1;
	}
	return r;
}

/* A symlink's target made absolute against from, the symlink's
 * canonical path in the root: 0, or -1 when it cannot be read, or
 * cannot be joined (then out holds the target as it is: a relative
 * path, which the observer refuses as leading it cannot tell where). */
static __attribute__((noinline)) int link_target(int dirfd, const char *name, const char *from, char *out, size_t size)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(dirfd, name, target, sizeof target - 1);
	if (n <= 0)
		return -1;
	target[n] = '\0';
	if (target[0] == '/')
		return snprintf(out, size, "%s", target) < (int)size ? 0 : -1;
	const char *sl = strrchr(from, '/');
	int dirlen = sl != NULL && sl != from ? (int)(sl - from) : 0;
	if (snprintf(out, size, "%.*s/%s", dirlen, from, target) < (int)size)
		return 0;
	snprintf(out, size, "%s", target);
	return -1;
}

/* canon (a canonical path, as printed from the process's root) as a
 * path in root, which is that root or a directory below it (openat2
 * with RESOLVE_IN_ROOT names one): NULL when it is not below root. */
static const char *below_root(int root, const char *canon, char *buf, size_t size)
{
	if (procpath_fd_path(root, buf, size) != 0)
		return NULL;
	size_t n = strlen(buf);
	if (strcmp(buf, "/") == 0)
		return canon;
	return strncmp(canon, buf, n) == 0 && canon[n] == '/' ? canon + n : NULL;
}

/* The directory of abs could not be resolved: where does the kernel's
 * walk go that the observer's cannot? The first component that does not
 * open, when it is a symlink (`ln -s /proc/self/fd/5 pc`, which leads
 * through a magic link of /proc the observer does not follow, or cannot
 * from outside the sandbox's pid namespace): its target with the rest of
 * abs after it, into out, again from there (at most 40 hops), until a
 * component that does not open is not a symlink the observer can read
 * (/proc/self is one it cannot). False when the first such component is
 * no symlink at all: the directory is missing, and the kernel fails too. */
static __attribute__((noinline)) bool broken_at_link(int root, const char *abs, char *out, size_t size)
{
	char cur[PATH_MAX], next[PATH_MAX];
	bool moved = false;
	snprintf(cur, sizeof cur, "%s", abs);
	for (int hops = 0; hops < 40 && cur[0] == '/'; hops++) {
		/* the first prefix of cur, ending before a '/', that does not open */
		size_t at = 0;
		for (const char *sl = cur; (sl = strchr(sl + 1, '/')) != NULL;) {
			at = (size_t)(sl - cur);
			char pre[PATH_MAX];
			snprintf(pre, sizeof pre, "%.*s", (int)at, cur);
			int fd = procpath_open(root, pre, false);
			if (fd < 0)
				break;
			close(fd);
			at = 0;
		}
		if (at == 0)
			break; /* every directory opens */
		char parent[PATH_MAX], from[PATH_MAX];
		size_t cut = at;
		while (cut > 0 && cur[cut - 1] != '/')
			cut--;
		snprintf(parent, sizeof parent, "%.*s", cut > 1 ? (int)(cut - 1) : 1, cur);
		snprintf(from, sizeof from, "%.*s", (int)at, cur);
		const char *name = cur + cut;
		char nm[NAME_MAX + 1];
		snprintf(nm, sizeof nm, "%.*s", (int)(at - cut), name);
		int fd = procpath_open(root, parent, true);
		struct stat st;
		bool link = fd >= 0 && fstatat(fd, nm, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
		int r = link ? link_target(fd, nm, from, next, sizeof next) : -1;
		if (fd >= 0)
			close(fd);
		if (!link)
			break;
		moved = true;
		if (r < 0)
			break; /* a link it cannot read or join: cur is where the walk stops */
		char joined[2 * PATH_MAX + 1];
		snprintf(joined, sizeof joined, "%s%s", next, cur + at);
		if (strlen(joined) >= sizeof cur)
			break;
		memcpy(cur, joined, strlen(joined) + 1);
	}
	if (moved)
		snprintf(out, size, "%s", cur);
	return moved;
}

char *procpath_canon(int root, const char *abs, bool follow, bool *exists, char *last, size_t last_size,
		     struct stat *dir)
{
	char got[PATH_MAX], name[PATH_MAX], cur[PATH_MAX];
	int fd = -1;
	*exists = false;
	if (dir != NULL)
		dir->st_ino = 0;
	snprintf(cur, sizeof cur, "%s", abs);
	/* An open with O_CREAT follows a final symlink that leads nowhere
	 * and creates its target: what is decided is that target
	 * (ln -s x.code-workspace y; echo > y), hop by hop as the kernel
	 * goes, at most its 40. */
	for (int hops = 0;; hops++) {
		snprintf(last, last_size, "%s", cur);
		if (follow && (fd = procpath_open(root, cur, false)) >= 0) {
			char *r = NULL;
			*exists = true;
			if (procpath_fd_path(fd, got, sizeof got) == 0)
				r = path_normalize(got);
			close(fd);
			return r;
		}
		char *r = canon_name(root, cur, &fd, name, sizeof name, got, sizeof got);
		if (r == NULL) {
			broken_at_link(root, cur, last, last_size);
			return NULL;
		}
		struct stat st;
		*exists = fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
		if (!follow || !*exists || !S_ISLNK(st.st_mode)) {
			if (dir != NULL && fstat(fd, dir) != 0)
				dir->st_ino = 0;
			close(fd);
			return r;
		}
		/* a symlink the follow-open could not open: dangling, or one
		 * it refuses (a magic link, too many hops) */
		*exists = false;
		const char *from = below_root(root, r, got, sizeof got);
		int bad = hops >= 40 || from == NULL || link_target(fd, name, from, cur, sizeof cur) < 0;
		close(fd);
		free(r);
		if (bad) {
			snprintf(last, last_size, "%s", cur);
			return NULL;
		}
	}
}
