/* escalate-view: what a person sees and types for escalation — the
 * denials pane (prefix D) and the prompts over their panes (prefix a
 * opens the next pending one, across all panes and windows; until then
 * a pending prompt is only "prompt!" in its pane's title).
 *
 * Only escalate_key() answers a prompt, and bindings_key() calls it only
 * for keys an attached client typed: no program output reaches it. A
 * prompt takes keys only after prefix a, so a prompt that appears while
 * someone types into their program cannot catch a stray 'o' or 's'. */
#include "shell/escalate.h"
#include "shell/escalate-queue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pty/vt.h"
#include "shell/approve.h"
#include "shell/mux.h"
#include "ui/denials.h"

/* ---- the denials pane ---- */

static int by_newest(const void *a, const void *b)
{
	const struct denial *x = *(const struct denial *const *)a, *y = *(const struct denial *const *)b;
	return x->ts_ms < y->ts_ms ? 1 : x->ts_ms > y->ts_ms ? -1 : 0;
}

/* The rows shown: newest first, of the filtered pane (0: all). */
static const struct denial **view_rows(struct server *s, int pane, size_t *n)
{
	const struct denials *l = escalate_denials(s);
	*n = 0;
	if (l == NULL || l->n == 0)
		return NULL;
	const struct denial **v = calloc(l->n, sizeof *v);
	for (size_t i = 0; v != NULL && i < l->n; i++)
		if (pane == 0 || l->v[i].pane == pane)
			v[(*n)++] = &l->v[i];
	if (v != NULL)
		qsort(v, *n, sizeof *v, by_newest);
	return v;
}

bool escalate_draw_denials(struct client *c)
{
	if (!c->denials_on)
		return false;
	size_t n;
	const struct denial **v = view_rows(c->srv, c->denials_filter, &n);
	int rows = ui_rows(c->ui), page = rows > 2 ? rows - 2 : 1;
	if (c->denials_top > (int)n - page)
		c->denials_top = (int)n - page;
	if (c->denials_top < 0)
		c->denials_top = 0;
	char title[256], filter[32] = "all panes";
	if (c->denials_filter > 0)
		snprintf(filter, sizeof filter, "pane %d", c->denials_filter);
	snprintf(title, sizeof title,
		 " sandmux denials: %zu (%s), newest first · f: filter by pane · Up/Down PgUp/PgDn: scroll · q: close",
		 n, filter);
	ui_draw_denials(c->ui, rows, ui_cols(c->ui), title, (const struct denial *const *)v, n, (size_t)c->denials_top);
	free(v);
	return true;
}

/* f: all panes, then each pane that has denials, in id order. */
static void next_filter(struct client *c)
{
	const struct denials *l = escalate_denials(c->srv);
	int next = 0;
	for (size_t i = 0; l != NULL && i < l->n; i++) {
		int id = l->v[i].pane;
		if (id > c->denials_filter && (next == 0 || id < next))
			next = id;
	}
	c->denials_filter = next;
	c->denials_top = 0;
}

void escalate_toggle_denials(struct client *c)
{
	c->denials_on = !c->denials_on;
	c->denials_top = 0;
	c->full = true;
	server_redraw(c->srv, true);
}

static void denials_key(struct client *c, const struct key *k)
{
	int page = ui_rows(c->ui) > 3 ? ui_rows(c->ui) - 3 : 1;
	switch (k->code) {
	case 'q':
	case VT_KEY_ESCAPE:
		escalate_toggle_denials(c);
		return;
	case 'f':
		next_filter(c);
		break;
	case 'k':
	case VT_KEY_UP:
		c->denials_top--;
		break;
	case 'j':
	case VT_KEY_DOWN:
		c->denials_top++;
		break;
	case VT_KEY_PAGEUP:
		c->denials_top -= page;
		break;
	case VT_KEY_PAGEDOWN:
	case ' ':
		c->denials_top += page;
		break;
	case VT_KEY_HOME:
		c->denials_top = 0;
		break;
	case VT_KEY_END:
		c->denials_top = 1 << 30;
		break;
	default:
		return;
	}
	c->full = true;
	server_redraw(c->srv, true);
}

