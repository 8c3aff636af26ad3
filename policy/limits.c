/* limits: how a profile's "limits" and the defaults of sandmux.json make
 * the limits a sandbox gets. A profile can only lower them: a per-repo
 * file (which may be hostile, and is read before it is trusted) must not
 * be able to lift the person's bounds. */
#include "policy/policy.h"

/* The smaller of two limits, 0 (none) being the largest. */
static long limit_lower(long a, long b)
{
	if (a == LIMIT_UNSET)
		return b;
	if (b == LIMIT_UNSET)
		return a;
	if (a == 0 || b == 0)
		return a == 0 ? b : a;
	return a < b ? a : b;
}

void limits_lower(struct limits *into, const struct limits *from)
{
	into->pids = limit_lower(into->pids, from->pids);
	into->memory_mib = limit_lower(into->memory_mib, from->memory_mib);
	into->tmp_mib = limit_lower(into->tmp_mib, from->tmp_mib);
}

void limits_fold(struct limits *profile, const struct limits *defaults)
{
	limits_lower(profile, defaults);
	if (profile->pids == LIMIT_UNSET) /* no default either: none */
		profile->pids = 0;
	if (profile->memory_mib == LIMIT_UNSET)
		profile->memory_mib = 0;
	if (profile->tmp_mib == LIMIT_UNSET)
		profile->tmp_mib = 0;
}
