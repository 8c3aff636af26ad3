/* decide: allow or deny one file operation, and say which rule decided.
 * Order: deny globs and ignore files, then sandmux's own files and other read-only roots,
 * then protected paths (for writes) minus their exceptions, then the
 * temp dir, write roots and read roots. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "policy/config.h"
#include "policy/glob.h"
#include "policy/ignore.h"

static struct decision decision(bool allow, const char *rule, struct origin o)
{
	return (struct decision){ .allow = allow, .rule = rule, .origin = o };
}

static const char *rule_text(const struct rule *r)
{
	return r->label ? r->label : r->text;
}

static const struct rule *rules_under(const struct rules *r, const char *path)
{
	for (size_t i = 0; i < r->n; i++)
		if (path_under(path, r->v[i].text))
			return &r->v[i];
	return NULL;
}

/* The directory a pattern's literal part names: "/ws/.cursor" for
 * "/ws/.cursor/STAR.json". Whatever the pattern matches is under it. */
static size_t literal_dir(const char *pattern)
{
	size_t lit = strcspn(pattern, "*?[");
	if (pattern[lit] == '\0')
		return lit;
	while (lit > 0 && pattern[lit - 1] != '/')
		lit--;
	return lit > 1 ? lit - 1 : lit;
}

/* A glob naming path or one of its parent directories (a denied or
 * protected directory covers what is inside it). The observer asks this
 * for every call it sees: a path outside a glob's literal directory is
 * passed over without running the matcher. */
static const struct rule *rules_glob(const struct rules *r, const char *path)
{
	for (size_t i = 0; i < r->n; i++) {
		const char *g = r->v[i].text;
		size_t lit = literal_dir(g);
		if (lit > 1 && (strncmp(path, g, lit) != 0 || (path[lit] != '\0' && path[lit] != '/')))
			continue;
		if (glob_match_parents(g, path))
			return &r->v[i];
	}
	return NULL;
}

static bool write_like(enum fs_op op)
{
	return op == OP_WRITE || op == OP_CREATE || op == OP_REMOVE || op == OP_RENAME;
}

/* Host paths: the session temp dir is p->tmpdir (mounted at /tmp inside
 * by the launcher); a host /tmp is nothing special. */
static bool in_tmp(const struct policy *p, const char *path)
{
	return p->tmpdir && path_under(path, p->tmpdir);
}

static const char not_writable[] = "not under a writable path";

static struct decision decide_write(const struct policy *p, const char *path)
{
	static const struct origin hard = { .layer = LAYER_HARDCODED };
	/* the temp dir sits under ~/.sandmux (read-only), so it comes first */
	const struct rule *r;
	if (in_tmp(p, path))
		return p->tmp_writable ? decision(true, "session temp dir", hard)
				       : decision(false, "disableTmpWrite: temp dir is read-only", hard);
	/* the workspace's agent state sits under ~/.sandmux too (agents.h) */
	if (p->agents != NULL && p->agents->state != NULL && path_under(path, p->agents->state))
		return decision(true, "agent state of this workspace (shadows, histories)", hard);
	if ((r = rules_under(&p->readonly, path)))
		return decision(false, rule_text(r), r->origin);
	if ((r = rules_glob(&p->protect, path)) && !rules_glob(&p->protect_except, path))
		return decision(false, rule_text(r), r->origin);
	if (p->agents != NULL && (r = rules_under(&p->agents->shadow, path)))
		return decision(true, rule_text(r), r->origin);
	if ((r = rules_under(&p->write, path)))
		return decision(true, rule_text(r), r->origin);
	return decision(false, not_writable, p->profile_origin);
}

static struct decision decide_read(const struct policy *p, const char *path)
{
	const struct rule *r;
	if (p->read_all)
		return decision(true, "profile: reads everywhere", p->profile_origin);
	if ((r = rules_under(&p->read, path)) || (r = rules_under(&p->write, path)))
		return decision(true, rule_text(r), r->origin);
	if (in_tmp(p, path))
		return decision(true, "session temp dir", (struct origin){ .layer = LAYER_HARDCODED });
	return decision(false, "not under a readable path", p->profile_origin);
}

