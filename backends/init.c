/* init: pid 1 of the sandbox's pid namespace. It is already as restricted
 * as the command. It forks the command, reaps every orphan the kernel
 * re-parents to it, forwards the termination signals a supervisor sends
 * (pid 1 ignores signals it has no handler for), and exits with the
 * command's status, which also ends every process left in the namespace.
 * In the weaker sandbox (weak.c) it is a subreaper instead of pid 1, and
 * ends the remaining processes itself. */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#if __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#endif
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "backends/chan.h"
#include "backends/launch.h"
#include "backends/sandbox.h"

/* (inlined: the bare tail below calls nothing) */
__attribute__((always_inline)) static inline int init_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 1;
}

/* Init keeps none of the command's terminal or stdio: a pipe reader
 * outside must see end of file when the command's side is gone. Its
 * /dev/null was opened before the filters (launch.c). */
static void init_drop_stdio(const struct sbx *s)
{
	int null = s->devnull;
	for (int fd = 0; fd < 3; fd++)
		if (null >= 0)
			dup2(null, fd);
	if (null > 2)
		close(null);
	if (s->tty > 2)
		close(s->tty);
	for (int i = 0; i < 3; i++)
		if (s->l->stdio[i] > 2)
			close(s->l->stdio[i]);
	if (s->l->pass_fd >= 0)
		close(s->l->pass_fd); /* the command's alone */
	if (s->l->request_fd >= 0)
		close(s->l->request_fd); /* init never asks */
}

/* Returns the command's status once it has exited (weaker sandbox: or
 * 128+SIGKILL when the parent died, SIGPWR, and the tree must end). */
static int init_wait(int sfd, pid_t cmd)
{
	for (;;) {
		struct signalfd_siginfo si;
		ssize_t n = read(sfd, &si, sizeof si);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof si)
			return 1;
		if (si.ssi_signo == SIGPWR)
			return 128 + SIGKILL;
		if (si.ssi_signo != SIGCHLD) {
			kill(cmd, (int)si.ssi_signo);
			continue;
		}
		int st;
		pid_t pid;
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
			if (pid == cmd)
				return init_status(st);
	}
}

/* Init's memory still holds sandmux's own environment (before the env
 * policy) and /proc/1/environ would show it to the command: wipe it, and
 * make init non-dumpable so /proc/1 offers nothing more. */
