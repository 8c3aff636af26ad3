/* pane: one PTY, the sandboxed program on it, and its screen (pty/vt.h).
 * Its output and input go through pane-io.c. The program's end comes from its
 * sandbox (backends/run.h); the pane then stays, with its status in the
 * title, until closed. */
#include "shell/mux.h"

#include <cjson/cJSON.h>
#include <signal.h>
#include <stdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/capture.h"
#include "backends/loop.h"
#include "backends/run.h"
#include "pty/pty.h"
#include "pty/vt.h"
#include "shell/escalate.h"
#include "shell/mode.h"
#include "shell/request.h"

static void pane_exit_event(const struct pane *p)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, p->state == PANE_KILLED ? "signal" : "status", p->status);
	control_event(p->srv, "exit", p->id, o);
}

/* The sandbox's end: its last denials have come, its limits' counters
 * were read (run.h). */
static void on_pane_exit(int code, int sig, void *arg)
{
	struct pane *p = arg;
	p->state = sig != 0 ? PANE_KILLED : PANE_EXITED;
	p->status = sig != 0 ? sig : code;
	p->pid = -1;
	server_log(p->srv, "pane %d: %s %d", p->id, p->state == PANE_KILLED ? "killed by signal" : "exited", p->status);
	pane_capture_unlock(p);
	pane_captured(p);
	server_redraw(p->srv, true);
	pane_exit_event(p);
	escalate_pane_exited(p);
	/* a shell that ends well closes its pane, like tmux; a command given
	 * with `sandmux new`, or one that failed, stays to show its status */
	if (!p->keep_on_exit && p->state == PANE_EXITED && p->status == 0)
		p->srv->hooks->close_pane(p->win, p); /* window_close_pane: windows are above panes */
}

/* The environment panes start from: the server's, minus the outer
 * multiplexer's variables, with the terminal sandmux emulates. */
static char **pane_env(const struct pane *p)
{
	extern char **environ;
	size_t n = 0;
	while (environ[n] != NULL)
		n++;
	char **env = calloc(n + 5, sizeof *env);
	if (env == NULL)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		const char *e = environ[i];
		if (strncmp(e, "TMUX=", 5) == 0 || strncmp(e, "TMUX_PANE=", 10) == 0 || strncmp(e, "TERM=", 5) == 0 ||
		    strncmp(e, "COLORTERM=", 10) == 0 || strncmp(e, "SANDMUX_PANE=", 13) == 0 ||
		    strncmp(e, "LINES=", 6) == 0 || strncmp(e, "COLUMNS=", 8) == 0)
			continue;
		env[o++] = strdup(e);
	}
	env[o++] = strdup("TERM=xterm-256color");
	env[o++] = strdup("COLORTERM=truecolor");
	char id[32];
	snprintf(id, sizeof id, "SANDMUX_PANE=%d", p->id);
	env[o++] = strdup(id);
	return env;
}

static void pane_start(struct pane *p, const struct pane_spec *spec, int rows, int cols)
{
	char err[600];
	struct pty pty;
	if (pty_open(&pty, rows, cols, err, sizeof err) < 0)
		goto failed;
	p->fd = pty.master;
	const char *shell = getenv("SHELL");
	char *shell_argv[] = { (char *)(shell != NULL && shell[0] != 0 ? shell : "/bin/sh"), NULL };
	char *const *argv = spec->argv != NULL && spec->argv[0] != NULL ? spec->argv : shell_argv;
	if (p->name[0] == 0) {
		const char *base = strrchr(argv[0], '/');
		snprintf(p->name, sizeof p->name, "%s", base != NULL ? base + 1 : argv[0]);
	}
	char **env = pane_env(p);
	int r = pane_spawn(p, spec, argv, env, pty.slave, on_pane_exit, err, sizeof err);
	strv_free(env);
	pty_close_slave(&pty);
	if (r < 0)
		goto failed;
	pane_io_start(p);
	return;
failed:
	/* the pane stays, showing why nothing runs in it */
	server_log(p->srv, "pane %d: %s", p->id, err);
	pane_close_fd(p);
	p->state = PANE_FAILED;
	const char *head = "\033[1;31msandmux: the pane's program did not start:\033[m\r\n";
	vt_write(p->vt, head, strlen(head));
	vt_write(p->vt, err, strlen(err));
	vt_write(p->vt, "\r\n", 2);
}

