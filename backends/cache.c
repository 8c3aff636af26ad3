/* cache: enableSharedBuildCache. One directory on the host, beside the
 * session temp dirs (~/.sandmux/state/tmp/shared-cache), mounted writable
 * at /tmp/.sandmux-cache in every sandbox that asks for it (also when
 * /tmp itself is read-only), with the package managers' cache variables
 * pointing into it. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "backends/safefile.h"
#include "backends/capture.h"
#include "backends/sandbox.h"
#include "policy/paths.h"
#include "policy/policy.h"

static const char *const cache_vars[][2] = {
	{ "npm_config_cache", "npm" }, { "YARN_CACHE_FOLDER", "yarn" }, { "PIP_CACHE_DIR", "pip" },
	{ "GOMODCACHE", "go/mod" },    { "GOCACHE", "go/build" },       { "CARGO_HOME", "cargo" },
};
#define CACHE_NVARS (sizeof cache_vars / sizeof cache_vars[0])

size_t launch_cache_vars(char **out)
{
	for (size_t i = 0; out != NULL && i < CACHE_NVARS; i++)
		if (asprintf(&out[i], "%s=%s/%s", cache_vars[i][0], LAUNCH_CACHE_DIR, cache_vars[i][1]) < 0)
			out[i] = NULL;
	return CACHE_NVARS;
}

bool launch_cache_var_is(const char *entry)
{
	for (size_t i = 0; i < CACHE_NVARS; i++) {
		size_t n = strlen(cache_vars[i][0]);
		if (strncmp(entry, cache_vars[i][0], n) == 0 && entry[n] == '=')
			return true;
	}
	return false;
}

int cache_host_dir(const struct policy *p, char *buf, size_t size)
{
	const char *tmp = p->tmpdir;
	const char *slash = tmp ? strrchr(tmp, '/') : NULL;
	if (slash == NULL ||
	    snprintf(buf, size, "%.*s/%s", (int)(slash - tmp), tmp, sm_path_base(SM_PATH_SHARED_CACHE)) >= (int)size)
		return -1;
	return mkdir(buf, 0700) < 0 && errno != EEXIST ? -1 : 0;
}

/* Called while /tmp is still writable, before it may become read-only.
 * Every sandbox that asks writes in the cache directory, so it is made
 * and opened without following a link, and the bind is of that very
 * directory (through its descriptor), never of what its name points at
 * by then. In capture mode the overlays are mounted already: the bind is
 * of the host's directory, kept open before them (capture.c). */
int ns_cache(struct sbx *s)
{
	char parent[PATH_MAX], err[600], src[64], host[PATH_MAX];
	const char *tmp = s->p->tmpdir;
	const char *slash = tmp ? strrchr(tmp, '/') : NULL;
	if (slash == NULL)
		return sbx_failx(s, "shared build cache", "no session temp dir to put it beside");
	if (s->p->capture) {
		if (cache_host_dir(s->p, host, sizeof host) < 0 ||
		    (mkdir(LAUNCH_CACHE_DIR, 0700) < 0 && errno != EEXIST))
			return sbx_fail(s, "shared build cache", "make the directory");
		return ns_bind(s, capture_source(s, host, src, sizeof src), LAUNCH_CACHE_DIR, false);
	}
	snprintf(parent, sizeof parent, "%.*s", (int)(slash - tmp), tmp);
	struct safedir d;
	if (safefile_dir_open(&d, parent, sm_path_base(SM_PATH_SHARED_CACHE), true, err, sizeof err) < 0)
		return sbx_failx(s, "shared build cache", err);
	if (mkdir(LAUNCH_CACHE_DIR, 0700) < 0 && errno != EEXIST) {
		safefile_dir_close(&d);
		return sbx_fail(s, "shared build cache", "make the directory");
	}
	/* Read-write although its source is under the read-only ~/.sandmux. */
	snprintf(src, sizeof src, "/proc/self/fd/%d", d.fd);
	int rc = ns_bind(s, src, LAUNCH_CACHE_DIR, false);
	safefile_dir_close(&d);
	return rc;
}
