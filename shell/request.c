/* request: the server's end of each pane's request channel (request.h).
 * What comes on it is untrusted: every message is parsed by reqchan.c,
 * every descriptor checked, every answer sent without waiting. */
#include "shell/request.h"
#include "shell/request-int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/launch.h"
#include "backends/loop.h"
#include "policy/config.h"
#include "policy/hint.h"
#include "policy/policy.h"
#include "shell/escalate-queue.h"
#include "shell/escalate.h"
#include "shell/mux.h"

/* Per pane: a burst of REQ_BURST requests, then one every REQ_REFILL_S
 * seconds; `why` costs less. */
#define REQ_BURST     4
#define REQ_REFILL_S  15.0
#define WHY_BURST     10
#define WHY_REFILL_S  1.0
#define WHY_LINES     20
#define REQ_TIMEOUT_S 300

static void chan_close(struct request_pane *rp)
{
	watch_del(rp->w);
	rp->w = NULL;
	if (rp->fd >= 0)
		close(rp->fd);
	rp->fd = -1;
}

static struct esc_pane *esc_of(struct server *srv, int pane)
{
	struct pane *p = pane_find(srv, pane);
	return p != NULL ? p->esc : NULL;
}

/* The prompt holding r, or -1. */
static long prompt_of(const struct esc_pane *e, const struct request *r)
{
	for (size_t i = 0; e != NULL && i < e->nq; i++)
		if (e->q[i].req == r)
			return (long)i;
	return -1;
}

void request_free(struct request *r)
{
	if (r == NULL)
		return;
	if (r->timer != 0)
		timer_cancel(r->srv->loop, r->timer);
	request_run_kill(r);
	watch_del(r->replyw);
	if (r->reply >= 0)
		close(r->reply);
	for (int i = 0; i < 3; i++)
		if (r->stdio[i] >= 0)
			close(r->stdio[i]);
	for (size_t i = 0; r->argv != NULL && r->argv[i] != NULL; i++)
		free(r->argv[i]);
	free(r->argv);
	free(r->cwd);
	free(r->reason);
	policy_free(r->policy);
	free(r);
}

void request_cancel(struct request *r, const char *why)
{
	reqchan_reply(r->reply, "refused", why != NULL ? why : "refused");
	server_log(r->srv, "pane %d: request from pid %d: %s", r->pane, (int)r->from, why != NULL ? why : "refused");
	request_free(r);
}

/* The prompt leaves the queue (the requester is told why). */
static void prompt_drop(struct request *r, const char *why)
{
	struct server *srv = r->srv;
	struct esc_pane *e = esc_of(srv, r->pane);
	long i = prompt_of(e, r);
	if (i < 0)
		return;
	esc_drop(e, (size_t)i, why); /* r is gone now */
	server_redraw(srv, true);
}

static void on_timeout(void *arg)
{
	struct request *r = arg;
	r->timer = 0;
	prompt_drop(r, "no answer in time (timed out)");
}

/* While the prompt waits: the requester gone (interrupted) drops it. */
static void on_reply_pending(struct watch *w, int events, void *arg)
{
	struct request *r = arg;
	char b[64];
	ssize_t n = recv(watch_fd(w), b, sizeof b, MSG_DONTWAIT);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) || (events & LOOP_ERR))
		prompt_drop(r, "the requester went away");
}

static void refill(double *tokens, double burst, double refill_s, uint64_t dt_ms)
{
	*tokens += (double)dt_ms / 1000.0 / refill_s;
	if (*tokens > burst)
		*tokens = burst;
}

static bool rate_ok(struct request_pane *rp, enum reqchan_kind kind)
{
	uint64_t now = loop_now_ms();
	refill(&rp->tokens, REQ_BURST, REQ_REFILL_S, now - rp->filled_ms);
	refill(&rp->why_tokens, WHY_BURST, WHY_REFILL_S, now - rp->filled_ms);
	rp->filled_ms = now;
	double *t = kind == REQCHAN_WHY ? &rp->why_tokens : &rp->tokens;
	if (*t < 1.0)
		return false;
	*t -= 1.0;
	return true;
}

