/* cmd-new-pane: `sandmux new`, a control request's "new-pane" and the
 * `:new-pane` prompt, one command: a pane a command, commands separated
 * by ":::" (a wall in one step). With -n NAME the panes are NAME, NAME-2,
 * NAME-3... */
#include "shell/command.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

struct new_run {
	struct pane *first, *last;
	struct buf ids; /* "3,4,5" */
	int status;
};

/* A command line's reply: "pane 3,4" or {"pane":3,"panes":[3,4]}. */
static void new_reply_text(struct cmdq *q, struct new_run *r)
{
	char line[2048];
	buf_add(&r->ids, "", 1);
	if (cmdq_get(q, "json") != NULL)
		snprintf(line, sizeof line, "{\"pane\":%d,\"panes\":[%s]}\n", r->first != NULL ? r->first->id : 0,
			 buf_data(&r->ids));
	else
		snprintf(line, sizeof line, "pane %s\n", buf_data(&r->ids));
	if (q->out != NULL && (r->status == 0 || r->ids.len > 1))
		buf_addstr(q->out, line);
}

static void new_said(struct cmdq *q, const char *fmt, const char *arg)
{
	char line[512];
	snprintf(line, sizeof line, fmt, arg);
	if (q->out != NULL)
		buf_addstr(q->out, line);
}

/* Opens one pane for argv (NULL: $SHELL); -1 when it could not. */
static int new_one(struct cmdq *q, struct window *w, struct pane_spec *spec, struct new_run *r)
{
	char err[256], id[32];
	struct pane *p = cmd_new_pane(q->s, w, spec, err, sizeof err);
	if (p == NULL) {
		if (q->from != CMD_FROM_CLI)
			return cmdq_error(q, 1, NULL, "%s", err);
		new_said(q, "sandmux new: %s\n", err);
		r->status = 1;
		return -1;
	}
	if (r->first == NULL)
		r->first = p;
	r->last = p;
	snprintf(id, sizeof id, "%s%d", r->ids.len > 0 ? "," : "", p->id);
	buf_addstr(&r->ids, id);
	if (p->state == PANE_FAILED) {
		new_said(q, "sandmux new: pane %s did not start (see its screen)\n", id + (id[0] == ','));
		r->status = 1;
	}
	return 0;
}

/* Every command between ":::" checked before any pane opens. */
static bool new_words_ok(int argc, const char **argv)
{
	for (int k = 0; k <= argc; k++)
		if ((k == argc || strcmp(argv[k], ":::") == 0) && (k == 0 || strcmp(argv[k - 1], ":::") == 0))
			return false;
	return true;
}

static int new_spec(struct cmdq *q, struct pane_spec *spec, char *dir, size_t dirlen)
{
	const char *cwd = cmdq_get(q, "cwd");
	spec->name = cmdq_get(q, "name");
	spec->profile = cmdq_get(q, "profile");
	spec->agent = cmdq_get(q, "agent");
	if (spec->name == NULL && q->from == CMD_FROM_CTL)
		spec->name = spec->agent;
	spec->cwd = cwd != NULL ? cwd : q->cwd != NULL ? q->cwd : q->s->workspace;
	if (spec->cwd[0] != '/' && q->cwd == NULL)
		return cmdq_error(q, 2, "cwd", "must be an absolute path");
	if (spec->cwd[0] != '/') { /* relative to where `sandmux new` ran */
		snprintf(dir, dirlen, "%s/%s", q->cwd, spec->cwd);
		spec->cwd = dir;
	}
	return 0;
}

/* Where the first pane goes: --window N, a new window, or the current. */
static int new_window_of(struct cmdq *q, struct window **w)
{
	int index = cmdq_int(q, "window", -1);
	*w = index >= 0 ? cmd_find_window(q->s, cmdq_get(q, "window")) : q->s->cur;
	if (index >= 0 && *w == NULL)
		return cmdq_error(q, 2, "window", "no such window");
	if (cmdq_get(q, "new_window") != NULL)
		*w = NULL; /* cmd_new_pane() opens one */
	return 0;
}

