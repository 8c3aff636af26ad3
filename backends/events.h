/* events: denials, from whichever layer saw them (DESIGN.md "Denials").
 *
 * One struct denial per event. events_emit() appends it, as one JSON
 * object a line, to ~/.sandmux/state/denials.jsonl (size-capped: the full
 * file is rotated to denials.jsonl.1), keeps it in memory coalesced (same
 * pane + op + target counts up) and tells one listener (the UI, the
 * control socket, `sandmux run`). Used by the observer, the proxy and the
 * launcher's seccomp deny list alike. */
#ifndef EVENTS_H
#define EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "policy/suggest.h"

struct denial {
	int64_t ts_ms;   /* wall clock, ms since the epoch */
	int pane;        /* 0 for `sandmux run` */
	pid_t pid;       /* host pid, 0 if unknown */
	char comm[17];   /* /proc/PID/comm */
	char op[12];     /* read write create remove rename exec connect bind signal syscall */
	char layer[12];  /* observer landlock seccomp proxy */
	char *target;    /* a path, "host:port", a syscall name */
	char *rule;      /* the rule that decided, human-readable */
	char *rule_file; /* the file the rule came from; NULL: built in */
	int rule_line;
	struct suggestion suggest;
	unsigned count; /* in a coalesced list: how many times */
};

/* Deep copy / release of the strings a denial owns. */
int denial_copy(struct denial *dst, const struct denial *src);
void denial_clear(struct denial *);
/* Sets ts_ms to now; the fields set from args are copied into fixed
 * buffers or strdup'ed. Returns -1 on allocation failure. */
int denial_set(struct denial *, const char *op, const char *layer, const char *target, const char *rule);

/* One JSON object, no newline, malloc'ed: the DESIGN.md fields, plus
 * "count" and "from" (rule file:line) when `coalesced`. */
char *denial_to_json(const struct denial *, bool coalesced);
/* "2026-11-30T01:02:03.456Z" */
void denial_format_ts(int64_t ts_ms, char buf[32]);

/* Coalesced denials, oldest first. At most DENIALS_MAX distinct ones are
 * kept (the oldest goes first): a process that causes denials by the
 * thousand must not make every new one cost more. */
#define DENIALS_MAX 1024
struct denials {
	struct denial *v;
	size_t n, cap;
};
/* Adds or counts up; returns the entry in the list (valid until the next
 * add), or NULL on allocation failure. */
struct denial *denials_add(struct denials *, const struct denial *);
size_t denials_count_pane(const struct denials *, int pane);
void denials_free(struct denials *);

/* Appends one line to HOME/.sandmux/state/denials.jsonl; rotates the file
 * to denials.jsonl.1 first when it would grow past cap bytes. Makes the
 * directories; follows no symbolic link below HOME, and refuses a log that
 * is not a regular file of one link (backends/safefile.h). 0, or -1 with
 * err set. */
int denial_log_append(const char *home, size_t cap, const struct denial *, char *err, size_t errlen);
#define DENIAL_LOG_NAME "denials.jsonl"
#define DENIAL_LOG_CAP  (1024 * 1024)

typedef void (*denial_listener)(const struct denial *coalesced, void *arg);

struct events {
	struct denials list;
	char *log_home; /* the log is under HOME (see denial_log_append); NULL: no log */
	size_t log_cap;
	denial_listener listener;
	void *listener_arg;
	char err[256]; /* the last log failure; logging goes on */
};

/* home NULL or not absolute: no log. */
int events_init(struct events *, const char *home);
/* $HOME/.sandmux/state/denials.jsonl, malloc'ed. */
char *events_log_path(const char *home);
/* Log, coalesce, notify. Returns the coalesced entry (or NULL). */
const struct denial *events_emit(struct events *, const struct denial *);
void events_free(struct events *);

#endif
