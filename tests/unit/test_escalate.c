/* escalate-queue: prompts queue per pane, answers settle what they cover,
 * grants broaden the next start (once only once), denied stays denied. */
#include <stdlib.h>

#include "shell/escalate-queue.h"
#include "tests/unit/unit.h"

static const struct origin hard = { .layer = LAYER_HARDCODED };

static void denial_make(struct denial *d, const char *target, const char *dir)
{
	memset(d, 0, sizeof *d);
	denial_set(d, "create", "observer", target, "not under a writable path");
	d->pane = 1;
	if (dir != NULL) {
		d->suggest.kind = SUGGEST_RW;
		snprintf(d->suggest.value, sizeof d->suggest.value, "%s", dir);
	}
}

static int offer(struct esc_pane *e, const char *target, const char *dir)
{
	struct denial d;
	denial_make(&d, target, dir);
	int r = esc_offer(e, &d, -1);
	denial_clear(&d);
	return r;
}

static void test_queue(struct unit *u)
{
	struct esc_pane e = { 0 };
	CHECK(u, !esc_pending(&e));
	CHECK(u, esc_head(&e) == NULL);
	CHECK_INT(u, offer(&e, "/x/a", "/x"), 1);
	CHECK_INT(u, offer(&e, "/x/b", "/x"), 0); /* the same broadening is already asked */
	CHECK_INT(u, offer(&e, "/y/a", "/y"), 1);
	CHECK_INT(u, offer(&e, "/p/.git/config", NULL), 0); /* nothing to offer: no prompt */
	CHECK_INT(u, e.nq, 2);
	CHECK_STR(u, esc_head(&e)->d.target, "/x/a"); /* oldest first */
	struct suggestion s;
	CHECK_INT(u, esc_answer(&e, ESC_DISMISS, &s), 0);
	CHECK(u, s.kind == SUGGEST_NONE);
	CHECK_STR(u, esc_head(&e)->d.target, "/y/a");
	CHECK_INT(u, offer(&e, "/x/c", "/x"), 1); /* dismissed, not denied: may ask again */
	CHECK_INT(u, esc_answer(&e, ESC_DENY, &s), 0);
	CHECK_INT(u, offer(&e, "/y/b", "/y"), 0); /* denied for the pane's life */
	CHECK_STR(u, esc_head(&e)->d.target, "/x/c");
	esc_pane_clear(&e);
	CHECK(u, !esc_pending(&e));
	CHECK_INT(u, esc_answer(&e, ESC_ONCE, &s), -1);
}

static void test_answer_settles_same(struct unit *u)
{
	struct esc_pane e = { 0 };
	offer(&e, "/x/a", "/x");
	offer(&e, "/y/a", "/y");
	struct suggestion s;
	CHECK_INT(u, esc_answer(&e, ESC_SESSION, &s), 0);
	CHECK_STR(u, suggest_key(s.kind), SUGGEST_KEY_RW);
	CHECK_STR(u, s.value, "/x");
	CHECK_INT(u, e.nq, 1);
	CHECK_INT(u, offer(&e, "/x/z", "/x"), 0); /* granted: no prompt */
	CHECK(u, esc_grants_has(&e.session, &s));
	esc_pane_clear(&e);
}

static void test_broaden(struct unit *u)
{
	struct esc_pane e = { 0 };
	struct suggestion s;
	offer(&e, "/x/a", "/x");
	offer(&e, "/y/a", "/y");
	esc_answer(&e, ESC_ONCE, &s);
	esc_answer(&e, ESC_SESSION, &s);
	struct policy p = { 0 };
	p.sandboxed = p.read_all = true;
	rules_add(&p.write, "/ws", hard);
	esc_broaden(&e, &p, true);
	CHECK(u, policy_decide_path(&p, "/x/a", OP_CREATE).allow);
	CHECK(u, policy_decide_path(&p, "/y/a", OP_CREATE).allow);
	CHECK(u, e.once == NULL); /* once: dropped after the start it was for */
	rules_free(&p.write);
	p.write = (struct rules){ 0 };
	rules_add(&p.write, "/ws", hard);
	esc_broaden(&e, &p, true);
	CHECK(u, !policy_decide_path(&p, "/x/a", OP_CREATE).allow); /* the next start: back to before */
	CHECK(u, policy_decide_path(&p, "/y/a", OP_CREATE).allow);  /* the session grant stays */
	CHECK_INT(u, offer(&e, "/x/q", "/x"), 1);                   /* and /x may be asked again */
	rules_free(&p.write);
	esc_pane_clear(&e);
}

