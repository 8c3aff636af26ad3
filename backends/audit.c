/* audit: the reader of Landlock's audit records (see audit.h). */
#include "backends/audit.h"

#include <errno.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/landlock.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/launch.h"
#include "backends/loop.h"
#include "backends/sandbox.h"
#include "policy/denial.h"
#include "policy/policy.h"
#include "policy/suggest.h"

/* Newer than Debian 12's headers (Linux 6.15). */
#define REC_LANDLOCK_ACCESS 1423
#define REC_LANDLOCK_DOMAIN 1424
#ifndef AUDIT_NLGRP_READLOG
#define AUDIT_NLGRP_READLOG 1
#endif

#define AUDIT_PENDING 8 /* access records kept for one event */
#define AUDIT_BUF     16384

struct audit_access {
	uint64_t domain;
	char blockers[96];
	char path[PATH_MAX];
};

struct audit_watch {
	struct loop *loop;
	struct watch *watch;
	int fd;
	const struct policy *p;
	pid_t creator;
	observer_cb cb;
	void *arg;
	uint64_t domain; /* ours, once its first record named its creator */
	bool domain_known, ended;
	/* a probe's pid (audit_probe_child): its record coming back means
	 * every record queued before it has been read */
	pid_t barrier;
	bool barrier_seen;
	/* the event being gathered: its records share a serial number */
	uint64_t serial;
	struct audit_access acc[AUDIT_PENDING];
	int nacc;
	pid_t pid;
	char comm[17];
	struct audit_stats stats;
	char buf[AUDIT_BUF] __attribute__((aligned(8)));
};

/* The value of NAME= in a record's text into out: a quoted string, a
 * hex-encoded one (what the kernel writes for a string holding spaces,
 * quotes or controls: untrusted), or a plain word. False when absent. */
static bool audit_field(const char *text, size_t len, const char *name, bool string, char *out, size_t size)
{
	size_t nl = strlen(name);
	for (size_t i = 0; i + nl + 1 < len; i++) {
		if ((i > 0 && text[i - 1] != ' ') || strncmp(text + i, name, nl) != 0 || text[i + nl] != '=')
			continue;
		const char *v = text + i + nl + 1, *end = text + len;
		size_t n = 0;
		if (v < end && *v == '"') {
			for (v++; v + n < end && v[n] != '"'; n++)
				;
		} else {
			for (; v + n < end && v[n] != ' ' && v[n] != '\0'; n++)
				;
		}
		bool hex = string && text[i + nl + 1] != '"' && n % 2 == 0;
		size_t o = 0;
		for (size_t k = 0; k < n && o + 1 < size; k += hex ? 2 : 1) {
			unsigned c = (unsigned char)v[k];
			if (hex && sscanf(v + k, "%2x", &c) != 1)
				break;
			out[o++] = (char)c;
		}
		out[o] = '\0';
		return true;
	}
	return false;
}

static bool audit_number(const char *text, size_t len, const char *name, int base, unsigned long long *val)
{
	char v[32];
	char *end;
	if (!audit_field(text, len, name, false, v, sizeof v))
		return false;
	errno = 0;
	*val = strtoull(v, &end, base);
	return errno == 0 && end != v && *end == '\0';
}

/* What a blocker ("fs.make_reg,fs.refer") asks for; the first one names it. */
static const char *audit_op(const char *blockers, enum fs_op *op, bool *fs)
{
	static const struct {
		const char *prefix;
		enum fs_op op;
	} fsmap[] = {
		{ "fs.write_file", OP_WRITE }, { "fs.truncate", OP_WRITE }, { "fs.ioctl_dev", OP_WRITE },
		{ "fs.remove_", OP_REMOVE },   { "fs.make_", OP_CREATE },   { "fs.refer", OP_RENAME },
		{ "fs.read_", OP_READ },       { "fs.execute", OP_EXEC },
	};
	*fs = false;
	for (size_t i = 0; i < sizeof fsmap / sizeof fsmap[0]; i++)
		if (strncmp(blockers, fsmap[i].prefix, strlen(fsmap[i].prefix)) == 0) {
			*fs = true;
			*op = fsmap[i].op;
			return fs_op_name(fsmap[i].op);
		}
	if (strncmp(blockers, "net.bind", 8) == 0)
		return "bind";
	if (strncmp(blockers, "net.", 4) == 0 || strncmp(blockers, "scope.abstract", 14) == 0)
		return "connect";
	return strncmp(blockers, "scope.signal", 12) == 0 ? "signal" : "syscall";
}