static void close_fds(int *fds, int n)
{
	for (int i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* A reply socket is the requester's own SOCK_SEQPACKET socketpair end:
 * nothing else is ever written to. */
static bool reply_socket(int fd)
{
	int type = 0, domain = 0;
	socklen_t n = sizeof type, m = sizeof domain;
	return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &n) == 0 && type == SOCK_SEQPACKET &&
	       getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &m) == 0 && domain == AF_UNIX;
}

/* A malformed message, or a descriptor that is not what it should be:
 * refused, counted, said (to the requester when it gave a reply socket). */
static void refuse(struct request_pane *rp, int *fds, int nfds, const char *why)
{
	rp->refused++;
	if (rp->refused == 1 || rp->refused % 64 == 0)
		server_log(rp->srv, "pane %d: request channel: refused: %s (%lu refused so far)", rp->pane, why,
			   rp->refused);
	if (nfds > 0 && reply_socket(fds[0]))
		reqchan_reply(fds[0], "refused", why);
	close_fds(fds, nfds);
}

static void why_answer(struct request_pane *rp, int reply)
{
	const struct denials *l = escalate_denials(rp->srv);
	size_t idx[WHY_LINES], n = 0;
	for (size_t i = l != NULL ? l->n : 0; i-- > 0 && n < WHY_LINES;)
		if (l->v[i].pane == rp->pane)
			idx[n++] = i;
	if (n == 0)
		reqchan_reply(reply, "line", "sandmux: no denials in this pane's sandbox so far");
	for (size_t k = n; k-- > 0;) { /* oldest of them first */
		char line[REQCHAN_MAX_FIELD];
		hint_why_line(&l->v[idx[k]], rp->srv->home, line, sizeof line);
		reqchan_reply(reply, "line", line);
	}
	reqchan_reply(reply, "end", "");
}

/* The request's grants as suggestions the pane's policy can take: an
 * inside path becomes the host's (/tmp is the session temp dir), and a
 * grant the policy can never give (a protected path, a deny, sandmux's
 * own files, a blocked address) refuses the request. */
static int grants_make(struct request *r, const struct reqchan_msg *m, const struct policy *pol, char *err,
		       size_t errlen)
{
	for (int i = 0; i < m->ngrants; i++) {
		const char *v = m->grant[i].value;
		struct suggestion *s = &r->grant[r->ngrants];
		bool ok;
		if (m->grant[i].kind == REQCHAN_NET)
			ok = suggest_host(pol, v, s);
		else {
			char *norm = path_normalize(v), host[4096];
			if (norm == NULL) {
				snprintf(err, errlen, "%s %s: not a path", reqchan_grant_name(m->grant[i].kind), v);
				return -1;
			}
			const char *hp = launch_host_path(pol, norm, host, sizeof host);
			struct stat st;
			bool missing = lstat(hp, &st) < 0, dir = v[strlen(v) - 1] == '/';
			enum fs_op op = m->grant[i].kind == REQCHAN_READ ? OP_READ : missing ? OP_CREATE : OP_WRITE;
			ok = suggest_path_kind(pol, hp, op, dir ? 'd' : 'f', s);
			if (!ok && policy_decide_path(pol, hp, op).allow) {
				free(norm);
				continue; /* already allowed: nothing to grant */
			}
			free(norm);
		}
		if (!ok) {
			snprintf(err, errlen,
				 "%s %.300s cannot be granted (protected, denied by the policy, or "
				 "sandmux's own)",
				 reqchan_grant_name(m->grant[i].kind), v);
			return -1;
		}
		r->ngrants++;
	}
	return 0;
}

char *request_argv_text(char *const *argv)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (f == NULL)
		return NULL;
	for (size_t i = 0; argv[i] != NULL; i++)
		hint_put_word(f, argv[i], i > 0);
	fclose(f);
	return out;
}

