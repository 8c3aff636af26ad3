/* launch: clones a child into new user, mount, pid (and, unless the policy
 * has the host network, net) namespaces, turns a struct policy into
 * kernel state in it (a private /dev, /proc and /tmp, bind-overs, Landlock,
 * seccomp, capabilities, environment) and execs the command. Every step
 * fails closed: the child reports "STEP: what failed: strerror" back over
 * a close-on-exec socket and the command never runs.
 *
 * In the sandbox, pid 1 is a small init (already as restricted as the
 * command) that reaps orphans, forwards SIGTERM/SIGHUP/SIGINT and exits
 * with the command's status (128+N for signal N); `pid` is its host pid,
 * so the caller waits for it like for any child. */
#ifndef LAUNCH_H
#define LAUNCH_H

#include <stdbool.h>
#include <sys/types.h>

struct policy;
struct sandbox_limits;

struct launch {
	/* inputs */
	const struct policy *policy;
	char *const *argv;                   /* argv[0] is looked up in $PATH */
	char *const *envp;                   /* the environment the env policy starts from */
	const char *cwd;                     /* default: the workspace */
	int tty;                             /* PTY slave to make the controlling terminal, or -1 */
	bool want_pty;                       /* instead: make the PTY inside the sandbox's own devpts
				 * (its name resolves inside, the host's terminals stay
				 * out of sight) and hand back the master in pty_fd */
	int stdio[3];                        /* used when tty < 0; -1 means inherit; with want_pty,
				 * one >= 0 stays the command's instead of the PTY (a
				 * pipe stays a pipe) */
	int pty_like;                        /* want_pty: a terminal whose modes and size the PTY
				 * starts with, before the command runs; or -1 */
	bool want_notify;                    /* hand back a seccomp user-notification fd (observer) */
	bool want_proxy_listener;            /* create a TCP listener inside the netns, hand it back;
				 * the proxy variables pointing at it are set too */
	int proxy_listen_port;               /* its port on the sandbox's 127.0.0.1; 0: any free port */
	char *const *extra_env;              /* NULL-terminated "NAME=VALUE" set after the env policy, or NULL */
	bool want_status;                    /* hand back status_fd (sandboxed commands only) */
	int pass_fd;                         /* -1, or an fd the command alone gets, as LAUNCH_PASS_FD
				 * (init closes its copy): the shell integration's secret */
	int request_fd;                      /* -1, or the pane's end of its request channel: every process
				 * of the command gets it as LAUNCH_REQUEST_FD, named by
				 * $SANDMUX_REQUEST_FD (backends/reqchan.h) */
	bool exec_nodump;                    /* exec argv[0] (an absolute path) so that the process is
				 * not dumpable (exec-nodump.c); if that fails, the command
				 * runs as usual without pass_fd */
	const struct sandbox_limits *limits; /* resource limits (backends/limits.h), or NULL */
	const char *capture_dir;             /* policy->capture: the layer directory on the host (upper/ and
				 * work/ are made in it); see backends/capture.h */
	int audit_fd;                        /* -1, or the caller's audit socket (backends/audit.h, not
				 * touched here): Landlock logs the command's denials and
				 * the observer leaves write-intent calls to the records;
				 * ignored in the weaker sandbox (l->weak) */
	bool *tmpdir_made;                   /* NULL, or policy->tmpdir is named but not made (a
				 * namespaced sandbox with limits.tmp has a tmpfs of its
				 * own there): the weaker sandbox, whose /tmp is the
				 * host's, makes it and sets *tmpdir_made */

	/* Or NULL: run in the parent right after the clone, while the child
	 * makes its first steps (the agents' state shadows are made then
	 * too). The caller makes `limits` then (their cgroups); the child
	 * receives them before its mounts. */
	void (*after_clone)(void *);
	void *after_clone_arg;

