/* env: each step of the environment policy, in order. */
#include <stdlib.h>

#include "policy/policy.h"
#include "tests/unit/unit.h"

static const char *get(char **env, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; env[i]; i++)
		if (strncmp(env[i], name, n) == 0 && env[i][n] == '=')
			return env[i] + n + 1;
	return NULL;
}

static size_t count(char **env)
{
	size_t n = 0;
	while (env[n])
		n++;
	return n;
}

static char *const base[] = { "PATH=/bin", "HOME=/h", "LC_ALL=C",   "OPENAI_API_KEY=sk", "GH_TOKEN=t", "db_secret=s",
			      "FOO=1",     "BAR=2",   "keyboard=x", "NOEQUALS",          NULL };
static const struct origin none = { 0 };

static void test_inherit(struct unit *u)
{
	struct env_policy ep = { .inherit = ENV_INHERIT_ALL, .ignore_default_excludes = true };
	char **e = env_build(&ep, base);
	CHECK_INT(u, count(e), 9); /* everything but the entry without '=' */
	CHECK_STR(u, get(e, "OPENAI_API_KEY"), "sk");
	strv_free(e);
	ep.inherit = ENV_INHERIT_CORE;
	e = env_build(&ep, base);
	CHECK_INT(u, count(e), 3);
	CHECK_STR(u, get(e, "LC_ALL"), "C");
	CHECK(u, get(e, "FOO") == NULL);
	strv_free(e);
	ep.inherit = ENV_INHERIT_NONE;
	e = env_build(&ep, base);
	CHECK_INT(u, count(e), 0);
	strv_free(e);
}

static void test_default_excludes(struct unit *u)
{
	struct env_policy ep = { .inherit = ENV_INHERIT_ALL, .ignore_default_excludes = false };
	char **e = env_build(&ep, base);
	CHECK(u, get(e, "OPENAI_API_KEY") == NULL);
	CHECK(u, get(e, "GH_TOKEN") == NULL);
	CHECK(u, get(e, "db_secret") == NULL); /* case-insensitive */
	CHECK(u, get(e, "keyboard") == NULL);  /* *KEY* is a glob, not a word */
	CHECK_STR(u, get(e, "FOO"), "1");
	strv_free(e);
}

static void test_exclude_set_include(struct unit *u)
{
	struct env_policy ep = { .inherit = ENV_INHERIT_ALL, .ignore_default_excludes = true };
	rules_add(&ep.exclude, "f*", none);
	rules_add(&ep.set, "NEW=v", none);
	rules_add(&ep.set, "BAR=3", none);
	char **e = env_build(&ep, base);
	CHECK(u, get(e, "FOO") == NULL);
	CHECK_STR(u, get(e, "NEW"), "v");
	CHECK_STR(u, get(e, "BAR"), "3");
	strv_free(e);
	rules_add(&ep.include_only, "path", none);
	rules_add(&ep.include_only, "NEW", none);
	e = env_build(&ep, base);
	CHECK_INT(u, count(e), 2); /* include_only comes last, after set */
	CHECK_STR(u, get(e, "PATH"), "/bin");
	CHECK_STR(u, get(e, "NEW"), "v");
	strv_free(e);
	/* set after exclude: an excluded name set explicitly comes back */
	rules_add(&ep.set, "FOO=9", none);
	rules_free(&ep.include_only);
	e = env_build(&ep, base);
	CHECK_STR(u, get(e, "FOO"), "9");
	strv_free(e);
	rules_free(&ep.exclude);
	rules_free(&ep.set);
}

int main(void)
{
	struct unit u = { 0 };
	test_inherit(&u);
	test_default_excludes(&u);
	test_exclude_set_include(&u);
	return unit_done(&u, "test_env");
}
