/* overview: every pane of every window on one screen, with its waiting
 * sandbox prompts under it (prefix w, like tmux's choose-tree): name,
 * profile, layers, state, denials, prompts and the time of its last
 * output. Arrows move, Enter jumps to the pane, and the answer keys
 * (o s a r d x) answer the selected prompt in place — the inbox of a
 * person watching several agents. A mode of the client (mode.h): it
 * covers the screen and takes every key until it ends. */
#include "shell/mode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/loop.h"
#include "pty/vt.h"
#include "shell/escalate-queue.h"
#include "shell/escalate.h"
#include "ui/denials.h"
#include "ui/ui.h"

#define ROWS_MAX 512

struct row {
	struct pane *p;
	int prompt; /* index in p->esc->q, or -1: the pane itself */
};

static int rows_collect(struct server *s, struct row *v, int max)
{
	int n = 0;
	for (struct window *w = s->windows; w != NULL; w = w->next)
		for (struct pane *p = w->panes; p != NULL; p = p->next) {
			if (n < max)
				v[n++] = (struct row){ p, -1 };
			for (size_t i = 0; p->esc != NULL && i < p->esc->nq && n < max; i++)
				v[n++] = (struct row){ p, (int)i };
		}
	return n;
}

static void pane_state(const struct pane *p, char *buf, size_t cap)
{
	if (p->state == PANE_RUNNING)
		snprintf(buf, cap, "%s", esc_pending(p->esc) ? "waiting" : "running");
	else if (p->state == PANE_EXITED)
		snprintf(buf, cap, "exited %d", p->status);
	else if (p->state == PANE_KILLED)
		snprintf(buf, cap, "killed %d", p->status);
	else
		snprintf(buf, cap, "failed");
}

static void ago(uint64_t then, char *buf, size_t cap)
{
	if (then == 0) {
		snprintf(buf, cap, "-");
		return;
	}
	uint64_t s = (loop_now_ms() - then) / 1000;
	if (s < 120)
		snprintf(buf, cap, "%us ago", (unsigned)s);
	else if (s < 7200)
		snprintf(buf, cap, "%um ago", (unsigned)(s / 60));
	else
		snprintf(buf, cap, "%uh ago", (unsigned)(s / 3600));
}

static int pane_index(const struct pane *p)
{
	int i = 0;
	for (const struct pane *q = p->win->panes; q != NULL && q != p; q = q->next)
		i++;
	return i;
}

static void row_text(const struct row *r, char *buf, size_t cap)
{
	const struct pane *p = r->p;
	if (r->prompt >= 0) {
		const struct esc_prompt *q = &p->esc->q[r->prompt];
		char *target = ui_exact_text(q->d.target != NULL ? q->d.target : ""),
		     *val = ui_exact_text(q->d.suggest.value), *comm = ui_exact_text(q->d.comm);
		snprintf(buf, cap, "        %d.%u  %s denied %s %s -> %s += %s", p->id, q->seq,
			 comm != NULL && comm[0] ? comm : "?", q->d.op, target != NULL ? target : "?",
			 suggest_key(q->d.suggest.kind), val != NULL ? val : "?");
		free(target);
		free(val);
		free(comm);
		return;
	}
	char state[32], last[32], name[40], wp[24];
	snprintf(wp, sizeof wp, "%d.%d", p->win->index, pane_index(p));
	pane_state(p, state, sizeof state);
	ago(p->last_output, last, sizeof last);
	ui_safe_text(name, sizeof name, p->name);
	char stale[48] = "";
	if (p->esc != NULL && p->esc->dropped > 0)
		snprintf(stale, sizeof stale, "  (%zu stale dropped)", p->esc->dropped);
	snprintf(buf, cap, " %-5s %3d  %-16.16s %-12.12s %-6s %-10s %7d %7zu  %s%s", wp, p->id, name, p->profile,
		 p->weak ? "weak" : "full", state, p->denials, p->esc != NULL ? p->esc->nq : 0, last, stale);
}