static void init_hide(void)
{
	for (char **e = environ; e != NULL && *e != NULL; e++)
		memset(*e, 0, strlen(*e));
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

/* Init lives as long as the sandbox and, once the command is forked,
 * needs nothing from the heap: what it still uses is on its stack and in
 * libc's own data, and nothing it calls from here on allocates (read,
 * kill, waitpid, write, _exit). The heap it was forked with is the
 * server's (every pane's screen, the clients' screens) and the server
 * changing its copy later would leave init holding the old pages, a
 * private copy per pane: give it all back. */
static void init_shed_heap(void)
{
	struct mallinfo2 mi = mallinfo2(); /* arena: the bytes taken with brk */
	char *top = sbrk(0);
	long page = sysconf(_SC_PAGESIZE);
	if (top == (char *)-1 || page <= 0 || mi.arena == 0 || mi.arena > (size_t)(top - (char *)0))
		return;
	uintptr_t start = ((uintptr_t)(top - mi.arena) + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	if (start < (uintptr_t)top)
		madvise((void *)start, (uintptr_t)top - start, MADV_DONTNEED);
}

/* The same for the stack below the frames in use: the launcher's deep
 * calls (path buffers, the filters) left pages there, and the pages the
 * server's stack shared with it at the fork become private copies as the
 * server's change. Below the stack pointer nothing is in use; a later
 * call deeper than what is kept gets fresh zero pages. The main stack is
 * init's (the launcher clones without a stack of its own), and within
 * the stack limit below it the kernel maps nothing else (mmap_base sits
 * at least 128 MiB under the stack's top). */
#if defined(__SANITIZE_ADDRESS__)
#define INIT_OWN_STACK 0 /* ASan keeps its own idea of the stack (bounds, fake frames): left alone */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define INIT_OWN_STACK 0
#endif
#endif
#ifndef INIT_OWN_STACK
#define INIT_OWN_STACK 1
#endif
#define INIT_STACK_KEEP (4 * 4096) /* this frame and the calls init still makes */
static uintptr_t init_stack_span(void)
{
	struct rlimit rl;
	uintptr_t span = 8u << 20;
	if (getrlimit(RLIMIT_STACK, &rl) < 0)
		return 0;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < span)
		span = (uintptr_t)rl.rlim_cur;
	return span;
}

static void init_shed_stack(void)
{
	char here;
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t span = init_stack_span();
	uintptr_t top = ((uintptr_t)&here - INIT_STACK_KEEP) & ~((uintptr_t)page - 1);
	if (INIT_OWN_STACK && page > 0 && top > span)
		madvise((void *)(top - span), span, MADV_DONTNEED); /* ENOMEM for the unmapped part: expected */
}

/* The weaker sandbox has no pid namespace whose end would take every
 * process with it: init (their subreaper) kills what is left and reaps
 * it, before it reports the status, so no process outlives the run. */
static void init_end_tree(void)
{
	weak_kill_tree(getpid());
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
}

/* What init still needs once the command runs, on a stack of its own. */
#define INIT_SPANS 64
struct init_tail {
	int sfd, status_w;
	pid_t cmd;
	bool weak;
	uintptr_t old_lo, old_hi; /* the stack it was forked with, to give back */
	size_t n;                 /* > 0: the bare tail (init_bare) gives back these */
	struct init_span {
		uintptr_t lo, hi;
	} span[INIT_SPANS]; /* the mappings beyond are kept: never more than a few dozen */
};

static int init_finish(const struct init_tail *t)
{
	int status = init_wait(t->sfd, t->cmd);
	if (t->weak)
		init_end_tree();
	/* Tell the parent now: tearing down the namespaces as init exits
	 * takes a while, and the status is already known. */
	if (t->status_w >= 0) {
		ssize_t n = write(t->status_w, &status, sizeof status);
		(void)n; /* the parent still has waitpid() */
	}
	return status;
}

/* The bare tail: with the command running, all init does is read its
 * signalfd, forward, reap and report, and the pages it was forked with
 * (every library's data, relocations and TLS, the server's heap and
 * mappings, even the code it does not run) are the server's, either
 * shared (counted to init in part) or, once the server wrote its copy,
 * init's own. So it gives them all back and from then on touches nothing
 * but its own stack and the code below: raw system calls, no libc, no
 * global, no GOT (its relocations revert to the file's), no TLS (no
 * stack protector, whose canary is there). x86_64 only; elsewhere, and
 * under ASan, the libc tail (init_finish). */
#if defined(__x86_64__) && INIT_OWN_STACK && defined(__has_attribute)
#if __has_attribute(no_stack_protector)
#define INIT_BARE 1
#endif
#endif
#ifndef INIT_BARE
#define INIT_BARE 0
#endif

#if INIT_BARE
#define INIT_RAW __attribute__((always_inline, no_stack_protector)) static inline
INIT_RAW long init_sys(long nr, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long rc;
	__asm__ volatile("syscall" : "=a"(rc) : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
	return rc;
}

/* nothing the compiler could add either: checks, hooks or a canary */
__attribute__((noinline, noreturn, no_stack_protector, no_sanitize("undefined"), no_instrument_function)) static void
init_bare(const struct init_tail *t)
{
	for (size_t i = 0; i < t->n; i++)
		init_sys(SYS_madvise, (long)t->span[i].lo, (long)(t->span[i].hi - t->span[i].lo), MADV_DONTNEED, 0);
	int status = 1;
	for (;;) {
		struct signalfd_siginfo si;
		long n = init_sys(SYS_read, t->sfd, (long)&si, sizeof si, 0);
		if (n == -EINTR)
			continue;
		if (n != (long)sizeof si)
			break;
		if (si.ssi_signo != SIGCHLD) {
			init_sys(SYS_kill, t->cmd, (long)si.ssi_signo, 0, 0);
			continue;
		}
		int st;
		long pid;
		while ((pid = init_sys(SYS_wait4, -1, (long)&st, WNOHANG, 0)) > 0 && pid != t->cmd)
			;
		if (pid == t->cmd) {
			status = init_status(st);
			break;
		}
	}
	if (t->status_w >= 0)
		init_sys(SYS_write, t->status_w, (long)&status, sizeof status, 0);
	for (;;)
		init_sys(SYS_exit_group, status, 0, 0, 0);
}

/* span[] += [lo, hi) less what stays ([keep_lo, keep_hi) each): the
 * tail's own stack, and from argv's page up (the old stack's top: argv's
 * strings for /proc/1/cmdline; above it only the kernel's mappings). */
static void init_span_add(struct init_tail *t, uintptr_t lo, uintptr_t hi, const uintptr_t keep[2][2])
{
	for (int k = 0; k < 2 && lo < hi; k++) {
		if (keep[k][0] >= hi || keep[k][1] <= lo)
			continue;
		if (lo < keep[k][0])
			init_span_add(t, lo, keep[k][0], keep);
		lo = keep[k][1];
	}
	if (lo >= hi)
		return;
	if (t->n > 0 && t->span[t->n - 1].hi == lo)
		t->span[t->n - 1].hi = hi; /* one call for a library's segments */
	else if (t->n < INIT_SPANS)
		t->span[t->n++] = (struct init_span){ lo, hi };
}

/* One line of /proc/self/maps ("lo-hi perms offset dev inode name"):
 * the mapping joins span[] unless it is the kernel's own ([vdso],
 * [vvar], [vsyscall]: no pages to give back). */
static bool init_maps_line(struct init_tail *t, const char *l, const uintptr_t keep[2][2])
{
	char *end;
	uintptr_t lo = strtoul(l, &end, 16);
	if (*end != '-')
		return false;
	uintptr_t hi = strtoul(end + 1, &end, 16);
	if (hi <= lo || *end != ' ')
		return false;
	const char *name = end;
	for (int f = 0; f < 4; f++) { /* perms, offset, dev, inode */
		name += strspn(name, " ");
		name += strcspn(name, " ");
	}
	name += strspn(name, " ");
	if (name[0] != '[' || strncmp(name, "[heap]", 6) == 0 || strncmp(name, "[stack]", 7) == 0 ||
	    strncmp(name, "[anon:", 6) == 0)
		init_span_add(t, lo, hi, keep);
	return true;
}

/* Every mapping of init's, read before the switch (this /proc is its
 * pid namespace's, mounted by it). Read by hand: the heap is gone. */
static bool init_collect(struct init_tail *t, uintptr_t own_lo, uintptr_t own_hi)
{
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	const uintptr_t keep[2][2] = { { own_lo, own_hi }, { t->old_hi, UINTPTR_MAX } };
	char buf[4096];
	size_t len = 0;
	bool ok = true, skip = false; /* skip: the rest of a line longer than buf */
	ssize_t n;
	t->n = 0;
	while (ok && (n = read(fd, buf + len, sizeof buf - 1 - len)) > 0) {
		len += (size_t)n;
		buf[len] = '\0';
		char *l = buf, *nl;
		while (ok && ((nl = strchr(l, '\n')) != NULL || (l == buf && len == sizeof buf - 1))) {
			if (nl != NULL)
				*nl = '\0';
			if (!skip)
				ok = init_maps_line(t, l, keep);
			skip = nl == NULL;
			l = nl != NULL ? nl + 1 : buf + len;
		}
		len -= (size_t)(l - buf);
		memmove(buf, l, len);
	}
	close(fd);
	return ok && n == 0 && len == 0 && t->n > 0;
}

/* The kernel writes the thread's rseq area (in its TLS, registered by
 * glibc at start-up) each time it runs it again after a switch: the TLS
 * page given back would come back for that. Unregistered, nothing uses
 * it (the registered length is __rseq_size, or glibc's 32 where
 * __rseq_size is the features' size). */
static void init_rseq_off(void)
{
#if __has_include(<sys/rseq.h>)
	if (__rseq_size == 0)
		return;
	void *area = (char *)__builtin_thread_pointer() + __rseq_offset;
	if (syscall(SYS_rseq, area, __rseq_size, RSEQ_FLAG_UNREGISTER, RSEQ_SIG) < 0 && errno == EINVAL)
		syscall(SYS_rseq, area, 32, RSEQ_FLAG_UNREGISTER, RSEQ_SIG);
#endif
}
#endif

/* Below the stack pointer is not all: the stack init was forked with
 * holds, above its frame, every frame of the server's and the launcher's
 * calls that led to it (about 200 KiB, path buffers and all), and those
 * pages become private copies as the server's change. Init never returns
 * into them (launch.c _exits with init_run's status), so it goes on on a
 * small stack of its own and gives the old one back, from below the
 * stack pointer (init_stack_span) up to the page of argv's strings, which
 * it keeps (/proc/1/cmdline; the pointer arrays and the auxiliary vector
 * below them were read at start-up). */
#define INIT_STACK_SIZE (128 * 1024)
static bool init_old_stack(struct init_tail *t)
{
	char here;
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t at = (uintptr_t)&here, keep = (uintptr_t)program_invocation_name, span = init_stack_span();
	if (!INIT_OWN_STACK || page <= 0 || span == 0 || keep <= at || keep - at > span)
		return false; /* argv is not above this frame on the same stack */
	t->old_lo = (at > span ? at - span : 0) & ~((uintptr_t)page - 1);
	t->old_hi = keep & ~((uintptr_t)page - 1);
	return t->old_hi > t->old_lo;
}

static void init_tail_entry(unsigned hi, unsigned lo)
{
	const struct init_tail *t = (const struct init_tail *)(((uintptr_t)hi << 32) | lo);
#if INIT_BARE
	if (t->n > 0)
		init_bare(t);
#endif
	madvise((void *)t->old_lo, t->old_hi - t->old_lo, MADV_DONTNEED);
	_exit(init_finish(t));
}

static void init_switch_stack(const struct init_tail *from)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = INIT_STACK_SIZE + (size_t)page;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (m == MAP_FAILED)
		return;
	ucontext_t uc;
	/* the tail at the top, a guard page at the bottom */
	struct init_tail *t = (struct init_tail *)(void *)(((uintptr_t)(m + len) - sizeof *t) & ~(uintptr_t)15);
	*t = *from;
#if INIT_BARE
	if (t->weak || !init_collect(t, (uintptr_t)m, (uintptr_t)(m + len)))
		t->n = 0; /* the libc tail */
	else
		init_rseq_off();
#endif
	if (mprotect(m, (size_t)page, PROT_NONE) == 0 && getcontext(&uc) == 0) {
		uc.uc_stack.ss_sp = m + page;
		uc.uc_stack.ss_size = (size_t)((char *)t - (m + page)) & ~(size_t)15;
		uc.uc_link = NULL;
		uintptr_t at = (uintptr_t)t;
		makecontext(&uc, (void (*)(void))init_tail_entry, 2, (unsigned)(at >> 32), (unsigned)at);
		setcontext(&uc);
	}
	munmap(m, len);
}

/* The server's crash handlers (server-log.c) came with the fork, and
 * pid 1 takes the signals it has a handler for from inside: a command
 * could run them in init (which would close its descriptors, and the bare
 * tail has nothing left for them to run on). The default again: pid 1
 * ignores the rest; what was ignored stays so. */
static void init_default_signals(void)
{
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;
		if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &sa) < 0)
			continue;
		if ((sa.sa_flags & SA_SIGINFO) || (sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN))
			signal(sig, SIG_DFL);
	}
}

