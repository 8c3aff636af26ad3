/* paths: the table of sandmux's own paths (paths.h). */
#include "policy/paths.h"

#include <stdio.h>
#include <string.h>

const struct sm_path_entry sm_paths[SM_PATH_COUNT] = {
	[SM_PATH_DIR] = { ".sandmux", SM_OWN_CHILD, "sandmux's own files" },
	[SM_PATH_USER_POLICY] = { ".sandmux/sandbox.json", SM_READONLY, NULL },
	[SM_PATH_CURSOR_POLICY] = { ".cursor/sandbox.json", SM_READONLY, "per-user policy file" },
	[SM_PATH_CONFIG] = { ".sandmux/sandmux.json", SM_READONLY, NULL },
	[SM_PATH_TRUST] = { ".sandmux/trust.json", SM_READONLY, NULL },
	[SM_PATH_STATE] = { ".sandmux/state", SM_OWN_CHILD, NULL },
	[SM_PATH_TMP] = { ".sandmux/state/tmp", SM_OWN_CHILD, NULL },
	[SM_PATH_SHARED_CACHE] = { ".sandmux/state/tmp/shared-cache", SM_OWN_CHILD, NULL },
	[SM_PATH_DENIALS] = { ".sandmux/state/denials.jsonl", SM_READONLY, NULL },
	[SM_PATH_SERVER_LOG] = { ".sandmux/state/server.log", SM_READONLY, NULL },
	[SM_PATH_SHELL] = { ".sandmux/state/shell", SM_READONLY, NULL },
	[SM_PATH_CAPTURE] = { ".sandmux/state/capture", SM_READONLY, NULL },
	[SM_PATH_AGENTS] = { ".sandmux/state/agents", SM_OWN_CHILD, NULL },
};

const char *const sm_repo_files[SM_REPO_NFILES] = { ".cursor/sandbox.json", ".sandmux/sandbox.json" };

const char *sm_path_rel(enum sm_path which)
{
	return sm_paths[which].rel;
}

const char *sm_path_base(enum sm_path which)
{
	const char *slash = strrchr(sm_paths[which].rel, '/');
	return slash != NULL ? slash + 1 : sm_paths[which].rel;
}

bool sm_home_ok(const char *home)
{
	return home != NULL && home[0] == '/';
}

int sm_path(const char *home, enum sm_path which, char *buf, size_t len)
{
	if (!sm_home_ok(home) || snprintf(buf, len, "%s/%s", home, sm_paths[which].rel) >= (int)len) {
		if (len > 0)
			buf[0] = '\0';
		return -1;
	}
	return 0;
}
