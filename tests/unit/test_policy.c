/* policy: config errors with exact positions, every merge rule, trust,
 * profiles and their resolution, and decision explanations. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/config.h"
#include "policy/trust.h"
#include "tests/unit/unit.h"

#define F "/u/.sandmux/sandbox.json"

/* ---- config errors ---- */

static const struct {
	const char *text, *msg;
} bad[] = {
	{ "{\"networkPolicy\": {\"allow\": [\"a.com\", \"b.com\",\n  \"10.0.0.0/33\"]}}",
	  F ":2:3: networkPolicy.allow[2]: \"10.0.0.0/33\" is not a valid CIDR" },
	{ "{\"disableTmpWrite\": \"yes\"}", F ":1:21: disableTmpWrite: expected a boolean, got a string" },
	{ "{\"additionalReadwritePaths\": \"/x\"}",
	  F ":1:30: additionalReadwritePaths: expected an array, got a string" },
	{ "{\"additionalReadwritePaths\": [\"/ok\", 3]}",
	  F ":1:38: additionalReadwritePaths[1]: expected a string, got a number" },
	{ "{\"additionalReadwritePaths\": [\"build/out\"]}",
	  F ":1:31: additionalReadwritePaths[0]: \"build/out\" is a relative path; use an absolute path or ~/" },
	{ "{\"additionalReadonlyPaths\": [\"/x/*\"]}",
	  F ":1:30: additionalReadonlyPaths[0]: \"/x/*\": globs are not supported here, only paths" },
	{ "{\"type\": \"sandboxed\"}", F
	  ":1:10: type: \"sandboxed\" is not one of \"workspace_readwrite\", \"workspace_readonly\", \"insecure_none\"" },
	{ "{\"networkPolicy\": {\"default\": \"maybe\"}}",
	  F ":1:31: networkPolicy.default: \"maybe\" is not one of \"allow\", \"deny\"" },
	{ "{\"profiles\": {\"strict\": {}}}",
	  F ":1:15: profiles.strict: \"strict\" is a built-in profile; a custom profile needs another name" },
	{ "{\"profiles\": {\"p\": {\"deny\": [\"src/{a,b}\"]}}}",
	  F ":1:30: profiles.p.deny[0]: \"src/{a,b}\" is not a supported glob: brace alternation is not supported" },
	{ "{\"profiles\": {\"p\": {\"deny\": [\"[[:alpha:]]\"]}}}", F
	  ":1:30: profiles.p.deny[0]: \"[[:alpha:]]\" is not a supported glob: POSIX character classes are not supported" },
	{ "{\"profiles\": {\"p\": {\"read_write\": [\"a*\"]}}}",
	  F ":1:36: profiles.p.read_write[0]: \"a*\": globs are only supported in deny" },
	{ "{\"profiles\": {\"p\": {\"restrict_network\": 1}}}",
	  F ":1:41: profiles.p.restrict_network: expected a boolean, got a number" },
	{ "{\"outsideWrites\": \"keep\"}", F ":1:19: outsideWrites: \"keep\" is not one of \"deny\", \"capture\"" },
	{ "{\"env\": {\"inherit\": \"some\"}}",
	  F ":1:21: env.inherit: \"some\" is not one of \"all\", \"core\", \"none\"" },
	{ "{\"env\": {\"set\": {\"A\": 1}}}", F ":1:23: env.set.A: expected a string, got a number" },
	{ "{\"env\": {\"exclude\": [\"A{B}\"]}}",
	  F ":1:22: env.exclude[0]: \"A{B}\" is not a supported glob: brace alternation is not supported" },
	{ "[1]", F ":1:1: (top level): expected an object, got an array" },
	{ "{\"type\": }", F ":1:10: (top level): expected a value" },
	{ "{\"networkPolicy\": {\"allow\": [\"a.com\"\n  \"b.com\"]}}",
	  F ":2:3: networkPolicy.allow: expected ',' or ']'" },
};

static void test_config_errors(struct unit *u)
{
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct config c = { 0 };
		struct perr e = { 0 };
		CHECK_INT(u, config_parse(&c, F, bad[i].text, strlen(bad[i].text), LAYER_USER, "/u", &e), -1);
		CHECK_STR(u, e.msg, bad[i].msg);
		config_free(&c);
		perr_free(&e);
	}
}

static void test_config_ok(struct unit *u)
{
	const char *t = "{\"type\": \"workspace_readonly\", \"futureKey\": 1,\n"
			" \"additionalReadwritePaths\": [\"~/cache\", \"/a/../b//c/.\"],\n"
			" \"networkPolicy\": {\"allow\": [\"*.x.com\", \"[2001:db8::1]:443\"], \"deny\": []},\n"
			" \"profiles\": {\"mine\": {\"extends\": \"strict\", \"deny\": [\"**/*.pem\"]}},\n"
			" \"env\": {\"set\": {\"A\": \"b=c\"}}}";
	struct config c = { 0 };
	struct perr e = { 0 };
	CHECK_INT(u, config_parse(&c, F, t, strlen(t), LAYER_USER, "/u", &e), 0);
	CHECK_INT(u, e.nwarnings, 1);
	if (e.nwarnings)
		CHECK_STR(u, e.warnings[0], F ":1:32: futureKey: unknown key, ignored");
	CHECK_STR(u, c.type.v, "workspace_readonly");
	CHECK_INT(u, c.add_rw.n, 2);
	CHECK_STR(u, c.add_rw.v[0].text, "/u/cache");
	CHECK_STR(u, c.add_rw.v[1].text, "/b/c");
	CHECK_INT(u, c.add_rw.v[1].origin.line, 2);
	CHECK_INT(u, c.add_rw.v[1].origin.col, 42);
	CHECK_INT(u, c.net_allow.n, 2);
	CHECK(u, config_profile(&c, "mine") != NULL);
	CHECK_STR(u, c.env.set.v[0].text, "A=b=c");
	config_free(&c);
	perr_free(&e);
}

static void test_config_repeated(struct unit *u)
{
	const char *t = "{\"profile\": \"strict\",\n \"profile\": \"read-only\"}";
	struct config c = { 0 };
	struct perr e = { 0 };
	CHECK_INT(u, config_parse(&c, F, t, strlen(t), LAYER_USER, "/u", &e), 0);
	CHECK_STR(u, c.profile.v, "read-only");
	if (CHECK_INT(u, e.nwarnings, 1))
		CHECK_STR(u, e.warnings[0], F ":1:2: profile: repeated key; the last one counts");
	config_free(&c);
	perr_free(&e);
}

