/* profile: resolves the profile name (flag > $SANDMUX_SANDBOX > config >
 * "workspace") and fills a struct policy from the merged config, per the
 * profile table of DESIGN.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/config.h"
#include "policy/gitdirs.h"
#include "policy/glob.h"
#include "policy/paths.h"
#include "policy/profile.h"

#define EXTENDS_MAX 8

static const struct origin hardcoded = { .layer = LAYER_HARDCODED };

/* DESIGN.md "Protected paths", relative to the workspace. */
static const char *const protected_globs[] = {
	".cursor/*.json",       ".cursor/**/*.json", ".cursor/.workspace-trusted",
	".claude/*.json",       ".claude/**/*.json", ".vscode/**",
	"*.code-workspace",     ".git/hooks/**",     ".git/config",
	".git/info/attributes", ".cursorignore",     ".sandmuxignore",
	SM_REPO_DIR "/**",
};
static const char *const protected_except[] = { ".cursor/rules", ".cursor/commands", ".cursor/worktrees",
						".cursor/skills", ".cursor/agents" };
static const char *const system_roots[] = { "/usr", "/lib",  "/lib32", "/lib64", "/libx32",
					    "/bin", "/sbin", "/etc",   "/opt" };
static const char *const tls_roots[] = { "/etc/ssl", "/etc/pki", "/etc/ca-certificates", "/usr/share/ca-certificates",
					 "/usr/local/share/ca-certificates" };
static const char *const devbox_readonly[] = { "/data", "/proc", "/sys", "/dev" };

/* Relative entries anchor at the workspace, "~/" at home. A path that
 * exists is resolved, as the kernel and the observer see it; globs stay
 * lexical (their directories are resolved when the workspace is). */
static char *anchor(const struct policy *p, const char *entry)
{
	char *tmp, *r;
	if (entry[0] == '/' || entry[0] == '~') {
		r = path_expand(entry, p->home);
	} else {
		if (asprintf(&tmp, "%s/%s", p->workspace, entry) < 0)
			abort();
		r = path_normalize(tmp);
		free(tmp);
	}
	char *real = r && !glob_is_pattern(r) ? realpath(r, NULL) : NULL;
	if (real) {
		free(r);
		r = real;
	}
	return r;
}

static void add_anchored(struct policy *p, struct rules *r, const char *entry, const char *label_kind, struct origin o)
{
	char *path = anchor(p, entry), *label = NULL;
	if (!path)
		return; /* "~user": refused at load */
	if (label_kind && asprintf(&label, "%s: %s", label_kind, entry) < 0)
		abort();
	if (!rules_has(r, path))
		rules_add_labeled(r, path, label, o);
	free(label);
	free(path);
}

static void add_list(struct policy *p, struct rules *r, const char *const *v, size_t n, const char *kind,
		     struct origin o)
{
	for (size_t i = 0; i < n; i++)
		add_anchored(p, r, v[i], kind, o);
}
#define ADD_LIST(p, r, arr, kind, o) add_list((p), (r), (arr), sizeof(arr) / sizeof((arr)[0]), (kind), (o))

static void add_rules(struct policy *p, struct rules *into, const struct rules *from, const char *kind)
{
	for (size_t i = 0; i < from->n; i++)
		add_anchored(p, into, from->v[i].text, kind, from->v[i].origin);
}

/* The chain from the chosen profile up to its built-in base; chain[0] is
 * the chosen one. Returns the length, or -1 on an unknown name or a loop. */
static int profile_chain(const struct config *cfg, const char *name, struct origin o, const struct profile_def **chain,
			 const char **base, struct perr *err)
{
	int n = 0;
	char field[128] = "profile";
	while (!profile_is_builtin(name)) {
		const struct profile_def *d = config_profile(cfg, name);
		if (!d) {
			perr_set(err, o.file, o.line, o.col, o.line ? field : NULL,
				 "unknown profile \"%s\" (built-in: workspace, read-only, strict, devbox, off)", name);
			return -1;
		}
		if (n == EXTENDS_MAX) {
			perr_set(err, d->origin.file, d->origin.line, d->origin.col, field,
				 "profiles extend each other in a loop or more than %d deep", EXTENDS_MAX);
			return -1;
		}
		chain[n++] = d;
		name = d->extends.v ? d->extends.v : "workspace";
		o = d->extends.v ? d->extends.o : d->origin;
		snprintf(field, sizeof field, "profiles.%.64s.extends", d->name);
	}
	*base = name;
	return n;
}

