/* observer-proc: the observer runs in a process of its own for each
 * sandbox, forked from the host (`sandmux run`) or from the server's
 * zygote (observer-zygote.h), blocked on the listener alone.
 *
 * Why a process: a notified call costs two wake-ups. Through the host's
 * epoll loop each wake-up crosses to the other CPU (an inter-processor
 * interrupt, ~35 us in a VM: measured 70 us a call). Waiting in poll() on
 * the listener itself, with SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (Linux
 * 6.6), the kernel hands the CPU over directly, caller to observer and
 * back: ~9 us a call. A thread would do the same, but the launcher clones
 * with a raw clone(), which is only safe in a single-threaded process.
 *
 * The observer process holds the only copy of the listener, so when it
 * dies every notified call fails (fail closed). It sends the host one
 * message per denial, before answering the call, and its counters when
 * the last process under the filter is gone; then it exits. The policy it
 * decides by is its own copy, as it was at fork (or as it was packed). */
#include "backends/observer.h"

#include <errno.h>
#include <limits.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/events.h"
#include "backends/loop.h"
#include "backends/observer-core.h"
#include "backends/observer-zygote.h"
#include "policy/suggest.h"

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

/* A message: one of these, then (denials) four strings, each a presence
 * byte and, when present, its bytes and a NUL. */
struct rec {
	char type; /* 'D' a denial, 'S' the counters */
	union {
		struct {
			int64_t ts_ms;
			pid_t pid, pgid;
			int rule_line;
			char comm[17], op[12], layer[12];
			char key;    /* 0, or the suggestion's key: 'w' 'r' 'n' */
			char create; /* the suggestion's create and mode */
			unsigned mode;
		} d;
		struct observer_stats s;
	} u;
};
#define REC_MAX (sizeof(struct rec) + 3 * (PATH_MAX + 2) + sizeof((struct suggestion *)0)->value + 2)

struct observer {
	struct loop *loop;
	struct watch *watch;
	int sock; /* our end of the observer process's socket pair */
	pid_t pid;
	int pidfd; /* >= 0: a zygote's child (not ours to reap), ended by it */
	observer_cb cb;
	void *arg;
	bool done;
	struct observer_stats stats;
};

/* The observer process's side of the pair. */
struct proc {
	int sock;
};

/* The suggestion's kind on the wire: one letter per enum suggest_kind
 * after SUGGEST_NONE (0: none). */
static const char suggest_codes[] = "wrn";

static size_t put_str(char *buf, size_t at, size_t cap, const char *s)
{
	size_t n = s != NULL ? strlen(s) + 1 : 0;
	if (at + 1 + n > cap)
		n = 0, s = NULL; /* too long: dropped rather than cut */
	buf[at++] = s != NULL;
	if (s != NULL)
		memcpy(buf + at, s, n);
	return at + n;
}

static size_t str_size(const char *s)
{
	return 1 + (s != NULL ? strlen(s) + 1 : 0);
}

/* In the observer process: one denial to the host. The message is
 * allocated for each denial, as long as it is (at most REC_MAX): a
 * buffer kept for it would be pages of each observer's own that an idle
 * pane never uses. */
static void proc_send_denial(struct denial *d, void *arg)
{
	struct proc *pr = arg;
	const char *value = d->suggest.kind != SUGGEST_NONE ? d->suggest.value : NULL;
	size_t cap =
		sizeof(struct rec) + str_size(d->target) + str_size(d->rule) + str_size(d->rule_file) + str_size(value);
	cap = cap < REC_MAX ? cap : REC_MAX;
	char *buf = malloc(cap);
	if (buf == NULL)
		return; /* the call is refused all the same, unreported */
	struct rec r = { .type = 'D' };
	r.u.d.ts_ms = d->ts_ms;
	r.u.d.pid = d->pid;
	r.u.d.pgid = d->pgid;
	r.u.d.rule_line = d->rule_line;
	memcpy(r.u.d.comm, d->comm, sizeof r.u.d.comm);
	memcpy(r.u.d.op, d->op, sizeof r.u.d.op);
	memcpy(r.u.d.layer, d->layer, sizeof r.u.d.layer);
	if (d->suggest.kind != SUGGEST_NONE)
		r.u.d.key = suggest_codes[d->suggest.kind - SUGGEST_RW];
	r.u.d.create = d->suggest.create;
	r.u.d.mode = d->suggest.mode;
	memcpy(buf, &r, sizeof r);
	size_t n = sizeof r;
	n = put_str(buf, n, cap, d->target);
	n = put_str(buf, n, cap, d->rule);
	n = put_str(buf, n, cap, d->rule_file);
	n = put_str(buf, n, cap, r.u.d.key ? d->suggest.value : NULL);
	send(pr->sock, buf, n, MSG_NOSIGNAL);
	free(buf);
}

