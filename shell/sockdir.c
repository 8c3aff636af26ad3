/* sockdir: where session sockets live. The directory is private (0700,
 * ours): anyone who can connect to a session socket can type into every
 * pane, so a directory someone else owns or can enter is refused, never
 * repaired. */
#include "shell/mux.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/paths.h"

int sockdir_get(char *path, size_t cap, char *err, size_t errlen)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	if (xdg != NULL && xdg[0] == '/' && access(xdg, W_OK | X_OK) == 0)
		snprintf(path, cap, "%s/%s", xdg, SM_SOCKDIR_XDG);
	else
		snprintf(path, cap, SM_SOCKDIR_TMP, (unsigned)getuid());
	if (mkdir(path, 0700) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "socket directory %s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (lstat(path, &st) < 0) {
		snprintf(err, errlen, "socket directory %s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "socket directory %s: not a directory", path);
		return -1;
	}
	if (st.st_uid != getuid()) {
		snprintf(err, errlen, "socket directory %s: owned by uid %u, not by you (uid %u); refusing to use it",
			 path, (unsigned)st.st_uid, (unsigned)getuid());
		return -1;
	}
	if ((st.st_mode & 077) != 0) {
		snprintf(err, errlen, "socket directory %s: mode %03o lets others in; refusing to use it (want 0700)",
			 path, (unsigned)(st.st_mode & 0777));
		return -1;
	}
	return 0;
}

void sockdir_name_for(const char *dir, char *name, size_t cap)
{
	const char *base = strrchr(dir, '/');
	base = base != NULL && base[1] != 0 ? base + 1 : dir;
	size_t n = 0;
	for (; *base != 0 && n + 1 < cap; base++)
		name[n++] = (*base >= 'a' && *base <= 'z') || (*base >= 'A' && *base <= 'Z') ||
					    (*base >= '0' && *base <= '9') || *base == '-' || *base == '_' ||
					    *base == '.'
				    ? *base
				    : '_';
	if (n == 0 || (n == 1 && name[0] == '_'))
		n = (size_t)snprintf(name, cap, "root");
	name[n] = 0;
	if (name[0] == '.')
		name[0] = '_';
}
