/* agents: the built-in presets, their overrides from sandbox.json, and
 * what they add to a policy (agents.h). */
#include "policy/agents.h"
#include "policy/paths.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/config.h"
#include "policy/glob.h"
#include "policy/net.h"
#include "policy/sha256.h"

/* One preset as built in; lists end with NULL. */
struct preset {
	const char *name;
	const char *paths[6];
	const char *hosts[8];
	const char *telemetry[6];
	const char *resume[3];
	const char *env[2];
	const char *seed[2];
	const char *quiet[4]; /* hosts it tries that it does without: refused, never a prompt */
};

/* Paths and hosts as the CLIs use them (checked against their current
 * releases where they could be run here: claude 2.1, codex 0.171, gemini
 * 0.61). claude keeps .claude.json in CLAUDE_CONFIG_DIR when that is set,
 * so pointing it at ~/.claude keeps its temp file + rename inside the
 * shadowed directory, where a rename works (a bind-mounted file cannot
 * be replaced). */
static const struct preset presets[] = {
	{ .name = "claude",
	  .paths = { "~/.claude/", "~/.claude.json" },
	  .hosts = { "api.anthropic.com", "console.anthropic.com", "claude.ai", "*.claude.ai", "*.claude.com" },
	  .telemetry = { "statsig.anthropic.com", "*.statsig.com", "*.sentry.io", "*.datadoghq.com" },
	  .resume = { "--continue" },
	  .env = { "CLAUDE_CONFIG_DIR=~/.claude" },
	  .seed = { "~/.claude.json=~/.claude/.claude.json" },
	  .quiet = { "raw.githubusercontent.com" } },
	{ .name = "codex",
	  .paths = { "~/.codex/" },
	  .hosts = { "api.openai.com", "chatgpt.com", "auth.openai.com" },
	  .telemetry = { "ab.chatgpt.com", "*.sentry.io" },
	  .resume = { "resume", "--last" },
	  .quiet = { "github.com", "api.github.com", "raw.githubusercontent.com" } },
	{ .name = "gemini",
	  .paths = { "~/.gemini/" },
	  .hosts = { "generativelanguage.googleapis.com", "cloudcode-pa.googleapis.com", "oauth2.googleapis.com",
		     "accounts.google.com" },
	  .telemetry = { "play.googleapis.com" },
	  .resume = { "--resume", "latest" } },
	{ .name = "cursor-agent",
	  .paths = { "~/.cursor/", "~/.config/cursor/" },
	  .hosts = { "*.cursor.sh" },
	  .telemetry = { "*.sentry.io" },
	  .resume = { "resume" } },
	{ .name = "grok", .paths = { "~/.grok/" }, .hosts = { "api.x.ai" } },
	{ .name = "opencode",
	  .paths = { "~/.local/share/opencode/", "~/.config/opencode/", "~/.local/state/opencode/",
		     "~/.cache/opencode/" },
	  .hosts = { "opencode.ai", "models.dev" },
	  .resume = { "--continue" } },
	{ .name = "aider",
	  .paths = { "~/.aider/" },
	  .hosts = { "api.openai.com", "api.anthropic.com" },
	  .telemetry = { "*.posthog.com", "api.mixpanel.com" },
	  .resume = { "--restore-chat-history" } },
};
#define NPRESETS (sizeof presets / sizeof presets[0])

/* Denials that never prompt unless sandbox.json's `quiet` says more:
 * TUIs saving their settings, and the histories sandmux points
 * elsewhere (a program that ignores the variable is refused quietly). */
static const char *const quiet_default[] = {
	"~/.config/htop/**",      "~/.config/procps/**", "~/.toprc",          "~/.bash_history",
	"~/.zsh_history",         "~/.lesshst",          "~/.python_history", "~/.node_repl_history",
	"~/.sqlite_history",      "~/.psql_history",     "~/.mysql_history",  "~/.wget-hsts",
	"~/.local/state/less/**",
};

static const struct origin builtin = { .file = "built-in", .layer = LAYER_DEFAULT };

static void add_list(struct rules *r, const char *const *v, size_t max)
{
	for (size_t i = 0; i < max && v[i] != NULL; i++)
		rules_add(r, v[i], builtin);
}

