/* integration: shell integration for bash and zsh. The shell in a pane
 * reports prompt and command boundaries (OSC 133), the command line it is
 * about to run (OSC 633;E) and its cwd (OSC 7), so that an approved
 * escalation can re-run "the last command, in the same directory".
 *
 * The scripts are written by the host into a directory under ~/.sandmux/,
 * which every sandbox sees read-only: a sandboxed program cannot change
 * what the next shell sources. The user's own rc files still load first;
 * then the history goes to the workspace's own file (SANDMUX_HISTDIR,
 * backends/shadow.c), whatever they set: a sandbox that could append to
 * ~/.bash_history could plant a line the person re-runs with the up arrow.
 * What the shell reports is only ever a suggestion shown in the approval
 * prompt; nothing runs wider without a keypress. */
#include "shell/integration.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/safefile.h"

/* Every report carries the shell's secret as its last field, so that
 * the host can tell the shell's reports from a program's look-alikes
 * (shell/shell-report.c). The secret arrives on fd 3 (LAUNCH_PASS_FD),
 * read before any other code runs and closed at once: no program the
 * shell starts inherits it, and it is never exported. The shell itself
 * was exec'd not dumpable (backends/exec-nodump.c), so the programs it
 * runs cannot read the variable out of its memory either.
 *
 * The command line goes out escaped (\\ and \xHH for every control
 * character and ';'), the cwd percent-escaped: the host gets every byte,
 * and no byte can end the OSC string early. */
#define ENC(q)                                                                                          \
	"__sandmux_enc() {\n"                                                                           \
	"  local s=$1 m=$2 c h i\n"                                                                     \
	"  if [ \"$m\" = x ]; then s=${s//\\\\/\\\\\\\\}; else s=${s//\\%/%25}; fi\n"                   \
	"  for i in {1..31} 59 127; do\n"                                                               \
	"    printf -v h %02x $i; printf -v c \"\\\\x$h\"\n"                                            \
	"    if [ \"$m\" = x ]; then s=${s//" q "$c" q "/\\\\x$h}; else s=${s//" q "$c" q "/%$h}; fi\n" \
	"  done\n"                                                                                      \
	"  __sandmux_out=$s\n"                                                                          \
	"}\n"
#define READ_SECRET                                       \
	"{ IFS= read -r __sandmux_k <&3; } 2>/dev/null\n" \
	"exec 3<&-\n"
/* The prompt's reports: the end of the command that ran, the prompt,
 * the cwd. The last command of each hook has no secret in its
 * arguments, so that $_ never holds it. */
#define PROMPT_REPORTS                                                                                                    \
	"  [ -n \"$__sandmux_running\" ] && printf '\\e]133;D;%s;%s\\a' \"$st\" \"$__sandmux_k\"\n"                       \
	"  __sandmux_running=\n"                                                                                          \
	"  __sandmux_enc \"$PWD\" %\n"                                                                                    \
	"  printf '\\e]133;A;%s\\a\\e]7;file://localhost%s;%s\\a' \"$__sandmux_k\" \"$__sandmux_out\" \"$__sandmux_k\"\n" \
	"  :\n"
#define COMMAND_REPORTS                                                                                       \
	"  __sandmux_running=1\n"                                                                             \
	"  __sandmux_enc \"$line\" x\n"                                                                       \
	"  printf '\\e]633;E;%s;%s\\a\\e]133;C;%s\\a' \"$__sandmux_out\" \"$__sandmux_k\" \"$__sandmux_k\"\n" \
	"  :\n"

/* bash: --rcfile replaces ~/.bashrc, so source it (and /etc/bash.bashrc,
 * which Debian's bash reads only without --rcfile) ourselves. The DEBUG
 * trap fires before every simple command, those of PROMPT_COMMAND too;
 * report only the first one after the prompt is complete (armed by the
 * last PROMPT_COMMAND entry), which is the line the person typed. The
 * line comes from the history, and only when the history took it
 * ($HISTCMD did not move): a line left out (HISTCONTROL=ignorespace,
 * ignoredups) would otherwise report an older one, perhaps one another
 * process appended to $HISTFILE and `history -n` read in. The
 * entries are joined with newlines: a user's PROMPT_COMMAND that ends in
 * ';' would make ';;' a syntax error. */