/* A prompt keeps the shell's command line and cwd of its denial; the
 * answer hands them over as what re-runs, whatever the shell said since. */
static void test_rerun_snapshot(struct unit *u)
{
	struct esc_pane e = { 0 };
	e.gate.cmd = strdup("touch /x/a");
	e.gate.cwd = strdup("/ws/sub");
	offer(&e, "/x/a", "/x");
	free(e.gate.cmd);
	e.gate.cmd = strdup("echo later");
	struct suggestion s;
	CHECK_INT(u, esc_answer(&e, ESC_ONCE, &s), 0);
	CHECK_STR(u, e.rerun_cmd, "touch /x/a");
	CHECK_STR(u, e.rerun_cwd, "/ws/sub");
	CHECK(u, e.once != NULL);
	free(e.gate.cmd);
	free(e.gate.cwd);
	esc_pane_clear(&e);
	CHECK(u, e.rerun_cmd == NULL);
}

static void test_osc7(struct unit *u)
{
	char *p = report_osc7_path("file://host/a%20b/c", 19);
	CHECK_STR(u, p, "/a b/c");
	free(p);
	p = report_osc7_path("file:///x", 9);
	CHECK_STR(u, p, "/x");
	free(p);
	CHECK(u, report_osc7_path("http://h/x", 10) == NULL);
	CHECK(u, report_osc7_path("file://host", 11) == NULL);
	CHECK(u, report_osc7_path("file://h/a%00b", 14) == NULL); /* a NUL cannot be in a path */
	p = report_osc7_path("file://h/50%", 12);
	CHECK_STR(u, p, "/50%");
	free(p);
}

/* odd pids are gone; a denial without one (the proxy's) stays */
static bool odd_gone(const struct esc_prompt *q, void *arg)
{
	(void)arg;
	return q->d.pid > 0 && q->d.pid % 2 != 0;
}

/* n steps through a pane's prompts, then says so; prompts of processes
 * that are gone are dropped and counted when the pane moves on. */
static void test_turn_and_stale(struct unit *u)
{
	struct esc_pane e = { 0 };
	struct denial d;
	const char *t[] = { "/a/1", "/b/1", "/c/1" };
	for (int i = 0; i < 3; i++) {
		denial_make(&d, t[i], t[i]);
		d.pid = 10 + i; /* 10 and 12 alive, 11 gone */
		esc_offer(&e, &d, -1);
		denial_clear(&d);
	}
	denial_make(&d, "net", "x.example");
	esc_offer(&e, &d, -1); /* the proxy's: no pid */
	denial_clear(&d);
	CHECK_INT(u, e.nq, 4);
	CHECK(u, esc_turn(&e));
	CHECK_STR(u, esc_head(&e)->d.target, "/b/1");
	CHECK(u, esc_turn(&e));
	CHECK(u, esc_turn(&e));
	CHECK_STR(u, esc_head(&e)->d.target, "net");
	CHECK(u, !esc_turn(&e));                      /* every one shown: the caller moves on */
	CHECK_STR(u, esc_head(&e)->d.target, "/a/1"); /* in order again */
	CHECK_INT(u, esc_drop_stale(&e, odd_gone, NULL), 1);
	CHECK_INT(u, e.nq, 3);
	CHECK_STR(u, e.q[1].d.target, "/c/1");
	CHECK_INT(u, esc_drop_stale(&e, NULL, NULL), 3);
	CHECK_INT(u, e.dropped, 4);
	CHECK(u, !esc_pending(&e));
	esc_pane_clear(&e);
}