static void test_config_blocked_allow(struct unit *u)
{
	const char *t = "{\"networkPolicy\": {\"allow\": [\"0.0.0.0/0\", \"10.0.0.0/8\"]}}";
	struct config c = { 0 };
	struct perr e = { 0 };
	CHECK_INT(u, config_parse(&c, F, t, strlen(t), LAYER_USER, "/u", &e), 0);
	if (CHECK_INT(u, e.nwarnings, 1))
		CHECK_STR(u, e.warnings[0],
			  F ":1:43: networkPolicy.allow[1]: \"10.0.0.0/8\" has no effect: "
			    "hardcoded: private address 10.0.0.0/8");
	config_free(&c);
	perr_free(&e);
}

/* ---- merge ---- */

static void parse(struct config *c, const char *file, enum layer l, const char *text)
{
	struct perr e = { 0 };
	memset(c, 0, sizeof *c);
	if (config_parse(c, file, text, strlen(text), l, "/u", &e) < 0)
		fprintf(stderr, "parse: %s\n", e.msg);
	perr_free(&e);
}

/* Merges user, repo and admin texts (NULL: absent) into *out. */
static void merged(struct config *out, const char *user, const char *repo, const char *admin, struct perr *e)
{
	const char *texts[] = { user, repo, admin };
	const enum layer layers[] = { LAYER_USER, LAYER_REPO, LAYER_ADMIN };
	const char *files[] = { "/u/.sandmux/sandbox.json", "/w/.sandmux/sandbox.json", "/etc/sandmux/policy.json" };
	memset(out, 0, sizeof *out);
	for (int i = 0; i < 3; i++) {
		struct config one;
		if (!texts[i])
			continue;
		parse(&one, files[i], layers[i], texts[i]);
		config_merge(out, &one, e);
		config_free(&one);
	}
}

static void test_merge_lists(struct unit *u)
{
	struct config c;
	struct perr e = { 0 };
	merged(&c,
	       "{\"additionalReadwritePaths\": [\"/a\"], \"networkPolicy\": {\"allow\": [\"a.com\"], \"deny\": [\"x.com\"]}}",
	       "{\"additionalReadwritePaths\": [\"/b\", \"/a\"], \"networkPolicy\": {\"allow\": [\"b.com\"], \"deny\": [\"y.com\"]}}",
	       "{\"networkPolicy\": {\"deny\": [\"z.com\"]}}", &e);
	CHECK_INT(u, c.add_rw.n, 2); /* unioned, no duplicates */
	CHECK_INT(u, c.net_allow.n, 2);
	CHECK_INT(u, c.net_deny.n, 3);
	CHECK_STR(u, c.net_allow.v[1].origin.file, "/w/.sandmux/sandbox.json");
	config_free(&c);
	/* an admin allow list replaces the union; deny lists still union */
	merged(&c, "{\"networkPolicy\": {\"allow\": [\"a.com\"], \"deny\": [\"x.com\"]}}",
	       "{\"networkPolicy\": {\"allow\": [\"b.com\"]}}", "{\"networkPolicy\": {\"allow\": [\"corp.com\"]}}", &e);
	CHECK_INT(u, c.net_allow.n, 1);
	CHECK_STR(u, c.net_allow.v[0].text, "corp.com");
	CHECK_INT(u, c.net_allow.v[0].origin.layer, LAYER_ADMIN);
	CHECK_INT(u, c.net_deny.n, 1);
	config_free(&c);
	perr_free(&e);
}

static const struct {
	const char *user, *repo, *admin, *want;
	int layer;
} defaults[] = {
	{ NULL, NULL, NULL, NULL, 0 },
	{ "{\"networkPolicy\": {\"default\": \"allow\"}}", NULL, NULL, "allow", LAYER_USER },
	{ "{\"networkPolicy\": {\"default\": \"allow\"}}", "{\"networkPolicy\": {\"default\": \"deny\"}}", NULL, "deny",
	  LAYER_REPO },
	{ "{\"networkPolicy\": {\"default\": \"deny\"}}", "{\"networkPolicy\": {\"default\": \"allow\"}}", NULL, "deny",
	  LAYER_USER },
	{ "{\"networkPolicy\": {\"default\": \"deny\"}}", NULL, "{\"networkPolicy\": {\"default\": \"allow\"}}", "deny",
	  LAYER_USER },
	{ "{\"networkPolicy\": {\"default\": \"allow\"}}", NULL, "{\"networkPolicy\": {\"default\": \"allow\"}}",
	  "allow", LAYER_ADMIN },
};

static void test_merge_default(struct unit *u)
{
	struct perr e = { 0 };
	for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
		struct config c;
		merged(&c, defaults[i].user, defaults[i].repo, defaults[i].admin, &e);
		CHECK_STR(u, c.net_default.v, defaults[i].want);
		if (defaults[i].want)
			CHECK_INT(u, c.net_default.o.layer, defaults[i].layer);
		config_free(&c);
	}
	perr_free(&e);
}

static void test_merge_scalars(struct unit *u)
{
	struct config c;
	struct perr e = { 0 };
	/* restrictive booleans: true wins from any layer */
	merged(&c, "{\"disableTmpWrite\": true, \"networkPolicyStrict\": false}",
	       "{\"disableTmpWrite\": false, \"networkPolicyStrict\": true}", NULL, &e);
	CHECK(u, c.disable_tmp_write.v);
	CHECK_INT(u, c.disable_tmp_write.o.layer, LAYER_USER);
	CHECK(u, c.net_strict.v);
	CHECK_INT(u, c.net_strict.o.layer, LAYER_REPO);
	config_free(&c);
	/* other scalars: the higher layer wins */
	merged(&c, "{\"profile\": \"strict\", \"type\": \"workspace_readonly\", \"enableSharedBuildCache\": true}",
	       "{\"profile\": \"read-only\"}", "{\"type\": \"workspace_readwrite\"}", &e);
	CHECK_STR(u, c.profile.v, "read-only");
	CHECK_STR(u, c.type.v, "workspace_readwrite");
	CHECK_INT(u, c.type.o.layer, LAYER_ADMIN);
	CHECK(u, c.shared_cache.v);
	config_free(&c);
	/* env: set per name higher wins, lists union, ignore_default_excludes false wins */
	merged(&c,
	       "{\"env\": {\"set\": {\"A\": \"1\", \"B\": \"1\"}, \"exclude\": [\"X\"], \"ignore_default_excludes\": false}}",
	       "{\"env\": {\"set\": {\"A\": \"2\"}, \"exclude\": [\"Y\"], \"ignore_default_excludes\": true, \"inherit\": \"core\"}}",
	       NULL, &e);
	CHECK_INT(u, c.env.set.n, 2);
	CHECK_STR(u, c.env.set.v[0].text, "A=2");
	CHECK_INT(u, c.env.exclude.n, 2);
	CHECK(u, c.env.ignore_default_excludes.set && !c.env.ignore_default_excludes.v);
	CHECK_STR(u, c.env.inherit.v, "core");
	config_free(&c);
	perr_free(&e);
}

