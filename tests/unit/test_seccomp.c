/* seccomp: the deny list resolves on this machine, and a failing step
 * says which and why (libseccomp's errno, not "Operation not permitted"
 * for everything). */
#include <errno.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdlib.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/chan.h"
#include "backends/launch.h"
#include "backends/sandbox.h"
#include "policy/policy.h"
#include "unit.h"

static void test_resolve(struct unit *u)
{
	CHECK(u, seccomp_resolve("bpf") >= 0);
	CHECK(u, seccomp_resolve("no_such_system_call") == __NR_SCMP_ERROR);
#if defined(__x86_64__)
	/* newer than Debian 12's libseccomp: sandmux knows its number */
	CHECK_INT(u, seccomp_resolve("open_tree_attr"), 467);
#endif
	const char *unknown[16];
	size_t n = seccomp_unknown(unknown, 16);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "note: not filtered here: %s\n", unknown[i]);
	CHECK(u, n < 16);
}

/* In a child: a first filter makes installing another fail with EMFILE;
 * seccomp_apply must report that errno and the step. The filter is
 * compiled before, as the launcher's parent does. */
static void test_load_error(struct unit *u)
{
	int pfd[2];
	if (pipe(pfd) < 0)
		abort();
	pid_t pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		struct policy p = { 0 };
		struct sbx s = { .p = &p };
		if (seccomp_prepare(&s) < 0 || s.deny.len == 0)
			_exit(5);
		scmp_filter_ctx pre = seccomp_init(SCMP_ACT_ALLOW);
		if (pre == NULL ||
		    seccomp_rule_add(pre, SCMP_ACT_ERRNO(EMFILE), SCMP_SYS(seccomp), 1,
				     SCMP_A0(SCMP_CMP_EQ, SECCOMP_SET_MODE_FILTER)) < 0 ||
		    seccomp_rule_add(pre, SCMP_ACT_ERRNO(EMFILE), SCMP_SYS(prctl), 1,
				     SCMP_A0(SCMP_CMP_EQ, PR_SET_SECCOMP)) < 0 ||
		    seccomp_load(pre) < 0)
			_exit(3);
		seccomp_release(pre);
		int rc = seccomp_apply(&s);
		if (write(pfd[1], s.err, strlen(s.err)) < 0)
			_exit(4);
		_exit(rc < 0 ? 0 : 2);
	}
	close(pfd[1]);
	char msg[512] = "";
	ssize_t n = read(pfd[0], msg, sizeof msg - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(pfd[0]);
	int st;
	waitpid(pid, &st, 0);
	CHECK(u, WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_STR(u, msg, "seccomp: load the filter: Too many open files");
}

/* The program compiled in one process, sent over the launcher's channel
 * as the parent does and loaded in another, denies what the deny list
 * names (unshare of a user namespace, mount) and nothing else; a child
 * given no program refuses to go on. */
static void test_compiled_elsewhere(struct unit *u)
{
	struct policy p = { 0 };
	struct sbx parent = { .p = &p };
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0 || seccomp_prepare(&parent) < 0)
		abort();
	pid_t pid = fork();
	if (pid == 0) {
		close(sv[0]);
		struct sbx s = { .p = &p };
		if (chan_recv_filters(sv[1], &s.deny, &s.notify) < 0 || s.notify.len != 0)
			_exit(3);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || seccomp_apply(&s) < 0)
			_exit(4);
		errno = 0;
		if (unshare(CLONE_NEWUSER) == 0 || errno != EPERM)
			_exit(5);
		errno = 0;
		if (mount("none", "/", "tmpfs", 0, NULL) == 0 || errno != EPERM)
			_exit(6);
		_exit(getpid() > 0 ? 0 : 7); /* the rest still works */
	}
	close(sv[1]);
	struct seccomp_prog none = { 0 };
	CHECK_INT(u, chan_send_filters(sv[0], &parent.deny, &none), 0);
	close(sv[0]);
	int st;
	waitpid(pid, &st, 0);
	CHECK(u, WIFEXITED(st));
	CHECK_INT(u, WEXITSTATUS(st), 0);
	seccomp_prog_free(&parent.deny);
	struct sbx empty = { .p = &p };
	CHECK(u, seccomp_apply(&empty) < 0);
	CHECK_STR(u, empty.err, "seccomp: no filter from the parent");
}

int main(void)
{
	struct unit u = { 0 };
	test_resolve(&u);
	test_load_error(&u);
	test_compiled_elsewhere(&u);
	return unit_done(&u, "test_seccomp");
}
