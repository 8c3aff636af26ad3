/* ignore: gitignore syntax into workspace globs, git's matching order,
 * and one-line errors naming file, line and column. */
#include <stdlib.h>
#include <string.h>

#include "policy/ignore.h"
#include "tests/unit/unit.h"

#define WS "/ws"

static const char *const cursor_file = WS "/.cursorignore";
static const char *const sandmux_file = WS "/.sandmuxignore";

static int parse(struct rules *r, const char *file, const char *text, struct perr *e)
{
	return ignore_parse(r, file, text, strlen(text), e);
}

/* The label of the rule ignoring path, or NULL. */
static const char *why(const struct rules *r, const char *path, int is_dir)
{
	const struct rule *m = ignore_match(r, WS, path, is_dir);
	return m ? m->label : NULL;
}

static void test_syntax(struct unit *u)
{
	struct rules r = { 0 };
	struct perr e = { 0 };
	const char *text = "# secrets\n"
			   "*.env\n"
			   "secrets/\n"
			   "/build/out.txt\n"
			   "!keep.env\n"
			   "\n"
			   "\\#literal\n"
			   "trail\\ \n"
			   "spaces   \n"
			   "doc/*.txt\n"
			   "**/logs/*.log\n"
			   "cache/**\n"
			   "f[0-9].bin\n"
			   "q?.dat\n"
			   "a/**/z\n"
			   "\\!bang\n"
			   "star\\*\n"
			   "brace{x}\n"
			   "crlf.txt\r\n"
			   "***.tmp";
	CHECK_INT(u, parse(&r, cursor_file, text, &e), 0);
	CHECK_INT(u, r.n, 18);
	if (r.n != 18)
		return;
	CHECK_STR(u, r.v[0].text, "/**/*.env");
	CHECK_STR(u, r.v[0].label, ".cursorignore:2: *.env");
	CHECK_INT(u, r.v[0].origin.line, 2);
	CHECK(u, r.v[0].origin.file == cursor_file);
	CHECK_STR(u, r.v[1].text, "/**/secrets/");
	CHECK_STR(u, r.v[2].text, "/build/out.txt");
	CHECK_STR(u, r.v[3].text, "!/**/keep.env");
	CHECK_STR(u, r.v[4].text, "/**/#literal");
	CHECK_STR(u, r.v[5].text, "/**/trail ");
	CHECK_STR(u, r.v[6].text, "/**/spaces");
	CHECK_STR(u, r.v[7].text, "/doc/*.txt"); /* a '/' in the middle anchors */
	CHECK_STR(u, r.v[8].text, "/**/logs/*.log");
	CHECK_STR(u, r.v[9].text, "/cache/**/*");
	CHECK_STR(u, r.v[12].text, "/a/**/z");
	CHECK_STR(u, r.v[13].text, "/**/!bang");
	CHECK_STR(u, r.v[14].text, "/**/star[*]");
	CHECK_STR(u, r.v[15].text, "/**/brace[{]x[}]");
	CHECK_STR(u, r.v[16].text, "/**/crlf.txt");
	CHECK_STR(u, r.v[17].text, "/**/*.tmp");

	CHECK_STR(u, why(&r, WS "/.env", 0), ".cursorignore:2: *.env");
	CHECK_STR(u, why(&r, WS "/a/b/prod.env", 0), ".cursorignore:2: *.env");
	CHECK_STR(u, why(&r, WS "/keep.env", 0), NULL); /* negated later */
	CHECK_STR(u, why(&r, WS "/sub/keep.env", 0), NULL);
	CHECK_STR(u, why(&r, WS "/secrets", 1), ".cursorignore:3: secrets/");
	CHECK_STR(u, why(&r, WS "/secrets", 0), NULL); /* a file named so */
	CHECK_STR(u, why(&r, WS "/secrets", -1), ".cursorignore:3: secrets/");
	CHECK_STR(u, why(&r, WS "/x/secrets/key", 0), ".cursorignore:3: secrets/");
	/* inside an ignored directory, a later `!` cannot bring a file back */
	CHECK_STR(u, why(&r, WS "/secrets/keep.env", 0), ".cursorignore:3: secrets/");
	CHECK_STR(u, why(&r, WS "/build/out.txt", 0), ".cursorignore:4: /build/out.txt");
	CHECK_STR(u, why(&r, WS "/sub/build/out.txt", 0), NULL); /* anchored */
	CHECK_STR(u, why(&r, WS "/#literal", 0), ".cursorignore:7: \\#literal");
	CHECK_STR(u, why(&r, WS "/trail ", 0), ".cursorignore:8: trail\\ ");
	CHECK_STR(u, why(&r, WS "/trail", 0), NULL);
	CHECK_STR(u, why(&r, WS "/spaces", 0), ".cursorignore:9: spaces");
	CHECK_STR(u, why(&r, WS "/doc/a.txt", 0), ".cursorignore:10: doc/*.txt");
	CHECK_STR(u, why(&r, WS "/doc/x/a.txt", 0), NULL);
	CHECK_STR(u, why(&r, WS "/sub/doc/a.txt", 0), NULL);
	CHECK_STR(u, why(&r, WS "/logs/a.log", 0), ".cursorignore:11: **/logs/*.log");
	CHECK_STR(u, why(&r, WS "/p/q/logs/a.log", 0), ".cursorignore:11: **/logs/*.log");
	CHECK_STR(u, why(&r, WS "/cache", 1), NULL); /* what is inside, not cache itself */
	CHECK_STR(u, why(&r, WS "/cache/a/b", 0), ".cursorignore:12: cache/**");
	CHECK_STR(u, why(&r, WS "/f7.bin", 0), ".cursorignore:13: f[0-9].bin");
	CHECK_STR(u, why(&r, WS "/fx.bin", 0), NULL);
	CHECK_STR(u, why(&r, WS "/q1.dat", 0), ".cursorignore:14: q?.dat");
	CHECK_STR(u, why(&r, WS "/a/z", 0), ".cursorignore:15: a/**/z");
	CHECK_STR(u, why(&r, WS "/a/b/c/z", 0), ".cursorignore:15: a/**/z");
	CHECK_STR(u, why(&r, WS "/!bang", 0), ".cursorignore:16: \\!bang");
	CHECK_STR(u, why(&r, WS "/star*", 0), ".cursorignore:17: star\\*");
	CHECK_STR(u, why(&r, WS "/starx", 0), NULL);
	CHECK_STR(u, why(&r, WS "/brace{x}", 0), ".cursorignore:18: brace{x}");
	CHECK_STR(u, why(&r, WS "/crlf.txt", 0), ".cursorignore:19: crlf.txt");
	/* never inside .git, never the workspace itself, never outside */
	CHECK_STR(u, why(&r, WS "/.git/x.env", 0), NULL);
	CHECK_STR(u, why(&r, WS, 1), NULL);
	CHECK_STR(u, why(&r, "/other/x.env", 0), NULL);
	CHECK_STR(u, why(&r, "/wsx/x.env", 0), NULL);
	CHECK(u, ignore_match(&r, NULL, WS "/a.env", 0) == NULL); /* a policy without a workspace */
	CHECK(u, ignore_active(&r));
	rules_free(&r);
	perr_free(&e);
}

