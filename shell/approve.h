/* approve: the file side of an "always" approval (DESIGN.md "Escalation"):
 * the suggestion is added to a sandbox.json with policy/jsonedit.h and the
 * file replaced atomically (temp file in the same directory, fsync,
 * rename, fsync of the directory), so a crash leaves the old file or the
 * new one, never half of one. */
#ifndef APPROVE_H
#define APPROVE_H

#include <stddef.h>

struct suggestion;

/* Replaces path with text. Keeps the old file's mode; a symlink is
 * followed, so the file it names is the one replaced. Creates the parent
 * directory (0700) when missing. 0, or -1 with err set. */
int approve_write_atomic(const char *path, const char *text, char *err, size_t errlen);

/* Adds the suggestion to the sandbox.json at path (a missing file is a new
 * one). 1: added, 0: already there, -1: err set. */
int approve_always(const char *path, const struct suggestion *, char *err, size_t errlen);

#endif
