/* paths: what the launcher's mounts and device rules mean for a path seen
 * inside the sandbox (see launch.h). */
#include <stdio.h>
#include <string.h>

#include "backends/launch.h"
#include "policy/policy.h"

/* A constant table, shared by landlock.c and launch_dev_allowed(). */
const char *const launch_devs[] = {
	"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
	"/dev/tty", "/dev/ptmx", "/dev/pts", "/dev/shm", NULL,
};

static bool paths_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

bool launch_dev_allowed(const char *path)
{
	for (size_t i = 0; launch_devs[i] != NULL; i++)
		if (paths_under(path, launch_devs[i]))
			return true;
	return false;
}

const char *launch_host_path(const struct policy *p, const char *inside, char *buf, unsigned long size)
{
	const char *tmps[] = { "/tmp", "/var/tmp" };
	if (p == NULL || p->tmpdir == NULL)
		return inside;
	for (size_t i = 0; i < 2; i++)
		if (paths_under(inside, tmps[i])) {
			/* A workspace under /tmp is bound back at its own path. */
			if (p->workspace != NULL && paths_under(inside, p->workspace))
				return inside;
			if (snprintf(buf, size, "%s%s", p->tmpdir, inside + strlen(tmps[i])) >= (int)size)
				return inside;
			return buf;
		}
	return inside;
}
