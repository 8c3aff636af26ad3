/* escalate-view: what a person sees and types for escalation — the
 * denials pane (prefix D) and the prompts over their panes (prefix a
 * opens the next pending one, across all panes and windows; until then
 * a pending prompt is only "prompt!" in its pane's title).
 *
 * An open prompt is a client mode (mode_sandbox, mode.h): it takes the
 * plain keys and lets keys with modifiers on to the bindings and the
 * pane. Only its key() answers a prompt from a key, and bindings_key()
 * calls it only for keys an attached client typed: no program output
 * reaches it. A prompt takes keys only after prefix a, so a prompt that
 * appears while someone types into their program cannot catch a stray
 * 'o' or 's'. */
#include "shell/escalate.h"
#include "shell/escalate-queue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backends/loop.h"
#include "backends/run.h"
#include "pty/vt.h"
#include "shell/approve.h"
#include "shell/mode.h"
#include "shell/mux.h"
#include "shell/request.h"
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

static void denials_draw(struct client *c)
{
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
	size_t dropped = 0;
	for (struct window *w = c->srv->windows; w != NULL; w = w->next)
		for (struct pane *p = w->panes; p != NULL; p = p->next)
			if (p->esc != NULL && (c->denials_filter == 0 || p->id == c->denials_filter))
				dropped += p->esc->dropped;
	char stale[64] = "";
	if (dropped > 0)
		snprintf(stale, sizeof stale, " · %zu stale prompt%s dropped", dropped, dropped > 1 ? "s" : "");
	snprintf(title, sizeof title,
		 " sandmux denials: %zu (%s)%s, newest first · f: filter by pane · Up/Down PgUp/PgDn: scroll · "
		 "c: captured changes · q: close",
		 n, filter, stale);
	ui_draw_denials(c->ui, rows, ui_cols(c->ui), title, (const struct denial *const *)v, n, (size_t)c->denials_top);
	free(v);
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

static int active_pane_id(const struct client *c)
{
	return c->srv->cur != NULL && c->srv->cur->active != NULL ? c->srv->cur->active->id : 0;
}

/* Every key is the pane's: q or Escape closes it; no key answers anything. */
static bool denials_key(struct client *c, const struct key *k)
{
	int page = ui_rows(c->ui) > 3 ? ui_rows(c->ui) - 3 : 1;
	if (k->kind != KEY_PLAIN)
		return true;
	switch (k->code) {
	case 'q':
	case VT_KEY_ESCAPE:
		mode_leave(c);
		return true;
	case 'f':
		next_filter(c);
		break;
	case 'c': /* the filtered pane's capture layer, or the active pane's */
		captured_view_open(c, c->denials_filter > 0 ? c->denials_filter : active_pane_id(c));
		return true;
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
		return true;
	}
	c->full = true;
	server_redraw(c->srv, true);
	return true;
}

const struct client_mode mode_denials = { .name = "denials", .draw = denials_draw, .key = denials_key };

void escalate_toggle_denials(struct client *c)
{
	if (c->mode == &mode_denials) {
		mode_leave(c);
		return;
	}
	mode_enter(c, &mode_denials);
	c->denials_top = 0;
}

/* ---- prompts ---- */

/* The next pane with a prompt after the pane `after` (0: from the
 * first), in the order windows and their panes are listed, round to
 * `after` itself. Pane ids are no guide: a pane split off in the first
 * window after the second window was made has the larger id. */
static struct pane *first_pending(struct server *s, int after)
{
	struct pane *first = NULL;
	bool past = after == 0;
	for (struct window *w = s->windows; w != NULL; w = w->next)
		for (struct pane *p = w->panes; p != NULL; p = p->next) {
			if (esc_pending(p->esc) && past)
				return p;
			if (esc_pending(p->esc) && first == NULL)
				first = p;
			past |= p->id == after;
		}
	return first;
}

/* The open prompt moves to the next pane (the active one first), or the
 * mode_sandbox opens on it (leaving the denials pane). */
void escalate_next_prompt(struct client *c)
{
	struct server *s = c->srv;
	struct pane *act = s->cur != NULL ? s->cur->active : NULL;
	struct pane *p =
		c->sandbox_pane == 0 && act != NULL && esc_pending(act->esc) ? act : first_pending(s, c->sandbox_pane);
	if (p == NULL) {
		mode_end(c, &mode_sandbox);
		client_message(c, "no sandbox prompt is pending");
		return;
	}
	if (s->cur != p->win)
		session_select(s, p->win);
	window_focus(p->win, p);
	if (c->mode != &mode_sandbox)
		mode_enter(c, &mode_sandbox);
	c->sandbox_pane = p->id;
	server_redraw(s, true);
}

/* One argument of the pane's own command, quoted as a shell would need
 * it when it is not a plain word, so that "a b" and a b read apart. */
static void put_arg(FILE *f, const char *arg, bool space)
{
	if (space)
		fputc(' ', f);
	if (arg[0] != 0 &&
	    strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-") == strlen(arg)) {
		fputs(arg, f);
		return;
	}
	fputc('\'', f);
	for (const char *p = arg; *p; p++)
		*p == '\'' ? fputs("'\"'\"'", f) : fputc(*p, f); /* no backslash: the display doubles it */
	fputc('\'', f);
}

/* "re-run: touch /x/y   in /ws" as the prompt says it: the pane's own
 * command, or the command line a shell pane was running at the denial,
 * every byte shown (ui_exact_text). malloc'ed, or NULL. */
static char *what_runs(const struct pane *p, const char *line, const char *dir)
{
	const struct esc_pane *e = p->esc;
	char *raw = NULL, *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&raw, &len);
	if (f == NULL)
		return NULL;
	char resumed[1024], note[300] = "";
	const char *agent = escalate_resume(p, line, resumed, sizeof resumed);
	if (agent != NULL) /* an agent restarts resuming its conversation */
		fputs(resumed, f);
	else if (e->argv != NULL)
		for (size_t i = 0; e->argv[i] != NULL; i++)
			put_arg(f, e->argv[i], i > 0);
	else if (line != NULL)
		fputs(line, f);
	fclose(f);
	if (agent != NULL)
		snprintf(note, sizeof note, "   (restarts %s with%s, resuming its conversation)", agent,
			 resumed + strcspn(resumed, " "));
	const char *cwd = e->argv == NULL && dir != NULL ? dir : e->cwd != NULL ? e->cwd : p->srv->workspace;
	char *cmd = ui_exact_text(raw), *where = ui_exact_text(cwd);
	if (cmd != NULL && where != NULL &&
	    asprintf(&out,
		     cmd[0] ? "re-run: %s   in %s%s"
			    : "restart: the pane's shell (no command line reported)%s   in %s%s",
		     cmd, where, note) < 0)
		out = NULL;
	free(raw);
	free(cmd);
	free(where);
	return out;
}

