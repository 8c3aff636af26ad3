/* buf: the one byte buffer (policy/buf.h) and its socket I/O
 * (backends/bufsock.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "backends/bufsock.h"
#include "policy/buf.h"
#include "tests/unit/unit.h"

static void test_grow_and_drop(struct unit *u)
{
	struct buf b = { 0 };
	CHECK(u, buf_data(&b) == NULL);
	CHECK(u, buf_addstr(&b, "hello "));
	CHECK(u, buf_add(&b, "world", 5));
	CHECK_INT(u, b.len, 11);
	CHECK(u, memcmp(buf_data(&b), "hello world", 11) == 0);
	buf_drop(&b, 6);
	CHECK_INT(u, b.len, 5);
	CHECK(u, memcmp(buf_data(&b), "world", 5) == 0);
	/* more than the first allocation: the dropped front is reused, then it grows */
	char big[10000];
	memset(big, 'x', sizeof big);
	CHECK(u, buf_add(&b, big, sizeof big));
	CHECK_INT(u, b.len, 5 + sizeof big);
	CHECK(u, memcmp(buf_data(&b), "worldxxx", 8) == 0);
	CHECK(u, b.cap >= b.len);
	buf_drop(&b, 1000000);
	CHECK_INT(u, b.len, 0);
	CHECK(u, !b.failed);
	buf_free(&b);
	CHECK(u, b.mem == NULL && b.len == 0 && b.cap == 0);
}

/* Dropping from the front and adding at the end never loses or reorders a
 * byte, whether or not the add needs the room the drop freed. */
static void test_queue_order(struct unit *u)
{
	struct buf b = { 0 };
	unsigned char next_in = 0, next_out = 0;
	int bad = 0;
	for (int round = 0; round < 2000; round++) {
		unsigned char chunk[700];
		size_t n = (size_t)(round * 37 % 700) + 1;
		for (size_t i = 0; i < n; i++)
			chunk[i] = next_in++;
		buf_add(&b, chunk, n);
		size_t take = (size_t)(round * 53 % 900);
		if (take > b.len)
			take = b.len;
		for (size_t i = 0; i < take; i++)
			bad += (unsigned char)buf_data(&b)[i] != next_out++;
		buf_drop(&b, take);
	}
	CHECK_INT(u, bad, 0);
	CHECK(u, b.cap <= 8192); /* the dropped front is reused, not grown past */
	buf_free(&b);
}

static void test_bounded(struct unit *u)
{
	struct buf b = { 0 };
	CHECK_INT(u, buf_room(&b), 0);
	CHECK(u, buf_bound(&b, 8));
	CHECK_INT(u, buf_room(&b), 8);
	CHECK(u, buf_add(&b, "12345", 5));
	CHECK_INT(u, buf_room(&b), 3);
	/* all or nothing: past the bound, nothing is added */
	CHECK(u, !buf_add(&b, "6789", 4));
	CHECK(u, b.failed);
	CHECK_INT(u, b.len, 5);
	CHECK(u, buf_add(&b, "678", 3));
	CHECK_INT(u, buf_room(&b), 0);
	CHECK(u, buf_reserve(&b, 1) == NULL);
	/* dropped bytes make room again, in the same allocation */
	char *mem = b.mem;
	buf_drop(&b, 4);
	char *end = buf_reserve(&b, 4);
	CHECK(u, end != NULL);
	if (end != NULL) {
		memcpy(end, "abcd", 4);
		buf_commit(&b, 4);
	}
	CHECK(u, b.mem == mem && b.cap == 8);
	CHECK(u, b.len == 8 && memcmp(buf_data(&b), "5678abcd", 8) == 0);
	buf_clear(&b);
	CHECK(u, b.len == 0 && !b.failed && buf_room(&b) == 8);
	buf_free(&b);
}

static void test_string(struct unit *u)
{
	struct buf b = { 0 };
	buf_addstr(&b, "drop:keep");
	buf_drop(&b, 5);
	char *s = buf_string(&b);
	CHECK_STR(u, s, "keep");
	CHECK(u, b.mem == NULL && b.len == 0);
	free(s);
	struct buf e = { 0 };
	s = buf_string(&e);
	CHECK_STR(u, s, "");
	free(s);
	struct buf f = { 0 };
	buf_bound(&f, 2);
	buf_add(&f, "abc", 3);
	CHECK(u, buf_string(&f) == NULL); /* an add failed: no partial text */
	CHECK(u, f.mem == NULL);
}

static void test_socket(struct unit *u)
{
	int sv[2];
	if (!CHECK(u, socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) == 0))
		return;
	struct buf in = { 0 }, out = { 0 };
	CHECK(u, buf_bound(&in, 16) && buf_bound(&out, 16));
	CHECK_INT(u, bufsock_recv(&in, sv[0], 16), -2); /* nothing yet */
	buf_addstr(&out, "0123456789abcdefXYZ");        /* past the bound: not added */
	CHECK_INT(u, out.len, 0);
	buf_addstr(&out, "0123456789");
	CHECK_INT(u, bufsock_send(&out, sv[1]), 0);
	CHECK_INT(u, out.len, 0);
	/* max: no more than 4 bytes in the buffer */
	CHECK_INT(u, bufsock_recv(&in, sv[0], 4), 1);
	CHECK(u, in.len == 4 && memcmp(buf_data(&in), "0123", 4) == 0);
	CHECK_INT(u, bufsock_recv(&in, sv[0], 4), -2);
	buf_drop(&in, 2);
	CHECK_INT(u, bufsock_recv(&in, sv[0], 1000), 1); /* the bound caps max */
	CHECK(u, in.len == 8 && memcmp(buf_data(&in), "23456789", 8) == 0);
	close(sv[1]);
	CHECK_INT(u, bufsock_recv(&in, sv[0], 16), 0); /* EOF */
	buf_addstr(&out, "gone");
	CHECK_INT(u, bufsock_send(&out, sv[0]), -1); /* the peer is gone, no SIGPIPE */
	close(sv[0]);
	buf_free(&in);
	buf_free(&out);
}

int main(void)
{
	struct unit u = { 0 };
	test_grow_and_drop(&u);
	test_queue_order(&u);
	test_bounded(&u);
	test_string(&u);
	test_socket(&u);
	return unit_done(&u, "test_buf");
}
