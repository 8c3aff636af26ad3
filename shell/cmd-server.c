/* cmd-server: the commands on the session and its clients — detach,
 * help, the overview, the denials pane, answering sandbox prompts, the
 * `:` prompt, and the control interface's hello, list and subscribe, and
 * the verbs `sandmux` sends for itself (info, workspace, kill-session). */
#include "shell/command.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "shell/escalate-queue.h"
#include "shell/escalate.h"
#include "shell/mode.h"

#define CTL_VERSION 1

static int detach_exec(struct cmdq *q)
{
	char why[128];
	snprintf(why, sizeof why, "detached (from session %s)", q->s->name);
	client_drop(q->c, why);
	return 0;
}
const struct cmd_entry cmd_detach_entry = { .name = "detach",
					    .key = "d",
					    .help = "detach this client (the session keeps running)",
					    .flags = CMD_KEY | CMD_CLIENT,
					    .exec = detach_exec };

static void help_draw(struct client *c)
{
	char lines[64][96];
	int n = cmd_help(c->srv, lines, 64);
	ui_erase(c->ui);
	int rows = ui_rows(c->ui);
	ui_text(c->ui, 0, 0, ui_cols(c->ui), " sandmux key bindings (press any key to close)", UI_TITLE_ACTIVE);
	for (int i = 0; i < n && i + 1 < rows; i++)
		ui_text(c->ui, i + 1, 1, ui_cols(c->ui) - 1, lines[i], UI_NORMAL);
}

/* Any key closes it. */
static bool help_key(struct client *c, const struct key *k)
{
	(void)k;
	mode_leave(c);
	return true;
}

const struct client_mode mode_help = { .name = "help", .draw = help_draw, .key = help_key };

static int help_exec(struct cmdq *q)
{
	mode_enter(q->c, &mode_help);
	return 0;
}
const struct cmd_entry cmd_help_entry = {
	.name = "help", .key = "?", .help = "this list", .flags = CMD_KEY | CMD_CLIENT, .exec = help_exec
};

/* "key,prompt,cli,ctl": the front ends that take an entry. */
static const char *front_ends(const struct cmd_entry *e, char *out, size_t cap)
{
	snprintf(out, cap, "%s%s%s", e->flags & CMD_KEY ? ",key,prompt" : "", e->flags & CMD_CLI ? ",cli" : "",
		 e->flags & CMD_CTL ? ",ctl" : "");
	return out + 1;
}

/* Every command of the table, its default key, the front ends that take
 * it and its arguments; on an attached client, the help screen. */
static int list_commands_exec(struct cmdq *q)
{
	if (q->from != CMD_FROM_CLI)
		return help_exec(q);
	for (size_t i = 0; cmd_table[i] != NULL; i++) {
		const struct cmd_entry *e = cmd_table[i];
		char line[512], fronts[32];
		snprintf(line, sizeof line, "%-14s %-7s %-18s %s", e->name, e->key != NULL ? e->key : "-",
			 front_ends(e, fronts, sizeof fronts), e->usage != NULL ? e->usage : "");
		size_t n = strlen(line);
		while (n > 0 && line[n - 1] == ' ')
			line[--n] = 0;
		buf_addstr(q->out, line);
		buf_addstr(q->out, "\n");
	}
	return 0;
}
const struct cmd_entry cmd_list_commands_entry = { .name = "list-commands",
						   .usage = "",
						   .help = "every command and where it can be given",
						   .flags = CMD_KEY | CMD_CLI | CMD_LOCAL,
						   .exec = list_commands_exec };

static int overview_exec(struct cmdq *q)
{
	mode_enter(q->c, &mode_overview);
	return 0;
}
const struct cmd_entry cmd_overview_entry = {
	.name = "overview",
	.key = "w",
	.help = "every pane of every window, and their prompts: Enter jumps, o s a r d x answer",
	.flags = CMD_KEY | CMD_CLIENT,
	.exec = overview_exec,
};

static int denials_exec(struct cmdq *q)
{
	escalate_toggle_denials(q->c);
	return 0;
}
const struct cmd_entry cmd_denials_entry = { .name = "denials",
					     .key = "D",
					     .help = "the denials pane: f filter by pane, arrows scroll, q close",
					     .flags = CMD_KEY | CMD_CLIENT,
					     .exec = denials_exec };

/* With no prompt named, a person's key: the next waiting prompt takes
 * the keys. With PANE.N and a scope: that prompt answered, as its key. */
