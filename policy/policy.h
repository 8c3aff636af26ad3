/* policy: files in, a decided struct policy out. Pure: no fork, no kernel
 * sandbox calls, no exit(); reading the policy files is its only I/O.
 *
 * The layers of DESIGN.md "Policy: the contract" are loaded (config.c),
 * merged (merge.c), a profile is resolved against a workspace (profile.c)
 * into a struct policy, and policy_decide_path() / policy_decide_host()
 * say allow or deny and which rule decided (decide.c). */
#ifndef POLICY_H
#define POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "policy/strv.h" /* env_build() hands out one */

/* Lowest to highest priority. */
enum layer { LAYER_DEFAULT, LAYER_USER, LAYER_REPO, LAYER_ADMIN, LAYER_HARDCODED };
const char *layer_name(enum layer);

/* Where a value came from: file (NULL for built-in values), layer, and the
 * 1-based position of the value in that file (0 when not from a file). */
struct origin {
	const char *file;
	enum layer layer;
	int line, col;
};

/* One entry of a list, with its origin. */
struct rule {
	char *text;
	char *label; /* what a decision quotes, e.g. "deny: .env"; NULL: text */
	struct origin origin;
};

struct rules {
	struct rule *v;
	size_t n, cap;
};

void rules_add(struct rules *, const char *text, struct origin);
void rules_add_labeled(struct rules *, const char *text, const char *label, struct origin);
bool rules_has(const struct rules *, const char *text);
void rules_free(struct rules *);
/* The vector down to its n rules: a loaded policy is mostly read, and
 * each pane keeps one. */
void rules_shrink(struct rules *);

/* An error names the file, the position, the field and what is wrong:
 * "FILE:LINE:COL: FIELD: what is wrong". Warnings are kept apart and never
 * stop a command. */