static void fill_roots(struct policy *p, const struct config *cfg)
{
	const char *type = cfg->type.v ? cfg->type.v : "workspace_readwrite";
	bool ws_write = strcmp(type, "workspace_readonly") != 0 && strcmp(p->base, "read-only") != 0;
	struct origin wso = cfg->type.v ? cfg->type.o : p->profile_origin;
	p->read_all = strcmp(p->base, "strict") != 0;
	if (strcmp(p->base, "devbox") == 0) {
		rules_add_labeled(&p->write, "/", "profile devbox: writes everywhere", p->profile_origin);
		ADD_LIST(p, &p->readonly, devbox_readonly, "profile devbox: read-only", p->profile_origin);
	} else if (ws_write) {
		rules_add_labeled(&p->write, p->workspace, "workspace", wso);
		add_rules(p, &p->write, &cfg->add_rw, "additionalReadwritePaths");
	}
	if (!p->read_all) {
		rules_add_labeled(&p->read, p->workspace, "workspace", p->profile_origin);
		ADD_LIST(p, &p->read, system_roots, "profile strict: system path", p->profile_origin);
	}
	ADD_LIST(p, &p->read, tls_roots, "TLS certificates", hardcoded);
	add_anchored(p, &p->read, "~/.ssh", "hardcoded: ~/.ssh is always readable", hardcoded);
	add_rules(p, &p->read, &cfg->add_ro, "additionalReadonlyPaths");
}

/* Git metadata beyond the fixed globs that host git would run code from
 * (gitdirs.h): looked up once, at load, only for a sandbox. */
static void fill_git(struct policy *p)
{
	struct strv globs = { 0 }, files = { 0 };
	if (!p->sandboxed || p->workspace == NULL)
		return;
	if (gitdirs_protected(p->workspace, &globs, &files) < 0)
		abort(); /* out of memory, as everywhere in the policy */
	for (size_t i = 0; i < globs.n; i++)
		add_anchored(p, &p->protect, globs.v[i], "hardcoded: git metadata", hardcoded);
	for (size_t i = 0; i < files.n; i++)
		add_anchored(p, &p->readonly, files.v[i], "hardcoded: git metadata", hardcoded);
	strv_free(globs.v);
	strv_free(files.v);
}

/* sandmux's own files: never writable from inside (DESIGN.md invariant). */
static void fill_own_files(struct policy *p, const struct policy_opts *opts)
{
	for (size_t i = 0; i < SM_PATH_COUNT; i++) {
		char *entry, *kind;
		if (sm_paths[i].root == NULL)
			continue;
		if (asprintf(&entry, "~/%s", sm_paths[i].rel) < 0 ||
		    asprintf(&kind, "hardcoded: %s", sm_paths[i].root) < 0)
			abort();
		add_anchored(p, &p->readonly, entry, kind, hardcoded);
		free(entry);
		free(kind);
	}
	add_anchored(p, &p->readonly, "/etc/sandmux", "hardcoded: admin policy", hardcoded);
	if (opts->user_file && opts->user_file[0] == '/')
		add_anchored(p, &p->readonly, opts->user_file, "hardcoded: policy file of --config", hardcoded);
	ADD_LIST(p, &p->protect, protected_globs, "hardcoded: protected path", hardcoded);
	fill_git(p);
	for (size_t i = 0; i < sizeof protected_except / sizeof protected_except[0]; i++) {
		char *g;
		if (asprintf(&g, "%s/**", protected_except[i]) < 0)
			abort();
		add_anchored(p, &p->protect_except, g, "writable exception", hardcoded);
		free(g);
	}
}

