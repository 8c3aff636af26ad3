/* ignore: gitignore patterns turned into globs of the workspace, and
 * git's way of matching them (ignore.h). */
#include "policy/ignore.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "policy/config.h"
#include "policy/glob.h"

#define IGNORE_PATTERN_MAX 1024

/* The pattern being built: the glob so far and what the line said. */
struct pat {
	char g[IGNORE_PATTERN_MAX];
	size_t n;
	bool neg, dir, over;
};

static void put(struct pat *p, const char *s, size_t n)
{
	if (p->n + n >= sizeof p->g) {
		p->over = true;
		return;
	}
	memcpy(p->g + p->n, s, n);
	p->n += n;
	p->g[p->n] = '\0';
}

/* A character meant literally: glob.h has no escapes, so a metacharacter
 * becomes a class of one. ']' and '\' cannot be written in glob.h at all
 * (it refuses "[]]" and backslashes): 0 for those. */
static int put_literal(struct pat *p, char c)
{
	char cls[3] = { '[', c, ']' };
	if (c == ']' || c == '\\')
		return 0;
	if (strchr("*?[{}", c) != NULL)
		put(p, cls, 3);
	else
		put(p, &c, 1);
	return 1;
}

/* The end of the line without its trailing spaces, unless escaped, and
 * without the CR of a CRLF file. */
static size_t trimmed(const char *s, size_t n)
{
	if (n > 0 && s[n - 1] == '\r')
		n--;
	while (n > 0 && s[n - 1] == ' ') {
		size_t bs = 0;
		while (bs + 1 < n && s[n - 2 - bs] == '\\')
			bs++;
		if (bs % 2)
			break; /* "\ " keeps its space */
		n--;
	}
	return n;
}

/* A run of stars: `**` only as a whole segment, otherwise one `*` (git:
 * "other consecutive asterisks are regular asterisks"). */
static size_t put_stars(struct pat *p, const char *s, size_t i, size_t n, size_t start)
{
	size_t j = i;
	while (j < n && s[j] == '*')
		j++;
	bool whole = (i == start || s[i - 1] == '/') && (j == n || s[j] == '/');
	put(p, whole && j - i >= 2 ? "**" : "*", whole && j - i >= 2 ? 2 : 1);
	return j;
}

/* A class copied as it is (glob.h checks the rest); its length, or 0
 * when unterminated or holding a backslash. */
static size_t put_class(struct pat *p, const char *s, size_t i, size_t n)
{
	size_t j = i + 1;
	if (j < n && (s[j] == '!' || s[j] == '^'))
		j++;
	if (j < n && s[j] == ']')
		j++; /* a leading ']' is a member in git; glob.h refuses it below */
	while (j < n && s[j] != ']' && s[j] != '\\' && !(s[j] == '[' && j + 1 < n && s[j + 1] == ':'))
		j++;
	if (j >= n || s[j] != ']')
		return 0;
	put(p, s + i, j - i + 1);
	return j - i + 1;
}

/* The body of a pattern (after '!'): escapes, stars, classes. 0, or the
 * 1-based column of what cannot be expressed, with why. */
static int convert_body(struct pat *p, const char *s, size_t start, size_t n, const char **why)
{
	for (size_t i = start; i < n;) {
		size_t k;
		if (s[i] == '\\') {
			if (i + 1 == n || !put_literal(p, s[i + 1])) {
				*why = i + 1 == n ? "a trailing backslash escapes nothing"
						  : "a literal ']' or '\\' is not supported";
				return (int)i + 1;
			}
			i += 2;
		} else if (s[i] == '*') {
			i = put_stars(p, s, i, n, start);
		} else if (s[i] == '?') {
			put(p, "?", 1);
			i++;
		} else if (s[i] == '[') {
			if ((k = put_class(p, s, i, n)) == 0) {
				*why = memmem(s + i, n - i, "[:", 2) != NULL
					       ? "POSIX character classes are not supported"
					       : "unterminated '[' (or a backslash inside a class)";
				return (int)i + 1;
			}
			i += k;
		} else if (s[i] == ']') {
			*why = "a literal ']' is not supported";
			return (int)i + 1;
		} else {
			put_literal(p, s[i]);
			i++;
		}
	}
	return 0;
}

