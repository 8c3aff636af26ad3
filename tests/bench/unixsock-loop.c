/* unixsock-loop: N connects (each accepted and closed) to a listener of
 * its own: "unix" a pathname socket in the cwd, "tcp" 127.0.0.1. Prints
 * the mean microseconds per connect, timed inside (start-up excluded). */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static void *serve(void *arg)
{
	int l = *(int *)arg;
	for (;;) {
		int c = accept(l, NULL, NULL);
		if (c < 0)
			return NULL;
		close(c);
	}
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	int tcp = strcmp(argv[1], "tcp") == 0, n = atoi(argv[2]);
	struct sockaddr_un un = { .sun_family = AF_UNIX, .sun_path = "bench.sock" };
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr *a = tcp ? (struct sockaddr *)&in : (struct sockaddr *)&un;
	socklen_t len = tcp ? sizeof in : sizeof un;
	int family = tcp ? AF_INET : AF_UNIX;
	unlink(un.sun_path);
	int l = socket(family, SOCK_STREAM, 0);
	if (l < 0 || bind(l, a, len) < 0 || listen(l, 4096) < 0 || getsockname(l, a, &len) < 0) {
		perror("listener");
		return 1;
	}
	pthread_t t;
	pthread_create(&t, NULL, serve, &l);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < n; i++) {
		int s = socket(family, SOCK_STREAM, 0);
		if (connect(s, a, len) < 0) {
			perror("connect");
			return 1;
		}
		close(s);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	unlink(un.sun_path);
	printf("%.1f\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3 / n);
	return 0;
}
