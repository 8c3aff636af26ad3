/* walk: the existing paths a list of globs (or the ignore files) matches,
 * for the bind-overs of ns.c. Each glob is walked from its literal prefix
 * only, the ignore files from the workspace root, the pseudo file systems
 * are never entered, and the walk is bounded so a glob such as
 * "/ ** / *.pem" (without the spaces) cannot stall a launch for minutes. */
#include "backends/ns.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backends/sandbox.h"
#include "policy/glob.h"
#include "policy/ignore.h"
#include "policy/policy.h"

#define WALK_MAX_ENTRIES 200000

struct walk {
	/* whether path (is_dir: a directory) is a match, which is not descended */
	bool (*match)(const struct walk *, const char *path, bool is_dir);
	const struct glob *g;
	const struct rules *except;
	const struct policy *p; /* for the ignore files */
	const char *prune;      /* a directory never entered; NULL: none */
	struct ns_paths *out;
	long budget;
	int depth; /* levels below the prefix a match can be at; -1: any (`**`) */
};

/* How deep below its prefix a glob can match: one level per segment,
 * unbounded with `**`. "/ws/ *.code-workspace" (without the space) needs
 * one level, not a walk of the whole workspace. */
static int walk_depth(const char *pattern, const char *prefix)
{
	if (strstr(pattern, "**") != NULL)
		return -1;
	int n = 0;
	for (const char *c = pattern + strlen(prefix); *c; c++)
		n += *c == '/';
	return n;
}

void ns_paths_add(struct ns_paths *p, const char *path)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		char **v = realloc(p->v, cap * sizeof *v);
		if (v == NULL) {
			p->err = p->err ? p->err : ENOMEM;
			return;
		}
		p->v = v;
		p->cap = cap;
	}
	char *dup = strdup(path);
	if (dup != NULL)
		p->v[p->n++] = dup;
	else
		p->err = p->err ? p->err : ENOMEM;
}

int ns_paths_check(const struct ns_paths *p)
{
	if (p->err == 0)
		return 0;
	errno = p->err;
	return -1;
}

/* A name below dir makes a path longer than PATH_MAX: it could not be
 * matched nor bound over, so the walk fails rather than skip it. */
static void paths_too_long(struct ns_paths *p, const char *dir)
{
	if (p->err != 0)
		return;
	p->err = ENAMETOOLONG;
	snprintf(p->where, sizeof p->where, "%s", dir);
}

void ns_paths_free(struct ns_paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	memset(p, 0, sizeof *p);
}

bool ns_paths_under(const struct ns_paths *p, const char *path)
{
	for (size_t i = 0; i < p->n; i++)
		if (path_under(path, p->v[i]))
			return true;
	return false;
}

static bool walk_excepted(const struct rules *except, const char *path)
{
	if (except == NULL)
		return false;
	for (size_t i = 0; i < except->n; i++) {
		const char *pat = except->v[i].text;
		if (glob_is_pattern(pat) ? glob_match_text(pat, path, false) : strcmp(pat, path) == 0)
			return true;
	}
	return false;
}

static bool walk_pseudo(const char *path)
{
	return strcmp(path, "/proc") == 0 || strcmp(path, "/sys") == 0 || strcmp(path, "/dev") == 0;
}

/* The entry's type (S_IFMT bits, 0 if gone) from readdir when the file
 * system gives it: one stat less per entry of a large tree. Symlinks are
 * never followed. */
static mode_t walk_type(const struct dirent *e, const char *path)
{
	struct stat st;
	if (e->d_type != DT_UNKNOWN)
		return DTTOIF(e->d_type);
	return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0;
}

static bool walk_is_dir(const struct dirent *e, const char *path)
{
	return S_ISDIR(walk_type(e, path));
}

static bool walk_glob_match(const struct walk *w, const char *path, bool is_dir)
{
	(void)is_dir;
	return glob_match(w->g, path) && !walk_excepted(w->except, path);
}

