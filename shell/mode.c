/* mode: entering, leaving and dispatching to a client's mode (mode.h);
 * a pane's mode is called through pane->mode where it is used. */
#include "shell/mode.h"

void mode_enter(struct client *c, const struct client_mode *m)
{
	while (c->mode != NULL && (c->mode == m || !c->mode->under || c->mode_under != NULL))
		mode_leave(c);
	c->mode_under = c->mode;
	c->mode = m;
	c->mode_sel = c->mode_top = 0;
	c->full = true;
	server_redraw(c->srv, true);
}

void mode_leave(struct client *c)
{
	const struct client_mode *m = c->mode;
	if (m == NULL)
		return;
	c->mode = c->mode_under;
	c->mode_under = NULL;
	if (m->exit != NULL)
		m->exit(c);
	c->full = true;
	server_redraw(c->srv, true);
}

void mode_end(struct client *c, const struct client_mode *m)
{
	if (c->mode == m) {
		mode_leave(c);
		return;
	}
	if (c->mode_under != m)
		return;
	c->mode_under = NULL;
	if (m->exit != NULL)
		m->exit(c);
	server_redraw(c->srv, true); /* a sandbox prompt shows under a status-line one */
}

bool mode_key(struct client *c, const struct key *k)
{
	return c->mode != NULL && c->mode->key(c, k);
}

bool mode_draw(struct client *c)
{
	if (c->mode == NULL || c->mode->draw == NULL)
		return false;
	c->mode->draw(c);
	return true;
}

void mode_clamp(struct client *c, int n, int page)
{
	if (c->mode_sel >= n)
		c->mode_sel = n - 1;
	if (c->mode_sel < 0)
		c->mode_sel = 0;
	if (c->mode_sel < c->mode_top)
		c->mode_top = c->mode_sel;
	if (c->mode_sel >= c->mode_top + page)
		c->mode_top = c->mode_sel - page + 1;
}