/* After an answer, n counts the prompts left from there. */
static void test_turn_after_answer(struct unit *u)
{
	struct esc_pane e = { 0 };
	struct denial d;
	struct suggestion s;
	const char *t[] = { "/a/1", "/b/1", "/c/1" };
	for (int i = 0; i < 3; i++) {
		denial_make(&d, t[i], t[i]);
		esc_offer(&e, &d, -1);
		denial_clear(&d);
	}
	CHECK(u, esc_turn(&e));
	CHECK_STR(u, esc_head(&e)->d.target, "/b/1");
	CHECK_INT(u, esc_answer(&e, ESC_DISMISS, &s), 0);
	CHECK_STR(u, esc_head(&e)->d.target, "/c/1");
	CHECK(u, esc_turn(&e)); /* /a/1 not shown since: shown now, still in this pane */
	CHECK_STR(u, esc_head(&e)->d.target, "/a/1");
	CHECK(u, !esc_turn(&e));
	esc_pane_clear(&e);
}

/* + and - in the prompt: one directory at a time, from the exact path
 * up to / and back, never narrower than what was denied. */
static void test_widen(struct unit *u)
{
	struct esc_pane e = { 0 };
	CHECK_INT(u, esc_widen(&e, 1), -1);
	offer(&e, "/home/u/.config/tool/x.json", "/home/u/.config/tool/x.json");
	CHECK_INT(u, esc_widen(&e, -1), 0);
	CHECK_STR(u, esc_head(&e)->d.suggest.value, "/home/u/.config/tool/x.json");
	CHECK_INT(u, esc_widen(&e, 1), 1);
	CHECK_STR(u, esc_head(&e)->d.suggest.value, "/home/u/.config/tool");
	CHECK(u, esc_head(&e)->d.suggest.create == 'd');
	CHECK_INT(u, esc_widen(&e, 1), 2);
	CHECK_INT(u, esc_widen(&e, 1), 3);
	CHECK_STR(u, esc_head(&e)->d.suggest.value, "/home/u");
	CHECK_INT(u, esc_widen(&e, 1), 4);
	CHECK_INT(u, esc_widen(&e, 1), 5);
	CHECK_STR(u, esc_head(&e)->d.suggest.value, "/");
	CHECK_INT(u, esc_widen(&e, 1), 5); /* nothing wider */
	CHECK_INT(u, esc_widen(&e, -1), 4);
	CHECK_STR(u, esc_head(&e)->d.suggest.value, "/home");
	for (int i = 0; i < 6; i++)
		esc_widen(&e, -1);
	CHECK_STR(u, esc_head(&e)->d.suggest.value, "/home/u/.config/tool/x.json");
	struct suggestion s;
	esc_widen(&e, 1);
	CHECK_INT(u, esc_answer(&e, ESC_SESSION, &s), 0);
	CHECK_STR(u, s.value, "/home/u/.config/tool"); /* the answer grants what the prompt showed */
	esc_pane_clear(&e);
}

/* A program can make a distinct denial per directory or host name: the
 * prompts waiting are capped, and what is past the cap is counted. */
static void test_queue_cap(struct unit *u)
{
	struct esc_pane e = { 0 };
	char t[64], dir[64];
	int made = 0;
	for (int i = 0; i < ESC_QUEUE_MAX + 10; i++) {
		snprintf(dir, sizeof dir, "/d%d", i);
		snprintf(t, sizeof t, "/d%d/x", i);
		made += offer(&e, t, dir) == 1;
	}
	CHECK_INT(u, made, ESC_QUEUE_MAX);
	CHECK_INT(u, e.nq, ESC_QUEUE_MAX);
	CHECK_INT(u, e.not_queued, 10);
	struct suggestion s;
	CHECK_INT(u, esc_answer(&e, ESC_DISMISS, &s), 0); /* answered: room for one more */
	CHECK_INT(u, offer(&e, "/late/x", "/late"), 1);
	esc_pane_clear(&e);
}

int main(void)
{
	struct unit u = { 0 };
	test_queue(&u);
	test_queue_cap(&u);
	test_answer_settles_same(&u);
	test_broaden(&u);
	test_rerun_snapshot(&u);
	test_osc7(&u);
	test_turn_and_stale(&u);
	test_turn_after_answer(&u);
	test_widen(&u);
	return unit_done(&u, "test_escalate");
}
