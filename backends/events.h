/* events: the denials of a running sandbox on their way out: appended, as
 * one JSON object a line, to ~/.sandmux/state/denials.jsonl (size-capped:
 * the full file is rotated to denials.jsonl.1), kept coalesced in memory
 * and told to one listener (the UI, the control socket, `sandmux run`).
 * Used by the observer, the proxy and the launcher alike; the record
 * itself is policy/denial.h. */
#ifndef EVENTS_H
#define EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "policy/denial.h"

/* Appends one line to HOME/.sandmux/state/denials.jsonl (SM_PATH_DENIALS,
 * policy/paths.h); rotates the file
 * to denials.jsonl.1 first when it would grow past cap bytes. Makes the
 * directories; follows no symbolic link below HOME, and refuses a log that
 * is not a regular file of one link (backends/safefile.h). 0, or -1 with
 * err set. */
int denial_log_append(const char *home, size_t cap, const struct denial *, char *err, size_t errlen);
#define DENIAL_LOG_CAP (1024 * 1024)

typedef void (*denial_listener)(const struct denial *coalesced, void *arg);

struct events {
	struct denials list;
	char *log_home; /* the log is under HOME (see denial_log_append); NULL: no log */
	size_t log_cap;
	denial_listener listener;
	void *listener_arg;
	unsigned long lost; /* denials the list could not keep (out of memory) */
	char err[256];      /* the last log or list failure; logging goes on */
};

/* home NULL or not absolute: no log. */
int events_init(struct events *, const char *home);
/* $HOME/.sandmux/state/denials.jsonl, malloc'ed. */
char *events_log_path(const char *home);
/* Log, coalesce, notify. Returns the coalesced entry, or NULL when it
 * could not be kept (out of memory: counted in lost, said in err, and the
 * listener is told of the denial itself). */
const struct denial *events_emit(struct events *, const struct denial *);
void events_free(struct events *);

#endif