static void copy_list(struct rules *into, const struct rules *from)
{
	rules_free(into);
	for (size_t i = 0; i < from->n; i++)
		rules_add(into, from->v[i].text, from->v[i].origin);
}

static struct policy_agent *agent_add(struct policy_agents *a, const char *name, struct origin o)
{
	struct policy_agent *v = realloc(a->v, (a->n + 1) * sizeof *v);
	if (v == NULL)
		abort();
	a->v = v;
	struct policy_agent *ag = &v[a->n++];
	memset(ag, 0, sizeof *ag);
	ag->name = strdup(name);
	ag->origin = o;
	ag->enabled = true;
	return ag;
}

static void agent_builtin(struct policy_agents *a, const struct preset *ps)
{
	struct policy_agent *ag = agent_add(a, ps->name, builtin);
	add_list(&ag->paths, ps->paths, 6);
	add_list(&ag->hosts, ps->hosts, 8);
	add_list(&ag->telemetry, ps->telemetry, 6);
	add_list(&ag->resume, ps->resume, 3);
	add_list(&ag->env, ps->env, 2);
	add_list(&ag->seed, ps->seed, 2);
	add_list(&ag->quiet, ps->quiet, 4);
}

static struct policy_agent *agent_lookup(struct policy_agents *a, const char *name)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].name, name) == 0)
			return &a->v[i];
	return NULL;
}

/* One sandbox.json definition over what is there: a new agent, or the
 * fields it gives replacing the preset's. */
static void agent_override(struct policy_agents *a, const struct agent_cfg *c)
{
	struct policy_agent *ag = agent_lookup(a, c->name);
	if (ag == NULL)
		ag = agent_add(a, c->name, c->origin);
	ag->origin = c->origin;
	struct rules *dst[] = { &ag->paths, &ag->hosts, &ag->telemetry, &ag->resume, &ag->env };
	const struct rules *src[] = { c->paths, c->hosts, c->telemetry, c->resume, c->env };
	for (size_t i = 0; i < sizeof dst / sizeof dst[0]; i++)
		if (src[i] != NULL)
			copy_list(dst[i], src[i]);
	if (c->enabled_set)
		ag->enabled = c->enabled;
}

/* "~/.claude/" -> HOME/.claude (no trailing slash); *dir says it had one. */
static char *home_path(const struct policy *p, const char *entry, bool *dir)
{
	size_t n = strlen(entry);
	*dir = n > 0 && entry[n - 1] == '/';
	return path_expand(entry, p->home);
}

/* $PATH's directories, each opened once: every agent is looked up in
 * each, and a lookup of one name from an open directory is cheaper than
 * a walk of the whole path (7 agents in 12 directories made 84 of those
 * before each start). The same directory named twice (a duplicate, /bin
 * and /usr/bin on a merged /usr) and what is no directory are left out:
 * nothing could be found there that was not found before. */
#define PATH_DIRS_MAX 64
struct path_dirs {
	size_t n;
	int fd[PATH_DIRS_MAX];
};

static void path_dirs_open(const char *path_env, struct path_dirs *pd)
{
	char dir[4096];
	struct stat seen[PATH_DIRS_MAX];
	pd->n = 0;
	for (const char *d = path_env; d != NULL && *d && pd->n < PATH_DIRS_MAX;
	     d = strchr(d, ':') ? strchr(d, ':') + 1 : NULL) {
		int n = (int)strcspn(d, ":");
		if (n == 0 || snprintf(dir, sizeof dir, "%.*s", n, d) >= (int)sizeof dir)
			continue;
		int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		struct stat *st = &seen[pd->n];
		bool dup = fd < 0 || fstat(fd, st) < 0;
		for (size_t i = 0; !dup && i < pd->n; i++)
			dup = seen[i].st_dev == st->st_dev && seen[i].st_ino == st->st_ino;
		if (dup && fd >= 0)
			close(fd);
		else if (!dup)
			pd->fd[pd->n++] = fd;
	}
}

static void path_dirs_close(struct path_dirs *pd)
{
	for (size_t i = 0; i < pd->n; i++)
		close(pd->fd[i]);
	pd->n = 0;
}

