/* denial: one denial, from whichever layer saw it (DESIGN.md "Denials"),
 * and the coalesced list of them (same pane + op + target counts up). Pure
 * data at the bottom layer, so that ui/ can draw denials and backends/ can
 * report them without either including the other. */
#ifndef DENIAL_H
#define DENIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "policy/suggest.h"

struct denial {
	int64_t ts_ms;   /* wall clock, ms since the epoch */
	int pane;        /* 0 for `sandmux run` */
	pid_t pid;       /* host pid, 0 if unknown */
	pid_t pgid;      /* its process group then (its job), 0 if unknown; not in the JSON */
	char comm[17];   /* /proc/PID/comm */
	char op[12];     /* read write create remove rename exec connect bind signal syscall */
	char layer[12];  /* observer landlock seccomp proxy */
	char *target;    /* a path, "host:port", a syscall name */
	char *rule;      /* the rule that decided, human-readable */
	char *rule_file; /* the file the rule came from; NULL: built in */
	int rule_line;
	struct suggestion suggest;
	unsigned count; /* in a coalesced list: how many times */
	/* a connection (layer "proxy"): */
	char *addr;    /* the resolved address that was refused; NULL: the name itself */
	char proto[8]; /* "http", "connect", "socks5"; "" otherwise */
	bool held;     /* the connection waits for an answer (backends/run.h
			 * run_answer_held) instead of failing now */
};

/* Deep copy / release of the strings a denial owns. */
int denial_copy(struct denial *dst, const struct denial *src);
void denial_clear(struct denial *);
/* Sets ts_ms to now; the fields set from args are copied into fixed
 * buffers or strdup'ed. Returns -1 on allocation failure. */
int denial_set(struct denial *, const char *op, const char *layer, const char *target, const char *rule);
/* A write the capture layer took (op "captured", layer "capture"), what
 * it was (what: "create", "write", "remove"...) in its rule: the one shape
 * of that event, told live by the observer and at the end by the server. */
int denial_set_captured(struct denial *, const char *path, const char *what);

/* One JSON object, no newline, malloc'ed: the DESIGN.md fields, plus
 * "count" and "from" (rule file:line) when `coalesced`. */
char *denial_to_json(const struct denial *, bool coalesced);
/* The same as a cJSON object, to put into a larger document. */
struct cJSON;
struct cJSON *denial_json(const struct denial *, bool coalesced);
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

#endif
