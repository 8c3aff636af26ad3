/* observer-race: tries to turn the observer's "continue" into a write that
 * Landlock refuses, by changing the path in memory while the call waits
 * (one thread flips the path between an allowed and a refused file, the
 * other creates whatever it names). Exit 0: the refused file was created
 * (an escape); 1: it never was. The test checks from outside too. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct race {
	char path[4096];
	const char *good, *evil;
	atomic_int stop;
};

static void *flip(void *arg)
{
	struct race *r = arg;
	size_t n = strlen(r->good) > strlen(r->evil) ? strlen(r->good) : strlen(r->evil);
	for (unsigned i = 0; !atomic_load(&r->stop); i++)
		memcpy(r->path, i & 1 ? r->evil : r->good, n + 1);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	static struct race r;
	r.good = argv[1];
	r.evil = argv[2];
	strcpy(r.path, r.good);
	pthread_t t;
	pthread_create(&t, NULL, flip, &r);
	int escaped = 0, created = 0;
	for (int i = 0; i < atoi(argv[3]) && !escaped; i++) {
		int fd = open(r.path, O_CREAT | O_WRONLY, 0600);
		if (fd >= 0) {
			created++;
			close(fd);
		}
		escaped = access(r.evil, F_OK) == 0;
	}
	atomic_store(&r.stop, 1);
	pthread_join(t, NULL);
	printf("created %d times, escaped: %s\n", created, escaped ? "yes" : "no");
	return escaped ? 0 : 1;
}
