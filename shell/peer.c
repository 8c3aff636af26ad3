/* peer: who is on the other end of a session socket. The socket directory
 * is masked inside every sandbox, but that is one layer: the server also
 * refuses any peer that descends from a pane's process (the sandbox's
 * init) or lives in another pid namespace, so a sandboxed program cannot
 * drive the session (`new --sandbox off`) even if it finds the socket. */
#include "shell/mux.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PEER_DEPTH_MAX (1 << 22) /* PID_MAX_LIMIT: no chain of live processes is longer */

static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	if (f == NULL)
		return -1;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *end = strrchr(buf, ')'); /* comm may hold spaces and ')' */
	int ppid;
	if (end == NULL || sscanf(end + 1, " %*c %d", &ppid) != 1)
		return -1;
	return ppid;
}

static bool same_pidns(pid_t pid)
{
	char a[PATH_MAX], b[PATH_MAX], path[64];
	snprintf(path, sizeof path, "/proc/%d/ns/pid", (int)pid);
	ssize_t na = readlink(path, a, sizeof a - 1), nb = readlink("/proc/self/ns/pid", b, sizeof b - 1);
	return na > 0 && nb > 0 && na == nb && memcmp(a, b, (size_t)na) == 0;
}

static bool is_sandbox_pid(const struct server *s, pid_t pid)
{
	for (const struct window *w = s->windows; w != NULL; w = w->next)
		for (const struct pane *p = w->panes; p != NULL; p = p->next)
			if (p->pid > 0 && p->pid == pid && p->sandboxed)
				return true; /* a pane with profile off runs as the person */
	return false;
}

const char *peer_refusal(const struct server *s, pid_t pid)
{
	if (pid <= 0)
		return "no peer process";
	if (!same_pidns(pid))
		return "peer in another pid namespace (a sandbox)";
	/* Up to init, failing closed: a sandboxed program can nest its
	 * processes deeper than any cap, and make a parent exit while this
	 * walk reads it (its stat gone, the chain cut). */
	for (int depth = 0; pid > 1; depth++) {
		if (is_sandbox_pid(s, pid))
			return "peer runs inside a pane's sandbox";
		if (depth == PEER_DEPTH_MAX)
			return "peer's ancestry too deep to follow";
		if ((pid = parent_of(pid)) < 0)
			return "peer's ancestry cannot be followed (a parent went away)";
	}
	return NULL;
}
