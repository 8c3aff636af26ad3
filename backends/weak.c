/* weak: the weaker sandbox, for hosts without unprivileged user
 * namespaces (DESIGN.md "Network": Landlock's TCP rules and seccomp's
 * socket filter stand in). What an unprivileged process can still do to
 * itself, and what stands in for each namespace:
 *
 * - no user, mount, pid or network namespace: a plain fork; no bind-overs,
 *   no private /proc, /dev or /tmp. TMPDIR names the session temp dir on
 *   the host, which Landlock makes writable; the host's /tmp is not;
 * - protected paths and `deny` globs: Landlock's rules plus the observer
 *   (required here), which denies them by path, racily (observer.h);
 * - network: Landlock handles TCP connect with at most one rule, the
 *   proxy's port; the observer takes over connect() on AF_INET/AF_INET6
 *   and allows only the loopback address at that port, and refuses
 *   listen() on them (inetsock.h); the proxy asks for the pane's
 *   credentials, since every local process reaches that port;
 *   seccomp lets socket() make only AF_UNIX, NETLINK_ROUTE and TCP
 *   sockets and refuses MSG_FASTOPEN;
 * - the process tree: init is a subreaper, ends every descendant when the
 *   command ends, and the host ends the tree (launch_kill) when a pane is
 *   killed. The command runs in a nested Landlock domain scoped for
 *   signals (ABI 6), so it cannot kill its init to slip away.
 *
 * This file: the decision whether a policy may run so, the proxy's
 * listener on the host's loopback with its credentials (the proxy
 * refuses clients without them: any local process reaches that port),
 * and ending the tree. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backends/launch.h"
#include "backends/sandbox.h"
#include "policy/policy.h"

const char *launch_weak_refusal(const struct policy *p, int landlock_abi, bool observer)
{
	if (!p->sandboxed)
		return NULL;
	if (!p->allow_weaker)
		return "no user namespaces here: sandmux refuses the weaker sandbox (no private /proc or /tmp, "
		       "protected paths held only by the observer) unless \"allowWeakerSandbox\": true is set in "
		       "~/.sandmux/sandbox.json (see sandmux doctor)";
	/* Below ABI 6 the command could kill its init (no signal scoping) and
	 * its orphans would outlive the pane, out of the tree sandmux ends. */
	if (landlock_abi < 6)
		return "weaker sandbox (no user namespaces): Landlock ABI < 6 cannot keep the command from "
		       "signalling its init and your other processes (needs Linux 6.12, or user namespaces)";
	if (!observer)
		return "weaker sandbox (no user namespaces): the observer is required (it holds the protected paths "
		       "and the TCP destinations); --no-observer cannot be used here";
	if (p->shared_cache)
		return "weaker sandbox (no user namespaces): enableSharedBuildCache needs a mount namespace";
	return NULL;
}

const char *launch_weak_summary(const struct policy *p)
{
	switch (p->net.mode) {
	case NET_PROXY:
		return "network: Landlock TCP rule + seccomp socket filter instead of a network namespace (TCP only to "
		       "the proxy's port, with the pane's credentials; no listen); protected paths by the observer only; "
		       "host /proc and /tmp visible";
	case NET_NONE:
		return "network: no TCP (Landlock) + seccomp socket filter instead of a network namespace; protected "
		       "paths by the observer only; host /proc and /tmp visible";
	default:
		return "host network (unrestricted profile); protected paths by the observer only; host /proc and /tmp "
		       "visible";
	}
}

/* Every local process can reach the host's loopback: the pane's own
 * processes prove themselves with a password of 128 random bits, which
 * only the proxy variables set inside carry (another sandbox cannot read
 * this one's environment: Landlock scopes ptrace, and /proc/PID/environ
 * with it). */
static int weak_proxy_secret(struct launch *l)
{
	unsigned char r[16];
	if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
		snprintf(l->err, sizeof l->err, "proxy credentials: getrandom: %s", strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < sizeof r; i++)
		snprintf(l->proxy_secret + 2 * i, 3, "%02x", r[i]);
	explicit_bzero(r, sizeof r);
	return 0;
}

