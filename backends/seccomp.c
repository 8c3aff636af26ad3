/* seccomp: the deny list of DESIGN.md, compiled with libseccomp by the
 * parent while the child makes its mounts (seccomp_prepare), loaded as
 * the ready BPF program by the child (seccomp_apply). Everything
 * not named here is allowed: Landlock and the namespaces are the boundary,
 * this removes the kernel surface and the calls that would undo them. The
 * weaker sandbox (weak.c) adds the socket filter that stands in for the
 * network namespace. */
#include <errno.h>
#include <sys/prctl.h>
#include <linux/sched.h>
#include <netinet/in.h>
#include <seccomp.h>
#include <linux/seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#include "backends/launch.h"
#include "backends/sandbox.h"
#include "policy/policy.h"

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif

/* Kernel surface and namespace/mount calls: EPERM, always. Names, not
 * numbers: libseccomp gives each its number on this architecture. A name
 * it does not know, and that seccomp_newer() has no number for, fails the
 * filter when it is on DESIGN.md's deny list (this one and the ptrace
 * list); the extras below seccomp_extras are skipped, and
 * seccomp_unknown() says which for `sandmux doctor`. */
static const char *const seccomp_denied[] = {
	"io_uring_setup",  "io_uring_enter", "io_uring_register", "bpf",           "perf_event_open",
	"userfaultfd",     "keyctl",         "add_key",           "request_key",   "kexec_load",
	"kexec_file_load", "init_module",    "finit_module",      "delete_module", "mount",
	"umount",          "umount2",        "pivot_root",        "chroot",        "setns",
	"fsopen",          "fsmount",        "move_mount",        "open_tree",     "open_tree_attr",
	"fsconfig",        "fspick",         "mount_setattr",
};

/* Not on DESIGN.md's list: more kernel surface no sandboxed command
 * needs. A kernel that lacks one has nothing to filter. */
static const char *const seccomp_extras[] = {
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

int seccomp_resolve(const char *name)
{
	int nr = seccomp_syscall_resolve_name(name);
	return nr != __NR_SCMP_ERROR ? nr : seccomp_newer(name);
}

/* A libseccomp call's result: 0, or -errno (libseccomp sets no errno). */
static bool failed(int *rc, int r)
{
	*rc = r;
	return r < 0;
}

/* EPERM for each name. A required name nobody knows: -ENOSYS with *unknown
 * set to it; an optional one is skipped. */
static int seccomp_deny_names(scmp_filter_ctx ctx, const char *const *names, size_t n, bool required,
			      const char **unknown)
{
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		int nr = seccomp_resolve(names[i]);
		if (nr == __NR_SCMP_ERROR && required) {
			*unknown = names[i];
			return -ENOSYS;
		}
		if (nr != __NR_SCMP_ERROR && failed(&rc, seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0)))
			return rc;
	}
	return 0;
}

size_t seccomp_unknown(const char **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < sizeof seccomp_extras / sizeof seccomp_extras[0]; i++)
		if (seccomp_resolve(seccomp_extras[i]) == __NR_SCMP_ERROR && n < max)
			out[n++] = seccomp_extras[i];
	return n;
}

/* TIOCSTI pushes bytes into the terminal's input (typed as if by the
 * person); TIOCLINUX can do the same on a VT. The kernel compares only the
 * low 32 bits of the request, so the filter must too (CVE-2019-10063). */
static int seccomp_ioctls(scmp_filter_ctx ctx)
{
	const unsigned long reqs[] = { TIOCSTI, TIOCLINUX };
	int rc = 0;
	for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++)
		if (failed(&rc, seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
						 SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffUL, reqs[i]))))
			break;
	return rc;
}

/* No new user namespace inside (it would hand back every capability in
 * it); clone3 passes its flags in memory the filter cannot read, so it
 * answers ENOSYS and libc falls back to clone. */
