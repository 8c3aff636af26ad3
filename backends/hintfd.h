/* hintfd: one line onto a denied process's own stderr (denialHints),
 * written from outside its sandbox. The descriptor is the process's own
 * fd 2, taken with pidfd_getfd() (the same open file, so the line can
 * never go anywhere the process could not write itself), and only when
 * it is a pipe or a pseudo-terminal. The write never waits: it goes
 * through a new open file of that same pipe or terminal, non-blocking,
 * so the process's own file flags are never touched and a full pipe
 * or a terminal nobody reads only loses the line. */
#ifndef HINTFD_H
#define HINTFD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* 0: written (whole, or the part that fit); -1 with errno: not written
 * (ENOTTY: fd 2 is neither a pipe nor a terminal; EAGAIN: no room). */
int hintfd_write(pid_t pid, const char *line, size_t len);

/* A few hints a second per sandbox at most: a program retrying in a loop
 * does not flood its own terminal. Zeroed: a full burst. */
struct hintfd_rate {
	double tokens;
	uint64_t at_ms;
};
struct denial;
struct policy;
/* The observer, before it answers the denied call (the process still
 * waits in it): the hint for d (policy/hint.h, with the process's own
 * command line) onto d->pid's stderr, when p's denialHints is on. */
void hintfd_denial(const struct policy *p, const struct denial *d, struct hintfd_rate *);

#endif
