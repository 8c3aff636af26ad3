/* caps: the sandbox keeps no capability, also when started by root. Inside
 * the new user namespace the child holds every capability of that
 * namespace; after this it holds none, cannot regain any through execve
 * of a set-uid or file-capability binary (empty bounding set, no_new_privs
 * set earlier), and root's uid 0 grants nothing (SECBIT_NOROOT). */
#include <errno.h>
#include <stdbool.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backends/sandbox.h"

static int caps_last(void)
{
	int last = CAP_LAST_CAP;
	/* A newer kernel may know more capabilities than our headers. */
	while (prctl(PR_CAPBSET_READ, last + 1, 0, 0, 0) >= 0)
		last++;
	return last;
}

/* Whether the process holds no capability at all (permitted empty): an
 * unprivileged user's weaker sandbox, which has no user namespace in
 * which to hold any, and may not change the bounding set or securebits
 * (CAP_SETPCAP). no_new_privs keeps execve from granting any. */
static bool caps_none(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[2];
	return syscall(SYS_capget, &h, d) == 0 && d[0].permitted == 0 && d[1].permitted == 0 && d[0].inheritable == 0 &&
	       d[1].inheritable == 0;
}

int caps_drop(struct sbx *s)
{
	if (s->weak && caps_none()) {
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
			return sbx_fail(s, "capabilities", "clear the ambient set");
		if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
			return sbx_failx(s, "capabilities", "no_new_privs is not set");
		return 0;
	}
	int last = caps_last();
	for (int c = 0; c <= last; c++)
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 && errno != EINVAL)
			return sbx_fail(s, "capabilities", "drop the bounding set");
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return sbx_fail(s, "capabilities", "clear the ambient set");
	if (prctl(PR_SET_SECUREBITS,
		  SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
			  SECBIT_KEEP_CAPS_LOCKED,
		  0, 0, 0) < 0)
		return sbx_fail(s, "capabilities", "lock the securebits");
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	if (syscall(SYS_capset, &h, d) < 0)
		return sbx_fail(s, "capabilities", "clear the permitted, effective and inheritable sets");
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		return sbx_failx(s, "capabilities", "no_new_privs is not set");
	return 0;
}
