/* cmd-window: the commands on windows — layouts, new, next, previous,
 * select (a window, or a pane and its window) and rename. */
#include "shell/command.h"

#include <string.h>

#include "shell/mode.h"

static int next_layout_exec(struct cmdq *q)
{
	window_next_layout(q->w, -1);
	return 0;
}
const struct cmd_entry cmd_next_layout_entry = {
	.name = "next-layout",
	.key = "Space",
	.help = "next layout: even-horizontal, even-vertical, tiled",
	.target = CMD_TARGET_WINDOW,
	.flags = CMD_KEY,
	.exec = next_layout_exec,
};

static int tiled_exec(struct cmdq *q)
{
	window_next_layout(q->w, LAYOUT_TILED);
	return 0;
}
const struct cmd_entry cmd_tiled_entry = {
	.name = "tiled",
	.usage = "[-t NAME]",
	.key = "M-5",
	.help = "tiled layout: every pane the same room",
	.target = CMD_TARGET_WINDOW,
	.flags = CMD_KEY | CMD_CLI,
	.exec = tiled_exec,
};

/* A window of its own for a new shell pane, as new-pane's new_window. */
static int new_window_exec(struct cmdq *q)
{
	struct pane_spec spec = { 0 };
	char err[256];
	if (cmd_new_pane(q->s, NULL, &spec, err, sizeof err) == NULL)
		return cmdq_error(q, 1, NULL, "cannot open a window");
	return 0;
}
const struct cmd_entry cmd_new_window_entry = { .name = "new-window",
						.key = "c",
						.help = "new window",
						.target = CMD_TARGET_WINDOW,
						.flags = CMD_KEY,
						.exec = new_window_exec };

static int next_window_exec(struct cmdq *q)
{
	session_select(q->s, q->w->next != NULL ? q->w->next : q->s->windows);
	return 0;
}
const struct cmd_entry cmd_next_window_entry = { .name = "next-window",
						 .key = "n",
						 .help = "next window",
						 .target = CMD_TARGET_WINDOW,
						 .flags = CMD_KEY,
						 .exec = next_window_exec };

static int prev_window_exec(struct cmdq *q)
{
	struct window *w = q->w, *prev = q->s->windows;
	while (prev->next != NULL && prev->next != w)
		prev = prev->next;
	if (w == q->s->windows)
		while (prev->next != NULL)
			prev = prev->next;
	session_select(q->s, prev);
	return 0;
}
const struct cmd_entry cmd_prev_window_entry = { .name = "prev-window",
						 .key = "p",
						 .help = "previous window",
						 .target = CMD_TARGET_WINDOW,
						 .flags = CMD_KEY,
						 .exec = prev_window_exec };

/* select: a window by --window alone, else the target pane (and its
 * window). */
static int select_exec(struct cmdq *q)
{
	if (cmdq_get(q, "window") != NULL && cmdq_get(q, "target") == NULL) {
		struct window *w = cmd_find_window(q->s, cmdq_get(q, "window"));
		if (w == NULL)
			return cmdq_error(q, 1, "window", "no such window");
		session_select(q->s, w);
		return 0;
	}
	struct pane *p = cmd_find_pane(q->s, cmdq_get(q, "target"));
	if (p == NULL)
		return cmdq_error(q, 1, "target", cmdq_get(q, "target") != NULL ? "no such pane" : "no active pane");
	session_select(q->s, p->win);
	window_focus(p->win, p);
	return 0;
}
const struct cmd_entry cmd_select_entry = {
	.name = "select",
	.args = { .opts = { { 't', "target", ARGS_TARGET, 0, 0, NULL }, { 0, "window", ARGS_INT, 0, 100000, NULL } } },
	.usage = "[-t PANE | --window N]",
	.target = CMD_TARGET_NONE,
	.flags = CMD_CTL,
	.exec = select_exec,
};

static void rename_done(struct client *c, const char *text)
{
	cmd_run_key(c, "rename-window", 1, &text);
}

/* From a key (or no name): the prompt asks for the name; empty: named
 * after its pane again. */
static int rename_window_exec(struct cmdq *q)
{
	if (q->args.argc == 0) {
		if (q->c == NULL || !q->c->attached)
			return cmdq_error(q, 2, NULL, "no name");
		prompt_open(q->c, "rename window: ", rename_done);
		return 0;
	}
	struct window *w = q->w;
	w->name[0] = 0;
	for (int i = 0; i < q->args.argc; i++) {
		size_t n = strlen(w->name);
		snprintf(w->name + n, sizeof w->name - n, "%s%s", i > 0 ? " " : "", q->args.argv[i]);
	}
	server_redraw(q->s, true);
	return 0;
}
const struct cmd_entry cmd_rename_window_entry = {
	.name = "rename-window",
	.args = { .lower = 0, .upper = -1 },
	.usage = "[NAME]",
	.key = ",",
	.help = "rename the window (empty: named after its pane again)",
	.target = CMD_TARGET_WINDOW,
	.flags = CMD_KEY,
	.exec = rename_window_exec,
};
