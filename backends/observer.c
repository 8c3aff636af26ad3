/* observer: the filter (child side) and the answering loop (host side).
 * See observer.h for why answering "continue" never widens anything. */
#include "backends/observer.h"
#include "backends/observer-core.h"
#include "backends/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <linux/magic.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/un.h>
#include <unistd.h>

#include "backends/events.h"
#include "backends/hintfd.h"
#include "backends/launch.h"
#include "backends/procpath.h"
#include "backends/unixsock.h"
#include "policy/config.h"
#include "policy/glob.h"
#include "policy/ignore.h"
#include "policy/policy.h"
#include "policy/suggest.h"

/* How many captured writes a run tells as they are made. */
#define OBSERVER_CAPTURED_TOLD 64

/* What a notified syscall does, and where its path arguments are. */
enum kind {
	K_OPEN,    /* flags decide read / write / create */
	K_OPENAT2, /* the flags are in a struct open_how */
	K_CREATE,
	K_REMOVE,
	K_RENAME, /* two paths: both checked */
	K_LINK,   /* the second path is created; link's first is another name for a file: read */
	K_WRITE,  /* truncate: the file's content */
	K_META,   /* chmod, chown: notified in the weaker sandbox only (see add_rules) */
	K_EXEC,
	K_BIND,    /* a pathname AF_UNIX address makes a socket file: a create */
	K_CONNECT, /* backends/unixsock.c takes it over on AF_UNIX sockets */
	K_SENDTO,  /* likewise, when it names a destination */
	K_SENDMSG, /* likewise on AF_UNIX datagram sockets */
	K_SENDMMSG,
	K_LISTEN, /* the weaker sandbox refuses it on AF_INET/AF_INET6 (inetsock.h) */
};

struct sysdesc {
	const char *name;
	enum kind kind;
	signed char dirfd, path;   /* argument indexes; dirfd -1: AT_FDCWD */
	signed char dirfd2, path2; /* the second path, path2 -1: none */
	signed char flags;         /* argument index of open flags, open_how or AT_* flags */
};

static const struct sysdesc syscalls[] = {
	{ "open", K_OPEN, -1, 0, -1, -1, 1 },           { "openat", K_OPEN, 0, 1, -1, -1, 2 },
	{ "creat", K_CREATE, -1, 0, -1, -1, -1 },       { "openat2", K_OPENAT2, 0, 1, -1, -1, 2 },
	{ "mkdir", K_CREATE, -1, 0, -1, -1, -1 },       { "mkdirat", K_CREATE, 0, 1, -1, -1, -1 },
	{ "mknod", K_CREATE, -1, 0, -1, -1, -1 },       { "mknodat", K_CREATE, 0, 1, -1, -1, -1 },
	{ "unlink", K_REMOVE, -1, 0, -1, -1, -1 },      { "unlinkat", K_REMOVE, 0, 1, -1, -1, -1 },
	{ "rmdir", K_REMOVE, -1, 0, -1, -1, -1 },       { "rename", K_RENAME, -1, 0, -1, 1, -1 },
	{ "renameat", K_RENAME, 0, 1, 2, 3, -1 },       { "renameat2", K_RENAME, 0, 1, 2, 3, -1 },
	{ "link", K_LINK, -1, 0, -1, 1, -1 },           { "linkat", K_LINK, 0, 1, 2, 3, 4 },
	{ "symlink", K_LINK, -1, -1, -1, 1, -1 },       { "symlinkat", K_LINK, -1, -1, 1, 2, -1 },
	{ "truncate", K_WRITE, -1, 0, -1, -1, -1 },     { "chmod", K_META, -1, 0, -1, -1, -1 },
	{ "fchmodat", K_META, 0, 1, -1, -1, -1 },       { "fchmodat2", K_META, 0, 1, -1, -1, 3 },
	{ "chown", K_META, -1, 0, -1, -1, -1 },         { "lchown", K_META, -1, 0, -1, -1, -1 },
	{ "fchownat", K_META, 0, 1, -1, -1, 4 },        { "execve", K_EXEC, -1, 0, -1, -1, -1 },
	{ "execveat", K_EXEC, 0, 1, -1, -1, 4 },        { "connect", K_CONNECT, -1, -1, -1, -1, -1 },
	{ "sendto", K_SENDTO, -1, -1, -1, -1, -1 },     { "sendmsg", K_SENDMSG, -1, -1, -1, -1, -1 },
	{ "sendmmsg", K_SENDMMSG, -1, -1, -1, -1, -1 }, { "listen", K_LISTEN, -1, -1, -1, -1, -1 },
	{ "bind", K_BIND, -1, -1, -1, -1, -1 },
};
#define NSYSCALLS (sizeof syscalls / sizeof syscalls[0])

#define WRITE_INTENT (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)

/* Reads need the observer only where the profile can refuse them: also
 * with ignore files that ignore something (files they match may be made
 * after launch, where no bind-over covers them). */
static bool reads_restricted(const struct policy *p)
{
	return !p->read_all || p->deny.n > 0 || ignore_active(&p->ignore);
}

/* open/openat: notified only with a write-intent flag, unless reads are
 * restricted; libseccomp ORs the rules of one syscall. */
static int add_open_rules(scmp_filter_ctx ctx, const struct sysdesc *s, bool all)
{
	int nr = seccomp_syscall_resolve_name(s->name);
	if (nr == __NR_SCMP_ERROR)
		return 0; /* not on this architecture */
	if (all)
		return seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, nr, 0);
	static const int flags[] = { O_CREAT, O_WRONLY, O_RDWR, O_TRUNC };
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
		struct scmp_arg_cmp cmp = { (unsigned)s->flags, SCMP_CMP_MASKED_EQ, (scmp_datum_t)flags[i],
					    (scmp_datum_t)flags[i] };
		int rc = seccomp_rule_add_array(ctx, SCMP_ACT_NOTIFY, nr, 1, &cmp);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Capture mode: a removal outside the write roots lands in the layer (a
 * whiteout), on a read-only mount or in a write root: nothing to decide
 * or report. With Landlock's audit records (backends/audit.h) removals
 * are reported from the records instead. A write to an existing file
 * stays notified in both: a protected file the host makes after launch
 * (`git init` beside a running agent makes .git/config) has no
 * bind-over, and inside the workspace Landlock lets it be written; only
 * the observer refuses it (outside the write roots such a write is
 * captured, or with the records left to Landlock and its record). What
 * makes a new name stays notified too (it may match a `deny` glob or a
 * protected path created after launch), and exec and sockets. */
static bool writes_quiet(const struct policy *p, bool quiet, const struct sysdesc *s)
{
	return (p->capture || quiet) && s->kind == K_REMOVE;
}

/* chmod and chown are not Landlock's (it does not mediate them): in the
 * full sandbox every mount outside the write roots is read-only (EROFS,
 * ns.c), so a notification there would only report, one more round trip
 * per file a tar or an npm install makes executable. The weaker sandbox
 * has no such mounts: there the observer's answer is what refuses them. */