/* Negation is per file: .sandmuxignore cannot un-ignore .cursorignore. */
static void test_two_files(struct unit *u)
{
	struct rules r = { 0 };
	struct perr e = { 0 };
	CHECK_INT(u, parse(&r, cursor_file, "*.key\n", &e), 0);
	CHECK_INT(u, parse(&r, sandmux_file, "!a.key\n*.pem\n", &e), 0);
	CHECK_STR(u, why(&r, WS "/a.key", 0), ".cursorignore:1: *.key");
	CHECK_STR(u, why(&r, WS "/b.pem", 0), ".sandmuxignore:2: *.pem");
	rules_free(&r);
	CHECK_INT(u, parse(&r, cursor_file, "!only\n", &e), 0);
	CHECK(u, !ignore_active(&r));
	CHECK_STR(u, why(&r, WS "/only", 0), NULL);
	rules_free(&r);
	perr_free(&e);
}

static void expect_error(struct unit *u, const char *text, const char *msg)
{
	struct rules r = { 0 };
	struct perr e = { 0 };
	CHECK_INT(u, parse(&r, cursor_file, text, &e), -1);
	if (strstr(e.msg, msg) == NULL) {
		fprintf(stderr, "error for \"%s\": got \"%s\", want \"%s\"\n", text, e.msg, msg);
		CHECK(u, 0);
	}
	rules_free(&r);
	perr_free(&e);
}

static void test_errors(struct unit *u)
{
	expect_error(u, "ok\nbad[\n", WS "/.cursorignore:2:4: pattern: unterminated '['");
	expect_error(u, "a]b\n", ".cursorignore:1:2: pattern: a literal ']' is not supported");
	expect_error(u, "x\\\n", ".cursorignore:1:2: pattern: a trailing backslash");
	expect_error(u, "a\\\\b\n", ".cursorignore:1:2: pattern: a literal ']' or '\\'");
	expect_error(u, "[[:alpha:]]\n", ".cursorignore:1:1: pattern: POSIX");
	expect_error(u, "**/a/**/b/**/c/**/d/**/e\n", "'**'");
	struct rules r = { 0 };
	struct perr e = { 0 };
	/* never matching: skipped, not an error */
	CHECK_INT(u, parse(&r, cursor_file, "../up\n./x\n/\n!\n#c\n", &e), 0);
	CHECK_INT(u, r.n, 0);
	/* a control character reaches no label raw */
	CHECK_INT(u, parse(&r, cursor_file, "a\033[31mb\n", &e), -1);
	CHECK_INT(u, parse(&r, cursor_file, "a\033b\n", &e), 0);
	CHECK(u, r.n == 1 && strchr(r.v[0].label, '\033') == NULL);
	rules_free(&r);
	perr_free(&e);
}

/* A deep path and many patterns stay linear enough for the observer. */
static void test_limits(struct unit *u)
{
	struct rules r = { 0 };
	struct perr e = { 0 };
	size_t n = (IGNORE_MAX_PATTERNS + 1) * 3;
	char *text = malloc(n + 1), path[600];
	for (size_t i = 0; i < n; i += 3)
		memcpy(text + i, "*x\n", 3);
	text[n] = '\0';
	CHECK_INT(u, ignore_parse(&r, cursor_file, text, n, &e), -1);
	CHECK(u, strstr(e.msg, "more than") != NULL);
	free(text);
	rules_free(&r);
	snprintf(path, sizeof path, WS "%s", "/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/b");
	CHECK_INT(u, parse(&r, cursor_file, "**/a/**/a/**/a/**/c\n", &e), 0);
	CHECK_STR(u, why(&r, path, 0), NULL);
	rules_free(&r);
	perr_free(&e);
}

int main(void)
{
	struct unit u = { 0 };
	test_syntax(&u);
	test_two_files(&u);
	test_errors(&u);
	test_limits(&u);
	return unit_done(&u, "ignore");
}
