/* paths: what the launcher's mounts and device rules mean for a path seen
 * inside the sandbox (see launch.h). */
#include <stdio.h>
#include <string.h>

#include "backends/launch.h"
#include "backends/sandbox.h"
#include "policy/policy.h"

/* A constant table, shared by landlock.c and launch_dev_allowed(). */
const char *const launch_devs[] = {
	"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
	"/dev/tty",  "/dev/ptmx", "/dev/pts",  "/dev/shm",    NULL,
};

bool rules_cover(const struct rules *r, const char *path)
{
	for (size_t i = 0; i < r->n; i++)
		if (path_under(path, r->v[i].text))
			return true;
	return false;
}

bool launch_dev_allowed(const char *path)
{
	for (size_t i = 0; launch_devs[i] != NULL; i++)
		if (path_under(path, launch_devs[i]))
			return true;
	return false;
}

bool launch_always_readable(const char *path)
{
	return path_under(path, "/dev") || path_under(path, "/proc");
}

const char *launch_host_path(const struct policy *p, const char *inside, char *buf, unsigned long size)
{
	const char *tmps[] = { "/tmp", "/var/tmp" };
	if (p == NULL || p->tmpdir == NULL)
		return inside;
	for (size_t i = 0; i < 2; i++)
		if (path_under(inside, tmps[i])) {
			/* A workspace under /tmp is bound back at its own path. */
			if (p->workspace != NULL && path_under(inside, p->workspace))
				return inside;
			if (snprintf(buf, size, "%s%s", p->tmpdir, inside + strlen(tmps[i])) >= (int)size)
				return inside;
			return buf;
		}
	return inside;
}
