/* capture-layer: what a layer's upper directory is read as, against a
 * host tree made here (under /tmp, so upper/tmp/... names it). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	snprintf(up, sizeof up, "%s/upper", layer);
	mkdir(up, 0755);
	snprintf(up, sizeof up, "%s/upper/tmp", layer);
	mkdir(up, 0755);
	snprintf(up, sizeof up, "%s/upper%s", layer, host);
	mkdir(up, 0755);
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

int main(void)
{
	struct unit u = { 0 };
	test_list(&u);
	test_layer_names(&u);
	return unit_done(&u, "test_capture");
}
