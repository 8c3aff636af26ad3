/* libFuzzer target for the proxy's input parsers: the HTTP request head
 * (and its rewrite), the SOCKS5 greeting and request, and DNS answers
 * (what comes back from the network). The first byte picks the parser.
 * Build and run (tests/fuzz/run.sh does the same for its targets):
 *   clang -g -O1 -std=c11 -D_GNU_SOURCE -I. -fsanitize=fuzzer,address,undefined \
 *     -o build/fuzz/fuzz_proxy tests/fuzz/fuzz_proxy.c backends/proxy-http.c \
 *     backends/proxy-socks.c backends/net-dnsmsg.c backends/net-addr.c
 *   build/fuzz/fuzz_proxy -max_total_time=60 tests/fuzz/corpus/proxy */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backends/dns.h"
#include "backends/proxy.h"

static void fuzz_http(const uint8_t *data, size_t size)
{
	struct http_req r;
	/* an exact-size copy, so ASan sees any read past the end */
	char *buf = malloc(size ? size : 1);
	memcpy(buf, data, size);
	if (proxy_http_parse(buf, size, &r) == PARSE_OK) {
		if (r.head_len > size || r.port < 1 || r.port > 65535 || r.host[0] == '\0')
			abort();
		if (!r.is_connect) {
			char out[PROXY_BUF];
			int n = proxy_http_rewrite(buf, &r, out, sizeof out);
			if (n > (int)sizeof out)
				abort();
		}
	}
	free(buf);
}

static void fuzz_socks(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size ? size : 1);
	memcpy(buf, data, size);
	int offered;
	int n = proxy_socks_greeting(buf, size, SOCKS_USERPASS, &offered);
	if (n > (int)size)
		abort();
	char user[256], pass[256];
	n = proxy_socks_auth(buf, size, user, pass);
	if (n > (int)size || (n > 0 && strlen(user) + strlen(pass) + 3 != (size_t)n))
		abort();
	struct socks_req r;
	n = proxy_socks_request(buf, size, &r);
	if (n > (int)size || (n > 0 && (r.port < 1 || r.host[0] == '\0')))
		abort();
	free(buf);
}

static void fuzz_dns(const uint8_t *data, size_t size)
{
	if (size < 2)
		return;
	uint8_t *buf = malloc(size);
	memcpy(buf, data, size);
	struct net_addr addr[DNS_MAX_ADDRS];
	size_t n = 0;
	uint16_t id = (uint16_t)(buf[0] << 8 | buf[1]);
	uint32_t ttl = UINT32_MAX;
	dns_msg_answer(buf, size, id, "good.test", DNS_TYPE_A, addr, DNS_MAX_ADDRS, &n, &ttl);
	dns_msg_answer(buf, size, id, "good.test", DNS_TYPE_AAAA, addr, DNS_MAX_ADDRS, &n, NULL);
	if (n > DNS_MAX_ADDRS)
		abort();
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	switch (data[0] % 3) {
	case 0:
		fuzz_http(data + 1, size - 1);
		break;
	case 1:
		fuzz_socks(data + 1, size - 1);
		break;
	default:
		fuzz_dns(data + 1, size - 1);
		break;
	}
	return 0;
}