static void fill_chain(struct policy *p, const struct profile_def *const *chain, int n, bool *restrict_net)
{
	for (int i = n - 1; i >= 0; i--) { /* from the base outwards */
		const struct profile_def *d = chain[i];
		add_rules(p, &p->write, &d->read_write, "read_write");
		add_rules(p, &p->read, &d->read_only, "read_only");
		add_rules(p, &p->readonly, &d->read_only, "read_only");
		add_rules(p, &p->deny, &d->deny, "deny");
		if (d->restrict_network.set)
			*restrict_net = d->restrict_network.v;
		limits_lower(&p->limits, &d->limits);
		if (d->outside_writes.v != NULL)
			p->capture = strcmp(d->outside_writes.v, "capture") == 0;
		if (d->denial_hints.set)
			p->denial_hints = d->denial_hints.v;
	}
}

static void copy_rules(struct rules *into, const struct rules *from, const char *kind)
{
	char label[600];
	for (size_t i = 0; i < from->n; i++) {
		snprintf(label, sizeof label, "%s: %.500s", kind, from->v[i].text);
		rules_add_labeled(into, from->v[i].text, label, from->v[i].origin);
	}
}

static void fill_net(struct policy *p, const struct config *cfg, bool restrict_net)
{
	const char *b = p->base;
	p->net.default_allow = cfg->net_default.v && strcmp(cfg->net_default.v, "allow") == 0;
	p->net.default_origin = cfg->net_default.v ? cfg->net_default.o : (struct origin){ .layer = LAYER_DEFAULT };
	p->net.strict = cfg->net_strict.set && cfg->net_strict.v;
	copy_rules(&p->net.allow, &cfg->net_allow, "networkPolicy.allow");
	copy_rules(&p->net.deny, &cfg->net_deny, "networkPolicy.deny");
	if (!p->sandboxed || (strcmp(b, "devbox") == 0 && !restrict_net))
		p->net.mode = NET_HOST;
	else if (restrict_net || strcmp(b, "read-only") == 0 || strcmp(b, "strict") == 0 || strcmp(b, "devbox") == 0)
		p->net.mode = NET_NONE;
	else /* even with nothing allowed: the proxy is what reports (and lets
	      * a person approve) the connections the command tried */
		p->net.mode = NET_PROXY;
}

static void fill_env(struct policy *p, const struct config *cfg)
{
	const char *in = cfg->env.inherit.v;
	p->env.inherit = !in || strcmp(in, "all") == 0 ? ENV_INHERIT_ALL
			 : strcmp(in, "core") == 0     ? ENV_INHERIT_CORE
						       : ENV_INHERIT_NONE;
	p->env.ignore_default_excludes = strcmp(p->base, "strict") != 0 &&
					 !(cfg->env.ignore_default_excludes.set && !cfg->env.ignore_default_excludes.v);
	copy_rules(&p->env.exclude, &cfg->env.exclude, "env.exclude");
	copy_rules(&p->env.include_only, &cfg->env.include_only, "env.include_only");
	for (size_t i = 0; i < cfg->env.set.n; i++)
		rules_add(&p->env.set, cfg->env.set.v[i].text, cfg->env.set.v[i].origin);
}

/* The name asked for, and where it came from. */
static const char *profile_choice(const struct config *cfg, const struct policy_opts *opts, struct origin *o)
{
	memset(o, 0, sizeof *o);
	if (opts->profile_flag && opts->profile_flag[0]) {
		o->file = "--sandbox";
		return opts->profile_flag;
	}
	if (opts->profile_env && opts->profile_env[0]) {
		o->file = "SANDMUX_SANDBOX";
		return opts->profile_env;
	}
	if (cfg->profile.v) {
		*o = cfg->profile.o;
		return cfg->profile.v;
	}
	return "workspace";
}

/* How much a built-in confines: off < devbox < workspace < read-only, strict. */
static int base_rank(const char *base)
{
	static const char *const order[] = { "off", "devbox", "workspace" };
	for (int i = 0; i < 3; i++)
		if (strcmp(base, order[i]) == 0)
			return i;
	return 3;
}

/* The admin layer is locked: a flag or $SANDMUX_SANDBOX may choose a
 * profile as confining as the admin's `profile`, not a weaker one. */