static void test_merge_profiles(struct unit *u)
{
	struct config c;
	struct perr e = { 0 };
	merged(&c, "{\"profiles\": {\"p\": {\"extends\": \"strict\"}}}",
	       "{\"profiles\": {\"p\": {\"extends\": \"devbox\"}, \"q\": {}}}", NULL, &e);
	CHECK_STR(u, config_profile(&c, "p")->extends.v, "strict"); /* the per-user one wins */
	CHECK(u, config_profile(&c, "q") != NULL);
	CHECK_INT(u, e.nwarnings, 1);
	if (e.nwarnings)
		CHECK_STR(u, e.warnings[0],
			  "profiles.p: defined differently in /u/.sandmux/sandbox.json and "
			  "/w/.sandmux/sandbox.json; the per-user one wins");
	config_free(&c);
	perr_free(&e);
	merged(&c, "{\"profiles\": {\"p\": {\"extends\": \"strict\", \"deny\": [\"a\"]}}}",
	       "{\"profiles\": {\"p\": {\"deny\": [\"a\"], \"extends\": \"strict\"}}}", NULL, &e);
	CHECK_INT(u, e.nwarnings, 0); /* the same definition twice is no conflict */
	config_free(&c);
	merged(&c, "{\"profiles\": {\"p\": {\"extends\": \"strict\"}}}", NULL,
	       "{\"profiles\": {\"p\": {\"extends\": \"read-only\"}}}", &e);
	CHECK_STR(u, config_profile(&c, "p")->extends.v, "read-only"); /* admin wins */
	config_free(&c);
	perr_free(&e);
}

/* ---- policy_load: files on disk ---- */

struct fixture {
	char root[64], home[128], ws[128], admin[160];
};

static void put(const char *dir, const char *rel, const char *text)
{
	char path[512], cmd[600];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd) != 0)
		abort();
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

static void fixture_init(struct fixture *fx)
{
	snprintf(fx->root, sizeof fx->root, "/tmp/test_policy.XXXXXX");
	if (!mkdtemp(fx->root))
		abort();
	snprintf(fx->home, sizeof fx->home, "%s/home", fx->root);
	snprintf(fx->ws, sizeof fx->ws, "%s/ws", fx->root);
	snprintf(fx->admin, sizeof fx->admin, "%s/admin.json", fx->root);
	mkdir(fx->home, 0700);
	mkdir(fx->ws, 0700);
}

static void fixture_done(struct fixture *fx)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->root);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", fx->root);
}

static struct policy *load(struct fixture *fx, const char *flag, const char *env, struct perr *e)
{
	struct policy_opts o = { .home = fx->home,
				 .workspace = fx->ws,
				 .admin_file = fx->admin,
				 .profile_flag = flag,
				 .profile_env = env,
				 .admin_ownership_unchecked = true };
	struct policy *p = NULL;
	memset(e, 0, sizeof *e);
	if (policy_load(&o, &p, e) < 0)
		return NULL;
	return p;
}

/* What `sandmux trust` does with the bytes it read once (shell/cmd-policy.c
 * writes the record; policy/ only makes its text). */
static void trust_bytes(const struct fixture *fx, const char *file, const char *text, size_t len)
{
	char tag[TRUST_TAG_SIZE], *old = NULL;
	size_t old_len = 0;
	struct perr e = { 0 };
	trust_tag(text, len, tag);
	if (trust_read(fx->home, &old, &old_len, &e) < 0)
		abort();
	char *rec = trust_add(old, old_len, file, tag);
	if (rec == NULL)
		abort();
	put(fx->home, ".sandmux/trust.json", rec);
	free(old);
	free(rec);
}

static int trust_file(const struct fixture *fx, const char *file)
{
	char *text;
	size_t len;
	struct perr e = { 0 };
	if (config_read_file(file, &text, &len, &e) <= 0)
		return -1;
	trust_bytes(fx, file, text, len);
	free(text);
	return 0;
}

static void test_trust(struct unit *u)
{
	struct fixture fx;
	struct perr e;
	char repo[256];
	fixture_init(&fx);
	snprintf(repo, sizeof repo, "%s/.sandmux/sandbox.json", fx.ws);
	put(fx.home, ".sandmux/sandbox.json", "{\"networkPolicy\": {\"allow\": [\"a.com\"]}}");
	put(fx.ws, ".sandmux/sandbox.json",
	    "{\"additionalReadwritePaths\": [\"/etc\"], \"networkPolicy\": {\"allow\": [\"evil.com\"], \"deny\": [\"a.com\"]},"
	    " \"disableTmpWrite\": true, \"allowWeakerSandbox\": true}");
	struct policy *p = load(&fx, NULL, NULL, &e);
	if (CHECK(u, p != NULL)) {
		/* untrusted: widening parts ignored, narrowing ones applied, one warning */
		CHECK(u, !p->allow_weaker);
		CHECK(u, !policy_decide_path(p, "/etc/passwd", OP_WRITE).allow);
		CHECK(u, !policy_decide_host(p, "evil.com", NULL, 443).allow);
		CHECK(u, !policy_decide_host(p, "a.com", NULL, 443).allow);
		CHECK(u, !p->tmp_writable);
		CHECK_INT(u, e.nwarnings, 1);
		if (e.nwarnings)
			CHECK(u,
			      strstr(e.warnings[0], "is not trusted; ignored what it widens: additionalReadwritePaths, "
						    "allowWeakerSandbox, networkPolicy.allow") != NULL);
	}
	policy_free(p);
	perr_free(&e);
	CHECK_INT(u, trust_file(&fx, repo), 0);
	p = load(&fx, NULL, NULL, &e);
	if (CHECK(u, p != NULL)) { /* trusted: everything applies */
		CHECK(u, p->allow_weaker);
		CHECK(u, policy_decide_path(p, "/etc/passwd", OP_WRITE).allow);
		CHECK(u, policy_decide_host(p, "evil.com", NULL, 443).allow);
		CHECK_INT(u, e.nwarnings, 0);
	}
	policy_free(p);
	perr_free(&e);
	/* changed content: untrusted again; other entries of trust.json stay */
	put(fx.ws, ".cursor/sandbox.json", "{}");
	char other[256];
	snprintf(other, sizeof other, "%s/.cursor/sandbox.json", fx.ws);
	CHECK_INT(u, trust_file(&fx, other), 0);
	put(fx.ws, ".sandmux/sandbox.json", "{\"additionalReadwritePaths\": [\"/etc\", \"/usr\"]}");
	p = load(&fx, NULL, NULL, &e);
	if (CHECK(u, p != NULL)) {
		CHECK(u, !policy_decide_path(p, "/etc/passwd", OP_WRITE).allow);
		CHECK_INT(u, e.nwarnings, 1);
	}
	policy_free(p);
	perr_free(&e);
	CHECK(u, trust_check(fx.home, other, "{}", 2));
	/* untrusted custom profiles: narrowing ones apply, widening ones do not */
	put(fx.home, ".sandmux/sandbox.json", "{\"profile\": \"strict\"}");
	put(fx.ws, ".sandmux/sandbox.json",
	    "{\"profile\": \"tight\", \"profiles\": {\"tight\": {\"extends\": \"strict\", \"deny\": [\"*.key\"]},"
	    " \"loose\": {\"extends\": \"strict\", \"read_only\": [\"~/.aws\"]}}}");
	p = load(&fx, NULL, NULL, &e);
	CHECK_STR(u, p ? p->profile : NULL, "tight");
	CHECK(u, p && !config_profile(p->config, "loose"));
	if (CHECK_INT(u, e.nwarnings, 1))
		CHECK(u, strstr(e.warnings[0], "ignored what it widens: profiles.loose") != NULL);
	policy_free(p);
	perr_free(&e);
	put(fx.ws, ".sandmux/sandbox.json", "{\"profile\": \"workspace\"}");
	p = load(&fx, NULL, NULL, &e);
	CHECK_STR(u, p ? p->profile : NULL, "strict"); /* a repo cannot widen the user's choice */
	policy_free(p);
	perr_free(&e);
	fixture_done(&fx);
}