static void read_comm(pid_t pid, char comm[17])
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
	FILE *f = pid > 0 ? fopen(path, "re") : NULL;
	comm[0] = '\0';
	if (f != NULL && fgets(comm, 17, f) != NULL)
		comm[strcspn(comm, "\n")] = '\0';
	if (f != NULL)
		fclose(f);
}

static int request_timeout_ms(void)
{
	const char *v = getenv("SANDMUX_REQUEST_TIMEOUT"); /* tests */
	int s = v != NULL && *v ? atoi(v) : REQ_TIMEOUT_S;
	return (s < 1 ? 1 : s > 3600 ? 3600 : s) * 1000;
}

/* Queues the prompt; false when it could not (the request is freed). */
static bool offer(struct request *r, struct pane *p)
{
	struct denial d = { 0 };
	char *cmd = request_argv_text(r->argv);
	int q = -1;
	if (cmd != NULL && denial_set(&d, "request", "request", cmd, r->reason ? r->reason : "no reason given") == 0) {
		d.pid = r->from;
		snprintf(d.comm, sizeof d.comm, "%s", r->comm);
		d.pane = p->id;
		q = esc_offer_request(p->esc, &d, r, request_cancel);
	}
	denial_clear(&d);
	free(cmd);
	if (q != 1) {
		request_cancel(r, q == 0 ? "too many prompts wait in this pane" : "out of memory");
		return false;
	}
	r->timer = timer_add(p->srv->loop, request_timeout_ms(), on_timeout, r);
	r->replyw = watch_add(p->srv->loop, r->reply, LOOP_IN, on_reply_pending, r);
	server_log(p->srv, "pane %d: request from pid %d (%s): prompt", p->id, (int)r->from, r->comm);
	control_prompt_event(p->srv, p);
	alerts_prompt(p);
	server_redraw(p->srv, true);
	return true;
}

/* A passed stdio descriptor must not be the pane's channel itself: the
 * new sandbox gets no way to ask in the pane's name but its own. */
static bool is_channel(const struct request_pane *rp, int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 && st.st_dev == rp->dev && st.st_ino == rp->ino;
}

static void take_request(struct request_pane *rp, const struct reqchan_msg *m, int *fds, int nfds, pid_t from)
{
	struct pane *p = pane_find(rp->srv, rp->pane);
	if (nfds != REQCHAN_FDS || !reply_socket(fds[0]) || is_channel(rp, fds[1]) || is_channel(rp, fds[2]) ||
	    is_channel(rp, fds[3])) {
		refuse(rp, fds, nfds, "a request comes with its reply socket, stdin, stdout and stderr");
		return;
	}
	if (p == NULL || p->esc == NULL) {
		close_fds(fds, nfds);
		return;
	}
	struct request *r = calloc(1, sizeof *r);
	struct policy *pol = NULL;
	char err[600] = "out of memory";
	if (r == NULL) {
		reqchan_reply(fds[0], "refused", err);
		close_fds(fds, nfds);
		return;
	}
	r->srv = rp->srv;
	r->pane = rp->pane;
	r->reply = fds[0];
	memcpy(r->stdio, fds + 1, sizeof r->stdio);
	r->from = from;
	read_comm(from, r->comm);
	r->argv = calloc((size_t)m->argc + 1, sizeof *r->argv);
	for (int i = 0; r->argv != NULL && i < m->argc; i++)
		r->argv[i] = strdup(m->argv[i]);
	r->cwd = strdup(m->cwd);
	r->reason = m->reason != NULL ? strdup(m->reason) : NULL;
	if (r->argv == NULL || r->cwd == NULL || pane_policy(p, &pol, err, sizeof err) < 0 ||
	    grants_make(r, m, pol, err, sizeof err) < 0) {
		policy_free(pol);
		request_cancel(r, err);
		return;
	}
	policy_free(pol);
	offer(r, p);
}