/* A prompt as it is drawn, and what it can offer in its pane: a grant
 * is offered only when what it allows is shown whole, a re-run only when
 * the command line is too. */
struct prompt_view {
	char *l[4]; /* the denial, the grant, what re-runs, the keys */
	bool rerun; /* o (once) is offered; s, a, r re-run the command */
	bool grant; /* o, s, a, r are offered */
};

static const char keys_all[] =
	" o once · s session · a always (~/.sandmux/sandbox.json) · r always (repo "
	".sandmux/sandbox.json) · d deny · x dismiss · + wider · - narrower · Esc later · n next";
static const char keys_norun[] =
	" s session · a always (~/.sandmux/sandbox.json) · r always (repo "
	".sandmux/sandbox.json), without a re-run · d deny · x dismiss · + wider · - narrower · "
	"Esc later · n next";
static const char keys_none[] = " d deny · x dismiss · Esc later · n next · the pane is too small to show what "
				" would be allowed: zoom it (prefix z) to answer";

/* A denial of a request's command (denial-sink.c): nothing restarts. */
static const char by_request_note[] =
	"denied in a request's command: nothing re-runs or restarts; o: for this pane's next request only · "
	"s, a, r: for its later requests, and its own command from its next start";

static char *exact_or_empty(const char *text)
{
	char *t = ui_exact_text(text);
	return t != NULL ? t : strdup("");
}

static int rows_of(char *const *l, int from, int w)
{
	int n = 0;
	for (int i = from; i < 4; i++)
		n += l[i] != NULL ? ui_prompt_rows(l[i], w) : 1;
	return n;
}

/* What a widened grant opens besides the denied path: the sensitive
 * names right inside it ("includes ~/.ssh, ~/.bashrc"), or that it is
 * all of HOME or the whole file system. */
