/* The control interface's pure parts: target lookup ("ID", "W.N", a
 * name), event kinds, answer scopes, and a prompt raised by its id. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shell/command.h"
#include "shell/escalate-queue.h"
#include "shell/mux.h"
#include "tests/unit/unit.h"

static void test_targets(struct unit *u)
{
	struct server s = { 0 };
	struct window w0 = { .srv = &s, .index = 0 }, w1 = { .srv = &s, .index = 1 };
	struct pane a = { .id = 1, .win = &w0, .name = "shell" }, b = { .id = 2, .win = &w1, .name = "claude" },
		    c = { .id = 5, .win = &w1, .name = "codex" };
	s.windows = &w0;
	w0.next = &w1;
	w0.panes = &a;
	w1.panes = &b;
	b.next = &c;
	CHECK(u, cmd_find_pane(&s, "1") == &a);
	CHECK(u, cmd_find_pane(&s, "5") == &c);
	CHECK(u, cmd_find_pane(&s, "5") == &c);
	CHECK(u, cmd_find_pane(&s, "1.0") == &b); /* window 1, its first pane */
	CHECK(u, cmd_find_pane(&s, "1.1") == &c);
	CHECK(u, cmd_find_pane(&s, "0.0") == &a);
	CHECK(u, cmd_find_pane(&s, "1.2") == NULL);
	CHECK(u, cmd_find_pane(&s, "7.0") == NULL);
	CHECK(u, cmd_find_pane(&s, "1.x") == NULL);
	CHECK(u, cmd_find_pane(&s, "codex") == &c);
	CHECK(u, cmd_find_pane(&s, "nobody") == NULL);
	CHECK(u, cmd_find_pane(&s, "9") == NULL);
	CHECK(u, cmd_find_pane(&s, "") == NULL);
	CHECK(u, cmd_find_pane(&s, NULL) == NULL);
}

/* The verdict of peer_refusal() on a process `depth` levels below a
 * pane's process (this test, made a sandboxed pane's): 'R' refused. */
static char peer_at_depth(struct server *s, int depth)
{
	int fd[2];
	char r = '?';
	if (pipe(fd) < 0)
		return r;
	pid_t top = fork();
	if (top == 0) {
		for (int i = 0; i < depth; i++) {
			pid_t c = fork();
			if (c != 0) { /* each level waits, so the chain holds */
				waitpid(c, NULL, 0);
				_exit(c < 0);
			}
		}
		char v = peer_refusal(s, getpid()) != NULL ? 'R' : 'A';
		_exit(write(fd[1], &v, 1) == 1 ? 0 : 1);
	}
	close(fd[1]);
	if (top > 0 && read(fd[0], &r, 1) != 1)
		r = '?';
	close(fd[0]);
	if (top > 0)
		waitpid(top, NULL, 0);
	return r;
}

/* A program in a pane nests its processes as deep as it likes: the peer
 * check follows the whole chain (the weaker sandbox shares the host's pid
 * namespace, so only the chain tells it from the person's processes). */
static void test_peer_depth(struct unit *u)
{
	struct server s = { 0 };
	struct window w = { .srv = &s };
	struct pane p = { .id = 1, .win = &w, .pid = getpid(), .sandboxed = true };
	s.windows = &w;
	w.panes = &p;
	CHECK_INT(u, peer_at_depth(&s, 2), 'R');
	CHECK_INT(u, peer_at_depth(&s, 300), 'R');
	p.sandboxed = false; /* a pane with profile off runs as the person */
	CHECK_INT(u, peer_at_depth(&s, 2), 'A');
}

static void test_kinds(struct unit *u)
{
	CHECK_INT(u, control_kinds_parse("denial"), 1);
	CHECK_INT(u, control_kinds_parse("denial,exit"), 1 | 8);
	CHECK_INT(u, control_kinds_parse("attention,prompt,answer"), 16 | 2 | 4);
	CHECK_INT(u, control_kinds_parse("denial,weather"), 0);
	CHECK_INT(u, control_kinds_parse(""), 0);
}

static void test_scopes(struct unit *u)
{
	CHECK_INT(u, esc_scope_parse("once"), ESC_ONCE);
	CHECK_INT(u, esc_scope_parse("session"), ESC_SESSION);
	CHECK_INT(u, esc_scope_parse("always"), ESC_ALWAYS_USER);
	CHECK_INT(u, esc_scope_parse("repo"), ESC_ALWAYS_REPO);
	CHECK_INT(u, esc_scope_parse("deny"), ESC_DENY);
	CHECK_INT(u, esc_scope_parse("dismiss"), ESC_DISMISS);
	CHECK_INT(u, esc_scope_parse("Once"), -1);
	CHECK_INT(u, esc_scope_parse(NULL), -1);
	CHECK_STR(u, esc_scope_key(ESC_ALWAYS_REPO), "repo");
}

static int offer(struct esc_pane *e, const char *dir)
{
	struct denial d;
	memset(&d, 0, sizeof d);
	denial_set(&d, "create", "observer", dir, "not under a writable path");
	d.suggest.kind = SUGGEST_RW;
	snprintf(d.suggest.value, sizeof d.suggest.value, "%s", dir);
	int r = esc_offer(e, &d, -1);
	denial_clear(&d);
	return r;
}

static void test_raise(struct unit *u)
{
	struct esc_pane e = { 0 };
	CHECK_INT(u, offer(&e, "/a"), 1);
	CHECK_INT(u, offer(&e, "/b"), 1);
	CHECK_INT(u, offer(&e, "/c"), 1);
	CHECK_INT(u, e.q[0].seq, 1);
	CHECK_INT(u, e.q[2].seq, 3);
	CHECK_INT(u, esc_raise(&e, 3), 0); /* answered by id: it becomes the head */
	CHECK_STR(u, esc_head(&e)->d.target, "/c");
	CHECK_STR(u, e.q[1].d.target, "/a"); /* the rest keep their order */
	CHECK_STR(u, e.q[2].d.target, "/b");
	CHECK_INT(u, esc_raise(&e, 9), -1);
	struct suggestion s;
	CHECK_INT(u, esc_answer(&e, ESC_DISMISS, &s), 0);
	CHECK_INT(u, offer(&e, "/d"), 1);
	CHECK_INT(u, e.q[e.nq - 1].seq, 4); /* ids are never reused in a pane */
	esc_pane_clear(&e);
}

int main(void)
{
	struct unit u = { 0 };
	test_targets(&u);
	test_peer_depth(&u);
	test_kinds(&u);
	test_scopes(&u);
	test_raise(&u);
	return unit_done(&u, "test_ctl");
}