static void take(struct request_pane *rp, const char *buf, size_t len, int *fds, int nfds, pid_t from)
{
	struct reqchan_msg m;
	char err[200];
	if (reqchan_parse(buf, len, &m, err, sizeof err) < 0) {
		refuse(rp, fds, nfds, err);
		return;
	}
	if (!rate_ok(rp, m.kind)) {
		rp->limited++;
		server_log(rp->srv, "pane %d: request channel: over the rate limit (%lu so far)", rp->pane,
			   rp->limited);
		if (nfds > 0 && reply_socket(fds[0]))
			reqchan_reply(fds[0], "refused", "too many requests from this pane (rate limit): try later");
		close_fds(fds, nfds);
		return;
	}
	if (m.kind == REQCHAN_WHY) {
		if (nfds != 1 || !reply_socket(fds[0]))
			refuse(rp, fds, nfds, "why comes with its reply socket alone");
		else
			why_answer(rp, fds[0]);
		close_fds(fds, nfds == 1 ? 1 : 0);
		return;
	}
	take_request(rp, &m, fds, nfds, from);
}

static void on_chan(struct watch *w, int events, void *arg)
{
	struct request_pane *rp = arg;
	char *buf = malloc(REQCHAN_MAX_MSG);
	if (buf == NULL)
		return;
	(void)w;
	for (int turn = 0; turn < 16; turn++) { /* a flood waits for the next loop turn */
		int fds[REQCHAN_FDS], nfds = 0;
		pid_t from = 0;
		ssize_t n = reqchan_recv(rp->fd, buf, REQCHAN_MAX_MSG, fds, &nfds, &from);
		if (n < 0 && errno == EMSGSIZE) {
			refuse(rp, fds, 0, "a message too long, or too many descriptors");
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		if (n < 0 || (n == 0 && (events & LOOP_ERR))) { /* every process of the pane closed its end */
			close_fds(fds, nfds);
			chan_close(rp);
			break;
		}
		take(rp, buf, (size_t)n, fds, nfds, from);
	}
	free(buf);
}

int request_spawn_begin(struct pane *p, bool sandboxed)
{
	if (!sandboxed)
		return -1;
	if (p->req == NULL && (p->req = calloc(1, sizeof *p->req)) != NULL) {
		p->req->srv = p->srv;
		p->req->pane = p->id;
		p->req->fd = -1;
		p->req->tokens = REQ_BURST;
		p->req->why_tokens = WHY_BURST;
		p->req->filled_ms = loop_now_ms();
	}
	struct request_pane *rp = p->req;
	int sv[2], on = 1;
	struct stat st;
	if (rp == NULL || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		server_log(p->srv, "pane %d: request channel: cannot make it: %s", p->id, strerror(errno));
		return -1;
	}
	/* the server never writes on it; its peer learns nothing from it but
	 * end of file */
	if (setsockopt(sv[0], SOL_SOCKET, SO_PASSCRED, &on, sizeof on) < 0 || shutdown(sv[0], SHUT_WR) < 0 ||
	    fstat(sv[1], &st) < 0) {
		server_log(p->srv, "pane %d: request channel: cannot set it up: %s", p->id, strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	chan_close(rp); /* the last run's */
	rp->fd = sv[0];
	rp->dev = st.st_dev;
	rp->ino = st.st_ino;
	rp->w = watch_add(p->srv->loop, rp->fd, LOOP_IN, on_chan, rp);
	return sv[1];
}

void request_spawn_end(int fd)
{
	if (fd >= 0)
		close(fd);
}

void request_pane_free(struct pane *p)
{
	struct request_pane *rp = p->req;
	if (rp == NULL)
		return;
	while (rp->running != NULL) {
		struct request *r = rp->running;
		rp->running = r->next;
		request_cancel(r, "the pane was closed"); /* stops its run */
	}
	chan_close(rp);
	free(rp);
	p->req = NULL;
}
