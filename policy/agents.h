/* agents: what sandmux knows of the common agent CLIs (claude, codex,
 * gemini, cursor-agent, grok, opencode, aider) and the `agents` and
 * `quiet` keys of sandbox.json (DESIGN.md "Agents").
 *
 * A preset names the paths an agent keeps its state and configuration in
 * (a trailing "/" marks a directory), the API hosts it needs, its
 * telemetry hosts, the arguments that resume its last conversation, and
 * variables that point it at its state. Under a `workspace` profile every
 * enabled preset applies to every pane (an agent may be typed into any
 * shell pane): its API hosts are allowed, its telemetry hosts denied
 * (deny beats allow, so they are refused at once, with no prompt), and,
 * for an agent found on this machine (its program in $PATH or its state
 * on disk), its state paths become a per-workspace shadow under
 * ~/.sandmux/state/agents/<workspace-id>/<agent>/ that the launcher
 * mounts over the real paths (backends/shadow.c). Pure: it decides
 * names and paths; the copies and mounts are the launcher's. */
#ifndef POLICY_AGENTS_H
#define POLICY_AGENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "policy/policy.h"

struct config;

/* One `agents.NAME` object as written; a field not given is NULL/unset
 * and keeps the value of the layer below (or of the built-in preset). */
struct agent_cfg {
	char *name;
	struct origin origin;
	struct rules *paths, *hosts, *telemetry, *resume, *env; /* env: "NAME=VALUE" */
	bool enabled_set, enabled;
};

/* The resolved preset. */
struct policy_agent {
	char *name;
	struct origin origin; /* built-in (no file) or the last file that changed it */
	bool enabled;
	bool present;           /* its program is in $PATH or a state path exists */
	struct rules paths;     /* absolute; a trailing "/" marks a directory */
	struct rules hosts;     /* networkPolicy patterns */
	struct rules telemetry; /* networkPolicy patterns, denied */
	struct rules resume;    /* arguments added to resume the last conversation */
	struct rules env;       /* "NAME=VALUE", "~/" expanded */
	struct rules seed;      /* "FROM=TO": a real file seeded at another place of the shadow */
	struct rules quiet;     /* hosts it can do without: denials never prompt (built in only) */
};

/* Per-workspace agent state: NULL state when none applies. */
struct policy_agents {
	struct policy_agent *v;
	size_t n;
	char *state;             /* host dir ~/.sandmux/state/agents/<workspace-id> */
	struct rules shadow;     /* real paths shadowed (no trailing "/"); label names the agent */
	struct rules shadow_src; /* the same index: STATE/AGENT/<path below $HOME>; label "dir" or "file" */
	struct rules quiet;      /* path globs whose denials never prompt */
	struct rules quiet_hosts;
};

/* merge.c: upper's definitions are applied after into's. */
void agents_cfg_merge(struct config *into, struct config *upper);
/* trust.c: an untrusted per-repo file keeps only `enabled: false` and
 * `quiet`; true when something was dropped. */
bool agents_cfg_drop_widening(struct config *repo);
void agents_cfg_free(struct config *);

/* profile.c: resolves the presets against cfg and applies them to p
 * (see the top of this file). path_env: $PATH, for presence; may be NULL. */
void agents_apply(struct policy *, const struct config *, const char *path_env);
void agents_free(struct policy_agents *);
/* Each rule vector down to its length (rules_shrink). */
void agents_shrink(struct policy_agents *);

/* The preset named so, or NULL. */
const struct policy_agent *agents_find(const struct policy *, const char *name);
/* The enabled preset whose program argv0 names ("claude",
 * "/usr/local/bin/codex": the base name), or NULL. */
const struct policy_agent *agents_for_command(const struct policy *, const char *argv0);
/* The per-workspace history dir, STATE/history, or NULL. */
const char *agents_history_dir(const struct policy *, char *buf, size_t size);

/* Whether a denial of path / host is one that never prompts. */
bool agents_quiet_path(const struct policy *, const char *path);
bool agents_quiet_host(const struct policy *, const char *host);
/* Whether host is one the enabled preset `agent` tries but does without
 * (codex's github.com). Such a denial raises no prompt while that agent
 * runs in the pane (denial-sink.c); anywhere else it is an ordinary
 * denial that a person may approve (`git clone` in a shell pane). Two
 * presets may name the same host (claude's and codex's
 * raw.githubusercontent.com): each is asked about its own. */
bool agents_quiet_for(const struct policy *, const char *agent, const char *host);
/* Whether an enabled preset names host (its API, telemetry or quiet
 * hosts): the proxy never holds such a connection for a prompt, since an
 * agent checking its own hosts at start would hang for the whole hold. */
bool agents_names_host(const struct policy *, const char *host);

/* "name-0123456789ab": the workspace's id under ~/.sandmux/state/agents/. */
void agents_workspace_id(const char *workspace, char *buf, size_t size);

#endif