static bool in_path(const char *name, const struct path_dirs *pd)
{
	for (size_t i = 0; i < pd->n; i++)
		if (faccessat(pd->fd[i], name, X_OK, 0) == 0)
			return true;
	return false;
}

/* Its state in HOME first: one lstat() or a few, where $PATH takes one
 * lookup per directory. */
static bool agent_present(const struct policy *p, const struct policy_agent *ag, const struct path_dirs *pd)
{
	for (size_t i = 0; i < ag->paths.n; i++) {
		bool dir;
		struct stat st;
		char *path = home_path(p, ag->paths.v[i].text, &dir);
		bool there = path != NULL && lstat(path, &st) == 0;
		free(path);
		if (there)
			return true;
	}
	return in_path(ag->name, pd);
}

/* The shadowed paths of one agent: directories always (the launcher
 * makes a missing one), files only when they exist (a missing file
 * cannot be covered). */
static void agent_shadows(struct policy *p, const struct policy_agent *ag)
{
	struct policy_agents *a = p->agents;
	char label[128], src[8192];
	snprintf(label, sizeof label, "agent %s: state shadow", ag->name);
	for (size_t i = 0; i < ag->paths.n; i++) {
		bool dir;
		struct stat st;
		char *path = home_path(p, ag->paths.v[i].text, &dir), *real = path ? realpath(path, NULL) : NULL;
		if (real != NULL) { /* a symlinked state dir: its target is what gets covered */
			free(path);
			path = real;
		}
		if (path == NULL || strcmp(path, p->home) == 0 || strncmp(path, p->home, strlen(p->home)) != 0 ||
		    (!dir && (lstat(path, &st) < 0 || !S_ISREG(st.st_mode))) || rules_has(&a->shadow, path)) {
			free(path);
			continue;
		}
		snprintf(src, sizeof src, "%s/%s%s", a->state, ag->name, path + strlen(p->home));
		rules_add_labeled(&a->shadow, path, label, ag->paths.v[i].origin);
		rules_add_labeled(&a->shadow_src, src, dir ? "dir" : "file", ag->paths.v[i].origin);
		free(path);
	}
}

static void add_labeled_list(struct rules *into, const struct rules *from, const char *name, const char *what)
{
	char label[160];
	snprintf(label, sizeof label, "agent %s: %s", name, what);
	for (size_t i = 0; i < from->n; i++)
		if (!rules_has(into, from->v[i].text))
			rules_add_labeled(into, from->v[i].text, label, from->v[i].origin);
}

/* env entries of a present agent, "~/" expanded; an env.set of the
 * person's own naming the same variable wins. */
static void agent_env(struct policy *p, const struct policy_agent *ag)
{
	for (size_t i = 0; i < ag->env.n; i++) {
		const char *kv = ag->env.v[i].text, *eq = strchr(kv, '=');
		if (eq == NULL)
			continue;
		size_t n = (size_t)(eq - kv) + 1;
		bool taken = false;
		for (size_t k = 0; k < p->env.set.n; k++)
			taken |= strncmp(p->env.set.v[k].text, kv, n) == 0;
		if (taken)
			continue;
		char *val = eq[1] == '~' ? path_expand(eq + 1, p->home) : strdup(eq + 1), *entry;
		if (val != NULL && asprintf(&entry, "%.*s%s", (int)n, kv, val) >= 0) {
			rules_add_labeled(&p->env.set, entry, "agent preset", ag->env.v[i].origin);
			free(entry);
		}
		free(val);
	}
}

static void quiet_fill(struct policy *p, const struct config *cfg)
{
	struct policy_agents *a = p->agents;
	for (size_t i = 0; i < sizeof quiet_default / sizeof quiet_default[0]; i++) {
		char *g = path_expand(quiet_default[i], p->home);
		if (g != NULL)
			rules_add_labeled(&a->quiet, g, "quiet (default)", builtin);
		free(g);
	}
	for (size_t i = 0; i < cfg->quiet.n; i++) {
		const struct rule *r = &cfg->quiet.v[i];
		rules_add_labeled(r->text[0] == '/' ? &a->quiet : &a->quiet_hosts, r->text, "quiet", r->origin);
	}
}