static void proc_send_stats(int sock, struct observer_stats *st)
{
	struct rusage ru;
	struct rec r = { .type = 'S' };
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		st->cpu_us = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000u +
			     (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	r.u.s = *st;
	send(sock, &r, sizeof r, MSG_NOSIGNAL);
}

/* Every fd but the two it needs: the host's PTYs, clients and other
 * sandboxes' listeners are none of this process's business. */
static void proc_close_fds(int a, int b)
{
	int lo = a < b ? a : b, hi = a < b ? b : a;
	if (lo > 3)
		syscall(SYS_close_range, 3, lo - 1, 0);
	if (hi > lo + 1)
		syscall(SYS_close_range, lo + 1, hi - 1, 0);
	syscall(SYS_close_range, hi + 1, ~0U, 0);
}

void observer_proc_main(pid_t host, const struct policy *p, int notify_fd, int weak_port, int sock)
{
	/* The host's handlers are not this process's: every signal blocked,
	 * it ends by SIGKILL (from observer_free or the parent-death signal). */
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != host)
		_exit(1);
	proc_close_fds(notify_fd, sock);
	struct proc *pr = malloc(sizeof *pr);
	struct observer_core *o = pr != NULL ? observer_core_new(p, notify_fd, proc_send_denial, pr) : NULL;
	if (o == NULL)
		_exit(1);
	pr->sock = sock;
	if (weak_port == OBSERVER_AUDITED)
		observer_core_audited(o);
	else if (weak_port >= 0)
		observer_core_weak(o, weak_port);
	struct observer_stats *st = observer_core_stats(o);
	/* Without it (before Linux 6.6) every call still works, slower. */
	st->sync_wake = ioctl(notify_fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, 0) == 0;
	/* Blocked in the receive itself: the kernel's direct hand-over wakes
	 * a receiver (a poll() first would cost one more syscall a call). It
	 * returns at once, failing, when no process is left under the filter;
	 * a failure with processes left is one that died meanwhile. */
	bool told = false;
	for (;;) {
		if (observer_core_step(o) == 0) {
			/* the host's end-of-run hint needs to know at once */
			if (st->unreadable > 0 && !told)
				proc_send_stats(sock, st);
			told = st->unreadable > 0;
			continue;
		}
		struct pollfd pf = { notify_fd, POLLIN, 0 };
		if (poll(&pf, 1, 0) < 0 && errno != EINTR)
			break;
		if (pf.revents & (POLLHUP | POLLERR | POLLNVAL))
			break;
	}
	proc_send_stats(sock, st);
	_exit(0);
}

static const char *get_str(const char **at, const char *end)
{
	if (*at >= end || !**at) {
		*at += *at < end;
		return NULL;
	}
	const char *s = *at + 1, *nul = memchr(s, '\0', (size_t)(end - s));
	if (nul == NULL) {
		*at = end;
		return NULL;
	}
	*at = nul + 1;
	return s;
}

static void host_denial(struct observer *o, const char *buf, size_t len)
{
	struct rec r;
	struct denial d = { 0 };
	if (len < sizeof r)
		return;
	memcpy(&r, buf, sizeof r);
	const char *at = buf + sizeof r, *end = buf + len;
	const char *target = get_str(&at, end), *rule = get_str(&at, end), *file = get_str(&at, end),
		   *value = get_str(&at, end);
	if (denial_set(&d, "", "", target, rule) < 0)
		return;
	d.ts_ms = r.u.d.ts_ms;
	d.pid = r.u.d.pid;
	d.pgid = r.u.d.pgid;
	d.rule_line = r.u.d.rule_line;
	memcpy(d.comm, r.u.d.comm, sizeof d.comm);
	memcpy(d.op, r.u.d.op, sizeof d.op);
	memcpy(d.layer, r.u.d.layer, sizeof d.layer);
	d.comm[sizeof d.comm - 1] = d.op[sizeof d.op - 1] = d.layer[sizeof d.layer - 1] = '\0';
	d.rule_file = file != NULL ? strdup(file) : NULL;
	const char *code = r.u.d.key ? strchr(suggest_codes, r.u.d.key) : NULL;
	if (code != NULL && value != NULL) {
		d.suggest.kind = (enum suggest_kind)(SUGGEST_RW + (code - suggest_codes));
		snprintf(d.suggest.value, sizeof d.suggest.value, "%s", value);
		d.suggest.create = r.u.d.create == 'f' || r.u.d.create == 'd' ? r.u.d.create : 0;
		d.suggest.mode = r.u.d.mode & 07777;
	}
	if (o->cb != NULL)
		o->cb(&d, o->arg);
	denial_clear(&d);
}

