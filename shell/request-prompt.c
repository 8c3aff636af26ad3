/* request-prompt: a request as its prompt shows it, and the person's
 * answer: o runs it (request-run.c), d or x refuses it. Every byte of
 * the command, the grants and the reason is shown (ui_exact_text); what
 * the pane cannot show whole cannot be approved. */
#include "shell/request-int.h"
#include "shell/request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/loop.h"
#include "backends/run.h"
#include "shell/escalate-queue.h"
#include "shell/escalate.h"
#include "shell/mux.h"
#include "ui/denials.h"

static void grants_text(FILE *f, const struct request *r)
{
	if (r->ngrants == 0)
		fputs("nothing more than the pane has", f);
	for (int i = 0; i < r->ngrants; i++) {
		const struct suggestion *s = &r->grant[i];
		const char *what = s->kind == SUGGEST_RW ? "write" : s->kind == SUGGEST_RO ? "read" : "net";
		fprintf(f, "%s%s %s%s", i > 0 ? ", " : "", what, s->value,
			s->create == 'd'   ? " (a new directory)"
			: s->create == 'f' ? " (a new file)"
					   : "");
	}
}

bool request_prompt_lines(const struct pane *p, const struct esc_prompt *q, char *l[4])
{
	const struct request *r = q->req;
	char *g = NULL, *cmd = request_argv_text(r->argv);
	size_t glen = 0;
	FILE *f = open_memstream(&g, &glen);
	if (f != NULL) {
		grants_text(f, r);
		fclose(f);
	}
	char *xcmd = ui_exact_text(cmd != NULL ? cmd : ""), *xcwd = ui_exact_text(r->cwd),
	     *xg = ui_exact_text(g != NULL ? g : ""), *xr = ui_exact_text(r->reason ? r->reason : "none given"),
	     *xc = ui_exact_text(r->comm);
	char more[48] = "";
	if (p->esc->nq > 1)
		snprintf(more, sizeof more, " (+%zu more)", p->esc->nq - 1);
	if (asprintf(&l[0], " sandbox request: pane %d%s: pid %d (%s) asks, because: %s", p->id, more, (int)r->from,
		     xc ? xc : "?", xr ? xr : "") < 0)
		l[0] = NULL;
	if (asprintf(&l[1], " allow, for this command only: %s", xg ? xg : "") < 0)
		l[1] = NULL;
	if (asprintf(&l[2], " run, in a new sandbox: %s   in %s", xcmd ? xcmd : "", xcwd ? xcwd : "") < 0)
		l[2] = NULL;
	l[3] = strdup(" o approve (run it once) · d deny · x dismiss · Esc later · n next");
	free(g);
	free(cmd);
	free(xcmd);
	free(xcwd);
	free(xg);
	free(xr);
	free(xc);
	int rows = 0;
	for (int i = 0; i < 4; i++)
		rows += l[i] != NULL ? ui_prompt_rows(l[i], p->w) : 1;
	bool fits = l[0] != NULL && l[1] != NULL && l[2] != NULL && rows <= p->h - 1;
	if (!fits) {
		free(l[3]);
		l[3] = strdup(" d deny · x dismiss · Esc later · n next · the pane is too small to show the whole "
			      "request: zoom it (prefix z) to answer");
	}
	return fits;
}

void request_answer(struct client *c, struct pane *p, enum esc_scope scope)
{
	struct esc_pane *e = p->esc;
	struct esc_prompt *q = &e->q[0];
	struct request *r = q->req;
	unsigned seq = q->seq;
	if (scope == ESC_DENY || scope == ESC_DISMISS) {
		esc_drop(e, 0, "denied by the person");
	} else if (scope != ESC_ONCE) {
		client_message(c, "a request runs its command once: o approves it, d denies it");
		return;
	} else {
		char *l[4] = { NULL };
		bool fits = request_prompt_lines(p, q, l);
		for (int i = 0; i < 4; i++)
			free(l[i]);
		if (!fits) {
			client_message(c,
				       "the pane is too small to show the whole request: zoom it (prefix z) to answer");
			return;
		}
		q->req = NULL; /* it is the running list's now */
		esc_drop(e, 0, NULL);
		watch_del(r->replyw);
		r->replyw = NULL;
		if (r->timer != 0)
			timer_cancel(p->srv->loop, r->timer);
		r->timer = 0;
		char err[600];
		if (request_run(r, p->req, err, sizeof err) < 0) {
			client_message(c, "request: %s", err);
			request_cancel(r, err);
		} else {
			server_log(p->srv, "pane %d: request approved: pid %d runs", p->id, (int)run_pid(r->run));
			client_message(c, "approved: the request's command runs in a new sandbox");
		}
	}
	control_answer_event(c->srv, p, seq, esc_scope_key(scope), NULL);
	server_redraw(c->srv, true);
}
