/* glob: every supported form matches what DESIGN.md says, and every
 * refused form is refused with a reason. */
#include "policy/glob.h"
#include "tests/unit/unit.h"

static const struct {
	const char *pat, *path;
	int match;
} matches[] = {
	{ "/ws/.env", "/ws/.env", 1 },
	{ "/ws/.env", "/ws/.envrc", 0 },
	{ "/ws/*.pem", "/ws/a.pem", 1 },
	{ "/ws/*.pem", "/ws/d/a.pem", 0 },  /* * stays within a segment */
	{ "/ws/**/*.pem", "/ws/a.pem", 1 }, /* a leading all-dirs segment matches zero dirs */
	{ "/ws/**/*.pem", "/ws/a/b/c.pem", 1 },
	{ "/ws/**/*.pem", "/ws/a/b/c.pemx", 0 },
	{ "/ws/.vscode/**", "/ws/.vscode/settings.json", 1 },
	{ "/ws/.vscode/**", "/ws/.vscode", 1 }, /* the directory itself */
	{ "/ws/.vscode/**", "/ws/.vscodex", 0 },
	{ "/ws/.cursor/**/*.json", "/ws/.cursor/a/b.json", 1 },
	{ "/ws/.cursor/**/*.json", "/ws/.cursor/b.json", 1 },
	{ "/ws/file?.txt", "/ws/file1.txt", 1 },
	{ "/ws/file?.txt", "/ws/file12.txt", 0 },
	{ "/ws/file?.txt", "/ws/file/.txt", 0 }, /* ? never matches / */
	{ "/ws/[abc].c", "/ws/b.c", 1 },
	{ "/ws/[abc].c", "/ws/d.c", 0 },
	{ "/ws/[a-c].c", "/ws/c.c", 1 },
	{ "/ws/[!a-c].c", "/ws/c.c", 0 },
	{ "/ws/[!a-c].c", "/ws/x.c", 1 },
	{ "/ws/[^a].c", "/ws/b.c", 1 },
	{ "/ws/[^a].c", "/ws/a.c", 0 },
	{ "**/secret", "a/b/secret", 1 },
	{ "**/secret", "secret", 1 },
	{ "**", "anything/at/all", 1 },
	{ "/a/**/b/**/c", "/a/b/c", 1 },
	{ "/a/**/b/**/c", "/a/x/b/y/z/c", 1 },
	{ "/a/**/b/**/c", "/a/x/y/z/c", 0 },
	{ "/ws/*", "/ws/", 1 },
};

static const struct {
	const char *pat, *why;
} refused[] = {
	{ "/ws/{a,b}", "brace" },
	{ "/ws/a\\*", "backslash" },
	{ "/ws/[]a]", "']'" },
	{ "/ws/[[:alpha:]]", "POSIX" },
	{ "/ws/[abc", "unterminated" },
	{ "/ws/a**", "'**'" },
	{ "/ws/**a/b", "'**'" },
	{ "/ws/***", "'**'" },
	{ "/ws/[z-a]", "reversed" },
	{ "/ws/a]", "']'" },
	{ "", "empty" },
	{ "**/**/**/**/**/x", "more than 4" },
};

static void test_matches(struct unit *u)
{
	char err[GLOB_ERR_MAX];
	for (size_t i = 0; i < sizeof matches / sizeof matches[0]; i++) {
		struct glob g;
		if (!CHECK_INT(u, glob_compile(matches[i].pat, &g, err), 0)) {
			fprintf(stderr, "  pattern %s: %s\n", matches[i].pat, err);
			continue;
		}
		if (!CHECK_INT(u, glob_match(&g, matches[i].path), matches[i].match))
			fprintf(stderr, "  pattern %s path %s\n", matches[i].pat, matches[i].path);
		glob_free(&g);
	}
}

static void test_refused(struct unit *u)
{
	char err[GLOB_ERR_MAX];
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		struct glob g;
		if (!CHECK_INT(u, glob_compile(refused[i].pat, &g, err), -1))
			glob_free(&g);
		else if (!CHECK(u, strstr(err, refused[i].why) != NULL))
			fprintf(stderr, "  pattern %s: %s\n", refused[i].pat, err);
	}
}

