/* pane-limits: each pane's resource limits (backends/limits.h). The
 * defaults of sandmux.json "limits", lowered by the profile's, are asked
 * of every start of the pane; its sandbox (backends/run.h) looks at their
 * counters once a second, and a limit hit is a denial (op "limit") like
 * any other: in the denials pane, denials.jsonl, `sandmux events`, and
 * once per start as a line in the pane itself. */
#include "shell/mux.h"

#include <stdio.h>
#include <string.h>

#include "backends/limits.h"
#include "backends/loop.h"
#include "backends/run.h"
#include "policy/denial.h"
#include "pty/vt.h"

void limits_opts(struct server *s, struct policy *pol, struct run_opts *o, const char *what, int id, char *tag,
		 size_t cap)
{
	if (!pol->sandboxed)
		return;
	limits_fold(&pol->limits, &s->cfg.limits);
	snprintf(tag, cap, "%s-%d-%llu", what, id, (unsigned long long)loop_now_ms());
	o->limits = &pol->limits;
	o->limits_tag = tag;
}

void pane_limits_opts(struct pane *p, struct policy *pol, struct run_opts *o, char *tag, size_t cap)
{
	p->limits_said = 0;
	limits_opts(p->srv, pol, o, "pane", p->id, tag, cap);
}

void pane_limits_started(struct pane *p)
{
	char what[512];
	const struct sandbox_limits *sl = run_limits(p->run);
	if (sl == NULL)
		return;
	limits_describe(sl, what, sizeof what);
	server_log(p->srv, "pane %d: limits: %s", p->id, what);
}

void pane_limits_denial(struct pane *p, const struct denial *d)
{
	unsigned bit = strcmp(d->target, "pids") == 0 ? 1 : strcmp(d->target, "memory") == 0 ? 2 : 4;
	server_log(p->srv, "pane %d: limit: %s", p->id, d->rule);
	if (!(p->limits_said & bit)) {
		/* said once per start, in the pane: the program's own error
		 * (EAGAIN, ENOMEM, ENOSPC) does not name sandmux */
		char line[256];
		int n = snprintf(line, sizeof line, "\r\n\033[1;33msandmux: limit reached: %s\033[m\r\n", d->rule);
		vt_write(p->vt, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
		p->limits_said |= bit;
	}
}

void pane_limits_title(const struct pane *p, char *buf, size_t cap)
{
	char b[96];
	buf[0] = '\0';
	if (p->sandboxed && p->state == PANE_RUNNING) {
		run_limits_brief(p->run, b, sizeof b);
		if (b[0])
			snprintf(buf, cap, " · %s", b);
	}
}
