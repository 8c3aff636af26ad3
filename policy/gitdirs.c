/* gitdirs: what git metadata at load time to write-protect (gitdirs.h).
 * A bounded look, start-up matters: the workspace root and the
 * directories right below it for nested repositories (each lookup costs;
 * deeper ones are found through .gitmodules and worktrees' gitdir files),
 * and the modules and worktrees of each git directory found. */
#include "policy/gitdirs.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "policy/glob.h"

#define MODULE_DEPTH 6 /* module names with slashes, modules of modules */
#define NESTED_DEPTH 1 /* levels below the workspace looked at for a .git */
#define CONFIG_MAX   65536

struct look {
	const char *ws;
	struct strv *out, *files;
	int at; /* the directory each_dir() lists, for its entries' callbacks */
	int err;
};

/* What a git directory holds that host git reads for code to run:
 * config (fsmonitor, hooksPath, drivers), hooks, attributes (drivers),
 * commondir (where config and hooks are then taken from). */
static const char *const gitdir_files[] = { "config", "hooks/**", "info/attributes", "commondir", "config.worktree" };
/* A linked worktree's admin directory: commondir as above, gitdir (the
 * worktree it belongs to), its own config. */
static const char *const worktree_files[] = { "commondir", "gitdir", "config.worktree" };

static void push_to(struct look *l, struct strv *v, const char *rel, const char *name)
{
	char e[PATH_MAX];
	if (snprintf(e, sizeof e, "%s%s%s", rel, name[0] ? "/" : "", name) >= (int)sizeof e)
		return; /* longer than PATH_MAX: nothing there to bind or open */
	if (strv_push(v, e) < 0)
		l->err = -1;
}

static void push(struct look *l, const char *rel, const char *name)
{
	push_to(l, l->out, rel, name);
}

/* stat(2) of ws/rel: 0 (none), 'd' a directory, 'f' anything else. */
static int kind(const struct look *l, const char *rel)
{
	char path[PATH_MAX];
	struct stat st;
	if (snprintf(path, sizeof path, "%s/%s", l->ws, rel) >= (int)sizeof path || stat(path, &st) < 0)
		return 0;
	return S_ISDIR(st.st_mode) ? 'd' : 'f';
}

/* The same of a name in the directory being listed: a short lookup, not
 * the whole path again (a large tree has thousands). */
static int kind_at(const struct look *l, const char *name)
{
	struct stat st;
	if (fstatat(l->at, name, &st, 0) < 0)
		return 0;
	return S_ISDIR(st.st_mode) ? 'd' : 'f';
}

static DIR *open_rel(const struct look *l, const char *rel)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof path, "%s/%s", l->ws, rel) >= (int)sizeof path)
		return NULL;
	return opendir(path);
}

/* The subdirectories of ws/rel, each once, to fn (a plain name: never
 * one a glob would read as a pattern). */
static void each_dir(struct look *l, const char *rel, int depth, void (*fn)(struct look *, const char *, int))
{
	DIR *d = open_rel(l, rel);
	struct dirent *e;
	int up = l->at;
	if (d != NULL)
		l->at = dirfd(d);
	while (d != NULL && (e = readdir(d)) != NULL) {
		char sub[PATH_MAX];
		if (e->d_name[0] == '.' && (e->d_name[1] == '\0' || (e->d_name[1] == '.' && e->d_name[2] == '\0')))
			continue;
		if ((e->d_type != DT_DIR && e->d_type != DT_UNKNOWN) || glob_is_pattern(e->d_name) ||
		    snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name) >= (int)sizeof sub)
			continue;
		if (e->d_type == DT_UNKNOWN && kind_at(l, e->d_name) != 'd')
			continue;
		fn(l, sub, depth);
		l->at = dirfd(d); /* fn may have listed a directory of its own */
	}
	if (d != NULL)
		closedir(d);
	l->at = up;
}

static void gitdir_add(struct look *l, const char *rel, int depth);

/* A linked worktree's admin directory, and the worktree's gitlink file
 * its gitdir names, when that lies in the workspace. */
static void worktree_add(struct look *l, const char *rel, int depth)
{
	char path[PATH_MAX], line[PATH_MAX];
	size_t w = strlen(l->ws);
	(void)depth;
	for (size_t i = 0; i < sizeof worktree_files / sizeof worktree_files[0]; i++)
		push(l, rel, worktree_files[i]);
	FILE *f = snprintf(path, sizeof path, "%s/%s/gitdir", l->ws, rel) < (int)sizeof path ? fopen(path, "re") : NULL;
	if (f != NULL && fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\r\n")] = '\0';
		if (strncmp(line, l->ws, w) == 0 && line[w] == '/' && strstr(line, "/..") == NULL &&
		    !glob_is_pattern(line + w + 1) && kind(l, line + w + 1) == 'f')
			push_to(l, l->files, line + w + 1, "");
	}
	if (f != NULL)
		fclose(f);
}

/* .git/modules/NAME, where NAME may hold slashes: a directory with a HEAD
 * is a submodule's git directory, any other one a part of a name. */
