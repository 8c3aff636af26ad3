/* config: reads one sandbox.json into a struct config, validating every
 * field; errors name FILE:LINE:COL and the field (config.h). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "policy/config.h"
#include "policy/glob.h"
#include "policy/json.h"
#include "policy/net.h"
#include "policy/readfile.h"

#define CONFIG_MAX_KEYS 1024 /* per object: keeps the repeated-key check cheap */

struct loader {
	const char *file;
	enum layer layer;
	const char *home;
	struct config *cfg;
	struct perr *err;
};

static const char *const builtins[] = { "workspace", "read-only", "strict", "devbox", "off" };

bool profile_is_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
		if (strcmp(name, builtins[i]) == 0)
			return true;
	return false;
}

static struct origin at(const struct loader *ld, const struct json *j)
{
	return (struct origin){ .file = ld->file, .layer = ld->layer, .line = j->line, .col = j->col };
}

static int fail(struct loader *ld, const struct json *j, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct loader *ld, const struct json *j, const char *fmt, ...)
{
	char what[512], field[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	perr_set(ld->err, ld->file, j->line, j->col, json_path(j, field, sizeof field), "%s", what);
	return -1;
}

/* An error about an object member's key rather than its value. */
static int fail_key(struct loader *ld, const struct json *j, const char *what)
{
	char field[256];
	perr_set(ld->err, ld->file, j->key_line, j->key_col, json_path(j, field, sizeof field), "\"%.80s\" is %s",
		 j->key, what);
	return -1;
}

static int want(struct loader *ld, const struct json *j, enum json_type t)
{
	if (j->type == t)
		return 0;
	return fail(ld, j, "expected %s, got %s", json_type_name(t), json_type_name(j->type));
}

static int get_bool(struct loader *ld, const struct json *j, struct opt_bool *out)
{
	if (want(ld, j, JSON_BOOL) < 0)
		return -1;
	*out = (struct opt_bool){ .set = true, .v = j->boolean, .o = at(ld, j) };
	return 0;
}

/* A string that must be one of `choices` (NULL-terminated). */
static int get_enum(struct loader *ld, const struct json *j, const char *const *choices, struct opt_str *out)
{
	if (want(ld, j, JSON_STRING) < 0)
		return -1;
	for (size_t i = 0; choices && choices[i]; i++)
		if (strcmp(j->str, choices[i]) == 0)
			goto ok;
	if (choices) {
		char list[256] = "";
		for (size_t i = 0; choices[i]; i++)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", i ? ", " : "",
				 choices[i]);
		return fail(ld, j, "\"%.80s\" is not one of %s", j->str, list);
	}
ok:
	free(out->v);
	out->v = strdup(j->str);
	out->o = at(ld, j);
	return 0;
}

static int check_string(struct loader *ld, const struct json *j)
{
	if (want(ld, j, JSON_STRING) < 0)
		return -1;
	if (strlen(j->str) != j->len || j->len == 0)
		return fail(ld, j, "empty string or NUL byte");
	return 0;
}

/* Each element of an array of strings through `check`, then added. */
typedef int (*entry_fn)(struct loader *, const struct json *, struct rules *);

static int get_list(struct loader *ld, const struct json *j, struct rules *out, entry_fn fn)
{
	const struct json *c;
	if (want(ld, j, JSON_ARRAY) < 0)
		return -1;
	json_each(c, j) if (check_string(ld, c) < 0 || fn(ld, c, out) < 0) return -1;
	return 0;
}

/* additional*Paths: absolute or "~/", no globs. */
static int entry_abs_path(struct loader *ld, const struct json *j, struct rules *out)
{
	if (glob_is_pattern(j->str))
		return fail(ld, j, "\"%.80s\": globs are not supported here, only paths", j->str);
	char *p = path_expand(j->str, ld->home);
	if (!p)
		return fail(ld, j, "\"%.80s\" is a relative path; use an absolute path or ~/", j->str);
	if (!rules_has(out, p))
		rules_add(out, p, at(ld, j));
	free(p);
	return 0;
}

