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
#include <sys/stat.h>
#include <unistd.h>

/* bash: --rcfile replaces ~/.bashrc, so source it (and /etc/bash.bashrc,
 * which Debian's bash reads only without --rcfile) ourselves. The DEBUG
 * trap fires before every simple command, those of PROMPT_COMMAND too;
 * report only the first one after the prompt is complete (armed by the
 * last PROMPT_COMMAND entry), which is the line the person typed. The
 * entries are joined with newlines: a user's PROMPT_COMMAND that ends in
 * ';' would make ';;' a syntax error. */
static const char bash_rc[] =
	"[ -f /etc/bash.bashrc ] && . /etc/bash.bashrc\n"
	"[ -f ~/.bashrc ] && . ~/.bashrc\n"
	"[ -n \"$SANDMUX_HISTDIR\" ] && HISTFILE=\"$SANDMUX_HISTDIR/bash_history\"\n"
	"__sandmux_esc() { local s=${1//$'\\e'/}; s=${s//$'\\a'/}; printf '%s' \"${s//$'\\n'/ }\"; }\n"
	"__sandmux_prompt() {\n"
	"  local st=$?\n"
	"  [ -n \"$__sandmux_running\" ] && printf '\\e]133;D;%s\\a' \"$st\"\n"
	"  __sandmux_running=\n"
	"  printf '\\e]7;file://%s%s\\a\\e]133;A\\a' \"${HOSTNAME:-localhost}\" \"$PWD\"\n"
	"  return $st\n"
	"}\n"
	"__sandmux_arm() { __sandmux_armed=1; }\n"
	"__sandmux_preexec() {\n"
	"  [ -n \"$__sandmux_armed\" ] || return 0\n"
	"  [ \"$BASH_COMMAND\" = __sandmux_prompt ] && return 0\n"
	"  __sandmux_armed=\n"
	"  __sandmux_running=1\n"
	"  local line; line=$(HISTTIMEFORMAT= history 1 | sed 's/^ *[0-9]* *//')\n"
	"  printf '\\e]633;E;%s\\a\\e]133;C\\a' \"$(__sandmux_esc \"$line\")\"\n"
	"}\n"
	"if [ \"${#PROMPT_COMMAND[@]}\" -gt 1 ]; then\n"
	"  PROMPT_COMMAND[0]=\"__sandmux_prompt\"$'\\n'\"${PROMPT_COMMAND[0]}\"\n"
	"  PROMPT_COMMAND+=(__sandmux_arm)\n"
	"else\n"
	"  PROMPT_COMMAND=\"__sandmux_prompt\"$'\\n'\"$PROMPT_COMMAND\"$'\\n'\"__sandmux_arm\"\n"
	"fi\n"
	"trap '__sandmux_preexec' DEBUG\n";

/* zsh: ZDOTDIR points here; source the user's own files from their
 * original ZDOTDIR (or $HOME), then add precmd/preexec hooks. */
static const char zsh_env[] =
	"[ -f \"${SANDMUX_USER_ZDOTDIR:-$HOME}/.zshenv\" ] && . \"${SANDMUX_USER_ZDOTDIR:-$HOME}/.zshenv\"\n";
static const char zsh_rc[] = "ZDOTDIR=\"${SANDMUX_USER_ZDOTDIR:-$HOME}\"\n"
			     "[ -f \"$ZDOTDIR/.zshrc\" ] && . \"$ZDOTDIR/.zshrc\"\n"
			     "[ -n \"$SANDMUX_HISTDIR\" ] && HISTFILE=\"$SANDMUX_HISTDIR/zsh_history\"\n"
			     "__sandmux_precmd() {\n"
			     "  local st=$?\n"
			     "  [ -n \"$__sandmux_running\" ] && printf '\\e]133;D;%s\\a' \"$st\"\n"
			     "  __sandmux_running=\n"
			     "  printf '\\e]7;file://%s%s\\a\\e]133;A\\a' \"${HOST:-localhost}\" \"$PWD\"\n"
			     "}\n"
			     "__sandmux_preexec() {\n"
			     "  __sandmux_running=1\n"
			     "  local line=${1//$'\\e'/}; line=${line//$'\\a'/}; line=${line//$'\\n'/ }\n"
			     "  printf '\\e]633;E;%s\\a\\e]133;C\\a' \"$line\"\n"
			     "}\n"
			     "autoload -Uz add-zsh-hook\n"
			     "add-zsh-hook precmd __sandmux_precmd\n"
			     "add-zsh-hook preexec __sandmux_preexec\n";

/* Writes one file atomically (temp + rename) with mode 0444. */
static int write_file(const char *dir, const char *name, const char *text)
{
	char path[4096], tmp[4200];
	if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
		return -1;
	snprintf(tmp, sizeof tmp, "%s.%d.tmp", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
	if (fd < 0)
		return -1;
	size_t len = strlen(text);
	ssize_t n = write(fd, text, len);
	if (close(fd) < 0 || n != (ssize_t)len || rename(tmp, path) < 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

int integration_write(const char *dir)
{
	char zdir[4096];
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -1;
	if (snprintf(zdir, sizeof zdir, "%s/zsh", dir) >= (int)sizeof zdir)
		return -1;
	if (mkdir(zdir, 0755) < 0 && errno != EEXIST)
		return -1;
	if (write_file(dir, "bashrc", bash_rc) < 0 || write_file(zdir, ".zshenv", zsh_env) < 0 ||
	    write_file(zdir, ".zshrc", zsh_rc) < 0)
		return -1;
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