static void overview_draw(struct client *c)
{
	struct row v[ROWS_MAX];
	int n = rows_collect(c->srv, v, ROWS_MAX), rows = ui_rows(c->ui), cols = ui_cols(c->ui);
	int page = rows > 3 ? rows - 3 : 1, waiting = 0;
	mode_clamp(c, n, page);
	size_t dropped = 0;
	for (int i = 0; i < n; i++) {
		waiting += v[i].prompt >= 0;
		dropped += v[i].prompt < 0 && v[i].p->esc != NULL ? v[i].p->esc->dropped : 0;
	}
	char line[1024];
	ui_erase(c->ui);
	snprintf(line, sizeof line,
		 " sandmux overview: %d panes, %d prompts waiting, %zu stale dropped · Up/Down move · Enter jump · "
		 "o s a r d x answer the selected prompt · q close",
		 n - waiting, waiting, dropped);
	ui_text(c->ui, 0, 0, cols, line, UI_TITLE_ACTIVE);
	snprintf(line, sizeof line, " %-5s %3s  %-16s %-12s %-6s %-10s %7s %7s  %s", "W.P", "ID", "NAME", "PROFILE",
		 "LAYERS", "STATE", "DENIALS", "PROMPTS", "LAST OUTPUT");
	ui_text(c->ui, 1, 0, cols, line, UI_TITLE);
	for (int i = c->mode_top; i < n && i - c->mode_top < page; i++) {
		row_text(&v[i], line, sizeof line);
		enum ui_style st = i == c->mode_sel ? UI_STATUS_CURRENT : v[i].prompt >= 0 ? UI_ALERT : UI_NORMAL;
		ui_text(c->ui, 2 + i - c->mode_top, 0, cols, line, st);
	}
}

static int answer_scope(uint32_t code)
{
	switch (code) {
	case 'o':
		return ESC_ONCE;
	case 's':
		return ESC_SESSION;
	case 'a':
		return ESC_ALWAYS_USER;
	case 'r':
		return ESC_ALWAYS_REPO;
	case 'd':
		return ESC_DENY;
	case 'x':
		return ESC_DISMISS;
	default:
		return -1;
	}
}

/* The selected prompt (or the selected pane's first) answered in place. */
static void overview_answer(struct client *c, const struct row *r, enum esc_scope scope)
{
	struct pane *p = r->p;
	if (!esc_pending(p->esc)) {
		client_message(c, "pane %d has no prompt waiting", p->id);
		return;
	}
	unsigned seq = p->esc->q[r->prompt >= 0 ? r->prompt : 0].seq;
	char err[256];
	if (esc_raise(p->esc, seq) == 0 && escalate_answer(c, p, scope, err, sizeof err) < 0)
		client_message(c, "%s", err);
}

static bool overview_key(struct client *c, const struct key *k)
{
	struct row v[ROWS_MAX];
	int n = rows_collect(c->srv, v, ROWS_MAX), scope = answer_scope(k->code);
	if (k->kind != KEY_PLAIN || k->mods != 0)
		return true;
	if (k->code == 'q' || k->code == VT_KEY_ESCAPE) {
		mode_leave(c);
		return true;
	}
	if (k->code == VT_KEY_UP || k->code == 'k')
		c->mode_sel--;
	else if (k->code == VT_KEY_DOWN || k->code == 'j')
		c->mode_sel++;
	else if (k->code == VT_KEY_HOME)
		c->mode_sel = 0;
	else if (k->code == VT_KEY_END)
		c->mode_sel = n - 1;
	else if (k->code == VT_KEY_ENTER && c->mode_sel < n) {
		struct pane *p = v[c->mode_sel].p;
		session_select(c->srv, p->win);
		window_focus(p->win, p);
		mode_leave(c);
		return true;
	} else if (scope >= 0 && c->mode_sel < n)
		overview_answer(c, &v[c->mode_sel], (enum esc_scope)scope);
	server_redraw(c->srv, true);
	return true;
}

const struct client_mode mode_overview = {
	.name = "overview",
	.draw = overview_draw,
	.key = overview_key,
};
