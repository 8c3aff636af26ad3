/* cmd-request: `sandmux request` and `sandmux why`, run inside a pane's
 * sandbox. They talk to the server over the pane's request channel
 * ($SANDMUX_REQUEST_FD, backends/reqchan.h), which only asks: the answer
 * comes on a socketpair of this process's own, passed with the request.
 *
 * request: exits with the command's status once the person approved and
 * it ran; 126 with one line on stderr when refused, denied or timed out. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/reqchan.h"
#include "shell/cmd.h"

#define REFUSED 126

static int fail(const char *verb, const char *why)
{
	fprintf(stderr, "sandmux: %s: %s\n", verb, why);
	return REFUSED;
}

static int channel(void)
{
	const char *v = getenv(REQCHAN_ENV);
	struct stat st;
	if (v == NULL || strcmp(v, "4") != 0 || fstat(LAUNCH_REQUEST_FD, &st) < 0 || !S_ISSOCK(st.st_mode))
		return -1;
	return LAUNCH_REQUEST_FD;
}

/* A relative path is the caller's cwd's; a trailing / is kept (a new
 * directory). */
static const char *absolute(const char *path, const char *cwd, char *buf, size_t cap)
{
	if (path[0] == '/')
		return path;
	if ((size_t)snprintf(buf, cap, "%s/%s", cwd, path) >= cap)
		return NULL;
	return buf;
}

static int parse(int argc, char **argv, struct reqchan_msg *m, char paths[][PATH_MAX], const char *cwd)
{
	int i = 1;
	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int g = strcmp(o, "--write") == 0  ? REQCHAN_WRITE
			: strcmp(o, "--read") == 0 ? REQCHAN_READ
			: strcmp(o, "--net") == 0  ? REQCHAN_NET
						   : -1;
		if (v == NULL || (g < 0 && strcmp(o, "--reason") != 0)) {
			fprintf(stderr, "sandmux: request: %s: unknown option or no value\n", o);
			return -1;
		}
		i++;
		if (g < 0) {
			m->reason = v;
			continue;
		}
		if (m->ngrants >= REQCHAN_MAX_GRANTS) {
			fprintf(stderr, "sandmux: request: at most %d grants\n", REQCHAN_MAX_GRANTS);
			return -1;
		}
		if (g != REQCHAN_NET && (v = absolute(v, cwd, paths[m->ngrants], PATH_MAX)) == NULL) {
			fprintf(stderr, "sandmux: request: %s: path too long\n", argv[i]);
			return -1;
		}
		m->grant[m->ngrants].kind = (enum reqchan_grant)g;
		m->grant[m->ngrants++].value = v;
	}
	if (i + 1 >= argc) {
		fprintf(stderr,
			"usage: sandmux request [--write PATH] [--read PATH] [--net HOST[:PORT]] [--reason TEXT] "
			"-- CMD [ARG...]\n");
		return -1;
	}
	for (i++; i < argc && m->argc < REQCHAN_MAX_ARGS; i++)
		m->argv[m->argc++] = argv[i];
	return i < argc ? -1 : 0;
}

/* Sends the message with the peer of a fresh answer socket (and, for a
 * request, stdio); the answer socket, or -1. */
static int ask(int chan, const char *buf, size_t len, bool stdio)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	int fds[REQCHAN_FDS] = { sv[1], 0, 1, 2 };
	int r;
	while ((r = reqchan_send(chan, buf, len, fds, stdio ? REQCHAN_FDS : 1)) < 0 && errno == EAGAIN) {
		struct pollfd pf = { chan, POLLOUT, 0 };
		poll(&pf, 1, 1000);
	}
	close(sv[1]);
	if (r < 0) {
		close(sv[0]);
		return -1;
	}
	return sv[0];
}

/* One answer: 1 and its type and text, 0 at end of file, -1. */
static int answer(int sock, char *buf, size_t cap, const char **type, const char **text)
{
	ssize_t n;
	do
		n = recv(sock, buf, cap, 0);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return n == 0 ? 0 : -1;
	return reqchan_reply_parse(buf, (size_t)n, type, text) == 0 ? 1 : -1;
}

static int why(int chan)
{
	char buf[REQCHAN_MAX_FIELD + 64];
	struct reqchan_msg m = { .kind = REQCHAN_WHY };
	size_t len = reqchan_build(&m, buf, sizeof buf);
	int sock = len > 0 ? ask(chan, buf, len, false) : -1;
	if (sock < 0)
		return fail("why", "cannot ask the host");
	const char *type, *text;
	int r;
	while ((r = answer(sock, buf, sizeof buf, &type, &text)) == 1 && strcmp(type, "line") == 0)
		printf("%s\n", text);
	close(sock);
	if (r == 1 && strcmp(type, "refused") == 0)
		return fail("why", text);
	return r == 1 && strcmp(type, "end") == 0 ? 0 : fail("why", "the host did not answer");
}

static int request(int chan, int argc, char **argv)
{
	static char paths[REQCHAN_MAX_GRANTS][PATH_MAX];
	char cwd[PATH_MAX], *buf = malloc(REQCHAN_MAX_MSG);
	struct reqchan_msg m = { .kind = REQCHAN_REQUEST };
	if (buf == NULL || getcwd(cwd, sizeof cwd) == NULL)
		return fail("request", "no working directory");
	m.cwd = cwd;
	if (parse(argc, argv, &m, paths, cwd) < 0)
		return 2;
	size_t len = reqchan_build(&m, buf, REQCHAN_MAX_MSG);
	if (len == 0)
		return fail("request", "the request is too long, or a path or host is not valid");
	int sock = ask(chan, buf, len, true);
	if (sock < 0)
		return fail("request", "cannot ask the host");
	const char *type, *text;
	int r = answer(sock, buf, REQCHAN_MAX_MSG, &type, &text);
	close(sock);
	if (r == 1 && strcmp(type, "exit") == 0)
		return atoi(text);
	return fail("request", r == 1 && strcmp(type, "refused") == 0 ? text : "the host ended the request");
}

int cmd_request(int argc, char **argv)
{
	bool is_why = strcmp(argv[0], "why") == 0;
	int chan = channel();
	if (chan < 0)
		return fail(argv[0], "no request channel here (run it inside a sandboxed sandmux pane)");
	return is_why ? why(chan) : request(chan, argc, argv);
}
