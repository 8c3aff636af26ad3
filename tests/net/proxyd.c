/* proxyd: sandmux's proxy alone on a host port, with a policy file, for
 * tests and benchmarks that want it outside a sandbox (tests/bench/proxy.sh).
 * usage: proxyd POLICY.json PORT  -- prints its stats on SIGTERM/SIGINT.
 * Built against sandmux's objects: see tests/bench/proxy.sh. */
#include <arpa/inet.h>
#include <limits.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "backends/loop.h"
#include "backends/proxy.h"

struct proxyd {
	bool done;
	unsigned denials;
};

static void on_denial(struct denial *d, void *arg)
{
	struct proxyd *pd = arg;
	char line[4400];
	proxy_denial_format(d, line, sizeof line);
	fprintf(stderr, "proxyd:%s\n", line);
	pd->denials++;
}

static void on_signal(struct watch *w, int events, void *arg)
{
	(void)events;
	struct signalfd_siginfo si;
	if (read(watch_fd(w), &si, sizeof si) == (ssize_t)sizeof si)
		((struct proxyd *)arg)->done = true;
}

static int listen_on(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 1024) < 0) {
		perror("proxyd: listen");
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: proxyd POLICY.json PORT\n");
		return 2;
	}
	char ws[PATH_MAX];
	struct policy_opts o = { .home = getenv("HOME"),
				 .workspace = getcwd(ws, sizeof ws),
				 .user_file = argv[1],
				 .admin_file = "/nonexistent",
				 .profile_flag = "workspace" };
	struct policy *p;
	struct perr err = { 0 };
	if (policy_load(&o, &p, &err) < 0) {
		fprintf(stderr, "proxyd: %s\n", err.msg);
		return 2;
	}
	int fd = listen_on(atoi(argv[2]));
	struct loop *loop = loop_new();
	struct proxyd pd = { 0 };
	const char *why = NULL;
	struct proxy *px = fd < 0 ? NULL : proxy_new(loop, p, fd, on_denial, &pd, &why);
	if (px == NULL) {
		fprintf(stderr, "proxyd: %s\n", why ? why : "no listener");
		return 1;
	}
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	int sfd = signalfd(-1, &set, SFD_CLOEXEC);
	struct watch *sw = watch_add(loop, sfd, LOOP_IN, on_signal, &pd);
	signal(SIGPIPE, SIG_IGN);
	fprintf(stderr, "proxyd: listening on 127.0.0.1:%s\n", argv[2]);
	while (!pd.done)
		loop_once(loop, -1);
	const struct proxy_stats *st = proxy_stats(px);
	fprintf(stderr,
		"proxyd: accepted %llu tunnels %llu denied %llu bad %llu too_large %llu socks_errors %llu "
		"dns_failed %llu connect_failed %llu timeouts %llu active %llu\n",
		(unsigned long long)st->accepted, (unsigned long long)st->tunnels, (unsigned long long)st->denied,
		(unsigned long long)st->bad_request, (unsigned long long)st->too_large,
		(unsigned long long)st->socks_errors, (unsigned long long)st->dns_failed,
		(unsigned long long)st->connect_failed, (unsigned long long)st->timeouts,
		(unsigned long long)st->active);
	proxy_free(px);
	watch_del(sw);
	close(sfd);
	loop_free(loop);
	policy_free(p);
	return 0;
}
