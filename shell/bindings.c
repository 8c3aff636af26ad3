/* bindings: the multiplexer's commands, one table for the keys after the
 * prefix, the help screen and the command verbs clients send (`sandmux
 * new`, `kill-session`, `ls`). A key that is not the prefix, and not
 * bound in a mode, goes to the active pane, re-encoded for the modes the
 * program asked for (application cursor keys and the like). */
#include "shell/mux.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pty/vt.h"
#include "shell/escalate.h"
#include "shell/mode.h"

struct mux_cmd {
	const char *name;
	const char *key; /* the default binding after the prefix */
	const char *help;
	void (*fn)(struct client *, struct window *);
};

static void do_split_lr(struct client *c, struct window *w);
static void do_split_tb(struct client *c, struct window *w);

/* As tmux: one slip must not end an agent's session, so ask first. */
static void do_kill_pane(struct client *c, struct window *w)
{
	if (w->active == NULL)
		return;
	c->prompt_on = true;
	c->prompt_kind = PROMPT_CONFIRM;
	c->confirm_pane = w->active->id;
	snprintf(c->prompt, sizeof c->prompt, "kill-pane %d? (y/n)", w->active->id);
	server_redraw(c->srv, false);
}
static void do_up(struct client *c, struct window *w)
{
	(void)c;
	window_focus_dir(w, 0, -1);
}
static void do_down(struct client *c, struct window *w)
{
	(void)c;
	window_focus_dir(w, 0, 1);
}
static void do_left(struct client *c, struct window *w)
{
	(void)c;
	window_focus_dir(w, -1, 0);
}
static void do_right(struct client *c, struct window *w)
{
	(void)c;
	window_focus_dir(w, 1, 0);
}
static void do_grow_up(struct client *c, struct window *w)
{
	(void)c;
	window_resize_pane(w, 0, -1);
}
static void do_grow_down(struct client *c, struct window *w)
{
	(void)c;
	window_resize_pane(w, 0, 1);
}
static void do_grow_left(struct client *c, struct window *w)
{
	(void)c;
	window_resize_pane(w, -1, 0);
}
static void do_grow_right(struct client *c, struct window *w)
{
	(void)c;
	window_resize_pane(w, 1, 0);
}
static void do_zoom(struct client *c, struct window *w)
{
	(void)c;
	window_zoom(w);
}
static void do_layout(struct client *c, struct window *w)
{
	(void)c;
	window_next_layout(w, -1);
}
static void do_tiled(struct client *c, struct window *w)
{
	(void)c;
	window_next_layout(w, LAYOUT_TILED);
}

static void do_next_pane(struct client *c, struct window *w)
{
	(void)c;
	if (w->active != NULL)
		window_focus(w, w->active->next != NULL ? w->active->next : w->panes);
}

static void do_detach(struct client *c, struct window *w)
{
	(void)w;
	char why[128];
	snprintf(why, sizeof why, "detached (from session %s)", c->srv->name);
	client_drop(c, why);
}

static void do_new_window(struct client *c, struct window *w)
{
	(void)w;
	struct server *s = c->srv;
	struct window *nw = session_new_window(s, NULL);
	struct pane_spec spec = { 0 };
	char err[256];
	if (nw == NULL || window_split(nw, 0, &spec, err, sizeof err) == NULL) {
		if (nw != NULL)
			session_remove_window(s, nw);
		client_message(c, "cannot open a window");
		return;
	}
	session_select(s, nw);
}

static void do_next_window(struct client *c, struct window *w)
{
	session_select(c->srv, w->next != NULL ? w->next : c->srv->windows);
}

static void do_prev_window(struct client *c, struct window *w)
{
	struct window *prev = c->srv->windows;
	while (prev->next != NULL && prev->next != w)
		prev = prev->next;
	if (w == c->srv->windows)
		while (prev->next != NULL)
			prev = prev->next;
	session_select(c->srv, prev);
}

static void do_copy_mode(struct client *c, struct window *w)
{
	(void)c;
	if (w->active != NULL)
		copy_enter(w->active, 0);
}

static void do_paste(struct client *c, struct window *w)
{
	if (w->active == NULL || c->srv->paste.len == 0)
		return;
	size_t cap = c->srv->paste.len + 16;
	char *out = malloc(cap);
	if (out == NULL)
		return;
	size_t n = vt_paste(w->active->vt, c->srv->paste.p, c->srv->paste.len, out, cap);
	pane_write(w->active, out, n);
	free(out);
}

static void help_draw(struct client *c)
{
	char lines[64][96];
	int n = bindings_help(c->srv, lines, 64);
	ui_erase(c->ui);
	int rows = ui_rows(c->ui);
	ui_text(c->ui, 0, 0, ui_cols(c->ui), " sandmux key bindings (press any key to close)", UI_TITLE_ACTIVE);
	for (int i = 0; i < n && i + 1 < rows; i++)
		ui_text(c->ui, i + 1, 1, ui_cols(c->ui) - 1, lines[i], UI_NORMAL);
}