/* ---- prompts ---- */

static struct pane *first_pending(struct server *s, int after)
{
	struct pane *first = NULL;
	for (struct window *w = s->windows; w != NULL; w = w->next)
		for (struct pane *p = w->panes; p != NULL; p = p->next) {
			if (!esc_pending(p->esc))
				continue;
			if (p->id > after)
				return p;
			if (first == NULL)
				first = p;
		}
	return first;
}

void escalate_next_prompt(struct client *c)
{
	struct server *s = c->srv;
	struct pane *act = s->cur != NULL ? s->cur->active : NULL;
	struct pane *p =
		c->answer_pane == 0 && act != NULL && esc_pending(act->esc) ? act : first_pending(s, c->answer_pane);
	if (p == NULL) {
		c->answer_pane = 0;
		client_message(c, "no sandbox prompt is pending");
		return;
	}
	if (s->cur != p->win)
		session_select(s, p->win);
	window_focus(p->win, p);
	c->answer_pane = p->id;
	c->denials_on = false;
	server_redraw(s, true);
}

/* "re-run: touch /x/y   in /ws" as the prompt says it: the pane's own
 * command, or the command line a shell pane was running at the denial. */
static void what_runs(const struct pane *p, const char *line, const char *dir, char *buf, size_t cap)
{
	const struct esc_pane *e = p->esc;
	char cmd[1024] = "", raw[1024] = "";
	size_t o = 0;
	if (e->argv != NULL)
		for (size_t i = 0; e->argv[i] != NULL && o < sizeof raw; i++)
			o += (size_t)snprintf(raw + o, sizeof raw - o, "%s%s", i ? " " : "", e->argv[i]);
	else if (line != NULL)
		snprintf(raw, sizeof raw, "%s", line);
	char resumed[1024], note[300] = "";
	const char *agent = escalate_resume(p, line, resumed, sizeof resumed);
	if (agent != NULL) {
		snprintf(note, sizeof note, "   (restarts %s with%s, resuming its conversation)", agent,
			 resumed + strcspn(resumed, " "));
		snprintf(raw, sizeof raw, "%s", resumed);
	}
	ui_safe_text(cmd, sizeof cmd, raw);
	const char *cwd = e->argv == NULL && dir != NULL ? dir : e->cwd != NULL ? e->cwd : p->srv->workspace;
	char where[1024];
	ui_safe_text(where, sizeof where, cwd);
	if (cmd[0])
		snprintf(buf, cap, "re-run: %s   in %s%s", cmd, where, note);
	else
		snprintf(buf, cap, "restart: the pane's shell (no command line reported)   in %s", where);
}

/* What a widened grant opens besides the denied path: the sensitive
 * names right inside it ("includes ~/.ssh, ~/.bashrc"), or that it is
 * all of HOME or the whole file system. */
static void widened_note(const struct esc_prompt *q, char *buf, size_t cap)
{
	static const char *const names[] = { ".ssh",    ".gnupg",   ".aws",   ".kube",   ".docker",       ".config",
					     ".bashrc", ".profile", ".zshrc", ".zshenv", ".bash_profile", ".git" };
	const char *dir = q->d.suggest.value, *home = getenv("HOME");
	size_t o = 0;
	buf[0] = '\0';
	if (q->level == 0)
		return;
	o += (size_t)snprintf(buf, cap, "   (widened %d level%s", q->level, q->level > 1 ? "s" : "");
	if (strcmp(dir, "/") == 0)
		o += (size_t)snprintf(buf + o, cap - o, ": the whole file system");
	else if (home != NULL && strcmp(dir, home) == 0)
		o += (size_t)snprintf(buf + o, cap - o, ": all of your home");
	int shown = 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0] && o < cap && shown < 4; i++) {
		char path[4200];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, names[i]);
		if (lstat(path, &st) < 0)
			continue;
		o += (size_t)snprintf(buf + o, cap - o, "%s%s/%s", shown++ ? ", " : "; includes ", dir, names[i]);
	}
	if (o < cap)
		snprintf(buf + o, cap - o, ")");
}

