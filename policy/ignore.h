/* ignore: the workspace's .cursorignore and .sandmuxignore (gitignore
 * syntax), as rules no sandbox may read, write or rename (DESIGN.md
 * "Ignore files").
 *
 * Each pattern becomes one rule of policy->ignore whose text is a glob of
 * policy/glob.h relative to the workspace root ("/" + "**" + "/" + "*.env"
 * for `*.env`, "/build/out.txt" for `/build/out.txt`), with a leading '!'
 * when it negates and a trailing '/' when it names directories only; its
 * label is what a decision quotes (".cursorignore:3: *.env") and its
 * origin the file and line.
 *
 * Matching follows git: within one file the last matching pattern wins;
 * a path inside an ignored directory is ignored whatever a later `!`
 * says; a path either file ignores is ignored. The workspace's .git is
 * never matched (git never applies its ignore files there). */
#ifndef POLICY_IGNORE_H
#define POLICY_IGNORE_H

#include "policy/policy.h"

#define IGNORE_MAX_PATTERNS 10000

/* Appends the patterns of one file's text to out. file is the name the
 * origins point at (owned by the caller, kept as long as out); its last
 * component starts each label. 0, or -1 with err naming file, line and
 * column. */
int ignore_parse(struct rules *out, const char *file, const char *text, size_t len, struct perr *err);

/* Reads <workspace>/.cursorignore and <workspace>/.sandmuxignore (absent
 * files are fine) into p->ignore; their names are kept in cfg. 0 or -1. */
int ignore_load(struct policy *p, struct config *cfg, struct perr *err);

/* The rule that makes path (absolute, normalised) ignored, or NULL.
 * is_dir: 1 a directory, 0 not one, -1 unknown (then a directory-only
 * pattern counts too: the stricter answer). */
const struct rule *ignore_match(const struct rules *, const char *workspace, const char *path, int is_dir);

/* The same for a walk from the workspace root that only enters
 * directories not ignored: the parents are not matched again. */
const struct rule *ignore_match_entry(const struct rules *, const char *workspace, const char *path, bool is_dir);

/* Whether any pattern ignores something (not only `!` ones). */
bool ignore_active(const struct rules *);

#endif
