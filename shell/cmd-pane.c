/* cmd-pane: the commands on one pane — split, kill, focus, zoom, resize,
 * new-pane, send-keys, send-text, capture, copy mode and paste. */
#include "shell/command.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "pty/utf8.h"
#include "pty/vt.h"
#include "shell/mode.h"

#define TARGET                                         \
	{                                              \
		't', "target", ARGS_TARGET, 0, 0, NULL \
	}
#define CAPTURE_LINES 100000

static int split(struct cmdq *q, int type)
{
	struct pane_spec spec = { .cwd = NULL };
	char err[256];
	if (window_split(q->w, type, &spec, err, sizeof err) == NULL)
		return cmdq_error(q, 1, NULL, "%s", err);
	return 0;
}
static int split_h_exec(struct cmdq *q)
{
	return split(q, LAYOUT_LR);
}
static int split_v_exec(struct cmdq *q)
{
	return split(q, LAYOUT_TB);
}
const struct cmd_entry cmd_split_h_entry = { .name = "split-h",
					     .key = "%",
					     .help = "split the pane side by side",
					     .target = CMD_TARGET_WINDOW,
					     .flags = CMD_KEY,
					     .exec = split_h_exec };
const struct cmd_entry cmd_split_v_entry = { .name = "split-v",
					     .key = "\"",
					     .help = "split the pane above/below",
					     .target = CMD_TARGET_WINDOW,
					     .flags = CMD_KEY,
					     .exec = split_v_exec };

/* y: the pane asked about, if it still lives. */
static void kill_pane_yes(struct client *c, int id)
{
	struct pane *p = pane_find(c->srv, id);
	if (p != NULL && p->win != NULL)
		window_close_pane(p->win, p);
	server_redraw(c->srv, true);
}

/* From a key or the prompt, as tmux: one slip must not end an agent's
 * session, so ask first. From a script: at once. */
static int kill_pane_exec(struct cmdq *q)
{
	if (q->from == CMD_FROM_KEY || q->from == CMD_FROM_PROMPT) {
		char question[64];
		snprintf(question, sizeof question, "kill-pane %d? (y/n)", q->p->id);
		prompt_confirm(q->c, question, kill_pane_yes, q->p->id);
		return 0;
	}
	server_log(q->s, "ctl: kill-pane %d", q->p->id);
	window_close_pane(q->p->win, q->p);
	return 0;
}
const struct cmd_entry cmd_kill_pane_entry = {
	.name = "kill-pane",
	.args = { .opts = { TARGET } },
	.usage = "[-t PANE]",
	.key = "x",
	.help = "close the pane (kills its sandbox)",
	.target = CMD_TARGET_PANE,
	.flags = CMD_KEY | CMD_CTL,
	.exec = kill_pane_exec,
};

#define FOCUS(fname, dx, dy)                    \
	static int fname(struct cmdq *q)        \
	{                                       \
		window_focus_dir(q->w, dx, dy); \
		return 0;                       \
	}
FOCUS(select_up_exec, 0, -1)
FOCUS(select_down_exec, 0, 1)
FOCUS(select_left_exec, -1, 0)
FOCUS(select_right_exec, 1, 0)
#define GROW(fname, dx, dy)                       \
	static int fname(struct cmdq *q)          \
	{                                         \
		window_resize_pane(q->w, dx, dy); \
		return 0;                         \
	}
GROW(resize_up_exec, 0, -1)
GROW(resize_down_exec, 0, 1)
GROW(resize_left_exec, -1, 0)
GROW(resize_right_exec, 1, 0)
#define WINDOW_ENTRY(var, n, k, h, fn)                                                                    \
	const struct cmd_entry var = {                                                                    \
		.name = n, .key = k, .help = h, .target = CMD_TARGET_WINDOW, .flags = CMD_KEY, .exec = fn \
	}
WINDOW_ENTRY(cmd_select_up_entry, "select-up", "Up", "focus the pane above", select_up_exec);
WINDOW_ENTRY(cmd_select_down_entry, "select-down", "Down", "focus the pane below", select_down_exec);
WINDOW_ENTRY(cmd_select_left_entry, "select-left", "Left", "focus the pane to the left", select_left_exec);
WINDOW_ENTRY(cmd_select_right_entry, "select-right", "Right", "focus the pane to the right", select_right_exec);
WINDOW_ENTRY(cmd_resize_up_entry, "resize-up", "C-Up", "move the pane's horizontal border up", resize_up_exec);
WINDOW_ENTRY(cmd_resize_down_entry, "resize-down", "C-Down", "move the pane's horizontal border down",
	     resize_down_exec);
WINDOW_ENTRY(cmd_resize_left_entry, "resize-left", "C-Left", "move the pane's vertical border left", resize_left_exec);
WINDOW_ENTRY(cmd_resize_right_entry, "resize-right", "C-Right", "move the pane's vertical border right",
	     resize_right_exec);

