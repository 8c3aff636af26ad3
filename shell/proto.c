/* proto: see proto.h. */
#include "shell/proto.h"

#include <string.h>

void proto_put(struct buf *out, enum msg_type type, const void *payload, size_t len)
{
	struct msg_hdr h = { .type = type, .len = (uint32_t)len };
	buf_add(out, &h, sizeof h);
	buf_add(out, payload, len);
}

static int known(uint32_t type)
{
	return (type >= MSG_HELLO && type <= MSG_TTY_INPUT) || (type >= MSG_OUTPUT && type <= MSG_EVENT);
}

int proto_get(const struct buf *in, struct msg_hdr *h, const char **payload)
{
	if (in->len < sizeof *h)
		return 0;
	memcpy(h, buf_data(in), sizeof *h);
	if (!known(h->type) || h->len > MSG_MAX)
		return -1;
	if (in->len < sizeof *h + h->len)
		return 0;
	*payload = buf_data(in) + sizeof *h;
	return 1;
}

int proto_strings(const char *p, size_t len, const char **out, int max)
{
	int n = 0;
	size_t at = 0;
	while (at < len) {
		const char *end = memchr(p + at, 0, len - at);
		if (end == NULL || n == max)
			return -1;
		out[n++] = p + at;
		at = (size_t)(end - p) + 1;
	}
	return n;
}
