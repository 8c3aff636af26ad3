/* strv: the one string vector (strv.h). */
#include "policy/strv.h"

#include <stdlib.h>
#include <string.h>

int strv_push(struct strv *s, const char *str)
{
	char *dup = strdup(str);
	char **v = dup != NULL ? realloc(s->v, (s->n + 2) * sizeof *v) : NULL;
	if (v == NULL) {
		free(dup);
		return -1;
	}
	s->v = v;
	s->v[s->n++] = dup;
	s->v[s->n] = NULL;
	return 0;
}

int strv_set(struct strv *s, size_t i, const char *str)
{
	char *dup = strdup(str);
	if (dup == NULL)
		return -1;
	free(s->v[i]);
	s->v[i] = dup;
	return 0;
}

char **strv_dup(char *const *v)
{
	size_t n = 0;
	while (v[n] != NULL)
		n++;
	char **out = calloc(n + 1, sizeof *out);
	for (size_t i = 0; out != NULL && i < n; i++)
		if ((out[i] = strdup(v[i])) == NULL) {
			strv_free(out);
			return NULL;
		}
	return out;
}

void strv_free(char **v)
{
	for (size_t i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}
