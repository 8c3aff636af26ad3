/* launch: the launcher's pieces that need no person to watch: the
 * child-to-parent channel (errors and fds), the glob walk that finds what
 * to cover, the path helpers the observer uses, and real launches with a
 * hand-filled policy: a status comes back, and a failing step stops the
 * command with "STEP: what: strerror". */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/chan.h"
#include "backends/launch.h"
#include "backends/ns.h"
#include "backends/sandbox.h"
#include "policy/ignore.h"
#include "policy/policy.h"
#include "tests/unit/unit.h"

static const struct origin hard = { .layer = LAYER_HARDCODED };

static void test_chan(struct unit *u)
{
	int sv[2], p1[2], p2[2];
	struct chan_msg m;
	CHECK(u, socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) == 0);
	CHECK(u, pipe(p1) == 0 && pipe(p2) == 0);
	chan_send_err(sv[1], "mount: bind /x on /y", "No such file or directory");
	CHECK(u, chan_send_fds(sv[1], p1[0], -1, p2[0], 4242) == 0);
	close(sv[1]);
	CHECK_INT(u, chan_recv(sv[0], &m), 1);
	CHECK(u, m.type == 'E');
	CHECK_STR(u, m.text, "mount: bind /x on /y: No such file or directory");
	CHECK_INT(u, chan_recv(sv[0], &m), 1);
	CHECK(u, m.type == 'F');
	CHECK_INT(u, m.port, 4242);
	CHECK(u, m.notify_fd >= 0 && m.proxy_fd == -1 && m.pty_fd >= 0);
	/* The passed fds are the pipes' read ends: data written arrives. */
	CHECK_INT(u, write(p1[1], "a", 1), 1);
	CHECK_INT(u, write(p2[1], "b", 1), 1);
	char c = 0;
	CHECK(u, read(m.notify_fd, &c, 1) == 1 && c == 'a');
	CHECK(u, read(m.pty_fd, &c, 1) == 1 && c == 'b');
	CHECK(u, fcntl(m.notify_fd, F_GETFD) & FD_CLOEXEC);
	CHECK_INT(u, chan_recv(sv[0], &m), 0); /* end of file */
	close(sv[0]);
}

static void touch(const char *dir, const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	for (char *s = path + strlen(dir) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(path, 0755);
			*s = '/';
		}
	close(open(path, O_CREAT | O_WRONLY, 0644));
}

static bool has(const struct ns_paths *p, const char *dir, const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->v[i], path) == 0)
			return true;
	return false;
}

static void add(struct rules *r, const char *dir, const char *rel)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s%s%s", dir, rel ? "/" : "", rel ? rel : "");
	rules_add(r, buf, hard);
}

static void test_walk(struct unit *u)
{
	char d[] = "/tmp/test_launch.XXXXXX";
	CHECK(u, mkdtemp(d) != NULL);
	const char *files[] = { "a.pem",
				"sub/b.pem",
				"sub/deep/c.pem",
				"keep.txt",
				"x.code-workspace",
				"sub/y.code-workspace",
				".vscode/settings.json",
				".cursor/rules/r.json",
				".cursor/c.json" };
	for (size_t i = 0; i < sizeof files / sizeof *files; i++)
		touch(d, files[i]);
	struct rules g = { 0 }, ex = { 0 };
	struct ns_paths out = { 0 };
	add(&g, d, "**/*.pem");
	add(&g, d, "*.code-workspace");
	add(&g, d, ".vscode/**");
	add(&g, d, ".cursor/**/*.json");
	add(&g, d, "missing/literal");
	add(&ex, d, ".cursor/rules/**");
	CHECK_INT(u, ns_glob_walk(&g, &ex, &out), 0);
	CHECK(u, has(&out, d, "a.pem") && has(&out, d, "sub/b.pem") && has(&out, d, "sub/deep/c.pem"));
	CHECK(u, has(&out, d, "x.code-workspace"));
	CHECK(u, !has(&out, d, "sub/y.code-workspace")); /* `*` stays within one level */
	CHECK(u, has(&out, d, ".vscode"));               /* the directory itself, not descended */
	CHECK(u, !has(&out, d, ".vscode/settings.json"));
	CHECK(u, has(&out, d, ".cursor/c.json"));
	CHECK(u, !has(&out, d, ".cursor/rules/r.json")); /* a writable exception */
	CHECK(u, !has(&out, d, "keep.txt") && !has(&out, d, "missing/literal"));
	CHECK_INT(u, out.n, 6);
	CHECK(u, ns_paths_under(&out, strcat(strcpy((char[4200]){ 0 }, d), "/.vscode/x")));
	ns_paths_free(&out);
	rules_free(&g);
	rules_free(&ex);
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
	CHECK_INT(u, system(cmd), 0);
}

