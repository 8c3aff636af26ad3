/* merge: folds a higher layer into the merge of the lower ones, by the
 * rules of DESIGN.md "Fields": path lists unioned; network allow unioned
 * unless the admin layer has one, which replaces; deny lists unioned;
 * default deny wins; restrictive booleans: true wins; other scalars: the
 * higher layer wins. Custom profiles: a per-repo file cannot redefine a
 * per-user profile (the repo may be hostile); the admin layer can. */
#include <stdlib.h>
#include <string.h>

#include "policy/config.h"

static void union_rules(struct rules *into, const struct rules *upper)
{
	for (size_t i = 0; i < upper->n; i++)
		if (!rules_has(into, upper->v[i].text))
			rules_add(into, upper->v[i].text, upper->v[i].origin);
}

static void replace_rules(struct rules *into, const struct rules *upper)
{
	rules_free(into);
	union_rules(into, upper);
}

static void higher_str(struct opt_str *into, struct opt_str *upper)
{
	if (!upper->v)
		return;
	free(into->v);
	*into = *upper;
	upper->v = NULL;
}

static void higher_bool(struct opt_bool *into, const struct opt_bool *upper)
{
	if (upper->set)
		*into = *upper;
}

/* Restrictive booleans: once some layer says `want`, it stays. */
static void sticky_bool(struct opt_bool *into, const struct opt_bool *upper, bool want)
{
	if (upper->set && (!into->set || into->v != want))
		*into = *upper;
}

static void merge_net_default(struct opt_str *into, struct opt_str *upper)
{
	if (upper->v && (!into->v || strcmp(upper->v, "deny") == 0 || strcmp(into->v, "allow") == 0))
		higher_str(into, upper);
}

/* env.set: one value per name, the higher layer's. */
static void merge_env_set(struct rules *into, const struct rules *upper)
{
	for (size_t i = 0; i < upper->n; i++) {
		const char *kv = upper->v[i].text;
		size_t n = strcspn(kv, "=") + 1;
		for (size_t k = 0; k < into->n; k++)
			if (strncmp(into->v[k].text, kv, n) == 0) {
				free(into->v[k].text);
				into->v[k].text = strdup(kv);
				into->v[k].origin = upper->v[i].origin;
				goto next;
			}
		rules_add(into, kv, upper->v[i].origin);
	next:;
	}
}

static void merge_env(struct env_cfg *into, struct env_cfg *upper)
{
	higher_str(&into->inherit, &upper->inherit);
	sticky_bool(&into->ignore_default_excludes, &upper->ignore_default_excludes, false);
	union_rules(&into->exclude, &upper->exclude);
	union_rules(&into->include_only, &upper->include_only);
	merge_env_set(&into->set, &upper->set);
}

static bool rules_equal(const struct rules *a, const struct rules *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].text, b->v[i].text) != 0)
			return false;
	return true;
}

/* Same meaning, wherever written: no conflict to report. */
static bool profile_def_equal(const struct profile_def *a, const struct profile_def *b)
{
	const char *ea = a->extends.v ? a->extends.v : "workspace", *eb = b->extends.v ? b->extends.v : "workspace";
	return strcmp(ea, eb) == 0 && rules_equal(&a->read_write, &b->read_write) &&
	       rules_equal(&a->read_only, &b->read_only) && rules_equal(&a->deny, &b->deny) &&
	       (a->restrict_network.set && a->restrict_network.v) ==
		       (b->restrict_network.set && b->restrict_network.v) &&
	       a->limits.pids == b->limits.pids && a->limits.memory_mib == b->limits.memory_mib &&
	       a->limits.tmp_mib == b->limits.tmp_mib &&
	       (a->outside_writes.v == NULL) == (b->outside_writes.v == NULL) &&
	       (a->outside_writes.v == NULL || strcmp(a->outside_writes.v, b->outside_writes.v) == 0) &&
	       a->denial_hints.set == b->denial_hints.set && a->denial_hints.v == b->denial_hints.v;
}

static struct profile_def *find_def(struct config *cfg, const char *name)
{
	return (struct profile_def *)config_profile(cfg, name);
}

static void merge_profiles(struct config *into, struct config *upper, struct perr *err)
{
	for (size_t i = 0; i < upper->nprofiles; i++) {
		struct profile_def *d = &upper->profiles[i], *old = find_def(into, d->name);
		if (old && old->origin.layer == LAYER_USER && d->origin.layer == LAYER_REPO) {
			if (!profile_def_equal(old, d))
				perr_warn(err, "profiles.%s: defined differently in %s and %s; the per-user one wins",
					  d->name, old->origin.file, d->origin.file);
			profile_def_free(d);
			continue;
		}
		if (old) {
			if (old->origin.layer == d->origin.layer && !profile_def_equal(old, d))
				perr_warn(err, "profiles.%s: defined differently in %s and %s; the latter wins",
					  d->name, old->origin.file, d->origin.file);
			profile_def_free(old);
			*old = *d;
			continue;
		}
		struct profile_def *v = realloc(into->profiles, (into->nprofiles + 1) * sizeof *v);
		if (!v)
			abort();
		into->profiles = v;
		v[into->nprofiles++] = *d;
	}
	free(upper->profiles);
	upper->profiles = NULL;
	upper->nprofiles = 0;
}

static void take_files(struct config *into, struct config *upper)
{
	size_t n = into->nfiles + upper->nfiles;
	char **v = realloc(into->files, (n ? n : 1) * sizeof *v);
	enum layer *l = v ? realloc(into->file_layers, (n ? n : 1) * sizeof *l) : NULL;
	if (!v || !l)
		abort();
	memcpy(v + into->nfiles, upper->files, upper->nfiles * sizeof *v);
	memcpy(l + into->nfiles, upper->file_layers, upper->nfiles * sizeof *l);
	into->files = v;
	into->file_layers = l;
	into->nfiles = n;
	free(upper->files);
	free(upper->file_layers);
	upper->files = NULL;
	upper->file_layers = NULL;
	upper->nfiles = 0;
}

void config_merge(struct config *into, struct config *upper, struct perr *err)
{
	take_files(into, upper);
	if (upper->layer > into->layer)
		into->layer = upper->layer;
	higher_str(&into->type, &upper->type);
	union_rules(&into->add_rw, &upper->add_rw);
	union_rules(&into->add_ro, &upper->add_ro);
	sticky_bool(&into->disable_tmp_write, &upper->disable_tmp_write, true);
	sticky_bool(&into->net_strict, &upper->net_strict, true);
	higher_bool(&into->shared_cache, &upper->shared_cache);
	higher_bool(&into->weaker, &upper->weaker);
	merge_net_default(&into->net_default, &upper->net_default);
	if (upper->layer == LAYER_ADMIN && upper->net_allow_set)
		replace_rules(&into->net_allow, &upper->net_allow);
	else
		union_rules(&into->net_allow, &upper->net_allow);
	into->net_allow_set |= upper->net_allow_set;
	union_rules(&into->net_deny, &upper->net_deny);
	higher_str(&into->profile, &upper->profile);
	higher_str(&into->outside_writes, &upper->outside_writes);
	higher_bool(&into->denial_hints, &upper->denial_hints);
	merge_profiles(into, upper, err);
	merge_env(&into->env, &upper->env);
	agents_cfg_merge(into, upper);
}
