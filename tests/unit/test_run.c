/* run: a running sandbox through backends/run.h. Its command's end, its
 * denials through the one callback, and fail-closed: a start that fails
 * after the launch (here at the proxy: a bad SANDMUX_DNS) leaves nothing
 * running, checked from outside (no child of this process is left, no
 * process carries the command's marker); the same when the observer
 * cannot be watched (the loop's epoll fd made unusable). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/launch.h"
#include "backends/loop.h"
#include "backends/run.h"
#include "policy/denial.h"
#include "policy/policy.h"
#include "tests/unit/unit.h"

struct seen {
	int denials, code, sig;
	bool exited;
	char layer[12], op[12];
};

static void on_denial(struct denial *d, void *arg)
{
	struct seen *s = arg;
	s->denials++;
	snprintf(s->layer, sizeof s->layer, "%s", d->layer);
	snprintf(s->op, sizeof s->op, "%s", d->op);
}

static void on_exit_cb(int code, int sig, void *arg)
{
	struct seen *s = arg;
	s->exited = true;
	s->code = code;
	s->sig = sig;
}

/* Is a process whose command line holds marker running (or a zombie)? */
static bool marker_alive(const char *marker)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	bool found = false;
	while (d != NULL && !found && (e = readdir(d)) != NULL) {
		char path[300], buf[4096];
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
		if (fd >= 0)
			close(fd);
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] == '\0')
				buf[i] = ' ';
		buf[n > 0 ? n : 0] = '\0';
		found = strstr(buf, marker) != NULL;
	}
	if (d != NULL)
		closedir(d);
	return found;
}

static void opts(struct run_opts *o, struct policy *p, char *const *argv, struct seen *s, int null)
{
	run_opts_init(o);
	o->policy = p;
	o->argv = argv;
	static char *const env[] = { "PATH=/usr/bin:/bin", NULL };
	o->envp = env;
	for (int i = 0; i < 3; i++)
		o->stdio[i] = null;
	o->on_denial = on_denial;
	o->on_exit = on_exit_cb;
	o->arg = s;
}

static void wait_exit(struct loop *l, struct seen *s)
{
	uint64_t end = loop_now_ms() + 20000;
	while (!s->exited && loop_now_ms() < end)
		loop_once(l, 100);
}

static void test_runs(struct unit *u, struct loop *l, struct policy *p, int null)
{
	struct run_opts o;
	struct seen s = { 0 };
	char err[512] = "";
	opts(&o, p, (char *[]){ "sh", "-c", "exit 3", NULL }, &s, null);
	struct run *r = run_start(l, &o, err, sizeof err);
	CHECK(u, r != NULL);
	wait_exit(l, &s);
	CHECK(u, s.exited && s.code == 3 && s.sig == 0);
	CHECK(u, run_exited(r) && run_pid(r) == -1);
	run_stop(r, false);

	/* a signal, as the sandbox's init reports it */
	s = (struct seen){ 0 };
	opts(&o, p, (char *[]){ "sh", "-c", "kill -TERM $$", NULL }, &s, null);
	r = run_start(l, &o, err, sizeof err);
	wait_exit(l, &s);
	CHECK(u, s.exited && s.code == 128 + 15 && s.sig == 15);
	run_stop(r, false);

	/* the observer's denial arrives through the one callback */
	s = (struct seen){ 0 };
	opts(&o, p, (char *[]){ "sh", "-c", "echo x > /etc/test_run 2>/dev/null", NULL }, &s, null);
	o.observer = true;
	r = run_start(l, &o, err, sizeof err);
	CHECK(u, r != NULL);
	char layers[200];
	run_layers(r, layers, sizeof layers);
	CHECK(u, strstr(layers, "observer") != NULL && strstr(layers, "landlock") != NULL);
	wait_exit(l, &s);
	run_stop(r, false);
	CHECK(u, access("/etc/test_run", F_OK) < 0);
	CHECK(u, s.denials >= 1);
	CHECK_STR(u, s.layer, "observer");
	CHECK_STR(u, s.op, "create");

	/* stopping a running sandbox ends it */
	s = (struct seen){ 0 };
	opts(&o, p, (char *[]){ "sh", "-c", "sleep 100", NULL }, &s, null);
	r = run_start(l, &o, err, sizeof err);
	CHECK(u, r != NULL && run_pid(r) > 0);
	run_stop(r, true);
	errno = 0;
	CHECK(u, waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);
}

