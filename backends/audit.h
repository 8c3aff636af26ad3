/* audit: Landlock's own denial records (Linux 6.15, Landlock ABI 7) as a
 * denial channel beside the observer.
 *
 * Landlock logs each access it refuses to the audit subsystem: an
 * AUDIT_LANDLOCK_ACCESS record (the domain's id, the rights missing, the
 * object: a file, or for a creation or removal its directory), and with
 * the first one of a domain an AUDIT_LANDLOCK_DOMAIN record naming the
 * process that called landlock_restrict_self(): for a sandmux sandbox its
 * init, whose host pid the launcher returns. Read from the netlink audit
 * socket's multicast group (AUDIT_NLGRP_READLOG: CAP_AUDIT_READ, no
 * auditd needed) while auditing is on, these report a sandbox's refused
 * writes and removals: the observer leaves removals un-notified
 * (observer_install_quiet), and the writes Landlock refuses to Landlock
 * and their records (a write to an existing file stays notified: a
 * protected file made after launch has only the observer against it).
 *
 * sandmux never turns auditing on; audit_open() says why the channel is
 * not used where it is not, and then nothing changes: the observer
 * reports every denial. The records are a report, never a decision:
 * Landlock has already refused the call when its record is written. */
#ifndef AUDIT_H
#define AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "backends/observer.h"

struct loop;
struct policy;

/* A bound, non-blocking audit socket in the read-log group, once a
 * sandbox of our own was seen to produce a record through it (a probe:
 * auditing on, Landlock ABI 7, no audit rule excluding the records).
 * -1 with one line in why: what is missing. Open it before the launch,
 * so no record of the new sandbox comes before it listens. */
int audit_open(char *why, size_t size);

struct audit_stats {
	uint64_t records;  /* AUDIT_LANDLOCK_ACCESS records of this sandbox */
	uint64_t reported; /* denials handed on */
	uint64_t lost;     /* the socket overflowed (ENOBUFS): records dropped */
	int64_t kernel;    /* the domain's own count of denials, at its end; -1: not yet */
};

struct audit_watch;
/* Takes fd (audit_open's); reports the records of the domain whose
 * creator is `creator` (the sandbox's init, host pid) through cb, with
 * layer "landlock", decided again by policy p for the rule and the
 * suggestion. NULL on failure (fd closed). */
struct audit_watch *audit_watch_new(struct loop *, int fd, const struct policy *p, pid_t creator, observer_cb cb,
				    void *arg);
/* Hands on every record already received, without waiting. */
void audit_watch_drain(struct audit_watch *);
/* After the sandbox has exited: waits (at most timeout_ms) for the
 * records still in the kernel's queue, until the domain's end is logged
 * or, when it never logged a denial, until the queue is quiet. */
void audit_watch_finish(struct audit_watch *, int timeout_ms);
const struct audit_stats *audit_watch_stats(const struct audit_watch *);
void audit_watch_free(struct audit_watch *);

/* The parsing, for the unit test: one record's text ("audit(T:S): ..."),
 * its type, into the watch. */
void audit_watch_record(struct audit_watch *, int type, const char *text, size_t len);

#endif