static bool meta_quiet(const struct sysdesc *s, bool weak)
{
	return s->kind == K_META && !weak;
}

static int add_rules(scmp_filter_ctx ctx, const struct policy *p, bool weak, bool quiet)
{
	for (size_t i = 0; i < NSYSCALLS; i++) {
		const struct sysdesc *s = &syscalls[i];
		int rc;
		if (writes_quiet(p, quiet, s) || meta_quiet(s, weak))
			continue;
		if (s->kind == K_OPEN)
			rc = add_open_rules(ctx, s, reads_restricted(p));
		else if (s->kind == K_SENDTO) /* a send on a connected socket stays unobserved */
			rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(sendto), 1, SCMP_A4(SCMP_CMP_NE, 0));
		else {
			int nr = seccomp_syscall_resolve_name(s->name);
			rc = nr == __NR_SCMP_ERROR ? 0 : seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, nr, 0);
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

int observer_install(const struct policy *p, bool weak)
{
	return observer_install_quiet(p, weak, false);
}

int observer_compile(const struct policy *p, bool weak, bool quiet_writes, struct seccomp_prog *out)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (ctx == NULL) {
		errno = ENOMEM;
		return -1;
	}
	int rc = add_rules(ctx, p, weak, quiet_writes);
	if (rc == 0)
		rc = seccomp_export(ctx, out);
	seccomp_release(ctx);
	if (rc < 0) {
		errno = -rc;
		return -1;
	}
	return 0;
}

int observer_install_quiet(const struct policy *p, bool weak, bool quiet_writes)
{
	struct seccomp_prog prog = { 0 };
	if (observer_compile(p, weak, quiet_writes, &prog) < 0)
		return -1;
	/* as libseccomp's own load did */
	int fd = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0
			 ? -1
			 : seccomp_load_prog(&prog, SECCOMP_FILTER_FLAG_NEW_LISTENER);
	int e = errno;
	seccomp_prog_free(&prog);
	errno = e;
	return fd;
}

/* The last segment (other than `**`) of each glob of a list, worked out
 * once: ".vscode" for ".vscode/ **", "*.json" for ".cursor/ *.json"
 * (without the spaces), "*.env" or "secrets" for an ignore file's "*.env"
 * or "secrets/". Each once, however many globs end in it. */
struct segs {
	size_t n;
	struct seg {
		char *text;
		enum { SEG_PLAIN, SEG_SUFFIX, SEG_GLOB } kind; /* SEG_SUFFIX: "*" and a plain tail */
		size_t len;                                    /* of the plain name or tail */
	} * v;
};

#define LASTDIRS 4

struct observer_core {
	const struct policy *policy;
	int fd;
	observer_cb cb;
	void *arg;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	int nr[NSYSCALLS]; /* native syscall numbers of syscalls[] */
	/* The sandbox's root, opened through the first notifying process:
	 * every process in it shares that root (chroot and pivot_root need
	 * capabilities and mount calls the sandbox does not have), and a
	 * wrong root could only make the observer decide wrongly, never
	 * allow more than Landlock. */
	int root;
	struct unixsock unix;
	bool weak;    /* observer_core_weak() */
	bool audited; /* observer_core_audited() */
	struct observer_stats stats;
	struct hintfd_rate hints;          /* denialHints (backends/hintfd.h) */
	struct segs protect, deny, ignore; /* the policy's lists' last segments (path_may_match) */
	struct procpath_memo dirs;         /* the last dirfds calls named a path through */
	/* observer_recall(): the last directories creations were resolved
	 * in (an unpacker goes back to a parent after each subdirectory) */
	struct lastdir {
		char *raw;   /* a creation's directory as written (absolute); NULL: none */
		char *canon; /* and as procpath_canon() resolved it */
		dev_t dev;   /* the directory raw led to then */
		ino_t ino;
		unsigned used; /* when it was last used (tick): the least recent goes */
	} last[LASTDIRS];
	unsigned tick;
	/* observer_overlaid(): the last directory looked at, and whether it
	 * lies on an overlay (mounts cannot change inside: no mount calls) */
	char *overlaid_dir;
	bool overlaid;
	unsigned captured_told; /* observer_tell_captured() */
};

static const struct sysdesc *observer_lookup(const struct observer_core *o, const struct seccomp_data *d)
{
	if (d->arch == seccomp_arch_native()) {
		for (size_t i = 0; i < NSYSCALLS; i++)
			if (o->nr[i] == d->nr)
				return &syscalls[i];
		return NULL;
	}
	/* A compat ABI (i386 on x86_64): look the number up by name. */
	char *name = seccomp_syscall_resolve_num_arch(d->arch, d->nr);
	const struct sysdesc *s = NULL;
	for (size_t i = 0; name != NULL && i < NSYSCALLS; i++)
		if (strcmp(syscalls[i].name, name) == 0)
			s = &syscalls[i];
	free(name);
	return s;
}

/* The operation an open asks for; -1 when it needs no check. */
static int open_op(const struct observer_core *o, const struct seccomp_notif *req, const struct sysdesc *s,
		   uint64_t *flags)
{
	*flags = req->data.args[(int)s->flags];
	if (s->kind == K_OPENAT2 &&
	    (req->data.args[3] < sizeof(uint64_t) ||
	     procpath_read_mem((pid_t)req->pid, req->data.args[2], flags, sizeof *flags, false) != sizeof *flags))
		return -1; /* the kernel refuses a short open_how itself */
	if (*flags & WRITE_INTENT)
		return (*flags & O_CREAT) ? OP_CREATE : OP_WRITE;
	return reads_restricted(o->policy) ? OP_READ : -1;
}

/* Whether the call acts on what a final symlink names. */
static bool follows(const struct sysdesc *s, uint64_t flags)
{
	switch (s->kind) {
	case K_OPEN:
	case K_OPENAT2:
		return !(flags & O_NOFOLLOW) && (flags & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL);
	case K_WRITE:
	case K_META:
	case K_EXEC:
		return !(flags & AT_SYMLINK_NOFOLLOW) && strcmp(s->name, "lchown") != 0;
	case K_LINK:
		return (flags & AT_SYMLINK_FOLLOW) != 0; /* linkat("/proc/self/fd/N", ..) */
	case K_CREATE:
		return strcmp(s->name, "creat") == 0; /* open's O_CREAT | O_TRUNC, no O_EXCL */
	default:
		return false;
	}
}

/* A call that fails by itself is no denial to report: anything but a
 * create on a name that does not exist (ENOENT: a $PATH search, say),
 * and mkdir/mknod on one that does (EEXIST: mkdir -p walking through
 * directories it may not write). */
static bool worth_checking(const struct sysdesc *s, enum fs_op op, bool exists)
{
	if (!exists)
		return op == OP_CREATE;
	return (s->kind != K_CREATE && s->kind != K_BIND) || strcmp(s->name, "creat") == 0;
}

static char *drop(char *path)
{
	free(path);
	return NULL;
}

/* The checks one notification asks for: up to two paths, first as
 * written (made absolute, lexically normalised), then, for a path the
 * policy denies, as the kernel will resolve it. */
