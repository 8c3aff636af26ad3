/* landlock: file-system rules and scoping at the best ABI the kernel
 * offers. Like the kernel's samples/landlock/sandboxer.c, the ABI is
 * probed and each right the running kernel does not know is dropped
 * explicitly, one ABI level at a time; nothing is pretended.
 *
 * Reads: everywhere (read_all) or only the policy's read and write roots
 * plus what a process needs to run (/dev, /proc). Writes: the write roots,
 * the session temp dir (unless disableTmpWrite) and the terminal and null
 * devices. Protected paths and `deny` matches inside writable roots are
 * covered by bind mounts (ns.c); Landlock cannot subtract from a rule. */
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backends/sandbox.h"
#include "backends/shadow.h"
#include "policy/policy.h"

/* Debian 12's headers stop at ABI 2 (REFER). */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14) /* ABI 3 */
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#endif
#define LL_NET_BIND_TCP        (1ULL << 0) /* ABI 4 */
#define LL_NET_CONNECT_TCP     (1ULL << 1) /* ABI 4 */
#define LL_SCOPE_ABSTRACT_UNIX (1ULL << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL        (1ULL << 1) /* ABI 6 */
#define LL_RULE_NET_PORT       2           /* ABI 4 */

/* ABI 7: audit records also after an exec */
#define LL_RESTRICT_LOG_NEW_EXEC_ON (1U << 1)

struct ll_net_port_attr {
	uint64_t allowed_access;
	uint64_t port;
};

/* The ruleset attribute as of ABI 6; older kernels accept it as long as
 * the fields they do not know are zero. */
struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

#define LL_READ (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define LL_WRITE                                                                                          \
	(LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE | \
	 LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |       \
	 LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |    \
	 LANDLOCK_ACCESS_FS_MAKE_SYM | LANDLOCK_ACCESS_FS_REFER | LANDLOCK_ACCESS_FS_TRUNCATE)
/* Rights that mean something on a file (the rest only on directories). */
#define LL_FILE                                                                                      \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | \
	 LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV)

/* Devices a terminal program writes to and configures (paths.c). */
extern const char *const launch_devs[];

struct ll {
	int fd;
	uint64_t handled; /* the fs rights this kernel knows */
};

int landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	return abi < 0 ? 0 : (int)abi;
}

/* What this ABI handles: start from everything and take away, per level,
 * what older kernels do not know. */
static struct ll_ruleset_attr landlock_attr(int abi)
{
	struct ll_ruleset_attr a = {
		.handled_access_fs = LL_READ | LL_WRITE | LANDLOCK_ACCESS_FS_IOCTL_DEV,
		.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL,
	};
	switch (abi) {
	case 1: /* no REFER: cross-directory rename and link are always denied */
		a.handled_access_fs &= ~LANDLOCK_ACCESS_FS_REFER;
		/* fall through */
	case 2: /* no TRUNCATE */
		a.handled_access_fs &= ~LANDLOCK_ACCESS_FS_TRUNCATE;
		/* fall through */
	case 3:
	case 4: /* no IOCTL_DEV */
		a.handled_access_fs &= ~LANDLOCK_ACCESS_FS_IOCTL_DEV;
		/* fall through */
	case 5: /* no scoping: abstract sockets and signals rely on the netns and pidns */
		a.scoped = 0;
		break;
	default: /* 6 and later: everything above */
		break;
	}
	/* TCP rules stand in only when there is no network namespace (the
	 * weaker sandbox, landlock_net()). */
	a.handled_access_net = 0;
	return a;
}

/* The weaker sandbox with a restricted network: TCP connect handled, so
 * only the proxy's port (if any) is allowed, and bind, so no port at all
 * (no server a remote peer could reach). launch_weak_refusal() has made
 * sure the ABI knows TCP rules. */
static bool landlock_net(const struct sbx *s)
{
	return s->weak && s->p->net.mode != NET_HOST;
}

static int landlock_port(struct sbx *s, struct ll *ll, int port)
{
	struct ll_net_port_attr np = { .allowed_access = LL_NET_CONNECT_TCP, .port = (uint64_t)port };
	if (syscall(SYS_landlock_add_rule, ll->fd, LL_RULE_NET_PORT, &np, 0) < 0)
		return sbx_fail(s, "landlock", "allow TCP connect to the proxy's port");
	return 0;
}

static int landlock_rule(struct sbx *s, struct ll *ll, const char *path, uint64_t access)
{
	struct stat st;
	int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0; /* a root that does not exist grants nothing */
		return sbx_fail(s, "landlock: open rule path", path);
	}
	if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode))
		access &= LL_FILE;
	struct landlock_path_beneath_attr pb = { .allowed_access = access & ll->handled, .parent_fd = fd };
	long rc = syscall(SYS_landlock_add_rule, ll->fd, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
	int e = errno;
	close(fd);
	errno = e;
	if (rc < 0) {
		char what[300];
		snprintf(what, sizeof what, "add rule for %s", path);
		return sbx_fail(s, "landlock", what);
	}
	return 0;
}

