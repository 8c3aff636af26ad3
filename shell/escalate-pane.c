/* escalate-pane: the multiplexer side of escalation for one pane.
 *
 * Every sandboxed pane starts with the observer on; its denials (and the
 * proxy's) are counted in the title, logged to
 * ~/.sandmux/state/denials.jsonl, kept for the denials pane, and queued
 * as prompts (escalate.c). An answer (escalate-view.c, a keypress only)
 * restarts the pane: its own command, or in a shell pane the last command
 * line the shell integration reported, in its cwd, as `$SHELL -c LINE`;
 * when that re-run ends, the pane's shell comes back in that directory
 * under the pane's policy without the once grant. */
#include "shell/escalate.h"
#include "shell/escalate-queue.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/launch.h"
#include "backends/observer.h"
#include "backends/proxy.h"
#include "pty/vt.h"
#include "shell/integration.h"
#include "shell/mux.h"

/* The session's events, made at the first pane that needs them. */
struct esc_server {
	struct events ev;
	char home[4096];      /* "" without an absolute $HOME */
	char integ_dir[4200]; /* HOME/.sandmux/state/shell */
	int integ;            /* 0 not tried, 1 written, -1 failed */
};

/* What one launch runs, kept until launch_start() has copied it. */
struct esc_spawn {
	struct integration integ;
	char *argv[4];
	char **env;
	char user_zdotdir[4200];
};

static struct esc_server *esc_server(struct server *s)
{
	if (s->esc != NULL)
		return s->esc;
	struct esc_server *es = calloc(1, sizeof *es);
	if (es == NULL)
		return NULL;
	const char *home = getenv("HOME");
	char *log = home != NULL && home[0] == '/' ? events_log_path(home) : NULL;
	if (events_init(&es->ev, log) < 0) {
		free(log);
		free(es);
		return NULL;
	}
	free(log);
	if (home != NULL && home[0] == '/' && strlen(home) < sizeof es->home) {
		snprintf(es->home, sizeof es->home, "%s", home);
		snprintf(es->integ_dir, sizeof es->integ_dir, "%s/.sandmux/state/shell", home);
	}
	s->esc = es;
	return es;
}

void escalate_server_free(struct server *s)
{
	if (s->esc == NULL)
		return;
	events_free(&s->esc->ev);
	free(s->esc);
	s->esc = NULL;
}

const struct denials *escalate_denials(struct server *s)
{
	struct esc_server *es = esc_server(s);
	return es != NULL ? &es->ev.list : NULL;
}

/* The scripts live under ~/.sandmux/state/, which every sandbox sees
 * read-only: nothing in a pane can change what the next shell sources. */
static const char *integration_dir(struct server *s)
{
	struct esc_server *es = esc_server(s);
	if (es == NULL || es->integ_dir[0] == 0)
		return NULL;
	if (es->integ == 0) {
		char dir[4200];
		snprintf(dir, sizeof dir, "%s/.sandmux", es->home);
		mkdir(dir, 0700);
		snprintf(dir, sizeof dir, "%s/.sandmux/state", es->home);
		mkdir(dir, 0700);
		es->integ = integration_write(es->integ_dir) == 0 ? 1 : -1;
		if (es->integ < 0)
			server_log(s, "shell integration: cannot write %s", es->integ_dir);
	}
	return es->integ > 0 ? es->integ_dir : NULL;
}

static char **strv_dup(char *const *v)
{
	size_t n = 0;
	while (v[n] != NULL)
		n++;
	char **out = calloc(n + 1, sizeof *out);
	for (size_t i = 0; out != NULL && i < n; i++)
		out[i] = strdup(v[i]);
	return out;
}

