/* redraw: what each attached client sees — the current window's panes
 * with their title lines and borders, the status bar, the help screen —
 * composed with ui/ and sent as one burst per tick. Only dirty rows of a
 * pane are redrawn unless the layout changed; curses then sends only the
 * cells that differ from what the terminal shows. */
#include "shell/mux.h"

#include <stdio.h>
#include <string.h>

#include "pty/vt.h"
#include "shell/escalate.h"
#include "shell/mode.h"
#include "shell/proto.h"

/* Every frame is pushed (client_push) once drawn. */
static void sink_client(void *arg, const char *data, size_t len)
{
	client_output(arg, data, len);
}

static void draw_pane(struct client *c, struct pane *p, bool active, bool all)
{
	char title[256];
	pane_title(p, title, sizeof title);
	ui_text(c->ui, p->y, p->x, p->w, title,
		alerts_pane(p) != 0 ? UI_TITLE_ALERT
		: active            ? UI_TITLE_ACTIVE
				    : UI_TITLE);
	struct ui_sel sel = { 0 };
	int scroll = 0;
	if (p->mode != NULL) { /* copy mode: scrolled, a selection */
		int cy, cx;
		p->mode->view(p, &scroll, &cy, &cx, &sel);
		all = true;
	}
	ui_draw_vt(c->ui, p->vt, p->x, p->y + 1, p->w, p->h - 1, scroll, all || p->resized, &sel);
}

static void draw_borders(struct client *c, struct window *w)
{
	for (struct pane *p = w->panes; p != NULL; p = p->next) {
		if (p->x + p->w >= c->srv->cols)
			continue;
		bool act = p == w->active;
		ui_vline(c->ui, p->x + p->w, p->y, p->h, act ? UI_BORDER_ACTIVE : UI_BORDER);
	}
	/* the active pane's left border is its left neighbour's right one */
	struct pane *a = w->active;
	if (a != NULL && a->x > 0)
		ui_vline(c->ui, a->x - 1, a->y, a->h, UI_BORDER_ACTIVE);
}

/* The status line's prompt, when the client's mode is one. */
static const char *prompt_line(const struct client *c, char *line, size_t size)
{
	return c->mode != NULL && c->mode->status != NULL ? c->mode->status(c, line, size) : NULL;
}

static void draw_status(struct client *c)
{
	struct server *s = c->srv;
	if (!s->cfg.status)
		return;
	int row = s->rows - 1;
	char line[512];
	if (prompt_line(c, line, sizeof line) != NULL) {
		/* as in tmux, a prompt takes the whole line, from the left */
		ui_text(c->ui, row, 0, s->cols, line, UI_STATUS_CURRENT);
		return;
	}
	int n = snprintf(line, sizeof line, "[%s] ", s->name);
	ui_text(c->ui, row, 0, s->cols, "", UI_STATUS);
	ui_text(c->ui, row, 0, n, line, UI_STATUS);
	int x = n;
	for (struct window *w = s->windows; w != NULL && x < s->cols; w = w->next) {
		const char *name = w->name[0] ? w->name : w->active != NULL ? w->active->name : "";
		const char *mark = alerts_window_mark(w);
		int len = snprintf(line, sizeof line, "%d:%s%s%s%s ", w->index, name, w == s->cur ? "*" : "",
				   w->zoomed ? "Z" : "", mark); /* *Z as tmux's */
		ui_text(c->ui, row, x, len < s->cols - x ? len : s->cols - x, line,
			w == s->cur ? UI_STATUS_CURRENT
			: mark[0]   ? UI_ALERT
				    : UI_STATUS);
		x += len;
	}
	const char *right = c->message[0] ? c->message : c->prefix ? "prefix" : NULL;
	if (right != NULL) {
		int len = (int)strlen(right);
		int at = s->cols - len - 1 > x ? s->cols - len - 1 : x;
		ui_text(c->ui, row, at, s->cols - at, right, c->message[0] ? UI_ALERT : UI_STATUS_CURRENT);
	}
}

/* The part of a larger client's terminal outside the session, dotted
 * with sequences of sandmux's own after each of curses' frames (its
 * screen is the session's size, session_resize(), and it clears a line
 * it redraws to the end of the terminal's); the cursor is saved and put
 * back. */