/* Deep paths against many '**' stay fast (the matcher is linear). */
static void test_deep(struct unit *u)
{
	char path[4200], err[GLOB_ERR_MAX];
	size_t o = 0;
	while (o < 4000) {
		memcpy(path + o, "/a", 2);
		o += 2;
	}
	path[o] = 0;
	struct glob g;
	CHECK_INT(u, glob_compile("/**/a/**/a/**/a/**/b", &g, err), 0);
	for (int i = 0; i < 200; i++)
		CHECK(u, !glob_match(&g, path));
	glob_free(&g);
	CHECK_INT(u, glob_compile("/**/a/**/a/**/a/**/a", &g, err), 0);
	CHECK(u, glob_match(&g, path));
	glob_free(&g);
	char many[200] = "";
	for (int i = 0; i < 64; i++)
		strcat(many, "/a");
	CHECK_INT(u, glob_compile(many, &g, err), -1);
	CHECK_STR(u, err, "more than 63 path segments");
}

static void test_prefix(struct unit *u)
{
	static const char *const cases[][2] = {
		{ "/ws/src/**/*.pem", "/ws/src" }, { "/ws/.env", "/ws/.env" }, { "/*.pem", "/" }, { "*.pem", "" },
		{ "/ws/a[bc]/x", "/ws" },
	};
	char err[GLOB_ERR_MAX];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct glob g;
		CHECK_INT(u, glob_compile(cases[i][0], &g, err), 0);
		CHECK_STR(u, glob_prefix(&g), cases[i][1]);
		glob_free(&g);
	}
}

static void test_nocase(struct unit *u)
{
	char err[GLOB_ERR_MAX];
	struct glob g;
	CHECK_INT(u, glob_compile_nocase("*key*", &g, err), 0);
	CHECK(u, glob_match(&g, "OPENAI_API_KEY"));
	CHECK(u, glob_match(&g, "keyring"));
	CHECK(u, !glob_match(&g, "PATH"));
	glob_free(&g);
	CHECK_INT(u, glob_compile_nocase("[a-c]*", &g, err), 0);
	CHECK(u, glob_match(&g, "BAR"));
	glob_free(&g);
	CHECK_INT(u, glob_compile("*key*", &g, err), 0);
	CHECK(u, !glob_match(&g, "API_KEY"));
	glob_free(&g);
}

static void test_below(struct unit *u)
{
	static const struct {
		const char *glob, *dir;
		bool below;
	} cases[] = {
		{ "/ws/.claude/*.json", "/ws/.claude", true },
		{ "/ws/.claude/*.json", "/ws", true },
		{ "/ws/.claude/*.json", "/", true },
		{ "/ws/.claude/*.json", "/ws/.claude/a.json", false }, /* the match itself, nothing below */
		{ "/ws/.claude/*.json", "/ws/src", false },
		{ "/ws/.cursor/**/*.json", "/ws/.cursor/a/b", true },
		{ "/ws/**/*.env", "/ws/any/where", true },
		{ "/ws/**/*.env", "/other", false },
		{ "/ws/c[fg]g/prod.env", "/ws/cfg", true },
		{ "/ws/c[fg]g/prod.env", "/ws/cxg", false },
		{ "/ws/*/x", "/ws/anything", true },
		{ "/ws/*/x", "/ws/a/x", false },
		{ "relative", "/ws", false },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (!CHECK_INT(u, glob_may_match_below(cases[i].glob, cases[i].dir), cases[i].below))
			fprintf(stderr, "  %s below %s\n", cases[i].glob, cases[i].dir);
}

int main(void)
{
	struct unit u = { 0 };
	test_matches(&u);
	test_refused(&u);
	test_deep(&u);
	test_prefix(&u);
	test_nocase(&u);
	test_below(&u);
	return unit_done(&u, "test_glob");
}
