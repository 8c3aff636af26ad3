/* seccomp: the deny list of DESIGN.md, loaded with libseccomp. Everything
 * not named here is allowed: Landlock and the namespaces are the boundary,
 * this removes the kernel surface and the calls that would undo them. The
 * weaker sandbox (weak.c) adds the socket filter that stands in for the
 * network namespace. */
#include <errno.h>
#include <sys/prctl.h>
#include <linux/sched.h>
#include <netinet/in.h>
#include <seccomp.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#include "backends/sandbox.h"
#include "policy/policy.h"

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif

/* Kernel surface and namespace/mount calls: EPERM, always. Names, not
 * numbers, so a syscall this libseccomp does not know is skipped rather
 * than failing the whole filter (seccomp_syscall_resolve_name). */
static const char *const seccomp_denied[] = {
	"io_uring_setup",
	"io_uring_enter",
	"io_uring_register",
	"bpf",
	"perf_event_open",
	"userfaultfd",
	"keyctl",
	"add_key",
	"request_key",
	"kexec_load",
	"kexec_file_load",
	"init_module",
	"finit_module",
	"delete_module",
	"mount",
	"umount",
	"umount2",
	"pivot_root",
	"chroot",
	"setns",
	"fsopen",
	"fsmount",
	"move_mount",
	"open_tree",
	"open_tree_attr",
	"fsconfig",
	"fspick",
	"mount_setattr",
	"acct",
	"swapon",
	"swapoff",
	"reboot",
	"syslog",
	"quotactl",
	"lookup_dcookie",
	"vhangup",
	"name_to_handle_at",
	"open_by_handle_at",
};

/* Reading or writing another process's memory: allowed in devbox only. */
static const char *const seccomp_ptrace[] = {
	"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp",
};

/* Calls newer than this libseccomp (Debian 12 ships 2.5.4), by their
 * x86-64 numbers, so the filter still sees them. */
static int seccomp_newer(const char *name)
{
#if defined(__x86_64__)
	if (strcmp(name, "open_tree_attr") == 0)
		return 467;
#endif
	(void)name;
	return __NR_SCMP_ERROR;
}

static int seccomp_deny_names(scmp_filter_ctx ctx, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int nr = seccomp_syscall_resolve_name(names[i]);
		if (nr == __NR_SCMP_ERROR)
			nr = seccomp_newer(names[i]);
		if (nr == __NR_SCMP_ERROR)
			continue;
		if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0) < 0)
			return -1;
	}
	return 0;
}

/* TIOCSTI pushes bytes into the terminal's input (typed as if by the
 * person); TIOCLINUX can do the same on a VT. The kernel compares only the
 * low 32 bits of the request, so the filter must too (CVE-2019-10063). */
static int seccomp_ioctls(scmp_filter_ctx ctx)
{
	const unsigned long reqs[] = { TIOCSTI, TIOCLINUX };
	for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++)
		if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
				     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffUL, reqs[i])) < 0)
			return -1;
	return 0;
}

/* No new user namespace inside (it would hand back every capability in
 * it); clone3 passes its flags in memory the filter cannot read, so it
 * answers ENOSYS and libc falls back to clone. */
static int seccomp_namespaces(scmp_filter_ctx ctx)
{
	if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1,
			     SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER)) < 0)
		return -1;
	/* clone's flags are its first argument on x86-64 and arm64. */
	if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
			     SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER)) < 0)
		return -1;
	return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
}

/* socket() with all of the n comparisons true: EACCES. */
static int seccomp_deny_socket(scmp_filter_ctx ctx, unsigned n, const struct scmp_arg_cmp *cmp)
{
	return seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), n, cmp);
}

#define DENY_SOCKET(ctx, ...)                                                                                    \
	seccomp_deny_socket((ctx), sizeof((struct scmp_arg_cmp[]){ __VA_ARGS__ }) / sizeof(struct scmp_arg_cmp), \
			    (struct scmp_arg_cmp[]){ __VA_ARGS__ })

/* Raw and packet sockets, SCTP and MPTCP (their own code paths, outside
 * what the netns and the proxy reason about), netlink other than routing
 * (the audit, netfilter, uevent families), vsock (the hypervisor). */
static int seccomp_sockets(scmp_filter_ctx ctx)
{
	const int inet[] = { AF_INET, AF_INET6 };
	if (DENY_SOCKET(ctx, SCMP_A0(SCMP_CMP_EQ, AF_PACKET)) < 0 ||
	    DENY_SOCKET(ctx, SCMP_A0(SCMP_CMP_EQ, AF_VSOCK)) < 0 ||
	    DENY_SOCKET(ctx, SCMP_A0(SCMP_CMP_EQ, AF_NETLINK), SCMP_A2(SCMP_CMP_NE, NETLINK_ROUTE)) < 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		struct scmp_arg_cmp fam = SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)inet[i]);
		if (DENY_SOCKET(ctx, fam, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_RAW)) < 0 ||
		    DENY_SOCKET(ctx, fam, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_PACKET)) < 0 ||
		    DENY_SOCKET(ctx, fam, SCMP_A2(SCMP_CMP_EQ, IPPROTO_SCTP)) < 0 ||
		    DENY_SOCKET(ctx, fam, SCMP_A2(SCMP_CMP_EQ, IPPROTO_MPTCP)) < 0)
			return -1;
	}
	return 0;
}