/* Any key closes it. */
static bool help_key(struct client *c, const struct key *k)
{
	(void)c;
	(void)k;
	return false;
}

const struct client_mode mode_help = { .name = "help", .draw = help_draw, .key = help_key };

static void do_help(struct client *c, struct window *w)
{
	(void)w;
	mode_enter(c, &mode_help);
}

static void do_denials(struct client *c, struct window *w)
{
	(void)w;
	escalate_toggle_denials(c);
}

static void prompt_open(struct client *c, int kind)
{
	c->prompt_on = true;
	c->prompt_kind = kind;
	c->prompt[0] = 0;
	server_redraw(c->srv, false);
}
static void do_command_prompt(struct client *c, struct window *w)
{
	(void)w;
	prompt_open(c, PROMPT_COMMAND);
}
static void do_rename_prompt(struct client *c, struct window *w)
{
	(void)w;
	prompt_open(c, PROMPT_RENAME);
}
static void do_overview(struct client *c, struct window *w)
{
	(void)w;
	mode_enter(c, &mode_overview);
}
static void do_answer(struct client *c, struct window *w)
{
	(void)w;
	escalate_next_prompt(c);
}

static const struct mux_cmd cmds[] = {
	{ "split-h", "%", "split the pane side by side", do_split_lr },
	{ "split-v", "\"", "split the pane above/below", do_split_tb },
	{ "kill-pane", "x", "close the pane (kills its sandbox)", do_kill_pane },
	{ "select-up", "Up", "focus the pane above", do_up },
	{ "select-down", "Down", "focus the pane below", do_down },
	{ "select-left", "Left", "focus the pane to the left", do_left },
	{ "select-right", "Right", "focus the pane to the right", do_right },
	{ "next-pane", "o", "focus the next pane", do_next_pane },
	{ "zoom", "z", "zoom the pane to the whole window, or back", do_zoom },
	{ "resize-up", "C-Up", "move the pane's horizontal border up", do_grow_up },
	{ "resize-down", "C-Down", "move the pane's horizontal border down", do_grow_down },
	{ "resize-left", "C-Left", "move the pane's vertical border left", do_grow_left },
	{ "resize-right", "C-Right", "move the pane's vertical border right", do_grow_right },
	{ "next-layout", "Space", "next layout: even-horizontal, even-vertical, tiled", do_layout },
	{ "tiled", "M-5", "tiled layout: every pane the same room", do_tiled },
	{ "new-window", "c", "new window", do_new_window },
	{ "next-window", "n", "next window", do_next_window },
	{ "prev-window", "p", "previous window", do_prev_window },
	{ "copy-mode", "[", "copy mode: arrows/PgUp scroll, / search, Space select, Enter copy, q quit", do_copy_mode },
	{ "paste", "]", "paste the copy buffer into the pane", do_paste },
	{ "detach", "d", "detach this client (the session keeps running)", do_detach },
	{ "help", "?", "this list", do_help },
	{ "overview", "w", "every pane of every window, and their prompts: Enter jumps, o s a r d x answer",
	  do_overview },
	{ "denials", "D", "the denials pane: f filter by pane, arrows scroll, q close", do_denials },
	{ "answer", "a", "next sandbox prompt: o once, s session, a/r always, d deny", do_answer },
	{ "rename-window", ",", "rename the window (empty: named after its pane again)", do_rename_prompt },
	{ "command-prompt", ":", "run a command by name: any above, or rename-window NAME", do_command_prompt },
};

static void split(struct client *c, struct window *w, int type)
{
	struct pane_spec spec = { .cwd = NULL };
	char err[256];
	if (window_split(w, type, &spec, err, sizeof err) == NULL)
		client_message(c, "%s", err);
}
static void do_split_lr(struct client *c, struct window *w)
{
	split(c, w, LAYOUT_LR);
}
static void do_split_tb(struct client *c, struct window *w)
{
	split(c, w, LAYOUT_TB);
}

static const struct mux_cmd *cmd_find(const char *name)
{
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (strcmp(cmds[i].name, name) == 0)
			return &cmds[i];
	return NULL;
}

bool bindings_exists(const char *name)
{
	return cmd_find(name) != NULL;
}

