/* glob: exactly the subset of DESIGN.md "Profiles": `*` within a segment,
 * `?` one character, `**` whole segments (`**` + `/` also matches zero
 * directories; a trailing `/` + `**` also matches the directory itself),
 * `[abc]`, `[a-z]`, `[!a]`, `[^a]`. Everything else a shell might accept
 * (braces, backslash escapes, `[]...]`, POSIX classes, unterminated
 * classes, `**` inside a segment) is refused: a glob that means something
 * other than the user thinks must not silently protect less. */
#ifndef POLICY_GLOB_H
#define POLICY_GLOB_H

#include <stdbool.h>
#include <stddef.h>

#define GLOB_ERR_MAX 128

struct glob {
	char *pattern;
	char *prefix; /* literal leading directories: where to start a walk */
	bool nocase;  /* environment variable names */
};

/* 0, or -1 with errbuf (GLOB_ERR_MAX bytes) saying what is wrong. */
int glob_compile(const char *pattern, struct glob *, char *errbuf);
int glob_compile_nocase(const char *pattern, struct glob *, char *errbuf);
bool glob_match(const struct glob *, const char *path);
/* The leading segments without any metacharacter ("/ws/src" for
 * "/ws/src/ ** /x.pem" without the spaces); the whole pattern when it has no
 * metacharacter; "" for a relative pattern starting with one. */
const char *glob_prefix(const struct glob *);
void glob_free(struct glob *);

/* Whether text contains `*`, `?` or `[` (DESIGN.md: then it is a glob). */
bool glob_is_pattern(const char *text);
/* One-shot compile+match, for callers holding patterns already validated. */
bool glob_match_text(const char *pattern, const char *path, bool nocase);
/* Whether the pattern matches path or one of its parent directories, in
 * one pass over path (case-sensitive). */
bool glob_match_parents(const char *pattern, const char *path);
/* Whether the pattern could match some path strictly below dir (both
 * absolute): a directory that may hold a match, whatever it holds now. */
bool glob_may_match_below(const char *pattern, const char *dir);

#endif
