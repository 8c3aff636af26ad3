/* audit: Landlock's records as the kernel writes them (Linux 6.18), fed
 * to a watch: matched to the sandbox by the domain its creator's record
 * names, the access records of an event held until the event is whole,
 * other domains ignored, hex-encoded strings decoded; and the observer's
 * filter with write-intent calls left to the records (nothing notified
 * for an unlink or a write to an existing file, creations still are). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <seccomp.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/audit.h"
#include "backends/events.h"
#include "backends/observer.h"
#include "backends/procpath.h"
#include "tests/unit/unit.h"

static const struct origin hard = { .layer = LAYER_HARDCODED };

static void on_denial(struct denial *d, void *arg)
{
	events_emit(arg, d);
}

static void feed(struct audit_watch *w, int type, const char *text)
{
	audit_watch_record(w, type, text, strlen(text));
}

static void test_records(struct unit *u, const struct policy *p)
{
	struct events ev;
	events_init(&ev, NULL);
	struct audit_watch *w = audit_watch_new(NULL, dup(0), p, 4242, on_denial, &ev);
	CHECK(u, w != NULL);
	if (w == NULL)
		return;
	/* another sandbox's first denial: its domain is not ours */
	feed(w, 1423, "audit(1.0:7): domain=aaa blockers=fs.write_file path=\"/etc/passwd\" dev=\"vda\" ino=1");
	feed(w, 1424, "audit(1.0:7): domain=aaa status=allocated mode=enforcing pid=99 uid=0 exe=\"/x\" comm=\"x\"");
	feed(w, 1320, "audit(1.0:7): ");
	CHECK_INT(u, ev.list.n, 0);
	/* ours: the access record comes before the one naming its creator */
	feed(w, 1423, "audit(1.0:8): domain=14bafce8e blockers=fs.remove_file path=\"/etc\" dev=\"vda\" ino=19");
	feed(w, 1424,
	     "audit(1.0:8): domain=14bafce8e status=allocated mode=enforcing pid=4242 uid=0 exe=\"/s\" comm=\"sandmux\"");
	feed(w, 1300, "audit(1.0:8): arch=c000003e syscall=263 success=no exit=-13 ppid=4242 pid=4250 comm=\"rm\"");
	feed(w, 1320, "audit(1.0:8): ");
	CHECK_INT(u, ev.list.n, 1);
	if (ev.list.n == 1) {
		const struct denial *d = &ev.list.v[0];
		CHECK_STR(u, d->op, "remove");
		CHECK_STR(u, d->target, "/etc");
		CHECK_STR(u, d->layer, "landlock");
		CHECK_STR(u, d->comm, "rm");
		CHECK_INT(u, d->pid, 4250);
		CHECK_STR(u, d->rule, "not under a writable path");
	}
	/* a path with a space comes hex-encoded; the other domain still ignored */
	feed(w, 1423, "audit(1.0:9): domain=aaa blockers=fs.write_file path=\"/etc/x\" dev=\"vda\" ino=2");
	feed(w, 1423, "audit(1.0:9): domain=14bafce8e blockers=fs.write_file path=2F6574632F612062 dev=\"vda\" ino=3");
	feed(w, 1300, "audit(1.0:9): arch=c000003e syscall=257 ppid=1 pid=4251 comm=7368206D65");
	/* no end-of-event record: the next serial completes it */
	feed(w, 1424, "audit(2.0:10): domain=14bafce8e status=deallocated denials=5");
	CHECK_INT(u, ev.list.n, 2);
	if (ev.list.n == 2) {
		CHECK_STR(u, ev.list.v[1].op, "write");
		CHECK_STR(u, ev.list.v[1].target, "/etc/a b");
		CHECK_STR(u, ev.list.v[1].comm, "sh me");
	}
	const struct audit_stats *st = audit_watch_stats(w);
	CHECK_INT(u, st->records, 2);
	CHECK_INT(u, st->reported, 2);
	CHECK_INT(u, st->kernel, 5);
	audit_watch_free(w);
	events_free(&ev);
}

/* One call under the filter (op 0 unlink, 1 a write to an existing
 * file, 2 a creation); how many notifications it made, each answered
 * "continue". */
static int notified(const struct policy *p, bool quiet, int op, const char *path)
{
	int sv[2], n = 0, num = -1, st = 0;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		char go;
		close(sv[0]);
		int fd = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 ? observer_install_quiet(p, false, quiet) : -1;
		/* by number: a sendmsg would wait for the observer */
		if (fd < 0 || write(sv[1], &fd, sizeof fd) != sizeof fd || read(sv[1], &go, 1) != 1)
			_exit(3);
		if (op == 0)
			unlink(path);
		else
			close(open(path, op == 1 ? O_WRONLY : O_WRONLY | O_CREAT, 0600));
		_exit(0);
	}
	close(sv[1]);
	int lfd = read(sv[0], &num, sizeof num) == sizeof num ? procpath_take_fd(pid, num) : -1;
	if (write(sv[0], "g", 1) != 1)
		n = -100;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	if (lfd >= 0 && seccomp_notify_alloc(&req, &resp) == 0) {
		for (;;) {
			struct pollfd pf = { lfd, POLLIN, 0 };
			if (poll(&pf, 1, 5000) <= 0 || !(pf.revents & POLLIN))
				break;
			memset(req, 0, sizeof *req);
			if (seccomp_notify_receive(lfd, req) != 0)
				break;
			n++;
			memset(resp, 0, sizeof *resp);
			resp->id = req->id;
			resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
			seccomp_notify_respond(lfd, resp);
		}
		seccomp_notify_free(req, resp);
	}
	waitpid(pid, &st, 0);
	if (lfd >= 0)
		close(lfd);
	close(sv[0]);
	return lfd >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? n : -1;
}

static void test_filter(struct unit *u, const struct policy *p, const char *file)
{
	close(open(file, O_WRONLY | O_CREAT, 0600));
	CHECK_INT(u, notified(p, false, 1, file), 1); /* a write to an existing file: notified */
	/* still notified with the records: a protected file made after launch
	 * has only the observer against it (the observer leaves the rest to
	 * Landlock and its record) */
	CHECK_INT(u, notified(p, true, 1, file), 1);
	CHECK_INT(u, notified(p, true, 2, file), 1);  /* a creation: still notified */
	CHECK_INT(u, notified(p, false, 0, file), 1); /* unlink: notified */
	close(open(file, O_WRONLY | O_CREAT, 0600));
	CHECK_INT(u, notified(p, true, 0, file), 0); /* left to the records */
}

int main(void)
{
	struct unit u = { 0 };
	char dir[] = "/tmp/test_audit.XXXXXX", file[300];
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(file, sizeof file, "%s/f", dir);
	struct policy p;
	memset(&p, 0, sizeof p);
	p.profile = "workspace";
	p.workspace = dir;
	p.sandboxed = true;
	p.read_all = true;
	rules_add(&p.write, dir, hard);
	test_records(&u, &p);
	test_filter(&u, &p, file);
	rules_free(&p.write);
	unlink(file);
	rmdir(dir);
	return unit_done(&u, "test_audit");
}
