/* reqchan: the request channel's datagrams (reqchan.h). The parser is
 * pure and bounded: a sandboxed program writes what it likes on the
 * channel, and whatever it is gets one line naming what is wrong. */
#include "backends/reqchan.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "backends/fdpass.h"

#define MAGIC       "sandmux-request/1"
#define REPLY_MAGIC "sandmux-reply/1"

static const char *const grant_names[] = { [REQCHAN_WRITE] = "write", [REQCHAN_READ] = "read", [REQCHAN_NET] = "net" };

const char *reqchan_grant_name(enum reqchan_grant g)
{
	return grant_names[g];
}

/* The NUL-terminated string at *off, advanced past it; NULL when the
 * datagram ends first or it is longer than a field may be. */
static const char *next_str(const char *buf, size_t len, size_t *off)
{
	if (*off >= len)
		return NULL;
	const char *s = buf + *off, *nul = memchr(s, '\0', len - *off);
	if (nul == NULL || (size_t)(nul - s) > REQCHAN_MAX_FIELD)
		return NULL;
	*off += (size_t)(nul - s) + 1;
	return s;
}

static bool digits(const char *s, size_t n)
{
	return n > 0 && strspn(s, "0123456789") >= n;
}

/* HOST, HOST:PORT, [V6] or [V6]:PORT: a name or address, never a
 * pattern (the grant is exactly what is asked). */
static bool host_valid(const char *v)
{
	size_t n = strlen(v), h;
	const char *port = NULL;
	if (v[0] == '[') {
		h = strspn(v + 1, "0123456789abcdefABCDEF:.");
		if (h == 0 || v[1 + h] != ']')
			return false;
		if (v[2 + h] == ':')
			port = v + 3 + h;
		else if (v[2 + h] != '\0')
			return false;
	} else {
		h = strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_");
		if (h == 0 || h > 253 || v[0] == '.' || v[0] == '-')
			return false;
		if (v[h] == ':')
			port = v + h + 1;
		else if (v[h] != '\0')
			return false;
	}
	if (port == NULL)
		return true;
	size_t pn = strlen(port);
	if (!digits(port, pn) || pn > 5 || port + pn != v + n)
		return false;
	long p = 0;
	for (size_t i = 0; i < pn; i++)
		p = p * 10 + (port[i] - '0');
	return p >= 1 && p <= 65535;
}

static int bad(char *err, size_t errlen, size_t off, const char *what)
{
	snprintf(err, errlen, "request channel: byte %zu: %s", off, what);
	return -1;
}

/* One TAG VALUE pair of a request into m; -1 with err. */
static int take(struct reqchan_msg *m, const char *tag, const char *v, size_t at, char *err, size_t errlen)
{
	for (int g = 0; g < 3; g++) {
		if (strcmp(tag, grant_names[g]) != 0)
			continue;
		if (m->ngrants >= REQCHAN_MAX_GRANTS)
			return bad(err, errlen, at, "more than 8 grants asked");
		if (g != REQCHAN_NET && v[0] != '/')
			return bad(err, errlen, at, "a path to grant must be absolute");
		if (g == REQCHAN_NET && !host_valid(v))
			return bad(err, errlen, at, "net: want HOST or HOST:PORT (a name or address, no pattern)");
		m->grant[m->ngrants].kind = (enum reqchan_grant)g;
		m->grant[m->ngrants++].value = v;
		return 0;
	}
	if (strcmp(tag, "reason") == 0) {
		if (m->reason != NULL)
			return bad(err, errlen, at, "reason given twice");
		if (strlen(v) > REQCHAN_MAX_REASON)
			return bad(err, errlen, at, "reason: longer than 300 bytes");
		m->reason = v;
	} else if (strcmp(tag, "cwd") == 0) {
		if (m->cwd != NULL || v[0] != '/')
			return bad(err, errlen, at, "cwd: given twice or not absolute");
		m->cwd = v;
	} else if (strcmp(tag, "arg") == 0) {
		if (m->argc >= REQCHAN_MAX_ARGS)
			return bad(err, errlen, at, "more than 128 words in the command");
		m->argv[m->argc++] = v;
		m->argv[m->argc] = NULL;
	} else
		return bad(err, errlen, at, "unknown field");
	return 0;
}