struct check {
	char *raw[2];  /* absolute, not resolved */
	char *path[2]; /* what is decided on */
	enum fs_op op[2];
	bool follow;        /* the first path's final symlink is followed */
	bool unresolved[2]; /* procpath_canon() could not resolve it */
	bool carry[2];      /* a name a rename moves or a link makes: what is below it moves too */
	bool alias[2];      /* the file a hard link names anew: writing the link writes it */
	bool alias_guarded; /* observer_decide(): refused as a write through such a link */
	dev_t dir_dev;      /* the first path's directory, as refine_checks() found it; */
	ino_t dir_ino;      /* 0: not found */
	int via;            /* the memo's slot the first path was joined to (procpath.h); -1: none */
	/* openat2 with RESOLVE_IN_ROOT: the kernel resolves the path with
	 * the dirfd as "/" (absolute paths and symlinks, ".." stop there):
	 * the path in that root, and a copy of the dirfd; NULL, -1: none */
	char *in_root;
	int root;
	int captured; /* observer_decide(): the path that lands in the capture layer, or -1 */
};

/* Whether an openat2 resolves in its dirfd (RESOLVE_IN_ROOT). */
static bool openat2_in_root(const struct seccomp_notif *req)
{
	uint64_t resolve = 0;
	return req->data.args[3] >= 3 * sizeof(uint64_t) &&
	       procpath_read_mem((pid_t)req->pid, req->data.args[2] + 2 * sizeof(uint64_t), &resolve, sizeof resolve,
				 false) == sizeof resolve &&
	       (resolve & RESOLVE_IN_ROOT) != 0;
}

/* RESOLVE_IN_ROOT: the path, made absolute in the dirfd (the cwd for
 * AT_FDCWD) as root, into c->in_root, and a copy of that root into
 * c->root; abs: where that is as the process sees it. -1 when it
 * cannot be told (the caller refuses: observer_unresolvable). Not
 * inlined, as plan_bind(): their buffers would deepen every call's frame
 * (each page of stack an observer touches is one of its own). */
static __attribute__((noinline)) int plan_in_root(const struct seccomp_notif *req, int dirfd, struct check *c,
						  char *abs, size_t size)
{
	char path[PATH_MAX], link[64];
	pid_t pid = (pid_t)req->pid;
	if (procpath_read_mem(pid, req->data.args[1], path, sizeof path, true) <= 0 ||
	    memchr(path, '\0', sizeof path) == NULL || (c->in_root = malloc(strlen(path) + 2)) == NULL)
		return -1;
	snprintf(c->in_root, strlen(path) + 2, "/%s", path);
	char *n = path_normalize(c->in_root); /* ".." stops at the root */
	free(c->in_root);
	c->in_root = n;
	snprintf(link, sizeof link, "/proc/%d/cwd", (int)pid);
	c->root = dirfd == AT_FDCWD ? open(link, O_PATH | O_DIRECTORY | O_CLOEXEC) : procpath_take_fd(pid, dirfd);
	if (c->root < 0)
		return -1;
	return procpath_join(pid, dirfd, strcmp(n, "/") == 0 ? "." : n + 1, abs, size);
}

/* bind(): the socket file a pathname AF_UNIX address makes, as long as
 * the address says (sun_path need not end in a NUL), made absolute
 * against the cwd; -1 for any other address (nothing made by name). */
static __attribute__((noinline)) int plan_bind(const struct seccomp_notif *req, char *abs, size_t size)
{
	struct sockaddr_un a;
	size_t len = req->data.args[2] < sizeof a ? (size_t)req->data.args[2] : sizeof a;
	size_t off = offsetof(struct sockaddr_un, sun_path);
	char path[sizeof a.sun_path + 1];
	memset(&a, 0, sizeof a);
	if (len <= off || procpath_read_mem((pid_t)req->pid, req->data.args[1], &a, len, false) != (ssize_t)len ||
	    a.sun_family != AF_UNIX || a.sun_path[0] == '\0')
		return -1;
	memcpy(path, a.sun_path, len - off);
	path[len - off] = '\0';
	return procpath_join((pid_t)req->pid, AT_FDCWD, path, abs, size);
}

static void plan_checks(struct observer_core *o, const struct seccomp_notif *req, const struct sysdesc *s,
			struct check *c)
{
	static const enum fs_op kind_op[] = {
		[K_CREATE] = OP_CREATE, [K_REMOVE] = OP_REMOVE, [K_RENAME] = OP_RENAME, [K_LINK] = OP_CREATE,
		[K_WRITE] = OP_WRITE,   [K_META] = OP_WRITE,    [K_EXEC] = OP_EXEC,     [K_BIND] = OP_CREATE,
	};
	uint64_t flags = s->flags >= 0 ? req->data.args[(int)s->flags] : 0;
	int op = s->kind == K_OPEN || s->kind == K_OPENAT2 ? open_op(o, req, s, &flags) : (int)kind_op[s->kind];
	const signed char dirfd[2] = { s->dirfd, s->dirfd2 }, path[2] = { s->path, s->path2 };
	char abs[2 * PATH_MAX];
	if (op < 0)
		return;
	c->follow = follows(s, flags);
	if (s->kind == K_OPENAT2 && openat2_in_root(req)) {
		c->op[0] = (enum fs_op)op;
		if (plan_in_root(req, (int)req->data.args[0], c, abs, sizeof abs) == 0)
			c->raw[0] = strdup(abs);
		else if (c->in_root != NULL) /* refused as unresolved */
			c->raw[0] = strdup(c->in_root);
		c->path[0] = c->raw[0] != NULL && c->root >= 0 ? path_normalize(c->raw[0]) : NULL;
		return;
	}
	if (s->kind == K_BIND) {
		if (plan_bind(req, abs, sizeof abs) == 0 && (c->raw[0] = strdup(abs)) != NULL) {
			c->path[0] = path_normalize(abs);
			c->op[0] = OP_CREATE;
		}
		return;
	}
	for (int i = 0; i < 2; i++) {
		errno = 0;
		if (path[i] < 0 ||
		    procpath_absolute(&o->dirs, (pid_t)req->pid, req->data.args[path[i]],
				      dirfd[i] < 0 ? AT_FDCWD : (int)req->data.args[dirfd[i]], abs, sizeof abs) < 0) {
			/* EPERM: this host may not read the process's memory
			 * (Yama ptrace_scope 2 or 3); the call goes on unobserved. */
			o->stats.unreadable += path[i] >= 0 && errno == EPERM;
			continue;
		}
		if (i == 0)
			c->via = o->dirs.via;
		c->raw[i] = strdup(abs);
		c->path[i] = c->raw[i] ? path_normalize(abs) : NULL;
		/* a hard link names the file anew, readable and writable under
		 * that name: it may be made only of a file the sandbox may read
		 * and may write by name (observer_decide) */
		c->op[i] = s->kind == K_LINK && i == 0 ? OP_READ : (enum fs_op)op;
		c->alias[i] = s->kind == K_LINK && i == 0;
		c->carry[i] = s->kind == K_RENAME || (s->kind == K_LINK && i == 1);
	}
}

