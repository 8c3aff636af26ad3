/* jsonedit: a small scanner over JSON text that remembers byte offsets,
 * and the splice that inserts one list entry. It validates only what it
 * walks over (strings, brackets, literals); the policy loader is the
 * full parser. */
#include "policy/jsonedit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/buf.h"
#include "policy/json.h"

#define MAX_DEPTH 64
#define MAX_KEYS  8

struct scan {
	const char *s;
	size_t n;
	char *err;
	size_t errlen;
	bool failed;
};

/* The members of one object, or the elements of one array. */
struct span {
	size_t open, close; /* offsets of '{' / '[' and '}' / ']' */
	size_t count;
	size_t last_start, last_end;   /* the last member (from its key) / element */
	size_t last_ws;                /* where the whitespace before the last one starts */
	size_t colon_start, colon_end; /* between the last key and its value */
	size_t found_start, found_end; /* the wanted member's value / element; found_end 0: none */
};

static void scan_fail(struct scan *sc, size_t at, const char *what)
{
	if (sc->failed)
		return;
	sc->failed = true;
	int line = 1, col = 1;
	for (size_t i = 0; i < at && i < sc->n; i++, col++)
		if (sc->s[i] == '\n')
			line++, col = 0;
	snprintf(sc->err, sc->errlen, "sandbox.json:%d:%d: %s", line, col, what);
}

static size_t skip_ws(const struct scan *sc, size_t i)
{
	while (i < sc->n && strchr(" \t\r\n", sc->s[i]) != NULL && sc->s[i] != '\0')
		i++;
	return i;
}

/* i at '"'; returns the offset after the closing quote. */
static size_t skip_string(struct scan *sc, size_t i)
{
	for (size_t j = i + 1; j < sc->n; j++) {
		if (sc->s[j] == '\\')
			j++;
		else if (sc->s[j] == '"')
			return j + 1;
		else if ((unsigned char)sc->s[j] < 0x20)
			break;
	}
	scan_fail(sc, i, "unterminated string");
	return sc->n;
}

static size_t skip_value(struct scan *sc, size_t i, int depth);

/* Walks an object or array at i; records its span; `want` (a raw string
 * body, for arrays the escaped value, for objects the key) is searched. */