static int landlock_rules(struct sbx *s, struct ll *ll, const struct rules *r, uint64_t access)
{
	for (size_t i = 0; i < r->n; i++)
		if (landlock_rule(s, ll, r->v[i].text, access) < 0)
			return -1;
	return 0;
}

/* The device files a process needs. The weaker sandbox's /dev/pts and
 * /dev/shm are the host's, shared with every other program of the same
 * user (their terminals, their shared memory): there the command's own
 * terminal is granted, as a file, and nothing else of either. */
static int landlock_devs(struct sbx *s, struct ll *ll)
{
	const uint64_t dev = LL_READ | LL_WRITE | LANDLOCK_ACCESS_FS_IOCTL_DEV;
	for (size_t i = 0; launch_devs[i] != NULL; i++) {
		if (s->weak && (strcmp(launch_devs[i], "/dev/pts") == 0 || strcmp(launch_devs[i], "/dev/shm") == 0))
			continue;
		if (landlock_rule(s, ll, launch_devs[i], dev) < 0)
			return -1;
	}
	char own[64];
	snprintf(own, sizeof own, "/proc/self/fd/%d", s->tty);
	return s->weak && s->tty >= 0 ? landlock_rule(s, ll, own, dev) : 0;
}

static int landlock_grant_rw(struct sbx *s, const char *path, void *ll)
{
	return landlock_rule(s, ll, path, LL_READ | LL_WRITE);
}

static int landlock_add_all(struct sbx *s, struct ll *ll)
{
	const struct policy *p = s->p;
	if (p->read_all) {
		if (landlock_rule(s, ll, "/", LL_READ) < 0)
			return -1;
	} else if (landlock_rules(s, ll, &p->read, LL_READ) < 0 || landlock_rule(s, ll, "/dev", LL_READ) < 0 ||
		   landlock_rule(s, ll, "/proc", LL_READ) < 0) { /* as launch_always_readable() says */
		return -1;
	}
	if (landlock_rules(s, ll, &p->write, LL_READ | LL_WRITE) < 0 || shadow_landlock(s, landlock_grant_rw, ll) < 0)
		return -1;
	/* capture: writes beneath each overlay land in its upper layer. No
	 * read right: strict still reads only its roots. */
	for (int i = 0; i < s->ncapture; i++)
		if (landlock_rule(s, ll, s->capture[i], LL_WRITE) < 0)
			return -1;
	/* The weaker sandbox's /tmp is the host's: the session temp dir is
	 * granted where it lies instead. */
	uint64_t tmp = LL_READ | (p->tmp_writable ? LL_WRITE : 0);
	if (s->weak ? p->tmpdir != NULL && landlock_rule(s, ll, p->tmpdir, tmp) < 0
		    : landlock_rule(s, ll, "/tmp", tmp) < 0 || landlock_rule(s, ll, "/var/tmp", tmp) < 0)
		return -1;
	if (landlock_net(s) && s->proxy_port > 0 && landlock_port(s, ll, s->proxy_port) < 0)
		return -1;
	if (p->shared_cache && landlock_rule(s, ll, LAUNCH_CACHE_DIR, LL_READ | LL_WRITE) < 0)
		return -1;
	return landlock_devs(s, ll);
}

int landlock_apply(struct sbx *s)
{
	int abi = landlock_abi();
	if (abi < 1)
		return sbx_failx(s, "landlock", "not available on this kernel (see sandmux doctor)");
	struct ll_ruleset_attr a = landlock_attr(abi);
	if (landlock_net(s)) {
		if (abi < 4)
			return sbx_failx(s, "landlock", "no TCP rules before ABI 4: the network cannot be restricted");
		/* bind too, with no port allowed: a listener on the host's
		 * interfaces would take connections in, no connect() needed
		 * (found in review) */
		a.handled_access_net = LL_NET_CONNECT_TCP | LL_NET_BIND_TCP;
	}
	struct ll ll = { .handled = a.handled_access_fs };
	ll.fd = (int)syscall(SYS_landlock_create_ruleset, &a, sizeof a, 0);
	if (ll.fd < 0)
		return sbx_fail(s, "landlock", "create the ruleset");
	int rc = landlock_add_all(s, &ll);
	/* Denials are logged only before an exec unless asked (ABI 7): the
	 * command is exec'd after this, so ask when its records are read. */
	unsigned flags = abi >= 7 && launch_audited(s) ? LL_RESTRICT_LOG_NEW_EXEC_ON : 0;
	if (rc == 0 && syscall(SYS_landlock_restrict_self, ll.fd, flags) < 0)
		rc = sbx_fail(s, "landlock", "restrict_self");
	close(ll.fd);
	return rc;
}

int landlock_scope_self(void)
{
	if (landlock_abi() < 6)
		return 0; /* nothing to scope with: init stays reachable (README) */
	struct ll_ruleset_attr a = { .scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL };
	int fd = (int)syscall(SYS_landlock_create_ruleset, &a, sizeof a, 0);
	if (fd < 0)
		return -1;
	long rc = syscall(SYS_landlock_restrict_self, fd, 0);
	int e = errno;
	close(fd);
	errno = e;
	return rc < 0 ? -1 : 0;
}
