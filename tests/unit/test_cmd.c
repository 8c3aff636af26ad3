/* The command table: its argument parser (a command line and a JSON
 * request by one spec), its target lookup, and the table's own shape
 * (every entry runnable, names unique, default keys that parse). */
#include <cjson/cJSON.h>
#include <string.h>

#include "shell/command.h"
#include "tests/unit/unit.h"

static const struct args_spec spec = {
	.opts = { { 't', "target", ARGS_TARGET, 0, 0, NULL },
		  { 'n', "name", ARGS_STRING, 0, 0, NULL },
		  { 0, "profile", ARGS_STRING, 0, 0, "sandbox" },
		  { 'S', "start", ARGS_INT, -100, 0, NULL },
		  { 'e', "attributes", ARGS_FLAG, 0, 0, NULL } },
	.words = "command",
	.lower = 0,
	.upper = 3,
};

static int parse(const char *const *words, struct args *a)
{
	int n = 0;
	while (words[n] != NULL)
		n++;
	return args_parse(&spec, n, (const char **)words, a);
}

static void test_argv(struct unit *u)
{
	struct args a;
	const char *w1[] = { "-t", "2", "--sandbox", "strict", "-e", "-S", "-5", "ls", "-l", NULL };
	CHECK_INT(u, parse(w1, &a), 0);
	CHECK_STR(u, args_get(&spec, &a, "target"), "2");
	CHECK_STR(u, args_get(&spec, &a, "profile"), "strict"); /* --sandbox names "profile" */
	CHECK(u, args_has(&spec, &a, "attributes"));
	CHECK_INT(u, args_int(&spec, &a, "start", 0), -5);
	CHECK(u, !args_has(&spec, &a, "name"));
	CHECK_INT(u, a.argc, 2); /* the words start at the first non-option */
	CHECK_STR(u, a.argv[0], "ls");
	CHECK_STR(u, a.argv[1], "-l");

	const char *w2[] = { "-n", "x", "--", "-e", NULL };
	CHECK_INT(u, parse(w2, &a), 0);
	CHECK_INT(u, a.argc, 1); /* after "--", an option-like word is a word */
	CHECK_STR(u, a.argv[0], "-e");
	CHECK(u, !args_has(&spec, &a, "attributes"));

	const char *bad_int[] = { "-S", "5", NULL };
	CHECK_INT(u, parse(bad_int, &a), -1);
	CHECK_STR(u, a.field, "start");
	CHECK_STR(u, a.why, "must be a whole number from -100 to 0");
	const char *bad_opt[] = { "--nope", NULL };
	CHECK_INT(u, parse(bad_opt, &a), -1);
	CHECK_STR(u, a.why, "unknown option --nope");
	const char *no_value[] = { "-n", NULL };
	CHECK_INT(u, parse(no_value, &a), -1);
	CHECK_STR(u, a.why, "-n needs a value");
	const char *many[] = { "a", "b", "c", "d", NULL };
	CHECK_INT(u, parse(many, &a), -1);
	CHECK_STR(u, a.why, "takes at most 3 words");

	struct args_spec dd = spec;
	dd.dashdash = true; /* words only after "--" (new's command) */
	const char *w3[] = { "-n", "x", "ls", NULL };
	CHECK_INT(u, args_parse(&dd, 3, (const char **)w3, &a), -1);
	CHECK_STR(u, a.why, "unknown option ls");
}

static int json(const char *text, struct args *a, char *got, size_t cap)
{
	cJSON *o = cJSON_Parse(text);
	int r = args_from_json(&spec, o, a);
	snprintf(got, cap, "%s|%s", a->field, a->why);
	if (r == 0 && a->argc > 0)
		snprintf(got, cap, "%d:%s", a->argc, a->argv[a->argc - 1]);
	args_free(a);
	cJSON_Delete(o);
	return r;
}

