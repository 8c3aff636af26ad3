/* pane-spawn: the policy side of a pane. Each pane's program runs under
 * the struct policy of its profile, resolved against the session's
 * workspace, through launch_start(): namespaces, Landlock, seccomp. When
 * a layer cannot be applied nothing runs and the pane shows the
 * launcher's one-line reason (fail closed). */
#include "shell/mux.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "backends/capture.h"
#include "backends/launch.h"
#include "backends/proxy.h"
#include "policy/policy.h"
#include "shell/escalate.h"
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
	if (load(getenv("HOME"), workspace, flag, &p, err, sizeof err, stderr) < 0) {
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

static void on_net_denial(const struct net_denial *d, void *arg)
{
	struct pane *p = arg;
	char line[4400];
	net_denial_format(d, line, sizeof line);
	server_log(p->srv, "pane %d: sandmux:%s", p->id, line);
	escalate_net_denial(p, d); /* counts it, logs it, may prompt */
}

/* NET_PROXY: the pane's own proxy in the server's loop, deciding by the
 * pane's policy (kept as long as the proxy). The listener is made inside
 * the sandbox at a fixed port of its empty netns (in the weaker sandbox,
 * by the launcher on the host's loopback), and the launcher sets the
 * proxy variables. 0, or -1 with err set. */
static int pane_proxy(struct pane *p, struct policy **pol, struct launch *l, char *err, size_t errlen)
{
	const char *why = NULL;
	p->proxy = proxy_new(p->srv->loop, *pol, l->proxy_fd, on_net_denial, p, &why);
	l->proxy_fd = -1;
	if (p->proxy == NULL) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	proxy_set_auth(p->proxy, l->proxy_secret);
	p->net_policy = *pol;
	*pol = NULL;
	return 0;
}

void pane_net_free(struct pane *p)
{
	proxy_free(p->proxy);
	policy_free(p->net_policy);
	p->proxy = NULL;
	p->net_policy = NULL;
}

int pane_spawn(struct pane *p, const struct pane_spec *spec, char *const *argv, char **env, int slave, char *err,
	       size_t errlen)
{
	struct server *s = p->srv;
	struct policy *pol = NULL;
	if (load(s->home, s->workspace, p->profile, &pol, err, errlen, s->log) < 0)
		return -1;
	snprintf(p->profile, sizeof p->profile, "%s", pol->profile);
	bool sandboxed = pol->sandboxed, net = sandboxed && pol->net.mode == NET_PROXY;
	pane_net_free(p); /* a restarted pane gets a fresh proxy */
	if (s->tmpdir != NULL) {
		free(pol->tmpdir);
		pol->tmpdir = strdup(s->tmpdir);
	}
	struct launch l;
	launch_init(&l);
	l.policy = pol;
	l.argv = argv;
	l.envp = env;
	l.cwd = spec->cwd != NULL ? spec->cwd : s->workspace;
	l.tty = slave;
	l.want_proxy_listener = net;
	l.proxy_listen_port = PROXY_SANDBOX_PORT;
	char name[32];
	snprintf(name, sizeof name, "pane-%d-XXXXXX", p->id);
	/* capture mode: one layer per pane, made at its first start (a later
	 * session's pane of the same number gets a new one) and kept across
	 * its restarts */
	if (sandboxed && pol->capture && p->capture[0] == '\0' &&
	    (capture_layer_make(getenv("HOME"), s->name, name, p->capture, sizeof p->capture) < 0 ||
	     capture_layer_set_workspace(p->capture, pol->workspace) < 0)) {
		snprintf(err, errlen, "capture: make the layer directory: %s", strerror(errno));
		p->capture[0] = '\0';
		policy_free(pol);
		return -1;
	}
	if (sandboxed && pol->capture)
		l.capture_dir = p->capture;
	escalate_spawn_begin(p, pol, &l, NULL); /* grants, re-run, shell integration, observer */
	request_spawn_begin(p, &l, sandboxed);
	int r = pane_limits_prepare(p, pol, &l, err, errlen) < 0 ? -2 : launch_start(&l);
	request_spawn_end(p, &l);
	if (r == 0)
		pane_limits_started(p, &l);
	if (r == 0 && net && pane_proxy(p, &pol, &l, err, errlen) < 0) {
		launch_kill(l.pid, l.weak); /* without its proxy the pane would hang on every connect */
		waitpid(l.pid, NULL, 0);
		r = -1;
	} else if (r == -1)
		snprintf(err, errlen, "%s", l.err);
	r = r < 0 ? -1 : r;
	if (r == 0) {
		p->pid = l.pid;
		p->sandboxed = sandboxed;
		p->weak = l.weak;
	}
	escalate_spawn_end(p, &l, &pol, r == 0);
	policy_free(pol);

	return r;
}