/* The record holds the bytes that were shown, not what the file holds
 * later: a file swapped after the read is untrusted. */
static void test_trust_read_once(struct unit *u)
{
	struct fixture fx;
	struct perr e = { 0 };
	char repo[256], *text;
	size_t len;
	fixture_init(&fx);
	snprintf(repo, sizeof repo, "%s/.sandmux/sandbox.json", fx.ws);
	put(fx.ws, ".sandmux/sandbox.json", "{}");
	CHECK_INT(u, config_read_repo_file(fx.ws, ".sandmux/sandbox.json", &text, &len, &e), 1);
	put(fx.ws, ".sandmux/sandbox.json", "{\"additionalReadwritePaths\": [\"/etc\"]}");
	trust_bytes(&fx, repo, text, len);
	CHECK(u, trust_check(fx.home, repo, "{}", 2));
	struct policy *p = load(&fx, NULL, NULL, &e);
	CHECK(u, p && !policy_decide_path(p, "/etc/passwd", OP_WRITE).allow);
	CHECK_INT(u, e.nwarnings, 1);
	policy_free(p);
	perr_free(&e);
	free(text);
	fixture_done(&fx);
}

/* A per-repo file that a link, a FIFO or a second name could put where
 * a sandbox writes is refused at load, in one line naming it. */
