/* escalate-title: what a pane's title line says of its prompts: that one
 * waits, and the seconds a held connection has left, redrawn as they drop.
 * Apart from escalate-view.c (the prompts drawn and answered), since the
 * pane and the denial sink, below that view, call it. */
#include "shell/escalate.h"
#include "shell/escalate-queue.h"

#include <stdio.h>

#include "backends/loop.h"
#include "backends/run.h"
#include "shell/mux.h"

void escalate_title_mark(const struct pane *p, char *buf, size_t cap)
{
	int left = p->esc != NULL ? run_held_left_ms(p->run) : -1;
	char held[48] = "";
	if (left >= 0)
		snprintf(held, sizeof held, " · held, refused in %ds", (left + 999) / 1000);
	snprintf(buf, cap, "%s%s", esc_pending(p->esc) ? " · prompt!" : "", held);
}

/* Wakes when the number of seconds shown drops, while any is held. */
static void held_tick(void *arg)
{
	struct pane *p = arg;
	int left = run_held_left_ms(p->run);
	p->esc->held_timer = left >= 0 ? timer_add(p->srv->loop, left % 1000 + 1, held_tick, p) : 0;
	server_redraw(p->srv, false);
}

/* From the next loop turn: the proxy marks the connection held after it
 * has told of its denial. */
void escalate_held_tick(struct pane *p)
{
	struct esc_pane *e = p->esc;
	if (e != NULL && e->held_timer == 0)
		e->held_timer = timer_add(p->srv->loop, 0, held_tick, p);
}