static int prompt_lines(const struct pane *p, bool focused, char l[4][1200])
{
	const struct esc_prompt *q = esc_head(p->esc);
	char target[700], rule[300], val[700], more[48] = "", ended[48] = "";
	ui_safe_text(target, sizeof target, q->d.target);
	ui_safe_text(rule, sizeof rule, q->d.rule);
	ui_safe_text(val, sizeof val, q->d.suggest.value);
	if (p->esc->nq > 1)
		snprintf(more, sizeof more, " (+%zu more)", p->esc->nq - 1);
	if (q->exit_status >= 0)
		snprintf(ended, sizeof ended, " (the command exited %d)", q->exit_status);
	bool held = strcmp(q->d.op, "connect") == 0 && escalate_net_held(p);
	char by[400] = "", proc[300];
	if (q->proc != NULL) { /* an agent's tool call: which process asked */
		ui_safe_text(proc, sizeof proc, q->proc);
		snprintf(by, sizeof by, " by %s (pid %d)", proc, (int)q->d.pid);
	}
	if (snprintf(l[0], 1200, " sandbox: pane %d%s%s: denied %s %s (%s)%s", p->id, ended, more, q->d.op, target,
		     rule, by) >= 1200)
		snprintf(l[0], 1200, " sandbox: pane %d%s%s: denied %s %s (%s)", p->id, ended, more, q->d.op, target,
			 rule);
	char note[700], safe_note[700];
	widened_note(q, note, sizeof note);
	ui_safe_text(safe_note, sizeof safe_note, note);
	if (snprintf(l[1], 1200, " allow: %s += %s%s", q->d.suggest.key, val, safe_note) >= 1200)
		snprintf(l[1], 1200, " allow: %s += %s", q->d.suggest.key, val); /* the path whole, the note dropped */
	if (held)
		snprintf(
			l[2], 1200,
			" the connection is held: approved, it proceeds for this run (no restart); refused, it fails now");
	else {
		what_runs(p, q->cmd, q->cwd, l[2] + 1, 1199);
		l[2][0] = ' ';
	}
	snprintf(
		l[3], 1200, "%s",
		focused ? " o once · s session · a always (~/.sandmux/sandbox.json) · r always (repo .sandmux/sandbox.json) · d deny · x dismiss · + wider · - narrower · Esc later · n next"
			: " prefix a: answer this prompt");
	return 4;
}

/* Only the prompt this client opened covers its pane: a pending one is
 * the title's "prompt!" until then, so it hides nothing a program shows. */
void escalate_draw_prompts(struct client *c, struct window *w)
{
	for (struct pane *p = w->panes; p != NULL; p = p->next) {
		if (!esc_pending(p->esc) || (w->zoomed && p != w->active) || c->answer_pane != p->id)
			continue;
		char l[4][1200];
		int n = prompt_lines(p, c->answer_pane == p->id, l);
		const char *lines[4] = { l[0], l[1], l[2], l[3] };
		ui_draw_prompt(c->ui, p->x, p->y, p->w, p->h, lines, n, c->answer_pane == p->id);
	}
}

static const char *scope_name(enum esc_scope s)
{
	static const char *const names[] = {
		"once", "for this pane", "always", "always (repo)", "denied", "dismissed"
	};
	return names[s];
}

/* always: the file first; a failure leaves the prompt where it was. */
static int write_always(struct client *c, struct pane *p, enum esc_scope scope)
{
	char path[4200], err[600];
	const char *home = getenv("HOME");
	if (scope == ESC_ALWAYS_USER)
		snprintf(path, sizeof path, "%s/.sandmux/sandbox.json", home != NULL ? home : "");
	else
		snprintf(path, sizeof path, "%s/.sandmux/sandbox.json", c->srv->workspace);
	if (approve_always(path, &esc_head(p->esc)->d.suggest, err, sizeof err) < 0) {
		client_message(c, "always: %s", err);
		return -1;
	}
	server_log(c->srv, "pane %d: always: %s += %s in %s", p->id, esc_head(p->esc)->d.suggest.key,
		   esc_head(p->esc)->d.suggest.value, path);
	return 0;
}

