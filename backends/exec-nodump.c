/* exec-nodump: execs a program so that the process is not dumpable.
 *
 * A shell that holds a secret (the shell integration's, shell/
 * integration.c) must not have its memory or its fds read by the
 * programs it runs: they share its uid, its sandbox and its Landlock
 * domain, and seccomp's ptrace deny list does not cover opening
 * /proc/PID/mem. The kernel marks a process not dumpable when it execs a
 * file it may not read (fs/exec.c would_dump()): the program is copied
 * into a memfd made execute-only, and exec'd from there. Not dumpable,
 * its /proc/PID/{mem,fd,environ,maps} are closed to every process without
 * CAP_SYS_PTRACE over it; the programs it execs are dumpable again. */
#include "backends/launch.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Copies path into an execute-only memfd; -1 on any failure. */
static int exec_only_copy(const char *path)
{
	int in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	int out = memfd_create("sandmux-shell", MFD_CLOEXEC);
	char buf[65536];
	ssize_t n = 0;
	while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	close(in);
	if (out >= 0 && (n < 0 || fchmod(out, 0111) < 0)) {
		close(out);
		return -1;
	}
	return out;
}

int launch_exec_nodump(char *const *argv, char *const *envp)
{
	if (argv[0] == NULL || argv[0][0] != '/')
		return -1;
	int fd = exec_only_copy(argv[0]);
	if (fd < 0)
		return -1;
	fexecve(fd, argv, envp);
	int e = errno;
	close(fd);
	errno = e;
	return -1;
}