struct perr {
	char msg[1024];
	char **warnings;
	size_t nwarnings;
};
void perr_set(struct perr *, const char *file, int line, int col, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Warnings are stored without a prefix; perr_print_warnings() writes each
 * as "sandmux: warning: TEXT". */
void perr_warn(struct perr *, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void perr_print_warnings(const struct perr *, FILE *);
void perr_free(struct perr *);

enum fs_op { OP_READ, OP_WRITE, OP_CREATE, OP_REMOVE, OP_RENAME, OP_EXEC };
const char *fs_op_name(enum fs_op);

enum net_mode {
	NET_NONE,  /* empty network namespace: loopback only */
	NET_PROXY, /* network namespace; the filtering proxy is the only way out */
	NET_HOST,  /* unrestricted (devbox) */
};

enum env_inherit { ENV_INHERIT_ALL, ENV_INHERIT_CORE, ENV_INHERIT_NONE };

/* The environment of a sandboxed command (policy/env.c): a new
 * NULL-terminated array built from envp in the order of DESIGN.md
 * (inherit, default excludes, exclude, set, include_only); strv_free()s it (policy/strv.h).
 * The caller adds SANDMUX_SANDBOX and the other variables sandmux sets. */
struct env_policy;
char **env_build(const struct env_policy *, char *const *envp);

struct env_policy {
	enum env_inherit inherit;
	bool ignore_default_excludes;
	struct rules exclude;      /* case-insensitive globs on names */
	struct rules include_only; /* case-insensitive globs on names */
	struct rules set;          /* "NAME=VALUE" */
};

struct config; /* the merged layers, before a profile is chosen (config.h) */

/* Resource limits of one sandbox (backends/limits.c says how each is
 * enforced). 0: none; LIMIT_UNSET: not given (a profile that sets no
 * limit; the defaults of sandmux.json then apply, see limits_fold). */
#define LIMIT_UNSET (-1L)
struct limits {
	long pids;       /* processes and threads */
	long memory_mib; /* memory, MiB */
	long tmp_mib;    /* what /tmp and /var/tmp may hold, MiB */
};
/* A profile's limits can only lower the defaults: each value becomes the
 * smaller of the two (0, "none", counting as the largest). */
void limits_fold(struct limits *profile, const struct limits *defaults);
/* Each value of into lowered to from's where from's is smaller. */
void limits_lower(struct limits *into, const struct limits *from);

/* A resolved policy: one profile, one workspace. Paths are absolute and
 * normalised (no "//", ".", ".."; symlinks of the workspace resolved by the
 * caller). Globs (deny, protect) are absolute after anchoring at the
 * workspace and use the subset of policy/glob.h. */
struct policy {
	char *profile; /* resolved name, e.g. "workspace" or a custom name */
	char *base;    /* the built-in it derives from */
	struct origin profile_origin;
	char *workspace; /* absolute */
	char *home;      /* absolute */
	char *tmpdir;    /* host path of the session temp dir; NULL until set */

	bool sandboxed;              /* false: "off" or type insecure_none */
	bool read_all;               /* reads everywhere; otherwise only `read` and `write` */
	struct rules read;           /* readable (and executable) roots */
	struct rules write;          /* writable roots */
	struct rules readonly;       /* never writable, even under a writable root (~/.sandmux, /data in devbox) */
	struct rules deny;           /* globs: no read, no write, no rename */
	struct rules protect;        /* globs: write-protected (DESIGN.md "Protected paths") */
	struct rules protect_except; /* globs: writable although under `protect` */
	struct rules ignore;         /* .cursorignore, .sandmuxignore: like deny (policy/ignore.h) */
	bool tmp_writable;           /* !disableTmpWrite */
	bool shared_cache;           /* enableSharedBuildCache */
	bool allow_weaker;           /* allowWeakerSandbox: without user namespaces, the weaker sandbox */
	bool allow_ptrace;           /* devbox only */
	bool capture;                /* outsideWrites "capture": writes outside the write roots land in a
				      * per-pane copy-on-write layer (backends/capture.c) */
	bool denial_hints;           /* "denialHints" (default true): a denied process gets one line on its
				      * stderr when that is a pipe or a terminal (policy/hint.h) */

	struct {
		enum net_mode mode;
		bool default_allow;
		bool strict;        /* networkPolicyStrict */
		struct rules allow; /* domain, *.domain, CIDR, each optionally :port */
		struct rules deny;
		struct origin default_origin;
	} net;

	struct env_policy env;
	struct limits limits; /* the profile's "limits" (LIMIT_UNSET each when none) */

	struct policy_agents *agents; /* agent presets (policy/agents.h); NULL: none */

	struct config *config; /* the merged layers; owns the file names of origins */
};

/* What decided: allow or deny, a human-readable rule ("deny: .env",
 * "networkPolicy: not in allow list", "protected path .git/config"), and
 * where the rule came from. `rule` points into static or policy storage. */
struct decision {
	bool allow;
	const char *rule;
	struct origin origin;
};

/* path.c: path is dir or beneath it, component-wise ("/a" covers "/a/b",
 * not "/ab"); "/" covers every absolute path. The one such test. */
bool path_under(const char *path, const char *dir);

/* path: an absolute host path (normalised lexically here; resolve symlinks
 * first). Order: deny globs (a denied directory covers its contents); for
 * write-like ops the session temp dir (p->tmpdir, when set), then the
 * read-only roots (~/.sandmux...), protected globs minus their exceptions,
 * the write roots; for read/exec read_all, or the read and write roots. */
struct decision policy_decide_path(const struct policy *, const char *path, enum fs_op);
/* For a name a rename takes a directory from or to, or a link makes:
 * denied when a deny glob, an ignore file or a protected path could match
 * something below it, since what is below would move into or out of it
 * (a directory made elsewhere renamed or linked to ".claude" brings its
 * settings.json; a parent renamed away from "/cfg/prod.env" takes the
 * file out). */
struct decision policy_decide_carry(const struct policy *, const char *path);
/* Capture mode: a write to path would be captured (it is refused only
 * for lying outside every writable path: no deny, no protected path, no
 * read-only root such as ~/.sandmux, not the temp dir). */
bool policy_path_captured(const struct policy *, const char *path);
/* A write to path is refused by more than its lying outside the write
 * roots: a deny glob, a read-only root (~/.sandmux), a protected path or
 * the read-only temp dir. Such a path is never applied from a capture
 * layer. The rule into *rule. */
bool policy_path_guarded(const struct policy *, const char *path, const char **rule);

/* host: the name asked for (may be an IP literal or NULL); addr: a resolved
 * address (AF_INET 4 bytes / AF_INET6 16 bytes) or NULL before resolution.
 * port 0 means "any". Order: the profile's network mode, the hardcoded
 * blocks (on the literal and on addr; IPv4-mapped IPv6 folded), the deny
 * rules, the allow rules, networkPolicy.default. Call again with addr once
 * a name is resolved: an allowed name resolving to 10.x is denied. */
struct net_addr {
	int family; /* AF_INET or AF_INET6 */
	uint8_t bytes[16];
};
struct decision policy_decide_host(const struct policy *, const char *host, const struct net_addr *addr, int port);

/* The inputs of a load. NULL fields take the defaults of DESIGN.md. */
struct policy_opts {
	const char *home;               /* $HOME */
	const char *workspace;          /* absolute, canonical */
	const char *user_file;          /* --config: replaces ~/.sandmux/sandbox.json */
	const char *admin_file;         /* default /etc/sandmux/policy.json */
	const char *profile_flag;       /* --sandbox */
	const char *profile_env;        /* $SANDMUX_SANDBOX */
	bool admin_ownership_unchecked; /* tests: accept an admin file not owned by root */
	const char *path_env;           /* $PATH: which agent CLIs are installed (agents.h) */
};

/* Loads and merges every layer, then resolves the profile. Returns 0, or
 * -1 with err->msg set. Warnings (unknown keys, ignored untrusted widening,
 * conflicts) are appended to err->warnings in both cases. */
int policy_load(const struct policy_opts *, struct policy **out, struct perr *err);
void policy_free(struct policy *);

#endif