int bindings_help(const struct server *s, char lines[][96], int max)
{
	char pk[32];
	keys_name(&s->cfg.prefix, pk, sizeof pk);
	int n = 0;
	snprintf(lines[n++], 96, "prefix %s, then:", pk);
	for (int i = 0; i < s->cfg.nbinds && n < max; i++) {
		char kn[32];
		const struct mux_cmd *cmd = cmd_find(s->cfg.binds[i].cmd);
		snprintf(lines[n++], 96, "  %-8s %-13s %s (from the config)",
			 keys_name(&s->cfg.binds[i].key, kn, sizeof kn), cmd->name, cmd->help);
	}
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0] && n < max; i++)
		snprintf(lines[n++], 96, "  %-8s %-13s %s", cmds[i].key, cmds[i].name, cmds[i].help);
	if (n < max)
		snprintf(lines[n++], 96, "  %-8s %-13s %s", "0-9", "select-window", "show window N");
	if (n < max)
		snprintf(lines[n++], 96, "  %-8s %-13s %s", pk, "send-prefix", "send the prefix key to the pane");
	if (n < max)
		snprintf(lines[n++], 96, "mouse: click focuses a pane, drag a border to resize, wheel scrolls");
	return n;
}

static bool run_bound(struct client *c, const struct key *k)
{
	struct window *w = c->srv->cur;
	const struct mux_config *cfg = &c->srv->cfg;
	if (w == NULL)
		return false;
	for (int i = 0; i < cfg->nbinds; i++)
		if (keys_equal(&cfg->binds[i].key, k)) {
			cmd_find(cfg->binds[i].cmd)->fn(c, w);
			return true;
		}
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		struct key b;
		if (keys_parse(cmds[i].key, &b) && keys_equal(&b, k)) {
			cmds[i].fn(c, w);
			return true;
		}
	}
	if (k->kind == KEY_PLAIN && k->mods == 0 && k->code >= '0' && k->code <= '9') {
		for (struct window *x = c->srv->windows; x != NULL; x = x->next)
			if (x->index == (int)(k->code - '0'))
				session_select(c->srv, x);
		return true;
	}
	return false;
}

/* Keys for the program: special keys through vt_key() (its modes decide
 * the encoding), everything else as typed. */
static void send_key(struct pane *p, const struct key *k, const char *raw, size_t rawlen)
{
	if (k->kind == KEY_PLAIN && k->code >= VT_KEY_UP && k->code <= VT_KEY_F12) {
		char out[64];
		size_t n = vt_key(p->vt, k->code, k->mods, out, sizeof out);
		pane_write(p, out, n);
		return;
	}
	pane_write(p, raw, rawlen);
}

/* Mouse: a press on a border starts a drag, elsewhere focuses the pane
 * under it; a program that asked for mouse reports gets them. */
static void mouse(struct client *c, const struct key *k)
{
	struct window *w = c->srv->cur;
	const struct key_mouse *m = &k->mouse;
	if (w == NULL || c->mode != NULL)
		return;
	if (c->drag != NULL) {
		if (!m->pressed && !m->motion)
			c->drag = NULL;
		else {
			layout_drag(c->drag, c->drag_index, c->drag->type == LAYOUT_LR ? m->x : m->y);
			window_layout(w);
			server_redraw(c->srv, true);
		}
		return;
	}
	if (m->pressed && !m->motion && m->button == 0 && !w->zoomed) {
		c->drag = layout_border_at(w->root, m->x, m->y, &c->drag_index);
		if (c->drag != NULL)
			return;
	}
	struct layout *l = w->zoomed ? layout_find_pane(w->root, w->active) : layout_at(w->root, m->x, m->y);
	if (l == NULL)
		return;
	struct pane *p = l->pane;
	if (m->pressed && !m->motion && m->button < 64)
		window_focus(w, p);
	int row = m->y - p->y - 1, col = m->x - p->x;
	if (vt_modes(p->vt)->mouse > 0 && p->copy == NULL && row >= 0) {
		char out[64];
		/* vt numbers buttons 1-3 and wheel 4-5; a motion report with no
		 * button held comes from the terminal as button 3 */
		int b = m->button >= 64 ? m->button - 64 + 4 : m->button == 3 ? 0 : m->button + 1;
		size_t n = vt_mouse(p->vt, row, col, b | (m->motion ? VT_MOUSE_MOTION : 0), m->pressed, k->mods, out,
				    sizeof out);
		pane_write(p, out, n);
	} else if (m->button == 64 || m->button == 65) {
		if (p->copy == NULL && m->button == 64)
			copy_enter(p, 3);
		else if (p->copy != NULL) {
			struct key step = { .kind = KEY_PLAIN,
					    .code = m->button == 64 ? VT_KEY_UP : VT_KEY_DOWN,
					    .mods = VT_MOD_SHIFT };
			copy_key(c, p, &step);
		}
	}
}

static void rename_window(struct window *w, const char *name)
{
	snprintf(w->name, sizeof w->name, "%.*s", (int)sizeof w->name - 1, name);
	server_redraw(w->srv, true);
}

/* A line typed at the `:` prompt: a command's name, as the help lists
 * them, or rename-window NAME. */
