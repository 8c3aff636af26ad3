/* pane-spawn: the policy side of a pane. Each pane's program runs under
 * the struct policy of its profile, resolved against the session's
 * workspace, through run_start() (backends/run.h): namespaces, Landlock,
 * seccomp, the observer, the proxy, the limits. When a layer cannot be
 * applied nothing runs and the pane shows the one-line reason naming the
 * step (fail closed). */
#include "shell/mux.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/capture.h"
#include "backends/run.h"
#include "policy/policy.h"
#include "shell/escalate.h"
#include "shell/home.h"
#include "shell/request.h"

static int load(const char *home, const char *workspace, const char *profile, struct policy **out, char *err,
		size_t errlen, FILE *warn)
{
	struct policy_opts o = {
		.home = home,
		.workspace = workspace,
		.profile_flag = profile != NULL && profile[0] ? profile : NULL,
		.profile_env = getenv("SANDMUX_SANDBOX"),
		.path_env = getenv("PATH"),
	};
	struct perr pe = { 0 };
	int r = policy_load(&o, out, &pe);
	if (warn != NULL)
		perr_print_warnings(&pe, warn);
	if (r < 0)
		snprintf(err, errlen, "%s", pe.msg);
	perr_free(&pe);
	return r;
}

int session_profile(const char *workspace, const char *flag, char *name, size_t cap)
{
	struct policy *p = NULL;
	char err[1024];
	const char *home = home_need(NULL);
	if (home == NULL)
		return -1;
	if (load(home, workspace, flag, &p, err, sizeof err, stderr) < 0) {
		fprintf(stderr, "sandmux: %s\n", err);
		return -1;
	}
	snprintf(name, cap, "%s", p->profile);
	policy_free(p);
	return 0;
}

int pane_policy(struct pane *p, struct policy **out, char *err, size_t errlen)
{
	struct server *s = p->srv;
	if (load(s->home, s->workspace, p->profile, out, err, errlen, s->log) < 0)
		return -1;
	if (s->tmpdir != NULL) {
		free((*out)->tmpdir);
		(*out)->tmpdir = strdup(s->tmpdir);
	}
	return 0;
}

void pane_run_stop(struct pane *p)
{
	run_stop(p->run, true); /* the pane moves on: its old run's last denials are past */
	policy_free(p->run_policy);
	pane_capture_unlock(p);
	p->run = NULL;
	p->run_policy = NULL;
	p->pid = -1;
}

/* "denials": "audit" chosen: whether Landlock's records report the
 * pane's writes, or why the observer still does. */
static void pane_channel_log(struct pane *p)
{
	const char *why, *ch = run_denials_channel(p->run, &why);
	if (!p->srv->cfg.denials_audit || !p->sandboxed)
		return;
	if (strcmp(ch, "audit") == 0)
		server_log(p->srv, "pane %d: write denials from Landlock's audit records", p->id);
	else
		server_log(p->srv, "pane %d: write denials from the %s (audit records: %s)", p->id, ch, why);
}

/* The layer held from before its sandbox starts until it is gone
 * (on_pane_exit, pane_run_stop): no apply or discard meanwhile. */
static int pane_capture_lock(struct pane *p, char *err, size_t errlen)
{
	if ((p->capture_lock = capture_layer_lock(p->capture)) >= 0)
		return 0;
	snprintf(err, errlen, "capture: lock the layer %s: %s%s", p->capture, strerror(errno),
		 errno == EWOULDBLOCK ? " (being applied or discarded)" : "");
	return -1;
}

/* capture mode: one layer per pane, made at its first start (a later
 * session's pane of the same number gets a new one) and kept across its
 * restarts. 0, or -1 with err set. */
static int pane_capture(struct pane *p, const struct policy *pol, char *err, size_t errlen)
{
	char name[32], dir[PATH_MAX];
	if (!pol->sandboxed || !pol->capture)
		return 0;
	if (p->capture != NULL)
		return pane_capture_lock(p, err, errlen);
	snprintf(name, sizeof name, "pane-%d-XXXXXX", p->id);
	if (capture_layer_make(p->srv->home, p->srv->name, name, dir, sizeof dir) < 0 ||
	    capture_layer_set_workspace(dir, pol->workspace) < 0 || (p->capture = strdup(dir)) == NULL) {
		snprintf(err, errlen, "capture: make the layer directory: %s", strerror(errno));
		return -1;
	}
	return pane_capture_lock(p, err, errlen);
}

int pane_spawn(struct pane *p, const struct pane_spec *spec, char *const *argv, char **env, int slave,
	       void (*on_exit)(int code, int sig, void *pane), char *err, size_t errlen)
{
	struct server *s = p->srv;
	struct policy *pol = NULL;
	char tag[64];
	pane_run_stop(p); /* a restarted pane gets a fresh sandbox, proxy and observer */
	if (pane_policy(p, &pol, err, errlen) < 0)
		return -1;
	snprintf(p->profile, sizeof p->profile, "%s", pol->profile);
	if (pane_capture(p, pol, err, errlen) < 0) {
		policy_free(pol);
		return -1;
	}
	struct run_opts o;
	run_opts_init(&o);
	o.policy = pol;
	o.argv = argv;
	o.envp = env;
	o.cwd = spec->cwd != NULL ? spec->cwd : s->workspace;
	o.tty = slave;
	o.capture_dir = p->capture;
	o.observer_zygote = s->observers;
	o.on_denial = denial_sink_pane;
	o.on_exit = on_exit;
	o.arg = p;
	escalate_spawn_begin(p, pol, &o, NULL); /* grants, re-run, shell integration, observer, hold */
	pane_limits_opts(p, pol, &o, tag, sizeof tag);
	o.audit = s->cfg.denials_audit;
	o.request_fd = request_spawn_begin(p, pol->sandboxed);
	p->run = run_start(s->loop, &o, err, errlen);
	request_spawn_end(o.request_fd);
	escalate_spawn_end(p);
	if (p->run == NULL) {
		pane_capture_unlock(p); /* nothing runs: the layer may be reviewed */
		policy_free(pol);
		return -1;
	}
	p->run_policy = pol;
	p->pid = run_pid(p->run);
	p->sandboxed = pol->sandboxed;
	p->weak = run_weak(p->run);
	pane_limits_started(p);
	pane_channel_log(p);
	return 0;
}
