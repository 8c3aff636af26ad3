/* dev: the sandbox's /dev. The host's /dev holds disks (readable by
 * root's uid even without capabilities: every file's bytes, denied ones
 * included) and every terminal of the person (their own uid: keystrokes
 * could be read, escape sequences written). So /dev is a small tmpfs with
 * the harmless devices bound in, a private devpts instance (the command's
 * own PTY comes in as an fd and as the controlling terminal, /dev/tty),
 * and a private /dev/shm. devbox keeps the host's devices but still gets
 * its own devpts and /dev/shm. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/sandbox.h"
#include "policy/policy.h"

static const char *const dev_nodes[] = { "null", "zero", "full", "random", "urandom", "tty" };
#define DEV_NNODES (sizeof dev_nodes / sizeof dev_nodes[0])

static int dev_links(struct sbx *s)
{
	static const char *const links[][2] = {
		{ "/proc/self/fd", "/dev/fd" },	       { "/proc/self/fd/0", "/dev/stdin" },
		{ "/proc/self/fd/1", "/dev/stdout" }, { "/proc/self/fd/2", "/dev/stderr" },
		{ "pts/ptmx", "/dev/ptmx" },
	};
	for (size_t i = 0; i < sizeof links / sizeof links[0]; i++)
		if (symlink(links[i][0], links[i][1]) < 0)
			return sbx_fail(s, "mount /dev", links[i][1]);
	return 0;
}

/* The harmless device nodes, kept open across the tmpfs that hides them. */
static int dev_nodes_bind(struct sbx *s, const int *fds)
{
	for (size_t i = 0; i < DEV_NNODES; i++) {
		char path[64], src[64];
		if (fds[i] < 0)
			continue;
		snprintf(path, sizeof path, "/dev/%s", dev_nodes[i]);
		snprintf(src, sizeof src, "/proc/self/fd/%d", fds[i]);
		int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0666);
		if (fd < 0)
			return sbx_fail(s, "mount /dev: make the mount point for", path);
		close(fd);
		if (mount(src, path, NULL, MS_BIND, NULL) < 0)
			return sbx_fail(s, "mount /dev: bind", path);
	}
	return 0;
}

static int dev_minimal(struct sbx *s)
{
	int fds[DEV_NNODES], rc = 0;
	for (size_t i = 0; i < DEV_NNODES; i++) {
		char path[64];
		snprintf(path, sizeof path, "/dev/%s", dev_nodes[i]);
		fds[i] = open(path, O_PATH | O_CLOEXEC);
	}
	if (mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k") < 0)
		rc = sbx_fail(s, "mount /dev", "tmpfs");
	if (rc == 0)
		rc = dev_nodes_bind(s, fds);
	for (size_t i = 0; i < DEV_NNODES; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (rc == 0 && (mkdir("/dev/pts", 0755) < 0 || mkdir("/dev/shm", 01777) < 0))
		rc = sbx_fail(s, "mount /dev", "mkdir pts, shm");
	return rc == 0 ? dev_links(s) : rc;
}

int ns_dev(struct sbx *s)
{
	bool host = s->p->base != NULL && strcmp(s->p->base, "devbox") == 0;
	if (!host && dev_minimal(s) < 0)
		return -1;
	if (mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620") < 0)
		return sbx_fail(s, "mount /dev/pts", "a private devpts instance");
	if (host && mount("/dev/pts/ptmx", "/dev/ptmx", NULL, MS_BIND, NULL) < 0)
		return sbx_fail(s, "mount /dev/ptmx", "bind the private instance's");
	if (access("/dev/shm", F_OK) == 0 && mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") < 0)
		return sbx_fail(s, "mount /dev/shm", "tmpfs");
	return 0;
}