/* Profile read_write/read_only: absolute, "~/" or relative to the
 * workspace (anchored later), no globs. */
static int entry_profile_path(struct loader *ld, const struct json *j, struct rules *out)
{
	if (glob_is_pattern(j->str))
		return fail(ld, j, "\"%.80s\": globs are only supported in deny", j->str);
	rules_add(out, j->str, at(ld, j));
	return 0;
}

static int entry_glob(struct loader *ld, const struct json *j, struct rules *out)
{
	char err[GLOB_ERR_MAX];
	struct glob g;
	if (j->str[0] == '~' && j->str[1] != '/' && j->str[1] != 0)
		return fail(ld, j, "\"%.80s\": only ~/ is supported, not ~user", j->str);
	if (glob_compile(j->str, &g, err) < 0)
		return fail(ld, j, "\"%.80s\" is not a supported glob: %s", j->str, err);
	glob_free(&g);
	rules_add(out, j->str, at(ld, j));
	return 0;
}

static int entry_host(struct loader *ld, const struct json *j, struct rules *out)
{
	char err[NET_ERR_MAX];
	struct host_pattern hp;
	if (host_pattern_parse(j->str, &hp, err) < 0)
		return fail(ld, j, "%s", err);
	rules_add(out, j->str, at(ld, j));
	return 0;
}

/* An allow entry inside a hardcoded block can never take effect: say so
 * rather than let the person wonder. */
static int entry_host_allow(struct loader *ld, const struct json *j, struct rules *out)
{
	char err[NET_ERR_MAX], field[256];
	struct host_pattern hp;
	if (entry_host(ld, j, out) < 0)
		return -1;
	host_pattern_parse(j->str, &hp, err);
	const char *why = hp.kind == HOST_CIDR && hp.prefix >= 7 ? net_blocked(&hp.addr) : NULL;
	if (why)
		perr_warn(ld->err, "%s:%d:%d: %s: \"%.80s\" has no effect: %s", ld->file, j->line, j->col,
			  json_path(j, field, sizeof field), j->str, why);
	return 0;
}

static int entry_env_glob(struct loader *ld, const struct json *j, struct rules *out)
{
	char err[GLOB_ERR_MAX];
	struct glob g;
	if (glob_compile_nocase(j->str, &g, err) < 0)
		return fail(ld, j, "\"%.80s\" is not a supported glob: %s", j->str, err);
	glob_free(&g);
	rules_add(out, j->str, at(ld, j));
	return 0;
}

static void warn_unknown(struct loader *ld, const struct json *j)
{
	char field[256];
	perr_warn(ld->err, "%s:%d:%d: %s: unknown key, ignored", ld->file, j->key_line, j->key_col,
		  json_path(j, field, sizeof field));
}

/* A field of an object: where its value goes (off bytes into the struct
 * walked) and how it is read. Most are one of the plain kinds; the few
 * with more to do have a handler of their own (F_FN). */
enum field_kind { F_BOOL, F_ENUM, F_NAME, F_LIST, F_AGENT_LIST, F_LIMIT, F_SUB, F_FN };
typedef int (*field_fn)(struct loader *, const struct json *, void *);
struct field {
	const char *key;
	enum field_kind kind;
	size_t off;
	const char *const *choices; /* F_ENUM */
	entry_fn entry;             /* F_LIST, F_AGENT_LIST */
	const struct field *sub;    /* F_SUB */
	field_fn fn;                /* F_FN: given the struct itself */
};
#define FIELD(k, kind_, T, m)                                  \
	{                                                      \
		.key = k, .kind = kind_, .off = offsetof(T, m) \
	}
#define FIELD_ENUM(k, T, m, ch)                                                \
	{                                                                      \
		.key = k, .kind = F_ENUM, .off = offsetof(T, m), .choices = ch \
	}
#define FIELD_LIST(k, T, m, e)                                              \
	{                                                                   \
		.key = k, .kind = F_LIST, .off = offsetof(T, m), .entry = e \
	}
#define FIELD_AGENT_LIST(k, m, e)                                                                \
	{                                                                                        \
		.key = k, .kind = F_AGENT_LIST, .off = offsetof(struct agent_cfg, m), .entry = e \
	}