static void module_add(struct look *l, const char *rel, int depth)
{
	char head[PATH_MAX];
	if (depth > MODULE_DEPTH || snprintf(head, sizeof head, "%s/HEAD", rel) >= (int)sizeof head)
		return;
	if (kind(l, head) != 0)
		gitdir_add(l, rel, depth + 1);
	else
		each_dir(l, rel, depth + 1, module_add);
}

static void gitdir_add(struct look *l, const char *rel, int depth)
{
	char sub[PATH_MAX];
	for (size_t i = 0; i < sizeof gitdir_files / sizeof gitdir_files[0]; i++)
		push(l, rel, gitdir_files[i]);
	if (snprintf(sub, sizeof sub, "%s/worktrees", rel) < (int)sizeof sub)
		each_dir(l, sub, depth, worktree_add);
	if (snprintf(sub, sizeof sub, "%s/modules", rel) < (int)sizeof sub)
		each_dir(l, sub, depth, module_add);
}

/* A .git below the workspace, of kind k (kind()): a git directory's
 * files, or a gitlink file held as it is. */
static void dotgit_add(struct look *l, const char *git, int k)
{
	if (k == 'd')
		gitdir_add(l, git, 1);
	else if (k == 'f')
		push_to(l, l->files, git, "");
}

/* A directory below the workspace: its .git, a git directory or a
 * gitlink file, then its subdirectories. */
static void nested_add(struct look *l, const char *rel, int depth)
{
	const char *base = strrchr(rel, '/');
	base = base != NULL ? base + 1 : rel;
	char git[PATH_MAX], local[NAME_MAX + 8];
	if (strcmp(base, ".git") == 0 || strcmp(base, "node_modules") == 0 ||
	    snprintf(git, sizeof git, "%s/.git", rel) >= (int)sizeof git)
		return;
	snprintf(local, sizeof local, "%s/.git", base);
	dotgit_add(l, git, kind_at(l, local));
	if (depth < NESTED_DEPTH)
		each_dir(l, rel, depth + 1, nested_add);
}

/* A value of a git config file's section (the name before any space or
 * `]`, case-insensitive) and key, read plainly: unquoted, trailing
 * slashes dropped. Includes are not followed. fn gets each. */
static void config_values(struct look *l, const char *rel, const char *section, const char *key,
			  void (*fn)(struct look *, const char *))
{
	char path[PATH_MAX], line[PATH_MAX + 64];
	size_t sn = strlen(section), kn = strlen(key);
	if (snprintf(path, sizeof path, "%s/%s", l->ws, rel) >= (int)sizeof path)
		return;
	FILE *f = fopen(path, "re");
	bool in = false;
	long seen = 0;
	while (f != NULL && seen < CONFIG_MAX && fgets(line, sizeof line, f) != NULL) {
		char *s = line, *v;
		seen += (long)strlen(line);
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '[') {
			in = strncasecmp(s + 1, section, sn) == 0 &&
			     (s[1 + sn] == ']' || isspace((unsigned char)s[1 + sn]));
			continue;
		}
		if (!in || strncasecmp(s, key, kn) != 0)
			continue;
		for (s += kn; isspace((unsigned char)*s);)
			s++;
		if (*s != '=')
			continue;
		for (v = s + 1; isspace((unsigned char)*v);)
			v++;
		size_t n = strcspn(v, "\r\n#;");
		while (n > 0 && isspace((unsigned char)v[n - 1]))
			n--;
		if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
			v++;
			n -= 2;
		}
		while (n > 1 && v[n - 1] == '/')
			n--;
		v[n] = '\0';
		if (n > 0 && !glob_is_pattern(v) && strcmp(v, "/") != 0)
			fn(l, v);
	}
	if (f != NULL)
		fclose(f);
}

/* core.hooksPath: the hooks host git runs from there. */
static void hookspath_add(struct look *l, const char *value)
{
	push(l, value, "**");
}

/* A submodule's path in .gitmodules, at any depth: its gitlink file, or
 * its own git directory. */
static void submodule_add(struct look *l, const char *value)
{
	char git[PATH_MAX];
	if (value[0] == '/' || strstr(value, "..") != NULL ||
	    snprintf(git, sizeof git, "%s/.git", value) >= (int)sizeof git)
		return;
	dotgit_add(l, git, kind(l, git));
}

int gitdirs_protected(const char *workspace, struct strv *globs, struct strv *files)
{
	struct look l = { workspace, globs, files, -1, 0 };
	if (workspace == NULL)
		return 0;
	/* A .git that is no directory is protected by name: a gitlink file
	 * would send host git to the git directory it names, and one made
	 * where none was, to a git directory the sandbox wrote. */
	if (kind(&l, ".git") == 'd') {
		gitdir_add(&l, ".git", 1);
		config_values(&l, ".git/config", "core", "hookspath", hookspath_add);
	} else {
		push_to(&l, files, ".git", "");
	}
	each_dir(&l, "", 1, nested_add);
	config_values(&l, ".gitmodules", "submodule", "path", submodule_add);
	return l.err;
}
