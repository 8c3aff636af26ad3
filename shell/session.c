/* session: the windows of the server's one session, which one is shown,
 * and the session's size: the smallest attached client wins (like tmux),
 * so every client sees every pane whole. */
#include "shell/mux.h"

#include <stdlib.h>
#include <string.h>

#include "pty/vt.h"

struct window *session_new_window(struct server *s, const char *name)
{
	struct window *w = calloc(1, sizeof *w);
	if (w == NULL)
		return NULL;
	w->srv = s;
	w->index = s->next_window++;
	w->preset = -1;
	snprintf(w->name, sizeof w->name, "%s", name != NULL ? name : "");
	struct window **p = &s->windows;
	while (*p != NULL)
		p = &(*p)->next;
	*p = w;
	if (s->cur == NULL)
		s->cur = w;
	return w;
}

void session_remove_window(struct server *s, struct window *w)
{
	struct window *prev = NULL;
	for (struct window **p = &s->windows; *p != NULL; prev = *p, p = &(*p)->next)
		if (*p == w) {
			*p = w->next;
			break;
		}
	while (w->panes != NULL) {
		struct pane *p = w->panes;
		w->panes = p->next;
		pane_free(p);
	}
	layout_free(w->root);
	for (struct client *c = s->clients; c != NULL; c = c->next)
		c->drag = NULL; /* it may have pointed into this window's tree */
	if (s->cur == w)
		s->cur = w->next != NULL ? w->next : prev != NULL ? prev : s->windows;
	free(w);
	if (s->cur != NULL)
		window_layout(s->cur);
	server_redraw(s, true);
}

void session_select(struct server *s, struct window *w)
{
	if (w == NULL || w == s->cur)
		return;
	s->cur = w;
	window_layout(w);
	server_redraw(s, true);
}

int session_area_rows(const struct server *s)
{
	int rows = s->rows - (s->cfg.status ? 1 : 0);
	return rows < 1 ? 1 : rows;
}

int session_pane_count(const struct server *s)
{
	int n = 0;
	for (const struct window *w = s->windows; w != NULL; w = w->next)
		for (const struct pane *p = w->panes; p != NULL; p = p->next)
			n++;
	return n;
}

void session_resize(struct server *s)
{
	int rows = 0, cols = 0;
	for (const struct client *c = s->clients; c != NULL; c = c->next) {
		if (!c->attached)
			continue;
		if (rows == 0 || c->rows < rows)
			rows = c->rows;
		if (cols == 0 || c->cols < cols)
			cols = c->cols;
	}
	if (rows == 0)
		return; /* nobody attached: keep the last size */
	/* A client's curses screen is the session's size, not its terminal's:
	 * ncurses 6.4 crashed in doupdate() drawing a screen larger than the
	 * area drawn into (a second, smaller client attached). What a larger
	 * terminal shows outside is dotted by hand (redraw.c). */
	for (struct client *c = s->clients; c != NULL; c = c->next)
		if (c->attached && c->ui != NULL && (ui_rows(c->ui) != rows || ui_cols(c->ui) != cols)) {
			ui_resize(c->ui, rows, cols);
			c->full = true;
		}
	if (rows == s->rows && cols == s->cols)
		return;
	s->rows = rows;
	s->cols = cols;
	for (struct window *w = s->windows; w != NULL; w = w->next)
		window_layout(w);
	server_redraw(s, true);
}