static int seccomp_namespaces(scmp_filter_ctx ctx)
{
	int rc;
	if (failed(&rc, seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1,
					 SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))))
		return rc;
	/* clone's flags are its first argument on x86-64 and arm64. */
	if (failed(&rc, seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
					 SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))))
		return rc;
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
	int rc;
	if (failed(&rc, DENY_SOCKET(ctx, SCMP_A0(SCMP_CMP_EQ, AF_PACKET))) ||
	    failed(&rc, DENY_SOCKET(ctx, SCMP_A0(SCMP_CMP_EQ, AF_VSOCK))) ||
	    failed(&rc, DENY_SOCKET(ctx, SCMP_A0(SCMP_CMP_EQ, AF_NETLINK), SCMP_A2(SCMP_CMP_NE, NETLINK_ROUTE))))
		return rc;
	for (int i = 0; i < 2; i++) {
		struct scmp_arg_cmp fam = SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)inet[i]);
		if (failed(&rc, DENY_SOCKET(ctx, fam, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_RAW))) ||
		    failed(&rc, DENY_SOCKET(ctx, fam, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_PACKET))) ||
		    failed(&rc, DENY_SOCKET(ctx, fam, SCMP_A2(SCMP_CMP_EQ, IPPROTO_SCTP))) ||
		    failed(&rc, DENY_SOCKET(ctx, fam, SCMP_A2(SCMP_CMP_EQ, IPPROTO_MPTCP))))
			return rc;
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
	int rc;
	for (int fam = 0; fam <= AF_NETLINK; fam++) {
		if (fam == AF_UNIX || fam == AF_INET || fam == AF_INET6 || fam == AF_NETLINK)
			continue;
		if (failed(&rc, seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
						 SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)fam))))
			return rc;
	}
	if (failed(&rc, seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
					 SCMP_A0(SCMP_CMP_GT, AF_NETLINK))))
		return rc;
	/* socketpair makes AF_UNIX pairs only, whatever it is asked. */
	if (failed(&rc, seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socketpair), 1,
					 SCMP_A0(SCMP_CMP_LT, AF_UNIX))))
		return rc;
	return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socketpair), 1,
				SCMP_A0(SCMP_CMP_GT, AF_UNIX));
}

/* AF_INET/AF_INET6: (type & 0xf) == SOCK_STREAM, protocol 0 or TCP. */
static int seccomp_weak_tcp(scmp_filter_ctx ctx, int fam)
{
	struct scmp_arg_cmp f = SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)fam);
	int rc;
	for (int type = 0; type <= 0xf; type++)
		if (type != SOCK_STREAM &&
		    failed(&rc, DENY_SOCKET(ctx, f, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, (scmp_datum_t)type))))
			return rc;
	for (int proto = 1; proto < IPPROTO_TCP; proto++)
		if (failed(&rc, DENY_SOCKET(ctx, f, SCMP_A2(SCMP_CMP_EQ, (scmp_datum_t)proto))))
			return rc;
	return DENY_SOCKET(ctx, f, SCMP_A2(SCMP_CMP_GT, IPPROTO_TCP));
}

/* MSG_FASTOPEN connects without connect(), where the observer would not
 * see the destination. */
static int seccomp_weak_fastopen(scmp_filter_ctx ctx)
{
	int rc;
	if (failed(&rc, seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(sendto), 1,
					 SCMP_A3(SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, MSG_FASTOPEN))) ||
	    failed(&rc, seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(sendmsg), 1,
					 SCMP_A2(SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, MSG_FASTOPEN))))
		return rc;
	return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(sendmmsg), 1,
				SCMP_A3(SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, MSG_FASTOPEN));
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
	int rc;
	if (failed(&rc, seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 2, unix_fam, dgram)) ||
	    failed(&rc, seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socketpair), 2, unix_fam, dgram)))
		return rc;
	return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_EQ, PR_SET_DUMPABLE));
}

static int seccomp_weak(scmp_filter_ctx ctx)
{
	int rc;
	if (failed(&rc, seccomp_weak_family(ctx)) || failed(&rc, seccomp_weak_tcp(ctx, AF_INET)) ||
	    failed(&rc, seccomp_weak_tcp(ctx, AF_INET6)))
		return rc;
	return seccomp_weak_fastopen(ctx);
}

/* 0, or libseccomp's -errno with *step naming the rules that failed (and
 * *unknown a system call no one has a number for). */
