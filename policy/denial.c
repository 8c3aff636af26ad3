/* denial: one denial record (DESIGN.md "Denials"), its JSON form and the
 * coalesced in-memory list. Pure data: the log file and the listener live in
 * backends/events.c. */
#include "policy/denial.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char *dup_or_null(const char *s)
{
	return s != NULL ? strdup(s) : NULL;
}

int denial_copy(struct denial *dst, const struct denial *src)
{
	*dst = *src;
	dst->target = dup_or_null(src->target);
	dst->rule = dup_or_null(src->rule);
	dst->rule_file = dup_or_null(src->rule_file);
	dst->addr = dup_or_null(src->addr);
	if ((src->target && !dst->target) || (src->rule && !dst->rule) || (src->rule_file && !dst->rule_file) ||
	    (src->addr && !dst->addr)) {
		denial_clear(dst);
		return -1;
	}
	return 0;
}

void denial_clear(struct denial *d)
{
	free(d->target);
	free(d->rule);
	free(d->rule_file);
	free(d->addr);
	d->target = d->rule = d->rule_file = d->addr = NULL;
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int denial_set(struct denial *d, const char *op, const char *layer, const char *target, const char *rule)
{
	d->ts_ms = now_ms();
	snprintf(d->op, sizeof d->op, "%s", op);
	snprintf(d->layer, sizeof d->layer, "%s", layer);
	free(d->target);
	free(d->rule);
	d->target = dup_or_null(target);
	d->rule = dup_or_null(rule);
	return (target && !d->target) || (rule && !d->rule) ? -1 : 0;
}

int denial_set_captured(struct denial *d, const char *path, const char *what)
{
	char rule[64];
	snprintf(rule, sizeof rule, "outsideWrites: capture (%s)", what);
	return denial_set(d, "captured", "capture", path, rule);
}

void denial_format_ts(int64_t ts_ms, char buf[32])
{
	time_t secs = (time_t)(ts_ms / 1000);
	struct tm tm;
	gmtime_r(&secs, &tm);
	size_t n = strftime(buf, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, 32 - n, ".%03dZ", (int)(ts_ms % 1000));
}

/* {"additionalReadwritePaths":["/etc"]}, {"networkPolicy.allow":["a.com"]}
 * as in DESIGN.md; an empty object when there is nothing to suggest. */
static cJSON *suggest_json(const struct suggestion *s)
{
	cJSON *o = cJSON_CreateObject();
	if (o != NULL && s->kind != SUGGEST_NONE) {
		const char *v = s->value;
		cJSON_AddItemToObject(o, suggest_key(s->kind), cJSON_CreateStringArray(&v, 1));
	}
	return o;
}

cJSON *denial_json(const struct denial *d, bool coalesced)
{
	char ts[32];
	denial_format_ts(d->ts_ms, ts);
	cJSON *o = cJSON_CreateObject();
	if (o == NULL)
		return NULL;
	cJSON_AddStringToObject(o, "ts", ts);
	cJSON_AddNumberToObject(o, "pane", d->pane);
	cJSON_AddNumberToObject(o, "pid", d->pid);
	cJSON_AddStringToObject(o, "comm", d->comm);
	cJSON_AddStringToObject(o, "op", d->op);
	cJSON_AddStringToObject(o, "target", d->target ? d->target : "");
	cJSON_AddStringToObject(o, "rule", d->rule ? d->rule : "");
	cJSON_AddStringToObject(o, "layer", d->layer);
	cJSON_AddItemToObject(o, "suggest", suggest_json(&d->suggest));
	if (coalesced) {
		cJSON_AddNumberToObject(o, "count", d->count);
		if (d->rule_file != NULL) {
			char from[4200];
			snprintf(from, sizeof from, "%s:%d", d->rule_file, d->rule_line);
			cJSON_AddStringToObject(o, "from", from);
		}
	}
	return o;
}

char *denial_to_json(const struct denial *d, bool coalesced)
{
	cJSON *o = denial_json(d, coalesced);
	if (o == NULL)
		return NULL;
	char *s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return s;
}

static bool same_key(const struct denial *a, const struct denial *b)
{
	return a->pane == b->pane && strcmp(a->op, b->op) == 0 && a->target != NULL && b->target != NULL &&
	       strcmp(a->target, b->target) == 0;
}

struct denial *denials_add(struct denials *l, const struct denial *d)
{
	for (size_t i = 0; i < l->n; i++) {
		struct denial *e = &l->v[i];
		if (!same_key(e, d))
			continue;
		/* The latest process and time; the count of all. */
		e->count += d->count > 0 ? d->count : 1;
		e->ts_ms = d->ts_ms;
		e->pid = d->pid;
		memcpy(e->comm, d->comm, sizeof e->comm);
		return e;
	}
	if (l->n == DENIALS_MAX) {
		denial_clear(&l->v[0]);
		memmove(&l->v[0], &l->v[1], (l->n - 1) * sizeof *l->v);
		l->n--;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct denial *v = realloc(l->v, cap * sizeof *v);
		if (v == NULL)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	struct denial *e = &l->v[l->n];
	if (denial_copy(e, d) < 0)
		return NULL;
	e->count = d->count > 0 ? d->count : 1;
	l->n++;
	return e;
}

size_t denials_count_pane(const struct denials *l, int pane)
{
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].pane == pane)
			n += l->v[i].count;
	return n;
}

void denials_free(struct denials *l)
{
	for (size_t i = 0; i < l->n; i++)
		denial_clear(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}