/* The paths as the kernel will resolve them, and only those calls that
 * would otherwise have run. */
static void refine_checks(const struct observer_core *o, const struct sysdesc *s, struct check *c)
{
	bool exists;
	char last[PATH_MAX];
	for (int i = 0; i < 2; i++) {
		if (c->raw[i] == NULL)
			continue;
		free(c->path[i]);
		/* what observer_remember() may keep: a creation's directory */
		struct stat dir = { .st_ino = 0 };
		bool want = i == 0 && c->in_root == NULL && !c->follow && c->op[0] == OP_CREATE;
		if (c->in_root == NULL || i > 0)
			c->path[i] = procpath_canon(o->root, c->raw[i], i == 0 && c->follow, &exists, last, sizeof last,
						    want ? &dir : NULL);
		else if (c->root >= 0)
			c->path[i] = procpath_canon(c->root, c->in_root, c->follow, &exists, last, sizeof last, NULL);
		else
			c->path[i] = NULL;
		if (i == 0) {
			c->dir_dev = dir.st_dev;
			c->dir_ino = c->path[0] != NULL ? dir.st_ino : 0;
		}
		c->unresolved[i] = c->path[i] == NULL;
		char *led = c->unresolved[i] && strcmp(last, c->raw[i]) != 0 ? strdup(last) : NULL;
		if (led != NULL) { /* where a symlink led: what observer_unresolvable() judges */
			free(c->raw[i]);
			c->raw[i] = led;
		}
		if (i == 0 && c->op[0] == OP_CREATE && exists)
			c->op[0] = OP_WRITE; /* O_CREAT, creat on an existing file */
		if (i == 0 ? !worth_checking(s, c->op[0], exists) : exists && s->kind == K_LINK)
			c->path[i] = drop(c->path[i]); /* ENOENT or EEXIST by itself */
	}
}

/* N when path names the caller's own fd N: "/proc/self/fd/N",
 * "/proc/thread-self/fd/N", "/dev/fd/N", /dev/stdin, stdout, stderr;
 * or -1. */
static int own_fd_link(const char *path)
{
	static const char *const dirs[] = { "/proc/self/fd/", "/proc/thread-self/fd/", "/dev/fd/" };
	static const char *const std[] = { "/dev/stdin", "/dev/stdout", "/dev/stderr" };
	const char *s = NULL;
	for (int i = 0; i < 3; i++) {
		if (strcmp(path, std[i]) == 0)
			return i;
		if (strncmp(path, dirs[i], strlen(dirs[i])) == 0)
			s = path + strlen(dirs[i]);
	}
	char *end = NULL;
	long n = s != NULL && *s >= '0' && *s <= '9' ? strtol(s, &end, 10) : -1;
	return n >= 0 && n <= INT_MAX && *end == '\0' ? (int)n : -1;
}

/* A followed path that names, or led through symlinks to, a magic link
 * to one of the caller's own fds, which procpath_canon() cannot resolve
 * ("self" is the observer there: unresolved in the sandbox's /proc, the
 * observer's own fd in the host's, the weaker sandbox's): a reopen for
 * writing of a file opened by name for reading ("exec 3<.git/config;
 * echo >>/dev/fd/3") writes what its name may not. The file at that fd,
 * taken from the caller, is what is decided on; one with no path (a
 * pipe, a socket) names nothing: unresolved, as before. Not inlined:
 * its buffer would deepen every call's frame (see plan_in_root). */
static __attribute__((noinline)) void observer_own_fd(const struct seccomp_notif *req, struct check *c, int n)
{
	char path[PATH_MAX];
	int fd = procpath_take_fd((pid_t)req->pid, n);
	if (fd < 0)
		return;
	free(c->path[0]);
	c->path[0] = procpath_fd_path(fd, path, sizeof path) == 0 ? path_normalize(path) : NULL;
	c->unresolved[0] = c->path[0] == NULL;
	if (c->path[0] != NULL && c->op[0] == OP_CREATE)
		c->op[0] = OP_WRITE; /* it exists */
	close(fd);
}

/* The process's name, read while it still waits for the answer: once
 * answered, a denied process often exits before /proc could be read. */
static void observer_comm(const struct seccomp_notif *req, char comm[static 17])
{
	char link[64];
	comm[0] = '\0';
	snprintf(link, sizeof link, "/proc/%d/comm", (int)req->pid);
	/* read(), not stdio: a FILE and its 4 KiB buffer would be pages of
	 * the observer's heap of its own */
	int fd = open(link, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, comm, 16);
	close(fd);
	comm[n > 0 ? n : 0] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
}

/* Names the process and hands the denial on. */
static void observer_emit(struct observer_core *o, const struct seccomp_notif *req, const char *comm, struct denial *d)
{
	snprintf(d->comm, sizeof d->comm, "%s", comm);
	d->pid = (pid_t)req->pid;
	hintfd_denial(o->policy, d, &o->hints); /* while the process still waits in the call */
	d->pgid = getpgid(d->pid);              /* while it waits: its job, which may outlive it */
	if (d->pgid < 0)
		d->pgid = 0;
	if (o->cb != NULL)
		o->cb(d, o->arg);
}

/* The policy speaks of host paths; the weaker sandbox's are the host's. */
static const char *host_path(const struct observer_core *o, const char *path, char *buf, size_t size)
{
	return o->weak ? path : launch_host_path(o->policy, path, buf, size);
}

/* What refuses a path the observer cannot resolve (observer_unresolvable). */
static const struct decision unresolvable = {
	.allow = false,
	.rule = "observer: a path it cannot resolve (through /proc/PID/cwd, root or fd), refused",
	.origin = { .layer = LAYER_HARDCODED },
};

/* What a denied create would have made, and with which mode, so that an
 * approval can make exactly that (policy/suggest.h). */
static char observer_made(const struct observer_core *o, const struct seccomp_notif *req, unsigned *mode)
{
	const struct sysdesc *s = observer_lookup(o, &req->data);
	*mode = 0;
	if (s == NULL)
		return 0;
	bool at = strstr(s->name, "at") != NULL && strcmp(s->name, "creat") != 0;
	if (s->kind == K_OPEN || strcmp(s->name, "creat") == 0) {
		*mode = (unsigned)req->data.args[strcmp(s->name, "creat") == 0 ? 1 : at ? 3 : 2] & 07777;
		return 'f';
	}
	if (s->kind == K_OPENAT2)
		return 'f';
	if (strncmp(s->name, "mkdir", 5) == 0) {
		*mode = (unsigned)req->data.args[at ? 2 : 1] & 07777;
		return 'd';
	}
	return 'l'; /* mknod, link, symlink: the directory's rights */
}