static void test_repo_file_refused(struct unit *u)
{
	struct fixture fx;
	struct perr e;
	char path[512], target[512];
	fixture_init(&fx);
	put(fx.root, "elsewhere/sandbox.json", "{\"additionalReadwritePaths\": [\"/etc\"]}");
	snprintf(target, sizeof target, "%s/elsewhere/sandbox.json", fx.root);
	snprintf(path, sizeof path, "%s/.sandmux", fx.ws);
	CHECK_INT(u, mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/.sandmux/sandbox.json", fx.ws);
	CHECK_INT(u, symlink(target, path), 0);
	CHECK(u, load(&fx, NULL, NULL, &e) == NULL);
	CHECK(u, strstr(e.msg, "/ws/.sandmux/sandbox.json: a symbolic link is on its way below") != NULL);
	CHECK(u, strchr(e.msg, '\n') == NULL);
	perr_free(&e);
	/* trust records do not help a link: the file is refused before that */
	trust_bytes(&fx, path, "{\"additionalReadwritePaths\": [\"/etc\"]}", 38);
	CHECK(u, load(&fx, NULL, NULL, &e) == NULL);
	perr_free(&e);
	unlink(path);
	/* a linked .cursor directory */
	snprintf(path, sizeof path, "%s/.cursor", fx.ws);
	snprintf(target, sizeof target, "%s/elsewhere", fx.root);
	CHECK_INT(u, symlink(target, path), 0);
	CHECK(u, load(&fx, NULL, NULL, &e) == NULL);
	CHECK(u, strstr(e.msg, "/ws/.cursor/sandbox.json: a symbolic link") != NULL);
	perr_free(&e);
	unlink(path);
	/* a FIFO: refused at once, no hang */
	snprintf(path, sizeof path, "%s/.sandmux/sandbox.json", fx.ws);
	CHECK_INT(u, mkfifo(path, 0600), 0);
	CHECK(u, load(&fx, NULL, NULL, &e) == NULL);
	CHECK(u, strstr(e.msg, "not a regular file") != NULL);
	perr_free(&e);
	unlink(path);
	/* a second name, in a place a sandbox may write */
	snprintf(target, sizeof target, "%s/elsewhere/sandbox.json", fx.root);
	CHECK_INT(u, link(target, path), 0);
	CHECK(u, load(&fx, NULL, NULL, &e) == NULL);
	CHECK(u, strstr(e.msg, "has 2 hard links") != NULL);
	perr_free(&e);
	unlink(path);
	/* a plain file loads */
	put(fx.ws, ".sandmux/sandbox.json", "{}");
	struct policy *p = load(&fx, NULL, NULL, &e);
	CHECK(u, p != NULL);
	policy_free(p);
	perr_free(&e);
	fixture_done(&fx);
}

/* outsideWrites: the top level, overridden by the profile chain; a
 * captured path is one refused only for lying outside the write roots. */
static void test_capture(struct unit *u)
{
	struct fixture fx;
	struct perr e;
	char path[300];
	fixture_init(&fx);
	put(fx.home, ".sandmux/sandbox.json",
	    "{\"outsideWrites\": \"capture\", \"profiles\": {\"plain\": {\"outsideWrites\": \"deny\"},"
	    " \"again\": {\"extends\": \"plain\", \"outsideWrites\": \"capture\", \"deny\": [\"/etc/*.key\"]}}}");
	struct policy *p = load(&fx, NULL, NULL, &e);
	CHECK(u, p != NULL && p->capture);
	CHECK(u, p != NULL && policy_path_captured(p, "/etc/hosts"));
	snprintf(path, sizeof path, "%s/.sandmux/x", fx.home);
	CHECK(u, p != NULL && !policy_path_captured(p, path)); /* sandmux's own files */
	snprintf(path, sizeof path, "%s/.git/config", fx.ws);
	CHECK(u, p != NULL && !policy_path_captured(p, path)); /* protected */
	snprintf(path, sizeof path, "%s/src/a.c", fx.ws);
	CHECK(u, p != NULL && !policy_path_captured(p, path)); /* writable anyway */
	const char *rule = NULL;
	CHECK(u, p != NULL && !policy_path_guarded(p, "/etc/hosts", &rule) && !policy_path_guarded(p, path, &rule));
	snprintf(path, sizeof path, "%s/.git/config", fx.ws);
	CHECK(u, p != NULL && policy_path_guarded(p, path, &rule) && rule != NULL);
	snprintf(path, sizeof path, "%s/.sandmux/x", fx.home);
	CHECK(u, p != NULL && policy_path_guarded(p, path, &rule));
	policy_free(p);
	p = load(&fx, "plain", NULL, &e);
	CHECK(u, p != NULL && !p->capture && !policy_path_captured(p, "/etc/hosts"));
	policy_free(p);
	p = load(&fx, "again", NULL, &e);
	CHECK(u, p != NULL && p->capture && !policy_path_captured(p, "/etc/a.key")); /* deny */
	policy_free(p);
	fixture_done(&fx);
}

static void test_resolution(struct unit *u)
{
	struct fixture fx;
	struct perr e;
	fixture_init(&fx);
	put(fx.home, ".sandmux/sandbox.json",
	    "{\"profile\": \"strict\",\n \"profiles\": {\"mine\": {\"extends\": \"read-only\"}}}");
	struct policy *p = load(&fx, NULL, NULL, &e);
	CHECK_STR(u, p ? p->profile : NULL, "strict"); /* config */
	CHECK_INT(u, p ? p->profile_origin.line : 0, 1);
	policy_free(p);
	p = load(&fx, NULL, "mine", &e); /* env beats config */
	CHECK_STR(u, p ? p->base : NULL, "read-only");
	policy_free(p);
	p = load(&fx, "devbox", "mine", &e); /* flag beats env */
	CHECK_STR(u, p ? p->profile : NULL, "devbox");
	policy_free(p);
	CHECK(u, load(&fx, "nope", NULL, &e) == NULL);
	CHECK_STR(u, e.msg,
		  "--sandbox: unknown profile \"nope\" (built-in: workspace, read-only, strict, devbox, off)");
	put(fx.home, ".sandmux/sandbox.json", "{\"profile\": \"typo\"}");
	CHECK(u, load(&fx, NULL, NULL, &e) == NULL);
	char want[512];
	snprintf(
		want, sizeof want,
		"%s/.sandmux/sandbox.json:1:13: profile: unknown profile \"typo\" (built-in: workspace, read-only, strict, devbox, off)",
		fx.home);
	CHECK_STR(u, e.msg, want);
	put(fx.home, ".sandmux/sandbox.json",
	    "{\"profiles\": {\"a\": {\"extends\": \"b\"}, \"b\": {\"extends\": \"a\"}}}");
	CHECK(u, load(&fx, "a", NULL, &e) == NULL);
	CHECK(u, strstr(e.msg, "in a loop") != NULL);
	put(fx.home, ".sandmux/sandbox.json", "{}");
	p = load(&fx, NULL, NULL, &e);
	CHECK_STR(u, p ? p->profile : NULL, "workspace"); /* the default */
	policy_free(p);
	fixture_done(&fx);
}

/* ---- profiles and decisions ---- */

static const struct {
	const char *profile;
	int sandboxed, read_all, net, ptrace, ignore_excludes;
} builtins[] = {
	{ "workspace", 1, 1, NET_PROXY, 0, 1 }, { "read-only", 1, 1, NET_NONE, 0, 1 },
	{ "strict", 1, 0, NET_NONE, 0, 0 },     { "devbox", 1, 1, NET_HOST, 1, 1 },
	{ "off", 0, 1, NET_HOST, 0, 1 },
};

static void test_builtins(struct unit *u)
{
	struct fixture fx;
	struct perr e;
	fixture_init(&fx);
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
		struct policy *p = load(&fx, builtins[i].profile, NULL, &e);
		if (!CHECK(u, p != NULL))
			continue;
		CHECK_INT(u, p->sandboxed, builtins[i].sandboxed);
		CHECK_INT(u, p->read_all, builtins[i].read_all);
		CHECK_INT(u, p->net.mode, builtins[i].net);
		CHECK_INT(u, p->allow_ptrace, builtins[i].ptrace);
		CHECK_INT(u, p->env.ignore_default_excludes, builtins[i].ignore_excludes);
		policy_free(p);
	}
	fixture_done(&fx);
}

static void expect(struct unit *u, const struct policy *p, const char *path, enum fs_op op, bool allow,
		   const char *rule)
{
	struct decision d = policy_decide_path(p, path, op);
	if (!CHECK_INT(u, d.allow, allow) | !CHECK_STR(u, d.rule, rule))
		fprintf(stderr, "  %s %s (profile %s)\n", fs_op_name(op), path, p->profile);
}

/* Git metadata found at load (policy/gitdirs.h): that of nested repos,
 * submodules, worktrees, gitlink files and hooksPath is protected as it
 * is; a git directory made later is the sandbox's own. */
