/* ns helpers: path lists and the walk that finds which existing paths a
 * list of globs matches at launch (walk.c). Internal to backends/. */
#ifndef NS_H
#define NS_H

#include <stdbool.h>
#include <stddef.h>

struct rules;

/* A path list that remembers its first failure: a path it could not keep
 * (out of memory) or a path too long to name (PATH_MAX) is never dropped
 * without a word, since a missing entry would be a missing bind-over. */
struct ns_paths {
	char **v;
	size_t n, cap;
	int err;         /* 0, ENOMEM or ENAMETOOLONG: the first path lost */
	char where[256]; /* ENAMETOOLONG: the directory it was in */
};

void ns_paths_add(struct ns_paths *, const char *path);
/* -1 with errno = p->err when a path was lost, else 0. */
int ns_paths_check(const struct ns_paths *);
void ns_paths_free(struct ns_paths *);
/* Whether path is one of the list's entries or beneath one. */
bool ns_paths_under(const struct ns_paths *, const char *path);

/* Appends every existing path matched by a rule of `globs` (literal paths
 * too) and by no rule of `except` (may be NULL). A matching directory is
 * not descended into: whatever covers it covers its contents. Symlinks are
 * not followed. -1 with errno set on failure (E2BIG: too many entries;
 * ENOMEM, ENAMETOOLONG: a path lost, see struct ns_paths). */
int ns_glob_walk(const struct rules *globs, const struct rules *except, struct ns_paths *out);

/* Appends every existing path of the workspace its ignore files ignore
 * (policy/ignore.h), likewise: an ignored directory is not descended
 * into, nor is the workspace's .git. -1 with errno (E2BIG, ENOMEM,
 * ENAMETOOLONG) on failure. */
struct policy;
int ns_ignore_walk(const struct policy *, struct ns_paths *out);

/* Appends the unix sockets found below dir, at most depth levels down
 * (a name too long or no memory: out->err). */
void ns_socket_walk(const char *dir, int depth, struct ns_paths *out);

/* The path named by variable `var` of envp: itself, or for a D-Bus address
 * its "unix:path=" part. false when unset or not absolute. */
bool ns_env_path(char *const *envp, const char *var, char *buf, size_t size);

#endif