#define FIELD_SUB(k, T, m, f)                                            \
	{                                                                \
		.key = k, .kind = F_SUB, .off = offsetof(T, m), .sub = f \
	}
#define FIELD_FN(k, f)                          \
	{                                       \
		.key = k, .kind = F_FN, .fn = f \
	}

/* A repeated key: the last one counts, as in JSON.parse (Cursor). */
static bool shadowed(struct loader *ld, const struct json *obj, const struct json *c)
{
	char field[256];
	if (json_get(obj, c->key) == c)
		return false;
	perr_warn(ld->err, "%s:%d:%d: %s: repeated key; the last one counts", ld->file, c->key_line, c->key_col,
		  json_path(c, field, sizeof field));
	return true;
}

/* An object with at most CONFIG_MAX_KEYS members. */
static int want_object(struct loader *ld, const struct json *j)
{
	if (want(ld, j, JSON_OBJECT) < 0)
		return -1;
	if (j->n > CONFIG_MAX_KEYS)
		return fail(ld, j, "more than %d keys", CONFIG_MAX_KEYS);
	return 0;
}

/* "limits": {"pids": 256, "memory": 2048, "tmp": 512} (MiB; 0: none). */
static int limit_value(struct loader *ld, const struct json *j, long *out)
{
	if (j->type != JSON_NUMBER || j->number < 0 || j->number > 1e9 || j->number != (long)j->number)
		return fail(ld, j, "want a whole number from 0 (no limit) to 1000000000");
	*out = (long)j->number;
	return 0;
}

/* agents.NAME: each list given replaces the one below (the built-in
 * preset's, or a lower layer's). */
static int a_list(struct loader *ld, const struct json *j, struct rules **out, entry_fn fn)
{
	if (*out != NULL)
		rules_free(*out);
	free(*out);
	if ((*out = calloc(1, sizeof **out)) == NULL)
		abort();
	return get_list(ld, j, *out, fn);
}

static int walk(struct loader *ld, const struct json *obj, const struct field *fields, void *arg);

static int field_read(struct loader *ld, const struct field *f, const struct json *j, void *arg)
{
	void *to = (char *)arg + f->off;
	switch (f->kind) {
	case F_BOOL:
		return get_bool(ld, j, to);
	case F_ENUM:
		return get_enum(ld, j, f->choices, to);
	case F_NAME:
		return check_string(ld, j) < 0 ? -1 : get_enum(ld, j, NULL, to);
	case F_LIST:
		return get_list(ld, j, to, f->entry);
	case F_AGENT_LIST:
		return a_list(ld, j, to, f->entry);
	case F_LIMIT:
		return limit_value(ld, j, to);
	case F_SUB:
		return walk(ld, j, f->sub, to);
	case F_FN:
		return f->fn(ld, j, arg);
	}
	return -1;
}

static int walk(struct loader *ld, const struct json *obj, const struct field *fields, void *arg)
{
	const struct json *c;
	if (want_object(ld, obj) < 0)
		return -1;
	json_each(c, obj)
	{
		if (shadowed(ld, obj, c))
			continue;
		const struct field *f = fields;
		while (f->key && strcmp(f->key, c->key) != 0)
			f++;
		if (!f->key)
			warn_unknown(ld, c);
		else if (field_read(ld, f, c, arg) < 0)
			return -1;
	}
	return 0;
}

/* An object of named entries ("profiles", "agents"): one each. */
static int named(struct loader *ld, const struct json *j, int (*one)(struct loader *, const struct json *))
{
	const struct json *c;
	if (want_object(ld, j) < 0)
		return -1;
	json_each(c, j) if (!shadowed(ld, j, c) && one(ld, c) < 0) return -1;
	return 0;
}

static const char *const outside_writes_choices[] = { "deny", "capture", NULL };

static int f_net_allow(struct loader *ld, const struct json *j, void *a)
{
	((struct config *)a)->net_allow_set = true;
	return get_list(ld, j, &((struct config *)a)->net_allow, entry_host_allow);
}