static int next_pane_exec(struct cmdq *q)
{
	if (q->w->active != NULL)
		window_focus(q->w, q->w->active->next != NULL ? q->w->active->next : q->w->panes);
	return 0;
}
WINDOW_ENTRY(cmd_next_pane_entry, "next-pane", "o", "focus the next pane", next_pane_exec);

static int zoom_exec(struct cmdq *q)
{
	window_zoom(q->w);
	return 0;
}
WINDOW_ENTRY(cmd_zoom_entry, "zoom", "z", "zoom the pane to the whole window, or back", zoom_exec);

/* resize: grow the target pane by dx, dy cells (negative shrinks). */
static int resize_exec(struct cmdq *q)
{
	int dx = cmdq_int(q, "dx", 0), dy = cmdq_int(q, "dy", 0);
	if (dx == 0 && dy == 0)
		return cmdq_error(q, 2, "dx", "give dx or dy (cells to grow the pane by; negative shrinks)");
	window_focus(q->p->win, q->p);
	window_resize_pane(q->p->win, dx, dy);
	cJSON_AddNumberToObject(q->reply, "width", q->p->w);
	cJSON_AddNumberToObject(q->reply, "height", q->p->h - 1);
	return 0;
}
const struct cmd_entry cmd_resize_entry = {
	.name = "resize",
	.args = { .opts = { TARGET,
			    { 'x', "dx", ARGS_INT, -1000, 1000, NULL },
			    { 'y', "dy", ARGS_INT, -1000, 1000, NULL } } },
	.usage = "[-t PANE] [-x DX] [-y DY]",
	.target = CMD_TARGET_PANE,
	.flags = CMD_CTL,
	.exec = resize_exec,
};

/* Each word a key name as the config reads them ("Enter", "C-c", "Up"),
 * or, when it is not one, text typed as it stands (as tmux's send-keys). */
static int send_keys_exec(struct cmdq *q)
{
	struct pane *p = q->p;
	if (q->args.argv == NULL)
		return cmdq_error(q, 2, "keys", "must be an array of key names or strings");
	if (p->fd < 0)
		return cmdq_error(q, 1, "target", "the pane's program has ended");
	for (int i = 0; i < q->args.argc; i++) {
		struct key k;
		char out[64];
		const char *w = q->args.argv[i];
		size_t n =
			keys_parse(w, &k) && k.kind == KEY_PLAIN ? vt_key(p->vt, k.code, k.mods, out, sizeof out) : 0;
		if (n > 0)
			pane_write(p, out, n);
		else
			pane_write(p, w, strlen(w));
	}
	return 0;
}
const struct cmd_entry cmd_send_keys_entry = {
	.name = "send-keys",
	.args = { .opts = { TARGET }, .words = "keys", .lower = 0, .upper = -1 },
	.usage = "[-t PANE] KEY...",
	.target = CMD_TARGET_PANE,
	.flags = CMD_CTL,
	.exec = send_keys_exec,
};

static int send_text_exec(struct cmdq *q)
{
	const char *text = cmdq_get(q, "text");
	if (text == NULL)
		return cmdq_error(q, 2, "text", "missing");
	if (q->p->fd < 0)
		return cmdq_error(q, 1, "target", "the pane's program has ended");
	pane_write(q->p, text, strlen(text));
	return 0;
}
const struct cmd_entry cmd_send_text_entry = {
	.name = "send-text",
	.args = { .opts = { TARGET, { 0, "text", ARGS_STRING, 0, 0, NULL } } },
	.usage = "[-t PANE] --text TEXT",
	.target = CMD_TARGET_PANE,
	.flags = CMD_CTL,
	.exec = send_text_exec,
};

/* SGR for a cell's attributes, from a reset: what `capture -e` shows. */
static void sgr_add(struct buf *b, const struct vt_attr *a)
{
	static const struct {
		uint16_t flag;
		const char *code;
	} f[] = {
		{ VT_BOLD, ";1" },  { VT_DIM, ";2" },     { VT_ITALIC, ";3" },  { VT_UNDERLINE, ";4" },
		{ VT_BLINK, ";5" }, { VT_REVERSE, ";7" }, { VT_CONCEAL, ";8" }, { VT_STRIKE, ";9" },
	};
	char s[96] = "\033[0";
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		if (a->flags & f[i].flag)
			strcat(s, f[i].code);
	const uint32_t col[2] = { a->fg, a->bg };
	for (int i = 0; i < 2; i++) {
		size_t n = strlen(s);
		if (col[i] & VT_COLOR_RGB)
			snprintf(s + n, sizeof s - n, ";%d;2;%u;%u;%u", i ? 48 : 38, (col[i] >> 16) & 255,
				 (col[i] >> 8) & 255, col[i] & 255);
		else if (col[i] & VT_COLOR_INDEX)
			snprintf(s + n, sizeof s - n, ";%d;5;%u", i ? 48 : 38, col[i] & 255);
	}
	strcat(s, "m");
	buf_addstr(b, s);
}

