/* trust: per-repo files apply their widening parts only once trusted
 * (DESIGN.md: a per-repo file comes with the code and may be hostile). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/config.h"
#include "policy/json.h"
#include "policy/paths.h"
#include "policy/readfile.h"
#include "policy/sha256.h"
#include "policy/trust.h"

void trust_path(const char *home, char *buf, size_t size)
{
	sm_path(home, SM_PATH_TRUST, buf, size);
}

int trust_read(const char *home, char **text, size_t *len, struct perr *err)
{
	char why[512], path[4096];
	int r = readfile(home, sm_path_rel(SM_PATH_TRUST), READFILE_ONE_LINK, CONFIG_MAX_BYTES, text, len, why,
			 sizeof why);
	if (r < 0) {
		trust_path(home, path, sizeof path);
		perr_set(err, path, 0, 0, NULL, "%s; refused", why);
	}
	return r;
}

/* The parsed record, or NULL when absent or refused (nothing trusted). */
static struct json *trust_parse(const char *home)
{
	char *text;
	size_t len;
	struct perr err = { 0 };
	struct json_error je;
	if (trust_read(home, &text, &len, &err) <= 0)
		return NULL;
	struct json *j = json_parse(text, len, &je);
	free(text);
	return j;
}

void trust_tag(const char *text, size_t len, char out[TRUST_TAG_SIZE])
{
	char hex[65];
	sha256_hex(text, len, hex);
	snprintf(out, TRUST_TAG_SIZE, "sha256:%s", hex);
}

bool trust_check(const char *home, const char *file, const char *text, size_t len)
{
	char want[TRUST_TAG_SIZE];
	struct json *j = trust_parse(home);
	const struct json *e = json_get(json_get(j, "trusted"), file);
	trust_tag(text, len, want);
	bool ok = e && e->type == JSON_STRING && strcmp(e->str, want) == 0;
	json_free(j);
	return ok;
}

/* The record with file -> tag set and every other entry kept; NULL when
 * out of memory (a record missing an entry must never be written). */