static void observer_report(struct observer_core *o, const struct seccomp_notif *req, const char *comm,
			    const char *path, enum fs_op op, const struct decision *dec)
{
	struct denial d = { 0 };
	if (denial_set(&d, fs_op_name(op), "observer", path, dec->rule) == 0) {
		d.rule_file = dec->origin.file ? strdup(dec->origin.file) : NULL;
		d.rule_line = dec->origin.line;
		char buf[PATH_MAX];
		unsigned mode = 0;
		char kind = op == OP_CREATE ? observer_made(o, req, &mode) : 0;
		if (dec->rule != unresolvable.rule) /* no policy entry helps there */
			suggest_path_kind(o->policy, host_path(o, path, buf, sizeof buf), op, kind, &d.suggest);
		d.suggest.mode = mode;
		observer_emit(o, req, comm, &d);
	}
	denial_clear(&d);
}

/* The component after the next '/' of s, or NULL at the end. */
static const char *next_segment(const char *s)
{
	const char *sl = strchr(s, '/');
	return sl != NULL && sl[1] != '\0' ? sl + 1 : NULL;
}

/* "/proc/PID/cwd/x", "/proc/self/root/x", "/proc/PID/task/TID/fd/N/x",
 * "/dev/fd/N/x" (/dev/fd leads to /proc/self/fd): a path through a link
 * of /proc that procpath_canon() refuses to follow (magic links), with
 * something after it. */
static bool proc_link_path(const char *path)
{
	if (strncmp(path, "/dev/fd/", 8) == 0)
		return next_segment(path + 8) != NULL;
	if (strncmp(path, "/proc/", 6) != 0)
		return false;
	const char *s = next_segment(path + 6); /* after PID */
	if (s != NULL && strncmp(s, "task/", 5) == 0 && (s = next_segment(s + 5)) == NULL)
		return false;
	if (s == NULL)
		return false;
	if (strncmp(s, "cwd/", 4) == 0 || strncmp(s, "root/", 5) == 0)
		return next_segment(s) != NULL;
	return strncmp(s, "fd/", 3) == 0 && next_segment(s + 3) != NULL; /* a name after N */
}

/* The last segment of glob g into seg; false when there is none. */
static bool last_segment(const char *g, char seg[static NAME_MAX + 1])
{
	if (g[0] == '!')
		return false; /* an ignore file's negation */
	size_t end = strlen(g);
	while (end > 0 && g[end - 1] == '/')
		end--;
	size_t start = end;
	while (start > 0 && g[start - 1] != '/')
		start--;
	if (end - start == 2 && g[start] == '*' && g[start + 1] == '*' && start > 1) {
		end = start - 1;
		for (start = end; start > 0 && g[start - 1] != '/';)
			start--;
	}
	if (end - start > NAME_MAX || end == start)
		return false;
	memcpy(seg, g + start, end - start);
	seg[end - start] = '\0';
	return true;
}

static int seg_kind(const char *seg)
{
	if (seg[strcspn(seg, "*?[")] == '\0')
		return SEG_PLAIN;
	return seg[0] == '*' && seg[1 + strcspn(seg + 1, "*?[")] == '\0' ? SEG_SUFFIX : SEG_GLOB;
}

/* 0, or -1 out of memory (the caller fails). */
static int segs_init(struct segs *sg, const struct rules *r)
{
	sg->n = 0;
	sg->v = r->n > 0 ? calloc(r->n, sizeof *sg->v) : NULL;
	if (r->n > 0 && sg->v == NULL)
		return -1;
	for (size_t i = 0; i < r->n; i++) {
		char seg[NAME_MAX + 1];
		bool seen = false;
		if (!last_segment(r->v[i].text, seg))
			continue;
		for (size_t j = 0; j < sg->n && !seen; j++)
			seen = strcmp(sg->v[j].text, seg) == 0;
		if (seen)
			continue;
		if ((sg->v[sg->n].text = strdup(seg)) == NULL)
			return -1;
		sg->v[sg->n].kind = seg_kind(seg);
		sg->v[sg->n].len = strlen(seg) - (sg->v[sg->n].kind == SEG_SUFFIX);
		sg->n++;
	}
	return 0;
}

static void segs_free(struct segs *sg)
{
	for (size_t i = 0; i < sg->n; i++)
		free(sg->v[i].text);
	free(sg->v);
}

/* Whether a name (n bytes at name, NUL-terminated) matches one of the
 * segments. Plain names and "*SUFFIX" (`*` matches any run, dots too)
 * without running the matcher: every notified call asks this of every
 * component of its path. */
static bool segment_matches(const struct segs *sg, const char *name, size_t n)
{
	for (size_t i = 0; i < sg->n; i++) {
		const char *g = sg->v[i].text;
		size_t k;
		switch (sg->v[i].kind) {
		case SEG_PLAIN:
			if (n == sg->v[i].len && memcmp(g, name, n) == 0)
				return true;
			break;
		case SEG_SUFFIX:
			k = sg->v[i].len;
			if (n >= k && memcmp(name + n - k, g + 1, k) == 0)
				return true;
			break;
		case SEG_GLOB:
			if (glob_match_text(g, name, false))
				return true;
			break;
		}
	}
	return false;
}

/* Whether a component of path is a name one of the globs could match
 * (segment_matches): only then can a symlink in the path lead to a match
 * the path as written does not show. */
static bool path_may_match(const struct segs *sg, const char *path)
{
	char name[NAME_MAX + 1];
	for (const char *s = path; sg->n > 0 && *s != '\0';) {
		size_t n = strcspn(s, "/");
		if (n > 0 && n <= NAME_MAX) {
			memcpy(name, s, n);
			name[n] = '\0';
			if (segment_matches(sg, name, n))
				return true;
		}
		s += n + (s[n] == '/');
	}
	return false;
}

/* After resolving: a path the observer would have to refuse if it knew
 * where it leads, but cannot resolve, is refused (fail closed): one
 * through a magic link of /proc, or in a directory it cannot resolve (a
 * symlink to /proc/self/cwd) the creation of a name a protected glob
 * could match or any call on one a deny glob or ignore file could. */
static int observer_unresolvable(const struct observer_core *o, const struct check *c, struct decision *dec)
{
	for (int i = 0; i < 2; i++) {
		if (c->raw[i] == NULL || !c->unresolved[i])
			continue;
		bool create = c->op[i] == OP_CREATE || c->op[i] == OP_RENAME;
		/* in_root without a copy of that root: where it leads cannot
		 * be told (with one, what cannot be resolved in it fails in
		 * the kernel too); a relative path: a symlink's target it
		 * cannot follow (procpath_canon) */
		if ((c->in_root != NULL && c->root < 0) || c->raw[i][0] != '/' ||
		    (proc_link_path(c->raw[i]) && !launch_dev_allowed(c->raw[i])) ||
		    (create && path_may_match(&o->protect, c->raw[i])) || path_may_match(&o->deny, c->raw[i]) ||
		    path_may_match(&o->ignore, c->raw[i])) {
			*dec = unresolvable;
			return i;
		}
	}
	return -1;
}

