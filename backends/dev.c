/* dev: the sandbox's /dev. The host's /dev holds disks (readable by
 * root's uid even without capabilities: every file's bytes, denied ones
 * included) and every terminal of the person (their own uid: keystrokes
 * could be read, escape sequences written). So /dev is a small tmpfs with
 * the harmless devices bound in, a private devpts instance (the command's
 * own PTY comes in as an fd and as the controlling terminal, /dev/tty),
 * and a private /dev/shm. devbox also gets the devices a development box
 * uses (fuse, kvm, GPUs), never disks, memory or consoles. */
#include <dirent.h>
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
/* devbox only: names in /dev, a trailing '*' matching any suffix. */
static const char *const dev_devbox[] = { "fuse", "kvm", "dri", "nvidia*", "net" };
#define DEV_NDEVBOX 16

static int dev_links(struct sbx *s)
{
	static const char *const links[][2] = {
		{ "/proc/self/fd", "/dev/fd" },       { "/proc/self/fd/0", "/dev/stdin" },
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

static bool dev_devbox_name(const char *name)
{
	for (size_t i = 0; i < sizeof dev_devbox / sizeof dev_devbox[0]; i++) {
		size_t n = strlen(dev_devbox[i]);
		if (dev_devbox[i][n - 1] == '*' ? strncmp(name, dev_devbox[i], n - 1) == 0
						: strcmp(name, dev_devbox[i]) == 0)
			return true;
	}
	return false;
}

struct dev_extra {
	char name[DEV_NDEVBOX][64];
	int fd[DEV_NDEVBOX];
	bool dir[DEV_NDEVBOX];
	int n;
};

/* devbox: the host's development devices, opened before /dev is hidden. */
static void dev_extra_open(struct dev_extra *x)
{
	DIR *d = opendir("/dev");
	struct dirent *e;
	x->n = 0;
	while (d != NULL && (e = readdir(d)) != NULL && x->n < DEV_NDEVBOX) {
		char path[300];
		struct stat st;
		snprintf(path, sizeof path, "/dev/%s", e->d_name);
		if (!dev_devbox_name(e->d_name) || lstat(path, &st) < 0 ||
		    !(S_ISCHR(st.st_mode) || S_ISDIR(st.st_mode)))
			continue;
		x->fd[x->n] = open(path, O_PATH | O_CLOEXEC);
		if (x->fd[x->n] < 0)
			continue;
		if (strlen(e->d_name) >= sizeof x->name[0]) {
			close(x->fd[x->n]);
			continue;
		}
		memcpy(x->name[x->n], e->d_name, strlen(e->d_name) + 1);
		x->dir[x->n++] = S_ISDIR(st.st_mode);
	}
	if (d != NULL)
		closedir(d);
}

static int dev_extra_bind(struct sbx *s, struct dev_extra *x)
{
	int rc = 0;
	for (int i = 0; i < x->n; i++) {
		char path[128], src[64];
		snprintf(path, sizeof path, "/dev/%s", x->name[i]);
		snprintf(src, sizeof src, "/proc/self/fd/%d", x->fd[i]);
		int fd = x->dir[i] ? mkdir(path, 0755) : open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0666);
		if (fd < 0 || (!x->dir[i] && close(fd) < 0) || mount(src, path, NULL, MS_BIND | MS_REC, NULL) < 0)
			rc = rc ? rc : sbx_fail(s, "mount /dev: bind", path);
		close(x->fd[i]);
	}
	x->n = 0;
	return rc;
}

static int dev_minimal(struct sbx *s, bool devbox)
{
	int fds[DEV_NNODES], rc = 0;
	struct dev_extra extra = { .n = 0 };
	for (size_t i = 0; i < DEV_NNODES; i++) {
		char path[64];
		snprintf(path, sizeof path, "/dev/%s", dev_nodes[i]);
		fds[i] = open(path, O_PATH | O_CLOEXEC);
	}
	if (devbox)
		dev_extra_open(&extra);
	if (mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k") < 0)
		rc = sbx_fail(s, "mount /dev", "tmpfs");
	if (rc == 0)
		rc = dev_nodes_bind(s, fds);
	if (rc == 0)
		rc = dev_extra_bind(s, &extra);
	for (int i = 0; i < extra.n; i++)
		close(extra.fd[i]);
	for (size_t i = 0; i < DEV_NNODES; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (rc == 0 && (mkdir("/dev/pts", 0755) < 0 || mkdir("/dev/shm", 01777) < 0))
		rc = sbx_fail(s, "mount /dev", "mkdir pts, shm");
	return rc == 0 ? dev_links(s) : rc;
}

int ns_dev(struct sbx *s)
{
	bool devbox = s->p->base != NULL && strcmp(s->p->base, "devbox") == 0;
	if (dev_minimal(s, devbox) < 0)
		return -1;
	if (mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620") < 0)
		return sbx_fail(s, "mount /dev/pts", "a private devpts instance");
	if (access("/dev/shm", F_OK) == 0 && mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") < 0)
		return sbx_fail(s, "mount /dev/shm", "tmpfs");
	return 0;
}
