/* suggest: the smallest broadening, and none where nothing may be widened. */
#include <stdlib.h>

#include "policy/suggest.h"
#include "tests/unit/unit.h"

static const struct origin user = { .file = "/home/u/.sandmux/sandbox.json", .layer = LAYER_USER };
static const struct origin hard = { .layer = LAYER_HARDCODED };

/* A workspace profile for /ws, built by hand: policy_decide_path() is the
 * judge of every suggestion, so this tests the rule, not the loader. */
static void policy_make(struct policy *p, bool read_all)
{
	memset(p, 0, sizeof *p);
	p->profile = "workspace";
	p->workspace = "/ws";
	p->home = "/home/u";
	p->sandboxed = true;
	p->read_all = read_all;
	p->tmp_writable = true;
	rules_add(&p->write, "/ws", hard);
	rules_add(&p->read, "/usr", hard);
	rules_add(&p->readonly, "/home/u/.sandmux", hard);
	rules_add(&p->protect, "/ws/.git/hooks/**", hard);
	rules_add(&p->protect, "/ws/.git/config", hard);
	rules_add(&p->protect, "/ws/.vscode/**", hard);
	rules_add(&p->deny, "/home/u/secrets/**", user);
	p->net.mode = NET_PROXY;
}

static void policy_clear(struct policy *p)
{
	rules_free(&p->write);
	rules_free(&p->read);
	rules_free(&p->readonly);
	rules_free(&p->protect);
	rules_free(&p->deny);
	rules_free(&p->net.allow);
}

static void expect_path(struct unit *u, const struct policy *p, const char *path, enum fs_op op, const char *key,
			const char *value)
{
	struct suggestion s;
	bool got = suggest_path(p, path, op, &s);
	CHECK_INT(u, got, key != NULL);
	CHECK_STR(u, suggest_key(s.kind), key);
	if (key != NULL)
		CHECK_STR(u, s.value, value);
}

static void test_writes(struct unit *u)
{
	struct policy p;
	policy_make(&p, true);
	/* writes and creates: exactly the path, never its directory */
	expect_path(u, &p, "/etc/foo", OP_WRITE, SUGGEST_KEY_RW, "/etc/foo");
	expect_path(u, &p, "/etc/foo", OP_CREATE, SUGGEST_KEY_RW, "/etc/foo");
	expect_path(u, &p, "/home/u/proj/build/out.o", OP_CREATE, SUGGEST_KEY_RW, "/home/u/proj/build/out.o");
	expect_path(u, &p, "/home/u/.newfile", OP_CREATE, SUGGEST_KEY_RW, "/home/u/.newfile");
	expect_path(u, &p, "/foo", OP_CREATE, SUGGEST_KEY_RW, "/foo");
	/* removes and renames: the directory's rights */
	expect_path(u, &p, "/srv/a/b", OP_REMOVE, SUGGEST_KEY_RW, "/srv/a");
	expect_path(u, &p, "/srv/a/b", OP_RENAME, SUGGEST_KEY_RW, "/srv/a");
	/* but never /, $HOME, or a shell startup file */
	expect_path(u, &p, "/foo", OP_RENAME, NULL, NULL);
	expect_path(u, &p, "/home/u/.x.tmp", OP_RENAME, NULL, NULL);
	expect_path(u, &p, "/home/u/.bashrc", OP_WRITE, NULL, NULL);
	expect_path(u, &p, "/srv/.profile", OP_CREATE, NULL, NULL);
	/* protected and sandmux paths: nothing, whatever the directory */
	expect_path(u, &p, "/ws/.git/hooks/pre-commit", OP_WRITE, NULL, NULL);
	expect_path(u, &p, "/ws/.git/config", OP_RENAME, NULL, NULL);
	expect_path(u, &p, "/ws/.vscode/settings.json", OP_CREATE, NULL, NULL);
	expect_path(u, &p, "/home/u/.sandmux/sandbox.json", OP_WRITE, NULL, NULL);
	expect_path(u, &p, "/home/u/.sandmux/state/x", OP_CREATE, NULL, NULL);
	expect_path(u, &p, "/home/u/secrets/key", OP_WRITE, NULL, NULL);
	/* relative or odd input */
	expect_path(u, &p, "etc/foo", OP_WRITE, NULL, NULL);
	expect_path(u, &p, NULL, OP_WRITE, NULL, NULL);
	/* the policy is left as it was */
	CHECK_INT(u, p.write.n, 1);
	CHECK(u, !policy_decide_path(&p, "/etc/foo", OP_WRITE).allow);
	policy_clear(&p);
}

