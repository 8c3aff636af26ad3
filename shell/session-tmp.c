/* session-tmp: the session's temp directory on the host, under
 * ~/.sandmux/state/tmp/, mounted at /tmp in every pane's sandbox (DESIGN.md
 * "Temp dirs"): inspectable from outside, free of the host's sockets.
 * Made when the server starts, removed when it ends. */
#include "shell/mux.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *session_tmp_make(const char *name, char *err, size_t errlen)
{
	const char *home = getenv("HOME");
	char path[PATH_MAX];
	if (home == NULL || home[0] != '/') {
		snprintf(err, errlen, "$HOME is not an absolute path: needed for the session temp dir");
		return NULL;
	}
	const char *parts[] = { "/.sandmux", "/state", "/tmp" };
	size_t len = (size_t)snprintf(path, sizeof path, "%s", home);
	for (size_t i = 0; i < 3; i++) {
		len += (size_t)snprintf(path + len, sizeof path - len, "%s", parts[i]);
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			snprintf(err, errlen, "session temp dir: mkdir %s: %s", path, strerror(errno));
			return NULL;
		}
	}
	snprintf(path + len, sizeof path - len, "/%s-XXXXXX", name);
	if (mkdtemp(path) == NULL) {
		snprintf(err, errlen, "session temp dir: mkdtemp %s: %s", path, strerror(errno));
		return NULL;
	}
	return strdup(path);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else if (S_ISDIR(st->st_mode))
		chmod(path, 0700); /* a directory made read-only inside must still go */
	else
		unlink(path);
	return 0;
}

void session_tmp_remove(const char *path)
{
	if (path == NULL)
		return;
	chmod(path, 0700);
	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}