static void test_git_metadata(struct unit *u)
{
	struct fixture fx;
	struct perr e;
	char ws[256], buf[512];
	fixture_init(&fx);
	snprintf(ws, sizeof ws, "%s", fx.ws);
#define P(fmt, base, rest) (snprintf(buf, sizeof buf, fmt, base, rest), buf)
	struct policy *p = load(&fx, NULL, NULL, &e);
	expect(u, p, P("%s%s", ws, "/.git"), OP_CREATE, false, "hardcoded: git metadata: .git");
	expect(u, p, P("%s%s", ws, "/.git/config"), OP_CREATE, false, "hardcoded: git metadata: .git");
	policy_free(p);
	put(fx.ws, ".git", "gitdir: elsewhere\n");
	p = load(&fx, NULL, NULL, &e);
	expect(u, p, P("%s%s", ws, "/.git"), OP_WRITE, false, "hardcoded: git metadata: .git");
	CHECK(u, !policy_decide_carry(p, ws).allow);
	policy_free(p);
	unlink(P("%s%s", ws, "/.git"));
	put(fx.ws, ".git/HEAD", "ref: refs/heads/main\n");
	put(fx.ws, ".git/config", "[core]\n\tbare = false\n  HooksPath = \".husky/_\" ; husky\n");
	put(fx.ws, ".git/modules/a/b/HEAD", "x\n");
	put(fx.ws, ".git/modules/a/b/modules/c/HEAD", "x\n");
	put(fx.ws, ".git/worktrees/w/HEAD", "x\n");
	snprintf(buf, sizeof buf, "%s/trees/wt/.git\n", ws);
	put(fx.ws, ".git/worktrees/w/gitdir", buf);
	put(fx.ws, "trees/wt/.git", "gitdir: ../../.git/worktrees/w\n");
	put(fx.ws, ".gitmodules", "[submodule \"d\"]\n\tpath = third/party/d\n\turl = ../d\n");
	put(fx.ws, "third/party/d/.git", "gitdir: ../../../.git/modules/d\n");
	put(fx.ws, "sub/.git/HEAD", "x\n");
	put(fx.ws, "sm/.git", "gitdir: ../.git/modules/a/b\n");
	put(fx.ws, "pkgs/deep/.git/HEAD", "x\n");
	put(fx.ws, "node_modules/dep/.git/HEAD", "x\n");
	p = load(&fx, NULL, NULL, &e);
	expect(u, p, P("%s%s", ws, "/.git/commondir"), OP_CREATE, false, "hardcoded: git metadata: .git/commondir");
	expect(u, p, P("%s%s", ws, "/.git/config.worktree"), OP_CREATE, false,
	       "hardcoded: git metadata: .git/config.worktree");
	expect(u, p, P("%s%s", ws, "/.git/modules/a/b/config"), OP_WRITE, false,
	       "hardcoded: git metadata: .git/modules/a/b/config");
	expect(u, p, P("%s%s", ws, "/.git/modules/a/b/hooks/post-checkout"), OP_CREATE, false,
	       "hardcoded: git metadata: .git/modules/a/b/hooks/**");
	expect(u, p, P("%s%s", ws, "/.git/modules/a/b/modules/c/commondir"), OP_CREATE, false,
	       "hardcoded: git metadata: .git/modules/a/b/modules/c/commondir");
	expect(u, p, P("%s%s", ws, "/.git/modules/a/b/objects/ab"), OP_CREATE, true, "workspace");
	expect(u, p, P("%s%s", ws, "/.git/modules/new/config"), OP_CREATE, true, "workspace");
	expect(u, p, P("%s%s", ws, "/.git/worktrees/w/gitdir"), OP_WRITE, false,
	       "hardcoded: git metadata: .git/worktrees/w/gitdir");
	expect(u, p, P("%s%s", ws, "/.git/worktrees/w/index"), OP_WRITE, true, "workspace");
	expect(u, p, P("%s%s", ws, "/.git/worktrees/new/commondir"), OP_CREATE, true, "workspace");
	expect(u, p, P("%s%s", ws, "/sub/.git/config"), OP_CREATE, false, "hardcoded: git metadata: sub/.git/config");
	expect(u, p, P("%s%s", ws, "/sub/.git/hooks/pre-commit"), OP_CREATE, false,
	       "hardcoded: git metadata: sub/.git/hooks/**");
	expect(u, p, P("%s%s", ws, "/sub/.git/index"), OP_WRITE, true, "workspace");
	/* two levels down: only a submodule (.gitmodules) or a worktree */
	expect(u, p, P("%s%s", ws, "/pkgs/deep/.git/config"), OP_WRITE, true, "workspace");
	expect(u, p, P("%s%s", ws, "/third/party/d/.git"), OP_WRITE, false,
	       "hardcoded: git metadata: third/party/d/.git");
	expect(u, p, P("%s%s", ws, "/trees/wt/.git"), OP_WRITE, false, "hardcoded: git metadata: trees/wt/.git");
	expect(u, p, P("%s%s", ws, "/node_modules/dep/.git/config"), OP_WRITE, true, "workspace");
	expect(u, p, P("%s%s", ws, "/sm/.git"), OP_WRITE, false, "hardcoded: git metadata: sm/.git");
	CHECK(u, !policy_decide_carry(p, P("%s%s", ws, "/sm")).allow);
	expect(u, p, P("%s%s", ws, "/new/.git/config"), OP_CREATE, true, "workspace");
	expect(u, p, P("%s%s", ws, "/new/.git"), OP_CREATE, true, "workspace");
	expect(u, p, P("%s%s", ws, "/.husky/_/pre-commit"), OP_WRITE, false, "hardcoded: git metadata: .husky/_/**");
	expect(u, p, P("%s%s", ws, "/.husky/pre-commit"), OP_WRITE, true, "workspace");
	policy_free(p);
	p = load(&fx, "off", NULL, &e); /* no sandbox: nothing looked for */
	for (size_t i = 0; i < p->readonly.n; i++)
		CHECK(u, strstr(p->readonly.v[i].text, "/sm/.git") == NULL);
	for (size_t i = 0; i < p->protect.n; i++)
		CHECK(u, strstr(p->protect.v[i].text, "/sub/.git") == NULL);
	policy_free(p);
	fixture_done(&fx);
}
#undef P

/* "limits" in a profile: parsed, inherited through extends, and only
 * ever lowering sandmux.json's defaults (limits_fold). */
static void test_limits(struct unit *u)
{
	struct fixture fx;
	struct perr e;
	fixture_init(&fx);
	put(fx.home, ".sandmux/sandbox.json",
	    "{\"profiles\": {\"small\": {\"limits\": {\"pids\": 64, \"memory\": 64}},\n"
	    " \"smaller\": {\"extends\": \"small\", \"limits\": {\"pids\": 128, \"tmp\": 16}},\n"
	    " \"wide\": {\"limits\": {\"pids\": 0, \"memory\": 1000000}}}}");
	struct policy *p = load(&fx, "smaller", NULL, &e);
	if (CHECK(u, p != NULL)) {
		CHECK_INT(u, p->limits.pids, 64); /* the lower of the chain */
		CHECK_INT(u, p->limits.memory_mib, 64);
		CHECK_INT(u, p->limits.tmp_mib, 16);
		struct limits defaults = { 4096, 8192, 1024 };
		limits_fold(&p->limits, &defaults);
		CHECK_INT(u, p->limits.pids, 64);
		CHECK_INT(u, p->limits.tmp_mib, 16);
	}
	policy_free(p);
	perr_free(&e);
	p = load(&fx, "wide", NULL, &e);
	if (CHECK(u, p != NULL)) { /* a profile cannot lift the defaults, nor turn them off */
		struct limits defaults = { 4096, 8192, 1024 };
		limits_fold(&p->limits, &defaults);
		CHECK_INT(u, p->limits.pids, 4096);
		CHECK_INT(u, p->limits.memory_mib, 8192);
		CHECK_INT(u, p->limits.tmp_mib, 1024);
	}
	policy_free(p);
	perr_free(&e);
	p = load(&fx, "workspace", NULL, &e);
	if (CHECK(u, p != NULL)) {
		CHECK_INT(u, p->limits.pids, LIMIT_UNSET);
		struct limits none = { 0, 0, 512 };
		limits_fold(&p->limits, &none);
		CHECK_INT(u, p->limits.pids, 0);
		CHECK_INT(u, p->limits.tmp_mib, 512);
	}
	policy_free(p);
	perr_free(&e);
	put(fx.home, ".sandmux/sandbox.json", "{\"profiles\": {\"x\": {\"limits\": {\"pids\": -1}}}}");
	p = load(&fx, "x", NULL, &e);
	CHECK(u, p == NULL);
	CHECK(u, strstr(e.msg, ":1:40: profiles.x.limits.pids: want a whole number") != NULL);
	policy_free(p);
	perr_free(&e);
}

