/* buf: a growable byte buffer with a read offset (client queues). */
#ifndef BUF_H
#define BUF_H

#include <stdbool.h>
#include <stddef.h>

struct buf {
	char *p;
	size_t len, cap;
};

bool buf_add(struct buf *, const void *data, size_t len);
bool buf_addstr(struct buf *, const char *s);
/* Drops the first n bytes. */
void buf_drop(struct buf *, size_t n);
void buf_free(struct buf *);

#endif