static size_t skip_container(struct scan *sc, size_t i, int depth, const char *want, struct span *sp)
{
	char close = sc->s[i] == '{' ? '}' : ']';
	bool obj = close == '}';
	memset(sp, 0, sizeof *sp);
	sp->open = i;
	if (depth > MAX_DEPTH) {
		scan_fail(sc, i, "nested too deeply");
		return sc->n;
	}
	size_t j = skip_ws(sc, i + 1);
	if (j < sc->n && sc->s[j] == close) {
		sp->close = j;
		return j + 1;
	}
	size_t ws = i + 1;
	while (!sc->failed) {
		size_t start = j, vstart = j;
		if (obj) {
			if (j >= sc->n || sc->s[j] != '"') {
				scan_fail(sc, j, "expected a key");
				break;
			}
			size_t kend = skip_string(sc, j);
			size_t colon = skip_ws(sc, kend);
			if (colon >= sc->n || sc->s[colon] != ':') {
				scan_fail(sc, colon, "expected ':'");
				break;
			}
			vstart = skip_ws(sc, colon + 1);
			sp->colon_start = kend;
			sp->colon_end = vstart;
			bool match =
				want && kend - j - 2 == strlen(want) && memcmp(sc->s + j + 1, want, kend - j - 2) == 0;
			if (match && sp->found_end) {
				scan_fail(sc, j, "duplicate key");
				break;
			}
			if (match)
				sp->found_start = vstart;
		}
		size_t vend = skip_value(sc, vstart, depth + 1);
		if (obj && sp->found_start == vstart && !sp->found_end)
			sp->found_end = vend;
		if (!obj && want && sc->s[vstart] == '"' && vend - vstart - 2 == strlen(want) &&
		    memcmp(sc->s + vstart + 1, want, vend - vstart - 2) == 0)
			sp->found_start = vstart, sp->found_end = vend;
		sp->count++;
		sp->last_ws = ws;
		sp->last_start = start;
		sp->last_end = vend;
		j = skip_ws(sc, vend);
		if (j < sc->n && sc->s[j] == ',') {
			ws = j + 1;
			j = skip_ws(sc, j + 1);
			continue;
		}
		if (j < sc->n && sc->s[j] == close) {
			sp->close = j;
			return j + 1;
		}
		scan_fail(sc, j, obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
	return sc->n;
}

static size_t skip_value(struct scan *sc, size_t i, int depth)
{
	if (i >= sc->n) {
		scan_fail(sc, i, "expected a value");
		return sc->n;
	}
	char c = sc->s[i];
	if (c == '"')
		return skip_string(sc, i);
	if (c == '{' || c == '[') {
		struct span ignored;
		return skip_container(sc, i, depth, NULL, &ignored);
	}
	size_t j = i;
	while (j < sc->n &&
	       (strchr("+-.eE", sc->s[j]) != NULL || (sc->s[j] >= '0' && sc->s[j] <= '9') ||
		(sc->s[j] >= 'a' && sc->s[j] <= 'z')) &&
	       sc->s[j] != '\0')
		j++;
	if (j == i)
		scan_fail(sc, i, "expected a value");
	return j;
}

static void out_fmt(struct buf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_fmt(struct buf *o, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof buf)
		o->failed = true;
	else
		buf_add(o, buf, (size_t)len);
}

/* The value as a JSON string body (no quotes): json_quote() less its
 * quotes, so the edit escapes exactly as the reader expects. */
static void escape(struct buf *o, const char *v)
{
	char *q = json_quote(v);
	buf_add(o, q + 1, strlen(q) - 2);
	free(q);
}

/* The new member for keys[k..]: "key": ["value"], nested in objects for
 * the remaining dotted parts, using the file's own ':' spacing. */
static void new_member(struct buf *o, char keys[][64], int k, int nkeys, const char *colon, const char *value)
{
	out_fmt(o, "\"%s\"%s", keys[k], colon);
	if (k + 1 < nkeys) {
		buf_addstr(o, "{");
		new_member(o, keys, k + 1, nkeys, colon, value);
		buf_addstr(o, "}");
		return;
	}
	buf_addstr(o, "[\"");
	escape(o, value);
	buf_addstr(o, "\"]");
}

/* The separator before a new last item: the whitespace the current last
 * one has, or one space when the container was written on one line with
 * a single item. */
static void out_sep(struct buf *o, const struct scan *sc, const struct span *sp)
{
	size_t len = sp->last_start - sp->last_ws;
	if (len == 0 && sp->count == 1)
		buf_addstr(o, " ");
	else
		buf_add(o, sc->s + sp->last_ws, len);
}

/* Writes text with `insert` produced after offset `at`. */
struct edit {
	size_t at;
	size_t replace_to; /* > at: bytes [at, replace_to) are dropped */
};

static char *splice(const struct scan *sc, struct edit e, struct buf *ins)
{
	struct buf o = { 0 };
	buf_add(&o, sc->s, e.at);
	buf_add(&o, buf_data(ins), ins->len);
	size_t from = e.replace_to > e.at ? e.replace_to : e.at;
	buf_add(&o, sc->s + from, sc->n - from);
	o.failed |= ins->failed;
	buf_free(ins);
	return buf_string(&o);
}

/* The ':' spacing of the object's members, or ": " when it has none. */
static void colon_of(const struct scan *sc, const struct span *sp, char *buf, size_t size)
{
	size_t len = sp->count ? sp->colon_end - sp->colon_start : 0;
	if (len == 0 || len >= size || memchr(sc->s + sp->colon_start, '\n', len) != NULL)
		snprintf(buf, size, ": ");
	else
		snprintf(buf, size, "%.*s", (int)len, sc->s + sp->colon_start);
}

static char *add_member(struct scan *sc, const struct span *sp, char keys[][64], int k, int nkeys, const char *value,
			bool top)
{
	struct buf ins = { 0 };
	char colon[16];
	colon_of(sc, sp, colon, sizeof colon);
	if (sp->count == 0) {
		buf_addstr(&ins, top ? "\n  " : "");
		new_member(&ins, keys, k, nkeys, colon, value);
		buf_addstr(&ins, top ? "\n" : "");
		return splice(sc, (struct edit){ sp->open + 1, sp->close }, &ins);
	}
	buf_addstr(&ins, ",");
	out_sep(&ins, sc, sp);
	new_member(&ins, keys, k, nkeys, colon, value);
	return splice(sc, (struct edit){ sp->last_end, 0 }, &ins);
}

static char *add_element(struct scan *sc, size_t at, const char *value, bool *added)
{
	struct buf quoted = { 0 };
	escape(&quoted, value);
	char *want = buf_string(&quoted);
	if (want == NULL)
		return NULL;
	struct span sp;
	skip_container(sc, at, 1, want, &sp);
	struct buf ins = { 0 };
	if (sc->failed || sp.found_end) {
		free(want);
		if (sc->failed)
			return NULL;
		*added = false;
		return strdup(sc->s);
	}
	if (sp.count > 0) {
		buf_addstr(&ins, ",");
		out_sep(&ins, sc, &sp);
	}
	out_fmt(&ins, "\"%s\"", want);
	free(want);
	*added = true;
	if (sp.count == 0)
		return splice(sc, (struct edit){ sp.open + 1, sp.close }, &ins);
	return splice(sc, (struct edit){ sp.last_end, 0 }, &ins);
}

static char *add_in(struct scan *sc, size_t at, char keys[][64], int k, int nkeys, const char *value, bool *added)
{
	struct span sp;
	skip_container(sc, at, 1, keys[k], &sp);
	if (sc->failed)
		return NULL;
	if (!sp.found_end) {
		*added = true;
		return add_member(sc, &sp, keys, k, nkeys, value, k == 0);
	}
	char want = k + 1 < nkeys ? '{' : '[';
	if (sc->s[sp.found_start] != want) {
		char what[160];
		snprintf(what, sizeof what, "%.63s: expected %s", keys[k], want == '{' ? "an object" : "a list");
		scan_fail(sc, sp.found_start, what);
		return NULL;
	}
	if (k + 1 < nkeys)
		return add_in(sc, sp.found_start, keys, k + 1, nkeys, value, added);
	return add_element(sc, sp.found_start, value, added);
}

static int split_key(const char *key, char keys[][64])
{
	int n = 0;
	const char *p = key;
	while (n < MAX_KEYS) {
		size_t len = strcspn(p, ".");
		if (len == 0 || len >= 64)
			return -1;
		memcpy(keys[n], p, len);
		keys[n++][len] = '\0';
		if (p[len] == '\0')
			return n;
		p += len + 1;
	}
	return -1;
}

char *jsonedit_add(const char *text, const char *key, const char *value, bool *added, char *err, size_t errlen)
{
	char keys[MAX_KEYS][64];
	int nkeys = split_key(key, keys);
	struct scan sc = { text, strlen(text), err, errlen, false };
	bool dummy;
	if (added == NULL)
		added = &dummy;
	*added = false;
	if (nkeys < 0) {
		snprintf(err, errlen, "jsonedit: bad key \"%s\"", key);
		return NULL;
	}
	size_t i = skip_ws(&sc, 0);
	if (i == sc.n) {
		/* A new file: the object, then the original trailing blank. */
		struct scan empty = { "{}\n", 3, err, errlen, false };
		struct span sp = { .open = 0, .close = 1 };
		*added = true;
		return add_member(&empty, &sp, keys, 0, nkeys, value, true);
	}
	if (sc.s[i] != '{') {
		scan_fail(&sc, i, "expected an object");
		return NULL;
	}
	struct span top;
	size_t end = skip_ws(&sc, skip_container(&sc, i, 0, NULL, &top));
	if (!sc.failed && end != sc.n)
		scan_fail(&sc, end, "text after the object");
	if (sc.failed)
		return NULL;
	char *r = add_in(&sc, i, keys, 0, nkeys, value, added);
	if (r == NULL && !sc.failed)
		snprintf(err, errlen, "jsonedit: out of memory");
	return r;
}