static void test_reads(struct unit *u)
{
	struct policy p;
	policy_make(&p, false);
	expect_path(u, &p, "/opt/tool/lib/x.so", OP_READ, SUGGEST_KEY_RO, "/opt/tool/lib/x.so");
	expect_path(u, &p, "/opt/tool/bin/x", OP_EXEC, SUGGEST_KEY_RO, "/opt/tool/bin/x");
	expect_path(u, &p, "/home/u/secrets/key", OP_READ, NULL, NULL);
	policy_clear(&p);
}

static void expect_host(struct unit *u, const struct policy *p, const char *target, const char *value)
{
	struct suggestion s;
	bool got = suggest_host(p, target, &s);
	CHECK_INT(u, got, value != NULL);
	if (value != NULL) {
		CHECK_STR(u, suggest_key(s.kind), SUGGEST_KEY_NET);
		CHECK_STR(u, s.value, value);
	}
}

static void test_hosts(struct unit *u)
{
	struct policy p;
	policy_make(&p, true);
	expect_host(u, &p, "api.example.com:443", "api.example.com");
	expect_host(u, &p, "api.example.com", "api.example.com");
	expect_host(u, &p, "198.51.100.7:80", "198.51.100.7");
	/* always blocked: loopback, private, metadata */
	expect_host(u, &p, "127.0.0.1:8080", NULL);
	expect_host(u, &p, "10.1.2.3:22", NULL);
	expect_host(u, &p, "169.254.169.254:80", NULL);
	expect_host(u, &p, "[::1]:443", NULL);
	/* ... and what the proxy refuses whatever the lists say: an allow
	 * entry for it would be offered and never help */
	expect_host(u, &p, "224.0.0.1:80", NULL);
	expect_host(u, &p, "100.100.100.200:80", NULL);
	expect_host(u, &p, "[ff02::1]:80", NULL);
	expect_host(u, &p, "[::7f00:1]:80", NULL);
	expect_host(u, &p, "", NULL);
	/* an explicit deny beats any allow */
	rules_add(&p.net.deny, "evil.example", user);
	expect_host(u, &p, "evil.example:443", NULL);
	rules_free(&p.net.deny);
	/* no network in the profile: not a list entry's business */
	p.net.mode = NET_NONE;
	expect_host(u, &p, "api.example.com:443", NULL);
	policy_clear(&p);
}

static void test_format(struct unit *u)
{
	struct suggestion s = { .kind = SUGGEST_RW };
	char buf[256];
	snprintf(s.value, sizeof s.value, "/etc");
	suggest_format(&s, buf, sizeof buf);
	CHECK_STR(u, buf, "\"additionalReadwritePaths\": [\"/etc\"]");
	s.kind = SUGGEST_NET;
	snprintf(s.value, sizeof s.value, "a\"b");
	suggest_format(&s, buf, sizeof buf);
	CHECK_STR(u, buf, "\"networkPolicy\": {\"allow\": [\"a\\\"b\"]}");
	s.kind = SUGGEST_NONE;
	CHECK_INT(u, suggest_format(&s, buf, sizeof buf), 0);
	s.kind = SUGGEST_RW;
	CHECK_INT(u, suggest_format(&s, buf, 8), 7);
}

/* "once"/"session": the suggestion applied in memory allows the target. */
static void test_apply(struct unit *u)
{
	struct policy p;
	struct suggestion s;
	policy_make(&p, false);
	CHECK(u, suggest_path(&p, "/etc/foo", OP_CREATE, &s));
	suggest_apply(&p, &s);
	suggest_apply(&p, &s);
	CHECK_INT(u, p.write.n, 2);
	CHECK(u, policy_decide_path(&p, "/etc/foo", OP_CREATE).allow);
	CHECK(u, !policy_decide_path(&p, "/etc/foo2", OP_CREATE).allow); /* exactly it, not its neighbours */
	CHECK(u, s.create == 'f');
	CHECK(u, suggest_path_kind(&p, "/etc/newdir", OP_CREATE, 'd', &s) && s.create == 'd');
	CHECK(u, suggest_path_kind(&p, "/etc/lnk", OP_CREATE, 'l', &s) && strcmp(s.value, "/etc") == 0 && !s.create);
	CHECK(u, !policy_decide_path(&p, "/var/foo", OP_CREATE).allow);
	CHECK(u, suggest_path(&p, "/opt/x", OP_READ, &s));
	suggest_apply(&p, &s);
	CHECK(u, policy_decide_path(&p, "/opt/x", OP_READ).allow);
	CHECK(u, suggest_host(&p, "api.example.com:443", &s));
	suggest_apply(&p, &s);
	CHECK(u, policy_decide_host(&p, "api.example.com", NULL, 443).allow);
	s.kind = SUGGEST_NONE;
	suggest_apply(&p, &s);
	policy_clear(&p);
}

int main(void)
{
	struct unit u = { 0 };
	test_writes(&u);
	test_reads(&u);
	test_hosts(&u);
	test_format(&u);
	test_apply(&u);
	return unit_done(&u, "test_suggest");
}
