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

#include "backends/safefile.h"
#include "policy/paths.h"

char *session_tmp_make(const char *home, const char *name, char *err, size_t errlen)
{
	char path[PATH_MAX], why[600];
	if (home == NULL || home[0] != '/') {
		snprintf(err, errlen, "$HOME is not an absolute path: needed for the session temp dir");
		return NULL;
	}
	if (safefile_mkdtemp(home, sm_path_rel(SM_PATH_TMP), name, path, sizeof path, why, sizeof why) < 0) {
		snprintf(err, errlen, "session temp dir: %s", why);
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
