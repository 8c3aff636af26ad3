/* glob: validation and matching of the documented subset (glob.h). */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/glob.h"

bool glob_is_pattern(const char *t)
{
	return strpbrk(t, "*?[") != NULL;
}

/* Validates the class starting at p ('['); returns its length or -1. */
static int class_check(const char *p, char *errbuf)
{
	const char *q = p + 1;
	if (*q == '!' || *q == '^')
		q++;
	if (*q == ']') {
		snprintf(errbuf, GLOB_ERR_MAX, "a class starting with ']' is not supported");
		return -1;
	}
	for (; *q && *q != ']'; q++) {
		if (*q == '[' && q[1] == ':') {
			snprintf(errbuf, GLOB_ERR_MAX, "POSIX character classes are not supported");
			return -1;
		}
		if (*q == '/') {
			snprintf(errbuf, GLOB_ERR_MAX, "'/' inside a character class");
			return -1;
		}
		if (q[1] == '-' && q[2] && q[2] != ']') {
			if ((unsigned char)q[2] < (unsigned char)q[0]) {
				snprintf(errbuf, GLOB_ERR_MAX, "reversed range %c-%c", q[0], q[2]);
				return -1;
			}
			q += 2;
		}
	}
	if (!*q) {
		snprintf(errbuf, GLOB_ERR_MAX, "unterminated character class");
		return -1;
	}
	return (int)(q - p + 1);
}

/* `**` must be a whole segment. */
static int star_check(const char *pat, const char *p, char *errbuf)
{
	if (p[1] != '*')
		return 0;
	bool starts = p == pat || p[-1] == '/';
	bool ends = p[2] == 0 || p[2] == '/';
	if (!starts || !ends || p[2] == '*') {
		snprintf(errbuf, GLOB_ERR_MAX, "'**' must be a whole path segment");
		return -1;
	}
	return 1;
}

/* Each `**` multiplies the work of a match (and of the launcher's walk);
 * a hostile per-repo glob must not be able to stall a pane. */
#define GLOB_MAX_DOUBLESTAR 4
#define GLOB_MAX_SEGS       63 /* states of the matcher fit in a uint64_t */

static int glob_check(const char *pat, char *errbuf)
{
	int doublestars = 0, segs = 1;
	if (!*pat) {
		snprintf(errbuf, GLOB_ERR_MAX, "empty pattern");
		return -1;
	}
	for (const char *p = pat; *p; p++)
		segs += *p == '/';
	if (segs > GLOB_MAX_SEGS) {
		snprintf(errbuf, GLOB_ERR_MAX, "more than %d path segments", GLOB_MAX_SEGS);
		return -1;
	}
	for (const char *p = pat; *p; p++) {
		int n = 0;
		switch (*p) {
		case '\\':
			snprintf(errbuf, GLOB_ERR_MAX, "backslash escapes are not supported");
			return -1;
		case '{':
		case '}':
			snprintf(errbuf, GLOB_ERR_MAX, "brace alternation is not supported");
			return -1;
		case ']':
			snprintf(errbuf, GLOB_ERR_MAX, "']' without '['");
			return -1;
		case '[':
			if ((n = class_check(p, errbuf)) < 0)
				return -1;
			p += n - 1;
			break;
		case '*':
			if ((n = star_check(pat, p, errbuf)) < 0)
				return -1;
			if (n && ++doublestars > GLOB_MAX_DOUBLESTAR) {
				snprintf(errbuf, GLOB_ERR_MAX, "more than %d '**' segments", GLOB_MAX_DOUBLESTAR);
				return -1;
			}
			p += n;
			break;
		}
	}
	return 0;
}

static char *prefix_of(const char *pat)
{
	const char *meta = strpbrk(pat, "*?[");
	size_t n = strlen(pat);
	if (meta) {
		n = (size_t)(meta - pat);
		while (n > 0 && pat[n - 1] != '/')
			n--;
		if (n > 1)
			n--; /* drop the trailing '/', but keep "/" itself */
	}
	char *s = strndup(pat, n);
	if (!s)
		abort();
	return s;
}

static int compile(const char *pattern, struct glob *g, char *errbuf, bool nocase)
{
	memset(g, 0, sizeof *g);
	errbuf[0] = 0;
	if (glob_check(pattern, errbuf) < 0)
		return -1;
	g->pattern = strdup(pattern);
	if (!g->pattern)
		abort();
	g->prefix = prefix_of(pattern);
	g->nocase = nocase;
	return 0;
}

int glob_compile(const char *pattern, struct glob *g, char *errbuf)
{
	return compile(pattern, g, errbuf, false);
}

int glob_compile_nocase(const char *pattern, struct glob *g, char *errbuf)
{
	return compile(pattern, g, errbuf, true);
}

void glob_free(struct glob *g)
{
	free(g->pattern);
	free(g->prefix);
	memset(g, 0, sizeof *g);
}

const char *glob_prefix(const struct glob *g)
{
	return g->prefix;
}

static bool char_eq(char a, char b, bool nocase)
{
	return a == b || (nocase && tolower((unsigned char)a) == tolower((unsigned char)b));
}

static bool class_has(const char *cls, const char *end, char c, bool nocase)
{
	for (const char *q = cls; q < end; q++) {
		if (q + 2 < end && q[1] == '-') {
			unsigned char lo = (unsigned char)q[0], hi = (unsigned char)q[2];
			unsigned char l = (unsigned char)tolower((unsigned char)c),
				      u = (unsigned char)toupper((unsigned char)c);
			if (((unsigned char)c >= lo && (unsigned char)c <= hi) ||
			    (nocase && ((l >= lo && l <= hi) || (u >= lo && u <= hi))))
				return true;
			q += 2;
		} else if (char_eq(*q, c, nocase)) {
			return true;
		}
	}
	return false;
}