static void host_reap(struct observer *o)
{
	o->done = true;
	if (o->watch != NULL)
		watch_del(o->watch);
	o->watch = NULL;
	if (o->pid > 0 && o->pidfd < 0)
		while (waitpid(o->pid, NULL, 0) < 0 && errno == EINTR)
			;
	o->pid = -1;
	if (o->pidfd >= 0)
		close(o->pidfd);
	o->pidfd = -1;
}

/* Reads what the observer process sent, without waiting. The message
 * buffer is on the stack, not in struct observer: 16 KiB a pane that an
 * idle pane would keep for nothing. */
void observer_drain(struct observer *o)
{
	char buf[REC_MAX];
	while (o != NULL && !o->done) {
		ssize_t n = recv(o->sock, buf, sizeof buf, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0) {
			host_reap(o); /* it exited (or died): nothing more comes */
			return;
		}
		if (buf[0] == 'D')
			host_denial(o, buf, (size_t)n);
		else if (buf[0] == 'S' && (size_t)n == sizeof(struct rec))
			memcpy(&o->stats, &((const struct rec *)(const void *)buf)->u.s, sizeof o->stats);
	}
}

static void host_ready(struct watch *w, int events, void *arg)
{
	(void)w;
	(void)events;
	observer_drain(arg);
}

void observer_finish(struct observer *o, int timeout_ms)
{
	uint64_t until = loop_now_ms() + (uint64_t)timeout_ms;
	while (o != NULL && !o->done) {
		uint64_t now = loop_now_ms();
		struct pollfd pf = { o->sock, POLLIN, 0 };
		if (now >= until || (poll(&pf, 1, (int)(until - now)) < 0 && errno != EINTR))
			return;
		observer_drain(o);
	}
}

struct observer *observer_new_from(struct observer_zygote *zygote, struct loop *loop, const struct policy *p,
				   int notify_fd, int weak_port, observer_cb cb, void *arg)
{
	int sv[2];
	struct observer *o = calloc(1, sizeof *o);
	if (o == NULL || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		free(o);
		close(notify_fd);
		return NULL;
	}
	*o = (struct observer){ .loop = loop, .sock = sv[0], .pid = -1, .pidfd = -1, .cb = cb, .arg = arg };
	if (zygote != NULL) {
		o->pidfd = observer_zygote_spawn(zygote, p, notify_fd, sv[1], weak_port, &o->pid);
		if (o->pidfd < 0)
			o->pid = -1;
	} else {
		pid_t host = getpid();
		o->pid = fork();
		if (o->pid == 0)
			observer_proc_main(host, p, notify_fd, weak_port, sv[1]);
	}
	int e = errno;
	close(sv[1]);
	close(notify_fd); /* the observer process holds the only copy */
	if (o->pid < 0 || (o->watch = watch_add(loop, o->sock, LOOP_IN, host_ready, o)) == NULL) {
		e = o->pid < 0 ? e : errno;
		observer_free(o);
		errno = e;
		return NULL;
	}
	return o;
}

struct observer *observer_new(struct loop *loop, const struct policy *p, int notify_fd, int weak_port, observer_cb cb,
			      void *arg)
{
	return observer_new_from(NULL, loop, p, notify_fd, weak_port, cb, arg);
}

const struct observer_stats *observer_stats(const struct observer *o)
{
	return &o->stats;
}

bool observer_done(const struct observer *o)
{
	return o->done;
}

void observer_free(struct observer *o)
{
	if (o == NULL)
		return;
	if (o->pidfd >= 0)
		syscall(SYS_pidfd_send_signal, o->pidfd, SIGKILL, NULL, 0);
	else if (o->pid > 0)
		kill(o->pid, SIGKILL);
	host_reap(o);
	close(o->sock);
	free(o);
}