int weak_proxy_listener(struct launch *l)
{
	if (weak_proxy_secret(l) < 0)
		return -1;
	l->proxy_fd = launch_loopback_listener(0, &l->proxy_port);
	if (l->proxy_fd < 0)
		snprintf(l->err, sizeof l->err, "proxy listener: 127.0.0.1 on the host: %s", strerror(errno));
	return l->proxy_fd < 0 ? -1 : 0;
}

struct proc {
	pid_t pid, ppid;
	bool alive; /* not a zombie: its exit has not happened yet */
	bool mark;  /* a descendant of the root */
};

/* The parent and state of one process; false when it is gone. */
static bool proc_read(pid_t pid, pid_t *ppid, bool *alive)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	if (f == NULL)
		return false;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *end = strrchr(buf, ')'); /* comm may hold spaces and ')' */
	char state;
	int pp;
	if (end == NULL || sscanf(end + 1, " %c %d", &state, &pp) != 2)
		return false;
	*ppid = (pid_t)pp;
	*alive = state != 'Z' && state != 'X';
	return true;
}

/* Every process of the host; NULL when out of memory. */
static struct proc *proc_list(size_t *n)
{
	size_t cap = 256;
	struct proc *v = malloc(cap * sizeof *v);
	DIR *d = opendir("/proc");
	*n = 0;
	for (struct dirent *e; v != NULL && d != NULL && (e = readdir(d)) != NULL;) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		if (*n == cap) {
			struct proc *w = realloc(v, 2 * cap * sizeof *v);
			if (w == NULL)
				break;
			v = w;
			cap *= 2;
		}
		struct proc *p = &v[*n];
		p->pid = (pid_t)atoi(e->d_name);
		p->mark = false;
		if (proc_read(p->pid, &p->ppid, &p->alive))
			(*n)++;
	}
	if (d != NULL)
		closedir(d);
	return v;
}

/* Marks the descendants of root (repeated passes: /proc lists pids in
 * order, and a re-parented child may come before its parent). */
static void proc_mark(struct proc *v, size_t n, pid_t root)
{
	for (bool more = true; more;) {
		more = false;
		for (size_t i = 0; i < n; i++) {
			if (v[i].mark)
				continue;
			bool under = v[i].ppid == root;
			for (size_t j = 0; !under && j < n; j++)
				under = v[j].mark && v[j].pid == v[i].ppid;
			if (under)
				more = v[i].mark = true;
		}
	}
}

/* SIGKILL through a pidfd, after checking that the pid still has the
 * parent the walk saw: a pid freed and reused meanwhile is left alone. */
static void proc_kill(const struct proc *p)
{
	int fd = (int)syscall(SYS_pidfd_open, p->pid, 0);
	pid_t ppid;
	bool alive;
	if (fd < 0)
		return;
	if (proc_read(p->pid, &ppid, &alive) && ppid == p->ppid && alive)
		syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0);
	close(fd);
}

/* One round: how many live descendants were signalled. */
static int weak_kill_round(pid_t root)
{
	size_t n;
	struct proc *v = proc_list(&n);
	int killed = 0;
	if (v == NULL)
		return 1; /* try again */
	proc_mark(v, n, root);
	for (size_t i = 0; i < n; i++)
		if (v[i].mark && v[i].alive) {
			proc_kill(&v[i]);
			killed++;
		}
	free(v);
	return killed;
}

long proc_count_tree(pid_t root, pid_t *first)
{
	size_t n;
	struct proc *v = proc_list(&n);
	long count = 1; /* root */
	if (v == NULL)
		return -1;
	proc_mark(v, n, root);
	*first = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].mark && v[i].alive) {
			if (*first == 0)
				*first = v[i].pid;
			count++;
		}
	free(v);
	return count;
}

void weak_kill_tree(pid_t root)
{
	/* A dying process's children reach the subreaper only once it is
	 * dead, and a process may fork while being killed: walk again
	 * until a walk finds nobody alive. Bounded, so a stuck /proc cannot
	 * hang the host. */
	for (int round = 0; round < 1000 && weak_kill_round(root) > 0; round++)
		usleep(round < 10 ? 200 : 2000);
}

void launch_kill(pid_t pid, bool weak)
{
	if (pid <= 0)
		return;
	if (weak)
		weak_kill_tree(pid);
	kill(pid, SIGKILL);
}
