/* escalate-pane: the multiplexer side of escalation for one pane: its
 * grants, what a restart runs, the shell integration, the restart.
 *
 * Every sandboxed pane starts with the observer on; its denials (and the
 * proxy's, and the limits') go to denial-sink.c, which queues them as
 * prompts (escalate-queue.c). An answer (escalate-view.c, a keypress only)
 * restarts the pane: its own command, or in a shell pane the last command
 * line the shell integration reported, in its cwd, as `$SHELL -c LINE`;
 * when that re-run ends, the pane's shell comes back in that directory
 * under the pane's policy without the once grant. */
#include "shell/escalate.h"
#include "shell/escalate-queue.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/run.h"
#include "policy/agents.h"
#include "pty/vt.h"
#include "shell/integration.h"
#include "shell/mux.h"

/* The session's shell integration, written at the first shell pane. */
struct esc_server {
	char home[4096];      /* "" without an absolute $HOME */
	char integ_dir[4200]; /* HOME/.sandmux/state/shell */
	int integ;            /* 0 not tried, 1 written, -1 failed */
};

/* What one start runs, kept until run_start() has copied it. */
struct esc_spawn {
	struct integration integ;
	int secret_fd; /* the shell's end of its secret, or -1 */
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
	const char *home = s->home;
	if (home != NULL && strlen(home) < sizeof es->home) {
		snprintf(es->home, sizeof es->home, "%s", home);
		snprintf(es->integ_dir, sizeof es->integ_dir, "%s/%s", home, INTEGRATION_REL);
	}
	s->esc = es;
	return es;
}

void escalate_server_free(struct server *s)
{
	denial_sink_free(s);
	if (s->esc == NULL)
		return;
	free(s->esc);
	s->esc = NULL;
}

/* The scripts live under ~/.sandmux/state/, which every sandbox sees
 * read-only: nothing in a pane can change what the next shell sources. */
static const char *integration_dir(struct server *s)
{
	struct esc_server *es = esc_server(s);
	if (es == NULL || es->integ_dir[0] == 0)
		return NULL;
	if (es->integ == 0) {
		char err[600];
		es->integ = integration_write(es->home, err, sizeof err) == 0 ? 1 : -1;
		if (es->integ < 0)
			server_log(s, "shell integration: %s", err);
	}
	return es->integ > 0 ? es->integ_dir : NULL;
}

static bool pid_alive(int pid)
{
	return kill(pid, 0) == 0 || errno == EPERM;
}

/* The pane moved on: its prompts whose processes are gone (all of them
 * when the pane's agent restarts: its old sandbox is ended) are dropped.
 * A new command line in a shell pane does not count: a person often
 * looks around (ls, cat) before answering what the last one was denied. */
static void drop_stale(struct pane *p, bool all)
{
	size_t n = esc_drop_stale(p->esc, pid_alive, all);
	if (n > 0) {
		server_log(p->srv, "pane %d: %zu stale prompt(s) dropped (%zu so far)", p->id, n, p->esc->dropped);
		server_redraw(p->srv, true);
	}
}

/* OSC 133 (boundaries), 633;E (the command line), 7 (the cwd): taken
 * only from the pane's shell, which signs them (shell-report.c); they
 * only say what a re-run would run: the prompt shows it and a person
 * decides. */
static void on_osc(int command, const char *arg, size_t len, void *data)
{
	struct pane *p = data;
	struct esc_pane *e = p->esc;
	unsigned long ignored = e->gate.ignored;
	int status = 0;
	switch (report_gate_feed(&e->gate, command, arg, len, &status)) {
	case REPORT_START:
		e->denials_run = 0;
		break;
	case REPORT_END:
		if (status != 0)
			denial_sink_reoffer(p, status);
		break;
	default:
		break;
	}
	if (ignored == 0 && e->gate.ignored > 0)
		server_log(p->srv,
			   "pane %d: shell integration: a report without the shell's secret, or out of place, "
			   "ignored (counted in ls --json)",
			   p->id);
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
	if (spec->agent != NULL)
		e->agent = strdup(spec->agent);
	if (e->argv == NULL) {
		p->osc_hook = on_osc;
		p->osc_hook_data = p;
	}
}

