/* The denial hint line and `sandmux why`'s lines (policy/hint.c). */
#include <string.h>

#include "policy/hint.h"
#include "unit.h"

static struct denial mk(const char *op, char *target, char *rule, enum suggest_kind kind, const char *value)
{
	struct denial d = { 0 };
	snprintf(d.op, sizeof d.op, "%s", op);
	snprintf(d.layer, sizeof d.layer, "observer");
	snprintf(d.comm, sizeof d.comm, "npm");
	d.target = target;
	d.rule = rule;
	d.suggest.kind = kind;
	if (value != NULL)
		snprintf(d.suggest.value, sizeof d.suggest.value, "%s", value);
	return d;
}

static void test_hint(struct unit *u)
{
	char buf[600];
	struct denial d =
		mk("write", "/home/u/.npm/_cacache", "not under a writable path", SUGGEST_RW, "/home/u/.npm/_cacache");
	char *argv[] = { "npm", "install", NULL };
	hint_format(&d, "/home/u", argv, buf, sizeof buf);
	CHECK_STR(u, buf,
		  "sandmux: denied write ~/.npm/_cacache (not under a writable path); ask: sandmux request --write "
		  "~/.npm/_cacache -- npm install\n");
	/* no suggestion: no ask part; no home: the full path */
	d.suggest.kind = SUGGEST_NONE;
	hint_format(&d, NULL, argv, buf, sizeof buf);
	CHECK_STR(u, buf, "sandmux: denied write /home/u/.npm/_cacache (not under a writable path)\n");
	/* a network denial, a word that needs quotes */
	struct denial n =
		mk("connect", "evil.example:443", "networkPolicy: not in allow list", SUGGEST_NET, "evil.example");
	char *curl[] = { "curl", "-d", "a b", NULL };
	hint_format(&n, "/home/u", curl, buf, sizeof buf);
	CHECK_STR(u, buf,
		  "sandmux: denied connect evil.example:443 (networkPolicy: not in allow list); ask: sandmux request "
		  "--net evil.example -- curl -d 'a b'\n");
}

static void test_escape(struct unit *u)
{
	char buf[600];
	/* control bytes in a path or a word never reach the terminal raw */
	struct denial d = mk("create", "/w/\033[2J\nx", "r\r", SUGGEST_RW, "/w/\033[2J\nx");
	char *argv[] = { "sh", "-c", "echo \033]0;t\007", NULL };
	size_t n = hint_format(&d, NULL, argv, buf, sizeof buf);
	CHECK_INT(u, (long)strlen(buf), (long)n);
	CHECK(u, strchr(buf, '\033') == NULL && strchr(buf, '\r') == NULL && strchr(buf, '\007') == NULL);
	CHECK(u, strchr(buf, '\n') == buf + n - 1); /* one line */
	CHECK(u, strstr(buf, "/w/\\x1b[2J\\x0ax") != NULL);
	/* C1 controls (as UTF-8 and as raw bytes), broken UTF-8 and bidi
	 * overrides are escaped too; shown text such as "é" is kept */
	struct denial c1 = mk("create",
			      "/w/x\xc2\x9d"
			      "52;c;QQ==\xc2\x9c\x9d\xe2\x80\xae\xc3\xa9",
			      "r", SUGGEST_RW, "/w/x");
	hint_format(&c1, NULL, NULL, buf, sizeof buf);
	CHECK(u, strstr(buf, "/w/x\\xc2\\x9d"
			     "52;c;QQ==\\xc2\\x9c\\x9d\\xe2\\x80\\xae\xc3\xa9") != NULL);
	for (const unsigned char *p = (const unsigned char *)buf; *p; p++)
		CHECK(u, !(p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0) && *p != 0x9d && *p != 0x9c);
	/* cut to fit, still one line ending in a newline */
	n = hint_format(&d, NULL, argv, buf, 20);
	CHECK_INT(u, (long)n, 19);
	CHECK(u, buf[18] == '\n');
	/* a long command line is cut */
	char *many[200];
	for (int i = 0; i < 199; i++)
		many[i] = "argument";
	many[199] = NULL;
	struct denial w = mk("write", "/x", "r", SUGGEST_RW, "/x");
	char big[4096];
	hint_format(&w, NULL, many, big, sizeof big);
	CHECK(u, strlen(big) < 420 && strstr(big, " ...\n") != NULL);
}

static void test_why(struct unit *u)
{
	char buf[600];
	struct denial d = mk("create", "/home/u/x", "not under a writable path", SUGGEST_RW, "/home/u/x");
	d.ts_ms = 0;
	d.count = 3;
	hint_why_line(&d, "/home/u", buf, sizeof buf);
	CHECK_STR(u, buf,
		  "1970-01-01T00:00:00.000Z denied create ~/x (not under a writable path) [observer, npm] x3; ask: "
		  "sandmux request --write ~/x -- CMD");
}

int main(void)
{
	struct unit u = { 0 };
	test_hint(&u);
	test_escape(&u);
	test_why(&u);
	return unit_done(&u, "test_hint");
}
