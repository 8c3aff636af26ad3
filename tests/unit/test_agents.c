/* agents: the presets, their overrides and what they add to a policy
 * (policy/agents.h); bad `agents` and `quiet` entries refused with
 * FILE:LINE:COL: FIELD; an untrusted repo file cannot widen them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/agents.h"
#include "policy/config.h"
#include "policy/suggest.h"
#include "tests/unit/unit.h"

static int parse(const char *text, struct config *cfg, struct perr *e)
{
	memset(cfg, 0, sizeof *cfg);
	memset(e, 0, sizeof *e);
	return config_parse(cfg, "s.json", text, strlen(text), LAYER_USER, "/home/u", e);
}

static void test_errors(struct unit *u)
{
	struct config c;
	struct perr e;
	CHECK_INT(u, parse("{\"agents\": {\"x\": {\"paths\": [\"/etc/passwd\"]}}}", &c, &e), -1);
	CHECK(u, strstr(e.msg, "s.json:1:29: agents.x.paths[0]:") != NULL);
	config_free(&c);
	perr_free(&e);
	CHECK_INT(u, parse("{\"agents\": {\"x\": {\"hosts\": [\"10.0.0.0/33\"]}}}", &c, &e), -1);
	CHECK(u, strstr(e.msg, "agents.x.hosts[0]") != NULL);
	config_free(&c);
	perr_free(&e);
	CHECK_INT(u, parse("{\"agents\": {\"x\": {\"enabled\": 1}}}", &c, &e), -1);
	CHECK(u, strstr(e.msg, "s.json:1:30: agents.x.enabled: expected a boolean") != NULL);
	config_free(&c);
	perr_free(&e);
	CHECK_INT(u, parse("{\"agents\": {\"a b\": {}}}", &c, &e), -1);
	CHECK(u, strstr(e.msg, "not a valid agent name") != NULL);
	config_free(&c);
	perr_free(&e);
	CHECK_INT(u, parse("{\"quiet\": [\"~/.x/[\"]}", &c, &e), -1);
	CHECK(u, strstr(e.msg, "quiet[0]") != NULL);
	config_free(&c);
	perr_free(&e);
	CHECK_INT(u,
		  parse("{\"quiet\": [\"~/.x/**\", \"a.example\"], \"agents\": {\"y\": {\"env\": {\"A\": \"~/b\"}}}}",
			&c, &e),
		  0);
	CHECK_INT(u, c.quiet.n, 2);
	CHECK_STR(u, c.quiet.v[0].text, "/home/u/.x/**");
	CHECK_INT(u, c.nagents, 1);
	CHECK(u, c.agents[0].env != NULL && c.agents[0].env->n == 1);
	config_free(&c);
	perr_free(&e);
}

static void test_untrusted_repo(struct unit *u)
{
	struct config repo;
	struct perr e;
	parse("{\"agents\": {\"claude\": {\"hosts\": [\"evil.example\"], \"enabled\": true}, \"codex\": {\"enabled\": "
	      "false}}}",
	      &repo, &e);
	CHECK(u, agents_cfg_drop_widening(&repo));
	CHECK(u, repo.agents[0].hosts == NULL && !repo.agents[0].enabled_set);
	CHECK(u, repo.agents[1].enabled_set && !repo.agents[1].enabled); /* turning one off narrows: kept */
	config_free(&repo);
	perr_free(&e);
}

static char root[64];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static struct policy *load(const char *profile, const char *path_env)
{
	char home[128], ws[128];
	snprintf(home, sizeof home, "%s/home", root);
	snprintf(ws, sizeof ws, "%s/ws", root);
	struct policy_opts o = { .home = home,
				 .workspace = ws,
				 .profile_flag = profile,
				 .path_env = path_env,
				 .admin_file = "/nonexistent" };
	struct policy *p = NULL;
	struct perr e = { 0 };
	if (policy_load(&o, &p, &e) < 0)
		fprintf(stderr, "load: %s\n", e.msg);
	perr_free(&e);
	return p;
}