static void spawn_free(struct esc_pane *e)
{
	if (e->spawn == NULL)
		return;
	if (e->spawn->secret_fd >= 0)
		close(e->spawn->secret_fd);
	strv_free(e->spawn->env);
	free(e->spawn);
	e->spawn = NULL;
}

void escalate_pane_free(struct pane *p)
{
	struct esc_pane *e = p->esc;
	if (e == NULL)
		return;
	spawn_free(e);
	esc_pane_clear(e);
	strv_free(e->argv);
	for (size_t i = 0; i < e->nagents; i++) {
		free(e->agents[i].name);
		strv_free(e->agents[i].resume);
	}
	free(e->agents);
	free(e->agent);
	free(e->cwd);
	report_gate_free(&e->gate);
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
static void shell_argv(struct pane *p, struct esc_spawn *sp, struct run_opts *l)
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
	char secret[INTEGRATION_SECRET_LEN + 1];
	if (dir == NULL || integration_prepare(dir, sh, &sp->integ) < 0 || sp->integ.kind == INTEGRATION_NONE ||
	    integration_secret(secret) < 0 || (sp->secret_fd = integration_pass(secret)) < 0)
		return;
	if (sp->integ.kind == INTEGRATION_ZSH && getenv("ZDOTDIR") != NULL)
		snprintf(sp->user_zdotdir, sizeof sp->user_zdotdir, "SANDMUX_USER_ZDOTDIR=%s", getenv("ZDOTDIR"));
	l->argv = (char *const *)sp->integ.argv;
	/* the secret on fd 3, and a shell whose memory nothing it runs can read */
	l->pass_fd = sp->secret_fd;
	l->exec_nodump = true;
	report_gate_reset(&e->gate, secret);
}

/* The presets that can resume, kept from the pane's first policy: what
 * a restart runs is decided before the next policy is loaded. */
static void agents_keep(struct esc_pane *e, const struct policy *pol)
{
	const struct policy_agents *a = pol->agents;
	if (e->agents != NULL || a == NULL || (e->agents = calloc(a->n + 1, sizeof *e->agents)) == NULL)
		return;
	for (size_t i = 0; i < a->n; i++) {
		const struct policy_agent *ag = &a->v[i];
		if (!ag->enabled || ag->resume.n == 0)
			continue;
		struct esc_agent *k = &e->agents[e->nagents++];
		k->name = strdup(ag->name);
		k->resume = calloc(ag->resume.n + 1, sizeof *k->resume);
		for (size_t j = 0; k->resume != NULL && j < ag->resume.n; j++)
			k->resume[j] = strdup(ag->resume.v[j].text);
	}
}

static const struct esc_agent *agent_named(const struct esc_pane *e, const char *name, size_t len)
{
	for (size_t i = 0; i < e->nagents; i++)
		if (strlen(e->agents[i].name) == len && strncmp(e->agents[i].name, name, len) == 0)
			return &e->agents[i];
	return NULL;
}

/* The agent a command runs: --agent, else the base name of its program. */
static const struct esc_agent *agent_of(const struct esc_pane *e, const char *prog, size_t len)
{
	if (e->agent != NULL)
		return agent_named(e, e->agent, strlen(e->agent));
	const char *base = prog;
	for (size_t i = 0; i < len; i++)
		if (prog[i] == '/')
			base = prog + i + 1;
	return agent_named(e, base, len - (size_t)(base - prog));
}