static void strv_free(char **v)
{
	for (size_t i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

static void set_str(char **dst, char *val)
{
	free(*dst);
	*dst = val;
}

/* The command ended badly after denials: the prompt still open says so,
 * or the latest denial's prompt is offered again. */
static void reoffer(struct pane *p, int status)
{
	struct esc_pane *e = p->esc;
	const struct denials *l = escalate_denials(p->srv);
	if (e->denials_run == 0 || l == NULL)
		return;
	if (esc_pending(e)) {
		if (e->q[0].exit_status < 0)
			e->q[0].exit_status = status;
		server_redraw(p->srv, true);
		return;
	}
	for (size_t i = l->n; i-- > 0;)
		if (l->v[i].pane == p->id && esc_offer(e, &l->v[i], status) == 1) {
			server_redraw(p->srv, true);
			return;
		}
}

/* OSC 133 (boundaries), 633;E (the command line), 7 (the cwd) from the
 * shell in a pane. They only say what a re-run would run; the prompt
 * shows it and a person decides. */
static void on_osc(int command, const char *arg, size_t len, void *data)
{
	struct pane *p = data;
	struct esc_pane *e = p->esc;
	if (command == 633 && len >= 2 && arg[0] == 'E' && arg[1] == ';')
		set_str(&e->last_cmd, strndup(arg + 2, len - 2));
	else if (command == 7) {
		char *cwd = esc_osc7_path(arg, len);
		if (cwd != NULL)
			set_str(&e->last_cwd, cwd);
	} else if (command == 133 && len >= 1 && arg[0] == 'C')
		e->denials_run = 0;
	else if (command == 133 && len >= 3 && arg[0] == 'D' && arg[1] == ';' && atoi(arg + 2) != 0)
		reoffer(p, atoi(arg + 2));
}

void escalate_pane_init(struct pane *p, const struct pane_spec *spec)
{
	struct esc_pane *e = calloc(1, sizeof *e);
	if (e == NULL)
		return;
	p->esc = e;
	if (spec->argv != NULL && spec->argv[0] != NULL)
		e->argv = strv_dup(spec->argv);
	if (spec->cwd != NULL)
		e->cwd = strdup(spec->cwd);
	if (e->argv == NULL) {
		p->osc_hook = on_osc;
		p->osc_hook_data = p;
	}
}

static void spawn_free(struct esc_pane *e)
{
	if (e->spawn == NULL)
		return;
	strv_free(e->spawn->env);
	free(e->spawn);
	e->spawn = NULL;
}

static void observer_stop(struct esc_pane *e)
{
	observer_free(e->obs);
	policy_free(e->obs_policy);
	e->obs = NULL;
	e->obs_policy = NULL;
}

void escalate_pane_free(struct pane *p)
{
	struct esc_pane *e = p->esc;
	if (e == NULL)
		return;
	observer_stop(e);
	spawn_free(e);
	esc_pane_clear(e);
	strv_free(e->argv);
	free(e->cwd);
	free(e->last_cmd);
	free(e->last_cwd);
	free(e);
	p->esc = NULL;
}

static const char *user_shell(void)
{
	const char *sh = getenv("SHELL");
	return sh != NULL && sh[0] != 0 ? sh : "/bin/sh";
}

/* extra (the proxy's variables) plus the shell integration's. */
static char **merge_env(char *const *extra, const struct esc_spawn *sp)
{
	size_t n = 0;
	while (extra != NULL && extra[n] != NULL)
		n++;
	char **env = calloc(n + 4, sizeof *env);
	if (env == NULL)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < n; i++)
		env[o++] = strdup(extra[i]);
	for (int i = 0; i < 2; i++)
		if (sp->integ.env[i][0])
			env[o++] = strdup(sp->integ.env[i]);
	if (sp->user_zdotdir[0])
		env[o++] = strdup(sp->user_zdotdir);
	return env;
}

/* A shell pane: a re-run as `$SHELL -c LINE`, or the shell with its
 * integration (bash --rcfile, zsh ZDOTDIR). */
static void shell_argv(struct pane *p, struct esc_spawn *sp, struct launch *l)
{
	struct esc_pane *e = p->esc;
	const char *sh = user_shell();
	if (e->rerun_cwd != NULL)
		l->cwd = e->rerun_cwd;
	if (e->rerun && e->rerun_cmd != NULL) {
		sp->argv[0] = (char *)sh;
		sp->argv[1] = "-c";
		sp->argv[2] = e->rerun_cmd;
		l->argv = sp->argv;
		return;
	}
	const char *dir = integration_dir(p->srv);
	if (dir == NULL || integration_prepare(dir, sh, &sp->integ) < 0 || sp->integ.kind == INTEGRATION_NONE)
		return;
	if (sp->integ.kind == INTEGRATION_ZSH && getenv("ZDOTDIR") != NULL)
		snprintf(sp->user_zdotdir, sizeof sp->user_zdotdir, "SANDMUX_USER_ZDOTDIR=%s", getenv("ZDOTDIR"));
	l->argv = (char *const *)sp->integ.argv;
}

void escalate_spawn_begin(struct pane *p, struct policy *pol, struct launch *l, char *const *extra)
{
	struct esc_pane *e = p->esc;
	if (e == NULL)
		return;
	observer_stop(e);
	spawn_free(e);
	esc_broaden(e, pol, true);
	e->denials_run = 0;
	struct esc_spawn *sp = calloc(1, sizeof *sp);
	if (sp == NULL)
		return;
	e->spawn = sp;
	if (e->argv == NULL)
		shell_argv(p, sp, l);
	sp->env = merge_env(extra, sp);
	if (sp->env != NULL)
		l->extra_env = sp->env;
	/* The observer explains denials as they happen; Landlock decides. */
	l->want_notify = pol->sandboxed;
}

static void on_denial(struct denial *d, void *arg)
{
	struct pane *p = arg;
	struct esc_server *es = esc_server(p->srv);
	pane_read_pending(p); /* the command line and cwd the shell reported before the call */
	d->pane = p->id;
	if (es != NULL)
		events_emit(&es->ev, d);
	control_publish(p->srv, d);
	pane_add_denial(p->srv, p->id);
	p->esc->denials_run++;
	if (esc_offer(p->esc, d, -1) == 1) {
		server_log(p->srv, "pane %d: prompt: %s %s", p->id, d->op, d->target ? d->target : "");
		server_redraw(p->srv, true);
	}
}

void escalate_captured(struct pane *p, const char *path, const char *op)
{
	struct esc_server *es = esc_server(p->srv);
	struct denial d = { 0 };
	char rule[64];
	snprintf(rule, sizeof rule, "outsideWrites: capture (%s)", op);
	if (denial_set(&d, "captured", "capture", path, rule) == 0) {
		d.pane = p->id;
		if (es != NULL)
			events_emit(&es->ev, &d);
		control_publish(p->srv, &d);
	}
	denial_clear(&d);
}

void escalate_net_denial(struct pane *p, const struct net_denial *nd)
{
	struct denial d;
	if (p->esc == NULL || net_denial_event(nd, &d) < 0) {
		pane_add_denial(p->srv, p->id);
		return;
	}
	on_denial(&d, p);
	denial_clear(&d);
}

/* How long a refused connection waits for its prompt: "net_hold" of
 * sandmux.json (default 30 s; 0: never), unless $SANDMUX_NET_HOLD was set
 * when the session started (tests use it). */
static int hold_ms(const struct server *srv)
{
	const char *v = getenv("SANDMUX_NET_HOLD");
	int s = v != NULL && *v ? atoi(v) : srv->cfg.net_hold;
	return s < 0 ? 0 : s > 3600 ? 3600 * 1000 : s * 1000;
}

void escalate_spawn_end(struct pane *p, struct launch *l, struct policy **pol, bool ok)
{
	struct esc_pane *e = p->esc;
	if (e != NULL)
		spawn_free(e);
	if (ok && e != NULL && p->proxy != NULL)
		proxy_set_hold(p->proxy, hold_ms(p->srv));
	if (l->notify_fd < 0)
		return;
	int fd = l->notify_fd;
	l->notify_fd = -1;
	if (!ok || e == NULL) {
		close(fd);
		return;
	}
	const struct policy *op = *pol != NULL ? *pol : p->net_policy;
	e->obs = observer_new(p->srv->loop, op, fd, l->weak ? l->proxy_port : -1, on_denial, p);
	if (e->obs == NULL) {
		/* the command waits at its next notified call: it cannot go on */
		launch_kill(l->pid, l->weak);
		server_log(p->srv, "pane %d: observer: cannot start", p->id);
		return;
	}
	e->obs_policy = *pol;
	*pol = NULL;
}

bool escalate_net_held(const struct pane *p)
{
	return proxy_held_count(p->proxy) > 0;
}

void escalate_net_answer(struct pane *p, const struct suggestion *s)
{
	if (s != NULL && s->key != NULL && p->net_policy != NULL)
		suggest_apply(p->net_policy, s);
	size_t n = proxy_decide_held(p->proxy);
	server_log(p->srv, "pane %d: %zu held connection(s) decided again (%s)", p->id, n,
		   s != NULL && s->key ? s->value : "refused");
}

/* Starts the pane's command again (the policy is broadened in
 * escalate_spawn_begin). */
void escalate_restart(struct pane *p)
{
	struct esc_pane *e = p->esc;
	struct pane_spec spec = { .argv = e->argv, .cwd = e->cwd };
	observer_stop(e); /* before the proxy's policy it may decide by goes */
	pane_respawn(p, &spec);
}

void escalate_pane_exited(struct pane *p)
{
	struct esc_pane *e = p->esc;
	if (e == NULL)
		return;
	observer_drain(e->obs); /* the run's last denials decide its prompt */
	if (e->rerun) {
		e->rerun = false;
		char line[160];
		snprintf(line, sizeof line, "\r\n\033[1m[sandmux: the re-run %s %d; the shell is back]\033[m\r\n",
			 p->state == PANE_KILLED ? "was killed by signal" : "exited", p->status);
		vt_write(p->vt, line, strlen(line));
		escalate_restart(p);
		return;
	}
	if (p->status != 0)
		reoffer(p, p->status);
}

const char *escalate_title_mark(const struct pane *p)
{
	return esc_pending(p->esc) ? " · prompt!" : "";
}
