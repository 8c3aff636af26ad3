/* observer: seccomp user notification on the syscalls that change the
 * file system (and on every open where the profile restricts reads or has
 * `deny` entries), answered by the host from the policy.
 *
 * The launcher's parent compiles the filter (observer_compile) while the
 * child makes its mounts; the child loads it after its own deny-list
 * filter and hands the listener fd to the host.
 * The host (observer_new) reads each call's path from the process's
 * memory, makes it absolute as the process sees it (cwd, dirfd through
 * /proc), maps /tmp to the session temp dir, and asks policy_decide_path().
 * A path denied as written is then resolved in the process's root the
 * way the kernel will (symlinks, ".."), and decided again, so a symlink
 * into an allowed place is no false denial; calls that would fail by
 * themselves (ENOENT, EEXIST) are let through unreported. Then:
 *
 * - deny: the call fails with EACCES at once and a denial is reported;
 * - allow: the kernel goes on with the call (SECCOMP_USER_NOTIF_FLAG_CONTINUE),
 *   and Landlock, the mounts and the deny list decide as if the observer
 *   were not there.
 *
 * Why CONTINUE cannot be turned into a way around Landlock: CONTINUE does
 * not run the call on the process's behalf or with the host's rights; the
 * kernel resumes it in the process, where every later check (Landlock's
 * path walk, read-only bind mounts, capabilities) still applies. A process
 * that rewrites the path in its memory after the host read it (another
 * thread) can at most make the host decide on the wrong path: it gains
 * "allow", which only means "Landlock decides". So the observer may deny
 * early and explain, and can never allow anything Landlock denies.
 *
 * The converse: the observer's own denials are no boundary. What only
 * the observer refuses (a new file matching a `deny` glob inside a
 * writable root: the launcher's bind-overs cover matches that exist at
 * launch) can be won by a process that flips the path between the host's
 * read and the kernel's (tests/sandbox/observer-race.c shows it).
 *
 * Fail closed: when the host (the listener fd) is gone, the kernel fails
 * every notified call with ENOSYS instead of running it.
 *
 * Cost: one round trip to the observer process per notified call (two
 * context switches and about five syscalls); tests/bench/observer.sh
 * measures it. */
#ifndef OBSERVER_H
#define OBSERVER_H

#include <stdbool.h>
#include <stdint.h>

struct denial;
struct loop;
struct policy;
struct seccomp_prog;

/* In the child, after no_new_privs: loads the filter; returns the listener
 * fd, or -1 with errno set. weak: the weaker sandbox (no read-only mounts
 * refuse chmod and chown there; the observer does). */
int observer_install(const struct policy *, bool weak);
/* The same; quiet_writes: removals are not notified (Landlock's audit
 * records report them: backends/audit.h). Writes to existing files
 * still are (a protected file made after launch has only the observer
 * against it; observer_new()'s OBSERVER_AUDITED), and creations, exec
 * and sockets. */
int observer_install_quiet(const struct policy *, bool weak, bool quiet_writes);
/* The filter observer_install_quiet() loads, compiled into *out (to load
 * with SECCOMP_FILTER_FLAG_NEW_LISTENER, after no_new_privs): 0, or -1
 * with errno set. */
int observer_compile(const struct policy *, bool weak, bool quiet_writes, struct seccomp_prog *out);

/* Called with each denial (layer "observer", pane 0, suggestion filled);
 * the callee may set d->pane and must copy what it keeps. */
typedef void (*observer_cb)(struct denial *d, void *arg);

struct observer_stats {
	uint64_t seen;       /* notifications received */
	uint64_t denied;     /* answered EACCES */
	uint64_t continued;  /* handed back to the kernel */
	uint64_t gone;       /* the call went away before the answer */
	uint64_t unreadable; /* paths this host may not read (ptrace restrictions) */
	uint64_t unix_taken; /* AF_UNIX pathname connects the host made (unixsock.h) */
	uint64_t cpu_us;     /* the observer process's CPU time */
	bool sync_wake;      /* SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP is on */
};

struct observer;
/* Starts the observer process (observer-proc.c) on notify_fd, which it
 * takes (closed here in any case; observer_free kills the process, which
 * fails any call still waiting: fail closed), and watches its messages on
 * the loop: cb runs in this process. The policy is read as it is now.
 * NULL on failure. */
/* weak_port: -1, or the weaker sandbox's (no namespaces): paths are the
 * host's (no /tmp mapping) and, for a restricted network, connect() on
 * AF_INET/AF_INET6 is taken over (inetsock.h): only the proxy at
 * 127.0.0.1:weak_port (0: none). OBSERVER_AUDITED: the full sandbox
 * whose Landlock denials the audit records report (backends/audit.h): a
 * write refused only for lying outside the write roots is left to
 * Landlock, which refuses it and logs the record. */
#define OBSERVER_AUDITED (-2)
struct observer *observer_new(struct loop *, const struct policy *, int notify_fd, int weak_port, observer_cb,
			      void *arg);
/* The same, the observer process forked from the zygote (observer-zygote.h)
 * instead of this process, deciding by a packed copy of the policy;
 * zygote NULL: observer_new(). */
struct observer_zygote;
struct observer *observer_new_from(struct observer_zygote *, struct loop *, const struct policy *, int notify_fd,
				   int weak_port, observer_cb, void *arg);
/* Hands on every denial already sent, without waiting: a denial is sent
 * before its call is answered, so after the command's end this has them all. */
void observer_drain(struct observer *);
/* Waits (at most timeout_ms) until the last process under the filter is
 * gone and the observer process has sent its counters. */
void observer_finish(struct observer *, int timeout_ms);
/* The counters: complete after observer_finish() or observer_done(). */
const struct observer_stats *observer_stats(const struct observer *);
/* True once no process uses the filter any more (all exited). */
bool observer_done(const struct observer *);
void observer_free(struct observer *);

#endif
