/* integration: bash and zsh report prompts (OSC 133), the command line
 * (OSC 633;E) and the cwd (OSC 7) to the host. */
#ifndef INTEGRATION_H
#define INTEGRATION_H

enum integration_kind { INTEGRATION_NONE, INTEGRATION_BASH, INTEGRATION_ZSH };

struct integration {
	enum integration_kind kind;
	const char *argv[5]; /* NULL-terminated argv for the shell */
	char rcfile[4200];
	char env[2][4200]; /* extra "NAME=VALUE" entries; "" when unused */
};

/* Writes the scripts into dir (created 0755; files 0444, atomically). */
int integration_write(const char *dir);
enum integration_kind integration_kind(const char *shell);
/* Fills out the argv and environment that start `shell` with integration
 * from dir; a shell other than bash or zsh starts plainly. */
int integration_prepare(const char *dir, const char *shell, struct integration *out);

#endif
