/* json: a small JSON reader that keeps where every key and value is.
 *
 * Policy errors must name FILE:LINE:COL and the field (cJSON keeps no
 * positions), and the escalation code edits sandbox.json in place, so each
 * node records its line and column (1-based, in characters) and the byte
 * range [start, end) of its text; members of objects also record their key
 * and the key's position. Strict RFC 8259: no comments, no trailing
 * commas, nesting at most JSON_MAX_DEPTH deep. */
#ifndef POLICY_JSON_H
#define POLICY_JSON_H

#include <stdbool.h>
#include <stddef.h>

#define JSON_MAX_DEPTH 64

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	int line, col;     /* where the value starts */
	size_t start, end; /* byte range of the value's text */
	char *key;         /* member of an object: its key (unescaped), else NULL */
	int key_line, key_col;
	size_t key_start; /* byte offset of the key's opening quote */
	size_t index;     /* position among its parent's children */

	bool boolean;
	double number;
	char *str;  /* JSON_STRING: unescaped, NUL-terminated */
	size_t len; /* JSON_STRING: bytes (may hold NULs from \u0000) */

	struct json *child, *last; /* arrays and objects, in document order */
	size_t n;
	struct json *next, *parent;
};

struct json_error {
	int line, col;
	size_t offset;
	char path[256]; /* the field being read, e.g. "networkPolicy.allow[2]" */
	char msg[160];
};

/* Parses text[0..len). NULL on error, with err filled. */
struct json *json_parse(const char *text, size_t len, struct json_error *err);
void json_free(struct json *);

/* The member named key of an object (the last one if repeated), or NULL. */
const struct json *json_get(const struct json *obj, const char *key);
/* The i-th element of an array or object, or NULL. */
const struct json *json_at(const struct json *, size_t i);
/* "networkPolicy.allow[2]"; "(top level)" for the root. Returns buf. */
char *json_path(const struct json *, char *buf, size_t size);
const char *json_type_name(enum json_type);
/* s as a JSON string literal, quotes included (malloc'd; caller frees).
 * For writers of policy files (trust records, in-place edits). */
char *json_quote(const char *s);

#define json_each(c, parent) for ((c) = (parent)->child; (c); (c) = (c)->next)

#endif