static const char *const net_default_choices[] = { "allow", "deny", NULL };
static const struct field net_fields[] = {
	FIELD_ENUM("default", struct config, net_default, net_default_choices),
	FIELD_FN("allow", f_net_allow),
	FIELD_LIST("deny", struct config, net_deny, entry_host),
	{ 0 },
};

static const struct field limits_fields[] = {
	FIELD("pids", F_LIMIT, struct limits, pids),
	FIELD("memory", F_LIMIT, struct limits, memory_mib),
	FIELD("tmp", F_LIMIT, struct limits, tmp_mib),
	{ 0 },
};

static const struct field profile_fields[] = {
	FIELD("extends", F_NAME, struct profile_def, extends),
	FIELD_LIST("read_write", struct profile_def, read_write, entry_profile_path),
	FIELD_LIST("read_only", struct profile_def, read_only, entry_profile_path),
	FIELD_LIST("deny", struct profile_def, deny, entry_glob),
	FIELD("restrict_network", F_BOOL, struct profile_def, restrict_network),
	FIELD_SUB("limits", struct profile_def, limits, limits_fields),
	FIELD_ENUM("outsideWrites", struct profile_def, outside_writes, outside_writes_choices),
	FIELD("denialHints", F_BOOL, struct profile_def, denial_hints),
	{ 0 },
};

static bool name_valid(const char *s)
{
	return *s && strlen(s) <= 64 &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == strlen(s);
}

static int one_profile(struct loader *ld, const struct json *j)
{
	struct config *cfg = ld->cfg;
	if (profile_is_builtin(j->key))
		return fail_key(ld, j, "a built-in profile; a custom profile needs another name");
	if (!name_valid(j->key))
		return fail_key(ld, j, "not a valid profile name (letters, digits, . _ -)");
	struct profile_def *v = realloc(cfg->profiles, (cfg->nprofiles + 1) * sizeof *v);
	if (!v)
		abort();
	cfg->profiles = v;
	struct profile_def *d = &v[cfg->nprofiles++];
	memset(d, 0, sizeof *d);
	d->name = strdup(j->key);
	d->origin = (struct origin){ ld->file, ld->layer, j->key_line, j->key_col };
	d->limits = (struct limits){ LIMIT_UNSET, LIMIT_UNSET, LIMIT_UNSET };
	return walk(ld, j, profile_fields, d);
}

static int f_profiles(struct loader *ld, const struct json *j, void *a)
{
	(void)a;
	return named(ld, j, one_profile);
}

/* "set": {"NAME": "VALUE", ...} into a->set as "NAME=VALUE". */
static int e_set(struct loader *ld, const struct json *j, void *a)
{
	const struct json *c;
	if (want_object(ld, j) < 0)
		return -1;
	json_each(c, j)
	{
		if (shadowed(ld, j, c))
			continue;
		if (want(ld, c, JSON_STRING) < 0)
			return -1;
		if (!c->key[0] || strchr(c->key, '=') || strlen(c->str) != c->len)
			return fail(ld, c, "not a valid environment variable name or value");
		char *kv;
		if (asprintf(&kv, "%s=%s", c->key, c->str) < 0)
			abort();
		rules_add(&((struct env_cfg *)a)->set, kv, at(ld, c));
		free(kv);
	}
	return 0;
}

static const char *const inherit_choices[] = { "all", "core", "none", NULL };
static const struct field env_fields[] = {
	FIELD_ENUM("inherit", struct env_cfg, inherit, inherit_choices),
	FIELD("ignore_default_excludes", F_BOOL, struct env_cfg, ignore_default_excludes),
	FIELD_LIST("exclude", struct env_cfg, exclude, entry_env_glob),
	FIELD_LIST("include_only", struct env_cfg, include_only, entry_env_glob),
	FIELD_FN("set", e_set),
	{ 0 },
};

static int entry_home_path(struct loader *ld, const struct json *j, struct rules *out)
{
	if (strncmp(j->str, "~/", 2) != 0 || j->str[2] == '\0' || glob_is_pattern(j->str) || strstr(j->str, "/../"))
		return fail(ld, j, "\"%.80s\": an agent's state path is a path under ~/, no globs", j->str);
	rules_add(out, j->str, at(ld, j));
	return 0;
}