static void command_line(struct client *c, struct window *w, const char *line)
{
	char name[64];
	int n = 0;
	while (*line == ' ')
		line++;
	if (line[0] == 0 || w == NULL || sscanf(line, "%63s%n", name, &n) != 1)
		return;
	const char *arg = line + n + strspn(line + n, " ");
	const struct mux_cmd *cmd = cmd_find(name);
	if (strcmp(name, "rename-window") == 0 && arg[0] != 0)
		rename_window(w, arg);
	else if (cmd != NULL && cmd->fn != do_command_prompt)
		cmd->fn(c, w);
	else
		client_message(c, "unknown command: %s (prefix ? lists them)", name);
}

static void prompt_done(struct client *c, const char *text)
{
	struct window *w = c->srv->cur;
	struct pane *p = w != NULL ? w->active : NULL;
	if (c->prompt_kind == PROMPT_SEARCH && p != NULL)
		copy_search_done(c, p, text);
	else if (c->prompt_kind == PROMPT_RENAME && w != NULL)
		rename_window(w, text);
	else if (c->prompt_kind == PROMPT_COMMAND)
		command_line(c, w, text);
}

static void prompt_key(struct client *c, const struct key *k)
{
	size_t len = strlen(c->prompt);
	if (c->prompt_kind == PROMPT_CONFIRM) {
		/* y kills the pane asked about (if it still lives); any other key keeps it */
		c->prompt_on = false;
		struct pane *p =
			(k->code == 'y' || k->code == 'Y') && k->mods == 0 ? pane_find(c->srv, c->confirm_pane) : NULL;
		if (p != NULL && p->win != NULL)
			window_close_pane(p->win, p);
		server_redraw(c->srv, true);
		return;
	}
	if (k->code == VT_KEY_ENTER || k->code == VT_KEY_ESCAPE || (k->code == 'c' && k->mods == VT_MOD_CTRL)) {
		c->prompt_on = false;
		if (k->code == VT_KEY_ENTER) {
			char text[sizeof c->prompt];
			memcpy(text, c->prompt, sizeof text);
			prompt_done(c, text);
		}
	} else if (k->code == VT_KEY_BACKSPACE) {
		if (len > 0)
			c->prompt[len - 1] = 0;
	} else if (k->mods == 0 && k->code >= 0x20 && k->code < 0x7f && len + 1 < sizeof c->prompt) {
		c->prompt[len] = (char)k->code;
		c->prompt[len + 1] = 0;
	}
	server_redraw(c->srv, false);
}

/* A paste from the outer terminal goes to the active pane as text (a
 * pasted C-b is no prefix), wrapped in paste brackets only when the
 * program asked for them. */
static bool paste_key(struct client *c, const struct key *k, const char *raw, size_t rawlen)
{
	struct window *w = c->srv->cur;
	struct pane *p = w != NULL ? w->active : NULL;
	bool start = k->kind == KEY_UNKNOWN && rawlen == 6 && memcmp(raw, "\033[200~", 6) == 0;
	bool end = k->kind == KEY_UNKNOWN && rawlen == 6 && memcmp(raw, "\033[201~", 6) == 0;
	if (!start && !end && !c->pasting)
		return false;
	if (start || end)
		c->pasting = start;
	if (p != NULL && p->copy == NULL && ((!start && !end) || vt_modes(p->vt)->bracketed_paste))
		pane_write(p, raw, rawlen);
	return true;
}

void bindings_key(struct client *c, const struct key *k, const char *raw, size_t rawlen)
{
	struct server *s = c->srv;
	struct window *w = s->cur;
	if (paste_key(c, k, raw, rawlen))
		return;
	if (c->message[0] && k->kind == KEY_PLAIN) { /* not a terminal's report */
		c->message[0] = 0;
		server_redraw(s, false);
	}
	if (k->kind == KEY_MOUSE) {
		mouse(c, k);
		return;
	}
	if (mode_key(c, k)) /* help, the overview */
		return;
	if (escalate_key(c, k)) /* the denials pane, an open prompt */
		return;

	if (c->prompt_on) {
		prompt_key(c, k);
		return;
	}
	if (c->prefix) {
		c->prefix = false;
		server_redraw(s, false);
		if (keys_equal(k, &s->cfg.prefix)) {
			if (w != NULL && w->active != NULL)
				pane_write(w->active, raw, rawlen);
		} else {
			run_bound(c, k);
		}
		return;
	}
	if (keys_equal(k, &s->cfg.prefix)) {
		c->prefix = true;
		server_redraw(s, false);
		return;
	}
	if (w == NULL || w->active == NULL)
		return;
	if (w->active->copy != NULL)
		copy_key(c, w->active, k);
	else
		send_key(w->active, k, raw, rawlen);
}
