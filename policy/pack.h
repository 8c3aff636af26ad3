/* pack: a resolved policy as bytes and back, for the observer, which
 * runs in a process of its own that was not forked from the one holding
 * the policy (backends/observer-proc.c).
 *
 * Only what deciding a path, suggesting an entry and hinting a denial
 * read is packed: the profile's name and origin, workspace, home, temp
 * dir, the flags, every path and network list, and the agents' state
 * directory, shadows and quiet lists (not the presets themselves, the
 * environment policy or the merged layers). Origins keep their file
 * names (each file once).
 *
 * The bytes are a host's own (native byte order, no version across
 * builds): the same binary packs and unpacks. Unpacking checks every
 * length, count and enum, so any bytes give a policy or one error line
 * naming the byte offset and what is wrong. */
#ifndef POLICY_PACK_H
#define POLICY_PACK_H

#include <stddef.h>

#include "policy/buf.h"
#include "policy/policy.h"

/* Appends p's packed form to out; false when out of memory. */
bool policy_pack(const struct policy *, struct buf *out);
/* A new policy from len bytes of data, to be freed with
 * policy_unpack_free() (never policy_free()); NULL with err set
 * ("policy pack: byte N: what is wrong"). */
struct policy *policy_unpack(const void *data, size_t len, char *err, size_t errlen);
void policy_unpack_free(struct policy *);

#endif
