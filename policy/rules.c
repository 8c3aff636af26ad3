/* rules: growable lists of policy entries, each with its origin. */
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"

void rules_add(struct rules *r, const char *text, struct origin o)
{
	rules_add_labeled(r, text, NULL, o);
}

/* label: what a decision quotes ("deny: .env"); NULL to quote text. */
void rules_add_labeled(struct rules *r, const char *text, const char *label, struct origin o)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 8;
		struct rule *v = realloc(r->v, cap * sizeof *v);
		if (!v)
			abort(); /* out of memory: nothing sensible to fall back to */
		r->v = v;
		r->cap = cap;
	}
	struct rule *e = &r->v[r->n++];
	e->text = strdup(text);
	e->label = label ? strdup(label) : NULL;
	e->origin = o;
	if (!e->text || (label && !e->label))
		abort();
}

bool rules_has(const struct rules *r, const char *text)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].text, text) == 0)
			return true;
	return false;
}

void rules_shrink(struct rules *r)
{
	if (r->n == r->cap)
		return;
	if (r->n == 0) {
		free(r->v);
		r->v = NULL;
		r->cap = 0;
		return;
	}
	struct rule *v = realloc(r->v, r->n * sizeof *v);
	if (v) { /* else the larger vector stays */
		r->v = v;
		r->cap = r->n;
	}
}

void rules_free(struct rules *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].text);
		free(r->v[i].label);
	}
	free(r->v);
	memset(r, 0, sizeof *r);
}
