/* observer-zygote: where a server's observer processes come from.
 *
 * An observer forked from the server itself keeps copy-on-write copies of
 * the server's pages: every page the server changes later (pane screens,
 * history, clients' screens) stays behind in each observer as a private
 * copy, about 1 MiB a pane. The zygote is a process exec'd fresh
 * (/proc/self/exe as OBSERVER_ZYGOTE_NAME) when the first observer is
 * asked for; each pane's observer is forked from it, so that what the
 * observers share with it stays shared. The pane's policy reaches it
 * packed (policy/pack.h) in a memfd, with the listener and the socket the
 * observer reports on (SCM_RIGHTS); it answers with a pidfd of the
 * observer, by which the server ends it.
 *
 * Fail closed as before: the observer holds the only copy of the
 * listener; it dies with the zygote, and the zygote with the server (both
 * PR_SET_PDEATHSIG); every signal is blocked in both. Each pane's
 * observer is still a process of its own, deciding by its own policy
 * alone, blocked on its own listener (the kernel's direct hand-over,
 * observer-proc.c). */
#ifndef OBSERVER_ZYGOTE_H
#define OBSERVER_ZYGOTE_H

#include <sys/types.h>

struct policy;

#define OBSERVER_ZYGOTE_NAME "sandmux-observer" /* argv[0] of the zygote */

struct observer_zygote;
/* No process yet: it is started at the first observer asked for. */
struct observer_zygote *observer_zygote_new(void);
/* Ends the zygote and with it every observer it made. */
void observer_zygote_free(struct observer_zygote *);
/* main() of the exec'd zygote (argv[0] OBSERVER_ZYGOTE_NAME): serves the
 * socket on fd 3; returns the exit status. */
int observer_zygote_main(void);

/* Internal to backends/ (observer-proc.c). Forks an observer for p on
 * notify_fd reporting on report_sock (neither is closed here): its pidfd,
 * its pid in *pid; -1 with errno set. */
int observer_zygote_spawn(struct observer_zygote *, const struct policy *, int notify_fd, int report_sock,
			  int weak_port, pid_t *pid);
/* observer-proc.c: the observer process's life, in a child of parent:
 * signals blocked, the parent-death signal, every other fd closed, then
 * the answering loop; never returns. */
void observer_proc_main(pid_t parent, const struct policy *, int notify_fd, int weak_port, int sock)
	__attribute__((noreturn));

#endif