static void draw_outside(struct client *c)
{
	struct server *s = c->srv;
	if (c->rows <= s->rows && c->cols <= s->cols)
		return;
	struct buf b = { 0 };
	char move[32];
	buf_addstr(&b, "\0337\033[m");
	for (int r = 0; r < c->rows; r++) {
		int from = r < s->rows ? s->cols : 0;
		if (from >= c->cols)
			continue;
		snprintf(move, sizeof move, "\033[%d;%dH", r + 1, from + 1);
		buf_addstr(&b, move);
		for (int x = from; x < c->cols; x++)
			buf_add(&b, ".", 1);
	}
	buf_addstr(&b, "\0338");
	sink_client(c, buf_data(&b), b.len);
	buf_free(&b);
}

static void draw_cursor(struct client *c, struct window *w)
{
	struct pane *p = w->active;
	char line[512];
	bool prompt = prompt_line(c, line, sizeof line) != NULL;
	if (prompt && c->srv->cfg.status) {
		int at = (int)strlen(line);
		ui_cursor(c->ui, c->srv->rows - 1, at < c->srv->cols ? at : c->srv->cols - 1, true);
		return;
	}
	if (prompt || p == NULL) {
		ui_cursor(c->ui, c->srv->rows - 1, c->srv->cols - 1, false);
		return;
	}
	int cy, cx;
	bool visible = vt_modes(p->vt)->cursor_visible;
	if (p->mode != NULL) {
		struct ui_sel sel;
		int scroll;
		p->mode->view(p, &scroll, &cy, &cx, &sel);
		visible = true;
	} else {
		vt_cursor(p->vt, &cy, &cx);
	}
	if (cy < 0 || cy >= p->h - 1 || cx < 0 || cx >= p->w)
		visible = false;
	ui_cursor(c->ui, p->y + 1 + cy, p->x + cx, visible && p->state == PANE_RUNNING);
}

static void draw_client(struct client *c)
{
	struct server *s = c->srv;
	struct window *w = s->cur;
	bool all = c->full;
	if (all)
		ui_erase(c->ui);
	if (mode_draw(c)) {
		/* help, the denials pane, the overview: the whole screen */
	} else if (w != NULL) {
		if (w->zoomed && w->active != NULL) {
			draw_pane(c, w->active, true, all);
		} else {
			for (struct pane *p = w->panes; p != NULL; p = p->next)
				draw_pane(c, p, p == w->active, all);
			draw_borders(c, w);
		}
		escalate_draw_prompts(c, w);

		draw_status(c);
		draw_cursor(c, w);
	}
	c->full = false;
	/* the outer terminal reports the mouse only while the mouse option is
	 * on or the pane in front asked for reports */
	struct pane *a = w != NULL ? w->active : NULL;
	ui_mouse(c->ui, s->cfg.mouse || (a != NULL && a->mode == NULL && vt_modes(a->vt)->mouse != 0));
	ui_flush(c->ui, sink_client, c);
	draw_outside(c); /* every frame: curses clears its lines to their end */
}

/* Whether this client can take the active pane alone: the window view
 * (zoomed or not), nothing covering it that would need the rest redrawn
 * (a sandbox prompt is drawn over its pane here too). */
static bool active_alone(const struct client *c)
{
	return !c->full && c->srv->cur != NULL && c->srv->cur->active != NULL &&
	       (c->mode == NULL || (c->mode->draw == NULL && c->mode->status == NULL));
}

void redraw_active(struct server *s)
{
	struct window *w = s->cur;
	if (w == NULL || w->active == NULL)
		return;
	struct pane *p = w->active;
	for (struct client *c = s->clients; c != NULL; c = c->next) {
		if (!c->attached || client_behind(c))
			continue;
		if (!active_alone(c)) {
			c->full = true; /* drawn whole at the tick */
			continue;
		}
		draw_pane(c, p, true, false);
		escalate_draw_prompts(c, w);
		draw_cursor(c, w);
		ui_flush(c->ui, sink_client, c);
		draw_outside(c);
		client_push(c);
	}
	vt_clear_dirty(p->vt);
}

void redraw_clients(struct server *s)
{
	alerts_seen(s);
	for (struct client *c = s->clients; c != NULL; c = c->next) {
		if (!c->attached)
			continue;
		if (client_behind(c)) {
			c->full = true; /* it misses this frame's dirty rows */
			continue;
		}
		draw_client(c);
		client_push(c);
	}
	for (struct window *w = s->windows; w != NULL; w = w->next)
		for (struct pane *p = w->panes; p != NULL; p = p->next) {
			vt_clear_dirty(p->vt);
			p->resized = false;
		}
}
