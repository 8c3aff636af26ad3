/* request-run: an approved request's command, in a new sandbox of its
 * own: the requester's pane policy, the pane's session grants, and
 * exactly the request's grants; the requester's stdin, stdout and
 * stderr; no request channel (what it asks for, it asks through its
 * requester). Its status goes back as "exit N" once it has ended; the
 * requester going away (interrupted) ends it. The one place a request's
 * sandbox is started. */
#include "shell/request-int.h"
#include "shell/request.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/launch.h"
#include "backends/loop.h"
#include "backends/proxy.h"
#include "policy/policy.h"
#include "shell/escalate-queue.h"
#include "shell/escalate.h"
#include "shell/mux.h"

extern char **environ;

static void unlink_running(struct request *r)
{
	struct pane *p = pane_find(r->srv, r->pane);
	struct request **pp = p != NULL && p->req != NULL ? &p->req->running : NULL;
	for (; pp != NULL && *pp != NULL; pp = &(*pp)->next)
		if (*pp == r) {
			*pp = r->next;
			return;
		}
}

static void on_exit_cb(struct watch *w, int events, void *arg)
{
	struct request *r = arg;
	int st = 0;
	(void)w;
	(void)events;
	if (waitpid(r->pid, &st, WNOHANG) != r->pid)
		return;
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
	char text[16];
	snprintf(text, sizeof text, "%d", code);
	reqchan_reply(r->reply, "exit", text);
	server_log(r->srv, "pane %d: request's command (pid %d) exited %d", r->pane, (int)r->pid, code);
	r->pid = -1;
	unlink_running(r);
	request_free(r);
}

/* After the sandbox ended: the protected directories it made empty go. */
void request_run_cleanup(struct request *r)
{
	struct launch l;
	launch_init(&l);
	memcpy(l.made, r->made, sizeof l.made);
	memset(r->made, 0, sizeof r->made);
	launch_cleanup(&l);
}

void request_run_kill(struct request *r)
{
	if (r->pid <= 0)
		return;
	launch_kill(r->pid, r->weak);
	waitpid(r->pid, NULL, 0);
	r->pid = -1;
}

static void on_reply_running(struct watch *w, int events, void *arg)
{
	struct request *r = arg;
	char b[64];
	ssize_t n = recv(watch_fd(w), b, sizeof b, MSG_DONTWAIT);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) || (events & LOOP_ERR)) {
		server_log(r->srv, "pane %d: the requester went away: its command (pid %d) ends", r->pane, (int)r->pid);
		request_run_kill(r);
		unlink_running(r);
		request_free(r);
	}
}

static void on_net_denial(const struct net_denial *d, void *arg)
{
	struct request *r = arg;
	char line[4400];
	net_denial_format(d, line, sizeof line);
	server_log(r->srv, "pane %d: request's command: sandmux:%s", r->pane, line);
	pane_add_denial(r->srv, r->pane);
}

/* The pane's policy, broadened by the session grants and the request's. */
static struct policy *broadened(struct request *r, char *err, size_t errlen)
{
	struct pane *p = pane_find(r->srv, r->pane);
	struct policy *pol = NULL;
	if (p == NULL || p->esc == NULL) {
		snprintf(err, errlen, "the pane is gone");
		return NULL;
	}
	if (pane_policy(p, &pol, err, errlen) < 0)
		return NULL;
	for (size_t i = 0; i < p->esc->session.n; i++)
		suggest_apply(pol, &p->esc->session.v[i]);
	for (int i = 0; i < r->ngrants; i++) {
		char why[600];
		if (escalate_grant_make(&r->grant[i], why, sizeof why) < 0) /* so Landlock can grant exactly it */
			server_log(r->srv, "pane %d: request: %s", r->pane, why);
		suggest_apply(pol, &r->grant[i]);
	}
	return pol;
}

int request_run(struct request *r, struct request_pane *rp, char *err, size_t errlen)
{
	struct policy *pol = broadened(r, err, errlen);
	if (pol == NULL)
		return -1;
	bool net = pol->sandboxed && pol->net.mode == NET_PROXY;
	struct launch l;
	launch_init(&l);
	l.policy = pol;
	l.argv = r->argv;
	l.envp = environ;
	l.cwd = r->cwd;
	for (int i = 0; i < 3; i++)
		l.stdio[i] = r->stdio[i];
	l.want_proxy_listener = net;
	l.proxy_listen_port = PROXY_SANDBOX_PORT;
	if (launch_start(&l) < 0) {
		snprintf(err, errlen, "the new sandbox did not start: %s", l.err);
		policy_free(pol);
		return -1;
	}
	r->pid = l.pid;
	r->weak = l.weak;
	const char *why = NULL;
	if (net && (r->proxy = proxy_new(r->srv->loop, pol, l.proxy_fd, on_net_denial, r, &why)) == NULL) {
		snprintf(err, errlen, "the new sandbox's proxy: %s", why != NULL ? why : "cannot start");
		request_run_kill(r);
		policy_free(pol);
		return -1;
	}
	if (r->proxy != NULL) {
		proxy_set_auth(r->proxy, l.proxy_secret);
		r->net_policy = pol;
	} else
		policy_free(pol);
	memcpy(r->made, l.made, sizeof r->made);
	for (int i = 0; i < 3; i++) { /* the command has them now */
		close(r->stdio[i]);
		r->stdio[i] = -1;
	}
	r->pidfd = (int)syscall(SYS_pidfd_open, r->pid, 0);
	if (r->pidfd >= 0)
		r->pidw = watch_add(r->srv->loop, r->pidfd, LOOP_IN, on_exit_cb, r);
	r->replyw = watch_add(r->srv->loop, r->reply, LOOP_IN, on_reply_running, r);
	r->next = rp->running;
	rp->running = r;
	return 0;
}
