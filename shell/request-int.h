/* request-int: what shell/request.c and request-run.c share. */
#ifndef REQUEST_INT_H
#define REQUEST_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "backends/reqchan.h"
#include "policy/suggest.h"

struct server;
struct watch;
struct run;
struct policy;

/* A pane's channel: the server's end, and what the pane may still ask. */
struct request_pane {
	struct server *srv;
	int pane;
	int fd; /* the server's end, SO_PASSCRED; -1 once every process of the pane closed it */
	struct watch *w;
	dev_t dev; /* the pane's end: never accepted as a stdio descriptor */
	ino_t ino;
	double tokens, why_tokens; /* the rate limits (request.c) */
	uint64_t filled_ms;
	unsigned long refused; /* malformed messages */
	unsigned long limited; /* requests over the rate */
	struct request *running;
};

struct request {
	struct request *next; /* in its pane's running list, once approved */
	struct server *srv;
	int pane;
	int reply; /* the requester's own answer socket */
	struct watch *replyw;
	int stdio[3];
	pid_t from;
	char comm[17];
	char **argv;
	char *cwd, *reason;
	struct suggestion grant[REQCHAN_MAX_GRANTS];
	int ngrants;
	uint64_t timer; /* the prompt's deadline */
	/* running (request-run.c) */
	struct run *run;       /* backends/run.h */
	struct policy *policy; /* what it runs under, as long as it runs */
};

void request_free(struct request *);
/* The words as a shell reads them back, malloc'ed (NULL: no memory). */
char *request_argv_text(char *const *argv);
/* request-run.c: the approved command in a new sandbox: the pane's
 * policy, its session grants and exactly the request's grants. 0, or -1
 * with err (the requester is then told). Its end answers "exit N". */
int request_run(struct request *, struct request_pane *, char *err, size_t errlen);
/* Ends a running request's sandbox (the requester went away). */
void request_run_kill(struct request *);

#endif
