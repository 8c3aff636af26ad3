/* env: the environment a sandboxed command starts with, built in the
 * order of DESIGN.md "Environment policy": inherit, default excludes,
 * exclude, set, include_only. Pure: returns a new array. */
#include <stdlib.h>
#include <string.h>

#include "policy/glob.h"
#include "policy/policy.h"
#include "policy/strv.h"

static const char *const core_names[] = { "PATH", "HOME", "USER", "LOGNAME", "SHELL",    "TERM",
					  "LANG", "LC_*", "TZ",   "TMPDIR",  "COLORTERM" };
static const char *const default_excludes[] = { "*KEY*", "*SECRET*", "*TOKEN*" };

/* "NAME=VALUE" -> NAME (in buf). */
static const char *env_name(const char *entry, char *buf, size_t size)
{
	size_t n = strcspn(entry, "=");
	if (n >= size)
		n = size - 1;
	memcpy(buf, entry, n);
	buf[n] = 0;
	return buf;
}

static bool name_in(const char *name, const char *const *globs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (glob_match_text(globs[i], name, true))
			return true;
	return false;
}

static bool name_in_rules(const char *name, const struct rules *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (glob_match_text(r->v[i].text, name, true))
			return true;
	return false;
}

static void envv_put(struct strv *e, const char *entry)
{
	char a[256], b[256];
	env_name(entry, a, sizeof a);
	for (size_t i = 0; i < e->n; i++)
		if (strcmp(env_name(e->v[i], b, sizeof b), a) == 0) {
			if (strv_set(e, i, entry) < 0)
				abort();
			return;
		}
	if (strv_push(e, entry) < 0)
		abort();
}

/* Keeps the entries for which keep(name) is true. */
static void envv_filter(struct strv *e, bool (*keep)(const char *, const void *), const void *arg)
{
	char name[256];
	size_t o = 0;
	for (size_t i = 0; i < e->n; i++) {
		if (keep(env_name(e->v[i], name, sizeof name), arg))
			e->v[o++] = e->v[i];
		else
			free(e->v[i]);
	}
	e->n = o;
	if (e->v)
		e->v[o] = NULL;
}

static bool keep_unexcluded(const char *name, const void *arg)
{
	return !name_in_rules(name, arg);
}

static bool keep_included(const char *name, const void *arg)
{
	return name_in_rules(name, arg);
}

static bool keep_no_secret(const char *name, const void *arg)
{
	(void)arg;
	return !name_in(name, default_excludes, sizeof default_excludes / sizeof default_excludes[0]);
}

char **env_build(const struct env_policy *ep, char *const *envp)
{
	struct strv e = { calloc(1, sizeof(char *)), 0 };
	char name[256];
	if (!e.v)
		abort();
	for (size_t i = 0; envp && envp[i] && ep->inherit != ENV_INHERIT_NONE; i++) {
		if (!strchr(envp[i], '='))
			continue;
		env_name(envp[i], name, sizeof name);
		if (ep->inherit == ENV_INHERIT_ALL ||
		    name_in(name, core_names, sizeof core_names / sizeof core_names[0]))
			envv_put(&e, envp[i]);
	}
	if (!ep->ignore_default_excludes)
		envv_filter(&e, keep_no_secret, NULL);
	envv_filter(&e, keep_unexcluded, &ep->exclude);
	for (size_t i = 0; i < ep->set.n; i++)
		envv_put(&e, ep->set.v[i].text);
	if (ep->include_only.n)
		envv_filter(&e, keep_included, &ep->include_only);
	return e.v;
}
