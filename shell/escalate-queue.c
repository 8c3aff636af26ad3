/* escalate-queue: the prompt queue and the grants of one pane. Pure: the
 * multiplexer side (observer, restart, keys) is escalate-pane.c. */
#include "shell/escalate-queue.h"

#include <stdlib.h>
#include <string.h>

static bool same_suggestion(const struct suggestion *a, const struct suggestion *b)
{
	return a->kind != SUGGEST_NONE && a->kind == b->kind && strcmp(a->value, b->value) == 0;
}

bool esc_grants_has(const struct esc_grants *g, const struct suggestion *s)
{
	for (size_t i = 0; i < g->n; i++)
		if (same_suggestion(&g->v[i], s))
			return true;
	return false;
}

static int grants_add(struct esc_grants *g, const struct suggestion *s)
{
	if (esc_grants_has(g, s))
		return 0;
	struct suggestion *v = realloc(g->v, (g->n + 1) * sizeof *v);
	if (v == NULL)
		return -1;
	g->v = v;
	g->v[g->n++] = *s;
	return 0;
}

static bool queued(const struct esc_pane *e, const struct suggestion *s)
{
	for (size_t i = 0; i < e->nq; i++)
		if (same_suggestion(&e->q[i].d.suggest, s))
			return true;
	return false;
}

/* A new prompt at the queue's end holding a copy of d, or NULL (no
 * memory); the caller fills in the rest and counts it in (e->nq++). */
static struct esc_prompt *queue_new(struct esc_pane *e, const struct denial *d, int exit_status)
{
	struct esc_prompt *q = realloc(e->q, (e->nq + 1) * sizeof *q);
	if (q == NULL)
		return NULL;
	e->q = q;
	struct esc_prompt *p = &e->q[e->nq];
	memset(p, 0, sizeof *p);
	if (denial_copy(&p->d, d) < 0)
		return NULL;
	p->exit_status = exit_status;
	p->seq = ++e->next_seq;
	return p;
}

int esc_offer_request(struct esc_pane *e, const struct denial *d, struct request *req,
		      void (*cancel)(struct request *, const char *why))
{
	if (e->nq >= ESC_QUEUE_MAX)
		return 0;
	struct esc_prompt *p = queue_new(e, d, -1);
	if (p == NULL)
		return -1;
	p->req = req;
	p->cancel = cancel;
	e->nq++;
	return 1;
}

void esc_once_drop(struct suggestion **slot)
{
	free(*slot);
	*slot = NULL;
}

static int once_set(struct suggestion **slot, const struct suggestion *s)
{
	if (*slot == NULL && (*slot = malloc(sizeof **slot)) == NULL)
		return -1;
	**slot = *s;
	return 0;
}

/* A prompt is worth asking only for something a grant could change. */
int esc_offer(struct esc_pane *e, const struct denial *d, int exit_status)
{
	const struct suggestion *s = &d->suggest;
	if (s->kind == SUGGEST_NONE || esc_grants_has(&e->denied, s) || esc_grants_has(&e->session, s) ||
	    queued(e, s) || (e->once && same_suggestion(e->once, s)) ||
	    (e->req_once && same_suggestion(e->req_once, s)))
		return 0;
	if (e->nq >= ESC_QUEUE_MAX) {
		e->not_queued++;
		return 0;
	}
	struct esc_prompt *p = queue_new(e, d, exit_status);
	if (p == NULL)
		return -1;
	p->exact = d->suggest;
	p->cmd = e->gate.cmd != NULL ? strdup(e->gate.cmd) : NULL;
	p->cwd = e->gate.cwd != NULL ? strdup(e->gate.cwd) : NULL;
	e->nq++;
	return 1;
}

static const char *const scope_keys[] = {
	[ESC_ONCE] = "once",        [ESC_SESSION] = "session", [ESC_ALWAYS_USER] = "always",
	[ESC_ALWAYS_REPO] = "repo", [ESC_DENY] = "deny",       [ESC_DISMISS] = "dismiss",
};

const char *esc_scope_key(enum esc_scope s)
{
	return scope_keys[s];
}

int esc_scope_parse(const char *key)
{
	for (size_t i = 0; key != NULL && i < sizeof scope_keys / sizeof scope_keys[0]; i++)
		if (strcmp(key, scope_keys[i]) == 0)
			return (int)i;
	return -1;
}

int esc_raise(struct esc_pane *e, unsigned seq)
{
	for (size_t i = 0; i < e->nq; i++)
		if (e->q[i].seq == seq) {
			struct esc_prompt p = e->q[i];
			memmove(&e->q[1], &e->q[0], i * sizeof p);
			e->q[0] = p;
			return 0;
		}
	return -1;
}

bool esc_pending(const struct esc_pane *e)
{
	return e != NULL && e->nq > 0;
}

const struct esc_prompt *esc_head(const struct esc_pane *e)
{
	return e != NULL && e->nq > 0 ? &e->q[0] : NULL;
}

static void prompt_clear(struct esc_prompt *p)
{
	if (p->req != NULL)
		p->cancel(p->req, "the prompt was dropped");
	p->req = NULL;
	free(p->proc);
	denial_clear(&p->d);
	free(p->cmd);
	free(p->cwd);
}

