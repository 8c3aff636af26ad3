/* policy-show: `sandmux policy show`: the effective policy, each value
 * with the file and layer it came from, as text or JSON (cJSON). */
#ifndef POLICY_SHOW_H
#define POLICY_SHOW_H

#include <stdio.h>

#include "policy/policy.h"

void policy_show_text(const struct policy *, FILE *);
/* 0, or -1 when the JSON could not be built. */
int policy_show_json(const struct policy *, FILE *);
/* "FILE:LINE:COL (per-user)", "hardcoded", "default", "--sandbox". */
const char *policy_show_origin(struct origin, char *buf, size_t size);

#endif
