/* approve: the file side of an "always" approval (DESIGN.md "Escalation"):
 * the suggestion is added to a sandbox.json with policy/jsonedit.h (other
 * keys and formatting kept) and the file replaced atomically by
 * backends/safefile.h, so a crash leaves the old file or the new one,
 * never half of one. */
#ifndef APPROVE_H
#define APPROVE_H

#include <stddef.h>

#include "policy/paths.h"

struct suggestion;

/* under HOME or the workspace: the same name in both */
#define APPROVE_FILE (sm_path_rel(SM_PATH_USER_POLICY))

/* Adds the suggestion to root/rel (HOME or the workspace, and
 * APPROVE_FILE; a missing file is a new one, mode 0644). Neither the read
 * nor the write follows a symbolic link below root: a linked .sandmux/ or
 * sandbox.json is refused, and what it names stays as it was. A root
 * that is not absolute ($HOME unset) is refused. 1: added, 0: already
 * there, -1: err set. */
int approve_always(const char *root, const char *rel, const struct suggestion *, char *err, size_t errlen);

#endif
