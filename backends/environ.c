/* environ: the command's environment (DESIGN.md "Environment policy"):
 * the env policy applied to the caller's environment (env_build), then
 * what sandmux itself sets, which always wins over an inherited value:
 * SANDMUX_SANDBOX, SANDMUX_ORIG_UID, SANDMUX_ORIG_GID, TMPDIR, the
 * shared build cache's variables, and the caller's extra_env (the
 * proxy's, so the host's HTTP_PROXY cannot win). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/launch.h"
#include "backends/sandbox.h"
#include "policy/policy.h"

static const char *const environ_own[] = { "SANDMUX_SANDBOX", "SANDMUX_ORIG_UID", "SANDMUX_ORIG_GID", "TMPDIR" };
#define ENVIRON_NOWN (sizeof environ_own / sizeof environ_own[0])

static bool environ_named(const char *entry, const char *name, size_t len)
{
	return strncmp(entry, name, len) == 0 && entry[len] == '=';
}

/* Whether sandmux sets this entry's name itself. */
static bool environ_overridden(const struct launch *l, const char *entry)
{
	for (size_t j = 0; j < ENVIRON_NOWN; j++)
		if (environ_named(entry, environ_own[j], strlen(environ_own[j])))
			return true;
	if (l->policy->shared_cache && launch_cache_var_is(entry))
		return true;
	for (size_t j = 0; l->extra_env != NULL && l->extra_env[j] != NULL; j++)
		if (environ_named(entry, l->extra_env[j], strcspn(l->extra_env[j], "=")))
			return true;
	return false;
}

/* Appends sandmux's own entries at env[*k]; -1 when out of memory. */
static int environ_add_own(const struct launch *l, char **env, size_t *k)
{
	const struct policy *p = l->policy;
	char *own[ENVIRON_NOWN] = { NULL };
	if (asprintf(&own[0], "SANDMUX_SANDBOX=%s", p->profile ? p->profile : "") < 0)
		own[0] = NULL;
	if (asprintf(&own[1], "SANDMUX_ORIG_UID=%u", (unsigned)getuid()) < 0)
		own[1] = NULL;
	if (asprintf(&own[2], "SANDMUX_ORIG_GID=%u", (unsigned)getgid()) < 0)
		own[2] = NULL;
	own[3] = strdup("TMPDIR=/tmp");
	int rc = 0;
	for (size_t i = 0; i < ENVIRON_NOWN; i++)
		if ((env[(*k)++] = own[i]) == NULL)
			rc = -1;
	for (size_t i = 0; l->extra_env != NULL && l->extra_env[i] != NULL; i++)
		if ((env[(*k)++] = strdup(l->extra_env[i])) == NULL)
			rc = -1;
	if (p->shared_cache)
		*k += launch_cache_vars(env + *k);
	return rc;
}

char **launch_env(const struct launch *l)
{
	char **base = env_build(&l->policy->env, l->envp);
	size_t n = 0, k = 0, extra = 0;
	while (base[n] != NULL)
		n++;
	while (l->extra_env != NULL && l->extra_env[extra] != NULL)
		extra++;
	char **env = calloc(n + ENVIRON_NOWN + extra + launch_cache_vars(NULL) + 1, sizeof *env);
	if (env == NULL) {
		env_free(base);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (environ_overridden(l, base[i]))
			free(base[i]);
		else
			env[k++] = base[i];
	}
	free(base);
	size_t start = k;
	if (environ_add_own(l, env, &k) < 0) {
		/* Free what was made, skipping the holes a failure left. */
		for (size_t i = start; i < k; i++)
			free(env[i]);
		env[start] = NULL;
		env_free(env);
		return NULL;
	}
	env[k] = NULL;
	return env;
}