static int entry_plain(struct loader *ld, const struct json *j, struct rules *out)
{
	rules_add(out, j->str, at(ld, j));
	return 0;
}

static int ag_env(struct loader *ld, const struct json *j, void *a)
{
	struct agent_cfg *ag = a;
	struct env_cfg tmp = { 0 };
	if (ag->env != NULL)
		rules_free(ag->env);
	free(ag->env);
	if ((ag->env = calloc(1, sizeof *ag->env)) == NULL)
		abort();
	int r = e_set(ld, j, &tmp);
	*ag->env = tmp.set;
	return r;
}
static int ag_enabled(struct loader *ld, const struct json *j, void *a)
{
	struct opt_bool b;
	if (get_bool(ld, j, &b) < 0)
		return -1;
	((struct agent_cfg *)a)->enabled_set = true;
	((struct agent_cfg *)a)->enabled = b.v;
	return 0;
}

static const struct field agent_fields[] = {
	FIELD_AGENT_LIST("paths", paths, entry_home_path),
	FIELD_AGENT_LIST("hosts", hosts, entry_host_allow),
	FIELD_AGENT_LIST("telemetry", telemetry, entry_host),
	FIELD_AGENT_LIST("resume", resume, entry_plain),
	FIELD_FN("env", ag_env),
	FIELD_FN("enabled", ag_enabled),
	{ 0 },
};

static int one_agent(struct loader *ld, const struct json *j)
{
	struct config *cfg = ld->cfg;
	if (!name_valid(j->key))
		return fail_key(ld, j, "not a valid agent name (letters, digits, . _ -)");
	struct agent_cfg *v = realloc(cfg->agents, (cfg->nagents + 1) * sizeof *v);
	if (!v)
		abort();
	cfg->agents = v;
	struct agent_cfg *ag = &v[cfg->nagents++];
	memset(ag, 0, sizeof *ag);
	ag->name = strdup(j->key);
	ag->origin = (struct origin){ ld->file, ld->layer, j->key_line, j->key_col };
	return walk(ld, j, agent_fields, ag);
}

static int f_agents(struct loader *ld, const struct json *j, void *a)
{
	(void)a;
	return named(ld, j, one_agent);
}

/* quiet: a path glob (absolute or ~/) or a host pattern. */
static int entry_quiet(struct loader *ld, const struct json *j, struct rules *out)
{
	if (j->str[0] != '/' && j->str[0] != '~')
		return entry_host(ld, j, out);
	if (entry_glob(ld, j, out) < 0)
		return -1;
	char *p = path_expand(j->str, ld->home);
	if (!p)
		return fail(ld, j, "\"%.80s\": only ~/ is supported, not ~user", j->str);
	free(out->v[out->n - 1].text);
	out->v[out->n - 1].text = p;
	return 0;
}

static const char *const type_choices[] = { "workspace_readwrite", "workspace_readonly", "insecure_none", NULL };
static const struct field top_fields[] = {
	FIELD_ENUM("type", struct config, type, type_choices),
	FIELD_LIST("additionalReadwritePaths", struct config, add_rw, entry_abs_path),
	FIELD_LIST("additionalReadonlyPaths", struct config, add_ro, entry_abs_path),
	FIELD("disableTmpWrite", F_BOOL, struct config, disable_tmp_write),
	FIELD("enableSharedBuildCache", F_BOOL, struct config, shared_cache),
	{ .key = "networkPolicy", .kind = F_SUB, .off = 0, .sub = net_fields }, /* its fields are config's */
	FIELD("networkPolicyStrict", F_BOOL, struct config, net_strict),
	FIELD("profile", F_NAME, struct config, profile),
	FIELD_FN("profiles", f_profiles),
	FIELD_SUB("env", struct config, env, env_fields),
	FIELD("allowWeakerSandbox", F_BOOL, struct config, weaker),
	FIELD_FN("agents", f_agents),
	FIELD_LIST("quiet", struct config, quiet, entry_quiet),
	FIELD_ENUM("outsideWrites", struct config, outside_writes, outside_writes_choices),
	FIELD("denialHints", F_BOOL, struct config, denial_hints),
	{ 0 },
};

