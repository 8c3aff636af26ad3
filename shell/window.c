/* window: the panes of one window and their layout (shell/layout.c does
 * the arithmetic): split, close, focus, zoom, resize, presets. After any
 * change window_layout() gives each pane its rectangle and the PTYs their
 * new sizes. */
#include "shell/mux.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PANES 256

static void pane_place(struct pane *p, int x, int y, int w, int h)
{
	if (p->x != x || p->y != y || p->w != w || p->h != h) {
		p->x = x;
		p->y = y;
		p->w = w;
		p->h = h;
		p->resized = true;
		pane_resize(p, w, h - 1);
	}
}

void window_layout(struct window *w)
{
	struct server *s = w->srv;
	int rows = session_area_rows(s);
	if (w->root == NULL)
		return;
	layout_apply(w->root, 0, 0, s->cols, rows);
	if (w->zoomed && w->active != NULL) {
		pane_place(w->active, 0, 0, s->cols, rows);
		return;
	}
	struct layout *leaves[MAX_PANES];
	int n = layout_leaves(w->root, leaves, MAX_PANES);
	for (int i = 0; i < n; i++)
		pane_place(leaves[i]->pane, leaves[i]->x, leaves[i]->y, leaves[i]->w, leaves[i]->h);
}

/* After the tree changed shape, a border being dragged may be gone. */
static void window_changed(struct window *w)
{
	for (struct client *c = w->srv->clients; c != NULL; c = c->next)
		c->drag = NULL;
	window_layout(w);
	server_redraw(w->srv, true);
}

static void window_add(struct window *w, struct pane *p)
{
	struct pane **pp = &w->panes;
	while (*pp != NULL)
		pp = &(*pp)->next;
	*pp = p;
}

struct pane *window_split(struct window *w, int type, const struct pane_spec *spec, char *err, size_t errlen)
{
	struct server *s = w->srv;
	struct layout *at = w->active != NULL ? layout_find_pane(w->root, w->active) : NULL;
	if (w->zoomed)
		w->zoomed = false;
	if (at != NULL && type == 0)
		type = at->w >= 2 * at->h ? LAYOUT_LR : LAYOUT_TB; /* cells are about twice as tall as wide */
	struct layout *nl;
	if (at == NULL)
		nl = w->root = layout_new_leaf(NULL, 0, 0, s->cols, session_area_rows(s));
	else
		nl = layout_split(&w->root, at, (enum layout_type)type, NULL);
	if (nl == NULL) {
		snprintf(err, errlen, "no room for another pane");
		return NULL;
	}
	struct pane *p = pane_new(w, spec, nl->w, nl->h - 1);
	if (p == NULL) {
		snprintf(err, errlen, "cannot create a pane: out of memory or PTYs");
		layout_remove(&w->root, nl);
		window_changed(w);
		return NULL;
	}
	nl->pane = p;
	window_add(w, p);
	w->active = p;
	w->preset = -1;
	window_changed(w);
	return p;
}

void window_close_pane(struct window *w, struct pane *p)
{
	struct server *s = w->srv;
	struct layout *l = layout_find_pane(w->root, p);
	struct layout *heir = NULL;
	if (l != NULL && l->parent != NULL) {
		int i = 0;
		while (l->parent->kids[i] != l)
			i++;
		heir = l->parent->kids[i > 0 ? i - 1 : i + 1];
		while (heir->type != LAYOUT_LEAF)
			heir = heir->kids[0];
	}
	if (l != NULL)
		layout_remove(&w->root, l);
	for (struct pane **pp = &w->panes; *pp != NULL; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	pane_free(p);
	w->zoomed = false;
	if (w->panes == NULL) {
		session_remove_window(s, w);
		return;
	}
	if (w->active == p)
		w->active = heir != NULL ? heir->pane : w->panes;
	window_changed(w);
}

void window_focus(struct window *w, struct pane *p)
{
	if (p == NULL || p == w->active)
		return;
	w->active = p;
	if (w->zoomed) {
		w->zoomed = false;
		window_layout(w);
	}
	server_redraw(w->srv, true);
}

void window_focus_dir(struct window *w, int dx, int dy)
{
	struct layout *l = layout_find_pane(w->root, w->active);
	if (l == NULL)
		return;
	struct pane *p = w->active;
	int cx = p->x + p->w / 2, cy = p->y + p->h / 2;
	struct layout *n = layout_neighbor(w->root, l, dx, dy, cx, cy);
	if (n != NULL)
		window_focus(w, n->pane);
}

void window_zoom(struct window *w)
{
	if (w->active == NULL || (w->root != NULL && w->root->type == LAYOUT_LEAF && !w->zoomed))
		return;
	w->zoomed = !w->zoomed;
	window_changed(w);
}

void window_resize_pane(struct window *w, int dx, int dy)
{
	struct layout *l = layout_find_pane(w->root, w->active);
	if (l == NULL || w->zoomed)
		return;
	if (dx != 0)
		layout_resize_leaf(l, LAYOUT_LR, dx);
	if (dy != 0)
		layout_resize_leaf(l, LAYOUT_TB, dy);
	window_changed(w);
}

void window_next_layout(struct window *w, int preset)
{
	void *panes[MAX_PANES];
	int n = 0;
	for (struct pane *p = w->panes; p != NULL && n < MAX_PANES; p = p->next)
		panes[n++] = p;
	if (n == 0)
		return;
	if (preset < 0)
		preset = (w->preset + 1) % LAYOUT_NPRESETS;
	struct layout *root =
		layout_preset((enum layout_preset)preset, panes, n, 0, 0, w->srv->cols, session_area_rows(w->srv));
	if (root == NULL)
		return;
	layout_free(w->root);
	w->root = root;
	w->preset = preset;
	w->zoomed = false;
	window_changed(w);
}