/* Segments "." and ".." never match a normalised path; an empty one
 * ("a//b") never matches either. */
static bool never_matches(const char *rel)
{
	for (const char *s = rel; *s;) {
		size_t len = strcspn(s, "/");
		if (len == 0 || (len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.'))
			return true;
		s += len + (s[len] == '/');
	}
	return false;
}

/* One line into p: 1 a pattern, 0 nothing (blank, comment, never
 * matching), -1 with *col and *why. */
static int convert_line(const char *s, size_t n, struct pat *p, int *col, const char **why)
{
	struct pat body = { .n = 0 };
	n = trimmed(s, n);
	if (n == 0 || s[0] == '#')
		return 0;
	size_t start = s[0] == '!';
	p->neg = start == 1;
	if ((*col = convert_body(&body, s, start, n, why)) != 0)
		return -1;
	if (body.over) {
		*col = 1;
		*why = "pattern too long";
		return -1;
	}
	while (body.n > 0 && body.g[body.n - 1] == '/') {
		body.g[--body.n] = '\0';
		p->dir = true;
	}
	/* a '/' at the start or in the middle anchors at the workspace root */
	bool anchored = strchr(body.g, '/') != NULL;
	const char *rel = body.g + (body.g[0] == '/');
	if (*rel == '\0' || never_matches(rel))
		return 0;
	put(p, anchored ? "/" : "/**/", anchored ? 1 : 4);
	put(p, rel, strlen(rel));
	/* git's "abc/ **" (no space) is what is inside abc, not abc itself */
	if (p->n > 3 && strcmp(p->g + p->n - 3, "/**") == 0)
		put(p, "/*", 2);
	return 1;
}

static const char *base_name(const char *file)
{
	const char *b = strrchr(file, '/');
	return b ? b + 1 : file;
}

static int add_line(struct rules *out, const char *file, const char *s, size_t n, int line, struct perr *err)
{
	struct pat p = { .n = 0 };
	char gerr[GLOB_ERR_MAX], text[IGNORE_PATTERN_MAX + 2], label[IGNORE_PATTERN_MAX + 300];
	const char *why = NULL;
	int col = 0;
	int r = convert_line(s, n, &p, &col, &why);
	struct glob g;
	if (r < 0) {
		perr_set(err, file, line, col, "pattern", "%s", why);
		return -1;
	}
	if (r == 0)
		return 0;
	if (p.over || glob_compile(p.g, &g, gerr) < 0) {
		perr_set(err, file, line, 1, "pattern", "%s", p.over ? "pattern too long" : gerr);
		return -1;
	}
	glob_free(&g);
	snprintf(text, sizeof text, "%s%s%s", p.neg ? "!" : "", p.g, p.dir ? "/" : "");
	snprintf(label, sizeof label, "%s:%d: %.*s", base_name(file), line, (int)trimmed(s, n), s);
	for (char *c = label; *c; c++) /* quoted in denials and `policy show` */
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	rules_add_labeled(out, text, label,
			  (struct origin){ .file = file, .layer = LAYER_REPO, .line = line, .col = 1 });
	return 0;
}

int ignore_parse(struct rules *out, const char *file, const char *text, size_t len, struct perr *err)
{
	int line = 0;
	size_t before = out->n;
	for (size_t i = 0; i < len; line++) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
		if (memchr(text + i, '\0', n) != NULL) {
			perr_set(err, file, line + 1, 1, "pattern", "a NUL byte");
			return -1;
		}
		if (add_line(out, file, text + i, n, line + 1, err) < 0)
			return -1;
		if (out->n - before > IGNORE_MAX_PATTERNS) {
			perr_set(err, file, line + 1, 1, "pattern", "more than %d patterns", IGNORE_MAX_PATTERNS);
			return -1;
		}
		i += n + 1;
	}
	return 0;
}

int ignore_load(struct policy *p, struct config *cfg, struct perr *err)
{
	static const char *const names[] = { ".cursorignore", ".sandmuxignore" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char path[PATH_MAX], *text;
		size_t len;
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", strcmp(p->workspace, "/") == 0 ? "" : p->workspace, names[i]);
		/* a FIFO (or a symlink to one) would block the read for ever */
		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
			perr_set(err, path, 0, 0, NULL, "not a regular file");
			return -1;
		}
		int r = config_read_file(path, &text, &len, err);
		if (r < 0)
			return -1;
		if (r == 0)
			continue;
		r = ignore_parse(&p->ignore, config_own_file(cfg, path, LAYER_REPO), text, len, err);
		free(text);
		if (r < 0)
			return -1;
	}
	return 0;
}

