/* strv: the one string vector: a NULL-terminated array of malloc'ed
 * strings (an argv, an environment) and its count. Whoever is handed the
 * bare char ** frees it with strv_free(). */
#ifndef POLICY_STRV_H
#define POLICY_STRV_H

#include <stddef.h>

struct strv {
	char **v; /* v[n] == NULL once anything was added */
	size_t n;
};

/* Appends a copy of s: 0, or -1 out of memory (the vector unchanged). */
int strv_push(struct strv *, const char *s);
/* Replaces entry i with a copy of s: 0, or -1 (entry i unchanged). */
int strv_set(struct strv *, size_t i, const char *s);
/* A deep copy of a NULL-terminated vector; NULL out of memory. */
char **strv_dup(char *const *v);
/* Frees a NULL-terminated vector and its strings (NULL: nothing). */
void strv_free(char **v);

#endif
