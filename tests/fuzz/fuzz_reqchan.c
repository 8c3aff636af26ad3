/* libFuzzer target: the request channel's parsers (backends/reqchan.c),
 * which read whatever a sandboxed program writes on its descriptor. A
 * parsed request is built again and must parse to the same fields. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backends/reqchan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reqchan_msg m, back;
	char err[200];
	const char *type, *text;
	reqchan_reply_parse((const char *)data, size, &type, &text);
	if (reqchan_parse((const char *)data, size, &m, err, sizeof err) < 0)
		return 0;
	char *buf = malloc(REQCHAN_MAX_MSG);
	if (buf == NULL)
		return 0;
	size_t n = reqchan_build(&m, buf, REQCHAN_MAX_MSG);
	if (n == 0 || reqchan_parse(buf, n, &back, err, sizeof err) < 0 || back.argc != m.argc ||
	    back.ngrants != m.ngrants)
		abort(); /* what parsed must build and parse back */
	for (int i = 0; i < m.argc; i++)
		if (strcmp(back.argv[i], m.argv[i]) != 0)
			abort();
	free(buf);
	return 0;
}