static int new_layout(struct cmdq *q, int *preset)
{
	const char *layout = cmdq_get(q, "layout");
	*preset = layout != NULL ? layout_preset_by_name(layout) : -1;
	if (layout == NULL || *preset >= 0)
		return 0;
	if (q->from == CMD_FROM_CLI)
		return cmdq_error(q, 2, NULL, "--layout %s: want even-horizontal, even-vertical or tiled", layout);
	return cmdq_error(q, 2, "layout", "unknown layout (even-horizontal, even-vertical or tiled)");
}

static void new_reply_json(struct cmdq *q, const struct pane *p)
{
	cJSON_AddNumberToObject(q->reply, "pane", p->id);
	cJSON_AddNumberToObject(q->reply, "window", p->win->index);
	cJSON_AddStringToObject(q->reply, "state", p->state == PANE_FAILED ? "failed" : "running");
}

static int new_pane_exec(struct cmdq *q)
{
	struct pane_spec spec = { 0 };
	struct window *w;
	char dir[4200], name[80];
	int preset, argc = q->args.argc;
	const char **argv = q->args.argv;
	if (new_layout(q, &preset) < 0 || new_spec(q, &spec, dir, sizeof dir) < 0 || new_window_of(q, &w) < 0)
		return -1;
	if (argc == 0 && q->from == CMD_FROM_CLI)
		return cmdq_error(q, 2, NULL, "no command");
	if (argc > 0 && !new_words_ok(argc, argv))
		return cmdq_error(q, 2, NULL, "an empty command between :::");
	const char *base = spec.name;
	struct new_run r = { 0 };
	for (int n = 1, i = 0; i < argc || (argc == 0 && n == 1); n++) {
		int end = i;
		while (end < argc && strcmp(argv[end], ":::") != 0)
			end++;
		if (argc > 0)
			argv[end] = NULL; /* each command its own argv */
		if (base != NULL && n > 1)
			snprintf(name, sizeof name, "%.60s-%d", base, n), spec.name = name;
		spec.argv = argc > 0 ? (char *const *)(argv + i) : NULL;
		if (new_one(q, r.last != NULL ? r.last->win : w, &spec, &r) < 0)
			break;
		i = end + 1;
	}
	if (r.last != NULL && preset >= 0)
		window_next_layout(r.last->win, preset);
	if (q->from == CMD_FROM_CLI)
		new_reply_text(q, &r);
	else if (r.first != NULL && q->reply != NULL)
		new_reply_json(q, r.first);
	buf_free(&r.ids);
	q->status = r.status;
	return r.first != NULL || q->from == CMD_FROM_CLI ? 0 : -1;
}

const struct cmd_entry cmd_new_pane_entry = {
	.name = "new-pane",
	.alias = "new",
	.args = { .opts = { { 'n', "name", ARGS_STRING, 0, 0, NULL },
			    { 0, "profile", ARGS_STRING, 0, 0, "sandbox" },
			    { 0, "cwd", ARGS_STRING, 0, 0, NULL },
			    { 0, "agent", ARGS_STRING, 0, 0, NULL },
			    { 0, "layout", ARGS_STRING, 0, 0, NULL },
			    { 0, "window", ARGS_INT, -1, 100000, NULL },
			    { 0, "new_window", ARGS_FLAG, 0, 0, NULL },
			    { 0, "json", ARGS_FLAG, 0, 0, NULL } },
		  .words = "command",
		  .lower = 1,
		  .upper = -1,
		  .dashdash = true },
	.usage =
		"[-t SESSION] [-n NAME] [--sandbox P] [--cwd DIR] [--agent NAME] [--layout L] [--json] -- CMD [ARG...] "
		"[::: CMD [ARG...]]... | new [-t SESSION] --file WALL.json",
	.target = CMD_TARGET_NONE,
	.flags = CMD_CLI | CMD_CTL,
	.exec = new_pane_exec,
};