void agents_workspace_id(const char *workspace, char *buf, size_t size)
{
	char hex[65];
	const char *base = strrchr(workspace, '/');
	base = base != NULL && base[1] ? base + 1 : "root";
	sha256_hex(workspace, strlen(workspace), hex);
	char name[33];
	size_t k = 0;
	for (; *base && k < sizeof name - 1; base++) /* a file name, whatever the workspace is called */
		name[k++] = strchr("/ \t\n", *base) == NULL ? *base : '_';
	name[k] = '\0';
	snprintf(buf, size, "%s-%.12s", name, hex);
}

void agents_apply(struct policy *p, const struct config *cfg, const char *path_env)
{
	if (p->agents == NULL && (p->agents = calloc(1, sizeof *p->agents)) == NULL)
		abort();
	struct policy_agents *a = p->agents;
	for (size_t i = 0; i < NPRESETS; i++)
		agent_builtin(a, &presets[i]);
	for (size_t i = 0; i < cfg->nagents; i++)
		agent_override(a, &cfg->agents[i]);
	quiet_fill(p, cfg);
	/* The presets are for the profile agents run in: workspace and the
	 * custom profiles built on it. */
	if (!p->sandboxed || strcmp(p->base, "workspace") != 0 || p->home == NULL || p->workspace == NULL)
		return;
	char id[64];
	agents_workspace_id(p->workspace, id, sizeof id);
	if (asprintf(&a->state, "%s/%s/%s", p->home, sm_path_rel(SM_PATH_AGENTS), id) < 0)
		abort();
	/* An admin allow list replaces every other (DESIGN.md): presets add none. */
	bool admin_allow = false;
	for (size_t i = 0; i < cfg->net_allow.n; i++)
		admin_allow |= cfg->net_allow.v[i].origin.layer == LAYER_ADMIN;
	struct path_dirs pd;
	path_dirs_open(path_env, &pd);
	for (size_t i = 0; i < a->n; i++) {
		struct policy_agent *ag = &a->v[i];
		if (!ag->enabled)
			continue;
		if (!admin_allow)
			add_labeled_list(&p->net.allow, &ag->hosts, ag->name, "API host");
		add_labeled_list(&p->net.deny, &ag->telemetry, ag->name, "telemetry, refused");
		ag->present = agent_present(p, ag, &pd);
		if (ag->present) {
			agent_shadows(p, ag);
			agent_env(p, ag);
		}
	}
	path_dirs_close(&pd);
}

void agents_free(struct policy_agents *a)
{
	for (size_t i = 0; i < a->n; i++) {
		struct policy_agent *ag = &a->v[i];
		free(ag->name);
		rules_free(&ag->paths);
		rules_free(&ag->hosts);
		rules_free(&ag->telemetry);
		rules_free(&ag->resume);
		rules_free(&ag->env);
		rules_free(&ag->seed);
		rules_free(&ag->quiet);
	}
	free(a->v);
	free(a->state);
	rules_free(&a->shadow);
	rules_free(&a->shadow_src);
	rules_free(&a->quiet);
	rules_free(&a->quiet_hosts);
	memset(a, 0, sizeof *a);
}

const struct policy_agent *agents_find(const struct policy *p, const char *name)
{
	for (size_t i = 0; name != NULL && p->agents != NULL && i < p->agents->n; i++)
		if (strcmp(p->agents->v[i].name, name) == 0)
			return &p->agents->v[i];
	return NULL;
}

const struct policy_agent *agents_for_command(const struct policy *p, const char *argv0)
{
	if (argv0 == NULL)
		return NULL;
	const char *base = strrchr(argv0, '/');
	const struct policy_agent *ag = agents_find(p, base != NULL ? base + 1 : argv0);
	return ag != NULL && ag->enabled ? ag : NULL;
}

const char *agents_history_dir(const struct policy *p, char *buf, size_t size)
{
	if (p->agents == NULL || p->agents->state == NULL ||
	    snprintf(buf, size, "%s/history", p->agents->state) >= (int)size)
		return NULL;
	return buf;
}

bool agents_quiet_path(const struct policy *p, const char *path)
{
	for (size_t i = 0; path != NULL && p->agents != NULL && i < p->agents->quiet.n; i++)
		if (glob_match_parents(p->agents->quiet.v[i].text, path))
			return true;
	return false;
}