static void test_json(struct unit *u)
{
	struct args a;
	char got[256];
	cJSON *o = cJSON_Parse("{\"target\":7,\"profile\":\"strict\",\"start\":-3,\"attributes\":true,"
			       "\"command\":[\"ls\",\"-l\"],\"id\":1,\"verb\":\"x\"}");
	CHECK_INT(u, args_from_json(&spec, o, &a), 0);
	CHECK_STR(u, args_get(&spec, &a, "target"), "7"); /* a number is a pane id */
	CHECK_STR(u, args_get(&spec, &a, "profile"), "strict");
	CHECK_INT(u, args_int(&spec, &a, "start", 0), -3);
	CHECK(u, args_has(&spec, &a, "attributes"));
	CHECK_INT(u, a.argc, 2);
	CHECK_STR(u, a.argv[1], "-l");
	CHECK(u, a.argv[2] == NULL);
	args_free(&a);
	cJSON_Delete(o);

	CHECK_INT(u, json("{\"attributes\":false}", &a, got, sizeof got), 0);
	CHECK_INT(u, json("{\"target\":2.5}", &a, got, sizeof got), -1);
	CHECK_STR(u, got, "target|a pane id is a whole number from 1"); /* 2.5 is no pane 2 */
	CHECK_INT(u, json("{\"target\":{}}", &a, got, sizeof got), -1);
	CHECK_STR(u, got, "target|must be a string or number");
	CHECK_INT(u, json("{\"name\":3}", &a, got, sizeof got), -1);
	CHECK_STR(u, got, "name|must be a string");
	CHECK_INT(u, json("{\"start\":\"wide\"}", &a, got, sizeof got), -1);
	CHECK_STR(u, got, "start|must be a whole number from -100 to 0");
	CHECK_INT(u, json("{\"start\":1}", &a, got, sizeof got), -1);
	CHECK_INT(u, json("{\"attributes\":1}", &a, got, sizeof got), -1);
	CHECK_STR(u, got, "attributes|must be true or false");
	CHECK_INT(u, json("{\"command\":\"ls\"}", &a, got, sizeof got), -1);
	CHECK_STR(u, got, "command|must be an array of 0 to 3 strings");
	CHECK_INT(u, json("{\"command\":[\"a\",1]}", &a, got, sizeof got), -1);
	CHECK_STR(u, got, "command|must be an array of strings");
	CHECK_INT(u, json("{\"command\":[\"a\",\"b\",\"c\"]}", &a, got, sizeof got), 0);
	CHECK_STR(u, got, "3:c");

	/* "at least one word, when there are any": absent is the command's
	 * to judge (new-pane: a shell), an empty array is refused */
	struct args_spec one = { .words = "command", .lower = 1, .upper = -1 };
	o = cJSON_Parse("{\"command\":[]}");
	CHECK_INT(u, args_from_json(&one, o, &a), -1);
	CHECK_STR(u, a.why, "must be an array of 1 to 256 strings");
	args_free(&a);
	cJSON_Delete(o);
	o = cJSON_Parse("{}");
	CHECK_INT(u, args_from_json(&one, o, &a), 0);
	CHECK(u, a.argc == 0 && a.argv == NULL);
	cJSON_Delete(o);
	CHECK_INT(u, args_parse(&one, 0, NULL, &a), 0);
}

static void test_targets(struct unit *u)
{
	struct server s = { 0 };
	struct window w0 = { .srv = &s, .index = 0, .name = "main" }, w3 = { .srv = &s, .index = 3, .name = "agents" };
	struct pane a = { .id = 1, .win = &w0, .name = "shell" }, b = { .id = 2, .win = &w3, .name = "claude" },
		    c = { .id = 12, .win = &w3, .name = "7" };
	s.windows = &w0;
	w0.next = &w3;
	w0.panes = w0.active = &a;
	w3.panes = &b;
	b.next = &c;
	CHECK(u, cmd_find_pane(&s, NULL) == NULL); /* no current window */
	s.cur = &w0;
	CHECK(u, cmd_find_pane(&s, NULL) == &a);
	CHECK(u, cmd_find_pane(&s, "12") == &c);
	CHECK(u, cmd_find_pane(&s, "%12") == &c); /* tmux's pane id */
	CHECK(u, cmd_find_pane(&s, "%claude") == NULL);
	CHECK(u, cmd_find_pane(&s, "7") == NULL); /* digits are an id, never a name */
	CHECK(u, cmd_find_pane(&s, "3.1") == &c);
	CHECK(u, cmd_find_pane(&s, "3.-1") == NULL);
	CHECK(u, cmd_find_pane(&s, "claude") == &b);
	CHECK(u, cmd_find_pane(&s, "0") == NULL);
	CHECK(u, cmd_find_window(&s, NULL) == &w0);
	CHECK(u, cmd_find_window(&s, "3") == &w3);
	CHECK(u, cmd_find_window(&s, "agents") == &w3);
	CHECK(u, cmd_find_window(&s, "1") == NULL);
	CHECK(u, cmd_find_window(&s, "") == NULL);
}

static void test_table(struct unit *u)
{
	int n = 0;
	for (size_t i = 0; cmd_table[i] != NULL; i++, n++) {
		const struct cmd_entry *e = cmd_table[i];
		struct key k;
		CHECK(u, e->exec != NULL && e->flags != 0);
		CHECK(u, cmd_lookup(e->name, e->flags) == e); /* no two entries of one name */
		if (e->key != NULL && !CHECK(u, keys_parse(e->key, &k)))
			fprintf(stderr, "  %s's key %s\n", e->name, e->key);
		if (e->flags & CMD_KEY)
			CHECK(u, e->help != NULL);
	}
	CHECK(u, n > 30);
	CHECK(u, cmd_lookup("new", CMD_CLI) == &cmd_new_pane_entry); /* one new pane, however asked */
	CHECK(u, cmd_lookup("new-pane", CMD_CTL) == &cmd_new_pane_entry);
	CHECK(u, cmd_lookup("tiled", CMD_KEY) == cmd_lookup("tiled", CMD_CLI));
	CHECK(u, cmd_lookup("send-keys", CMD_KEY) == NULL); /* each front end takes only its own */
	CHECK(u, cmd_bindable("zoom"));
	CHECK(u, !cmd_bindable("hello"));
}

int main(void)
{
	struct unit u = { 0 };
	test_argv(&u);
	test_json(&u);
	test_targets(&u);
	test_table(&u);
	return unit_done(&u, "test_cmd");
}
