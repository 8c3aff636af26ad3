/* capture-layer: what a layer's upper directory is read as, against a
 * host tree made here (under /tmp, so upper/tmp/... names it). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "backends/capture.h"
#include "unit.h"

static void put(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof path, "%s/%s", dir, rel) >= (int)sizeof path)
		return;
	FILE *f = fopen(path, "w");
	if (f != NULL) {
		fputs(text, f);
		fclose(f);
	}
	chmod(path, 0644);
}

static void sub(char *out, size_t size, const char *dir, const char *rel)
{
	if (snprintf(out, size, "%s/%s", dir, rel) >= (int)size)
		out[0] = '\0';
}

/* The upper directory of host (under /tmp) in layer, made: out. */
static void upper_of(char *out, size_t size, const char *layer, const char *host)
{
	snprintf(out, size, "%s/upper", layer);
	mkdir(out, 0755);
	snprintf(out, size, "%s/upper/tmp", layer);
	mkdir(out, 0755);
	snprintf(out, size, "%s/upper%s", layer, host);
	mkdir(out, 0755);
}

static const struct capture_entry *find(const struct capture_list *l, const char *dir, const char *rel)
{
	char path[PATH_MAX];
	sub(path, sizeof path, dir, rel);
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].path, path) == 0)
			return &l->v[i];
	return NULL;
}

static const char *op_of(const struct capture_list *l, const char *dir, const char *rel)
{
	const struct capture_entry *e = find(l, dir, rel);
	return e != NULL ? e->op : NULL;
}

static void test_list(struct unit *u)
{
	char host[] = "/tmp/sandmux-capture-host.XXXXXX", layer[] = "/tmp/sandmux-capture-layer.XXXXXX";
	char up[PATH_MAX], p[PATH_MAX], roots[PATH_MAX];
	if (!CHECK(u, mkdtemp(host) != NULL && mkdtemp(layer) != NULL))
		return;
	/* the host */
	put(host, "same.txt", "a");
	put(host, "changed.txt", "a");
	put(host, "gone.txt", "a");
	sub(p, sizeof p, host, "dir");
	mkdir(p, 0755);
	sub(p, sizeof p, host, "repl");
	mkdir(p, 0755);
	put(host, "repl/old.txt", "a");
	/* its upper layer: layer/upper/tmp/NAME */
	upper_of(up, sizeof up, layer, host);
	put(up, "same.txt", "a");    /* copied up, unchanged: not listed */
	put(up, "changed.txt", "b"); /* write */
	put(up, "new.txt", "n");     /* create */
	sub(p, sizeof p, up, "gone.txt");
	CHECK_INT(u, mknod(p, S_IFCHR | 0000, makedev(0, 0)), 0); /* whiteout: remove */
	sub(p, sizeof p, up, "dir");
	mkdir(p, 0755);                /* exists on the host: not listed */
	put(up, "dir/inner.txt", "i"); /* create */
	sub(p, sizeof p, up, "repl");
	mkdir(p, 0755);
	bool xattr = setxattr(p, "user.overlay.opaque", "y", 1, 0) == 0; /* replace */
	sub(p, sizeof p, up, "newdir");
	mkdir(p, 0755); /* create */
	sub(p, sizeof p, up, "vanished");
	mkdir(p, 0755); /* an overlay's own upper dir (roots): not listed */
	snprintf(roots, sizeof roots, "%s/roots", layer);
	FILE *f = fopen(roots, "w");
	if (f != NULL) {
		fprintf(f, "%s/vanished\n", host);
		fclose(f);
	}

	struct capture_list l = { 0 };
	CHECK_INT(u, capture_list_read(layer, &l), 0);
	CHECK_STR(u, op_of(&l, host, "same.txt"), NULL);
	CHECK_STR(u, op_of(&l, host, "changed.txt"), "write");
	CHECK_STR(u, op_of(&l, host, "new.txt"), "create");
	CHECK_STR(u, op_of(&l, host, "gone.txt"), "remove");
	CHECK_STR(u, op_of(&l, host, "dir"), NULL);
	CHECK_STR(u, op_of(&l, host, "dir/inner.txt"), "create");
	if (xattr)
		CHECK_STR(u, op_of(&l, host, "repl"), "replace");
	CHECK_STR(u, op_of(&l, host, "newdir"), "create");
	CHECK(u, find(&l, host, "newdir") != NULL && find(&l, host, "newdir")->dir);
	CHECK_STR(u, op_of(&l, host, "vanished"), NULL);
	CHECK_INT(u, l.n, xattr ? 6 : 5);
	for (size_t i = 1; i < l.n; i++) /* sorted by path */
		CHECK(u, strcmp(l.v[i - 1].path, l.v[i].path) < 0);
	const struct capture_entry *e = find(&l, host, "changed.txt");
	char want[PATH_MAX];
	snprintf(want, sizeof want, "%s/upper%s/changed.txt", layer, host);
	CHECK_STR(u, e ? e->upper : NULL, want);
	capture_list_free(&l);

	/* settle: a layer holding nothing is removed; discard removes all */
	char empty[] = "/tmp/sandmux-capture-empty.XXXXXX";
	if (CHECK(u, mkdtemp(empty) != NULL)) {
		snprintf(p, sizeof p, "%s/upper", empty);
		mkdir(p, 0755);
		CHECK_INT(u, capture_layer_settle(empty, &l), 0);
		CHECK_INT(u, l.n, 0);
		CHECK(u, access(empty, F_OK) < 0 && errno == ENOENT);
		capture_list_free(&l);
	}
	snprintf(p, sizeof p, "%s/work/x/work", layer);
	snprintf(up, sizeof up, "%s/work", layer);
	mkdir(up, 0700);
	snprintf(up, sizeof up, "%s/work/x", layer);
	mkdir(up, 0700);
	mkdir(p, 0); /* as the kernel leaves its work dirs */
	CHECK_INT(u, capture_discard(layer), 0);
	CHECK(u, access(layer, F_OK) < 0 && errno == ENOENT);
	CHECK_INT(u, capture_list_read(layer, &l), -1);
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", host);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", host);
}

