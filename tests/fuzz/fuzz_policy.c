/* libFuzzer target for the policy file parser: any bytes given as a
 * sandbox.json must give either a config or one error line, never a
 * crash, leak or hang. The same bytes also go through the glob compiler
 * and the host-pattern parser, whose inputs come from the same files.
 * Build and run: tests/fuzz/run.sh (make fuzz). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/config.h"
#include "policy/glob.h"
#include "policy/json.h"
#include "policy/net.h"

static void fuzz_patterns(const uint8_t *data, size_t size)
{
	char text[512], err[GLOB_ERR_MAX > NET_ERR_MAX ? GLOB_ERR_MAX : NET_ERR_MAX];
	size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
	memcpy(text, data, n);
	text[n] = 0;
	char *path = strchr(text, '\n'); /* "PATTERN\nPATH" */
	if (path)
		*path++ = 0;
	struct glob g;
	if (glob_compile(text, &g, err) == 0) {
		glob_match(&g, path ? path : "/ws/a/b/c.pem");
		glob_free(&g);
	}
	struct host_pattern hp;
	if (host_pattern_parse(text, &hp, err) == 0)
		host_pattern_match(&hp, path ? path : "a.example.com", NULL, 443);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config c = { 0 };
	struct perr e = { 0 };
	if (config_parse(&c, "fuzz.json", (const char *)data, size, LAYER_REPO, "/home/u", &e) < 0 &&
	    (!e.msg[0] || strchr(e.msg, '\n')))
		abort(); /* an error must be exactly one line */
	config_free(&c);
	perr_free(&e);
	fuzz_patterns(data, size);
	return 0;
}