static void test_apply(struct unit *u)
{
	char path[256], bin[128];
	snprintf(root, sizeof root, "/tmp/sandmux-agents-XXXXXX");
	if (mkdtemp(root) == NULL)
		return;
	snprintf(path, sizeof path, "%s/home", root);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/ws", root);
	mkdir(path, 0700);
	snprintf(bin, sizeof bin, "%s/bin", root);
	mkdir(bin, 0700);
	snprintf(path, sizeof path, "%s/codex", bin);
	write_file(path, "#!/bin/sh\n");
	chmod(path, 0755);
	snprintf(path, sizeof path, "%s/home/.claude.json", root);
	write_file(path, "{}\n");

	struct policy *p = load(NULL, bin);
	CHECK(u, p != NULL && p->agents != NULL && p->agents->state != NULL);
	if (p == NULL || p->agents == NULL)
		return;
	const struct policy_agent *claude = agents_find(p, "claude"), *codex = agents_find(p, "codex"),
				  *gemini = agents_find(p, "gemini");
	CHECK(u, claude != NULL && claude->present); /* its state exists */
	CHECK(u, codex != NULL && codex->present);   /* its program is in PATH */
	CHECK(u, gemini != NULL && !gemini->present);
	char want[256];
	snprintf(want, sizeof want, "%s/home/.codex", root);
	CHECK(u, rules_has(&p->agents->shadow, want));
	snprintf(want, sizeof want, "%s/home/.gemini", root);
	CHECK(u, !rules_has(&p->agents->shadow, want)); /* not found here: not shadowed */
	/* hosts: API allowed, telemetry denied (and so never suggested) */
	CHECK(u, policy_decide_host(p, "api.anthropic.com", NULL, 443).allow);
	struct decision d = policy_decide_host(p, "statsig.anthropic.com", NULL, 443);
	CHECK(u, !d.allow);
	CHECK_STR(u, d.rule, "agent claude: telemetry, refused");
	struct suggestion s;
	CHECK(u, !suggest_host(p, "statsig.anthropic.com:443", &s));
	/* codex's quiet host: quiet only while codex runs (denial-sink.c);
	 * anything else asking for it gets the usual suggestion */
	CHECK(u, suggest_host(p, "github.com:443", &s));
	CHECK(u, agents_quiet_for(p, "codex", "github.com"));
	CHECK(u, !agents_quiet_for(p, "claude", "github.com"));
	CHECK(u, !agents_quiet_for(p, "codex", "gitlab.com"));
	/* a host two presets do without is quiet for each of them */
	CHECK(u, agents_quiet_for(p, "codex", "raw.githubusercontent.com"));
	CHECK(u, agents_quiet_for(p, "claude", "raw.githubusercontent.com"));
	CHECK(u, !agents_quiet_for(p, "gemini", "raw.githubusercontent.com"));
	/* the hosts a preset names, which the proxy never holds */
	CHECK(u, agents_names_host(p, "api.anthropic.com"));
	CHECK(u, agents_names_host(p, "x.statsig.com"));
	CHECK(u, agents_names_host(p, "github.com"));
	CHECK(u, !agents_names_host(p, "registry.npmjs.org"));
	/* the shadow is writable, the real state dir's neighbours are not */
	snprintf(path, sizeof path, "%s/home/.codex/config.toml", root);
	CHECK(u, policy_decide_path(p, path, OP_WRITE).allow);
	snprintf(path, sizeof path, "%s/home/.codexx", root);
	CHECK(u, !policy_decide_path(p, path, OP_CREATE).allow);
	snprintf(path, sizeof path, "%s/history/bash_history", p->agents->state);
	CHECK(u, policy_decide_path(p, path, OP_WRITE).allow);
	/* quiet by default: no suggestion for a history in HOME */
	snprintf(path, sizeof path, "%s/home/.bash_history", root);
	CHECK(u, !suggest_path(p, path, OP_CREATE, &s));
	/* claude's config dir variable */
	bool env = false;
	for (size_t i = 0; i < p->env.set.n; i++)
		env |= strncmp(p->env.set.v[i].text, "CLAUDE_CONFIG_DIR=", 18) == 0;
	CHECK(u, env);
	/* resume, by the program's name */
	CHECK(u, agents_for_command(p, "/usr/local/bin/claude") == claude);
	CHECK(u, agents_for_command(p, "vim") == NULL);
	policy_free(p);

	/* one setting turns one off; other profiles get no presets */
	snprintf(path, sizeof path, "%s/home/.sandmux", root);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/home/.sandmux/sandbox.json", root);
	write_file(path, "{\"agents\": {\"claude\": {\"enabled\": false}}}\n");
	p = load(NULL, bin);
	CHECK(u, p != NULL && !agents_find(p, "claude")->enabled);
	CHECK(u, p != NULL && !policy_decide_host(p, "console.anthropic.com", NULL, 443).allow);
	snprintf(want, sizeof want, "%s/home/.claude.json", root);
	CHECK(u, p != NULL && !rules_has(&p->agents->shadow, want));
	CHECK(u, p != NULL && agents_for_command(p, "claude") == NULL);
	CHECK(u, p != NULL && !agents_names_host(p, "console.anthropic.com")); /* a preset turned off names none */
	policy_free(p);
	/* an admin allow list replaces every other: the presets add no host */
	char admin[256];
	snprintf(admin, sizeof admin, "%s/admin.json", root);
	write_file(admin, "{\"networkPolicy\": {\"allow\": [\"only.example\"]}}\n");
	{
		char home[128], ws[128];
		snprintf(home, sizeof home, "%s/home", root);
		snprintf(ws, sizeof ws, "%s/ws", root);
		struct policy_opts o = { .home = home,
					 .workspace = ws,
					 .path_env = bin,
					 .admin_file = admin,
					 .admin_ownership_unchecked = true };
		struct perr e = { 0 };
		struct policy *q = NULL;
		CHECK_INT(u, policy_load(&o, &q, &e), 0);
		CHECK(u, q != NULL && !policy_decide_host(q, "api.openai.com", NULL, 443).allow);
		CHECK(u, q != NULL && policy_decide_host(q, "only.example", NULL, 443).allow);
		/* refused then, and suggestible, but still never held */
		struct suggestion sq;
		CHECK(u, q != NULL && suggest_host(q, "api.openai.com:443", &sq));
		CHECK(u, q != NULL && agents_names_host(q, "api.openai.com"));
		policy_free(q);
		perr_free(&e);
	}
	p = load("strict", bin);
	CHECK(u, p != NULL && p->agents->state == NULL && p->agents->shadow.n == 0);
	policy_free(p);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	if (system(cmd) != 0)
		fprintf(stderr, "cleanup failed\n");
}

int main(void)
{
	struct unit u = { 0 };
	test_errors(&u);
	test_untrusted_repo(&u);
	test_apply(&u);
	char id[64];
	agents_workspace_id("/home/u/my proj", id, sizeof id);
	CHECK(&u, strncmp(id, "my_proj-", 8) == 0 && strlen(id) == 20);
	return unit_done(&u, "test_agents");
}