static int seccomp_build(scmp_filter_ctx ctx, const struct sbx *s, const char **step, const char **unknown)
{
	const struct policy *p = s->p;
	int rc;
	*step = "the bad-architecture action";
	if (failed(&rc, seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS)))
		return rc;
	*step = "the deny list";
	if (failed(&rc, seccomp_deny_names(ctx, seccomp_denied, sizeof seccomp_denied / sizeof seccomp_denied[0], true,
					   unknown)) ||
	    failed(&rc, seccomp_deny_names(ctx, seccomp_extras, sizeof seccomp_extras / sizeof seccomp_extras[0], false,
					   unknown)))
		return rc;
	*step = "the ptrace rules";
	if (!p->allow_ptrace &&
	    failed(&rc, seccomp_deny_names(ctx, seccomp_ptrace, sizeof seccomp_ptrace / sizeof seccomp_ptrace[0], true,
					   unknown)))
		return rc;
	*step = "the TIOCSTI/TIOCLINUX rules";
	if (failed(&rc, seccomp_ioctls(ctx)))
		return rc;
	*step = "the user namespace rules";
	if (failed(&rc, seccomp_namespaces(ctx)))
		return rc;
	*step = "the socket rules";
	if (failed(&rc, seccomp_sockets(ctx)))
		return rc;
	*step = "the weaker sandbox's socket filter";
	if (s->weak &&
	    (failed(&rc, seccomp_weak_all(ctx)) || (p->net.mode != NET_HOST && failed(&rc, seccomp_weak(ctx)))))
		return rc;
	return 0;
}

int seccomp_export(void *ctx, struct seccomp_prog *out)
{
	/* libseccomp 2.5 writes the program only to an fd */
	int fd = memfd_create("seccomp", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	int rc = seccomp_export_bpf(ctx, fd);
	off_t size = rc == 0 ? lseek(fd, 0, SEEK_END) : -1;
	if (rc == 0 && (size <= 0 || size % sizeof(struct sock_filter) != 0 ||
			size > (off_t)(BPF_MAXINSNS * sizeof(struct sock_filter))))
		rc = -E2BIG;
	struct sock_filter *insn = rc == 0 ? malloc((size_t)size) : NULL;
	if (rc == 0 && insn == NULL)
		rc = -ENOMEM;
	if (rc == 0 && pread(fd, insn, (size_t)size, 0) != size)
		rc = errno != 0 ? -errno : -EIO;
	close(fd);
	if (rc < 0) {
		free(insn);
		return rc;
	}
	out->insn = insn;
	out->len = (unsigned short)(size / (off_t)sizeof(struct sock_filter));
	return 0;
}

int seccomp_load_prog(const struct seccomp_prog *prog, unsigned flags)
{
	struct sock_fprog fp = { .len = prog->len, .filter = prog->insn };
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &fp);
}

void seccomp_prog_free(struct seccomp_prog *prog)
{
	free(prog->insn);
	prog->insn = NULL;
	prog->len = 0;
}

int seccomp_prepare(struct sbx *s)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (ctx == NULL)
		return sbx_failx(s, "seccomp", "seccomp_init failed (out of memory, or no seccomp in this kernel)");
	const char *step = "", *unknown = NULL;
	char what[160];
	int rc = seccomp_build(ctx, s, &step, &unknown);
	if (rc == 0) {
		rc = seccomp_export(ctx, &s->deny);
		snprintf(what, sizeof what, "compile the filter");
	} else if (unknown != NULL) {
		snprintf(what, sizeof what, "%s: libseccomp %u.%u.%u has no number for the system call %s here", step,
			 seccomp_version()->major, seccomp_version()->minor, seccomp_version()->micro, unknown);
	} else {
		snprintf(what, sizeof what, "add %s", step);
	}
	seccomp_release(ctx);
	if (rc < 0) {
		errno = -rc;
		return unknown != NULL ? sbx_failx(s, "seccomp", what) : sbx_fail(s, "seccomp", what);
	}
	return 0;
}

/* The program seccomp_prepare() made, with the flags libseccomp's own
 * load would use for it (none: no TSYNC, no log, no notify). */
int seccomp_apply(struct sbx *s)
{
	if (s->deny.len == 0)
		return sbx_failx(s, "seccomp", "no filter from the parent");
	if (seccomp_load_prog(&s->deny, 0) < 0)
		return sbx_fail(s, "seccomp", "load the filter");
	return 0;
}