/* One refused access, decided again by the policy for its rule and the
 * broadening to offer, as the observer would have. */
static void audit_report(struct audit_watch *w, const struct audit_access *a)
{
	enum fs_op op = OP_WRITE;
	bool fs;
	const char *name = audit_op(a->blockers, &op, &fs);
	char rule[160], buf[PATH_MAX];
	snprintf(rule, sizeof rule, "Landlock: %s not granted", a->blockers);
	struct denial d = { 0 };
	struct decision dec = { .allow = true };
	const char *host = fs ? launch_host_path(w->p, a->path, buf, sizeof buf) : NULL;
	if (host != NULL)
		dec = policy_decide_path(w->p, host, op);
	if (denial_set(&d, name, "landlock", fs ? a->path : a->blockers, dec.allow ? rule : dec.rule) == 0) {
		if (!dec.allow) {
			d.rule_file = dec.origin.file ? strdup(dec.origin.file) : NULL;
			d.rule_line = dec.origin.line;
		}
		if (host != NULL)
			suggest_path_kind(w->p, host, op, 0, &d.suggest);
		d.pid = w->pid;
		snprintf(d.comm, sizeof d.comm, "%s", w->comm);
		w->stats.reported++;
		if (w->cb != NULL)
			w->cb(&d, w->arg);
	}
	denial_clear(&d);
}

/* The event is complete: its domain record (if any) came after its
 * access records, so they are matched only now. */
static void audit_flush(struct audit_watch *w)
{
	for (int i = 0; i < w->nacc; i++)
		if (w->p != NULL && w->domain_known && w->acc[i].domain == w->domain) {
			w->stats.records++;
			audit_report(w, &w->acc[i]);
		}
	w->nacc = 0;
	w->pid = 0;
	w->comm[0] = '\0';
}

static void audit_domain(struct audit_watch *w, const char *text, size_t len, uint64_t domain)
{
	char status[16];
	unsigned long long v;
	if (!audit_field(text, len, "status", false, status, sizeof status))
		return;
	if (strcmp(status, "allocated") == 0 && w->barrier > 0 && audit_number(text, len, "pid", 10, &v) &&
	    (pid_t)v == w->barrier)
		w->barrier_seen = true;
	else if (strcmp(status, "allocated") == 0 && audit_number(text, len, "pid", 10, &v) && (pid_t)v == w->creator &&
		 !w->domain_known) {
		w->domain = domain;
		w->domain_known = true;
	} else if (strcmp(status, "deallocated") == 0 && w->domain_known && domain == w->domain) {
		w->ended = true;
		if (audit_number(text, len, "denials", 10, &v))
			w->stats.kernel = (int64_t)v;
	}
}

