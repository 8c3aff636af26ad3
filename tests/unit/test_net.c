/* net: host patterns (v4, v6, wildcard, port, mapped v6), the hardcoded
 * blocks, and policy_decide_host() rule texts. */
#include <arpa/inet.h>
#include <stdlib.h>

#include "policy/net.h"
#include "tests/unit/unit.h"

static const struct {
	const char *pat, *host, *addr;
	int port, match;
} cases[] = {
	{ "example.com", "example.com", NULL, 443, 1 },
	{ "example.com", "EXAMPLE.com.", NULL, 443, 1 },
	{ "example.com", "a.example.com", NULL, 443, 0 },
	{ "*.example.com", "a.example.com", NULL, 443, 1 },
	{ "*.example.com", "a.b.example.com", NULL, 443, 1 },
	{ "*.example.com", "example.com", NULL, 443, 1 },
	{ "*.example.com", "badexample.com", NULL, 443, 0 },
	{ "example.com:443", "example.com", NULL, 443, 1 },
	{ "example.com:443", "example.com", NULL, 80, 0 },
	{ "https://example.com/some/path", "example.com", NULL, 443, 1 },
	{ "93.184.0.0/16", "93.184.216.34", NULL, 443, 1 },
	{ "93.184.0.0/16", "93.185.216.34", NULL, 443, 0 },
	{ "93.184.0.0/16", "example.com", "93.184.216.34", 443, 1 },
	{ "93.184.216.34", "93.184.216.34", NULL, 0, 1 },
	{ "2001:db8::/32", "2001:db8::1", NULL, 443, 1 },
	{ "2001:db8::/32", "2001:db9::1", NULL, 443, 0 },
	{ "[2001:db8::1]:443", "2001:db8::1", NULL, 443, 1 },
	{ "[2001:db8::1]:443", "2001:db8::1", NULL, 22, 0 },
	{ "93.184.0.0/16", "::ffff:93.184.1.1", NULL, 443, 1 }, /* mapped v6 folds to v4 */
	{ "::ffff:93.184.0.0/112", "93.184.1.1", NULL, 443, 1 },
	{ "example.com", "93.184.216.34", NULL, 443, 0 }, /* names never match literals */
};

static const struct {
	const char *pat, *err;
} bad[] = {
	{ "10.0.0.0/33", "\"10.0.0.0/33\" is not a valid CIDR" },
	{ "2001:db8::/129", "\"2001:db8::/129\" is not a valid CIDR" },
	{ "300.1.1.1", "\"300.1.1.1\" is not a valid CIDR" },
	{ "example.com:0", "\"example.com:0\" is not a valid host:port (port 1-65535)" },
	{ "example.com:99999", "\"example.com:99999\" is not a valid host:port (port 1-65535)" },
	{ "exa mple.com", "\"exa mple.com\" is not a valid domain, *.domain or CIDR" },
	{ "*", "\"*\" is not a valid domain, *.domain or CIDR" },
	{ "a.*.com", "\"a.*.com\" is not a valid domain, *.domain or CIDR" },
	{ "[::1", "\"[::1\" is not a valid [IPv6]:port" },
	{ "-a.com", "\"-a.com\" is not a valid domain, *.domain or CIDR" },
};

static void test_patterns(struct unit *u)
{
	char err[NET_ERR_MAX];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct host_pattern hp;
		struct net_addr a;
		if (!CHECK_INT(u, host_pattern_parse(cases[i].pat, &hp, err), 0)) {
			fprintf(stderr, "  %s: %s\n", cases[i].pat, err);
			continue;
		}
		if (cases[i].addr)
			host_literal_parse(cases[i].addr, &a);
		if (!CHECK_INT(u, host_pattern_match(&hp, cases[i].host, cases[i].addr ? &a : NULL, cases[i].port),
			       cases[i].match))
			fprintf(stderr, "  pattern %s host %s\n", cases[i].pat, cases[i].host);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct host_pattern hp;
		CHECK_INT(u, host_pattern_parse(bad[i].pat, &hp, err), -1);
		CHECK_STR(u, err, bad[i].err);
	}
}

