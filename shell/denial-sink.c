/* denial-sink: where a pane's denials go, from every layer of its sandbox
 * (the one callback of backends/run.h): a line in the server log (and,
 * for a limit hit, once per start in the pane), the session's events
 * (~/.sandmux/state/denials.jsonl, kept coalesced for the denials pane),
 * the control subscribers, the count in the pane's title, and a prompt
 * (escalate-queue.c). */
#include "shell/escalate.h"
#include "shell/escalate-queue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/events.h"
#include "backends/proxy.h"
#include "policy/agents.h"
#include "shell/shell-report.h"
#include "shell/mux.h"

/* The session's events, made at the first denial that needs them. */
struct denial_sink {
	struct events ev;
};

static struct events *sink_events(struct server *s)
{
	if (s->sink != NULL)
		return &s->sink->ev;
	struct denial_sink *k = calloc(1, sizeof *k);
	if (k == NULL)
		return NULL;
	if (events_init(&k->ev, s->home) < 0) {
		free(k);
		return NULL;
	}
	s->sink = k;
	return &k->ev;
}

void denial_sink_free(struct server *s)
{
	if (s->sink == NULL)
		return;
	events_free(&s->sink->ev);
	free(s->sink);
	s->sink = NULL;
}

const struct denials *escalate_denials(struct server *s)
{
	struct events *ev = sink_events(s);
	return ev != NULL ? &ev->list : NULL;
}

/* Logged, coalesced, told to the subscribers. */
static void sink_emit(struct pane *p, struct denial *d)
{
	struct events *ev = sink_events(p->srv);
	d->pane = p->id;
	if (ev != NULL)
		events_emit(ev, d);
	if (ev != NULL && ev->err[0] != '\0') { /* e.g. a linked log refused: said, not silent */
		server_log(p->srv, "%s", ev->err);
		ev->err[0] = '\0';
	}
	control_publish(p->srv, d);
}

/* The denied process's command line, while it may still be there: in an
 * agent pane it is the agent's tool call (npm install), which the prompt
 * names. Shown escaped, never run. */