static int walk_dir(struct walk *w, const char *dir, int level)
{
	DIR *d = opendir(dir);
	if (d == NULL)
		return errno == EACCES || errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	struct dirent *e;
	int rc = 0;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		char path[PATH_MAX];
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (--w->budget < 0) {
			errno = E2BIG;
			rc = -1;
			break;
		}
		if (snprintf(path, sizeof path, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, e->d_name) >=
		    (int)sizeof path) {
			paths_too_long(w->out, dir);
			errno = ENAMETOOLONG;
			rc = -1;
			break;
		}
		if (walk_pseudo(path) || (w->prune != NULL && strcmp(path, w->prune) == 0))
			continue;
		bool is_dir = walk_is_dir(e, path);
		if (w->match(w, path, is_dir)) {
			ns_paths_add(w->out, path);
			continue;
		}
		if ((w->depth < 0 || level < w->depth) && is_dir)
			rc = walk_dir(w, path, level + 1);
	}
	closedir(d);
	return rc;
}

static int walk_one(const char *pattern, const struct rules *except, struct ns_paths *out, long *budget)
{
	struct stat st;
	if (!glob_is_pattern(pattern)) {
		if (lstat(pattern, &st) == 0 && !walk_excepted(except, pattern))
			ns_paths_add(out, pattern);
		return 0;
	}
	struct glob g;
	char err[GLOB_ERR_MAX];
	if (glob_compile(pattern, &g, err) < 0) {
		errno = EINVAL; /* the policy layer validated it: cannot happen */
		return -1;
	}
	const char *prefix = glob_prefix(&g);
	struct walk w = { walk_glob_match, &g, except, NULL, NULL, out, *budget, walk_depth(pattern, prefix) };
	int rc = 0;
	if (prefix[0] == '/' && lstat(prefix, &st) == 0) {
		if (glob_match(&g, prefix) && !walk_excepted(except, prefix))
			ns_paths_add(out, prefix);
		else if (S_ISDIR(st.st_mode))
			rc = walk_dir(&w, prefix, 1);
	}
	*budget = w.budget;
	glob_free(&g);
	return rc;
}

int ns_glob_walk(const struct rules *globs, const struct rules *except, struct ns_paths *out)
{
	long budget = WALK_MAX_ENTRIES;
	for (size_t i = 0; i < globs->n; i++)
		if (walk_one(globs->v[i].text, except, out, &budget) < 0)
			return -1;
	return ns_paths_check(out);
}

/* The workspace's .git is never matched nor entered (ignore.h). */
static bool walk_ignore_match(const struct walk *w, const char *path, bool is_dir)
{
	return ignore_match_entry(&w->p->ignore, w->p->workspace, path, is_dir) != NULL;
}

int ns_ignore_walk(const struct policy *p, struct ns_paths *out)
{
	struct stat st;
	char git[PATH_MAX];
	if (!ignore_active(&p->ignore) || p->workspace == NULL || lstat(p->workspace, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	snprintf(git, sizeof git, "%s/.git", p->workspace);
	struct walk w = { walk_ignore_match, NULL, NULL, p, git, out, WALK_MAX_ENTRIES, -1 };
	return walk_dir(&w, p->workspace, 1) < 0 ? -1 : ns_paths_check(out);
}

/* Unix sockets below dir, at most `depth` levels down, in a bounded walk
 * (a daemon's runtime directory is small; a huge tree is cut short). */
static void walk_sockets(const char *dir, int depth, long *budget, struct ns_paths *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL && --*budget > 0) {
		char path[PATH_MAX];
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) {
			paths_too_long(out, dir);
			break;
		}
		mode_t type = walk_type(e, path);
		if (S_ISSOCK(type))
			ns_paths_add(out, path);
		else if (S_ISDIR(type) && depth > 0)
			walk_sockets(path, depth - 1, budget, out);
	}
	closedir(d);
}

void ns_socket_walk(const char *dir, int depth, struct ns_paths *out)
{
	long budget = 20000;
	walk_sockets(dir, depth, &budget, out);
}

bool ns_env_path(char *const *envp, const char *var, char *buf, size_t size)
{
	size_t n = strlen(var);
	for (; envp != NULL && *envp != NULL; envp++) {
		if (strncmp(*envp, var, n) != 0 || (*envp)[n] != '=')
			continue;
		const char *v = *envp + n + 1;
		const char *u = strstr(v, "unix:path=");
		if (u != NULL)
			v = u + strlen("unix:path=");
		if (v[0] != '/')
			return false;
		snprintf(buf, size, "%.*s", (int)strcspn(v, ",;"), v);
		return true;
	}
	return false;
}
