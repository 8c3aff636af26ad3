/* integration: bash and zsh report prompts (OSC 133), the command line
 * (OSC 633;E) and the cwd (OSC 7) to the host, each report signed with
 * a per-shell secret passed on fd 3 (shell/shell-report.h checks it). */
#ifndef INTEGRATION_H
#define INTEGRATION_H

#include <stddef.h>

#include "policy/paths.h"

enum integration_kind { INTEGRATION_NONE, INTEGRATION_BASH, INTEGRATION_ZSH };

struct integration {
	enum integration_kind kind;
	const char *argv[5]; /* NULL-terminated argv for the shell */
	char rcfile[4200];
	char env[2][4200]; /* extra "NAME=VALUE" entries; "" when unused */
};

#define INTEGRATION_SECRET_LEN 32                           /* hex digits: 128 random bits */
#define INTEGRATION_REL        (sm_path_rel(SM_PATH_SHELL)) /* under HOME */

/* Writes the scripts into HOME/INTEGRATION_REL (files 0444, replaced
 * atomically, no link followed: backends/safefile.h). 0, or -1 with err. */
int integration_write(const char *home, char *err, size_t errlen);
enum integration_kind integration_kind(const char *shell);
/* Fills out the argv and environment that start `shell` with integration
 * from dir; a shell other than bash or zsh starts plainly. */
int integration_prepare(const char *dir, const char *shell, struct integration *out);

/* A fresh secret for one shell: hex, NUL-terminated. */
int integration_secret(char out[INTEGRATION_SECRET_LEN + 1]);
/* The fd the shell reads its secret from (launch.pass_fd), or -1. */
int integration_pass(const char *secret);

#endif
