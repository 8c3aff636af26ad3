/* environ: the command's environment (DESIGN.md "Environment policy"):
 * the env policy applied to the caller's environment (env_build), then
 * what sandmux itself sets, which always wins over an inherited value:
 * SANDMUX_SANDBOX, SANDMUX_ORIG_UID, SANDMUX_ORIG_GID, TMPDIR,
 * SANDMUX_REQUEST_FD (only with a request channel), the
 * shared build cache's variables, the proxy's variables when the
 * launcher makes its listener (so the host's HTTP_PROXY cannot win), and
 * the caller's extra_env. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/launch.h"
#include "backends/proxy.h"
#include "backends/reqchan.h"
#include "backends/sandbox.h"
#include "backends/shadow.h"
#include "policy/policy.h"

static const char *const environ_own[] = { "SANDMUX_SANDBOX", "SANDMUX_ORIG_UID", "SANDMUX_ORIG_GID", "TMPDIR",
					   REQCHAN_ENV };
#define ENVIRON_NOWN (sizeof environ_own / sizeof environ_own[0])

static bool environ_named(const char *entry, const char *name, size_t len)
{
	return strncmp(entry, name, len) == 0 && entry[len] == '=';
}

static bool environ_in(char *const *list, const char *entry)
{
	for (size_t j = 0; list != NULL && list[j] != NULL; j++)
		if (environ_named(entry, list[j], strcspn(list[j], "=")))
			return true;
	return false;
}

/* Whether sandmux sets this entry's name itself. */
static bool environ_overridden(const struct launch *l, char *const *proxy, const char *entry)
{
	for (size_t j = 0; j < ENVIRON_NOWN; j++)
		if (environ_named(entry, environ_own[j], strlen(environ_own[j])))
			return true;
	if (l->policy->shared_cache && launch_cache_var_is(entry))
		return true;
	if (shadow_env_is(l->policy, l->weak, entry))
		return true;
	return environ_in(proxy, entry) || environ_in(l->extra_env, entry);
}

/* Appends copies of list's entries at env[*k]; -1 when out of memory. */
static int environ_add_list(char **env, size_t *k, char *const *list)
{
	int rc = 0;
	for (size_t i = 0; list != NULL && list[i] != NULL; i++)
		if ((env[(*k)++] = strdup(list[i])) == NULL)
			rc = -1;
	return rc;
}

/* Appends sandmux's own entries at env[*k]; -1 when out of memory. */
static int environ_add_own(const struct launch *l, char *const *proxy, char **env, size_t *k)
{
	const struct policy *p = l->policy;
	char *own[ENVIRON_NOWN] = { NULL };
	if (asprintf(&own[0], "SANDMUX_SANDBOX=%s", p->profile ? p->profile : "") < 0)
		own[0] = NULL;
	if (asprintf(&own[1], "SANDMUX_ORIG_UID=%u", (unsigned)getuid()) < 0)
		own[1] = NULL;
	if (asprintf(&own[2], "SANDMUX_ORIG_GID=%u", (unsigned)getgid()) < 0)
		own[2] = NULL;
	/* The weaker sandbox has no /tmp of its own: the session temp dir on
	 * the host is the writable one. */
	if (l->weak && p->tmpdir != NULL ? asprintf(&own[3], "TMPDIR=%s", p->tmpdir) < 0
					 : !(own[3] = strdup("TMPDIR=/tmp")))
		own[3] = NULL;
	/* the request channel's number, only where there is one: an inherited
	 * value never names some other descriptor */
	if (l->request_fd >= 0 && asprintf(&own[4], "%s=%d", REQCHAN_ENV, LAUNCH_REQUEST_FD) < 0)
		own[4] = NULL;
	int rc = 0;
	for (size_t i = 0; i < ENVIRON_NOWN; i++)
		if (i == 4 && l->request_fd < 0)
			continue;
		else if ((env[(*k)++] = own[i]) == NULL)
			rc = -1;
	if (environ_add_list(env, k, proxy) < 0 || environ_add_list(env, k, l->extra_env) < 0)
		rc = -1;
	if (p->shared_cache)
		*k += launch_cache_vars(env + *k);
	*k += shadow_env(p, l->envp, l->weak, env + *k);
	return rc;
}

/* The proxy's variables, naming the listener's port: fixed inside a
 * network namespace, the one the host gave in the weaker sandbox. */
static char **environ_proxy(const struct launch *l, char *proxy[PROXY_ENV_N + 1])
{
	proxy[0] = NULL;
	if (!l->want_proxy_listener)
		return proxy;
	if (proxy_env(l->weak ? l->proxy_port : l->proxy_listen_port, l->proxy_secret, proxy) < 0)
		return NULL;
	proxy[PROXY_ENV_N] = NULL;
	return proxy;
}

static char **environ_make(const struct launch *l, char *const *proxy)
{
	char **base = env_build(&l->policy->env, l->envp);
	size_t n = 0, k = 0, extra = 0;
	while (base[n] != NULL)
		n++;
	while (l->extra_env != NULL && l->extra_env[extra] != NULL)
		extra++;
	char **env = calloc(n + ENVIRON_NOWN + PROXY_ENV_N + extra + launch_cache_vars(NULL) +
				    shadow_env(l->policy, NULL, false, NULL) + 1,
			    sizeof *env);
	if (env == NULL) {
		strv_free(base);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (environ_overridden(l, proxy, base[i]))
			free(base[i]);
		else
			env[k++] = base[i];
	}
	free(base);
	size_t start = k;
	if (environ_add_own(l, proxy, env, &k) < 0) {
		/* Free what was made, skipping the holes a failure left. */
		for (size_t i = start; i < k; i++)
			free(env[i]);
		env[start] = NULL;
		strv_free(env);
		return NULL;
	}
	env[k] = NULL;
	return env;
}

char **launch_env(const struct launch *l)
{
	char *proxy[PROXY_ENV_N + 1];
	if (environ_proxy(l, proxy) == NULL)
		return NULL;
	char **env = environ_make(l, proxy);
	if (proxy[0] != NULL)
		proxy_env_free(proxy);
	return env;
}
