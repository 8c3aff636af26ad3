/* buf: the one byte buffer: bytes are added at the end and dropped from
 * the front (client and pane queues, the proxy's relay buffers, texts
 * being built). A zeroed buf is empty and grows as it needs; buf_bound()
 * makes one that never holds more than max bytes, allocated once. Pure
 * data: moving a buf's bytes to and from a socket is backends/bufsock.h. */
#ifndef BUF_H
#define BUF_H

#include <stdbool.h>
#include <stddef.h>

struct buf {
	char *mem;
	size_t off, len; /* the bytes: mem[off, off + len) */
	size_t cap, max; /* allocated; the bound, 0 for none */
	bool failed;     /* an add did not fit (out of memory, or past max) */
};

/* Makes b an empty buffer bounded to max bytes, allocated now (what it
 * held is dropped); false when out of memory. */
bool buf_bound(struct buf *, size_t max);
/* Adds all of data or nothing: false (and failed set) when out of memory
 * or when a bounded buffer would pass its bound. */
bool buf_add(struct buf *, const void *data, size_t len);
bool buf_addstr(struct buf *, const char *s);
/* n contiguous bytes right after the data, or NULL as buf_add fails; the
 * bytes written there count once buf_commit() says how many. */
char *buf_reserve(struct buf *, size_t n);
void buf_commit(struct buf *, size_t n);
/* How many more bytes a bounded buffer takes (0 before buf_bound()). */
size_t buf_room(const struct buf *);
/* The first byte (NULL while nothing was ever added). */
char *buf_data(const struct buf *);
/* Drops the first n bytes. */
void buf_drop(struct buf *, size_t n);
/* Empties the buffer, keeping its memory and bound; clears failed. */
void buf_clear(struct buf *);
/* The bytes as a malloc'ed C string, leaving the buffer empty and
 * unallocated; NULL when an add failed or out of memory. */
char *buf_string(struct buf *);
void buf_free(struct buf *);

#endif
