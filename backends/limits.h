/* limits: a sandbox's resource limits (policy.h struct limits) made
 * kernel state, and the events of hitting them (DESIGN.md `op: "limit"`).
 *
 * Processes and memory: a cgroup of the sandbox's own where sandmux can
 * have one (cgroup v2: a subtree it may write, root's or a delegated one;
 * cgroup v1's pids and memory hierarchies, as root), otherwise rlimits
 * set inside the sandbox: RLIMIT_NPROC (which, in a user namespace of its
 * own, counts the sandbox's processes only, and never binds root) and
 * RLIMIT_DATA per process. /tmp: a tmpfs of that size inside the
 * sandbox's mount namespace (tmp.c); the weaker sandbox, which has none,
 * gets RLIMIT_FSIZE (a bound per file, not in total). */
#ifndef LIMITS_H
#define LIMITS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "policy/policy.h"

enum limit_how {
	LIMIT_OFF,     /* no limit asked for */
	LIMIT_NOTHING, /* asked for, nothing here can hold it (said so) */
	LIMIT_CGROUP2,
	LIMIT_CGROUP1,
	LIMIT_RLIMIT,
	LIMIT_TMPFS,
	LIMIT_FSIZE,
};

struct sandbox_limits {
	struct limits want; /* in force: limits_fold()ed, 0 for none */
	enum limit_how pids, memory, tmp;
	char *cg_pids; /* the cgroup the sandbox joins (NULL: none), a string of its length */
	char *cg_memory;
	/* what the last limits_poll() saw */
	long long pids_refused, oom_kills;
	bool pids_full, tmp_full;
	int tmp_fd; /* the sandbox's /tmp, O_PATH, once seen; -1 */
};

/* What the sandbox's first process gets of them, whole in one message
 * (launch.c): how each is held and the cgroups to join ("": none). */
struct limits_wire {
	struct limits want;
	enum limit_how pids, memory, tmp;
	char cg_pids[PATH_MAX];
	char cg_memory[PATH_MAX];
};
void limits_to_wire(const struct sandbox_limits *, struct limits_wire *);

/* Before the launch: how each limit will be held, and the sandbox's
 * cgroups made (named after tag, unique in this process). */
void limits_prepare(struct sandbox_limits *, const struct limits *want, const char *tag);
/* After it (init: the sandbox's init): whether the weaker sandbox ran
 * (no user or mount namespace). */
void limits_launched(struct sandbox_limits *, bool weak, pid_t init);
/* In the child, first: join the cgroups. Then in the command's process,
 * just before execve (the rlimits bind what it and its children do, not
 * the copy of sandmux before it): the rlimits. 0, or -1 with errno and
 * *step naming what failed. */
int limits_join(const struct limits_wire *, const char **step);
int limits_set_rlimits(const struct limits_wire *, bool weak, const char **step);
/* After the sandbox is gone: its cgroups removed. */
void limits_release(struct sandbox_limits *);

/* "pids 64 (cgroup), memory 64M (cgroup), /tmp 16M (tmpfs)" */
void limits_describe(const struct sandbox_limits *, char *buf, size_t cap);
/* "pids 64 · mem 64M · tmp 16M": short, for a pane's title */
void limits_brief(const struct sandbox_limits *, char *buf, size_t cap);

/* cgroup v2: the cgroup sandmux makes its own under ("ROOT/.../sandmux-PID",
 * made, with pids and memory handed down), for a process in cgroup
 * own_path of the hierarchy mounted at root: the nearest ancestor that
 * hands both down and whose cgroup.procs we may write. 0, or -1. */
int limits_cgroup2_base(const char *root, const char *own_path, char *base, size_t cap);

/* Looks at the counters of a running sandbox whose init is pid, and
 * calls emit with one denial (op "limit", target "pids", "memory" or
 * "tmp", the rule with its numbers) per limit hit since the last poll. */
struct denial;
void limits_poll(struct sandbox_limits *, pid_t init, void (*emit)(struct denial *, void *), void *arg);

#endif
