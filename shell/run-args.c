/* run-args: `sandmux run`'s command line, and the session temp dir it
 * makes (run-cmd.h). */
#include "shell/run-cmd.h"

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/safefile.h"
#include "policy/paths.h"
#include "shell/home.h"
#include "shell/mux.h"

int run_usage(void)
{
	fprintf(stderr,
		"usage: sandmux run [--sandbox NAME] [--workspace DIR] [--config FILE] [--report FILE] [--no-observer] -- CMD [ARG...]\n");
	return 2;
}

int run_args_parse(int argc, char **argv, struct run_args *o)
{
	const char *ws = ".";
	memset(o, 0, sizeof *o);
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		const char **dst = strcmp(a, "--sandbox") == 0     ? &o->popts.profile_flag
				   : strcmp(a, "--workspace") == 0 ? &ws
				   : strcmp(a, "--config") == 0    ? &o->popts.user_file
				   : strcmp(a, "--report") == 0    ? &o->report
								   : NULL;
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(a, "--no-observer") == 0) {
			o->no_observer = true;
			continue;
		}
		if (dst == NULL || i + 1 >= argc) {
			if (dst == NULL && a[0] != '-')
				break; /* `sandmux run CMD` without "--" */
			fprintf(stderr, "sandmux run: %s: %s\n", a, dst ? "needs a value" : "unknown option");
			return -1;
		}
		*dst = argv[++i];
	}
	if (i >= argc) {
		fprintf(stderr, "sandmux run: no command given\n");
		return -1;
	}
	o->argv = argv + i;
	if (realpath(ws, o->workspace) == NULL) {
		fprintf(stderr, "sandmux run: --workspace %s: %s\n", ws, strerror(errno));
		return -1;
	}
	o->popts.workspace = o->workspace;
	o->popts.home = home_env();
	o->popts.profile_env = getenv("SANDMUX_SANDBOX");
	o->popts.path_env = getenv("PATH");
	return 0;
}

int run_tmpdir_make(const char *home, bool make, char *dir, size_t cap)
{
	char err[600];
	if (home == NULL || home[0] != '/') {
		fprintf(stderr, "sandmux run: $HOME is not set to an absolute path: needed for the session temp dir\n");
		return -1;
	}
	if ((make ? safefile_mkdtemp : safefile_tempname)(home, sm_path_rel(SM_PATH_TMP), "run", dir, cap, err,
							  sizeof err) < 0) {
		fprintf(stderr, "sandmux run: session temp dir: %s\n", err);
		dir[0] = '\0';
		return -1;
	}
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) < 0 ? 0 : 0;
	return unlink(path) < 0 ? 0 : 0;
}

void run_tmpdir_remove(char *dir)
{
	if (dir[0] == '\0')
		return;
	/* A directory the command made read-only still has to go. */
	chmod(dir, 0700);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	dir[0] = '\0';
}

bool run_config_load(struct policy *p, const char *home)
{
	struct mux_config cfg;
	char path[PATH_MAX], err[600];
	sm_path(home, SM_PATH_CONFIG, path, sizeof path);
	if (mux_config_load(&cfg, path, err, sizeof err) < 0)
		fprintf(stderr, "sandmux run: %s (using the defaults: its limits, the observer)\n", err);
	limits_fold(&p->limits, &cfg.limits);
	return cfg.denials_audit;
}