const char *config_own_file(struct config *cfg, const char *file, enum layer layer)
{
	char **v = realloc(cfg->files, (cfg->nfiles + 1) * sizeof *v);
	enum layer *l = v ? realloc(cfg->file_layers, (cfg->nfiles + 1) * sizeof *l) : NULL;
	if (!v || !l || !(v[cfg->nfiles] = strdup(file)))
		abort();
	l[cfg->nfiles] = layer;
	cfg->files = v;
	cfg->file_layers = l;
	return v[cfg->nfiles++];
}

int config_parse(struct config *cfg, const char *file, const char *text, size_t len, enum layer layer, const char *home,
		 struct perr *err)
{
	struct loader ld = { .layer = layer, .home = home, .cfg = cfg, .err = err };
	struct json_error je;
	ld.file = config_own_file(cfg, file, layer);
	cfg->layer = layer;
	struct json *root = json_parse(text, len, &je);
	if (!root) {
		perr_set(err, ld.file, je.line, je.col, je.path, "%s", je.msg);
		return -1;
	}
	int r = walk(&ld, root, top_fields, cfg);
	json_free(root);
	return r;
}

int config_read_file(const char *file, char **text, size_t *len, struct perr *err)
{
	char why[512];
	int r = readfile(NULL, file, 0, CONFIG_MAX_BYTES, text, len, why, sizeof why);
	if (r < 0)
		perr_set(err, file, 0, 0, NULL, "%s", why);
	return r;
}

int config_read_repo_file(const char *workspace, const char *rel, char **text, size_t *len, struct perr *err)
{
	char why[1024], file[4096];
	snprintf(file, sizeof file, "%s/%s", workspace, rel);
	int r = readfile(workspace, rel, READFILE_ONE_LINK, CONFIG_MAX_BYTES, text, len, why, sizeof why);
	if (r < 0)
		perr_set(err, file, 0, 0, NULL,
			 "%s; refused: a per-repo policy file must be a regular file of its own in %.*s", why,
			 (int)(strrchr(file, '/') - file + 1), file);
	return r;
}

int config_load(struct config *cfg, const char *file, enum layer layer, const char *home, struct perr *err)
{
	char *text;
	size_t len;
	int r = config_read_file(file, &text, &len, err);
	if (r <= 0)
		return r;
	r = config_parse(cfg, file, text, len, layer, home, err);
	free(text);
	return r < 0 ? -1 : 1;
}

void profile_def_free(struct profile_def *d)
{
	free(d->name);
	free(d->extends.v);
	free(d->outside_writes.v);
	rules_free(&d->read_write);
	rules_free(&d->read_only);
	rules_free(&d->deny);
}

void config_free(struct config *cfg)
{
	if (!cfg)
		return;
	free(cfg->type.v);
	free(cfg->net_default.v);
	free(cfg->profile.v);
	free(cfg->outside_writes.v);
	free(cfg->env.inherit.v);
	rules_free(&cfg->add_rw);
	rules_free(&cfg->add_ro);
	rules_free(&cfg->net_allow);
	rules_free(&cfg->net_deny);
	rules_free(&cfg->env.exclude);
	rules_free(&cfg->env.include_only);
	rules_free(&cfg->env.set);
	for (size_t i = 0; i < cfg->nprofiles; i++)
		profile_def_free(&cfg->profiles[i]);
	free(cfg->profiles);
	agents_cfg_free(cfg);
	for (size_t i = 0; i < cfg->nfiles; i++)
		free(cfg->files[i]);
	free(cfg->files);
	free(cfg->file_layers);
	memset(cfg, 0, sizeof *cfg);
}

const struct profile_def *config_profile(const struct config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->nprofiles; i++)
		if (strcmp(cfg->profiles[i].name, name) == 0)
			return &cfg->profiles[i];
	return NULL;
}