void audit_watch_record(struct audit_watch *w, int type, const char *text, size_t len)
{
	unsigned long long serial = 0, domain = 0;
	const char *colon = memchr(text, ':', len);
	if (strncmp(text, "audit(", 6) != 0 || colon == NULL || sscanf(colon + 1, "%llu", &serial) != 1)
		return;
	if (serial != w->serial)
		audit_flush(w);
	w->serial = serial;
	bool has_domain = audit_number(text, len, "domain", 16, &domain);
	if (type == REC_LANDLOCK_ACCESS && has_domain && w->nacc < AUDIT_PENDING &&
	    (!w->domain_known || domain == w->domain)) {
		struct audit_access *a = &w->acc[w->nacc];
		a->domain = domain;
		if (!audit_field(text, len, "blockers", false, a->blockers, sizeof a->blockers))
			return;
		if (!audit_field(text, len, "path", true, a->path, sizeof a->path))
			a->path[0] = '\0';
		w->nacc++;
	} else if (type == REC_LANDLOCK_DOMAIN && has_domain) {
		audit_domain(w, text, len, domain);
	} else if (type == AUDIT_SYSCALL) {
		unsigned long long pid;
		if (audit_number(text, len, "pid", 10, &pid))
			w->pid = (pid_t)pid;
		audit_field(text, len, "comm", true, w->comm, sizeof w->comm);
	} else if (type == AUDIT_EOE) {
		audit_flush(w);
	}
}

/* Every message waiting on the socket; false once it would block. */
static bool audit_read(struct audit_watch *w)
{
	ssize_t n = recv(w->fd, w->buf, sizeof w->buf - 1, MSG_DONTWAIT);
	if (n < 0) {
		w->stats.lost += errno == ENOBUFS;
		return errno == ENOBUFS || errno == EINTR;
	}
	/* One record a message. Its nlmsg_len is not to be trusted: the
	 * kernel has long left the header out of it (a quirk kept for
	 * auditd), so the message's own size says where the text ends. */
	if (n < (ssize_t)NLMSG_HDRLEN)
		return true;
	const struct nlmsghdr *h = (const struct nlmsghdr *)(const void *)w->buf;
	const char *text = w->buf + NLMSG_HDRLEN;
	size_t len = (size_t)n - NLMSG_HDRLEN;
	while (len > 0 && text[len - 1] == '\0')
		len--;
	audit_watch_record(w, h->nlmsg_type, text, len);
	return true;
}

void audit_watch_drain(struct audit_watch *w)
{
	while (w != NULL && audit_read(w))
		;
}

/* A child restricts itself (no right to make directories), is refused
 * one mkdir, and exits: its record shows the channel works end to end. */
static pid_t audit_probe_child(void)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	struct landlock_ruleset_attr a = { .handled_access_fs = LANDLOCK_ACCESS_FS_MAKE_DIR };
	int rs = (int)syscall(SYS_landlock_create_ruleset, &a, sizeof a, 0);
	if (rs < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || syscall(SYS_landlock_restrict_self, rs, 0) < 0)
		_exit(1);
	if (mkdir("/.sandmux-audit-probe", 0700) == 0) /* not refused: never */
		rmdir("/.sandmux-audit-probe");
	_exit(0);
}

/* Sends a probe through the kernel's queue and reads until its record
 * is back (at most timeout_ms): the queue is first in, first out, so
 * whatever was queued before it has then been read. */
static bool audit_barrier(struct audit_watch *w, int timeout_ms)
{
	w->barrier_seen = false;
	w->barrier = audit_probe_child();
	if (w->barrier > 0)
		while (waitpid(w->barrier, NULL, 0) < 0 && errno == EINTR)
			;
	uint64_t until = loop_now_ms() + (uint64_t)timeout_ms;
	while (w->barrier > 0 && !w->barrier_seen) {
		uint64_t now = loop_now_ms();
		struct pollfd pf = { w->fd, POLLIN, 0 };
		if (now >= until || (poll(&pf, 1, (int)(until - now)) < 0 && errno != EINTR))
			break;
		audit_watch_drain(w);
	}
	w->barrier = 0;
	return w->barrier_seen;
}

void audit_watch_finish(struct audit_watch *w, int timeout_ms)
{
	if (w == NULL)
		return;
	audit_watch_drain(w);
	if (!w->ended)
		audit_barrier(w, timeout_ms);
	audit_flush(w);
}

static void audit_ready(struct watch *watch, int events, void *arg)
{
	(void)watch;
	(void)events;
	audit_watch_drain(arg);
}

