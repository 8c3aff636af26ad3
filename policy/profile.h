/* profile: from merged layers and a profile name to a struct policy. */
#ifndef POLICY_PROFILE_H
#define POLICY_PROFILE_H

#include "policy/config.h"

/* Fills p (workspace and home already set) from cfg for the profile that
 * opts (flag, env) or cfg chooses. 0, or -1 with err->msg. */
int profile_resolve(struct policy *p, const struct config *cfg, const struct policy_opts *opts, struct perr *err);

#endif