static int check_admin_lock(const struct config *cfg, const char *name, const char *base, struct origin o,
			    struct perr *err)
{
	const struct profile_def *chain[EXTENDS_MAX];
	const char *admin_base;
	struct perr ignore = { 0 };
	if (!cfg->profile.v || cfg->profile.o.layer != LAYER_ADMIN || o.line)
		return 0;
	if (profile_chain(cfg, cfg->profile.v, cfg->profile.o, chain, &admin_base, &ignore) < 0 ||
	    base_rank(base) >= base_rank(admin_base))
		return 0;
	perr_set(err, o.file, 0, 0, NULL,
		 "profile \"%s\" is weaker than \"%s\", which the admin policy %s:%d:%d requires", name, cfg->profile.v,
		 cfg->profile.o.file, cfg->profile.o.line, cfg->profile.o.col);
	return -1;
}

/* Where the admin layer set network rules, or NULL. */
static const struct origin *admin_net(const struct config *cfg)
{
	if (cfg->net_default.v && cfg->net_default.o.layer == LAYER_ADMIN)
		return &cfg->net_default.o;
	for (size_t i = 0; i < cfg->net_allow.n; i++)
		if (cfg->net_allow.v[i].origin.layer == LAYER_ADMIN)
			return &cfg->net_allow.v[i].origin;
	for (size_t i = 0; i < cfg->net_deny.n; i++)
		if (cfg->net_deny.v[i].origin.layer == LAYER_ADMIN)
			return &cfg->net_deny.v[i].origin;
	return NULL;
}

/* Unrestricted network (devbox, off, insecure_none) would bypass the
 * admin's networkPolicy, which no other layer may weaken. */
static int check_admin_net(const struct policy *p, const struct config *cfg, struct perr *err)
{
	const struct origin *o = admin_net(cfg);
	if (p->net.mode != NET_HOST || !o)
		return 0;
	perr_set(err, p->profile_origin.file, p->profile_origin.line, p->profile_origin.col,
		 p->profile_origin.line ? "profile" : NULL,
		 "profile \"%s\"%s has unrestricted network, which the admin networkPolicy of %s:%d:%d does not allow",
		 p->profile, p->sandboxed ? "" : " (no sandbox)", o->file, o->line, o->col);
	return -1;
}

int profile_resolve(struct policy *p, const struct config *cfg, const struct policy_opts *opts, struct perr *err)
{
	const struct profile_def *chain[EXTENDS_MAX];
	const char *base;
	struct origin o;
	const char *name = profile_choice(cfg, opts, &o);
	int n = profile_chain(cfg, name, o, chain, &base, err);
	if (n < 0 || check_admin_lock(cfg, name, base, o, err) < 0)
		return -1;
	bool restrict_net = false;
	p->profile = strdup(name);
	p->base = strdup(base);
	p->profile_origin = o;
	p->sandboxed = strcmp(base, "off") != 0 && !(cfg->type.v && strcmp(cfg->type.v, "insecure_none") == 0);
	p->tmp_writable = !(cfg->disable_tmp_write.set && cfg->disable_tmp_write.v);
	p->shared_cache = cfg->shared_cache.set && cfg->shared_cache.v;
	p->allow_weaker = cfg->weaker.set && cfg->weaker.v;
	p->allow_ptrace = strcmp(base, "devbox") == 0;
	p->limits = (struct limits){ LIMIT_UNSET, LIMIT_UNSET, LIMIT_UNSET };
	fill_roots(p, cfg);
	fill_own_files(p, opts);
	/* outsideWrites: the top level, then each profile of the chain from
	 * the base outwards (the most derived one says last). */
	p->capture = cfg->outside_writes.v != NULL && strcmp(cfg->outside_writes.v, "capture") == 0;
	p->denial_hints = !cfg->denial_hints.set || cfg->denial_hints.v; /* the same way */
	fill_chain(p, chain, n, &restrict_net);
	fill_net(p, cfg, restrict_net);
	fill_env(p, cfg);
	agents_apply(p, cfg, opts->path_env);
	return check_admin_net(p, cfg, err);
}