static bool attr_eq(const struct vt_attr *a, const struct vt_attr *b)
{
	return a->fg == b->fg && a->bg == b->bg && a->flags == b->flags;
}

/* One row as text, trailing blanks cut; with attrs, an SGR before every
 * change of attributes (and a reset at the end when any was set). */
static void row_text(const struct vt *vt, int row, bool attrs, struct buf *b)
{
	int cols = vt_cols(vt), last = -1;
	for (int x = 0; x < cols; x++) {
		const struct vt_cell *cell = vt_cell(vt, row, x);
		if (cell != NULL && cell->ch[0] != 0 && cell->ch[0] != ' ')
			last = x;
	}
	struct vt_attr cur = { 0 };
	for (int x = 0; x <= last; x++) {
		const struct vt_cell *cell = vt_cell(vt, row, x);
		if (cell == NULL || cell->width == 0)
			continue;
		if (attrs && !attr_eq(&cell->attr, &cur)) {
			cur = cell->attr;
			sgr_add(b, &cur);
		}
		char u[4];
		if (cell->ch[0] == 0)
			buf_add(b, " ", 1);
		for (int i = 0; i < VT_MAX_CHARS && cell->ch[i] != 0; i++)
			buf_add(b, u, utf8_encode(cell->ch[i], u));
	}
	struct vt_attr none = { 0 };
	if (attrs && !attr_eq(&cur, &none))
		buf_addstr(b, "\033[0m");
}

static int capture_exec(struct cmdq *q)
{
	struct pane *p = q->p;
	int start = cmdq_int(q, "start", 0);
	if (q->reply == NULL)
		return 0;
	cJSON *lines = cJSON_CreateArray();
	struct buf line = { 0 };
	int from = start < -vt_history(p->vt) ? -vt_history(p->vt) : start;
	for (int row = from; row < vt_rows(p->vt); row++) {
		buf_clear(&line);
		row_text(p->vt, row, cmdq_get(q, "attributes") != NULL, &line);
		buf_add(&line, "", 1);
		cJSON_AddItemToArray(lines, cJSON_CreateString(buf_data(&line)));
	}
	buf_free(&line);
	int cy, cx;
	vt_cursor(p->vt, &cy, &cx);
	cJSON_AddNumberToObject(q->reply, "pane", p->id);
	cJSON_AddNumberToObject(q->reply, "rows", vt_rows(p->vt));
	cJSON_AddNumberToObject(q->reply, "cols", vt_cols(p->vt));
	cJSON_AddNumberToObject(q->reply, "cursor_row", cy);
	cJSON_AddNumberToObject(q->reply, "cursor_col", cx);
	cJSON_AddItemToObject(q->reply, "lines", lines);
	return 0;
}
const struct cmd_entry cmd_capture_entry = {
	.name = "capture",
	.args = { .opts = { TARGET,
			    { 'S', "start", ARGS_INT, -CAPTURE_LINES, 0, NULL },
			    { 'e', "attributes", ARGS_FLAG, 0, 0, NULL } } },
	.usage = "[-t PANE] [-S START] [-e]",
	.target = CMD_TARGET_PANE,
	.flags = CMD_CTL,
	.exec = capture_exec,
};

static int copy_mode_exec(struct cmdq *q)
{
	if (q->w->active != NULL)
		copy_enter(q->w->active, 0);
	return 0;
}
const struct cmd_entry cmd_copy_mode_entry = {
	.name = "copy-mode",
	.key = "[",
	.help = "copy mode: arrows/PgUp scroll, / search, Space select, Enter copy, q quit",
	.target = CMD_TARGET_WINDOW,
	.flags = CMD_KEY,
	.exec = copy_mode_exec,
};

static int paste_exec(struct cmdq *q)
{
	struct pane *p = q->w->active;
	if (p == NULL || q->s->paste.len == 0)
		return 0;
	size_t cap = q->s->paste.len + 16;
	char *out = malloc(cap);
	if (out == NULL)
		return cmdq_error(q, 1, NULL, "out of memory");
	size_t n = vt_paste(p->vt, buf_data(&q->s->paste), q->s->paste.len, out, cap);
	pane_write(p, out, n);
	free(out);
	return 0;
}
const struct cmd_entry cmd_paste_entry = { .name = "paste",
					   .key = "]",
					   .help = "paste the copy buffer into the pane",
					   .target = CMD_TARGET_WINDOW,
					   .flags = CMD_KEY,
					   .exec = paste_exec };
