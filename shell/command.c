/* command: the one command table and its four front ends (command.h).
 * A front end turns what it got (a bound key's command, a `:` line, the
 * words of `sandmux VERB`, a JSON request) into a struct cmdq: the entry,
 * its parsed arguments and its target, then runs the entry's exec and
 * shows an error its own way. */
#include "shell/command.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "shell/mode.h"

/* The order is the help screen's. */
const struct cmd_entry *const cmd_table[] = {
	&cmd_split_h_entry,
	&cmd_split_v_entry,
	&cmd_kill_pane_entry,
	&cmd_select_up_entry,
	&cmd_select_down_entry,
	&cmd_select_left_entry,
	&cmd_select_right_entry,
	&cmd_next_pane_entry,
	&cmd_zoom_entry,
	&cmd_resize_up_entry,
	&cmd_resize_down_entry,
	&cmd_resize_left_entry,
	&cmd_resize_right_entry,
	&cmd_next_layout_entry,
	&cmd_tiled_entry,
	&cmd_new_window_entry,
	&cmd_next_window_entry,
	&cmd_prev_window_entry,
	&cmd_copy_mode_entry,
	&cmd_paste_entry,
	&cmd_detach_entry,
	&cmd_help_entry,
	&cmd_overview_entry,
	&cmd_denials_entry,
	&cmd_answer_entry,
	&cmd_rename_window_entry,
	&cmd_command_prompt_entry,
	&cmd_list_commands_entry,
	&cmd_new_pane_entry,
	&cmd_hello_entry,
	&cmd_list_entry,
	&cmd_send_keys_entry,
	&cmd_send_text_entry,
	&cmd_capture_entry,
	&cmd_resize_entry,
	&cmd_select_entry,
	&cmd_subscribe_entry,
	&cmd_info_entry,
	&cmd_workspace_entry,
	&cmd_kill_session_entry,
	NULL,
};

const struct cmd_entry *cmd_lookup(const char *name, unsigned flags)
{
	for (size_t i = 0; cmd_table[i] != NULL; i++) {
		const struct cmd_entry *e = cmd_table[i];
		if ((e->flags & flags) != 0 &&
		    (strcmp(e->name, name) == 0 || (e->alias != NULL && strcmp(e->alias, name) == 0)))
			return e;
	}
	return NULL;
}

int cmdq_error(struct cmdq *q, int status, const char *field, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(q->err, sizeof q->err, fmt, ap);
	va_end(ap);
	snprintf(q->field, sizeof q->field, "%s", field != NULL ? field : "");
	q->status = status;
	return -1;
}

const char *cmdq_get(const struct cmdq *q, const char *name)
{
	return args_get(&q->entry->args, &q->args, name);
}

int cmdq_int(const struct cmdq *q, const char *name, int def)
{
	return args_int(&q->entry->args, &q->args, name, def);
}

/* The target, after the arguments are parsed; -1 after an error. */
static int cmdq_target(struct cmdq *q)
{
	const char *t = q->entry->target == CMD_TARGET_PANE ? cmdq_get(q, "target") : NULL;
	if (q->s == NULL) /* CMD_LOCAL: no session, no target */
		return 0;
	q->w = q->s->cur;
	q->p = cmd_find_pane(q->s, t);
	if (q->p != NULL)
		q->w = q->p->win;
	if (q->entry->target == CMD_TARGET_PANE && q->p == NULL)
		return cmdq_error(q, 1, "target", t != NULL ? "no such pane" : "no active pane");
	if (q->entry->target == CMD_TARGET_WINDOW && q->w == NULL)
		return cmdq_error(q, 1, NULL, "no window");
	return 0;
}

/* Runs q's entry on its parsed arguments; 0 or -1. */
static int cmdq_run(struct cmdq *q, int parsed)
{
	if (parsed < 0) {
		snprintf(q->field, sizeof q->field, "%s", q->args.field);
		snprintf(q->err, sizeof q->err, "%s", q->args.why);
		q->status = 2;
	}
	if ((q->entry->flags & CMD_CLIENT) != 0 && (q->c == NULL || !q->c->attached) && parsed == 0)
		parsed = cmdq_error(q, 2, NULL, "needs an attached client");
	int r = parsed < 0 ? -1 : cmdq_target(q) < 0 ? -1 : q->entry->exec(q);
	args_free(&q->args);
	return r;
}

/* Keys and the `:` prompt: an error, or the first line a command
 * printed, is the status bar's message. */
static void cmd_run_client(struct client *c, const struct cmd_entry *e, enum cmd_from from, int argc, const char **argv)
{
	struct buf out = { 0 };
	struct cmdq q = { .s = c->srv, .c = c, .from = from, .entry = e, .out = &out };
	int r = cmdq_run(&q, args_parse(&e->args, argc, argv, &q.args));
	if (client_alive(q.s, c) && r < 0 && q.err[0] != 0)
		client_message(c, "%s%s%s", q.field, q.field[0] ? ": " : "", q.err);
	else if (client_alive(q.s, c) && out.len > 0) {
		const char *nl = memchr(buf_data(&out), '\n', out.len);
		client_message(c, "%.*s", (int)(nl != NULL ? (size_t)(nl - buf_data(&out)) : out.len), buf_data(&out));
	}
	buf_free(&out);
}

void cmd_run_key(struct client *c, const char *name, int argc, const char **argv)
{
	const struct cmd_entry *e = cmd_lookup(name, CMD_KEY);
	if (e != NULL && c->srv->cur != NULL)
		cmd_run_client(c, e, CMD_FROM_KEY, argc, argv);
}