static int answer_exec(struct cmdq *q)
{
	const char *id = cmdq_get(q, "prompt"), *scope_s = cmdq_get(q, "scope");
	if (q->from != CMD_FROM_CTL && id == NULL && scope_s == NULL) {
		escalate_next_prompt(q->c);
		return 0;
	}
	int scope = esc_scope_parse(scope_s);
	if (scope < 0)
		return cmdq_error(q, 2, "scope", "must be once, session, always, repo, deny or dismiss");
	int pane_id = 0;
	unsigned seq = 0;
	char tail;
	if (id == NULL || sscanf(id, "%d.%u%c", &pane_id, &seq, &tail) != 2)
		return cmdq_error(q, 2, "prompt", "must be a prompt id \"PANE.N\" (see the prompt events or list)");
	struct pane *p = pane_find(q->s, pane_id);
	if (p == NULL || p->esc == NULL || esc_raise(p->esc, seq) < 0)
		return cmdq_error(q, 1, "prompt", "no such prompt waiting");
	char err[256];
	if (escalate_answer(q->c, p, (enum esc_scope)scope, err, sizeof err) < 0)
		return cmdq_error(q, 1, "scope", "%s", err);
	return 0;
}
const struct cmd_entry cmd_answer_entry = {
	.name = "answer",
	.args = { .opts = { { 0, "prompt", ARGS_STRING, 0, 0, NULL }, { 0, "scope", ARGS_STRING, 0, 0, NULL } } },
	.usage = "[--prompt PANE.N --scope once|session|always|repo|deny|dismiss]",
	.key = "a",
	.help = "next sandbox prompt: o once, s session, a/r always, d deny",
	.flags = CMD_KEY | CMD_CTL,
	.exec = answer_exec,
};

static int command_prompt_exec(struct cmdq *q)
{
	prompt_open(q->c, ":", cmd_run_line);
	return 0;
}
const struct cmd_entry cmd_command_prompt_entry = {
	.name = "command-prompt",
	.key = ":",
	.help = "run a command by name: any above, or rename-window NAME",
	.flags = CMD_KEY | CMD_CLIENT,
	.exec = command_prompt_exec,
};

static int hello_exec(struct cmdq *q)
{
	cJSON_AddNumberToObject(q->reply, "version", CTL_VERSION);
	cJSON_AddItemToObject(q->reply, "verbs", cmd_ctl_verbs());
	return 0;
}
const struct cmd_entry cmd_hello_entry = { .name = "hello", .flags = CMD_CTL, .exec = hello_exec };

static int list_exec(struct cmdq *q)
{
	cJSON_AddItemToObject(q->reply, "session", control_session_json(q->s));
	return 0;
}
const struct cmd_entry cmd_list_entry = { .name = "list", .flags = CMD_CTL, .exec = list_exec };

static int subscribe_exec(struct cmdq *q)
{
	const char *kinds = cmdq_get(q, "events");
	unsigned mask = kinds != NULL ? control_kinds_parse(kinds) : 0;
	if (kinds != NULL && mask == 0)
		return cmdq_error(q, 2, "events",
				  "a comma-separated list of denial, prompt, answer, exit, attention, title");
	q->c->subscribed = true;
	q->c->sub_pane = cmdq_int(q, "pane", 0);
	q->c->sub_kinds = mask;
	server_log(q->s, "client %d subscribed to events (pane %d, 0: all)", q->c->fd, q->c->sub_pane);
	return 0;
}
const struct cmd_entry cmd_subscribe_entry = {
	.name = "subscribe",
	.args = { .opts = { { 0, "pane", ARGS_INT, 0, 1 << 30, NULL }, { 0, "events", ARGS_STRING, 0, 0, NULL } } },
	.usage = "[--pane N] [--events K,...]",
	.flags = CMD_CTL,
	.exec = subscribe_exec,
};

/* One line for `sandmux ls`; --json: the session in JSON for `ls --json`. */
static int info_exec(struct cmdq *q)
{
	struct server *s = q->s;
	if (cmdq_get(q, "json") != NULL) {
		q->status = control_ls(s, q->out);
		return 0;
	}
	int clients = 0, windows = 0;
	for (struct client *c = s->clients; c != NULL; c = c->next)
		clients += c->attached;
	for (struct window *w = s->windows; w != NULL; w = w->next)
		windows++;
	char line[1024];
	snprintf(line, sizeof line, "%s: %d windows, %d panes, profile %s, %s (%dx%d)%s\n", s->name, windows,
		 session_pane_count(s), s->profile, s->workspace, s->cols, s->rows, clients ? " (attached)" : "");
	buf_addstr(q->out, line);
	return 0;
}
const struct cmd_entry cmd_info_entry = {
	.name = "info",
	.args = { .opts = { { 0, "json", ARGS_FLAG, 0, 0, NULL } } },
	.flags = CMD_CLI,
	.exec = info_exec,
};

static int workspace_exec(struct cmdq *q)
{
	buf_addstr(q->out, q->s->workspace);
	return 0;
}
const struct cmd_entry cmd_workspace_entry = { .name = "workspace", .flags = CMD_CLI, .exec = workspace_exec };

static int kill_session_exec(struct cmdq *q)
{
	struct server *s = q->s;
	char line[128];
	snprintf(s->quit_why, sizeof s->quit_why, "kill-session");
	server_log(s, "kill-session");
	server_shutdown(s);
	snprintf(line, sizeof line, "killed session %s\n", s->name);
	if (q->out != NULL)
		buf_addstr(q->out, line);
	return 0;
}
const struct cmd_entry cmd_kill_session_entry = {
	.name = "kill-session", .usage = "[-t NAME]", .flags = CMD_CLI, .exec = kill_session_exec
};