static void test_blocks(struct unit *u)
{
	static const char *const blocked[] = { "10.1.2.3",
					       "172.16.0.1",
					       "172.31.255.255",
					       "192.168.1.1",
					       "127.0.0.1",
					       "169.254.169.254",
					       "0.0.0.0",
					       "::1",
					       "fe80::1",
					       "fd00::1",
					       "fc00::1",
					       "::ffff:10.0.0.1",
					       "::ffff:127.0.0.1",
					       "::ffff:169.254.169.254",
					       "::" };
	static const char *const open[] = { "172.32.0.1", "8.8.8.8", "2001:db8::1", "11.0.0.1", "::ffff:8.8.8.8" };
	struct net_addr a;
	for (size_t i = 0; i < sizeof blocked / sizeof blocked[0]; i++) {
		CHECK(u, host_literal_parse(blocked[i], &a));
		if (!CHECK(u, net_blocked(&a) != NULL))
			fprintf(stderr, "  %s not blocked\n", blocked[i]);
	}
	for (size_t i = 0; i < sizeof open / sizeof open[0]; i++) {
		CHECK(u, host_literal_parse(open[i], &a));
		if (!CHECK(u, net_blocked(&a) == NULL))
			fprintf(stderr, "  %s blocked\n", open[i]);
	}
	host_literal_parse("10.9.9.9", &a);
	CHECK_STR(u, net_blocked(&a), "hardcoded: private address 10.0.0.0/8");
	/* each block named for what it is, the narrower one first */
	host_literal_parse("::1", &a);
	CHECK_STR(u, net_blocked(&a), "hardcoded: loopback ::1");
	host_literal_parse("::", &a);
	CHECK_STR(u, net_blocked(&a), "hardcoded: unspecified address ::");
	host_literal_parse("::7f00:1", &a);
	CHECK_STR(u, net_blocked(&a), "hardcoded: IPv4-compatible address ::/96");
	host_literal_parse("239.1.2.3", &a);
	CHECK_STR(u, net_blocked(&a), "hardcoded: multicast 224.0.0.0/4");
	host_literal_parse("100.64.1.1", &a);
	CHECK_STR(u, net_blocked(&a), "hardcoded: shared address space 100.64.0.0/10");
}

static void test_decide(struct unit *u)
{
	struct policy p = { .sandboxed = true };
	struct origin o = { .file = "/u/.sandmux/sandbox.json", .layer = LAYER_USER, .line = 3, .col = 5 };
	struct net_addr a;
	p.net.mode = NET_PROXY;
	rules_add_labeled(&p.net.allow, "*.github.com", "networkPolicy.allow: *.github.com", o);
	rules_add_labeled(&p.net.deny, "*.evil.com", "networkPolicy.deny: *.evil.com", o);
	rules_add_labeled(&p.net.allow, "*.evil.com", "networkPolicy.allow: *.evil.com", o);
	struct decision d = policy_decide_host(&p, "api.github.com", NULL, 443);
	CHECK(u, d.allow);
	CHECK_STR(u, d.rule, "networkPolicy.allow: *.github.com");
	CHECK_INT(u, d.origin.line, 3);
	d = policy_decide_host(&p, "x.evil.com", NULL, 443);
	CHECK(u, !d.allow);
	CHECK_STR(u, d.rule, "networkPolicy.deny: *.evil.com"); /* deny beats allow */
	d = policy_decide_host(&p, "example.org", NULL, 443);
	CHECK(u, !d.allow);
	CHECK_STR(u, d.rule, "networkPolicy: not in allow list");
	host_literal_parse("10.0.0.5", &a);
	d = policy_decide_host(&p, "api.github.com", &a, 443); /* allowed name resolving to a private address */
	CHECK(u, !d.allow);
	CHECK_STR(u, d.rule, "hardcoded: private address 10.0.0.0/8");
	CHECK_INT(u, d.origin.layer, LAYER_HARDCODED);
	d = policy_decide_host(&p, "169.254.169.254", NULL, 80);
	CHECK_STR(u, d.rule, "hardcoded: link-local and cloud metadata 169.254.0.0/16");
	d = policy_decide_host(&p, "localhost", NULL, 80);
	CHECK(u, !d.allow);
	p.net.default_allow = true;
	CHECK(u, policy_decide_host(&p, "example.org", NULL, 443).allow);
	CHECK(u, !policy_decide_host(&p, "127.0.0.1", NULL, 443).allow);
	p.net.mode = NET_NONE;
	CHECK(u, !policy_decide_host(&p, "api.github.com", NULL, 443).allow);
	p.net.mode = NET_HOST;
	CHECK(u, policy_decide_host(&p, "10.0.0.1", NULL, 443).allow);
	rules_free(&p.net.allow);
	rules_free(&p.net.deny);
}

int main(void)
{
	struct unit u = { 0 };
	test_patterns(&u);
	test_blocks(&u);
	test_decide(&u);
	return unit_done(&u, "test_net");
}
