/* paths: sandmux's own files and directories, named once. Every layer
 * builds them from this table (policy/ reads them, backends/ and shell/
 * write them), and the read-only roots every sandbox gets come from the
 * same table (profile.c), so "everything sandmux reads is write-protected
 * inside a sandbox" (DESIGN.md) holds for every name listed here.
 * Pure: it joins names to a home it is given and reads no environment. */
#ifndef POLICY_PATHS_H
#define POLICY_PATHS_H

#include <stdbool.h>
#include <stddef.h>

/* Names relative to HOME. */
enum sm_path {
	SM_PATH_DIR,           /* ~/.sandmux: policy, records, state */
	SM_PATH_USER_POLICY,   /* ~/.sandmux/sandbox.json */
	SM_PATH_CURSOR_POLICY, /* ~/.cursor/sandbox.json, the same layer */
	SM_PATH_CONFIG,        /* ~/.sandmux/sandmux.json, the multiplexer's settings */
	SM_PATH_TRUST,         /* ~/.sandmux/trust.json, trusted per-repo files */
	SM_PATH_STATE,         /* ~/.sandmux/state */
	SM_PATH_TMP,           /* ~/.sandmux/state/tmp: session temp dirs */
	SM_PATH_SHARED_CACHE,  /* ~/.sandmux/state/tmp/shared-cache (enableSharedBuildCache) */
	SM_PATH_DENIALS,       /* ~/.sandmux/state/denials.jsonl */
	SM_PATH_SERVER_LOG,    /* ~/.sandmux/state/server.log */
	SM_PATH_SHELL,         /* ~/.sandmux/state/shell: shell-integration scripts */
	SM_PATH_CAPTURE,       /* ~/.sandmux/state/capture/SESSION/PANE: capture layers */
	SM_PATH_AGENTS,        /* ~/.sandmux/state/agents/WORKSPACE-ID: shadows, histories */
	SM_PATH_COUNT
};

/* What a sandbox may do with an entry. */
enum sm_access {
	SM_READONLY, /* never written from inside */
	/* read-only, except one child a rule of its own makes writable: the
	 * session's own temp dir, the shared cache when asked for, this
	 * workspace's agent state (policy/decide.c) */
	SM_OWN_CHILD,
};

struct sm_path_entry {
	const char *rel; /* relative to HOME, no trailing slash */
	enum sm_access access;
	const char *root; /* a read-only root of every sandbox: why, for its rule's label;
			       * NULL: it lies beneath one */
};

/* The table, indexed by enum sm_path. */
extern const struct sm_path_entry sm_paths[SM_PATH_COUNT];

/* The name relative to HOME. */
const char *sm_path_rel(enum sm_path);
/* Its last component ("shared-cache"). */
const char *sm_path_base(enum sm_path);
/* Whether home can hold sandmux's files: set and absolute. */
bool sm_home_ok(const char *home);
/* home/REL into buf: 0, or -1 when home is not absolute or buf is too
 * small (buf then holds ""). */
int sm_path(const char *home, enum sm_path, char *buf, size_t len);

/* Names relative to a workspace: sandmux's directory there (all of it
 * write-protected, profile.c) and the per-repo policy files, in the order
 * they are merged (the later one wins). */
#define SM_REPO_DIR    ".sandmux"
#define SM_REPO_NFILES 2
extern const char *const sm_repo_files[SM_REPO_NFILES]; /* .cursor/sandbox.json, .sandmux/sandbox.json */

/* The socket directory (shell/sockdir.c) is not under HOME: it is
 * $XDG_RUNTIME_DIR/SM_SOCKDIR_XDG, or SM_SOCKDIR_TMP with the uid; no
 * sandbox sees either (backends/ns.c hides $XDG_RUNTIME_DIR, and /tmp
 * inside is the session's own temp dir). */
#define SM_SOCKDIR_XDG "sandmux"
#define SM_SOCKDIR_TMP "/tmp/sandmux-%u"

#endif
