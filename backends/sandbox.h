/* sandbox: the steps the launcher applies in the child, between clone and
 * exec. Internal to backends/ (launch.c drives them in order); each step
 * returns 0, or -1 after writing "STEP: what: strerror" into sbx->err. */
#ifndef SANDBOX_H
#define SANDBOX_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "backends/limits.h"
#include "backends/ns.h"

struct launch;
struct policy;
struct rules;

#define SBX_MAX_SRC     48
/* capture mode overlays each subdirectory of a root with mounts beneath
 * it (a HOME holding a tmpfs): a person's HOME easily has more than 32 */
#define SBX_MAX_CAPTURE 256

/* A seccomp filter as the kernel takes it: compiled by libseccomp in the
 * parent after the clone, while the child makes its mounts, and handed
 * to the child ready to load, so the child does no libseccomp work. */
struct seccomp_prog {
	struct sock_filter *insn;
	unsigned short len; /* 0: none */
};

struct sbx {
	const struct launch *l;
	const struct policy *p;
	uid_t uid; /* the caller's ids, mapped to themselves inside */
	gid_t gid;
	char **envp;    /* the command's environment, built before clone */
	bool netns;     /* a fresh network namespace was asked for */
	bool weak;      /* no namespaces at all (weak.c) */
	int proxy_port; /* weak: the proxy's port on the host's 127.0.0.1, 0: none */
	int chan;       /* SOCK_SEQPACKET to the parent: errors and passed fds */
	int tty;        /* the command's terminal: l->tty, or the inner PTY's slave */
	int pty_master; /* want_pty: the inner PTY's master, until passed */
	int status_w;   /* want_status: where init writes the command's status */
	int empty_file; /* O_PATH fds of the empty stand-ins bound over hidden paths */
	int empty_dir;
	/* capture.c: the host's own view of bind sources, opened before the
	 * overlays cover it, and the overlaid top-level directories. */
	struct {
		char *path;
		int fd;
	} src[SBX_MAX_SRC];
	int nsrc;
	char capture[SBX_MAX_CAPTURE][264];
	int ncapture;
	char err[512];
	/* The limits the parent made after the clone (launch.h after_clone),
	 * received into lim: limits points there, or is NULL (none asked). */
	const struct limits_wire *limits;
	struct limits_wire lim;
	/* ns.c: the host's unix sockets to hide, found before the mounts
	 * (ns_find_sockets), hidden after them (ns_masks). */
	struct ns_paths socks;
	/* The deny list and the observer's filter (len 0 when no observer). */
	struct seccomp_prog deny, notify;
	int listener; /* the observer's listener, until the parent took it; -1 */
	int devnull;  /* init's stdio once the command runs, opened before the observer's filter; -1 */
};

/* Formats "STEP: WHAT: strerror(errno)" into s->err; returns -1. */
int sbx_fail(struct sbx *, const char *step, const char *what);
/* The same without an errno part. */
int sbx_failx(struct sbx *, const char *step, const char *what);

/* ns.c: user namespace maps, mounts, /proc, loopback. */
int ns_map_ids(struct sbx *);
/* Before the mounts, while the parent makes what the child waits for:
 * the host's unix sockets that ns_mount_all() hides. None of the mounts
 * covers a directory walked (/run, /var/lib/docker, sockets' directories
 * in HOME) with anything but the same files or less. */
void ns_find_sockets(struct sbx *);
int ns_mount_all(struct sbx *);
/* Binds src on dst, then makes it read-only or not, keeping the other
 * flags (those the kernel locked on the source mount among them). */
int ns_bind(struct sbx *, const char *src, const char *dst, bool ro);
/* The tmpfs holding the empty stand-ins bound over hidden paths. */
int ns_stage(struct sbx *);
/* Makes the missing protected directories (see ns.c); in the parent. */
int ns_precreate(const struct policy *, char **made, int max);
/* tmp.c: the session temp dir at /tmp and /var/tmp (calls ns_stage). */
int ns_tmp(struct sbx *);
int ns_loopback_up(struct sbx *);
/* dev.c: a minimal /dev, a private devpts and /dev/shm. */
int ns_dev(struct sbx *);

