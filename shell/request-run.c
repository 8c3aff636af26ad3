/* request-run: an approved request's command, in a new sandbox of its
 * own (backends/run.h): the requester's pane policy, the pane's session
 * grants, and exactly the request's grants; the requester's stdin,
 * stdout and stderr; the observer and, for a proxied policy, a proxy of
 * its own; no request channel (what it asks for, it asks through its
 * requester). Its status goes back as "exit N" once it has ended; the
 * requester going away (interrupted) ends it. */
#include "shell/request-int.h"
#include "shell/request.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "backends/loop.h"
#include "backends/run.h"
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

static void on_exit_cb(int code, int sig, void *arg)
{
	struct request *r = arg;
	char text[16];
	(void)sig; /* code is 128+sig then */
	snprintf(text, sizeof text, "%d", code);
	reqchan_reply(r->reply, "exit", text);
	server_log(r->srv, "pane %d: request's command exited %d", r->pane, code);
	unlink_running(r);
	request_free(r); /* stops the run */
}

void request_run_kill(struct request *r)
{
	run_stop(r->run, true);
	r->run = NULL;
}

static void on_reply_running(struct watch *w, int events, void *arg)
{
	struct request *r = arg;
	char b[64];
	ssize_t n = recv(watch_fd(w), b, sizeof b, MSG_DONTWAIT);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) || (events & LOOP_ERR)) {
		server_log(r->srv, "pane %d: the requester went away: its command ends", r->pane);
		unlink_running(r);
		request_free(r);
	}
}

/* Its denials are the requesting pane's, like the pane's own: logged,
 * counted, listed by `sandmux why`, offered as prompts whose answer
 * re-runs nothing (denial-sink.c). */
static void on_denial_cb(struct denial *d, void *arg)
{
	struct request *r = arg;
	struct pane *p = pane_find(r->srv, r->pane);
	server_log(r->srv, "pane %d: request's command: denied %s %s (%s)", r->pane, d->op,
		   d->target != NULL ? d->target : "", d->rule != NULL ? d->rule : "");
	if (p != NULL)
		denial_sink_request(p, d);
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
	esc_broaden_request(p->esc, pol);
	for (int i = 0; i < r->ngrants; i++) {
		char why[600];
		if (escalate_grant_make(&r->grant[i], why, sizeof why) < 0) /* so Landlock can grant exactly it */
			server_log(r->srv, "pane %d: request: %s", r->pane, why);
		suggest_apply(pol, &r->grant[i]);
	}
	return pol;
}

/* A requester on a terminal: the command gets a PTY of its own in the
 * new sandbox, as its controlling terminal (the requester's terminal is
 * the pane's, whose session is the pane shell's: no other session can
 * take it), standing in for each of the requester's stdio that is a
 * terminal; the others (a pipe, a file) stay what they are. The
 * requester relays the PTY's master to its terminal (cmd-request.c). */
static void pty_opts(const struct request *r, struct run_opts *o)
{
	bool tty = isatty(r->stdio[0]) || isatty(r->stdio[1]);
	for (int i = 0; i < 3; i++)
		o->stdio[i] = tty && isatty(r->stdio[i]) ? -1 : r->stdio[i];
	o->want_pty = tty;
	o->pty_like = !tty ? -1 : isatty(r->stdio[0]) ? r->stdio[0] : r->stdio[1];
}

/* The PTY's master goes to the requester, which relays it; the server
 * keeps no copy. */
static int pty_pass(struct request *r, char *err, size_t errlen)
{
	int master = run_take_pty(r->run);
	if (master < 0)
		return 0;
	char buf[64];
	size_t n = reqchan_reply_build("pty", "", buf, sizeof buf);
	int rc = n > 0 ? reqchan_send(r->reply, buf, n, &master, 1) : -1;
	close(master);
	if (rc < 0)
		snprintf(err, errlen, "the terminal could not be passed to the requester: %s", strerror(errno));
	return rc;
}

int request_run(struct request *r, struct request_pane *rp, char *err, size_t errlen)
{
	struct policy *pol = broadened(r, err, errlen);
	if (pol == NULL)
		return -1;
	struct run_opts o;
	run_opts_init(&o);
	o.policy = pol;
	o.argv = r->argv;
	o.envp = environ;
	o.cwd = r->cwd;
	pty_opts(r, &o);
	o.observer = pol->sandboxed;
	o.audit = r->srv->cfg.denials_audit;
	o.on_denial = on_denial_cb;
	o.on_exit = on_exit_cb;
	o.arg = r;
	char why[512], tag[64];
	/* a broadened sandbox is no less bounded than the pane's */
	limits_opts(r->srv, pol, &o, "request", r->pane, tag, sizeof tag);
	if ((r->run = run_start(r->srv->loop, &o, why, sizeof why)) == NULL) {
		snprintf(err, errlen, "the new sandbox did not start: %s", why);
		policy_free(pol);
		return -1;
	}
	r->policy = pol;
	if (pty_pass(r, err, errlen) < 0) {
		request_run_kill(r);
		return -1;
	}
	for (int i = 0; i < 3; i++) { /* the command has them now */
		close(r->stdio[i]);
		r->stdio[i] = -1;
	}
	r->replyw = watch_add(r->srv->loop, r->reply, LOOP_IN, on_reply_running, r);
	r->next = rp->running;
	rp->running = r;
	return 0;
}
