/* denial-hint: "denialHints": the line a denied process of a pane gets
 * on its own stderr (what was denied, the rule, how to ask), so that an
 * agent reading its tool's output sees a denial for what it is. Formatted
 * by policy/hint.c, written by backends/hintfd.c; a few a second per pane
 * at most, so a program retrying in a loop does not flood its terminal. */
#include "shell/request.h"
#include "shell/request-int.h"

#include <stdio.h>
#include <string.h>

#include "backends/hintfd.h"
#include "backends/loop.h"
#include "policy/hint.h"
#include "policy/policy.h"
#include "shell/mux.h"

#define HINT_BURST    5
#define HINT_REFILL_S 1.0
#define HINT_ARGS     64

/* The denied process's words, while it is still there (it waits in the
 * denied call); argv points into buf. */
static int proc_argv(pid_t pid, char *buf, size_t cap, char **argv)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
	FILE *f = fopen(path, "re");
	size_t n = f != NULL ? fread(buf, 1, cap - 1, f) : 0;
	if (f != NULL)
		fclose(f);
	buf[n] = '\0';
	int argc = 0;
	for (size_t i = 0; i < n && argc < HINT_ARGS; i += strlen(buf + i) + 1)
		argv[argc++] = buf + i;
	argv[argc] = NULL;
	return argc;
}

void request_hint(struct pane *p, const struct denial *d, const struct policy *pol)
{
	struct request_pane *rp = p->req;
	if (pol == NULL || !pol->denial_hints || d->pid <= 0 || rp == NULL)
		return;
	uint64_t now = loop_now_ms(); /* hinted_ms 0: the first hint, a full burst */
	rp->hint_tokens += (double)(now - rp->hinted_ms) / 1000.0 / HINT_REFILL_S;
	rp->hinted_ms = now;
	if (rp->hint_tokens > HINT_BURST)
		rp->hint_tokens = HINT_BURST;
	if (rp->hint_tokens < 1.0)
		return;
	rp->hint_tokens -= 1.0;
	char words[2048], *argv[HINT_ARGS + 1], line[1024];
	proc_argv(d->pid, words, sizeof words, argv);
	size_t n = hint_format(d, p->srv->home, argv[0] != NULL ? argv : NULL, line, sizeof line);
	if (hintfd_write(d->pid, line, n) == 0)
		rp->hinted++;
}