void esc_drop(struct esc_pane *e, size_t i, const char *why)
{
	if (i >= e->nq)
		return;
	if (e->q[i].req != NULL)
		e->q[i].cancel(e->q[i].req, why);
	e->q[i].req = NULL;
	prompt_clear(&e->q[i]);
	memmove(&e->q[i], &e->q[i + 1], (e->nq - i - 1) * sizeof e->q[0]);
	e->nq--;
}

/* Drops every prompt offering s (the head included). */
static void drop_settled(struct esc_pane *e, const struct suggestion *s)
{
	size_t o = 0;
	for (size_t i = 0; i < e->nq; i++) {
		if (i == 0 || same_suggestion(&e->q[i].d.suggest, s)) {
			prompt_clear(&e->q[i]);
			continue;
		}
		e->q[o++] = e->q[i];
	}
	e->nq = o;
}

int esc_answer(struct esc_pane *e, enum esc_scope scope, struct suggestion *out)
{
	if (e->nq == 0)
		return -1;
	struct suggestion s = e->q[0].d.suggest;
	bool by_request = e->q[0].by_request;
	if (!by_request) { /* a request's command's denial re-runs nothing */
		free(e->rerun_cmd);
		free(e->rerun_cwd);
		e->rerun_cmd = e->q[0].cmd; /* what this prompt showed is what re-runs */
		e->rerun_cwd = e->q[0].cwd;
		e->q[0].cmd = e->q[0].cwd = NULL;
	}
	int rc = 0;
	switch (scope) {
	case ESC_ONCE:
		rc = once_set(by_request ? &e->req_once : &e->once, &s);
		break;
	case ESC_SESSION:
	case ESC_ALWAYS_USER:
	case ESC_ALWAYS_REPO:
		rc = grants_add(&e->session, &s);
		break;
	case ESC_DENY:
		rc = grants_add(&e->denied, &s);
		break;
	case ESC_DISMISS:
		break;
	}
	drop_settled(e, scope == ESC_DISMISS ? &(struct suggestion){ 0 } : &s);
	e->turned = 0; /* `n` counts the prompts left from here */
	if (scope == ESC_DENY || scope == ESC_DISMISS)
		s.kind = SUGGEST_NONE;
	if (out != NULL)
		*out = s;
	return rc;
}

void esc_broaden(struct esc_pane *e, struct policy *p, bool consume)
{
	for (size_t i = 0; i < e->session.n; i++)
		suggest_apply(p, &e->session.v[i]);
	if (e->once) {
		suggest_apply(p, e->once);
		if (consume)
			esc_once_drop(&e->once);
	}
}

void esc_broaden_request(struct esc_pane *e, struct policy *p)
{
	for (size_t i = 0; i < e->session.n; i++)
		suggest_apply(p, &e->session.v[i]);
	if (e->req_once)
		suggest_apply(p, e->req_once);
	esc_once_drop(&e->req_once);
}

size_t esc_drop_stale(struct esc_pane *e, bool (*gone)(const struct esc_prompt *, void *arg), void *arg)
{
	size_t o = 0, n = e->nq;
	for (size_t i = 0; i < e->nq; i++) {
		if (gone == NULL || gone(&e->q[i], arg)) {
			prompt_clear(&e->q[i]);
			continue;
		}
		e->q[o++] = e->q[i];
	}
	e->nq = o;
	e->dropped += n - o;
	e->turned = 0;
	return n - o;
}

int esc_widen(struct esc_pane *e, int step)
{
	if (e->nq == 0)
		return -1;
	struct esc_prompt *p = &e->q[0];
	struct suggestion s = p->exact;
	if (s.kind == SUGGEST_NONE || s.value[0] != '/' || (s.kind != SUGGEST_RW && s.kind != SUGGEST_RO))
		return -1;
	int want = p->level + step, level = 0;
	for (; level < want && strcmp(s.value, "/") != 0; level++) {
		char *slash = strrchr(s.value, '/');
		slash[slash == s.value ? 1 : 0] = '\0';
	}
	if (level > 0)
		s.create = 'd'; /* a directory, made at approval if it is not there */
	p->level = level < 0 ? 0 : level;
	p->d.suggest = p->level > 0 ? s : p->exact;
	return p->level;
}

bool esc_turn(struct esc_pane *e)
{
	if (e->nq < 2)
		return false;
	struct esc_prompt head = e->q[0];
	memmove(e->q, e->q + 1, (e->nq - 1) * sizeof *e->q);
	e->q[e->nq - 1] = head;
	if (++e->turned < e->nq)
		return true;
	e->turned = 0; /* all seen: back in order, the caller moves on */
	return false;
}

void esc_pane_clear(struct esc_pane *e)
{
	for (size_t i = 0; i < e->nq; i++)
		prompt_clear(&e->q[i]);
	free(e->q);
	free(e->session.v);
	free(e->denied.v);
	e->q = NULL;
	e->nq = 0;
	e->session = (struct esc_grants){ 0 };
	free(e->rerun_cmd);
	free(e->rerun_cwd);
	e->rerun_cmd = e->rerun_cwd = NULL;
	e->denied = (struct esc_grants){ 0 };
	esc_once_drop(&e->once);
	esc_once_drop(&e->req_once);
}