static void proc_cmdline(struct esc_prompt *q)
{
	char path[64], buf[1024];
	if (q->d.pid <= 0)
		return;
	snprintf(path, sizeof path, "/proc/%d/cmdline", (int)q->d.pid);
	FILE *f = fopen(path, "re");
	size_t n = f != NULL ? fread(buf, 1, sizeof buf - 1, f) : 0;
	if (f != NULL)
		fclose(f);
	for (size_t i = 0; i + 1 < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	if (n > 0)
		q->proc = strdup(buf);
}

/* A host the agent running in the pane tries and does without (codex's
 * github.com at its start): logged and counted, no prompt. The same host
 * asked for by anything else (git clone in the shell) prompts as usual. */
static bool sink_agent_quiet(const struct pane *p, const struct denial *d)
{
	const struct esc_pane *e = p->esc;
	char host[256], resumed[1024];
	if (strcmp(d->op, "connect") != 0 || d->target == NULL || p->run_policy == NULL)
		return false;
	suggest_target_host(d->target, host, sizeof host);
	/* the pane's command, or what its shell runs or ran last: an agent's
	 * connection can come as it ends (claude's at its exit, from a child
	 * that outlives it), after the shell has said so */
	const char *line = e->gate.cmd;
	const char *agent = escalate_resume(p, line, resumed, sizeof resumed);
	return agent != NULL && agents_quiet_for(p->run_policy, agent, host);
}

/* A prompt, when the denial offers a broadening that is not queued yet. */
static void sink_offer(struct pane *p, const struct denial *d, bool by_request)
{
	struct esc_pane *e = p->esc;
	unsigned not_queued = e->not_queued;
	int offered = esc_offer(e, d, -1);
	if (e->not_queued == 1 && not_queued == 0)
		server_log(p->srv, "pane %d: %d prompts wait; later denials raise none until some are answered", p->id,
			   ESC_QUEUE_MAX);
	if (offered == 1) {
		e->q[e->nq - 1].by_request = by_request;
		proc_cmdline(&e->q[e->nq - 1]);
		server_log(p->srv, "pane %d: prompt: %s %s", p->id, d->op, d->target ? d->target : "");
		control_prompt_event(p->srv, p);
		alerts_prompt(p);
		server_redraw(p->srv, true);
	}
}

/* A write the capture layer took, as it was made: listed, counted in the
 * title, no prompt (nothing was refused). The layer's whole content is
 * read when the command ends (pane_captured). */
static void sink_captured_live(struct pane *p, struct denial *d)
{
	sink_emit(p, d);
	p->captured++;
	server_redraw(p->srv, false);
}

void denial_sink_pane(struct denial *d, void *arg)
{
	struct pane *p = arg;
	if (strcmp(d->op, "captured") == 0) {
		sink_captured_live(p, d);
		return;
	}
	if (strcmp(d->layer, "proxy") == 0) {
		char line[4400];
		proxy_denial_format(d, line, sizeof line);
		server_log(p->srv, "pane %d: sandmux:%s", p->id, line);
	}
	if (strcmp(d->op, "limit") == 0)
		pane_limits_denial(p, d);
	if (p->esc == NULL) {
		pane_add_denial(p->srv, p->id);
		return;
	}
	pane_read_pending(p); /* the command line and cwd the shell reported before the call */
	sink_emit(p, d);
	pane_add_denial(p->srv, p->id);
	p->esc->denials_run++;
	if (!sink_agent_quiet(p, d))
		sink_offer(p, d, false);
	if (d->held)
		escalate_held_tick(p); /* the title counts down while it waits */
}

void denial_sink_request(struct pane *p, struct denial *d)
{
	if (strcmp(d->layer, "proxy") == 0) {
		char line[4400];
		proxy_denial_format(d, line, sizeof line);
		server_log(p->srv, "pane %d: request's command: sandmux:%s", p->id, line);
	}
	if (strcmp(d->op, "limit") == 0)
		pane_limits_denial(p, d);
	if (p->esc != NULL) {
		sink_emit(p, d);
		/* no denials_run: the pane's own command's failure re-offers none of these */
		sink_offer(p, d, true);
	}
	pane_add_denial(p->srv, p->id);
}

void denial_sink_reoffer(struct pane *p, int status)
{
	struct esc_pane *e = p->esc;
	const struct denials *l = escalate_denials(p->srv);
	if (e == NULL || e->denials_run == 0 || l == NULL)
		return;
	if (esc_pending(e)) {
		if (e->q[0].exit_status < 0)
			e->q[0].exit_status = status;
		server_redraw(p->srv, true);
		return;
	}
	for (size_t i = l->n; i-- > 0;)
		if (l->v[i].pane == p->id && esc_offer(e, &l->v[i], status) == 1) {
			control_prompt_event(p->srv, p);
			alerts_prompt(p);
			server_redraw(p->srv, true);
			return;
		}
}

/* Whether the pane's write to path was told already, as it was made. */
static bool sink_captured_told(struct pane *p, const char *path)
{
	const struct denials *l = escalate_denials(p->srv);
	for (size_t i = 0; l != NULL && i < l->n; i++)
		if (l->v[i].pane == p->id && strcmp(l->v[i].op, "captured") == 0 && l->v[i].target != NULL &&
		    strcmp(l->v[i].target, path) == 0)
			return true;
	return false;
}

void escalate_captured(struct pane *p, const char *path, const char *op)
{
	struct denial d = { 0 };
	if (sink_captured_told(p, path))
		return;
	if (denial_set_captured(&d, path, op) == 0)
		sink_emit(p, &d);
	denial_clear(&d);
}

void pane_add_denial(struct server *s, int pane_id)
{
	struct pane *p = pane_find(s, pane_id);
	if (p == NULL)
		return;
	p->denials++;
	server_redraw(s, false);
}
