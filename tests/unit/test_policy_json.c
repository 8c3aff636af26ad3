/* json: positions, byte ranges, paths and syntax errors. */
#include <stdlib.h>

#include "policy/json.h"
#include "tests/unit/unit.h"

static void test_positions(struct unit *u)
{
	const char *t = "{\n  \"a\": [1, \"x\"],\n  \"b\": {\"c\": true}\n}";
	struct json_error e;
	struct json *j = json_parse(t, strlen(t), &e);
	if (!CHECK(u, j != NULL))
		return;
	const struct json *a = json_get(j, "a"), *x = json_at(a, 1), *c = json_get(json_get(j, "b"), "c");
	CHECK_INT(u, a->line, 2);
	CHECK_INT(u, a->col, 8);
	CHECK_INT(u, a->key_line, 2);
	CHECK_INT(u, a->key_col, 3);
	CHECK_INT(u, x->col, 12);
	CHECK_STR(u, x->str, "x");
	CHECK_INT(u, (int)x->start, 13);
	CHECK_INT(u, (int)x->end, 16);
	CHECK_INT(u, (int)a->start, 9);
	CHECK_INT(u, t[a->end - 1], ']');
	CHECK(u, c->type == JSON_BOOL && c->boolean);
	char path[256];
	CHECK_STR(u, json_path(x, path, sizeof path), "a[1]");
	CHECK_STR(u, json_path(c, path, sizeof path), "b.c");
	CHECK_STR(u, json_path(j, path, sizeof path), "(top level)");
	json_free(j);
}

static void test_strings(struct unit *u)
{
	const char *t = "\xEF\xBB\xBF[\"\\u00e9\\ud83d\\ude00\\n\\\"\", -1.5e2, \"\xC3\xA9\", 0]";
	struct json_error e;
	struct json *j = json_parse(t, strlen(t), &e);
	if (!CHECK(u, j != NULL))
		return;
	CHECK_STR(u, json_at(j, 0)->str, "\xC3\xA9\xF0\x9F\x98\x80\n\"");
	CHECK(u, json_at(j, 1)->number == -150.0);
	CHECK_INT(u, json_at(j, 3)->col, 41); /* columns count characters, not bytes */
	json_free(j);
}

static const struct {
	const char *text, *msg, *path;
	int line, col;
} errors[] = {
	{ "{\"a\": 1,}", "expected a key in double quotes", "(top level)", 1, 9 },
	{ "{\"a\": 1\n \"b\": 2}", "expected ',' or '}'", "(top level)", 2, 2 },
	{ "{\"a\": [1, 2}", "expected ',' or ']'", "a", 1, 12 },
	{ "{\"a\": \"x", "unterminated string", "(top level)", 1, 7 },
	{ "{\"a\": tru}", "expected a value", "(top level)", 1, 7 },
	{ "{\"a\": 01}", "expected ',' or '}'", "(top level)", 1, 8 },
	{ "{\"a\": \"\\q\"}", "bad escape in string", "(top level)", 1, 8 },
	{ "{\"a\": \"\\ud800\"}", "unpaired high surrogate in \\u escape", "(top level)", 1, 8 },
	{ "{} x", "text after the end of the document", "(top level)", 1, 4 },
	{ "", "unexpected end of input", "(top level)", 1, 1 },
	{ "{\"a\" 1}", "expected ':' after the key", "(top level)", 1, 6 },
	{ "{\"a\": {\"b\": [1, }}", "expected a value", "a.b", 1, 17 },
};

static void test_errors(struct unit *u)
{
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
		struct json_error e;
		struct json *j = json_parse(errors[i].text, strlen(errors[i].text), &e);
		CHECK(u, j == NULL);
		json_free(j);
		CHECK_STR(u, e.msg, errors[i].msg);
		CHECK_STR(u, e.path, errors[i].path);
		CHECK_INT(u, e.line, errors[i].line);
		CHECK_INT(u, e.col, errors[i].col);
	}
}

/* An escaped quote early in a long string (found by fuzzing: the buffer
 * was sized up to the first quote byte). */
static void test_escaped_quote(struct unit *u)
{
	char t[300], want[300];
	struct json_error e;
	snprintf(t, sizeof t, "[\"\\\"%0200d\"]", 0);
	snprintf(want, sizeof want, "\"%0200d", 0);
	struct json *j = json_parse(t, strlen(t), &e);
	if (CHECK(u, j != NULL))
		CHECK_STR(u, json_at(j, 0)->str, want);
	json_free(j);
}

static void test_quote(struct unit *u)
{
	char *q = json_quote("a\"b\\c\n\x01\xC3\xA9");
	CHECK_STR(u, q, "\"a\\\"b\\\\c\\u000a\\u0001\xC3\xA9\"");
	struct json_error e;
	struct json *j = json_parse(q, strlen(q), &e); /* round trip */
	CHECK_STR(u, j ? j->str : NULL, "a\"b\\c\n\x01\xC3\xA9");
	json_free(j);
	free(q);
}

static void test_depth(struct unit *u)
{
	char deep[200];
	struct json_error e;
	memset(deep, '[', sizeof deep);
	CHECK(u, json_parse(deep, sizeof deep, &e) == NULL);
	CHECK_STR(u, e.msg, "nested too deeply");
}

int main(void)
{
	struct unit u = { 0 };
	test_positions(&u);
	test_strings(&u);
	test_errors(&u);
	test_escaped_quote(&u);
	test_quote(&u);
	test_depth(&u);
	return unit_done(&u, "test_policy_json");
}