static const char bash_rc[] = READ_SECRET
	"export -n __sandmux_k\n"
	"[ -f /etc/bash.bashrc ] && . /etc/bash.bashrc\n"
	"[ -f ~/.bashrc ] && . ~/.bashrc\n"
	"[ -n \"$SANDMUX_HISTDIR\" ] && HISTFILE=\"$SANDMUX_HISTDIR/bash_history\"\n"
	"if [ -n \"$__sandmux_k\" ]; then\n" ENC(
		"\"") "__sandmux_prompt() {\n"
		      "  local st=$?\n" PROMPT_REPORTS "  return $st\n"
		      "}\n"
		      "__sandmux_arm() { __sandmux_armed=1; __sandmux_hn=$HISTCMD; }\n"
		      "__sandmux_preexec() {\n"
		      "  [ -n \"$__sandmux_armed\" ] || return 0\n"
		      "  [ \"$BASH_COMMAND\" = __sandmux_prompt ] && return 0\n"
		      "  __sandmux_armed=\n"
		      "  local line=\n"
		      "  [ \"$HISTCMD\" = \"$__sandmux_hn\" ] && line=$(HISTTIMEFORMAT= history 1 | sed 's/^ *[0-9]*\\*\\{0,1\\} *//')\n" COMMAND_REPORTS
		      "}\n"
		      "if [ \"${#PROMPT_COMMAND[@]}\" -gt 1 ]; then\n"
		      "  PROMPT_COMMAND[0]=\"__sandmux_prompt\"$'\\n'\"${PROMPT_COMMAND[0]}\"\n"
		      "  PROMPT_COMMAND+=(__sandmux_arm)\n"
		      "else\n"
		      "  PROMPT_COMMAND=\"__sandmux_prompt\"$'\\n'\"$PROMPT_COMMAND\"$'\\n'\"__sandmux_arm\"\n"
		      "fi\n"
		      "trap '__sandmux_preexec' DEBUG\n"
		      "fi\n";

/* zsh: ZDOTDIR points here; the secret is read first, in .zshenv, then
 * the user's own files are sourced from their original ZDOTDIR (or
 * $HOME), then the precmd/preexec hooks added. */
static const char zsh_env[] = READ_SECRET
	"[ -f \"${SANDMUX_USER_ZDOTDIR:-$HOME}/.zshenv\" ] && . \"${SANDMUX_USER_ZDOTDIR:-$HOME}/.zshenv\"\n";
static const char zsh_rc[] = "ZDOTDIR=\"${SANDMUX_USER_ZDOTDIR:-$HOME}\"\n"
			     "[ -f \"$ZDOTDIR/.zshrc\" ] && . \"$ZDOTDIR/.zshrc\"\n"
			     "[ -n \"$SANDMUX_HISTDIR\" ] && HISTFILE=\"$SANDMUX_HISTDIR/zsh_history\"\n"
			     "if [ -n \"$__sandmux_k\" ]; then\n" ENC("") "__sandmux_precmd() {\n"
									  "  local st=$?\n" PROMPT_REPORTS "}\n"
									  "__sandmux_preexec() {\n"
									  "  local line=$1\n" COMMAND_REPORTS "}\n"
									  "autoload -Uz add-zsh-hook\n"
									  "add-zsh-hook precmd __sandmux_precmd\n"
									  "add-zsh-hook preexec __sandmux_preexec\n"
									  "fi\n";

int integration_write(const char *home, char *err, size_t errlen)
{
	static const struct {
		const char *name, *text;
	} files[] = {
		{ "bashrc", bash_rc },
		{ "zsh/.zshenv", zsh_env },
		{ "zsh/.zshrc", zsh_rc },
	};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char rel[256];
		snprintf(rel, sizeof rel, "%s/%s", INTEGRATION_REL, files[i].name);
		if (safefile_replace(home, rel, files[i].text, strlen(files[i].text), 0444, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* The base name of a shell path: "/usr/bin/bash" -> "bash". */
static const char *shell_name(const char *shell)
{
	const char *slash = strrchr(shell, '/');
	return slash != NULL ? slash + 1 : shell;
}

enum integration_kind integration_kind(const char *shell)
{
	const char *name = shell_name(shell);
	if (strcmp(name, "bash") == 0)
		return INTEGRATION_BASH;
	if (strcmp(name, "zsh") == 0)
		return INTEGRATION_ZSH;
	return INTEGRATION_NONE;
}

int integration_prepare(const char *dir, const char *shell, struct integration *out)
{
	memset(out, 0, sizeof *out);
	out->kind = integration_kind(shell);
	switch (out->kind) {
	case INTEGRATION_BASH:
		snprintf(out->rcfile, sizeof out->rcfile, "%s/bashrc", dir);
		out->argv[0] = shell;
		out->argv[1] = "--rcfile";
		out->argv[2] = out->rcfile;
		out->argv[3] = "-i";
		return 0;
	case INTEGRATION_ZSH:
		snprintf(out->env[0], sizeof out->env[0], "ZDOTDIR=%s/zsh", dir);
		out->argv[0] = shell;
		out->argv[1] = "-i";
		return 0;
	case INTEGRATION_NONE:
		out->argv[0] = shell;
		return 0;
	}
	return -1;
}

int integration_secret(char out[INTEGRATION_SECRET_LEN + 1])
{
	unsigned char raw[INTEGRATION_SECRET_LEN / 2];
	if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
		return -1;
	for (size_t i = 0; i < sizeof raw; i++)
		snprintf(out + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

/* A pipe that holds the secret and nothing else: the shell reads it once
 * and closes it, so whoever finds the fd later finds it empty. */
int integration_pass(const char *secret)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	char line[INTEGRATION_SECRET_LEN + 2];
	int n = snprintf(line, sizeof line, "%s\n", secret);
	ssize_t w = write(fds[1], line, (size_t)n);
	close(fds[1]);
	if (w != n) {
		close(fds[0]);
		return -1;
	}
	return fds[0];
}