/* Landlock grants the terminal and null devices for writing, /dev and
 * /proc for reading, and the shared build cache, outside the policy's
 * lists (a process needs them to run at all, or the policy asked for the
 * cache); the observer leaves those to Landlock rather than deny what the
 * sandbox allows. */
static bool runtime_path(const struct policy *p, const char *path, enum fs_op op)
{
	if (launch_dev_allowed(path))
		return true;
	if (p->shared_cache && path_under(path, LAUNCH_CACHE_DIR))
		return true;
	return (op == OP_READ || op == OP_EXEC) && launch_always_readable(path) && !proc_link_path(path);
}

/* Capture mode: whether a write at path (canonical, inside) lands in
 * the capture layer, that is whether its directory lies on an overlay.
 * Not every directory outside the write roots is overlaid: one with other
 * mounts beneath it (a tmpfs under HOME) is not (capture.c), and its own
 * entries stay read-only: such a write is refused by the kernel, and is
 * a denial to report, not a capture. What cannot be looked at counts as
 * overlaid: the call goes on and the kernel decides, as before. */
static bool observer_overlaid(struct observer_core *o, const char *path)
{
	const char *sl = strrchr(path, '/');
	size_t n = sl == NULL || sl == path ? 1 : (size_t)(sl - path);
	if (o->overlaid_dir != NULL && strlen(o->overlaid_dir) == n && strncmp(o->overlaid_dir, path, n) == 0)
		return o->overlaid;
	char *dir = strndup(path, n);
	int fd = dir != NULL ? procpath_open(o->root, dir, true) : -1;
	struct statfs fs;
	bool known = fd >= 0 && fstatfs(fd, &fs) == 0;
	if (fd >= 0)
		close(fd);
	if (!known) {
		free(dir);
		return true;
	}
	free(o->overlaid_dir);
	o->overlaid_dir = dir;
	o->overlaid = fs.f_type == OVERLAYFS_SUPER_MAGIC;
	return o->overlaid;
}

/* Decides one notification: the first denied path, or none. The policy
 * speaks of host paths: /tmp inside is the session temp dir outside. */
static int observer_decide(struct observer_core *o, struct check *c, struct decision *dec)
{
	c->captured = -1;
	c->alias_guarded = false;
	for (int i = 0; i < 2; i++) {
		if (c->path[i] == NULL || runtime_path(o->policy, c->path[i], c->op[i]))
			continue;
		char buf[PATH_MAX];
		const char *host = host_path(o, c->path[i], buf, sizeof buf);
		const char *guard;
		*dec = policy_decide_path(o->policy, host, c->op[i]);
		/* A protected file the host replaced after launch (git config
		 * renames a new .git/config into place) has no bind-over: a
		 * link to it would write it. Guarded only, as a write outside
		 * the write roots: Landlock refuses such a link (no REFER
		 * right), and in capture mode the overlay takes it. */
		if (dec->allow && c->alias[i] && policy_path_guarded(o->policy, host, &guard)) {
			*dec = policy_decide_path(o->policy, host, OP_WRITE);
			c->alias_guarded = !dec->allow;
		}
		if (!dec->allow && c->op[i] != OP_READ && c->op[i] != OP_EXEC &&
		    policy_path_captured(o->policy, host) && observer_overlaid(o, c->path[i])) {
			c->captured = i;
			continue; /* lands in the capture layer (capture.h) */
		}
		if (!dec->allow && o->audited && c->op[i] == OP_WRITE && !policy_path_guarded(o->policy, host, &guard))
			continue; /* Landlock refuses it, and its record reports it */
		if (dec->allow && c->carry[i])
			*dec = policy_decide_carry(o->policy, host);
		if (!dec->allow)
			return i;
	}
	return -1;
}

/* Calls allowed as written that are resolved all the same, because only
 * the observer refuses what they could reach through a symlink
 * ("ln -s . me; mkdir me/.vscode", "cat /proc/self/cwd/new.env"): every
 * creation or rename (a protected directory missing at launch has no
 * bind-over); every write to an existing file (open for writing,
 * truncate) and every write captured as written, since a protected file
 * the host replaced after launch (git config, an editor's save: a new
 * file renamed over the old) has no bind-over either ("ln -s .git/config
 * sl; open sl O_WRONLY", or a symlink in the capture layer into the
 * workspace); with ignore files or `deny` globs, every call, since what
 * they match made or replaced after launch is bare too ("ln -s late.env
 * y; cat y"); a removal of a name a protected glob could match ("ln -s
 * .git g; rm g/config"). Refusing symlinks whose target could match a
 * glob instead would leave the ones the host or a checkout made. */
static bool observer_resolve_anyway(const struct observer_core *o, const struct check *c)
{
	if (ignore_active(&o->policy->ignore) || o->policy->deny.n > 0 || c->in_root != NULL || c->captured >= 0)
		return true;
	for (int i = 0; i < 2; i++)
		if (c->path[i] != NULL && (c->op[i] == OP_CREATE || c->op[i] == OP_RENAME || c->op[i] == OP_WRITE ||
					   (c->op[i] == OP_REMOVE && path_may_match(&o->protect, c->path[i]))))
			return true;
	return false;
}

static void lastdir_clear(struct lastdir *l)
{
	free(l->raw);
	free(l->canon);
	l->raw = l->canon = NULL;
	l->used = 0;
}

/* The directory part of a creation made by name (O_CREAT, mkdir,
 * mknod): its length, or 0 (another call, or no directory part). Not
 * with ignore files (what they match may depend on more than the
 * path). */
static size_t create_dir(const struct observer_core *o, const struct sysdesc *s, const struct check *c)
{
	const struct policy *p = o->policy;
	if ((s->kind != K_OPEN && s->kind != K_OPENAT2 && s->kind != K_CREATE) || c->raw[0] == NULL ||
	    c->in_root != NULL || c->raw[1] != NULL || c->op[0] != OP_CREATE || ignore_active(&p->ignore))
		return 0;
	const char *sl = strrchr(c->raw[0], '/');
	if (sl == NULL || sl == c->raw[0] || sl[1] == '\0' || strcmp(sl + 1, ".") == 0 || strcmp(sl + 1, "..") == 0 ||
	    sl - c->raw[0] >= PATH_MAX)
		return 0;
	return (size_t)(sl - c->raw[0]);
}

/* The directory part of a creation the last directory resolved may
 * stand for: create_dir()'s, the name not followed (O_EXCL, mkdir,
 * mknod), with no component a protected, denied or
 * ignored glob could match. Such a name is refused only where a
 * symlink in its directory leads into a protected directory missing at
 * launch (one present is a read-only mount), which nothing inside can
 * make (its name is refused). Returns the length of the directory part,
 * or 0. */
static size_t recall_dir(const struct observer_core *o, const struct sysdesc *s, const struct check *c)
{
	size_t n = c->follow ? 0 : create_dir(o, s, c);
	if (n > 0 && (path_may_match(&o->protect, c->raw[0]) || path_may_match(&o->deny, c->raw[0])))
		return 0;
	return n;
}

/* The directory raw (absolute, in the process's root) leads to now:
 * true with its identity, false when it cannot be opened. */