int reqchan_parse(const char *buf, size_t len, struct reqchan_msg *m, char *err, size_t errlen)
{
	memset(m, 0, sizeof *m);
	if (len == 0 || len > REQCHAN_MAX_MSG || buf[len - 1] != '\0')
		return bad(err, errlen, len, "not a request (empty, too long, or no final NUL)");
	size_t off = 0;
	const char *magic = next_str(buf, len, &off), *kind = next_str(buf, len, &off);
	if (magic == NULL || strcmp(magic, MAGIC) != 0)
		return bad(err, errlen, 0, "not a request (want " MAGIC ")");
	if (kind == NULL || (strcmp(kind, "request") != 0 && strcmp(kind, "why") != 0))
		return bad(err, errlen, sizeof MAGIC, "kind: want request or why");
	m->kind = strcmp(kind, "why") == 0 ? REQCHAN_WHY : REQCHAN_REQUEST;
	while (off < len) {
		size_t at = off;
		const char *tag = next_str(buf, len, &off), *v = tag != NULL ? next_str(buf, len, &off) : NULL;
		if (v == NULL)
			return bad(err, errlen, at, "a field without a value, or longer than 4096 bytes");
		if (m->kind == REQCHAN_WHY)
			return bad(err, errlen, at, "why takes no fields");
		if (take(m, tag, v, at, err, errlen) < 0)
			return -1;
	}
	if (m->kind == REQCHAN_REQUEST && (m->argc == 0 || m->argv[0][0] == '\0'))
		return bad(err, errlen, len, "no command to run");
	if (m->kind == REQCHAN_REQUEST && m->cwd == NULL)
		return bad(err, errlen, len, "no cwd");
	return 0;
}

/* Appends s and its NUL at *o; false when it does not fit. */
static bool put(char *buf, size_t size, size_t *o, const char *s)
{
	size_t n = strlen(s) + 1;
	if (n > REQCHAN_MAX_FIELD + 1 || *o + n > size)
		return false;
	memcpy(buf + *o, s, n);
	*o += n;
	return true;
}

size_t reqchan_build(const struct reqchan_msg *m, char *buf, size_t size)
{
	size_t o = 0;
	bool ok = put(buf, size, &o, MAGIC) && put(buf, size, &o, m->kind == REQCHAN_WHY ? "why" : "request");
	for (int i = 0; ok && i < m->ngrants; i++)
		ok = put(buf, size, &o, grant_names[m->grant[i].kind]) && put(buf, size, &o, m->grant[i].value);
	if (ok && m->reason != NULL)
		ok = put(buf, size, &o, "reason") && put(buf, size, &o, m->reason);
	if (ok && m->cwd != NULL)
		ok = put(buf, size, &o, "cwd") && put(buf, size, &o, m->cwd);
	for (int i = 0; ok && i < m->argc; i++)
		ok = put(buf, size, &o, "arg") && put(buf, size, &o, m->argv[i]);
	struct reqchan_msg check;
	char err[128];
	return ok && o <= REQCHAN_MAX_MSG && reqchan_parse(buf, o, &check, err, sizeof err) == 0 ? o : 0;
}

size_t reqchan_reply_build(const char *type, const char *text, char *buf, size_t size)
{
	size_t o = 0;
	return put(buf, size, &o, REPLY_MAGIC) && put(buf, size, &o, type) && put(buf, size, &o, text) ? o : 0;
}

int reqchan_reply_parse(const char *buf, size_t len, const char **type, const char **text)
{
	size_t off = 0;
	if (len == 0 || buf[len - 1] != '\0')
		return -1;
	const char *magic = next_str(buf, len, &off);
	*type = next_str(buf, len, &off);
	*text = *type != NULL ? next_str(buf, len, &off) : NULL;
	return magic != NULL && strcmp(magic, REPLY_MAGIC) == 0 && *text != NULL && off == len ? 0 : -1;
}

int reqchan_send(int sock, const void *buf, size_t len, const int *fds, int nfds)
{
	if (nfds > REQCHAN_FDS) {
		errno = EINVAL;
		return -1;
	}
	return fdpass_send(sock, buf, len, fds, nfds, MSG_DONTWAIT);
}

/* Takes the descriptors and the sender's pid out of a received message;
 * false when more came than fit (they are closed). */
static bool take_cmsgs(struct msghdr *mh, int *fds, int *nfds, pid_t *pid)
{
	bool ok = true;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c != NULL; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS &&
		    c->cmsg_len >= CMSG_LEN(sizeof(struct ucred))) {
			struct ucred uc;
			memcpy(&uc, CMSG_DATA(c), sizeof uc);
			*pid = uc.pid;
		}
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < n; i++) {
			int fd;
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
			if (*nfds < REQCHAN_FDS)
				fds[(*nfds)++] = fd;
			else {
				close(fd);
				ok = false;
			}
		}
	}
	return ok;
}

ssize_t reqchan_recv(int sock, char *buf, size_t size, int *fds, int *nfds, pid_t *pid)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int) * REQCHAN_FDS) + CMSG_SPACE(sizeof(struct ucred))];
	} u;
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.b, .msg_controllen = sizeof u.b };
	*nfds = 0;
	*pid = 0;
	ssize_t r;
	do
		r = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -1;
	bool ok = take_cmsgs(&mh, fds, nfds, pid);
	if (!ok || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
		for (int i = 0; i < *nfds; i++)
			close(fds[i]);
		*nfds = 0;
		errno = EMSGSIZE;
		return -1;
	}
	return r;
}

void reqchan_reply(int sock, const char *type, const char *text)
{
	char buf[REQCHAN_MAX_FIELD + 64];
	size_t n = reqchan_reply_build(type, text, buf, sizeof buf);
	if (n > 0 && sock >= 0)
		(void)reqchan_send(sock, buf, n, NULL, 0);
}
