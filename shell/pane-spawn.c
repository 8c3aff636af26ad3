/* pane-spawn: the policy side of a pane. Each pane's program runs under
 * the struct policy of its profile, resolved against the session's
 * workspace, through launch_start(): namespaces, Landlock, seccomp. When
 * a layer cannot be applied nothing runs and the pane shows the
 * launcher's one-line reason (fail closed). */
#include "shell/mux.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/launch.h"
#include "policy/policy.h"

static int load(const char *workspace, const char *profile, struct policy **out, char *err, size_t errlen, FILE *warn)
{
	struct policy_opts o = {
		.home = getenv("HOME"),
		.workspace = workspace,
		.profile_flag = profile != NULL && profile[0] ? profile : NULL,
		.profile_env = getenv("SANDMUX_SANDBOX"),
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
	if (load(workspace, flag, &p, err, sizeof err, stderr) < 0) {
		fprintf(stderr, "sandmux: %s\n", err);
		return -1;
	}
	snprintf(name, cap, "%s", p->profile);
	policy_free(p);
	return 0;
}

int pane_spawn(struct pane *p, const struct pane_spec *spec, char *const *argv, char **env, int slave, char *err,
	       size_t errlen)
{
	struct server *s = p->srv;
	struct policy *pol = NULL;
	if (load(s->workspace, p->profile, &pol, err, errlen, s->log) < 0)
		return -1;
	snprintf(p->profile, sizeof p->profile, "%s", pol->profile);
	if (pol->sandboxed && pol->net.mode == NET_PROXY) {
		/* never let a pane out unfiltered while the proxy is not wired in */
		snprintf(err, errlen, "profile \"%s\" reaches the network through the filtering proxy, which panes do "
			 "not run yet; refusing to start (fail closed)", pol->profile);
		policy_free(pol);
		return -1;
	}
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
	int r = launch_start(&l);
	if (r < 0)
		snprintf(err, errlen, "%s", l.err);
	else {
		p->pid = l.pid;
		p->sandboxed = pol->sandboxed;
	}
	policy_free(pol);
	return r;
}