static bool lastdir_identify(const struct observer_core *o, const char *raw, dev_t *dev, ino_t *ino)
{
	struct stat st;
	int fd = procpath_open(o->root, raw, true);
	bool ok = fd >= 0 && fstat(fd, &st) == 0;
	if (fd >= 0)
		close(fd);
	if (ok) {
		*dev = st.st_dev;
		*ino = st.st_ino;
	}
	return ok;
}

/* The remembered directory raw's first n bytes name, or NULL. */
static struct lastdir *lastdir_find(struct observer_core *o, const char *raw, size_t n)
{
	for (size_t i = 0; i < LASTDIRS; i++)
		if (o->last[i].raw != NULL && strncmp(o->last[i].raw, raw, n) == 0 && o->last[i].raw[n] == '\0')
			return &o->last[i];
	return NULL;
}

/* A creation in a directory a previous one was resolved in, as
 * written: decided on that resolution instead of resolving it again (a
 * readlink, a stat and the normalising of the path). The calls the
 * observer sees that could lead it elsewhere (a rename, link or
 * symlink) drop it (observer_forget), but another sandbox on
 * the same workspace (another pane) or the host may swap it for a
 * symlink between two calls, without any race: so the directory as
 * written is opened again and must still be the one resolved
 * (device and inode). The same directory keeps its canonical path but
 * for a rename of it, which every observer refuses into a protected or
 * denied place. allowed: the call is allowed as written. True when the
 * call is decided and allowed. */
static bool observer_recall(struct observer_core *o, const struct sysdesc *s, struct check *c, struct decision *dec,
			    bool allowed)
{
	size_t n = recall_dir(o, s, c);
	struct lastdir *l = n > 0 ? lastdir_find(o, c->raw[0], n) : NULL;
	dev_t dev;
	ino_t ino;
	if (l == NULL || !lastdir_identify(o, l->raw, &dev, &ino) || dev != l->dev || ino != l->ino)
		return false;
	l->used = ++o->tick;
	char path[2 * PATH_MAX + 2];
	const char *name = c->raw[0] + n + 1;
	snprintf(path, sizeof path, "%s/%s", strcmp(l->canon, "/") == 0 ? "" : l->canon, name);
	if (allowed && c->path[0] != NULL && strcmp(path, c->path[0]) == 0)
		return true; /* no symlink on the way: decided as written */
	char *dup = strdup(path);
	if (dup == NULL)
		return false;
	free(c->path[0]);
	c->path[0] = dup;
	return observer_decide(o, c, dec) < 0;
}

/* A creation allowed as written (create_dir's kind) whose directory,
 * walked now the way the kernel will walk it, meets no symlink: the
 * path as written, normalised, is where it lands, so it is decided
 * without resolving or remembering anything: whatever globs its names
 * could match were matched against the path it lands at. A path joined to a dirfd
 * the memo holds (kcmp said it is the same open file) is walked from our
 * copy of it, beneath it: a name right in it needs no walk at all.
 * Otherwise the directory as written is walked from the root. A
 * symlink on the way (made by this sandbox, another one or the host)
 * fails the walk: then it is resolved as before. An open that follows
 * a final symlink (O_CREAT without O_EXCL, creat) also needs the name
 * to be none (absent, or anything else). */
static bool observer_plain(struct observer_core *o, const struct sysdesc *s, const struct check *c)
{
	size_t n = c->path[0] != NULL ? create_dir(o, s, c) : 0;
	if (n == 0)
		return false;
	const struct procpath_dirfd *d = c->via >= 0 ? &o->dirs.v[c->via] : NULL;
	const char *name = c->follow ? c->raw[0] + n + 1 : NULL; /* a symlink there would be followed */
	if (d != NULL && d->ours >= 0 && n >= d->len && memcmp(c->raw[0], d->path, d->len) == 0 &&
	    (n == d->len || c->raw[0][d->len] == '/'))
		return n == d->len ? procpath_plain_name(d->ours, name)
				   : procpath_plain_dir(&o->dirs, d->ours, c->raw[0] + d->len + 1, n - d->len - 1,
							false, name);
	return procpath_plain_dir(&o->dirs, o->root, c->raw[0], n, true, name);
}

/* After a creation resolved and allowed: its directory, both ways. */
static void observer_remember(struct observer_core *o, const struct sysdesc *s, const struct check *c)
{
	size_t n = recall_dir(o, s, c);
	const char *sl = c->path[0] != NULL ? strrchr(c->path[0], '/') : NULL;
	if (n == 0 || sl == NULL)
		return;
	struct lastdir *l = lastdir_find(o, c->raw[0], n);
	if (l == NULL) { /* the least recently used (a free one: 0) */
		l = &o->last[0];
		for (size_t i = 1; i < LASTDIRS; i++)
			if (o->last[i].used < l->used)
				l = &o->last[i];
	}
	lastdir_clear(l);
	l->used = ++o->tick;
	l->raw = strndup(c->raw[0], n);
	l->canon = strndup(c->path[0], sl == c->path[0] ? 1 : (size_t)(sl - c->path[0]));
	/* the directory the resolution found the name in: the one raw led to */
	l->dev = c->dir_dev;
	l->ino = c->dir_ino;
	if (l->raw == NULL || l->canon == NULL || (c->dir_ino == 0 && !lastdir_identify(o, l->raw, &l->dev, &l->ino)))
		lastdir_clear(l);
}

/* A call that may change where a directory leads to another canonical
 * path (a new symlink or link, or a move): the remembered ones are
 * dropped. A removal alone cannot lead it elsewhere (the walk fails);
 * what takes the removed name's place is one of these, or a new
 * directory, which has the canonical path it is made at (and
 * observer_recall() opens the directory again: only the one found there
 * when it was remembered, or one made in its place, is a match). */
static void observer_forget(struct observer_core *o, const struct sysdesc *s)
{
	for (size_t i = 0; i < LASTDIRS && (s == NULL || s->kind == K_RENAME || s->kind == K_LINK); i++)
		lastdir_clear(&o->last[i]);
	if (s == NULL || s->kind == K_RENAME)
		procpath_memo_drop(&o->dirs); /* a directory's path may have moved */
}

/* A write that lands in the capture layer, told as it is made (the
 * denials pane lists it live, op "captured"); the layer itself is read
 * when the command ends, so only the first few are told here: an unpacker
 * writing thousands outside would flood the session's log. */
static void observer_tell_captured(struct observer_core *o, const struct seccomp_notif *req, const struct check *c)
{
	char buf[PATH_MAX], comm[17];
	if (o->captured_told >= OBSERVER_CAPTURED_TOLD || c->path[c->captured] == NULL)
		return;
	o->captured_told++;
	const char *what = c->op[c->captured] == OP_CREATE ? "create" : "write";
	observer_comm(req, comm);
	struct denial d = { 0 };
	if (denial_set_captured(&d, host_path(o, c->path[c->captured], buf, sizeof buf), what) == 0)
		observer_emit(o, req, comm, &d);
	denial_clear(&d);
}

