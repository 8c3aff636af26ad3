/* trust: the record of per-repo policy files the person has trusted,
 * HOME/.sandmux/trust.json (SM_PATH_TRUST): {"version": 1, "trusted": {PATH: "sha256:HEX"}}.
 * A file is trusted while its path and content hash are recorded there;
 * any change to the content makes it untrusted again. */
#ifndef POLICY_TRUST_H
#define POLICY_TRUST_H

#include <stdbool.h>
#include <stddef.h>

#include "policy/policy.h"

#define TRUST_TAG_SIZE 72 /* "sha256:" + 64 hex + NUL */

/* Whether file is recorded with exactly this content. The record is read
 * beneath HOME with no symbolic link on its way; refused, it trusts
 * nothing. */
bool trust_check(const char *home, const char *file, const char *text, size_t len);
/* The record's text: 1 read, 0 absent, -1 refused (err->msg). */
int trust_read(const char *home, char **text, size_t *len, struct perr *err);
/* "sha256:HEX" of the bytes. */
void trust_tag(const char *text, size_t len, char out[TRUST_TAG_SIZE]);
/* The record (old: its current text, or NULL) with file -> tag set and
 * every other entry kept; caller frees, NULL out of memory. The caller
 * tags the very bytes it read, parsed and showed, and writes the record
 * itself: policy/ writes no file. */
char *trust_add(const char *old, size_t old_len, const char *file, const char *tag);
/* HOME/.sandmux/trust.json into buf. */
void trust_path(const char *home, char *buf, size_t size);

#endif