static void test_layer_names(struct unit *u)
{
	char out[PATH_MAX];
	CHECK_INT(u, capture_layer_make("/nonexistent-home", "../x", "p", out, sizeof out), -1);
	CHECK_INT(u, capture_layer_make("/nonexistent-home", "s", "a/b", out, sizeof out), -1);
	CHECK_INT(u, capture_layer_make("relative", "s", "p", out, sizeof out), -1);
}

static void rm_rf(const char *dir)
{
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

/* What is never read nor applied is listed as such: a FIFO where a new
 * file or an existing one would be. */
static void test_special(struct unit *u)
{
	char host[] = "/tmp/sandmux-capture-host.XXXXXX", layer[] = "/tmp/sandmux-capture-layer.XXXXXX";
	char up[PATH_MAX], p[PATH_MAX];
	if (!CHECK(u, mkdtemp(host) != NULL && mkdtemp(layer) != NULL))
		return;
	put(host, "notes.txt", "a");
	sub(p, sizeof p, host, "host.fifo");
	CHECK_INT(u, mkfifo(p, 0644), 0);
	upper_of(up, sizeof up, layer, host);
	sub(p, sizeof p, up, "notes.txt");
	CHECK_INT(u, mkfifo(p, 0644), 0);
	sub(p, sizeof p, up, "new.fifo");
	CHECK_INT(u, mkfifo(p, 0644), 0);
	put(up, "plain.txt", "p");
	sub(p, sizeof p, up, "host.fifo");
	CHECK_INT(u, mknod(p, S_IFCHR | 0000, makedev(0, 0)), 0); /* the host's FIFO removed */
	struct capture_list l = { 0 };
	CHECK_INT(u, capture_list_read(layer, &l), 0);
	const struct capture_entry *a = find(&l, host, "notes.txt"), *b = find(&l, host, "new.fifo"),
				   *c = find(&l, host, "plain.txt");
	CHECK_STR(u, a ? a->op : NULL, "write");
	CHECK_STR(u, a ? a->special : NULL, "fifo");
	CHECK_STR(u, b ? b->special : NULL, "fifo");
	CHECK(u, c != NULL && c->special == NULL && S_ISREG(c->mode));
	const struct capture_entry *d = find(&l, host, "host.fifo");
	CHECK(u, d != NULL && strcmp(d->op, "remove") == 0 && d->special == NULL);
	capture_list_free(&l);
	rm_rf(host);
	rm_rf(layer);
}

/* The layer's lock: one holder at a time, in this process or another. */
static void test_lock(struct unit *u)
{
	char layer[] = "/tmp/sandmux-capture-layer.XXXXXX";
	if (!CHECK(u, mkdtemp(layer) != NULL))
		return;
	int a = capture_layer_lock(layer);
	CHECK(u, a >= 0);
	errno = 0;
	CHECK_INT(u, capture_layer_lock(layer), -1);
	CHECK_INT(u, errno, EWOULDBLOCK);
	pid_t pid = fork();
	if (pid == 0)
		_exit(capture_layer_lock(layer) < 0 && errno == EWOULDBLOCK ? 0 : 1);
	int st = -1;
	waitpid(pid, &st, 0);
	CHECK(u, WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(a);
	int b = capture_layer_lock(layer);
	CHECK(u, b >= 0);
	close(b);
	rmdir(layer);
}

/* discard makes a directory writable before emptying it: never through
 * a symlink swapped in for it meanwhile (a live layer), which would
 * chmod the person's directory. A race: a child exchanges a directory
 * and a symlink to a victim as fast as it can while discard runs. */
static void test_discard_swap(struct unit *u)
{
	char victim[] = "/tmp/sandmux-capture-victim.XXXXXX";
	struct stat st;
	if (!CHECK(u, mkdtemp(victim) != NULL))
		return;
	chmod(victim, 0755);
	for (int round = 0; round < 200; round++) {
		char layer[] = "/tmp/sandmux-capture-layer.XXXXXX", a[PATH_MAX], b[PATH_MAX];
		if (mkdtemp(layer) == NULL)
			break;
		snprintf(a, sizeof a, "%s/a", layer);
		snprintf(b, sizeof b, "%s/b", layer);
		mkdir(a, 0500);
		if (symlink(victim, b) < 0)
			break;
		pid_t pid = fork();
		if (pid == 0)
			for (;;)
				renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
		for (int i = 0; i < 200; i++) /* let it start */
			sched_yield();
		capture_discard(layer);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		unlink(b); /* what discard left: a symlink, an empty directory */
		rmdir(b);
		unlink(a);
		rmdir(a);
		rmdir(layer);
		if (stat(victim, &st) == 0 && (st.st_mode & 07777) != 0755)
			break;
	}
	CHECK_INT(u, stat(victim, &st), 0);
	CHECK_INT(u, (int)(st.st_mode & 07777), 0755);
	rmdir(victim);
}

int main(void)
{
	struct unit u = { 0 };
	test_list(&u);
	test_layer_names(&u);
	test_special(&u);
	test_lock(&u);
	test_discard_swap(&u);
	return unit_done(&u, "test_capture");
}
