/* gitdirs: the git metadata a workspace holds when its policy is loaded
 * that would make a host `git` run code the sandbox wrote, beyond the
 * fixed protected globs (profile.c): the git directories of nested
 * repositories, submodules (.git/modules) and linked worktrees
 * (.git/worktrees), `.git` files (gitlinks), a missing `.git`, and the
 * directory core.hooksPath names. Only what exists at load: a git
 * directory the sandbox makes later (git init, clone, submodule update,
 * worktree add) stays its own. */
#ifndef POLICY_GITDIRS_H
#define POLICY_GITDIRS_H

#include "policy/strv.h"

/* Appends to globs the entries (workspace-relative paths and globs, or
 * a hooksPath glob) to write-protect, to files the `.git` names that are
 * no directory (a gitlink file, or none at the root), to hold read-only
 * as they are: not as protected globs, whose names the observer looks
 * for in every path it cannot resolve, and ".git" is in every path git
 * writes. -1 out of memory. */
int gitdirs_protected(const char *workspace, struct strv *globs, struct strv *files);

#endif