struct decision policy_decide_path(const struct policy *p, const char *path, enum fs_op op)
{
	if (!p->sandboxed)
		return decision(true, "no sandbox", p->profile_origin);
	char *norm = path_normalize(path);
	const struct rule *r = rules_glob(&p->deny, norm);
	if (r == NULL)
		r = ignore_match(&p->ignore, p->workspace, norm, -1);
	struct decision d;
	if (r)
		d = decision(false, rule_text(r), r->origin);
	else
		d = write_like(op) ? decide_write(p, norm) : decide_read(p, norm);
	free(norm);
	return d;
}

/* Whether a move of path carries what is below it into or out of what
 * glob g matches. "PRE/ ** /NAME" (without the spaces) matches below
 * every directory under PRE whatever it is named: one strictly under PRE
 * carries nothing out of it. */
static bool carries(const char *g, const char *path)
{
	if (!glob_may_match_below(g, path))
		return false;
	const char *star = strstr(g, "/**/"), *tail = star != NULL ? star + 4 : NULL;
	if (tail == NULL || strchr(tail, '/') != NULL || strstr(tail, "**") != NULL)
		return true;
	char pre[PATH_MAX], parent[PATH_MAX];
	size_t n = (size_t)(star - g), cut = strlen(path);
	while (cut > 0 && path[cut - 1] != '/')
		cut--;
	if (n >= sizeof pre || cut >= sizeof parent)
		return true;
	if (n == 0)
		return strcmp(path, "/") == 0;
	memcpy(pre, g, n);
	pre[n] = '\0';
	memcpy(parent, path, cut > 1 ? cut - 1 : 1);
	parent[cut > 1 ? cut - 1 : 1] = '\0';
	return strstr(pre, "**") != NULL || !glob_match_parents(pre, parent);
}

static const struct rule *rules_carried(const struct rules *r, const char *path)
{
	for (size_t i = 0; i < r->n; i++)
		if (carries(r->v[i].text, path))
			return &r->v[i];
	return NULL;
}

/* The ignore files' patterns are workspace-relative, "!" for a negation
 * and a trailing "/" for a directory (policy/ignore.h). */
static const struct rule *ignore_carried(const struct policy *p, const char *path)
{
	for (size_t i = 0; p->workspace != NULL && i < p->ignore.n; i++) {
		const char *t = p->ignore.v[i].text;
		char g[PATH_MAX];
		int n = snprintf(g, sizeof g, "%s%s", strcmp(p->workspace, "/") == 0 ? "" : p->workspace, t);
		if (t[0] == '!' || n < 0 || (size_t)n >= sizeof g)
			continue;
		if (n > 1 && g[n - 1] == '/')
			g[n - 1] = '\0';
		if (carries(g, path))
			return &p->ignore.v[i];
	}
	return NULL;
}

struct decision policy_decide_carry(const struct policy *p, const char *path)
{
	if (!p->sandboxed)
		return decision(true, "no sandbox", p->profile_origin);
	char *norm = path_normalize(path);
	const struct rule *r = NULL;
	if (norm != NULL && (r = rules_carried(&p->deny, norm)) == NULL && (r = ignore_carried(p, norm)) == NULL &&
	    /* a read-only root below it: a gitlink file in a directory renamed aside */
	    (r = rules_carried(&p->readonly, norm)) == NULL && !rules_glob(&p->protect_except, norm))
		r = rules_carried(&p->protect, norm);
	struct decision d = r != NULL ? decision(false, rule_text(r), r->origin)
				      : decision(true, "nothing protected below it", p->profile_origin);
	free(norm);
	return d;
}

bool policy_path_captured(const struct policy *p, const char *path)
{
	if (!p->sandboxed || !p->capture)
		return false;
	struct decision d = policy_decide_path(p, path, OP_WRITE);
	return !d.allow && d.rule == not_writable;
}

bool policy_path_guarded(const struct policy *p, const char *path, const char **rule)
{
	struct decision d = policy_decide_path(p, path, OP_WRITE);
	*rule = d.rule;
	return p->sandboxed && !d.allow && d.rule != not_writable;
}
