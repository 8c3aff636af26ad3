/* events: the JSON form of a denial, coalescing, the capped log. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/events.h"
#include "tests/unit/unit.h"

static struct denial sample(const char *op, const char *target, int pane)
{
	struct denial d = { 0 };
	denial_set(&d, op, "observer", target, "not in a writable path");
	d.ts_ms = 1796000523456LL; /* 2026-11-30T01:02:03.456Z */
	d.pane = pane;
	d.pid = 4242;
	snprintf(d.comm, sizeof d.comm, "npm");
	return d;
}

static void test_json(struct unit *u)
{
	struct denial d = sample("write", "/etc/foo", 2);
	d.suggest.kind = SUGGEST_RW;
	snprintf(d.suggest.value, sizeof d.suggest.value, "/etc");
	char *s = denial_to_json(&d, false);
	CHECK_STR(u, s,
		  "{\"ts\":\"2026-11-30T01:02:03.456Z\",\"pane\":2,\"pid\":4242,\"comm\":\"npm\",\"op\":\"write\","
		  "\"target\":\"/etc/foo\",\"rule\":\"not in a writable path\",\"layer\":\"observer\","
		  "\"suggest\":{\"additionalReadwritePaths\":[\"/etc\"]}}");
	free(s);
	/* no suggestion: an empty object; coalesced: count and origin */
	d.suggest.kind = SUGGEST_NONE;
	d.count = 3;
	d.rule_file = strdup("/home/u/.sandmux/sandbox.json");
	d.rule_line = 4;
	s = denial_to_json(&d, true);
	cJSON *o = cJSON_Parse(s);
	CHECK(u, o != NULL);
	CHECK(u, cJSON_IsObject(cJSON_GetObjectItem(o, "suggest")));
	CHECK(u, cJSON_GetArraySize(cJSON_GetObjectItem(o, "suggest")) == 0);
	CHECK_INT(u, cJSON_GetObjectItem(o, "count")->valueint, 3);
	CHECK_STR(u, cJSON_GetObjectItem(o, "from")->valuestring, "/home/u/.sandmux/sandbox.json:4");
	cJSON_Delete(o);
	free(s);
	/* strings that need escaping stay one valid line */
	denial_set(&d, "write", "observer", "/tmp/a\"b\n", "r");
	s = denial_to_json(&d, false);
	CHECK(u, strchr(s, '\n') == NULL);
	o = cJSON_Parse(s);
	CHECK_STR(u, cJSON_GetObjectItem(o, "target")->valuestring, "/tmp/a\"b\n");
	cJSON_Delete(o);
	free(s);
	denial_clear(&d);
	char ts[32];
	denial_format_ts(5, ts);
	CHECK_STR(u, ts, "1970-01-01T00:00:00.005Z");
}

static void test_coalesce(struct unit *u)
{
	struct denials l = { 0 };
	struct denial a = sample("write", "/etc/foo", 1), b = sample("write", "/etc/foo", 1);
	struct denial c = sample("create", "/etc/foo", 1), e = sample("write", "/etc/foo", 2);
	b.pid = 99;
	b.ts_ms += 1000;
	CHECK(u, denials_add(&l, &a) != NULL);
	struct denial *got = denials_add(&l, &b);
	CHECK_INT(u, l.n, 1);
	CHECK_INT(u, got->count, 2);
	CHECK_INT(u, got->pid, 99);
	CHECK(u, got->ts_ms == b.ts_ms);
	denials_add(&l, &c);
	denials_add(&l, &e);
	CHECK_INT(u, l.n, 3);
	for (int i = 0; i < 40; i++)
		denials_add(&l, &a);
	CHECK_INT(u, l.n, 3);
	CHECK_INT(u, l.v[0].count, 42);
	CHECK_INT(u, denials_count_pane(&l, 1), 43);
	CHECK_INT(u, denials_count_pane(&l, 2), 1);
	/* the list owns copies */
	denial_clear(&a);
	CHECK_STR(u, l.v[0].target, "/etc/foo");
	/* distinct denials are capped, the oldest dropped */
	char t[32];
	for (int i = 0; i < DENIALS_MAX + 10; i++) {
		snprintf(t, sizeof t, "/etc/f%d", i);
		struct denial x = sample("create", t, 3);
		denials_add(&l, &x);
		denial_clear(&x);
	}
	CHECK_INT(u, l.n, DENIALS_MAX);
	CHECK_STR(u, l.v[0].target, "/etc/f10");
	CHECK_STR(u, l.v[l.n - 1].target, "/etc/f1033");
	denials_free(&l);
	denial_clear(&b);
	denial_clear(&c);
	denial_clear(&e);
}