static void answer(struct client *c, struct pane *p, enum esc_scope scope)
{
	struct esc_pane *e = p->esc;
	bool shell = e->argv == NULL;
	if (scope == ESC_ONCE && shell && esc_head(e)->cmd == NULL) {
		client_message(c,
			       "once: no command line to re-run here (no shell integration); s keeps it for the pane");
		return;
	}
	if ((scope == ESC_ALWAYS_USER || scope == ESC_ALWAYS_REPO) && write_always(c, p, scope) < 0)
		return;
	/* a held connection proceeds (or fails) in place: no restart */
	bool in_place = strcmp(esc_head(e)->d.op, "connect") == 0 && escalate_net_held(p);
	struct suggestion s;
	if (esc_answer(e, scope, &s) < 0)
		return;
	server_log(c->srv, "pane %d: %s: %s", p->id, scope_name(scope), s.key != NULL ? s.value : "");
	if (in_place) {
		e->once_on = false; /* once: this run only, which goes on */
		escalate_net_answer(p, s.key != NULL ? &s : NULL);
	} else if (s.key != NULL) {
		char run[1300], line[3000], val[700], err[700];
		if (escalate_grant_make(&s, err, sizeof err) < 0) {
			client_message(c, "allow: %s", err);
			server_log(c->srv, "pane %d: allow: %s", p->id, err);
		}
		what_runs(p, e->rerun_cmd, e->rerun_cwd, run, sizeof run);
		ui_safe_text(val, sizeof val, s.value);
		snprintf(line, sizeof line, "\r\n\033[1m[sandmux: allowed %s %s (%s); %s]\033[m\r\n", s.key, val,
			 scope_name(scope), run);
		vt_write(p->vt, line, strlen(line));
		e->rerun = shell && e->rerun_cmd != NULL;
		char resumed[1024];
		if (e->rerun && escalate_resume(p, e->rerun_cmd, resumed, sizeof resumed) != NULL) {
			free(e->rerun_cmd); /* the agent typed in the shell, resumed */
			e->rerun_cmd = strdup(resumed);
		}
		escalate_restart(p);
	}
	if (!esc_pending(p->esc))
		c->answer_pane = 0;
	server_redraw(c->srv, true);
}

static bool prompt_key(struct client *c, const struct key *k)
{
	struct pane *p = pane_find(c->srv, c->answer_pane);
	if (p == NULL || !esc_pending(p->esc)) {
		c->answer_pane = 0;
		return false;
	}
	switch (k->code) {
	case 'o':
		answer(c, p, ESC_ONCE);
		break;
	case 's':
		answer(c, p, ESC_SESSION);
		break;
	case 'a':
		answer(c, p, ESC_ALWAYS_USER);
		break;
	case 'r':
		answer(c, p, ESC_ALWAYS_REPO);
		break;
	case 'd':
		answer(c, p, ESC_DENY);
		break;
	case 'x':
		answer(c, p, ESC_DISMISS);
		break;
	case '+':
	case '-':
		if (esc_widen(p->esc, k->code == '+' ? 1 : -1) >= 0)
			server_redraw(c->srv, true);
		break;
	case 'n':
		if (esc_turn(p->esc)) /* this pane's next prompt first, then the next pane's */
			server_redraw(c->srv, true);
		else
			escalate_next_prompt(c);
		break;
	case VT_KEY_ESCAPE:
	case 'q':
		c->answer_pane = 0;
		server_redraw(c->srv, true);
		break;
	default:
		break; /* taken, so it cannot reach the program by surprise */
	}
	return true;
}

bool escalate_key(struct client *c, const struct key *k)
{
	if (k->kind != KEY_PLAIN) /* mouse reports and unknown sequences: never an answer */
		return c->denials_on || c->answer_pane != 0;
	if (c->denials_on) {
		denials_key(c, k);
		return true;
	}
	if (c->answer_pane != 0 && k->mods == 0)
		return prompt_key(c, k);
	return false;
}