static cJSON *trust_record(const struct json *old, const char *file, const char *tag)
{
	const struct json *c, *trusted = json_get(old, "trusted");
	cJSON *o = cJSON_CreateObject(), *t = NULL;
	bool ok = o != NULL && cJSON_AddNumberToObject(o, "version", 1) != NULL &&
		  (t = cJSON_AddObjectToObject(o, "trusted")) != NULL;
	if (ok && trusted && trusted->type == JSON_OBJECT)
		json_each(c, trusted)
		{
			if (ok && c->type == JSON_STRING && strcmp(c->key, file) != 0)
				ok = cJSON_AddStringToObject(t, c->key, c->str) != NULL;
		}
	if (!ok || cJSON_AddStringToObject(t, file, tag) == NULL) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

char *trust_add(const char *old, size_t old_len, const char *file, const char *tag)
{
	struct json_error je;
	struct json *j = old != NULL ? json_parse(old, old_len, &je) : NULL;
	cJSON *rec = trust_record(j, file, tag);
	json_free(j);
	char *out = rec != NULL ? cJSON_Print(rec) : NULL;
	cJSON_Delete(rec);
	return out;
}

static bool has_new(const struct rules *repo, const struct rules *below)
{
	for (size_t i = 0; i < repo->n; i++)
		if (!rules_has(below, repo->v[i].text))
			return true;
	return false;
}

static void note(char *ignored, size_t size, const char *field)
{
	size_t n = strlen(ignored);
	snprintf(ignored + n, size - n, "%s%s", n ? ", " : "", field);
}

static int inherit_rank(const char *v)
{
	return !v || strcmp(v, "all") == 0 ? 2 : strcmp(v, "core") == 0 ? 1 : 0;
}

/* A custom profile widens when it starts from a wider built-in than the
 * default or from another custom profile, or adds writable or readable
 * paths (read_only widens what strict may read). deny and
 * restrict_network only narrow. */
static bool profile_def_widens(const struct profile_def *d)
{
	const char *base = d->extends.v ? d->extends.v : "workspace";
	return strcmp(base, "devbox") == 0 || strcmp(base, "off") == 0 || d->read_write.n || d->read_only.n ||
	       !profile_is_builtin(base);
}

static void drop_profiles(struct config *repo, char *ignored, size_t size)
{
	size_t o = 0;
	char field[128];
	for (size_t i = 0; i < repo->nprofiles; i++) {
		if (profile_def_widens(&repo->profiles[i])) {
			snprintf(field, sizeof field, "profiles.%s", repo->profiles[i].name);
			note(ignored, size, field);
			profile_def_free(&repo->profiles[i]);
		} else {
			repo->profiles[o++] = repo->profiles[i];
		}
	}
	repo->nprofiles = o;
}

/* Choosing a profile from a per-repo file: only narrower built-ins, or
 * custom profiles of its own that survived drop_profiles(). */
static bool profile_choice_widens(const struct config *repo, const struct config *below, const char *name)
{
	if (strcmp(name, "read-only") == 0 || strcmp(name, "strict") == 0)
		return false;
	if (strcmp(name, "workspace") == 0)
		return below->profile.v && strcmp(below->profile.v, "workspace") != 0;
	return !config_profile(repo, name) ||
	       (below->profile.v && strcmp(below->profile.v, name) != 0 && config_profile(below, name));
}

static void drop_str(struct opt_str *s, char *ignored, size_t size, const char *field)
{
	free(s->v);
	s->v = NULL;
	note(ignored, size, field);
}

static void drop_env(struct env_cfg *e, const struct env_cfg *below, char *ignored, size_t size)
{
	if (e->inherit.v && inherit_rank(e->inherit.v) > inherit_rank(below->inherit.v))
		drop_str(&e->inherit, ignored, size, "env.inherit");
	if (e->ignore_default_excludes.set && e->ignore_default_excludes.v && below->ignore_default_excludes.set &&
	    !below->ignore_default_excludes.v) {
		e->ignore_default_excludes.set = false;
		note(ignored, size, "env.ignore_default_excludes");
	}
	if (below->include_only.n && has_new(&e->include_only, &below->include_only)) {
		rules_free(&e->include_only);
		note(ignored, size, "env.include_only");
	}
}

static void drop_type(struct config *repo, const struct config *below, char *ignored, size_t size)
{
	const char *t = repo->type.v, *b = below->type.v ? below->type.v : "workspace_readwrite";
	if (t && (strcmp(t, "insecure_none") == 0 ||
		  (strcmp(t, "workspace_readwrite") == 0 && strcmp(b, "workspace_readonly") == 0)))
		drop_str(&repo->type, ignored, size, "type");
}

void config_drop_widening(struct config *repo, const struct config *below, char *ignored, size_t size)
{
	ignored[0] = 0;
	drop_type(repo, below, ignored, size);
	if (has_new(&repo->add_rw, &below->add_rw)) {
		rules_free(&repo->add_rw);
		note(ignored, size, "additionalReadwritePaths");
	}
	if (has_new(&repo->add_ro, &below->add_ro)) {
		rules_free(&repo->add_ro);
		note(ignored, size, "additionalReadonlyPaths");
	}
	if (repo->shared_cache.set && repo->shared_cache.v && !(below->shared_cache.set && below->shared_cache.v)) {
		repo->shared_cache.set = false;
		note(ignored, size, "enableSharedBuildCache");
	}
	if (repo->weaker.set && repo->weaker.v && !(below->weaker.set && below->weaker.v)) {
		repo->weaker.set = false;
		note(ignored, size, "allowWeakerSandbox");
	}
	if (repo->net_default.v && strcmp(repo->net_default.v, "allow") == 0)
		drop_str(&repo->net_default, ignored, size, "networkPolicy.default");
	if (has_new(&repo->net_allow, &below->net_allow)) {
		rules_free(&repo->net_allow);
		repo->net_allow_set = false;
		note(ignored, size, "networkPolicy.allow");
	}
	drop_profiles(repo, ignored, size);
	if (repo->profile.v && profile_choice_widens(repo, below, repo->profile.v))
		drop_str(&repo->profile, ignored, size, "profile");
	drop_env(&repo->env, &below->env, ignored, size);
	if (agents_cfg_drop_widening(repo))
		note(ignored, size, "agents");
}
