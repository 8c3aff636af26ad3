/* pack: a policy packed and unpacked decides every path and host as the
 * original, keeps the origins that decisions quote, and any truncated or
 * altered bytes give a policy or one error line, never a crash. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/agents.h"
#include "policy/pack.h"
#include "policy/policy.h"
#include "tests/unit/unit.h"

static char root[64], home[128], ws[160];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f == NULL)
		abort();
	fputs(text, f);
	fclose(f);
}

static struct policy *load(const char *profile)
{
	struct policy_opts o = { .home = home,
				 .workspace = ws,
				 .admin_file = "/nonexistent/admin.json",
				 .profile_flag = profile,
				 .admin_ownership_unchecked = true };
	struct policy *p = NULL;
	struct perr e = { 0 };
	if (policy_load(&o, &p, &e) < 0) {
		fprintf(stderr, "load: %s\n", e.msg);
		abort();
	}
	perr_free(&e);
	return p;
}

static void fixture(void)
{
	char path[256];
	snprintf(root, sizeof root, "/tmp/test_pack.XXXXXX");
	if (mkdtemp(root) == NULL)
		abort();
	snprintf(home, sizeof home, "%s/home", root);
	snprintf(ws, sizeof ws, "%s/ws", root);
	mkdir(home, 0700);
	mkdir(ws, 0700);
	snprintf(path, sizeof path, "%s/.sandmux", home);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/.sandmux/sandbox.json", home);
	put(path, "{\"profiles\": {\"p\": {\"base\": \"workspace\", \"deny\": [\"secrets/**\", \"*.pem\"],\n"
		  "  \"read_write\": [\"/srv/out\"]}},\n"
		  " \"networkPolicy\": {\"allow\": [\"a.example.com\"], \"deny\": [\"b.example.com\"]}}");
	snprintf(path, sizeof path, "%s/.cursorignore", ws);
	put(path, "*.env\n!keep.env\nbuild/\n");
}

/* Below the workspace, then absolute. */
static const char *const paths[] = { "",
				     "/secrets/a",
				     "/a/b.pem",
				     "/x.env",
				     "/keep.env",
				     "/build/o",
				     "/.git/config",
				     "/.vscode/settings.json",
				     "/etc/passwd",
				     "/srv/out/x",
				     "/home/x/.sandmux/tmp/s1/f",
				     "/" };
#define WS_PATHS 8

/* Every decision of b is a's: the same answer, rule and origin. */
static void same_decisions(struct unit *u, const struct policy *a, const struct policy *b)
{
	char path[512];
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
		for (int op = OP_READ; op <= OP_EXEC; op++) {
			snprintf(path, sizeof path, "%s%s", i < WS_PATHS ? ws : "", paths[i]);
			struct decision x = policy_decide_path(a, path, (enum fs_op)op),
					y = policy_decide_path(b, path, (enum fs_op)op);
			CHECK(u, x.allow == y.allow);
			CHECK_STR(u, y.rule, x.rule);
			CHECK_STR(u, y.origin.file, x.origin.file);
			CHECK_INT(u, y.origin.line, x.origin.line);
			CHECK_INT(u, y.origin.layer, x.origin.layer);
			CHECK(u, policy_path_captured(a, path) == policy_path_captured(b, path));
			x = policy_decide_carry(a, path), y = policy_decide_carry(b, path);
			CHECK(u, x.allow == y.allow);
		}
	const char *hosts[] = { "a.example.com", "b.example.com", "c.example.com", "10.0.0.1" };
	for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++) {
		struct decision x = policy_decide_host(a, hosts[i], NULL, 443),
				y = policy_decide_host(b, hosts[i], NULL, 443);
		CHECK(u, x.allow == y.allow);
		CHECK_STR(u, y.rule, x.rule);
	}
}

static struct policy *round_trip(struct unit *u, const struct policy *p, struct buf *b)
{
	char err[256] = "";
	CHECK(u, policy_pack(p, b));
	struct policy *q = policy_unpack(buf_data(b), b->len, err, sizeof err);
	CHECK(u, q != NULL);
	if (q == NULL)
		fprintf(stderr, "unpack: %s\n", err);
	return q;
}

static void test_round_trip(struct unit *u, const char *profile)
{
	struct buf b = { 0 };
	struct policy *p = load(profile);
	p->tmpdir = strdup("/home/x/.sandmux/tmp/s1");
	struct policy *q = round_trip(u, p, &b);
	if (q != NULL) {
		CHECK_STR(u, q->workspace, p->workspace);
		CHECK_STR(u, q->home, p->home);
		CHECK_STR(u, q->tmpdir, p->tmpdir);
		CHECK_INT(u, q->deny.n, p->deny.n);
		CHECK_INT(u, q->ignore.n, p->ignore.n);
		CHECK_INT(u, q->net.mode, p->net.mode);
		CHECK(u, q->denial_hints == p->denial_hints && q->read_all == p->read_all);
		CHECK(u, (q->agents != NULL) == (p->agents != NULL));
		same_decisions(u, p, q);
		/* packed again, the same bytes */
		struct buf c = { 0 };
		CHECK(u, policy_pack(q, &c));
		CHECK(u, c.len == b.len && memcmp(buf_data(&c), buf_data(&b), b.len) == 0);
		buf_free(&c);
	}
	policy_unpack_free(q);
	policy_free(p);
	buf_free(&b);
}

/* Every prefix fails with a line naming a byte; every byte flipped gives
 * a policy or such a line. */
static void test_damage(struct unit *u)
{
	struct buf b = { 0 };
	struct policy *p = load("p");
	CHECK(u, policy_pack(p, &b));
	char *d = malloc(b.len);
	char err[256];
	int failed = 0, named = 0;
	for (size_t n = 0; n < b.len; n++) {
		err[0] = '\0';
		struct policy *q = policy_unpack(buf_data(&b), n, err, sizeof err);
		failed += q == NULL;
		named += strncmp(err, "policy pack: byte ", 18) == 0;
		policy_unpack_free(q);
	}
	CHECK_INT(u, failed, (long)b.len);
	CHECK_INT(u, named, (long)b.len);
	for (size_t i = 0; i < b.len; i++) {
		memcpy(d, buf_data(&b), b.len);
		d[i] ^= (char)0xa5;
		err[0] = '\0';
		struct policy *q = policy_unpack(d, b.len, err, sizeof err);
		if (q == NULL && strncmp(err, "policy pack: byte ", 18) != 0)
			CHECK(u, !"an error line names the byte");
		policy_unpack_free(q);
	}
	err[0] = '\0';
	CHECK(u, policy_unpack("SMPK\0\0\0\0", 8, err, sizeof err) == NULL);
	CHECK_STR(u, err, "policy pack: byte 8: truncated");
	CHECK(u, policy_unpack("XXXX", 4, err, sizeof err) == NULL);
	CHECK_STR(u, err, "policy pack: byte 0: not a packed policy");
	free(d);
	policy_free(p);
	buf_free(&b);
}

int main(void)
{
	struct unit u = { 0 };
	fixture();
	test_round_trip(&u, "p");
	test_round_trip(&u, "workspace");
	test_round_trip(&u, "strict");
	test_damage(&u);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", root);
	return unit_done(&u, "test_pack");
}