/* The ignore files' walk: git's order, ignored directories and .git not
 * descended into. */
static void test_ignore_walk(struct unit *u)
{
	char d[] = "/tmp/test_launch.XXXXXX", file[4200], cmd[4200];
	CHECK(u, mkdtemp(d) != NULL);
	const char *files[] = { "a.env",         "keep.env",          "sub/b.env",  "secrets/key",
				"build/out.txt", "sub/build/out.txt", ".git/x.env", "readme" };
	for (size_t i = 0; i < sizeof files / sizeof *files; i++)
		touch(d, files[i]);
	const char *text = "*.env\nsecrets/\n/build/out.txt\n!keep.env\n";
	struct policy p = { .workspace = d };
	struct perr e = { 0 };
	struct ns_paths out = { 0 };
	snprintf(file, sizeof file, "%s/.cursorignore", d);
	CHECK_INT(u, ignore_parse(&p.ignore, file, text, strlen(text), &e), 0);
	CHECK_INT(u, ns_ignore_walk(&p, &out), 0);
	CHECK(u, has(&out, d, "a.env") && has(&out, d, "sub/b.env") && has(&out, d, "build/out.txt"));
	CHECK(u, has(&out, d, "secrets") && !has(&out, d, "secrets/key")); /* the directory, not descended */
	CHECK(u, !has(&out, d, "keep.env") && !has(&out, d, "sub/build/out.txt") && !has(&out, d, "readme"));
	CHECK(u, !has(&out, d, ".git/x.env"));
	CHECK_INT(u, out.n, 4);
	ns_paths_free(&out);
	rules_free(&p.ignore);
	perr_free(&e);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
	CHECK_INT(u, system(cmd), 0);
}

static void test_paths(struct unit *u)
{
	struct policy p = { 0 };
	char buf[4096];
	p.workspace = "/tmp/ws";
	p.tmpdir = "/home/u/.sandmux/state/tmp/run-1";
	CHECK(u, path_under("/a/b", "/a") && path_under("/a", "/a") && !path_under("/ab", "/a"));
	CHECK(u, path_under("/anything", "/"));
	CHECK_STR(u, launch_host_path(&p, "/tmp/x/y", buf, sizeof buf), "/home/u/.sandmux/state/tmp/run-1/x/y");
	CHECK_STR(u, launch_host_path(&p, "/var/tmp", buf, sizeof buf), "/home/u/.sandmux/state/tmp/run-1");
	CHECK_STR(u, launch_host_path(&p, "/tmp/ws/f", buf, sizeof buf), "/tmp/ws/f"); /* bound back */
	CHECK_STR(u, launch_host_path(&p, "/tmpfoo", buf, sizeof buf), "/tmpfoo");
	CHECK(u, launch_dev_allowed("/dev/null") && launch_dev_allowed("/dev/pts/3"));
	CHECK(u, !launch_dev_allowed("/dev/sda") && !launch_dev_allowed("/dev/nullx"));
	CHECK(u, launch_always_readable("/dev") && launch_always_readable("/proc/1/status"));
	CHECK(u, !launch_always_readable("/devx") && !launch_always_readable("/home"));
	char *vars[8] = { 0 };
	size_t n = launch_cache_vars(vars);
	CHECK_INT(u, n, launch_cache_vars(NULL));
	CHECK_STR(u, vars[0], "npm_config_cache=" LAUNCH_CACHE_DIR "/npm");
	CHECK(u, launch_cache_var_is("PIP_CACHE_DIR=/x") && !launch_cache_var_is("PIP_CACHE=/x"));
	for (size_t i = 0; i < n; i++)
		free(vars[i]);
}

/* Whether the weaker sandbox (no user namespaces) may run a policy: only
 * when the policy allows it (allowWeakerSandbox), with Landlock's signal
 * scoping (ABI 6, which has the TCP rules of ABI 4 too) and the observer.
 * Fail closed, one line naming why. */
