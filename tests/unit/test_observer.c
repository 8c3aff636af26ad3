/* observer: a child under the filter, the host answering on a loop. No
 * launcher and no Landlock here: what is tested is the observer's own
 * answer (EACCES or continue), its events, and that calls fail (ENOSYS)
 * once the host has closed the listener. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/events.h"
#include "backends/loop.h"
#include "backends/observer-zygote.h"
#include "backends/observer.h"
#include "backends/procpath.h"
#include "tests/unit/unit.h"

static const struct origin hard = { .layer = LAYER_HARDCODED };

static void policy_make(struct policy *p, const char *ws, char *hooks)
{
	memset(p, 0, sizeof *p);
	p->profile = "workspace";
	p->workspace = (char *)ws;
	p->sandboxed = true;
	p->read_all = true;
	rules_add(&p->write, ws, hard);
	snprintf(hooks, 4096, "%s/.git/hooks/**", ws);
	rules_add(&p->protect, hooks, hard);
}

enum { NOPS = 8 };

/* The child's calls; each result (0 or errno) goes back over sock
 * (fds are left open: the child exits right after). */
static void child_ops(int sock, const char *ws, const char *out)
{
	char a[4200], b[4200];
	int res[NOPS];
	int i = 0;
	snprintf(a, sizeof a, "%s/inside", ws);
#define RES(call) (res[i++] = (call) < 0 ? errno : 0)
	RES(open(a, O_CREAT | O_WRONLY, 0600));
	snprintf(a, sizeof a, "%s/new", out);
	RES(open(a, O_CREAT | O_WRONLY, 0600));
	RES(chdir(ws));
	RES(open("../out/rel", O_CREAT | O_RDWR, 0600));
	RES(mkdir("sub", 0700));
	snprintf(b, sizeof b, "%s/.git/hooks/pre-commit", ws);
	RES(rename("inside", b));
	RES(unlink("inside"));
	RES(open("/dev/null", O_WRONLY));
#undef RES
	write(sock, res, sizeof res);
}

static void child(int sock, const struct policy *p, const char *ws, const char *out)
{
	char go;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		_exit(3);
	int fd = observer_install(p, false);
	if (fd < 0)
		_exit(4);
	/* by number, as the launcher does: a sendmsg would wait for the observer */
	if (write(sock, &fd, sizeof fd) != sizeof fd || read(sock, &go, 1) != 1)
		_exit(5);
	close(fd);
	child_ops(sock, ws, out);
	_exit(0);
}

static void on_denial(struct denial *d, void *arg)
{
	d->pane = 7;
	events_emit(arg, d);
}

/* Forks the child; with `close_early`, the host closes the listener
 * before the child's calls instead of answering them. The observer
 * process is forked from z, or from this process when z is NULL. */
static int run_child(struct observer_zygote *z, const struct policy *p, const char *ws, const char *out,
		     bool close_early, struct events *ev, int res[NOPS])
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(sv[0]);
		child(sv[1], p, ws, out);
	}
	close(sv[1]);
	int num = -1, st = -1;
	int fd = read(sv[0], &num, sizeof num) == sizeof num ? procpath_take_fd(pid, num) : -1;
	struct loop *loop = loop_new();
	struct observer *o = NULL;
	if (close_early)
		close(fd);
	else
		o = observer_new_from(z, loop, p, fd, -1, on_denial, ev);
	write(sv[0], "g", 1);
	while (waitpid(pid, &st, WNOHANG) == 0)
		loop_once(loop, 20);
	ssize_t n = read(sv[0], res, NOPS * sizeof(int));
	observer_finish(o, 5000);
	observer_free(o);
	loop_free(loop);
	close(sv[0]);
	return n == NOPS * (ssize_t)sizeof(int) && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static const struct denial *find(const struct events *ev, const char *op, const char *target)
{
	for (size_t i = 0; i < ev->list.n; i++)
		if (strcmp(ev->list.v[i].op, op) == 0 && strcmp(ev->list.v[i].target, target) == 0)
			return &ev->list.v[i];
	return NULL;
}