int init_run(struct sbx *s, void (*exec_cmd)(struct sbx *))
{
	init_default_signals();
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGQUIT);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	if (s->weak)
		sigaddset(&set, SIGPWR); /* the parent-death signal (launch.c) */
	sigprocmask(SIG_BLOCK, &set, &old);
	int sfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (sfd < 0) {
		chan_send_err(s->chan, "init: signalfd", strerror(errno));
		return 127;
	}
	pid_t cmd = fork();
	if (cmd < 0) {
		chan_send_err(s->chan, "init: fork the command", strerror(errno));
		return 127;
	}
	if (cmd == 0) {
		close(sfd);
		exec_cmd(s);
	}
	/* Forked before the parent's answer about the observer's listener,
	 * so that the fork overlaps the parent's taking it: the command waits
	 * for an answer of its own before its execve (launch.c launch_exec),
	 * and is ended here when the parent could not take it. */
	if (launch_listener_taken(s) < 0) {
		kill(cmd, SIGKILL);
		chan_send_err(s->chan, s->err, NULL);
		return 127;
	}
	close(s->chan);
	init_drop_stdio(s);
	init_hide();
	struct init_tail t = { .sfd = sfd, .status_w = s->status_w, .cmd = cmd, .weak = s->weak, .n = 0 };
	bool bounds = init_old_stack(&t);
	if (!s->weak) /* the weaker sandbox's init still walks /proc at the end */
		init_shed_heap();
	if (bounds)
		init_switch_stack(&t); /* returns only when it could not */
	init_shed_stack();             /* then at least below this frame */
	return init_finish(&t);
}
