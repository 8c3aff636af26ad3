/* buf: see buf.h. Dropping moves an offset; the bytes move to the front
 * only when an add needs the room behind them. */
#include "policy/buf.h"

#include <stdlib.h>
#include <string.h>

bool buf_bound(struct buf *b, size_t max)
{
	char *mem = realloc(b->mem, max > 0 ? max : 1);
	if (mem == NULL)
		return false;
	*b = (struct buf){ .mem = mem, .cap = max, .max = max };
	return true;
}

/* Room for n bytes after the data: compacts, then grows an unbounded
 * buffer (doubling from 4 KiB). */
static bool buf_make_room(struct buf *b, size_t n)
{
	if (b->max > 0 ? n > b->max - b->len : n > (size_t)-1 / 2 - b->len)
		return false;
	if (b->off + b->len + n <= b->cap)
		return true;
	if (b->off > 0 && b->len > 0)
		memmove(b->mem, b->mem + b->off, b->len);
	b->off = 0;
	if (b->len + n <= b->cap)
		return true;
	if (b->max > 0)
		return false; /* buf_bound() never ran */
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + n)
		cap *= 2;
	char *mem = realloc(b->mem, cap);
	if (mem == NULL)
		return false;
	b->mem = mem;
	b->cap = cap;
	return true;
}

char *buf_reserve(struct buf *b, size_t n)
{
	if (!buf_make_room(b, n)) {
		b->failed = true;
		return NULL;
	}
	return b->mem + b->off + b->len;
}

void buf_commit(struct buf *b, size_t n)
{
	b->len += n;
}

bool buf_add(struct buf *b, const void *data, size_t len)
{
	if (len == 0)
		return true;
	char *end = buf_reserve(b, len);
	if (end == NULL)
		return false;
	memcpy(end, data, len);
	b->len += len;
	return true;
}

bool buf_addstr(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

size_t buf_room(const struct buf *b)
{
	return b->max > b->len && b->mem != NULL ? b->max - b->len : 0;
}

char *buf_data(const struct buf *b)
{
	return b->mem != NULL ? b->mem + b->off : NULL;
}

void buf_drop(struct buf *b, size_t n)
{
	if (n >= b->len) {
		b->off = b->len = 0;
		return;
	}
	b->off += n;
	b->len -= n;
}

void buf_clear(struct buf *b)
{
	b->off = b->len = 0;
	b->failed = false;
}

char *buf_string(struct buf *b)
{
	char *s = NULL;
	if (buf_add(b, "", 1) && !b->failed) {
		if (b->off > 0)
			memmove(b->mem, b->mem + b->off, b->len);
		s = b->mem;
		b->mem = NULL;
	}
	buf_free(b);
	return s;
}

void buf_free(struct buf *b)
{
	free(b->mem);
	*b = (struct buf){ 0 };
}
