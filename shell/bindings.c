/* bindings: a client's keys. After the prefix a key runs the command
 * bound to it (the config's "bind", then each command's default key in
 * the command table, command.h); the `:` and rename prompts take the
 * keys while they are open. A key that is not the prefix, and not bound
 * in a mode, goes to the active pane, re-encoded for the modes the
 * program asked for (application cursor keys and the like). */
#include "shell/command.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pty/vt.h"
#include "shell/mode.h"

static bool run_bound(struct client *c, const struct key *k)
{
	struct window *w = c->srv->cur;
	const struct mux_config *cfg = &c->srv->cfg;
	if (w == NULL)
		return false;
	for (int i = 0; i < cfg->nbinds; i++)
		if (keys_equal(&cfg->binds[i].key, k)) {
			cmd_run_key(c, cfg->binds[i].cmd, 0, NULL);
			return true;
		}
	for (size_t i = 0; cmd_table[i] != NULL; i++) {
		struct key b;
		if (cmd_table[i]->key != NULL && keys_parse(cmd_table[i]->key, &b) && keys_equal(&b, k)) {
			cmd_run_key(c, cmd_table[i]->name, 0, NULL);
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
	if (w == NULL || (c->mode != NULL && c->mode->draw != NULL)) /* a mode covers the screen */
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
	if (vt_modes(p->vt)->mouse > 0 && p->mode == NULL && row >= 0) {
		char out[64];
		/* vt numbers buttons 1-3 and wheel 4-5; a motion report with no
		 * button held comes from the terminal as button 3 */
		int b = m->button >= 64 ? m->button - 64 + 4 : m->button == 3 ? 0 : m->button + 1;
		size_t n = vt_mouse(p->vt, row, col, b | (m->motion ? VT_MOUSE_MOTION : 0), m->pressed, k->mods, out,
				    sizeof out);
		pane_write(p, out, n);
	} else if (m->button == 64 || m->button == 65) {
		if (p->mode == NULL && m->button == 64)
			copy_enter(p, 3);
		else if (p->mode != NULL && p->mode->wheel != NULL)
			p->mode->wheel(c, p, m->button == 64 ? 1 : -1);
	}
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
	if (p != NULL && p->mode == NULL && ((!start && !end) || vt_modes(p->vt)->bracketed_paste))
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
	if (mode_key(c, k)) /* help, the overview, the denials pane, a prompt */
		return;
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
	if (w->active->mode == NULL || !w->active->mode->key(c, w->active, k)) /* copy mode takes them all */
		send_key(w->active, k, raw, rawlen);
}