static void widened_note(const struct esc_prompt *q, const char *home, char *buf, size_t cap)
{
	static const char *const names[] = { ".ssh",    ".gnupg",   ".aws",   ".kube",   ".docker",       ".config",
					     ".bashrc", ".profile", ".zshrc", ".zshenv", ".bash_profile", ".git" };
	const char *dir = q->d.suggest.value;
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

static void prompt_view(const struct pane *p, struct prompt_view *v)
{
	const struct esc_prompt *q = esc_head(p->esc);
	if (q->req != NULL) { /* `sandmux request` (shell/request.c) */
		memset(v, 0, sizeof *v);
		v->grant = v->rerun = request_prompt_lines(p, q, v->l);
		return;
	}
	char *target = exact_or_empty(q->d.target), *rule = exact_or_empty(q->d.rule);
	char *val = exact_or_empty(q->d.suggest.value);
	char more[48] = "", ended[48] = "";
	if (p->esc->nq > 1)
		snprintf(more, sizeof more, " (+%zu more)", p->esc->nq - 1);
	if (q->exit_status >= 0)
		snprintf(ended, sizeof ended, " (the command exited %d)", q->exit_status);
	memset(v, 0, sizeof *v);
	/* an agent's tool call: which process asked, and its command line */
	char *proc = q->proc != NULL ? exact_or_empty(q->proc) : NULL, by[64] = "", note[700];
	if (proc != NULL)
		snprintf(by, sizeof by, " (pid %d)", (int)q->d.pid);
	if (asprintf(&v->l[0], " sandbox: pane %d%s%s: denied %s %s (%s)%s%s%s", p->id, ended, more, q->d.op, target,
		     rule, proc != NULL ? " by " : "", proc != NULL ? proc : "", by) < 0)
		v->l[0] = NULL;
	widened_note(q, p->srv->home, note, sizeof note);
	if (asprintf(&v->l[1], " allow: %s += %s%s", suggest_key(q->d.suggest.kind), val, note) < 0)
		v->l[1] = NULL;
	free(target);
	free(rule);
	free(val);
	free(proc);
	bool held = !q->by_request && strcmp(q->d.op, "connect") == 0 && escalate_net_held(p);
	char *run = held ? NULL : q->by_request ? strdup(by_request_note) : what_runs(p, q->cmd, q->cwd);
	int left = held ? run_held_left_ms(p->run) : -1;
	if ((!held && run == NULL) ||
	    (held && asprintf(&v->l[2],
			      " the connection is held (refused in %ds): approved, it proceeds for this run (no "
			      "restart); refused, it fails now",
			      (left + 999) / 1000) < 0) ||
	    (!held && asprintf(&v->l[2], " %s", run) < 0))
		v->l[2] = NULL;
	free(run);
	v->l[3] = strdup(keys_all);
	int room = p->h - 1; /* the title line stays */
	/* a held connection re-runs nothing: only its grant must show whole */
	v->rerun = v->l[2] != NULL && (held || rows_of(v->l, 1, p->w) <= room);
	if (!v->rerun) {
		free(v->l[2]);
		free(v->l[3]);
		v->l[2] = strdup(" re-run: not offered: the command line is longer than this pane can show whole (zoom "
				 "it: prefix z); a grant restarts the shell without it");
		v->l[3] = strdup(keys_norun);
	}
	v->grant = v->l[1] != NULL && rows_of(v->l, 1, p->w) <= room;
	if (!v->grant) {
		free(v->l[3]);
		v->l[3] = strdup(keys_none);
	}
}

static void prompt_view_free(struct prompt_view *v)
{
	for (int i = 0; i < 4; i++)
		free(v->l[i]);
}

/* The one-line bar over the active pane's last row while a prompt waits
 * there and nobody answers it yet: what was denied and the key that opens
 * the prompt. Typing still reaches the pane. */
static void prompt_bar(struct client *c, const struct pane *p)
{
	const struct esc_prompt *q = esc_head(p->esc);
	char *target = ui_exact_text(q->d.target != NULL ? q->d.target : ""), *comm = ui_exact_text(q->d.comm);
	char key[32], more[48] = "", held[48] = "", line[600];
	keys_name(&c->srv->cfg.prefix, key, sizeof key);
	if (p->esc->nq > 1)
		snprintf(more, sizeof more, " (+%zu more)", p->esc->nq - 1);
	int left = strcmp(q->d.op, "connect") == 0 ? run_held_left_ms(p->run) : -1;
	if (left >= 0)
		snprintf(held, sizeof held, ", held, refused in %ds", (left + 999) / 1000);
	snprintf(line, sizeof line, " sandbox prompt: %s %s by %s%s%s · %s a to answer", q->d.op,
		 target != NULL ? target : "?", comm != NULL && comm[0] ? comm : "?", more, held, key);
	free(target);
	free(comm);
	ui_text(c->ui, p->y + p->h - 1, p->x, p->w, line, UI_ALERT);
}

/* Only the prompt this client opened covers its pane; until then a
 * pending one is the title's "prompt!" and, in the active pane, a one-line
 * bar, so it hides no more than one row of what a program shows. */
void escalate_draw_prompts(struct client *c, struct window *w)
{
	for (struct pane *p = w->panes; p != NULL; p = p->next) {
		if (!esc_pending(p->esc) || (w->zoomed && p != w->active))
			continue;
		if (c->sandbox_pane != p->id) {
			if (p == w->active && p->h > 2)
				prompt_bar(c, p);
			continue;
		}
		struct prompt_view v;
		prompt_view(p, &v);
		const char *lines[4];
		for (int i = 0; i < 4; i++)
			lines[i] = v.l[i] != NULL ? v.l[i] : "";
		ui_draw_prompt(c->ui, p->x, p->y, p->w, p->h, lines, 4, true);
		prompt_view_free(&v);
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
	char err[600];
	const char *root = scope == ESC_ALWAYS_USER ? c->srv->home : c->srv->workspace;
	if (approve_always(root, APPROVE_FILE, &esc_head(p->esc)->d.suggest, err, sizeof err) < 0) {
		client_message(c, "always: %s", err);
		return -1;
	}
	server_log(c->srv, "pane %d: always: %s += %s in %s/%s", p->id, suggest_key(esc_head(p->esc)->d.suggest.kind),
		   esc_head(p->esc)->d.suggest.value, root, APPROVE_FILE);
	return 0;
}

/* What a prompt the person cannot see whole must not be answered with. */
static bool answer_shown(struct client *c, struct pane *p, enum esc_scope scope, bool *rerun)
{
	struct prompt_view v;
	prompt_view(p, &v);
	*rerun = v.rerun;
	prompt_view_free(&v);
	bool grants = scope == ESC_ONCE || scope == ESC_SESSION || scope == ESC_ALWAYS_USER || scope == ESC_ALWAYS_REPO;
	if (grants && !v.grant) {
		client_message(c, "the pane is too small to show the whole prompt: zoom it (prefix z) to answer");
		return false;
	}
	if (scope == ESC_ONCE && !v.rerun) {
		client_message(c, "once: the command line does not fit in this pane: zoom it (prefix z), or s, a, r "
				  "grant without a re-run");
		return false;
	}
	return true;
}

/* The line the pane shows after a grant, and the restart. */
static void grant_restart(struct client *c, struct pane *p, const struct suggestion *s, enum esc_scope scope,
			  bool rerun)
{
	struct esc_pane *e = p->esc;
	bool shell = e->argv == NULL;
	char err[700];
	if (escalate_grant_make(s, err, sizeof err) < 0) { /* the exact path, made now so Landlock can grant it */
		client_message(c, "allow: %s", err);
		server_log(p->srv, "pane %d: allow: %s", p->id, err);
	}
	if (!rerun && shell) {
		free(e->rerun_cmd); /* the shell comes back; nothing unseen re-runs */
		e->rerun_cmd = NULL;
	}
	char *run = rerun ? what_runs(p, e->rerun_cmd, e->rerun_cwd) : NULL, *val = exact_or_empty(s->value);
	char *line = NULL;
	if (asprintf(&line, "\r\n\033[1m[sandmux: allowed %s %s (%s); %s]\033[m\r\n", suggest_key(s->kind), val,
		     scope_name(scope),
		     run != NULL ? run
		     : rerun     ? "re-run"
		     : shell     ? "the shell restarts without re-running the command line"
				 : "no restart: it applies from the command's next start") >= 0) {
		vt_write(p->vt, line, strlen(line));
		free(line);
	}
	free(run);
	free(val);
	if (!rerun && !shell)
		return;
	e->rerun = shell && e->rerun_cmd != NULL;
	char resumed[1024];
	if (e->rerun && escalate_resume(p, e->rerun_cmd, resumed, sizeof resumed) != NULL) {
		free(e->rerun_cmd); /* the agent typed in the shell, resumed */
		e->rerun_cmd = strdup(resumed);
	}
	escalate_restart(p);
}

/* A grant from a request's command's denial: made, said, and kept for
 * later (esc_answer); nothing of the pane restarts. */
static void grant_quiet(struct client *c, struct pane *p, const struct suggestion *s, enum esc_scope scope)
{
	char err[700];
	if (escalate_grant_make(s, err, sizeof err) < 0) {
		client_message(c, "allow: %s", err);
		server_log(p->srv, "pane %d: allow: %s", p->id, err);
		return;
	}
	client_message(c, "allowed %s %s (%s): %s; nothing restarts", suggest_key(s->kind), s->value, scope_name(scope),
		       scope == ESC_ONCE ? "for this pane's next request" : "for the pane's later requests");
}

static void answer_denial(struct client *c, struct pane *p, enum esc_scope scope)
{
	struct esc_pane *e = p->esc;
	bool shell = e->argv == NULL, rerun;
	if (!answer_shown(c, p, scope, &rerun))
		return;
	bool by_request = esc_head(e)->by_request;
	if (scope == ESC_ONCE && shell && esc_head(e)->cmd == NULL && !by_request) {
		client_message(c,
			       "once: no command line to re-run here (no shell integration); s keeps it for the pane");
		return;
	}
	if ((scope == ESC_ALWAYS_USER || scope == ESC_ALWAYS_REPO) && write_always(c, p, scope) < 0)
		return;
	/* a held connection proceeds (or fails) in place: no restart */
	bool in_place = !by_request && strcmp(esc_head(e)->d.op, "connect") == 0 && escalate_net_held(p);
	struct suggestion s;
	unsigned seq = esc_head(e)->seq;
	if (esc_answer(e, scope, &s) < 0)
		return;
	server_log(c->srv, "pane %d: %s: %s", p->id, scope_name(scope), s.kind != SUGGEST_NONE ? s.value : "");
	control_answer_event(c->srv, p, seq, esc_scope_key(scope), s.kind != SUGGEST_NONE ? &s : NULL);
	if (in_place) {
		esc_once_drop(&e->once); /* once: this run only, which goes on */
		escalate_net_answer(p, s.kind != SUGGEST_NONE ? &s : NULL);
	} else if (s.kind != SUGGEST_NONE && by_request)
		grant_quiet(c, p, &s, scope);
	else if (s.kind != SUGGEST_NONE)
		grant_restart(c, p, &s, scope, rerun);
	server_redraw(c->srv, true);
}

/* A denial's prompt or a `sandmux request`'s (shell/request.c); the open
 * prompt closes with the pane's last. */
static void answer(struct client *c, struct pane *p, enum esc_scope scope)
{
	if (esc_head(p->esc)->req != NULL)
		request_answer(c, p, scope);
	else
		answer_denial(c, p, scope);
	if (!esc_pending(p->esc))
		mode_end(c, &mode_sandbox);
}

int escalate_answer(struct client *c, struct pane *p, enum esc_scope scope, char *err, size_t errlen)
{
	unsigned seq = esc_head(p->esc)->seq;
	c->message[0] = 0;
	answer(c, p, scope);
	const struct esc_prompt *h = esc_head(p->esc);
	if (h != NULL && h->seq == seq) { /* answer() said why in the message */
		snprintf(err, errlen, "%s", c->message[0] ? c->message : "not answered");
		return -1;
	}
	return 0;
}

/* The plain keys answer; mouse reports never reach a mode and other
 * sequences are no answer, but taken; keys with modifiers go on (C-c to
 * the program, the prefix). A prompt answered elsewhere, or whose pane is
 * gone, closes at the next key, which goes on. */
static bool sandbox_key(struct client *c, const struct key *k)
{
	if (k->kind != KEY_PLAIN)
		return true;
	if (k->mods != 0)
		return false;
	struct pane *p = pane_find(c->srv, c->sandbox_pane);
	if (p == NULL || !esc_pending(p->esc)) {
		mode_leave(c);
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
		mode_leave(c);
		break;
	default:
		break; /* taken, so it cannot reach the program by surprise */
	}
	return true;
}

static void sandbox_exit(struct client *c)
{
	c->sandbox_pane = 0;
}

/* Drawn over its pane (escalate_draw_prompts()), not the whole screen or
 * the status line. */
const struct client_mode mode_sandbox = {
	.name = "sandbox prompt", .key = sandbox_key, .exit = sandbox_exit, .under = true
};