static void test_answers(struct unit *u, struct observer_zygote *z, const struct policy *p, const char *ws,
			 const char *out)
{
	struct events ev;
	int res[NOPS];
	char path[4200];
	events_init(&ev, NULL);
	CHECK_INT(u, run_child(z, p, ws, out, false, &ev, res), 0);
	CHECK_INT(u, res[0], 0);      /* create in the workspace */
	CHECK_INT(u, res[1], EACCES); /* create outside */
	CHECK_INT(u, res[3], EACCES); /* relative, through .. */
	CHECK_INT(u, res[4], 0);      /* mkdir in the workspace */
	CHECK_INT(u, res[5], EACCES); /* rename into .git/hooks */
	CHECK_INT(u, res[6], 0);      /* unlink in the workspace */
	CHECK_INT(u, res[7], 0);      /* /dev/null */
	snprintf(path, sizeof path, "%s/new", out);
	CHECK(u, access(path, F_OK) < 0);
	const struct denial *d = find(&ev, "create", path);
	CHECK(u, d != NULL);
	if (d != NULL) {
		CHECK_STR(u, d->rule, "not under a writable path");
		CHECK_STR(u, d->layer, "observer");
		CHECK_INT(u, d->pane, 7);
		CHECK_STR(u, suggest_key(d->suggest.kind), SUGGEST_KEY_RW);
		CHECK_STR(u, d->suggest.value, path); /* exactly the new file */
		CHECK(u, d->suggest.create == 'f');
		CHECK(u, d->pid > 0 && d->comm[0] != '\0');
	}
	snprintf(path, sizeof path, "%s/rel", out);
	CHECK(u, find(&ev, "create", path) != NULL);
	snprintf(path, sizeof path, "%s/.git/hooks/pre-commit", ws);
	d = find(&ev, "rename", path);
	CHECK(u, d != NULL && d->suggest.kind == SUGGEST_NONE);
	CHECK_INT(u, ev.list.n, 3);
	events_free(&ev);
}

static void test_fail_closed(struct unit *u, const struct policy *p, const char *ws, const char *out)
{
	struct events ev;
	int res[NOPS];
	char path[4200];
	events_init(&ev, NULL);
	CHECK_INT(u, run_child(NULL, p, ws, out, true, &ev, res), 0);
	/* No host: every notified call fails, allowed or not; others run. */
	CHECK_INT(u, res[0], ENOSYS);
	CHECK_INT(u, res[1], ENOSYS);
	CHECK_INT(u, res[2], 0); /* chdir is not notified */
	CHECK_INT(u, res[4], ENOSYS);
	snprintf(path, sizeof path, "%s/sub", ws);
	CHECK(u, access(path, F_OK) < 0);
	CHECK_INT(u, ev.list.n, 0);
	events_free(&ev);
}

int main(int argc, char **argv)
{
	if (argc == 1 && strcmp(argv[0], OBSERVER_ZYGOTE_NAME) == 0)
		return observer_zygote_main(); /* the zygote: this binary exec'd again */
	struct unit u = { 0 };
	char dir[] = "/tmp/test_observer.XXXXXX", ws[256], out[256], hooks[4096], cmd[1024];
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(ws, sizeof ws, "%s/ws", dir);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/.git/hooks' '%s'", ws, out);
	CHECK_INT(&u, system(cmd), 0);
	struct policy p;
	policy_make(&p, ws, hooks);
	test_answers(&u, NULL, &p, ws, out);
	snprintf(cmd, sizeof cmd, "rm -rf '%s/sub' '%s/inside'", ws, ws);
	CHECK_INT(&u, system(cmd), 0);
	/* the same answers from an observer forked from a zygote, deciding
	 * by the policy packed */
	struct observer_zygote *z = observer_zygote_new();
	test_answers(&u, z, &p, ws, out);
	observer_zygote_free(z);
	CHECK_INT(&u, system(cmd), 0);
	test_fail_closed(&u, &p, ws, out);
	rules_free(&p.write);
	rules_free(&p.protect);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK_INT(&u, system(cmd), 0);
	return unit_done(&u, "test_observer");
}