/* One element of a segment at p against character c; *adv gets the
 * pattern length consumed. */
static bool elem_match(const char *p, char c, bool nocase, size_t *adv)
{
	if (*p == '?') {
		*adv = 1;
		return true;
	}
	if (*p == '[') {
		const char *q = p + 1;
		bool neg = *q == '!' || *q == '^';
		if (neg)
			q++;
		const char *end = strchr(q + 1, ']');
		*adv = (size_t)(end - p + 1);
		return class_has(q, end, c, nocase) != neg;
	}
	*adv = 1;
	return char_eq(*p, c, nocase);
}

/* One segment: pattern [p, pe) against text [s, se); `*` backtracks. */
static bool seg_match(const char *p, const char *pe, const char *s, const char *se, bool nocase)
{
	const char *star = NULL, *star_s = NULL;
	while (s < se) {
		size_t adv;
		if (p < pe && *p == '*') {
			star = ++p;
			star_s = s;
		} else if (p < pe && elem_match(p, *s, nocase, &adv)) {
			p += adv;
			s++;
		} else if (star) {
			p = star;
			s = ++star_s;
		} else {
			return false;
		}
	}
	while (p < pe && *p == '*')
		p++;
	return p == pe;
}

static const char *seg_end(const char *s)
{
	const char *e = strchr(s, '/');
	return e ? e : s + strlen(s);
}

static bool is_doublestar(const char *seg, const char *end)
{
	return end - seg == 2 && seg[0] == '*' && seg[1] == '*';
}

/* Splits a pattern into segments; -1 past GLOB_MAX_SEGS. */
static int split_segments(const char *p, const char **seg, const char **end)
{
	int n = 0;
	for (;;) {
		if (n == GLOB_MAX_SEGS)
			return -1;
		seg[n] = p;
		end[n] = seg_end(p);
		p = end[n++];
		if (!*p)
			return n;
		p++;
	}
}

/* States reachable without consuming a segment: a `**` may match none. */
static uint64_t closure(uint64_t m, const char *const *seg, const char *const *end, int n)
{
	for (int i = 0; i < n; i++)
		if ((m >> i & 1) && is_doublestar(seg[i], end[i]))
			m |= (uint64_t)1 << (i + 1);
	return m;
}

/* A set-of-states automaton over path segments: state i means "pattern
 * segments before i are matched". Linear in the path, whatever the number
 * of `**`, so a deep path cannot stall the observer. With `parents`, a
 * match of any leading run of whole segments counts too. */
static bool path_match(const char *p, const char *s, bool nocase, bool parents)
{
	const char *seg[GLOB_MAX_SEGS], *end[GLOB_MAX_SEGS];
	int n = split_segments(p, seg, end);
	if (n < 0)
		return false;
	uint64_t cur = closure(1, seg, end, n);
	for (;;) {
		const char *se = seg_end(s);
		uint64_t next = 0;
		for (int i = 0; i < n; i++) {
			if (!(cur >> i & 1))
				continue;
			if (is_doublestar(seg[i], end[i]))
				next |= (uint64_t)1 << i;
			else if (seg_match(seg[i], end[i], s, se, nocase))
				next |= (uint64_t)1 << (i + 1);
		}
		cur = closure(next, seg, end, n);
		if (!cur || !*se || (parents && (cur >> n & 1)))
			break;
		s = se + 1;
	}
	return cur >> n & 1;
}

bool glob_match(const struct glob *g, const char *path)
{
	return path_match(g->pattern, path, g->nocase, false);
}

bool glob_match_text(const char *pattern, const char *path, bool nocase)
{
	return path_match(pattern, path, nocase, false);
}

bool glob_match_parents(const char *pattern, const char *path)
{
	return path_match(pattern, path, false, true);
}

static bool is_globstar(const char *g, size_t n)
{
	return n == 2 && g[0] == '*' && g[1] == '*';
}

/* One segment of each (n and m bytes, no '/') against each other. */
static bool segment_match(const char *g, size_t n, const char *d, size_t m)
{
	char gs[NAME_MAX + 1], ds[NAME_MAX + 1];
	if (n > NAME_MAX || m > NAME_MAX)
		return true; /* cannot tell: say it could (the callers refuse) */
	memcpy(gs, g, n);
	gs[n] = '\0';
	memcpy(ds, d, m);
	ds[m] = '\0';
	return path_match(gs, ds, false, false);
}

/* g and d at the start of a segment (past its '/'). */
static bool below(const char *g, const char *d)
{
	if (*d == '\0')
		return *g != '\0';
	if (*g == '\0')
		return false;
	size_t gn = strcspn(g, "/"), dn = strcspn(d, "/");
	if (is_globstar(g, gn))
		return true; /* it takes dir's segments and what follows matches some path below */
	if (!segment_match(g, gn, d, dn))
		return false;
	return below(g + gn + (g[gn] == '/'), d + dn + (d[dn] == '/'));
}

bool glob_may_match_below(const char *pattern, const char *dir)
{
	if (pattern[0] != '/' || dir[0] != '/')
		return false;
	return strcmp(dir, "/") == 0 ? pattern[1] != '\0' : below(pattern + 1, dir + 1);
}