/* Most calls are allowed as written: those go on at once (Landlock
 * decides), without resolving anything. A call denied as written is
 * resolved the way the kernel will resolve it and decided again, so that
 * a symlink into an allowed place is no false denial. (The converse, a
 * symlink from an allowed place out, is left to Landlock unreported:
 * resolving every path would double the observer's cost.) */
/* connect(), sendto(), sendmsg() and listen(): unixsock.h says which the
 * host makes itself on the caller's socket and which go back to the
 * kernel. No root: nothing can be resolved, so AF_UNIX paths fail. */
static void observer_connect(struct observer_core *o, const struct seccomp_notif *req, enum kind kind)
{
	struct unixsock_answer a;
	char comm[17];
	if (kind == K_LISTEN)
		unixsock_listen(&o->unix, o->fd, req, &a);
	else if (kind == K_SENDMSG || kind == K_SENDMMSG)
		unixsock_sendmsg(&o->unix, o->fd, req, o->root, kind == K_SENDMMSG, &a);
	else
		(kind == K_SENDTO ? unixsock_sendto : unixsock_connect)(&o->unix, o->fd, req, o->root, &a);
	if (a.rule != NULL)
		observer_comm(req, comm);
	if (a.what == UNIXSOCK_GONE) {
		o->stats.gone++;
		return;
	}
	memset(o->resp, 0, sizeof *o->resp);
	o->resp->id = req->id;
	if (a.what == UNIXSOCK_CONTINUE) {
		o->resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		o->stats.continued++;
	} else {
		o->resp->error = a.error;
		o->resp->val = a.val;
	}
	o->stats.denied += a.rule != NULL;
	o->stats.unix_taken = o->unix.taken;
	if (a.rule != NULL) { /* told before the answer: see observer_answer */
		struct denial d = { 0 };
		if (denial_set(&d, kind == K_LISTEN ? "bind" : "connect", "observer", a.path, a.rule) == 0)
			observer_emit(o, req, comm, &d);
		denial_clear(&d);
	}
	if (seccomp_notify_respond(o->fd, o->resp) != 0)
		o->stats.gone++;
}

static void observer_answer(struct observer_core *o, const struct seccomp_notif *req)
{
	const struct sysdesc *s = observer_lookup(o, &req->data);
	struct check c = { .op = { OP_READ, OP_READ }, .root = -1, .via = -1, .captured = -1 };
	struct decision dec = { 0 };
	char comm[17];
	int denied = -1;
	if (o->root < 0) {
		char link[64];
		snprintf(link, sizeof link, "/proc/%d/root", (int)req->pid);
		o->root = open(link, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	if (s != NULL && s->kind >= K_CONNECT)
		return observer_connect(o, req, s->kind);
	if (s != NULL && o->root >= 0) {
		plan_checks(o, req, s, &c);
		int as_written = observer_decide(o, &c, &dec);
		if ((as_written >= 0 || observer_resolve_anyway(o, &c)) &&
		    !(as_written < 0 && observer_plain(o, s, &c)) && !observer_recall(o, s, &c, &dec, as_written < 0)) {
			refine_checks(o, s, &c);
			int own = c.follow && c.raw[0] != NULL && c.in_root == NULL ? own_fd_link(c.raw[0]) : -1;
			if (own >= 0)
				observer_own_fd(req, &c, own); /* entered only then: its frame is a page */
			denied = observer_decide(o, &c, &dec);
			if (denied < 0)
				denied = observer_unresolvable(o, &c, &dec);
			if (denied < 0)
				observer_remember(o, s, &c);
		}
	}
	observer_forget(o, s);
	/* A denial names a process and a path read through /proc: the id
	 * still being valid means the process is still the one waiting, so
	 * the pid was not reused meanwhile. */
	if (denied >= 0)
		observer_comm(req, comm);
	if (denied >= 0 && seccomp_notify_id_valid(o->fd, req->id) != 0) {
		o->stats.gone++;
		goto out;
	}
	memset(o->resp, 0, sizeof *o->resp);
	o->resp->id = req->id;
	if (denied >= 0) {
		o->resp->error = -EACCES;
		o->stats.denied++;
	} else {
		o->resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		o->stats.continued++;
	}
	/* The denial is told before the answer, so that whoever sees the
	 * command end has already been sent every denial it met. */
	if (denied >= 0)
		observer_report(o, req, comm, c.path[denied] != NULL ? c.path[denied] : c.raw[denied],
				c.alias_guarded ? OP_WRITE : c.op[denied], &dec);
	else if (c.captured >= 0)
		observer_tell_captured(o, req, &c);
	if (seccomp_notify_respond(o->fd, o->resp) != 0)
		o->stats.gone++;
out:
	for (int i = 0; i < 2; i++) {
		free(c.raw[i]);
		free(c.path[i]);
	}
	free(c.in_root);
	if (c.root >= 0)
		close(c.root);
}

int observer_core_step(struct observer_core *o)
{
	memset(o->req, 0, sizeof *o->req);
	if (seccomp_notify_receive(o->fd, o->req) != 0)
		return -1;
	o->stats.seen++;
	observer_answer(o, o->req);
	return 0;
}

struct observer_core *observer_core_new(const struct policy *p, int notify_fd, observer_cb cb, void *arg)
{
	struct observer_core *o = calloc(1, sizeof *o);
	if (o == NULL)
		return NULL;
	*o = (struct observer_core){ .policy = p, .fd = notify_fd, .cb = cb, .arg = arg, .root = -1 };
	unixsock_init(&o->unix);
	procpath_memo_init(&o->dirs);
	for (size_t i = 0; i < NSYSCALLS; i++)
		o->nr[i] = seccomp_syscall_resolve_name(syscalls[i].name);
	if (segs_init(&o->protect, &p->protect) < 0 || segs_init(&o->deny, &p->deny) < 0 ||
	    segs_init(&o->ignore, &p->ignore) < 0 || seccomp_notify_alloc(&o->req, &o->resp) != 0) {
		observer_core_free(o);
		return NULL;
	}
	return o;
}

void observer_core_weak(struct observer_core *o, int proxy_port)
{
	o->weak = true;
	o->unix.inet.on = o->policy->net.mode != NET_HOST;
	o->unix.inet.port = o->policy->net.mode == NET_PROXY ? proxy_port : 0;
}

void observer_core_audited(struct observer_core *o)
{
	o->audited = true;
}

struct observer_stats *observer_core_stats(struct observer_core *o)
{
	return &o->stats;
}

/* Leaves the listener fd to its owner. */
void observer_core_free(struct observer_core *o)
{
	if (o == NULL)
		return;
	if (o->req != NULL)
		seccomp_notify_free(o->req, o->resp);
	if (o->root >= 0)
		close(o->root);
	procpath_memo_free(&o->dirs);
	observer_forget(o, NULL);
	free(o->overlaid_dir);
	segs_free(&o->protect);
	segs_free(&o->deny);
	segs_free(&o->ignore);
	unixsock_free(&o->unix);
	free(o);
}