static void test_decide(struct unit *u)
{
	struct fixture fx;
	struct perr e;
	char ws[256], home[256], buf[512];
	fixture_init(&fx);
	snprintf(ws, sizeof ws, "%s", fx.ws);
	snprintf(home, sizeof home, "%s", fx.home);
	put(fx.ws, ".git/HEAD", "ref: refs/heads/main\n");
	put(fx.home, ".sandmux/sandbox.json",
	    "{\"networkPolicy\": {\"allow\": [\"*.github.com\"]},\n"
	    " \"profiles\": {\"agent\": {\"extends\": \"workspace\", \"deny\": [\"**/*.pem\", \".env\", \"~/.aws\"],"
	    " \"read_write\": [\"~/.cache\"]}, \"offline\": {\"restrict_network\": true}}}");
	struct policy *p = load(&fx, "agent", NULL, &e);
	if (!CHECK(u, p != NULL)) {
		fprintf(stderr, "%s\n", e.msg);
		return;
	}
	CHECK_INT(u, p->net.mode, NET_PROXY);
#define P(fmt, base, rest) (snprintf(buf, sizeof buf, fmt, base, rest), buf)
	expect(u, p, P("%s%s", ws, "/src/main.c"), OP_WRITE, true, "workspace");
	expect(u, p, P("%s%s", ws, "/src/../src/main.c"), OP_CREATE, true, "workspace");
	expect(u, p, P("%s%s", ws, "/.git/config"), OP_WRITE, false, "hardcoded: protected path: .git/config");
	expect(u, p, P("%s%s", ws, "/.git/objects/ab"), OP_CREATE, true, "workspace");
	expect(u, p, P("%s%s", ws, "/.git/hooks/pre-commit"), OP_WRITE, false,
	       "hardcoded: protected path: .git/hooks/**");
	expect(u, p, P("%s%s", ws, "/.vscode/settings.json"), OP_WRITE, false, "hardcoded: protected path: .vscode/**");
	expect(u, p, P("%s%s", ws, "/.vscode"), OP_RENAME, false, "hardcoded: protected path: .vscode/**");
	expect(u, p, P("%s%s", ws, "/.sandmux/sandbox.json"), OP_WRITE, false,
	       "hardcoded: protected path: .sandmux/**");
	expect(u, p, P("%s%s", ws, "/.cursor/rules/x.json"), OP_WRITE, true, "workspace");
	expect(u, p, P("%s%s", ws, "/.cursor/mcp.json"), OP_WRITE, false, "hardcoded: protected path: .cursor/*.json");
	expect(u, p, P("%s%s", ws, "/a.code-workspace"), OP_WRITE, false,
	       "hardcoded: protected path: *.code-workspace");
	expect(u, p, P("%s%s", ws, "/.git/config"), OP_READ, true, "profile: reads everywhere");
	expect(u, p, P("%s%s", ws, "/certs/server.pem"), OP_READ, false, "deny: **/*.pem");
	expect(u, p, P("%s%s", ws, "/.env"), OP_READ, false, "deny: .env");
	expect(u, p, P("%s%s", ws, "/.env/inner"), OP_WRITE, false, "deny: .env");
	expect(u, p, P("%s%s", home, "/.aws/credentials"), OP_READ, false, "deny: ~/.aws");
	expect(u, p, P("%s%s", home, "/.cache/x"), OP_WRITE, true, "read_write: ~/.cache");
	expect(u, p, P("%s%s", home, "/.sandmux/trust.json"), OP_WRITE, false,
	       "hardcoded: sandmux's own files: ~/.sandmux");
	expect(u, p, P("%s%s", home, "/notes"), OP_WRITE, false, "not under a writable path");
	expect(u, p, "/etc/passwd", OP_WRITE, false, "not under a writable path");
	p->tmpdir = strdup(P("%s%s", home, "/.sandmux/state/tmp/s1"));
	expect(u, p, P("%s%s", home, "/.sandmux/state/tmp/s1/f"), OP_WRITE, true, "session temp dir");
	/* a rename or link of a name that may hold what a glob protects */
	CHECK_STR(u, policy_decide_carry(p, P("%s%s", ws, "/.claude")).rule,
		  "hardcoded: protected path: .claude/*.json");
	CHECK_STR(u, policy_decide_carry(p, P("%s%s", ws, "/.cursor")).rule,
		  "hardcoded: protected path: .cursor/*.json");
	CHECK(u, !policy_decide_carry(p, ws).allow);
	CHECK(u, policy_decide_carry(p, P("%s%s", ws, "/.cursor/rules")).allow); /* a writable exception */
	CHECK(u, policy_decide_carry(p, P("%s%s", ws, "/src")).allow); /* the deny glob matches below any name */
	CHECK(u, policy_decide_carry(p, P("%s%s", ws, "/.claude/notes.md")).allow); /* nothing below a file name */
	struct decision d = policy_decide_path(p, P("%s%s", ws, "/x.pem"), OP_READ);
	CHECK_INT(u, d.origin.layer, LAYER_USER);
	CHECK_INT(u, d.origin.line, 2);
	policy_free(p);

	p = load(&fx, "strict", NULL, &e);
	expect(u, p, P("%s%s", home, "/notes"), OP_READ, false, "not under a readable path");
	expect(u, p, "/usr/bin/ls", OP_EXEC, true, "profile strict: system path: /usr");
	expect(u, p, P("%s%s", ws, "/a"), OP_WRITE, true, "workspace");
	expect(u, p, P("%s%s", home, "/.ssh/known_hosts"), OP_READ, true,
	       "hardcoded: ~/.ssh is always readable: ~/.ssh");
	policy_free(p);
	p = load(&fx, "read-only", NULL, &e);
	expect(u, p, P("%s%s", ws, "/a"), OP_WRITE, false, "not under a writable path");
	policy_free(p);
	p = load(&fx, "devbox", NULL, &e);
	expect(u, p, "/etc/passwd", OP_WRITE, true, "profile devbox: writes everywhere");
	expect(u, p, "/data/x", OP_WRITE, false, "profile devbox: read-only: /data");
	expect(u, p, P("%s%s", ws, "/.git/hooks/x"), OP_WRITE, false, "hardcoded: protected path: .git/hooks/**");
	policy_free(p);
	/* symlinked roots are resolved: decisions are on kernel paths */
	char link[300], real[300];
	snprintf(real, sizeof real, "%s/realcache", fx.root);
	snprintf(link, sizeof link, "%s/.cache", fx.home);
	mkdir(real, 0700);
	CHECK_INT(u, symlink(real, link), 0);
	p = load(&fx, "agent", NULL, &e);
	expect(u, p, P("%s%s", real, "/x"), OP_WRITE, true, "read_write: ~/.cache");
	policy_free(p);
	p = load(&fx, "offline", NULL, &e);
	CHECK_INT(u, p ? (int)p->net.mode : -1, NET_NONE);
	policy_free(p);
	p = load(&fx, "off", NULL, &e);
	expect(u, p, "/etc/passwd", OP_WRITE, true, "no sandbox");
	policy_free(p);
	put(fx.home, ".sandmux/sandbox.json", "{\"type\": \"workspace_readonly\"}");
	p = load(&fx, NULL, NULL, &e);
	expect(u, p, P("%s%s", ws, "/a"), OP_WRITE, false, "not under a writable path");
	policy_free(p);
	put(fx.home, ".sandmux/sandbox.json", "{\"type\": \"insecure_none\"}");
	p = load(&fx, NULL, NULL, &e);
	CHECK(u, p && !p->sandboxed);
	policy_free(p);
	fixture_done(&fx);
}