static bool host_in(const struct rules *r, const char *host)
{
	char err[NET_ERR_MAX];
	struct host_pattern hp;
	for (size_t i = 0; host != NULL && i < r->n; i++)
		if (host_pattern_parse(r->v[i].text, &hp, err) == 0 && host_pattern_match(&hp, host, NULL, 0))
			return true;
	return false;
}

bool agents_quiet_host(const struct policy *p, const char *host)
{
	return p->agents != NULL && host_in(&p->agents->quiet_hosts, host);
}

bool agents_quiet_for(const struct policy *p, const char *agent, const char *host)
{
	for (size_t i = 0; p->agents != NULL && i < p->agents->n; i++) {
		const struct policy_agent *ag = &p->agents->v[i];
		if (ag->enabled && strcmp(ag->name, agent) == 0 && host_in(&ag->quiet, host))
			return true;
	}
	return false;
}

bool agents_names_host(const struct policy *p, const char *host)
{
	for (size_t i = 0; p->agents != NULL && i < p->agents->n; i++) {
		const struct policy_agent *ag = &p->agents->v[i];
		if (ag->enabled &&
		    (host_in(&ag->hosts, host) || host_in(&ag->telemetry, host) || host_in(&ag->quiet, host)))
			return true;
	}
	return false;
}

static void agent_cfg_free(struct agent_cfg *c)
{
	struct rules **lists[] = { &c->paths, &c->hosts, &c->telemetry, &c->resume, &c->env };
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		if (*lists[i] != NULL)
			rules_free(*lists[i]);
		free(*lists[i]);
		*lists[i] = NULL;
	}
	free(c->name);
	c->name = NULL;
}

void agents_cfg_free(struct config *cfg)
{
	for (size_t i = 0; i < cfg->nagents; i++)
		agent_cfg_free(&cfg->agents[i]);
	free(cfg->agents);
	cfg->agents = NULL;
	cfg->nagents = 0;
	rules_free(&cfg->quiet);
}

void agents_cfg_merge(struct config *into, struct config *upper)
{
	size_t n = into->nagents + upper->nagents;
	struct agent_cfg *v = realloc(into->agents, (n ? n : 1) * sizeof *v);
	if (v == NULL)
		abort();
	if (upper->nagents > 0)
		memcpy(v + into->nagents, upper->agents, upper->nagents * sizeof *v);
	into->agents = v;
	into->nagents = n;
	free(upper->agents);
	upper->agents = NULL;
	upper->nagents = 0;
	for (size_t i = 0; i < upper->quiet.n; i++)
		if (!rules_has(&into->quiet, upper->quiet.v[i].text))
			rules_add(&into->quiet, upper->quiet.v[i].text, upper->quiet.v[i].origin);
}

/* What a hostile repo could use: new state paths (shadowed, so writable
 * copies), API hosts (network), a shorter telemetry list, resume
 * arguments and variables (what a restart runs), turning an agent on. */
bool agents_cfg_drop_widening(struct config *repo)
{
	bool dropped = false;
	for (size_t i = 0; i < repo->nagents; i++) {
		struct agent_cfg *c = &repo->agents[i];
		struct rules **lists[] = { &c->paths, &c->hosts, &c->telemetry, &c->resume, &c->env };
		for (size_t k = 0; k < sizeof lists / sizeof lists[0]; k++) {
			if (*lists[k] == NULL)
				continue;
			rules_free(*lists[k]);
			free(*lists[k]);
			*lists[k] = NULL;
			dropped = true;
		}
		if (c->enabled_set && c->enabled) {
			c->enabled_set = false;
			dropped = true;
		}
	}
	return dropped;
}

void agents_shrink(struct policy_agents *a)
{
	if (a == NULL)
		return;
	for (size_t i = 0; i < a->n; i++) {
		struct policy_agent *ag = &a->v[i];
		struct rules *r[] = { &ag->paths, &ag->hosts, &ag->telemetry, &ag->resume,
				      &ag->env,   &ag->seed,  &ag->quiet };
		for (size_t k = 0; k < sizeof r / sizeof *r; k++)
			rules_shrink(r[k]);
	}
	rules_shrink(&a->shadow);
	rules_shrink(&a->shadow_src);
	rules_shrink(&a->quiet);
	rules_shrink(&a->quiet_hosts);
}