struct audit_watch *audit_watch_new(struct loop *loop, int fd, const struct policy *p, pid_t creator, observer_cb cb,
				    void *arg)
{
	struct audit_watch *w = calloc(1, sizeof *w);
	if (w == NULL) {
		close(fd);
		return NULL;
	}
	w->loop = loop;
	w->fd = fd;
	w->p = p;
	w->creator = creator;
	w->cb = cb;
	w->arg = arg;
	w->stats.kernel = -1;
	if (loop != NULL && (w->watch = watch_add(loop, fd, LOOP_IN, audit_ready, w)) == NULL) {
		audit_watch_free(w);
		return NULL;
	}
	return w;
}

const struct audit_stats *audit_watch_stats(const struct audit_watch *w)
{
	return &w->stats;
}

void audit_watch_free(struct audit_watch *w)
{
	if (w == NULL)
		return;
	if (w->watch != NULL)
		watch_del(w->watch);
	if (w->fd >= 0)
		close(w->fd);
	free(w);
}

/* AUDIT_GET's "enabled" (0 off, 1 on, 2 locked on); -1 when this process
 * may not ask (it needs CAP_AUDIT_CONTROL as well). */
static int audit_enabled(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	struct {
		struct nlmsghdr h;
		char pad[64];
	} req = { .h = { .nlmsg_len = NLMSG_LENGTH(0), .nlmsg_type = AUDIT_GET, .nlmsg_flags = NLM_F_REQUEST } };
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	int enabled = -1;
	if (fd < 0 || sendto(fd, &req, req.h.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof kernel) < 0)
		goto out;
	for (int tries = 0; tries < 4; tries++) {
		char buf[1024] __attribute__((aligned(8)));
		struct pollfd pf = { fd, POLLIN, 0 };
		if (poll(&pf, 1, 500) <= 0)
			break;
		ssize_t n = recv(fd, buf, sizeof buf, 0);
		struct nlmsghdr *h = (struct nlmsghdr *)(void *)buf;
		if (n < (ssize_t)NLMSG_HDRLEN || !NLMSG_OK(h, (size_t)n))
			break;
		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(h);
			if (e->error != 0)
				break;
			continue;
		}
		if (h->nlmsg_type == AUDIT_GET && h->nlmsg_len >= NLMSG_LENGTH(sizeof(uint32_t) * 2)) {
			const struct audit_status *st = NLMSG_DATA(h);
			enabled = (int)st->enabled;
			break;
		}
	}
out:
	if (fd >= 0)
		close(fd);
	return enabled;
}

static bool audit_probe(int fd)
{
	struct audit_watch *w = calloc(1, sizeof *w);
	if (w == NULL)
		return false;
	w->fd = fd;
	bool ok = audit_barrier(w, 500);
	free(w);
	return ok;
}

int audit_open(char *why, size_t size)
{
	int abi = landlock_abi();
	if (abi < 7) {
		snprintf(why, size, "Landlock ABI %d here: its audit records need ABI 7 (Linux 6.15)", abi);
		return -1;
	}
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_AUDIT);
	struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_groups = 1u << (AUDIT_NLGRP_READLOG - 1) };
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0) {
		snprintf(why, size, "the audit log cannot be read (%s%s)", strerror(errno),
			 errno == EPERM ? ": it needs CAP_AUDIT_READ" : "");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (audit_enabled() == 0) {
		snprintf(why, size, "auditing is off (auditctl -e 1 turns it on; sandmux never does)");
		close(fd);
		return -1;
	}
	/* a burst of denials must not overflow it (the records would be lost) */
	int sz = 8 << 20;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof sz) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
	if (!audit_probe(fd)) {
		snprintf(why, size,
			 "no Landlock record arrived from a probe (auditing off, or an audit rule excludes type %d)",
			 REC_LANDLOCK_ACCESS);
		close(fd);
		return -1;
	}
	return fd;
}