struct pane *pane_new(struct window *w, const struct pane_spec *spec, int cols, int rows)
{
	struct server *s = w->srv;
	struct pane *p = calloc(1, sizeof *p);
	if (p == NULL)
		return NULL;
	p->win = w;
	p->srv = s;
	p->id = ++s->next_pane;
	p->fd = -1;
	p->pid = -1;
	p->capture_lock = -1;
	p->w = cols;
	p->h = rows + 1;
	snprintf(p->name, sizeof p->name, "%s", spec->name != NULL ? spec->name : "");
	snprintf(p->profile, sizeof p->profile, "%s", spec->profile != NULL ? spec->profile : s->profile);
	p->vt = vt_new(rows < 1 ? 1 : rows, cols < 1 ? 1 : cols, s->cfg.scrollback);
	if (p->vt == NULL) {
		free(p);
		return NULL;
	}
	p->keep_on_exit = spec->argv != NULL;
	pane_osc_init(p);
	escalate_pane_init(p, spec);
	pane_start(p, spec, rows < 1 ? 1 : rows, cols < 1 ? 1 : cols);
	malloc_trim(0); /* loading the policy and launching left free heap behind */
	return p;
}

void pane_free(struct pane *p)
{
	pane_run_stop(p);    /* the whole tree, reaped; its proxy and observer freed */
	if (p->mode != NULL) /* copy mode */
		p->mode->exit(p);
	pane_close_fd(p);
	vt_free(p->vt);
	alerts_pane_free(p);
	escalate_pane_free(p);
	request_pane_free(p);
	free(p->capture);
	free(p);
}

void pane_respawn(struct pane *p, const struct pane_spec *spec)
{
	pane_run_stop(p);     /* the whole tree, reaped; its proxy and observer freed */
	pane_read_pending(p); /* what the old program wrote last */
	pane_close_fd(p);
	p->state = PANE_RUNNING;
	p->status = 0;
	pane_start(p, spec, vt_rows(p->vt), vt_cols(p->vt));
	server_redraw(p->srv, true);
}

void pane_resize(struct pane *p, int w, int h)
{
	if (w < 1 || h < 1)
		return;
	if (vt_rows(p->vt) == h && vt_cols(p->vt) == w)
		return;
	vt_resize(p->vt, h, w);
	if (p->fd >= 0)
		pty_resize(p->fd, h, w);
}

void pane_title(const struct pane *p, char *buf, size_t cap)
{
	char state[96];
	switch (p->state) {
	case PANE_RUNNING:
		snprintf(state, sizeof state, "running");
		break;
	case PANE_EXITED:
		snprintf(state, sizeof state, "exited %d", p->status);
		break;
	case PANE_KILLED:
		snprintf(state, sizeof state, "killed by signal %d (%s)", p->status,
			 sigabbrev_np(p->status) ? sigabbrev_np(p->status) : "?");
		break;
	case PANE_FAILED:
		snprintf(state, sizeof state, "failed to start");
		break;
	}
	const char *t = vt_title(p->vt);
	char lim[128];
	pane_limits_title(p, lim, sizeof lim);
	/* The weaker sandbox (no user namespaces; sandmux doctor) names the
	 * layers that hold instead, as DESIGN.md asks; the full set is the
	 * default and says nothing. */
	char captured[32] = "", mark[64], weak[160] = "";
	if (p->weak) {
		char layers[140];
		run_layers(p->run, layers, sizeof layers);
		snprintf(weak, sizeof weak, " (%s)", layers[0] ? layers : "weak");
	}
	escalate_title_mark(p, mark, sizeof mark);
	if (p->captured > 0)
		snprintf(captured, sizeof captured, " · captured %d", p->captured);
	snprintf(buf, cap, " %d: %s%s · %s · %s%s · denials %d%s%s%s%s%s ", p->id, p->name,
		 p->mode != NULL ? p->mode->title : "", state, p->profile, weak, p->denials, captured, mark, lim,
		 t[0] ? " · " : "", t);
}

void pane_capture_unlock(struct pane *p)
{
	if (p->capture_lock >= 0)
		close(p->capture_lock);
	p->capture_lock = -1;
}

void pane_capture_drop(struct pane *p)
{
	free(p->capture);
	p->capture = NULL;
}

void pane_captured(struct pane *p)
{
	struct capture_list cl = { 0 };
	if (p->capture == NULL || capture_layer_settle(p->capture, &cl) < 0)
		return;
	p->captured = (int)cl.n;
	if (cl.n == 0)
		pane_capture_drop(p); /* removed: a restart makes a new one */
	for (size_t i = 0; i < cl.n; i++)
		escalate_captured(p, cl.v[i].path, cl.v[i].op);
	if (cl.n > 0)
		server_log(p->srv, "pane %d: %zu captured change(s) in %s", p->id, cl.n, p->capture);
	capture_list_free(&cl);
}