/* The weaker sandbox with a restricted network (no network namespace):
 * an allow list for socket() instead. AF_UNIX; AF_NETLINK with
 * NETLINK_ROUTE (the existing rule above); AF_INET and AF_INET6 as TCP
 * only. A comparison per refused value, since libseccomp takes one
 * comparison per argument in a rule. An argument with its upper 32 bits
 * set compares above every allowed value, so it is refused too. */
static int seccomp_weak_family(scmp_filter_ctx ctx)
{
	for (int fam = 0; fam <= AF_NETLINK; fam++) {
		if (fam == AF_UNIX || fam == AF_INET || fam == AF_INET6 || fam == AF_NETLINK)
			continue;
		if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
				     SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)fam)) < 0)
			return -1;
	}
	if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_GT, AF_NETLINK)) <
	    0)
		return -1;
	/* socketpair makes AF_UNIX pairs only, whatever it is asked. */
	if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socketpair), 1,
			     SCMP_A0(SCMP_CMP_LT, AF_UNIX)) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socketpair), 1,
			     SCMP_A0(SCMP_CMP_GT, AF_UNIX)) < 0)
		return -1;
	return 0;
}

/* AF_INET/AF_INET6: (type & 0xf) == SOCK_STREAM, protocol 0 or TCP. */
static int seccomp_weak_tcp(scmp_filter_ctx ctx, int fam)
{
	struct scmp_arg_cmp f = SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)fam);
	for (int type = 0; type <= 0xf; type++)
		if (type != SOCK_STREAM &&
		    DENY_SOCKET(ctx, f, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, (scmp_datum_t)type)) < 0)
			return -1;
	for (int proto = 1; proto < IPPROTO_TCP; proto++)
		if (DENY_SOCKET(ctx, f, SCMP_A2(SCMP_CMP_EQ, (scmp_datum_t)proto)) < 0)
			return -1;
	return DENY_SOCKET(ctx, f, SCMP_A2(SCMP_CMP_GT, IPPROTO_TCP));
}

/* MSG_FASTOPEN connects without connect(), where the observer would not
 * see the destination. */
static int seccomp_weak_fastopen(scmp_filter_ctx ctx)
{
	if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(sendto), 1,
			     SCMP_A3(SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, MSG_FASTOPEN)) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(sendmsg), 1,
			     SCMP_A2(SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, MSG_FASTOPEN)) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(sendmmsg), 1,
			     SCMP_A3(SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, MSG_FASTOPEN)) < 0)
		return -1;
	return 0;
}

/* Every weaker sandbox: no unix datagram sockets (without a mount
 * namespace /dev/log and journald's sockets are in reach, and a sendmsg
 * on another socket is handed back to the kernel: unixsock.h), and no
 * PR_SET_DUMPABLE (a non-dumpable process would be out of the observer's
 * reach: it has no capability over a process outside a user namespace). */
static int seccomp_weak_all(scmp_filter_ctx ctx)
{
	struct scmp_arg_cmp unix_fam = SCMP_A0(SCMP_CMP_EQ, AF_UNIX);
	struct scmp_arg_cmp dgram = SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_DGRAM);
	if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 2, unix_fam, dgram) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socketpair), 2, unix_fam, dgram) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_EQ, PR_SET_DUMPABLE)) < 0)
		return -1;
	return 0;
}

static int seccomp_weak(scmp_filter_ctx ctx)
{
	if (seccomp_weak_family(ctx) < 0 || seccomp_weak_tcp(ctx, AF_INET) < 0 || seccomp_weak_tcp(ctx, AF_INET6) < 0)
		return -1;
	return seccomp_weak_fastopen(ctx);
}

static int seccomp_build(scmp_filter_ctx ctx, struct sbx *s)
{
	const struct policy *p = s->p;
	if (seccomp_deny_names(ctx, seccomp_denied, sizeof seccomp_denied / sizeof seccomp_denied[0]) < 0)
		return -1;
	if (!p->allow_ptrace &&
	    seccomp_deny_names(ctx, seccomp_ptrace, sizeof seccomp_ptrace / sizeof seccomp_ptrace[0]) < 0)
		return -1;
	if (seccomp_ioctls(ctx) < 0 || seccomp_namespaces(ctx) < 0 || seccomp_sockets(ctx) < 0)
		return -1;
	if (s->weak && (seccomp_weak_all(ctx) < 0 || (p->net.mode != NET_HOST && seccomp_weak(ctx) < 0)))
		return -1;
	return 0;
}

int seccomp_apply(struct sbx *s)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (ctx == NULL)
		return sbx_failx(s, "seccomp", "seccomp_init failed");
	/* Other ABIs (i386, x32 on x86-64) would dodge every rule: kill. */
	int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	if (rc == 0)
		rc = seccomp_build(ctx, s);
	if (rc == 0) {
		rc = seccomp_load(ctx);
		errno = rc < 0 ? -rc : 0;
		if (rc < 0) {
			seccomp_release(ctx);
			return sbx_fail(s, "seccomp", "load the filter");
		}
	}
	seccomp_release(ctx);
	if (rc < 0) {
		errno = -rc;
		return sbx_fail(s, "seccomp", "build the filter");
	}
	return 0;
}