/* environ.c: the command's environment, NULL when out of memory. */
char **launch_env(const struct launch *);

/* paths.c: some rule of r covers path (path_under, policy/policy.h). */
bool rules_cover(const struct rules *, const char *path);

/* cache.c: enableSharedBuildCache. */
#define LAUNCH_CACHE_DIR "/tmp/.sandmux-cache"
size_t launch_cache_vars(char **out); /* NULL: how many; else fills out[] */
bool launch_cache_var_is(const char *entry);
int ns_cache(struct sbx *);
/* The shared cache's host directory (made if missing) into buf: 0 or -1. */
int cache_host_dir(const struct policy *, char *buf, size_t size);

/* launch.c: Landlock's audit records report this sandbox's write denials
 * (l->audit_fd; never in the weaker sandbox, whose observer refuses what
 * its missing mounts would). */
bool launch_audited(const struct sbx *);

/* landlock.c */
int landlock_abi(void);
int landlock_apply(struct sbx *);
/* weak: a nested domain that only scopes signals and abstract sockets,
 * so the command cannot signal its init (ABI 6; a no-op before). */
int landlock_scope_self(void);

/* launch.c: a TCP listener on 127.0.0.1 at port (0: a free one), its
 * port in *bound; the fd, or -1 with errno. The proxy's, in the
 * sandbox's network namespace or (weak.c) on the host's loopback. */
int launch_loopback_listener(int port, int *bound);

/* weak.c: the weaker sandbox's process tree and proxy listener. */
/* Kills every descendant of root (not root), round after round until a
 * walk of /proc finds none alive (a process may fork meanwhile). */
void weak_kill_tree(pid_t root);
/* How many live processes root and its descendants are (limits.c: what
 * RLIMIT_NPROC counts in a sandbox); *first: one descendant, 0 if none.
 * -1 when /proc cannot be read. */
long proc_count_tree(pid_t root, pid_t *first);
/* The proxy's listener on the host's 127.0.0.1, at a free port (many
 * panes share the host's loopback): -1 with l->err set on failure. */
int weak_proxy_listener(struct launch *l);

/* seccomp.c: the filter; a failing step is named with libseccomp's errno,
 * and a system call on the deny list with no number here refuses it.
 * seccomp_prepare() compiles s->deny in the parent (from s->p and
 * s->weak); seccomp_apply() loads it in the child. */
int seccomp_prepare(struct sbx *);
int seccomp_apply(struct sbx *);
/* A libseccomp filter (scmp_filter_ctx) compiled into *out: 0 or -errno. */
int seccomp_export(void *ctx, struct seccomp_prog *out);
/* seccomp(SECCOMP_SET_MODE_FILTER, flags, prog): its result (a listener's
 * fd with SECCOMP_FILTER_FLAG_NEW_LISTENER), or -1 with errno. */
int seccomp_load_prog(const struct seccomp_prog *, unsigned flags);
void seccomp_prog_free(struct seccomp_prog *);
/* A system call's number on this architecture, or __NR_SCMP_ERROR. */
int seccomp_resolve(const char *name);

/* caps.c: no_new_privs, then every capability set emptied. */
int caps_drop(struct sbx *);

/* init.c: pid 1 of the sandbox. Forks the command (which runs `exec_cmd`),
 * reaps orphans, forwards SIGTERM/SIGHUP/SIGINT, and returns the exit
 * status init should exit with (128+N for signal N). */
int init_run(struct sbx *, void (*exec_cmd)(struct sbx *));
/* launch.c: the parent's answer once it took the observer's listener (0
 * without an observer); -1 with s->err when it could not. */
int launch_listener_taken(struct sbx *);

#endif