/* One rule against one path (workspace-relative, with its leading '/'). */
static bool rule_matches(const char *text, const char *rel, bool is_dir)
{
	char g[IGNORE_PATTERN_MAX + 2];
	const char *s = text + (text[0] == '!');
	size_t n = strlen(s);
	bool dir = n > 1 && s[n - 1] == '/';
	if ((dir && !is_dir) || n >= sizeof g)
		return false;
	memcpy(g, s, n - dir);
	g[n - dir] = '\0';
	return glob_match_text(g, rel, false);
}

/* The last rule of v[from, to) matching rel: git's "last one wins". */
static const struct rule *last_match(const struct rules *r, size_t from, size_t to, const char *rel, bool is_dir)
{
	for (size_t i = to; i-- > from;)
		if (rule_matches(r->v[i].text, rel, is_dir))
			return &r->v[i];
	return NULL;
}

static const struct rule *positive(const struct rule *r)
{
	return r != NULL && r->text[0] != '!' ? r : NULL;
}

/* One file's rules: each parent directory from the top (unless the
 * caller knows none is ignored), then the path. */
static const struct rule *file_match(const struct rules *r, size_t from, size_t to, const char *rel, int is_dir,
				     bool parents)
{
	char dir[PATH_MAX];
	const struct rule *m;
	for (const char *sl = parents ? strchr(rel + 1, '/') : NULL; sl != NULL; sl = strchr(sl + 1, '/')) {
		if ((size_t)(sl - rel) >= sizeof dir)
			return NULL;
		memcpy(dir, rel, (size_t)(sl - rel));
		dir[sl - rel] = '\0';
		if ((m = positive(last_match(r, from, to, dir, true))) != NULL)
			return m; /* nothing inside an ignored directory comes back */
	}
	if (is_dir != 0 && (m = positive(last_match(r, from, to, rel, true))) != NULL)
		return m;
	return is_dir != 1 ? positive(last_match(r, from, to, rel, false)) : NULL;
}

static const struct rule *match(const struct rules *r, const char *ws, const char *path, int is_dir, bool parents)
{
	if (r->n == 0 || ws == NULL)
		return NULL;
	size_t w = strcmp(ws, "/") == 0 ? 0 : strlen(ws);
	if (strncmp(path, ws, w) != 0 || path[w] != '/' || path[w + 1] == '\0')
		return NULL;
	const char *rel = path + w;
	if (strncmp(rel, "/.git", 5) == 0 && (rel[5] == '\0' || rel[5] == '/'))
		return NULL;
	for (size_t from = 0, to; from < r->n; from = to) {
		const struct rule *m;
		for (to = from + 1; to < r->n && r->v[to].origin.file == r->v[from].origin.file;)
			to++;
		if ((m = file_match(r, from, to, rel, is_dir, parents)) != NULL)
			return m;
	}
	return NULL;
}

const struct rule *ignore_match(const struct rules *r, const char *ws, const char *path, int is_dir)
{
	return match(r, ws, path, is_dir, true);
}

const struct rule *ignore_match_entry(const struct rules *r, const char *ws, const char *path, bool is_dir)
{
	return match(r, ws, path, is_dir, false);
}

bool ignore_active(const struct rules *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].text[0] != '!')
			return true;
	return false;
}