const char *escalate_resume(const struct pane *p, const char *line, char *buf, size_t cap)
{
	const struct esc_pane *e = p->esc;
	const struct esc_agent *a;
	size_t o;
	if (e == NULL || cap == 0)
		return NULL;
	if (e->argv != NULL) {
		if ((a = agent_of(e, e->argv[0], strlen(e->argv[0]))) == NULL)
			return NULL;
		o = (size_t)snprintf(buf, cap, "%s", e->argv[0]);
		for (size_t i = 1; e->agent != NULL && e->argv[i] != NULL && o < cap; i++)
			o += (size_t)snprintf(buf + o, cap - o, " %s", e->argv[i]); /* as escalate_restart() runs it */
	} else {
		/* a shell pane: only a plain command line, whose first word is the program */
		if (line == NULL || line[strcspn(line, ";&|<>`$()\\'\"\n")] != '\0')
			return NULL;
		line += strspn(line, " \t");
		size_t n = strcspn(line, " \t");
		if (n == 0 || (a = agent_of(e, line, n)) == NULL)
			return NULL;
		o = (size_t)snprintf(buf, cap, "%.*s", (int)n, line);
	}
	for (size_t i = 0; a->resume != NULL && a->resume[i] != NULL && o < cap; i++)
		o += (size_t)snprintf(buf + o, cap - o, " %s", a->resume[i]);
	return a->name;
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

void escalate_spawn_begin(struct pane *p, struct policy *pol, struct run_opts *l, char *const *extra)
{
	struct esc_pane *e = p->esc;
	if (e == NULL)
		return;
	agents_keep(e, pol);
	if (e->agent != NULL && agents_find(pol, e->agent) == NULL) {
		char line[200];
		snprintf(line, sizeof line,
			 "\033[1m[sandmux: no agent preset is named %.64s; see sandmux policy show]\033[m\r\n",
			 e->agent);
		vt_write(p->vt, line, strlen(line));
	}
	spawn_free(e);
	esc_broaden(e, pol, true);
	e->denials_run = 0;
	report_gate_reset(&e->gate, ""); /* a re-run or a new shell: nothing reported yet */
	struct esc_spawn *sp = calloc(1, sizeof *sp);
	if (sp == NULL)
		return;
	sp->secret_fd = -1;
	e->spawn = sp;
	if (e->argv == NULL)
		shell_argv(p, sp, l);
	sp->env = merge_env(extra, sp);
	if (sp->env != NULL)
		l->extra_env = sp->env;
	/* The observer explains denials as they happen; Landlock decides. */
	l->observer = true;
	l->proxy_hold_ms = hold_ms(p->srv);
}

void escalate_spawn_end(struct pane *p)
{
	if (p->esc != NULL)
		spawn_free(p->esc);
}

bool escalate_net_held(const struct pane *p)
{
	return run_held_count(p->run) > 0;
}

void escalate_net_answer(struct pane *p, const struct suggestion *s)
{
	size_t n = run_answer_held(p->run, s);
	server_log(p->srv, "pane %d: %zu held connection(s) decided again (%s)", p->id, n,
		   s != NULL && s->kind != SUGGEST_NONE ? s->value : "refused");
}

/* Starts the pane's command again (the policy is broadened in
 * escalate_spawn_begin). */
void escalate_restart(struct pane *p)
{
	struct esc_pane *e = p->esc;
	struct pane_spec spec = { .argv = e->argv, .cwd = e->cwd };
	char *resumed[64] = { NULL };
	const struct esc_agent *a = e->argv != NULL ? agent_of(e, e->argv[0], strlen(e->argv[0])) : NULL;
	if (a != NULL) { /* an agent: its conversation goes on in the new sandbox */
		size_t n = 0;
		resumed[n++] = e->argv[0];
		/* --agent names a wrapper (npx claude): all of it, then the resume
		 * arguments; a program recognised by name: it alone (its first
		 * arguments may be a prompt that must not be sent again) */
		for (size_t i = 1; e->agent != NULL && e->argv[i] != NULL && n + 1 < 64; i++)
			resumed[n++] = e->argv[i];
		for (size_t i = 0; a->resume != NULL && a->resume[i] != NULL && n + 1 < 64; i++)
			resumed[n++] = a->resume[i];
		spec.argv = resumed;
	}
	if (a != NULL)
		drop_stale(p, true); /* the agent restarts: its old run's prompts are past */
	pane_respawn(p, &spec);
}

void escalate_pane_exited(struct pane *p)
{
	struct esc_pane *e = p->esc;
	if (e == NULL)
		return;
	if (e->rerun) { /* the run's last denials have come (run.h): they decided its prompt */
		e->rerun = false;
		char line[160];
		snprintf(line, sizeof line, "\r\n\033[1m[sandmux: the re-run %s %d; the shell is back]\033[m\r\n",
			 p->state == PANE_KILLED ? "was killed by signal" : "exited", p->status);
		vt_write(p->vt, line, strlen(line));
		escalate_restart(p);
		return;
	}
	if (p->status != 0)
		denial_sink_reoffer(p, p->status);
}

const char *escalate_title_mark(const struct pane *p)
{
	return esc_pending(p->esc) ? " · prompt!" : "";
}