static size_t file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (size_t)st.st_size : 0;
}

static int lines_of(const char *path)
{
	FILE *f = fopen(path, "r");
	int n = 0, ch;
	while (f != NULL && (ch = fgetc(f)) != EOF)
		n += ch == '\n';
	if (f != NULL)
		fclose(f);
	return n;
}

static void seen(const struct denial *d, void *arg)
{
	*(unsigned *)arg = d->count;
}

static void test_log(struct unit *u)
{
	char dir[] = "/tmp/test_events.XXXXXX";
	CHECK(u, mkdtemp(dir) != NULL);
	char *path = events_log_path(dir);
	CHECK_STR(u, path + strlen(dir), "/.sandmux/state/denials.jsonl");
	struct events ev;
	CHECK_INT(u, events_init(&ev, dir), 0);
	unsigned count = 0;
	ev.listener = seen;
	ev.listener_arg = &count;
	struct denial d = sample("write", "/etc/foo", 1);
	events_emit(&ev, &d);
	events_emit(&ev, &d);
	CHECK_INT(u, count, 2);
	CHECK_INT(u, lines_of(path), 2); /* every event is logged, coalesced or not */
	CHECK_INT(u, ev.list.n, 1);
	/* the cap: the full file moves to .1, the live one starts again */
	ev.log_cap = 1000;
	for (int i = 0; i < 20; i++)
		events_emit(&ev, &d);
	char old[512];
	snprintf(old, sizeof old, "%s.1", path);
	CHECK(u, file_size(path) <= 1000);
	CHECK(u, file_size(old) > 0 && file_size(old) <= 1000);
	CHECK(u, ev.err[0] == '\0');
	struct stat st;
	snprintf(old, sizeof old, "%s/.sandmux/state", dir);
	CHECK(u, stat(old, &st) == 0 && (st.st_mode & 077) == 0);
	/* a log linked elsewhere is refused, and what it names is unchanged */
	char victim[512], log[512];
	snprintf(victim, sizeof victim, "%s/victim", dir);
	snprintf(log, sizeof log, "%s/.sandmux/state/denials.jsonl", dir);
	FILE *f = fopen(victim, "w");
	if (f != NULL)
		fclose(f);
	CHECK_INT(u, unlink(log), 0);
	CHECK_INT(u, symlink(victim, log), 0);
	events_emit(&ev, &d);
	CHECK(u, strstr(ev.err, "denials.jsonl: a symbolic link; refused") != NULL);
	CHECK_INT(u, (int)file_size(victim), 0);
	/* so is a linked state directory */
	ev.err[0] = '\0';
	CHECK_INT(u, unlink(log), 0);
	snprintf(log, sizeof log, "%s/.sandmux/state", dir);
	snprintf(old, sizeof old, "%s/.sandmux/state.real", dir);
	CHECK_INT(u, rename(log, old), 0);
	CHECK_INT(u, symlink(victim, log), 0);
	events_emit(&ev, &d);
	CHECK(u, strstr(ev.err, "/.sandmux/state: a symbolic link; refused") != NULL);
	CHECK_INT(u, (int)file_size(victim), 0);
	denial_clear(&d);
	events_free(&ev);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK_INT(u, system(cmd), 0);
	free(path);
}

int main(void)
{
	struct unit u = { 0 };
	test_json(&u);
	test_coalesce(&u);
	test_log(&u);
	return unit_done(&u, "test_events");
}
