/* config: one sandbox.json file as a layer, and the merge of layers.
 *
 * The same struct holds one file (config_parse) and the merge of several
 * (config_merge). Every value keeps its origin; origins point at file
 * names owned by the struct (`files`), which move along in a merge. */
#ifndef POLICY_CONFIG_H
#define POLICY_CONFIG_H

#include "policy/agents.h"
#include "policy/policy.h"

struct opt_str {
	char *v; /* NULL: not set */
	struct origin o;
};

struct opt_bool {
	bool set, v;
	struct origin o;
};

/* A custom profile as written; entries are anchored by profile.c. */
struct profile_def {
	char *name;
	struct origin origin;
	struct opt_str extends;
	struct rules read_write, read_only, deny;
	struct opt_bool restrict_network;
	struct limits limits;          /* "limits": {"pids", "memory", "tmp"}; LIMIT_UNSET each when absent */
	struct opt_str outside_writes; /* "deny", "capture" */
	struct opt_bool denial_hints;
};

struct env_cfg {
	struct opt_str inherit; /* "all", "core", "none" */
	struct opt_bool ignore_default_excludes;
	struct rules exclude, include_only, set; /* set: "NAME=VALUE" */
};

struct config {
	struct opt_str type;         /* workspace_readwrite, workspace_readonly, insecure_none */
	struct rules add_rw, add_ro; /* absolute, normalised, "~/" expanded */
	struct opt_bool disable_tmp_write, shared_cache, net_strict;
	struct opt_bool weaker;     /* allowWeakerSandbox */
	struct opt_str net_default; /* "allow", "deny" */
	struct rules net_allow, net_deny;
	bool net_allow_set; /* the key is present (an admin list replaces) */
	struct opt_str profile;
	struct opt_str outside_writes; /* "deny", "capture" */
	struct opt_bool denial_hints;  /* "denialHints" */
	struct profile_def *profiles;
	size_t nprofiles;
	struct env_cfg env;
	struct agent_cfg *agents; /* `agents`, in layer order (agents.c resolves them) */
	size_t nagents;
	struct rules quiet; /* `quiet`: path globs (absolute) and host patterns */

	enum layer layer; /* of the file; after a merge, the highest */
	char **files;     /* every file read into this config */
	size_t nfiles;
	enum layer *file_layers;
};

/* Parses text as a file of the given layer into cfg (zeroed by the
 * caller). home expands "~/". 0, or -1 with err->msg. Unknown keys warn. */
int config_parse(struct config *cfg, const char *file, const char *text, size_t len, enum layer, const char *home,
		 struct perr *err);
#define CONFIG_MAX_BYTES (1 << 20) /* a policy file, a trust record, sandmux.json */

/* Reads a whole policy file (at most 1 MiB) into *text (NUL-terminated,
 * caller frees): 1 read, 0 absent, -1 error (err set). */
int config_read_file(const char *file, char **text, size_t *len, struct perr *err);
/* Keeps a copy of file among cfg's files (listed as read) and returns it:
 * what origins point at. */
const char *config_own_file(struct config *cfg, const char *file, enum layer);
/* Reads a per-repo policy file, rel (".sandmux/sandbox.json" or
 * ".cursor/sandbox.json") of the workspace: refused (-1, one line naming
 * the file) when a symbolic link is on its way below the workspace (the
 * file, or a symlinked .sandmux/ or .cursor/), when it is not a regular
 * file or has another hard link, since each would let what names it live
 * somewhere a sandbox can write. 1 read, 0 absent. */
int config_read_repo_file(const char *workspace, const char *rel, char **text, size_t *len, struct perr *err);
/* Reads and parses a file: 1 loaded, 0 absent, -1 error. */
int config_load(struct config *cfg, const char *file, enum layer, const char *home, struct perr *err);
void config_free(struct config *);

/* Merges `upper` (a higher layer) into `into` by DESIGN.md's rules, and
 * takes its file names. Conflicts warn. */
void config_merge(struct config *into, struct config *upper, struct perr *err);

/* Trust: removes from `repo` the parts that would widen `below` (the
 * merged lower layers) and writes their field names, comma-separated,
 * into ignored (empty when nothing was dropped). */
void config_drop_widening(struct config *repo, const struct config *below, char *ignored, size_t size);

void profile_def_free(struct profile_def *);
const struct profile_def *config_profile(const struct config *, const char *name);
bool profile_is_builtin(const char *name);

/* "~/x" -> HOME/x; absolute paths normalised (no //, ., ..). NULL when
 * the result is not absolute. Caller frees. */
char *path_expand(const char *path, const char *home);
/* Lexical normalisation of an absolute path into a new string. */
char *path_normalize(const char *path);

#endif
