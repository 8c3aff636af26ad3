/* pane-limits: each pane's resource limits (backends/limits.h). The
 * defaults of sandmux.json "limits", lowered by the profile's, are made
 * kernel state at every start of the pane; the server looks at their
 * counters once a second, and a limit hit is a denial (op "limit") like
 * any other: in the denials pane, denials.jsonl, `sandmux events`, and
 * once per start as a line in the pane itself. */
#include "shell/mux.h"
#include "shell/escalate.h"

#include <stdlib.h>
#include <string.h>

#include "backends/events.h"
#include "backends/launch.h"
#include "backends/limits.h"
#include "backends/loop.h"
#include "pty/vt.h"

#define LIMITS_POLL_MS 1000

int pane_limits_prepare(struct pane *p, struct policy *pol, struct launch *l, char *err, size_t errlen)
{
	pane_limits_release(p);
	if (!pol->sandboxed)
		return 0;
	if (p->limits == NULL && (p->limits = calloc(1, sizeof *p->limits)) == NULL) {
		snprintf(err, errlen, "limits: out of memory");
		return -1;
	}
	limits_fold(&pol->limits, &p->srv->cfg.limits);
	char tag[64];
	snprintf(tag, sizeof tag, "pane-%d-%llu", p->id, (unsigned long long)loop_now_ms());
	limits_prepare(p->limits, &pol->limits, tag);
	p->limits_said = 0;
	l->limits = p->limits;
	return 0;
}

void pane_limits_started(struct pane *p, const struct launch *l)
{
	char what[512];
	if (p->limits == NULL || l->limits == NULL)
		return;
	limits_launched(p->limits, l->weak, l->pid);
	limits_describe(p->limits, what, sizeof what);
	server_log(p->srv, "pane %d: limits: %s", p->id, what);
}

static void on_limit(struct denial *d, void *arg)
{
	struct pane *p = arg;
	unsigned bit = strcmp(d->target, "pids") == 0 ? 1 : strcmp(d->target, "memory") == 0 ? 2 : 4;
	server_log(p->srv, "pane %d: limit: %s", p->id, d->rule);
	if (!(p->limits_said & bit)) {
		/* said once per start, in the pane: the program's own error
		 * (EAGAIN, ENOMEM, ENOSPC) does not name sandmux */
		char line[256];
		int n = snprintf(line, sizeof line, "\r\n\033[1;33msandmux: limit reached: %s\033[m\r\n", d->rule);
		vt_write(p->vt, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
		p->limits_said |= bit;
	}
	escalate_limit_denial(p, d);
}

void pane_limits_release(struct pane *p)
{
	if (p->limits == NULL)
		return;
	limits_poll(p->limits, -1, on_limit, p); /* what the counters took since the last look */
	limits_release(p->limits);
}

void pane_limits_free(struct pane *p)
{
	/* the pane is going: nothing left to tell it */
	if (p->limits != NULL)
		limits_release(p->limits);
	free(p->limits);
	p->limits = NULL;
}

void pane_limits_title(const struct pane *p, char *buf, size_t cap)
{
	buf[0] = '\0';
	if (p->limits != NULL && p->sandboxed && p->state == PANE_RUNNING) {
		char b[96];
		limits_brief(p->limits, b, sizeof b);
		snprintf(buf, cap, " · %s", b);
	}
}

static void limits_tick(void *arg)
{
	struct server *s = arg;
	for (struct window *w = s->windows; w != NULL; w = w->next)
		for (struct pane *p = w->panes; p != NULL; p = p->next)
			if (p->limits != NULL && p->pid > 0 && p->sandboxed)
				limits_poll(p->limits, p->pid, on_limit, p);
	s->limits_timer = timer_add(s->loop, LIMITS_POLL_MS, limits_tick, s);
}

void pane_limits_watch(struct server *s)
{
	s->limits_timer = timer_add(s->loop, LIMITS_POLL_MS, limits_tick, s);
}
