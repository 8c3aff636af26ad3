/* server-draw: when the session is drawn. Every file that changes what a
 * client sees asks here (server_redraw); the frame itself is drawn by
 * redraw.c through s->hooks->draw, so this file calls nothing above it. */
#include "shell/mux.h"

#include "backends/loop.h"

#define DRAW_MS     25   /* a flood is drawn at most once per tick (40 a second) */
#define FLOOD_BYTES 8192 /* output within one tick that counts as a flood */

void server_output(struct server *s, size_t n)
{
	uint64_t now = loop_now_ms();
	if (now - s->flood_start >= DRAW_MS) {
		/* a flood goes on until a whole tick passes quietly */
		s->flood_prev = now - s->flood_start < 2 * DRAW_MS ? s->flood_bytes : 0;
		s->flood_start = now;
		s->flood_bytes = 0;
	}
	s->flood_bytes += n;
}

static void draw_tick(void *arg)
{
	struct server *s = arg;
	s->draw_timer = 0;
	s->draw_pending = false;
	s->last_draw = loop_now_ms();
	s->hooks->draw(s); /* redraw_clients: the drawing files are above this one */
}

/* Small changes (a typed key's echo, a prompt) are drawn at the end of
 * this loop turn; while panes pour out more than FLOOD_BYTES per tick
 * (this one or the last), drawing waits until DRAW_MS after the last
 * draw, so a flood costs one frame per tick instead of one per read. */
void server_redraw(struct server *s, bool full)
{
	if (full)
		for (struct client *c = s->clients; c != NULL; c = c->next)
			c->full = true;
	if (!s->draw_pending) {
		uint64_t since = loop_now_ms() - s->last_draw;
		server_output(s, 0);
		bool flood = s->flood_bytes >= FLOOD_BYTES || s->flood_prev >= FLOOD_BYTES;
		int wait = since >= DRAW_MS || !flood ? 0 : (int)(DRAW_MS - since);
		s->draw_pending = true;
		s->draw_timer = timer_add(s->loop, wait, draw_tick, s);
		s->draw_held = wait > 0;
	}
}

static void echo_tick(void *arg)
{
	struct server *s = arg;
	s->echo_pending = false;
	if (s->draw_pending && s->draw_held)
		s->hooks->draw_active(s); /* redraw_active: the drawing files are above this one */
}

/* The pane being typed into printed a little (an echo): draw it at the end
 * of this turn even while another pane floods, as a person waits for it.
 * Only that pane: the flood's rows wait for their tick, so the echo costs
 * neither their drawing nor their bytes on the way to the terminal. */
void server_redraw_now(struct server *s)
{
	if (!s->draw_pending) {
		server_redraw(s, false);
		if (!s->draw_held)
			return;
	}
	if (!s->draw_held || s->echo_pending)
		return;
	s->echo_pending = true;
	timer_add(s->loop, 0, echo_tick, s);
}
