/* backends/limits.c's choice of a cgroup v2 subtree, on a plain directory
 * tree standing in for /sys/fs/cgroup: the nearest ancestor of our own
 * cgroup that hands pids and memory down, never our own cgroup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/limits.h"
#include "tests/unit/unit.h"

static void put(const char *dir, const char *file, const char *text)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	FILE *f = fopen(path, "w");
	if (f != NULL) {
		fputs(text, f);
		fclose(f);
	}
}

/* root/PATH as a cgroup: its subtree_control and a cgroup.procs */
static void cg(const char *root, const char *path, const char *ctl)
{
	char dir[4200];
	snprintf(dir, sizeof dir, "%s%s", root, path);
	mkdir(dir, 0755);
	put(dir, "cgroup.subtree_control", ctl);
	put(dir, "cgroup.procs", "");
}

int main(void)
{
	struct unit u = { 0 };
	char root[] = "/tmp/sandmux-cg-XXXXXX", base[4200], want[4300], text[64] = "";
	if (!CHECK(&u, mkdtemp(root) != NULL))
		return unit_done(&u, "test_limits");
	cg(root, "", "cpu io");
	cg(root, "/user.slice", "cpu memory pids");
	cg(root, "/user.slice/u", "memory io"); /* no pids: not this one */
	cg(root, "/user.slice/u/app.slice", "cpu memory pids");
	cg(root, "/user.slice/u/app.slice/term.scope", "memory pids"); /* our own: never */

	CHECK_INT(&u, limits_cgroup2_base(root, "/user.slice/u/app.slice/term.scope", base, sizeof base), 0);
	snprintf(want, sizeof want, "%s/user.slice/u/app.slice/sandmux-%d", root, (int)getpid());
	CHECK_STR(&u, base, want); /* the parent of ours hands both down */
	snprintf(want, sizeof want, "%s/cgroup.subtree_control", base);
	FILE *f = fopen(want, "r");
	if (CHECK(&u, f != NULL)) {
		CHECK(&u, fgets(text, sizeof text, f) != NULL);
		fclose(f);
	}
	CHECK_STR(&u, text, "+pids +memory"); /* and ours hands them on */

	CHECK_INT(&u, limits_cgroup2_base(root, "/user.slice/u/other.scope", base, sizeof base), 0);
	snprintf(want, sizeof want, "%s/user.slice/sandmux-%d", root, (int)getpid());
	CHECK_STR(&u, base, want); /* u lacks pids: one further up */

	cg(root, "/system.slice", "pids");
	cg(root, "/system.slice/x.service", "");
	put(root, "cgroup.subtree_control", "cpu pidsx memoryx");
	/* nothing hands both down (root: enabling them at a plain directory
	 * "works", so only as another user is the root refused here) */
	if (geteuid() != 0)
		CHECK_INT(&u, limits_cgroup2_base(root, "/system.slice/x.service", base, sizeof base), -1);
	char cmd[4300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	return unit_done(&u, "test_limits");
}