static void test_weak_refusal(struct unit *u)
{
	struct policy p = { 0 };
	p.sandboxed = true;
	const char *why = launch_weak_refusal(&p, 7, true);
	CHECK(u, why != NULL && strstr(why, "allowWeakerSandbox") != NULL);
	p.allow_weaker = true;
	const enum net_mode modes[] = { NET_NONE, NET_PROXY, NET_HOST };
	for (size_t i = 0; i < 3; i++) {
		p.net.mode = modes[i];
		CHECK(u, launch_weak_refusal(&p, 7, true) == NULL);
		CHECK(u, launch_weak_refusal(&p, 6, true) == NULL);
		why = launch_weak_refusal(&p, 5, true);
		CHECK(u, why != NULL && strstr(why, "Landlock ABI < 6") != NULL);
		CHECK(u, launch_weak_refusal(&p, 0, true) != NULL);
	}
	why = launch_weak_refusal(&p, 7, false);
	CHECK(u, why != NULL && strstr(why, "the observer is required") != NULL);
	p.shared_cache = true;
	CHECK(u, launch_weak_refusal(&p, 7, true) != NULL);
	p.sandboxed = false; /* off: no sandbox to weaken */
	CHECK(u, launch_weak_refusal(&p, 0, false) == NULL);
}

/* A real launch: needs user namespaces, like every sandbox test. */
static int run(struct policy *p, char *const *argv, char *err, size_t errlen)
{
	struct launch l;
	int st;
	launch_init(&l);
	l.policy = p;
	l.argv = argv;
	l.envp = (char *[]){ "PATH=/usr/bin:/bin", NULL };
	int rc = launch_start(&l);
	snprintf(err, errlen, "%s", l.err);
	if (rc < 0)
		return -1;
	if (waitpid(l.pid, &st, 0) != l.pid)
		return -2;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void test_start(struct unit *u)
{
	struct features f;
	features_probe(&f);
	if (!f.userns || f.landlock_abi == 0) {
		printf("# no user namespaces or Landlock here: real launches skipped\n");
		return;
	}
	struct policy p = { 0 };
	char err[512];
	p.profile = "unit";
	p.workspace = "/";
	p.sandboxed = p.read_all = p.tmp_writable = true;
	p.net.mode = NET_NONE;
	CHECK_INT(u, run(&p, (char *[]){ "sh", "-c", "exit 3", NULL }, err, sizeof err), 3);
	CHECK_INT(u, run(&p, (char *[]){ "sh", "-c", "kill -TERM $$", NULL }, err, sizeof err), 128 + 15);
	CHECK_INT(
		u,
		run(&p, (char *[]){ "sh", "-c", "exec 2>/dev/null; echo x > /etc/test_launch", NULL }, err, sizeof err),
		2);
	CHECK(u, access("/etc/test_launch", F_OK) < 0);
	CHECK_INT(u, run(&p, (char *[]){ "/no/such/binary", NULL }, err, sizeof err), -1);
	CHECK_STR(u, err, "exec /no/such/binary: No such file or directory");
	/* want_status: the status comes ahead of init's exit. */
	struct launch l;
	int status = -1, st;
	launch_init(&l);
	l.policy = &p;
	l.argv = (char *[]){ "sh", "-c", "exit 7", NULL };
	l.envp = (char *[]){ "PATH=/usr/bin:/bin", NULL };
	l.want_status = true;
	CHECK_INT(u, launch_start(&l), 0);
	CHECK(u, l.status_fd >= 0 && read(l.status_fd, &status, sizeof status) == (ssize_t)sizeof status);
	CHECK_INT(u, status, 7);
	CHECK(u, waitpid(l.pid, &st, 0) == l.pid && WIFEXITED(st) && WEXITSTATUS(st) == 7);
	close(l.status_fd);
	/* A step that fails stops everything and names itself. */
	p.tmpdir = "/nonexistent/sandmux-tmp";
	CHECK_INT(u, run(&p, (char *[]){ "true", NULL }, err, sizeof err), -1);
	CHECK(u, strncmp(err, "mount: bind /nonexistent/sandmux-tmp on /tmp: ", 46) == 0);
}

int main(void)
{
	struct unit u = { 0 };
	test_chan(&u);
	test_walk(&u);
	test_ignore_walk(&u);
	test_paths(&u);
	test_weak_refusal(&u);
	test_start(&u);
	return unit_done(&u, "test_launch");
}
