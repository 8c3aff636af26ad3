/* features: what the running kernel offers, probed for real (a child tries
 * each namespace), so `sandmux doctor` reports what a launch would get. */
#include <errno.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/launch.h"
#include "backends/sandbox.h"

enum { F_USER = 1, F_MOUNT = 2, F_PID = 4, F_NET = 8, F_OVERLAY = 16 };

/* Capture mode's overlay (backends/capture.c), tried on a private tmpfs
 * in the new mount namespace: nothing reaches the host's mount table. */
static bool features_map(const char *file, const char *text)
{
	FILE *f = fopen(file, "we");
	bool ok = f != NULL && fputs(text, f) >= 0;
	return f != NULL && fclose(f) == 0 && ok;
}

static bool features_overlay(uid_t uid, gid_t gid)
{
	char u[32], g[32];
	snprintf(u, sizeof u, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
	snprintf(g, sizeof g, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
	/* ids mapped as the launcher maps them: files need an owner */
	if (!features_map("/proc/self/setgroups", "deny") || !features_map("/proc/self/uid_map", u) ||
	    !features_map("/proc/self/gid_map", g))
		return false;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=64k") < 0)
		return false;
	if (mkdir("/tmp/l", 0700) < 0 || mkdir("/tmp/u", 0700) < 0 || mkdir("/tmp/w", 0700) < 0)
		return false;
	return mount("overlay", "/tmp/l", "overlay", MS_NOSUID | MS_NODEV,
		     "lowerdir=/tmp/l,upperdir=/tmp/u,workdir=/tmp/w,userxattr") == 0;
}

/* In a throw-away child: a user namespace first (as the launcher does),
 * then each other namespace inside it. The exit status holds the bits. */
static int features_ns_child(void)
{
	int got = 0;
	uid_t uid = getuid();
	gid_t gid = getgid();
	if (unshare(CLONE_NEWUSER) < 0)
		return 0;
	got |= F_USER;
	if (unshare(CLONE_NEWNS) == 0)
		got |= F_MOUNT | (features_overlay(uid, gid) ? F_OVERLAY : 0);
	if (unshare(CLONE_NEWPID) == 0)
		got |= F_PID;
	if (unshare(CLONE_NEWNET) == 0)
		got |= F_NET;
	return got;
}

static int features_ns(void)
{
	pid_t pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0)
		_exit(features_ns_child());
	int st;
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return 0;
	return WEXITSTATUS(st);
}

void features_probe(struct features *f)
{
	memset(f, 0, sizeof *f);
	f->landlock_abi = landlock_abi();
	if (f->landlock_abi == 0) {
		long r = syscall(SYS_landlock_create_ruleset, NULL, 0, 1U);
		snprintf(f->landlock_why, sizeof f->landlock_why, "%s",
			 r < 0 && errno == EOPNOTSUPP ? "built in but disabled at boot (lsm= lacks landlock)"
			 : r < 0 && errno == ENOSYS   ? "not built into this kernel"
						      : strerror(errno));
	}
	f->seccomp = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
	unsigned int action = SECCOMP_RET_USER_NOTIF;
	f->seccomp_notify = syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
	int ns = features_ns();
	f->userns = ns & F_USER;
	f->mountns = ns & F_MOUNT;
	f->pidns = ns & F_PID;
	f->netns = ns & F_NET;
	f->overlay = ns & F_OVERLAY;
}