	/* outputs */
	pid_t pid;      /* host pid of the sandbox's init */
	int notify_fd;  /* -1 unless want_notify */
	int proxy_fd;   /* -1 unless want_proxy_listener */
	int proxy_port; /* the listener's port inside the sandbox */
	int pty_fd;     /* -1 unless want_pty: the master of the command's PTY */
	int status_fd;  /* -1 unless want_status: yields the command's status
				 * (an int, 128+N for signal N) as soon as it exits,
				 * before init and the namespaces are torn down; end of
				 * file if init died without one. Waiting for `pid`
				 * stays the caller's job. */
	bool weak;      /* no user namespaces here: the weaker sandbox ran
				 * (weak.c); proxy_fd/proxy_port are then a listener
				 * on the host's 127.0.0.1, made by launch_start() */
	char *made[8];  /* protected directories launch_start() made empty
				 * in the workspace (so they can be covered), only
				 * without the observer */
	char err[512];  /* "landlock: ...", "seccomp: ...", "mount /proc: ..." */

	/* "" or, for a proxy listener on the host's loopback (weak), the
	 * password its clients must give (proxy_set_auth); the proxy
	 * variables carry it */
	char proxy_secret[33];
};

#define LAUNCH_PASS_FD 3

void launch_init(struct launch *);
/* Without user namespaces (clone fails with EPERM, ENOSPC or EINVAL
 * outside a sandmux sandbox), launch_start() runs the weaker sandbox of
 * weak.c: no namespaces, Landlock's TCP rule and seccomp's socket filter
 * for the network, the observer required. NULL when policy p can run
 * that way with this Landlock ABI and an observer (want_notify), or one
 * line naming the missing layer and why the pane does not start. */
const char *launch_weak_refusal(const struct policy *p, int landlock_abi, bool observer);
/* One line: what stands in for what in the weaker sandbox under p. */
const char *launch_weak_summary(const struct policy *p);
/* Ends a sandbox whose init is pid: its descendants first (in the weaker
 * sandbox init is no pid 1, and SIGKILL to it alone would leave them
 * running), then init. The caller still waits for pid. */
void launch_kill(pid_t pid, bool weak);
/* 0: the command is running (exec succeeded). -1: nothing runs; err says
 * which layer failed and why. */
int launch_start(struct launch *);
/* After the sandbox has exited: removes the directories in `made` that
 * are still empty, and frees the list. */
void launch_cleanup(struct launch *);

/* exec-nodump.c: execs argv (argv[0] an absolute path) from an
 * execute-only copy, so that the process is not dumpable and nothing
 * else in its sandbox can read its memory or fds. Returns -1 (errno)
 * when it could not. */
int launch_exec_nodump(char *const *argv, char *const *envp);

/* What the running kernel offers, probed once (sandmux doctor prints it). */
struct features {
	int landlock_abi; /* 0: none */
	bool seccomp;
	bool seccomp_notify;
	bool userns; /* unprivileged user namespaces usable */
	bool mountns, pidns, netns;
	bool overlay; /* overlayfs mounts in a user namespace (capture mode) */
	char landlock_why[128];
};
void features_probe(struct features *);
/* seccomp.c: the deny list's extra names (not DESIGN.md's) that this
 * libseccomp has no number for here, skipped; how many, up to max of them
 * in out. A required name like that refuses every sandbox instead. */
size_t seccomp_unknown(const char **out, size_t max);

/* How the sandbox's paths relate to the host's, for whoever resolves a
 * path seen inside (the observer): /tmp and /var/tmp inside are the
 * session temp dir (policy->tmpdir) outside. Writes the host path into buf
 * and returns it, or returns `inside` unchanged. */
const char *launch_host_path(const struct policy *, const char *inside, char *buf, unsigned long size);
/* The devices Landlock lets every sandbox open for writing and configure
 * (/dev/null, /dev/tty, /dev/pts/N, ...): a terminal program needs them. */
bool launch_dev_allowed(const char *path);
/* What Landlock lets every sandbox read, whatever its read roots: the
 * private /dev and /proc (strict reads only its roots otherwise). */
bool launch_always_readable(const char *path);

#endif
