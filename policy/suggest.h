/* suggest: the smallest broadening of a policy that would have allowed one
 * denial (DESIGN.md "Escalation"). Pure: a policy and a denied target in,
 * one sandbox.json list entry out.
 *
 * - a write or a create: the exact path denied (the file, or the
 *   directory the process tried to make), as an `additionalReadwritePaths`
 *   entry; a path that does not exist yet is made by sandmux at approval
 *   (`create` says which kind), so that Landlock can grant exactly it;
 * - a remove, a rename or a link: the directory it happens in (those
 *   rights are the directory's), but never /, $HOME or a directory
 *   holding shell startup files (.bashrc, .profile, .zshrc...);
 * - a read or exec where the profile restricts reads: the path itself, as
 *   an `additionalReadonlyPaths` entry;
 * - a connection: the exact host, as a `networkPolicy.allow` entry.
 *
 * A suggestion is only made when the policy, broadened by it, really
 * allows the target: a protected path, a `deny` match, sandmux's own files
 * or an always-blocked address get no suggestion at all. */
#ifndef SUGGEST_H
#define SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

#include "policy/policy.h"

/* The sandbox.json lists a suggestion can add to, and their keys. */
enum suggest_kind {
	SUGGEST_NONE, /* nothing to suggest */
	SUGGEST_RW,   /* additionalReadwritePaths */
	SUGGEST_RO,   /* additionalReadonlyPaths */
	SUGGEST_NET,  /* networkPolicy.allow */
};
#define SUGGEST_KEY_RW  "additionalReadwritePaths"
#define SUGGEST_KEY_RO  "additionalReadonlyPaths"
#define SUGGEST_KEY_NET "networkPolicy.allow"
/* SUGGEST_KEY_* of a kind; NULL for SUGGEST_NONE. */
const char *suggest_key(enum suggest_kind);

struct suggestion {
	enum suggest_kind kind;
	char value[4096];
	char create;   /* 'f' a file, 'd' a directory to make at approval if missing; 0: nothing */
	unsigned mode; /* the mode the denied call asked for (0: 0644 / 0755) */
};

/* Fills `out` and returns true when a broadening exists. `path` is
 * absolute and normalised. */
bool suggest_path(const struct policy *, const char *path, enum fs_op, struct suggestion *out);
/* The same, knowing what the call makes: 'f' a file (open O_CREAT,
 * creat), 'd' a directory (mkdir), 'l' a link or other node (its
 * directory is suggested), 0 unknown (a create is taken as a file). */
bool suggest_path_kind(const struct policy *, const char *path, enum fs_op, char kind, struct suggestion *out);
/* `target` is "host", "host:port" or "[v6]:port"; the port is dropped. */
bool suggest_host(const struct policy *, const char *target, struct suggestion *out);
/* A denial's target ("host", "host:port", "[v6]:port" or a bare v6
 * address) -> its host. */
void suggest_target_host(const char *target, char *host, size_t size);

/* Broadens the policy in memory by the suggestion (an approval "once" or
 * "session": the restarted command gets it, no file changes). The entry's
 * origin says it came from an approval. */
void suggest_apply(struct policy *, const struct suggestion *);

/* The suggestion as sandbox.json text, e.g.
 * "additionalReadwritePaths": ["/etc"]  or  "networkPolicy": {"allow": ["a.com"]}.
 * Returns the length written (truncated to size), or 0 when there is none. */
size_t suggest_format(const struct suggestion *, char *buf, size_t size);

#endif