/* The proxy cannot start (SANDMUX_DNS is not IP:PORT) after the command
 * is running: nothing may be left of it. */
static void test_fail_closed(struct unit *u, struct loop *l, struct policy *p, int null, bool observer)
{
	struct run_opts o;
	struct seen s = { 0 };
	char err[512] = "", marker[64], script[128];
	snprintf(marker, sizeof marker, "sandmux-test-run-%d-%d", (int)getpid(), observer);
	snprintf(script, sizeof script, "sleep 100; : %s", marker);
	opts(&o, p, (char *[]){ "sh", "-c", script, NULL }, &s, null);
	o.observer = observer;
	p->net.mode = NET_PROXY;
	setenv("SANDMUX_DNS", "not-an-address", 1);
	struct run *r = run_start(l, &o, err, sizeof err);
	unsetenv("SANDMUX_DNS");
	p->net.mode = NET_NONE;
	CHECK(u, r == NULL);
	CHECK(u, strncmp(err, "proxy: SANDMUX_DNS: ", 20) == 0);
	if (r != NULL)
		run_stop(r, true);
	/* from outside: no child of ours (the sandbox's init, the observer
	 * process) is left, running or unreaped, and the command is gone */
	errno = 0;
	CHECK(u, waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);
	CHECK(u, !marker_alive(marker));
	CHECK(u, !s.exited);
}

/* The loop's epoll fd, found in /proc/self/fd; -1 when not found. */
static int loop_epoll_fd(void)
{
	for (int fd = 3; fd < 256; fd++) {
		char path[64], link[64];
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		ssize_t n = readlink(path, link, sizeof link - 1);
		if (n > 0 && (link[n] = '\0', strcmp(link, "anon_inode:[eventpoll]") == 0))
			return fd;
	}
	return -1;
}

/* The observer step fails (its socket cannot be watched: the loop's
 * epoll fd is /dev/null for the while) after the command was launched:
 * the sandbox and the observer process must both be gone. */
static void test_observer_fails(struct unit *u, struct loop *l, struct policy *p, int null)
{
	struct run_opts o;
	struct seen s = { 0 };
	char err[512] = "";
	int ep = loop_epoll_fd(), saved = ep >= 0 ? dup(ep) : -1;
	CHECK(u, ep >= 0 && saved >= 0);
	if (ep < 0 || saved < 0)
		return;
	opts(&o, p, (char *[]){ "sh", "-c", "sleep 100", NULL }, &s, null);
	o.observer = true;
	dup2(null, ep);
	struct run *r = run_start(l, &o, err, sizeof err);
	dup2(saved, ep);
	close(saved);
	CHECK(u, r == NULL);
	CHECK(u, strncmp(err, "observer: ", 10) == 0);
	if (r != NULL)
		run_stop(r, true);
	errno = 0;
	CHECK(u, waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);
}

int main(void)
{
	struct unit u = { 0 };
	struct features f;
	features_probe(&f);
	if (!f.userns || f.landlock_abi == 0) {
		printf("# no user namespaces or Landlock here: real launches skipped\n");
		return unit_done(&u, "test_run");
	}
	struct policy p = { 0 };
	p.profile = "unit";
	p.workspace = "/";
	p.sandboxed = p.read_all = p.tmp_writable = true;
	p.net.mode = NET_NONE;
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	struct loop *l = loop_new();
	CHECK(&u, l != NULL && null >= 0);
	test_runs(&u, l, &p, null);
	test_fail_closed(&u, l, &p, null, false);
	test_fail_closed(&u, l, &p, null, true);
	test_observer_fails(&u, l, &p, null);
	test_runs(&u, l, &p, null); /* the loop works again */
	loop_free(l);
	close(null);
	return unit_done(&u, "test_run");
}