static void test_admin(struct unit *u)
{
	struct fixture fx;
	struct perr e;
	fixture_init(&fx);
	put(fx.root, "admin.json", "{\"networkPolicy\": {\"allow\": [\"corp.com\"], \"deny\": [\"bad.com\"]}}");
	put(fx.home, ".sandmux/sandbox.json", "{\"networkPolicy\": {\"allow\": [\"a.com\", \"bad.com\"]}}");
	struct policy *p = load(&fx, NULL, NULL, &e);
	if (CHECK(u, p != NULL)) {
		CHECK(u, policy_decide_host(p, "corp.com", NULL, 443).allow);
		CHECK(u, !policy_decide_host(p, "a.com", NULL, 443).allow);
		CHECK_STR(u, policy_decide_host(p, "bad.com", NULL, 443).rule, "networkPolicy.deny: bad.com");
	}
	policy_free(p);
	/* unrestricted network would bypass the admin's networkPolicy */
	CHECK(u, load(&fx, "devbox", NULL, &e) == NULL);
	char want_net[600];
	snprintf(want_net, sizeof want_net,
		 "--sandbox: profile \"devbox\" has unrestricted network, which the admin "
		 "networkPolicy of %s:1:30 does not allow",
		 fx.admin);
	CHECK_STR(u, e.msg, want_net);
	CHECK(u, load(&fx, "off", NULL, &e) == NULL);
	put(fx.home, ".sandmux/sandbox.json", "{\"type\": \"insecure_none\"}");
	CHECK(u, load(&fx, NULL, NULL, &e) == NULL);
	put(fx.home, ".sandmux/sandbox.json",
	    "{\"profiles\": {\"d\": {\"extends\": \"devbox\", \"restrict_network\": true}}}");
	p = load(&fx, "d", NULL, &e); /* devbox without network is fine */
	CHECK(u, p != NULL);
	policy_free(p);
	/* a locked admin profile: the flag may narrow it, not weaken it */
	put(fx.root, "admin.json", "{\"profile\": \"workspace\"}");
	p = load(&fx, "strict", NULL, &e);
	CHECK_STR(u, p ? p->profile : NULL, "strict");
	policy_free(p);
	CHECK(u, load(&fx, "devbox", NULL, &e) == NULL);
	char want[512];
	snprintf(want, sizeof want,
		 "--sandbox: profile \"devbox\" is weaker than \"workspace\", which the admin policy %s:1:13 requires",
		 fx.admin);
	CHECK_STR(u, e.msg, want);
	CHECK(u, load(&fx, NULL, "off", &e) == NULL);
	/* checked ownership: a file the user owns is ignored with a warning (unless root runs the test) */
	struct policy_opts o = { .home = fx.home, .workspace = fx.ws, .admin_file = fx.admin };
	CHECK_INT(u, policy_load(&o, &p, &e), 0);
	if (getuid() != 0 && CHECK_INT(u, e.nwarnings, 1))
		CHECK(u, strstr(e.warnings[0], "must be owned by root") != NULL);
	if (getuid() == 0) {
		chmod(fx.admin, 0666);
		policy_free(p);
		perr_free(&e);
		CHECK_INT(u, policy_load(&o, &p, &e), 0);
		CHECK_INT(u, e.nwarnings, 1);
	}
	policy_free(p);
	perr_free(&e);
	fixture_done(&fx);
}

/* A loaded policy's rule vectors are no larger than their rules (a
 * server keeps one per pane), and still grow when a rule is added. */
static void test_load_shrinks(struct unit *u)
{
	struct fixture fx;
	struct perr e = { 0 };
	fixture_init(&fx);
	struct policy *p = load(&fx, NULL, NULL, &e);
	CHECK(u, p != NULL);
	if (p != NULL) {
		const struct rules *r[] = { &p->read, &p->write, &p->readonly, &p->deny, &p->protect, &p->net.allow };
		for (size_t i = 0; i < sizeof r / sizeof *r; i++)
			CHECK(u, r[i]->cap == r[i]->n);
		CHECK(u, p->read.n > 0);
		for (size_t i = 0; p->agents && i < p->agents->n; i++)
			CHECK(u, p->agents->v[i].paths.cap == p->agents->v[i].paths.n);
		size_t n = p->write.n;
		rules_add(&p->write, "/grant/one", (struct origin){ 0 });
		rules_add(&p->write, "/grant/two", (struct origin){ 0 });
		CHECK(u, p->write.n == n + 2 && rules_has(&p->write, "/grant/two"));
		CHECK(u, policy_decide_path(p, "/grant/one/f", OP_WRITE).allow);
	}
	policy_free(p);
	perr_free(&e);
	fixture_done(&fx);
}

int main(void)
{
	struct unit u = { 0 };
	test_config_errors(&u);
	test_config_ok(&u);
	test_config_blocked_allow(&u);
	test_config_repeated(&u);
	test_merge_lists(&u);
	test_merge_default(&u);
	test_merge_scalars(&u);
	test_merge_profiles(&u);
	test_trust(&u);
	test_trust_read_once(&u);
	test_repo_file_refused(&u);
	test_resolution(&u);
	test_capture(&u);
	test_builtins(&u);
	test_decide(&u);
	test_git_metadata(&u);
	test_limits(&u);
	test_admin(&u);
	test_load_shrinks(&u);
	return unit_done(&u, "test_policy");
}
