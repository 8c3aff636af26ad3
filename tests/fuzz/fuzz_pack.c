/* libFuzzer target for the packed policy the observer process is given
 * (policy/pack.h): any bytes must give a policy or one error line; a
 * policy that unpacked must pack to bytes that unpack and pack again to
 * the same bytes, and decide paths and hosts without crashing. Build and run: tests/fuzz/run.sh
 * fuzz_pack. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/pack.h"
#include "policy/suggest.h"

static void decide(const struct policy *p)
{
	static const char *const paths[] = { "/", "/ws/a.env", "/ws/.git/config", "/etc/passwd", "/tmp/x" };
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
		for (int op = OP_READ; op <= OP_EXEC; op++) {
			struct suggestion s = { 0 };
			policy_decide_path(p, paths[i], (enum fs_op)op);
			suggest_path_kind(p, paths[i], (enum fs_op)op, 'f', &s);
		}
	policy_decide_carry(p, "/ws/d");
	policy_decide_host(p, "a.example.com", NULL, 443);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	struct policy *p = policy_unpack(data, size, err, sizeof err);
	if (p == NULL) {
		if (strncmp(err, "policy pack: byte ", 18) != 0)
			abort(); /* every failure names its byte */
		return 0;
	}
	decide(p);
	struct buf b = { 0 }, c = { 0 };
	if (!policy_pack(p, &b))
		abort();
	struct policy *q = policy_unpack(buf_data(&b), b.len, err, sizeof err);
	if (q == NULL || !policy_pack(q, &c) || b.len != c.len || memcmp(buf_data(&b), buf_data(&c), b.len) != 0)
		abort(); /* a packed policy is a fixed point */
	policy_unpack_free(q);
	policy_unpack_free(p);
	buf_free(&b);
	buf_free(&c);
	return 0;
}
