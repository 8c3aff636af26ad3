/* unixsock-race: tries to reach a host unix socket through the observer's
 * connect() takeover by changing what the checked name means while the
 * call waits. Runs inside the sandbox with its own listener at OWN:
 *   swap: one thread renames a symlink to HOST, then one to OWN, onto
 *         NAME in a loop; the main thread connects to NAME;
 *   flip: one thread rewrites the address in memory between OWN and HOST;
 *         the main thread connects with it;
 *   fdflip: one thread dup2()s an AF_INET and an AF_UNIX socket in turn
 *         onto one fd number while the main thread connects that number
 *         to HOST (the kernel must not look the number up again after
 *         the observer checked the socket).
 * Prints "own=N other=M": connections that reached the sandbox's own
 * listener and that succeeded without reaching it (fdflip: "refused=N
 * unsupported=M other=K", the answers for a unix and an inet socket and
 * the successes). The test checks from outside that the host's server
 * never saw a connection. */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

struct race {
	const char *own, *host, *name;
	struct sockaddr_un addr;
	atomic_int stop;
	atomic_int accepted;
	int listener;
};

static void *swap(void *arg)
{
	struct race *r = arg;
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp", r->name);
	for (unsigned i = 0; !atomic_load(&r->stop); i++) {
		unlink(tmp);
		if (symlink(i & 1 ? r->host : r->own, tmp) == 0)
			rename(tmp, r->name);
	}
	return NULL;
}

static void *flip(void *arg)
{
	struct race *r = arg;
	for (unsigned i = 0; !atomic_load(&r->stop); i++)
		snprintf(r->addr.sun_path, sizeof r->addr.sun_path, "%s", i & 1 ? r->host : r->own);
	return NULL;
}

enum { FLIP_FD = 100 };
static int flip_fds[2];

static void *fdflip(void *arg)
{
	struct race *r = arg;
	while (!atomic_load(&r->stop)) {
		dup2(flip_fds[0], FLIP_FD);
		dup2(flip_fds[1], FLIP_FD);
	}
	return NULL;
}

static int fdflip_main(struct race *r, int n)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	snprintf(a.sun_path, sizeof a.sun_path, "%s", r->host);
	flip_fds[0] = socket(AF_INET, SOCK_STREAM, 0);
	flip_fds[1] = socket(AF_UNIX, SOCK_STREAM, 0);
	pthread_t t;
	pthread_create(&t, NULL, fdflip, r);
	int refused = 0, unsupported = 0, other = 0;
	for (int i = 0; i < n; i++) {
		if (connect(FLIP_FD, (struct sockaddr *)&a, sizeof a) == 0)
			other++;
		else if (errno == EAFNOSUPPORT)
			unsupported++;
		else if (errno == EACCES)
			refused++;
	}
	atomic_store(&r->stop, 1);
	pthread_join(t, NULL);
	printf("refused=%d unsupported=%d other=%d\n", refused, unsupported, other);
	return 0;
}

static void *serve(void *arg)
{
	struct race *r = arg;
	for (;;) {
		int c = accept(r->listener, NULL, NULL);
		if (c < 0)
			return NULL;
		atomic_fetch_add(&r->accepted, 1);
		close(c);
	}
}

static int listen_at(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
	unlink(path);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) < 0 || listen(s, 4096) < 0) {
		perror("own listener");
		exit(2);
	}
	return s;
}

int main(int argc, char **argv)
{
	if (argc != 6)
		return 2;
	static struct race r;
	r.own = argv[2];
	r.host = argv[3];
	r.name = argv[4];
	int n = atoi(argv[5]);
	if (strcmp(argv[1], "fdflip") == 0)
		return fdflip_main(&r, n);
	int flipping = strcmp(argv[1], "flip") == 0;
	r.listener = listen_at(r.own);
	r.addr.sun_family = AF_UNIX;
	snprintf(r.addr.sun_path, sizeof r.addr.sun_path, "%s", flipping ? r.own : r.name);
	pthread_t t, srv;
	pthread_create(&srv, NULL, serve, &r);
	pthread_create(&t, NULL, flipping ? flip : swap, &r);
	int ok = 0;
	for (int i = 0; i < n; i++) {
		int s = socket(AF_UNIX, SOCK_STREAM, 0);
		if (connect(s, (struct sockaddr *)&r.addr, sizeof r.addr) == 0)
			ok++;
		close(s);
	}
	atomic_store(&r.stop, 1);
	pthread_join(t, NULL);
	usleep(200000); /* the accepts still queued */
	int own = atomic_load(&r.accepted);
	printf("own=%d other=%d\n", own, ok > own ? ok - own : 0);
	return 0;
}
