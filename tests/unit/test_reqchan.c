/* The request channel's wire format (backends/reqchan.c): what a
 * sandboxed program sends is parsed strictly; anything else is refused
 * with one line naming the byte. */
#include <string.h>

#include "backends/reqchan.h"
#include "unit.h"

#define M "sandmux-request/1\0"

static int parse(const char *buf, size_t len, struct reqchan_msg *m, char *err)
{
	return reqchan_parse(buf, len, m, err, 200);
}

static void test_good(struct unit *u)
{
	static const char req[] = M "request\0write\0/h/.npm\0net\0registry.npmjs.org:443\0reason\0cache\0cwd\0/ws\0"
				    "arg\0npm\0arg\0install\0";
	struct reqchan_msg m;
	char err[200];
	CHECK_INT(u, parse(req, sizeof req - 1, &m, err), 0);
	CHECK_INT(u, m.kind, REQCHAN_REQUEST);
	CHECK_INT(u, m.ngrants, 2);
	CHECK_STR(u, m.grant[0].value, "/h/.npm");
	CHECK_INT(u, m.grant[1].kind, REQCHAN_NET);
	CHECK_STR(u, m.reason, "cache");
	CHECK_STR(u, m.cwd, "/ws");
	CHECK_INT(u, m.argc, 2);
	CHECK_STR(u, m.argv[1], "install");
	CHECK(u, m.argv[2] == NULL);
	static const char why[] = M "why\0";
	CHECK_INT(u, parse(why, sizeof why - 1, &m, err), 0);
	CHECK_INT(u, m.kind, REQCHAN_WHY);
}

static void test_bad(struct unit *u)
{
	struct reqchan_msg m;
	char err[200];
	static const struct {
		const char *buf;
		size_t len;
		const char *want;
	} cases[] = {
#define C(s, w) { s, sizeof s - 1, w }
		C("garbage", "no final NUL"),
		C("{\"verb\":\"answer\"}\n", "no final NUL"),
		C("other/1\0request\0", "want sandmux-request/1"),
		C(M "approve\0", "kind: want request or why"),
		C(M "request\0cwd\0/ws\0", "no command to run"),
		C(M "request\0arg\0ls\0", "no cwd"),
		C(M "request\0cwd\0/ws\0arg\0", "a field without a value"),
		C(M "request\0write\0relative\0cwd\0/ws\0arg\0x\0", "must be absolute"),
		C(M "request\0net\0*.example.com\0cwd\0/ws\0arg\0x\0", "no pattern"),
		C(M "request\0net\0a.com:99999\0cwd\0/ws\0arg\0x\0", "no pattern"),
		C(M "request\0net\0a.com:\0cwd\0/ws\0arg\0x\0", "no pattern"),
		C(M "request\0approve\0yes\0cwd\0/ws\0arg\0x\0", "unknown field"),
		C(M "why\0arg\0x\0", "why takes no fields"),
		C(M "request\0reason\0a\0reason\0b\0cwd\0/ws\0arg\0x\0", "reason given twice"),
		C(M "request\0cwd\0ws\0arg\0x\0", "cwd: given twice or not absolute"),
		C("", "not a request"),
#undef C
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		err[0] = '\0';
		int r = parse(cases[i].buf, cases[i].len, &m, err);
		CHECK_INT(u, r, -1);
		if (!CHECK(u, strstr(err, cases[i].want) != NULL))
			fprintf(stderr, "  case %zu: got \"%s\", want \"%s\"\n", i, err, cases[i].want);
		CHECK(u, strncmp(err, "request channel: byte ", 22) == 0);
	}
	/* a field longer than 4096 bytes, more than 8 grants */
	static char big[REQCHAN_MAX_MSG];
	size_t o = 0;
	memcpy(big, M "request\0reason\0", sizeof M "request\0reason\0" - 1);
	o = sizeof M "request\0reason\0" - 1;
	memset(big + o, 'a', 5000);
	o += 5000;
	big[o++] = '\0';
	CHECK_INT(u, parse(big, o, &m, err), -1);
	CHECK(u, strstr(err, "longer than 4096") != NULL);
	struct reqchan_msg many = { .kind = REQCHAN_REQUEST, .cwd = "/", .argc = 1, .argv = { "x" } };
	for (int i = 0; i < REQCHAN_MAX_GRANTS; i++) {
		many.grant[i].kind = REQCHAN_READ;
		many.grant[i].value = "/a";
	}
	many.ngrants = REQCHAN_MAX_GRANTS;
	CHECK(u, (o = reqchan_build(&many, big, sizeof big)) > 0);
	memcpy(big + o, "read\0/b\0", 8);
	CHECK_INT(u, parse(big, o + 8, &m, err), -1);
	CHECK(u, strstr(err, "more than 8 grants") != NULL);
}

static void test_roundtrip(struct unit *u)
{
	struct reqchan_msg m = { .kind = REQCHAN_REQUEST,
				 .cwd = "/ws",
				 .reason = "why not",
				 .argc = 3,
				 .argv = { "sh", "-c", "echo 'a b'" } };
	m.grant[0].kind = REQCHAN_WRITE;
	m.grant[0].value = "/x/y/";
	m.grant[1].kind = REQCHAN_NET;
	m.grant[1].value = "[::1]:8080";
	m.ngrants = 2;
	char buf[1024], err[200];
	size_t n = reqchan_build(&m, buf, sizeof buf);
	struct reqchan_msg back;
	CHECK(u, n > 0);
	CHECK_INT(u, parse(buf, n, &back, err), 0);
	CHECK_STR(u, back.argv[2], "echo 'a b'");
	CHECK_STR(u, back.grant[0].value, "/x/y/");
	CHECK_STR(u, back.grant[1].value, "[::1]:8080");
	CHECK_INT(u, (int)reqchan_build(&m, buf, 20), 0); /* does not fit */
	m.grant[0].value = "rel";
	CHECK_INT(u, (int)reqchan_build(&m, buf, sizeof buf), 0); /* would not parse */

	const char *type, *text;
	n = reqchan_reply_build("exit", "7", buf, sizeof buf);
	CHECK_INT(u, reqchan_reply_parse(buf, n, &type, &text), 0);
	CHECK_STR(u, type, "exit");
	CHECK_STR(u, text, "7");
	CHECK_INT(u, reqchan_reply_parse(buf, n - 1, &type, &text), -1);
	CHECK_INT(u, reqchan_reply_parse("x\0y\0z\0", 6, &type, &text), -1);
}

int main(void)
{
	struct unit u = { 0 };
	test_good(&u);
	test_bad(&u);
	test_roundtrip(&u);
	return unit_done(&u, "test_reqchan");
}
