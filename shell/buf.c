/* buf: see buf.h. */
#include "shell/buf.h"

#include <stdlib.h>
#include <string.h>

bool buf_add(struct buf *b, const void *data, size_t len)
{
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + len)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (p == NULL)
			return false;
		b->p = p;
		b->cap = cap;
	}
	if (len > 0)
		memcpy(b->p + b->len, data, len);
	b->len += len;
	return true;
}

bool buf_addstr(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

void buf_drop(struct buf *b, size_t n)
{
	if (n >= b->len) {
		b->len = 0;
		return;
	}
	memmove(b->p, b->p + n, b->len - n);
	b->len -= n;
}

void buf_free(struct buf *b)
{
	free(b->p);
	*b = (struct buf){ 0 };
}
