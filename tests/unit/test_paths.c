/* paths: the one table of sandmux's own paths (policy/paths.h), and the
 * invariant it carries: every entry is write-protected in every profile,
 * whatever the configuration widens, except the one child a rule of its
 * own makes writable (the session's temp dir, this workspace's agent
 * state). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/agents.h"
#include "policy/paths.h"
#include "policy/policy.h"
#include "unit.h"

static void test_join(struct unit *u)
{
	char buf[64];
	CHECK_INT(u, sm_path("/home/a", SM_PATH_TRUST, buf, sizeof buf), 0);
	CHECK_STR(u, buf, "/home/a/.sandmux/trust.json");
	CHECK_INT(u, sm_path("/home/a", SM_PATH_DENIALS, buf, sizeof buf), 0);
	CHECK_STR(u, buf, "/home/a/.sandmux/state/denials.jsonl");
	CHECK_STR(u, sm_path_base(SM_PATH_SHARED_CACHE), "shared-cache");
	/* no HOME, or a relative one: no path at all, never "/.sandmux/..." */
	CHECK_INT(u, sm_path(NULL, SM_PATH_USER_POLICY, buf, sizeof buf), -1);
	CHECK_STR(u, buf, "");
	CHECK_INT(u, sm_path("", SM_PATH_USER_POLICY, buf, sizeof buf), -1);
	CHECK_STR(u, buf, "");
	CHECK_INT(u, sm_path("home", SM_PATH_USER_POLICY, buf, sizeof buf), -1);
	CHECK_INT(u, sm_path("/home/a", SM_PATH_USER_POLICY, buf, 8), -1);
	CHECK_STR(u, buf, "");
	CHECK(u, !sm_home_ok(NULL) && !sm_home_ok("") && !sm_home_ok("x") && sm_home_ok("/"));
}

/* The table's own shape: each entry is a root of the protection list or
 * lies beneath one, so no name can be added that nothing protects. */
static void test_table_rooted(struct unit *u)
{
	for (int i = 0; i < SM_PATH_COUNT; i++) {
		const char *rel = sm_paths[i].rel;
		bool rooted = sm_paths[i].root != NULL;
		CHECK(u, rel != NULL && rel[0] != '/' && rel[0] != '\0' && rel[strlen(rel) - 1] != '/');
		for (int j = 0; j < SM_PATH_COUNT && !rooted; j++) {
			size_t n = strlen(sm_paths[j].rel);
			rooted = sm_paths[j].root != NULL && strncmp(rel, sm_paths[j].rel, n) == 0 && rel[n] == '/';
		}
		if (!unit_check(u, rooted, "entry is a protected root or beneath one", __FILE__, __LINE__))
			fprintf(stderr, "  entry: %s\n", rel);
	}
	CHECK_STR(u, sm_repo_files[1], SM_REPO_DIR "/sandbox.json");
}

static void put(const char *path, const char *text)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd) != 0)
		abort();
	FILE *f = fopen(path, "w");
	if (f == NULL)
		abort();
	fputs(text, f);
	fclose(f);
}

static struct policy *load(const char *home, const char *ws, const char *profile)
{
	struct policy_opts o = { .home = home,
				 .workspace = ws,
				 .admin_file = "/nonexistent/sandmux-admin.json",
				 .profile_flag = profile,
				 .path_env = "/nonexistent" };
	struct policy *p = NULL;
	struct perr e = { 0 };
	if (policy_load(&o, &p, &e) < 0) {
		fprintf(stderr, "policy_load %s: %s\n", profile, e.msg);
		p = NULL;
	}
	perr_free(&e);
	return p;
}

static bool writable(const struct policy *p, const char *path)
{
	return policy_decide_path(p, path, OP_WRITE).allow || policy_decide_path(p, path, OP_CREATE).allow;
}

/* Every entry, and a name beneath it that no rule of its own makes
 * writable, is refused for writing: the protection list covers the table. */
static void check_entries(struct unit *u, const struct policy *p, const char *home, const char *profile)
{
	for (int i = 0; i < SM_PATH_COUNT; i++) {
		char path[512], child[600];
		if (sm_path(home, i, path, sizeof path) < 0)
			abort();
		snprintf(child, sizeof child, "%s/not-this-sessions", path);
		bool ok = !writable(p, path) && !writable(p, child);
		if (!unit_check(u, ok, "sandmux's own path is write-protected", __FILE__, __LINE__))
			fprintf(stderr, "  profile %s: %s\n", profile, path);
	}
}

static void test_protected(struct unit *u)
{
	char root[] = "/tmp/test_paths.XXXXXX", home[64], ws[64], cfg[128];
	if (mkdtemp(root) == NULL)
		abort();
	snprintf(home, sizeof home, "%s/home", root);
	snprintf(ws, sizeof ws, "%s/ws", root);
	mkdir(home, 0700);
	mkdir(ws, 0700);
	/* the widest the per-user file can ask for: HOME and sandmux's state
	 * read-write, and a custom profile on top */
	snprintf(cfg, sizeof cfg, "%s/%s", home, sm_path_rel(SM_PATH_USER_POLICY));
	put(cfg, "{\"additionalReadwritePaths\": [\"~\", \"~/.sandmux/state\", \"~/.cursor\"],"
		 " \"profiles\": {\"wide\": {\"extends\": \"workspace\", \"read_write\": [\"~/.sandmux\"]}}}");
	const char *profiles[] = { "workspace", "read-only", "strict", "devbox", "wide" };
	for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++) {
		struct policy *p = load(home, ws, profiles[i]);
		if (!CHECK(u, p != NULL))
			continue;
		check_entries(u, p, home, profiles[i]);
		policy_free(p);
	}
	/* The one child each SM_OWN_CHILD entry hands out is writable, and
	 * only that one. */
	struct policy *p = load(home, ws, "workspace");
	if (CHECK(u, p != NULL)) {
		char tmp[512], other[600];
		sm_path(home, SM_PATH_TMP, tmp, sizeof tmp);
		snprintf(other, sizeof other, "%s/other-session", tmp);
		strncat(tmp, "/this-session", sizeof tmp - strlen(tmp) - 1);
		p->tmpdir = strdup(tmp);
		CHECK(u, writable(p, tmp));
		CHECK(u, !writable(p, other));
		char agents[512], mine[600];
		sm_path(home, SM_PATH_AGENTS, agents, sizeof agents);
		CHECK(u, p->agents != NULL && p->agents->state != NULL &&
				 strncmp(p->agents->state, agents, strlen(agents)) == 0);
		snprintf(mine, sizeof mine, "%s/history", p->agents->state);
		CHECK(u, writable(p, mine));
		snprintf(mine, sizeof mine, "%s/other-workspace/history", agents);
		CHECK(u, !writable(p, mine));
		check_entries(u, p, home, "workspace with a temp dir");
		policy_free(p);
	}
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", root);
}

int main(void)
{
	struct unit u = { 0 };
	test_join(&u);
	test_table_rooted(&u);
	test_protected(&u);
	return unit_done(&u, "test_paths");
}