#define LINE_WORDS 64

/* A line typed at the `:` prompt: a command and its words, split at
 * spaces (as the help lists them). */
void cmd_run_line(struct client *c, const char *line)
{
	char copy[512], *save = NULL;
	const char *words[LINE_WORDS];
	int n = 0;
	snprintf(copy, sizeof copy, "%s", line);
	for (char *w = strtok_r(copy, " ", &save); w != NULL && n < LINE_WORDS; w = strtok_r(NULL, " ", &save))
		words[n++] = w;
	if (n == 0 || c->srv->cur == NULL)
		return;
	const struct cmd_entry *e = cmd_lookup(words[0], CMD_KEY | CMD_CLI);
	if (e == NULL || e == &cmd_command_prompt_entry) {
		client_message(c, "unknown command: %s (prefix ? lists them)", words[0]);
		return;
	}
	cmd_run_client(c, e, CMD_FROM_PROMPT, n - 1, words + 1);
}

int cmd_run_argv(struct server *s, int argc, const char **argv, const char *cwd, struct buf *out)
{
	const struct cmd_entry *e = cmd_lookup(argv[0], CMD_CLI);
	char line[600];
	if (e == NULL) {
		snprintf(line, sizeof line, "sandmux: unknown server command %s\n", argv[0]);
		buf_addstr(out, line);
		return 2;
	}
	struct cmdq q = { .s = s, .from = CMD_FROM_CLI, .entry = e, .cwd = cwd, .out = out };
	if (cmdq_run(&q, args_parse(&e->args, argc - 1, argv + 1, &q.args)) < 0) {
		snprintf(line, sizeof line, "sandmux %s: %s%s%s\n", argv[0], q.field, q.field[0] ? ": " : "", q.err);
		buf_addstr(out, line);
		if (q.status == 2 && e->usage != NULL) {
			snprintf(line, sizeof line, "usage: sandmux %s%s%s\n", argv[0], e->usage[0] ? " " : "",
				 e->usage);
			buf_addstr(out, line);
		}
		return q.status != 0 ? q.status : 1;
	}
	return q.status;
}

int cmd_run_json(struct client *c, const char *verb, const cJSON *o, cJSON *reply, char *field, size_t fieldlen,
		 char *err, size_t errlen)
{
	const struct cmd_entry *e = cmd_lookup(verb, CMD_CTL);
	if (e == NULL) {
		snprintf(field, fieldlen, "verb");
		snprintf(err, errlen, "unknown verb (send {\"hello\":1} for the list)");
		return -1;
	}
	struct cmdq q = { .s = c->srv, .c = c, .from = CMD_FROM_CTL, .entry = e, .reply = reply };
	if (cmdq_run(&q, args_from_json(&e->args, o, &q.args)) == 0)
		return 0;
	snprintf(field, fieldlen, "%s", q.field);
	snprintf(err, errlen, "%s", q.err);
	return -1;
}

cJSON *cmd_ctl_verbs(void)
{
	cJSON *verbs = cJSON_CreateArray();
	for (size_t i = 0; cmd_table[i] != NULL; i++)
		if (cmd_table[i]->flags & CMD_CTL)
			cJSON_AddItemToArray(verbs, cJSON_CreateString(cmd_table[i]->name));
	return verbs;
}

bool cmd_bindable(const char *name)
{
	return cmd_lookup(name, CMD_KEY) != NULL;
}

int cmd_help(const struct server *s, char lines[][96], int max)
{
	char pk[32];
	keys_name(&s->cfg.prefix, pk, sizeof pk);
	int n = 0;
	snprintf(lines[n++], 96, "prefix %s, then:", pk);
	for (int i = 0; i < s->cfg.nbinds && n < max; i++) {
		char kn[32];
		const struct cmd_entry *e = cmd_lookup(s->cfg.binds[i].cmd, CMD_KEY);
		if (e == NULL) /* a config read without the table's check */
			continue;
		snprintf(lines[n++], 96, "  %-8s %-13s %s (from the config)",
			 keys_name(&s->cfg.binds[i].key, kn, sizeof kn), e->name, e->help);
	}
	for (size_t i = 0; cmd_table[i] != NULL && n < max; i++)
		if (cmd_table[i]->key != NULL)
			snprintf(lines[n++], 96, "  %-8s %-13s %s", cmd_table[i]->key, cmd_table[i]->name,
				 cmd_table[i]->help);
	if (n < max)
		snprintf(lines[n++], 96, "  %-8s %-13s %s", "0-9", "select-window", "show window N");
	if (n < max)
		snprintf(lines[n++], 96, "  %-8s %-13s %s", pk, "send-prefix", "send the prefix key to the pane");
	if (n < max)
		snprintf(lines[n++], 96, "mouse: click focuses a pane, drag a border to resize, wheel scrolls");
	return n;
}

struct pane *cmd_new_pane(struct server *s, struct window *w, const struct pane_spec *spec, char *err, size_t errlen)
{
	struct pane *p = w != NULL ? window_split(w, 0, spec, err, errlen) : NULL;
	if (p != NULL)
		return p;
	/* no room in this window: the pane gets a window of its own */
	w = session_new_window(s, NULL);
	p = w != NULL ? window_split(w, 0, spec, err, errlen) : NULL;
	if (p == NULL) {
		if (w != NULL)
			session_remove_window(s, w);
		else
			snprintf(err, errlen, "out of memory");
		return NULL;
	}
	session_select(s, w);
	return p;
}
