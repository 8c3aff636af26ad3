/* trust: the record of per-repo policy files the person has trusted,
 * HOME/.sandmux/trust.json: {"version": 1, "trusted": {PATH: "sha256:HEX"}}.
 * A file is trusted while its path and content hash are recorded there;
 * any change to the content makes it untrusted again. */
#ifndef POLICY_TRUST_H
#define POLICY_TRUST_H

#include <stdbool.h>
#include <stddef.h>

#include "policy/policy.h"

bool trust_check(const char *home, const char *file, const char *text, size_t len);
/* Records file (absolute) with its current content: atomic (temp file and
 * rename), other entries kept. 0, or -1 with err->msg. */
int trust_record(const char *home, const char *file, struct perr *err);
/* HOME/.sandmux/trust.json into buf. */
void trust_path(const char *home, char *buf, size_t size);

#endif
