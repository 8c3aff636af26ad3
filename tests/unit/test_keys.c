/* Key parsing: bytes from a terminal into keys, and key names. */
#include "shell/keys.h"
#include "tests/unit/unit.h"

static struct key one(const char *s, size_t *used)
{
	struct key k = { 0 };
	*used = keys_next(s, strlen(s), &k);
	return k;
}

static void test_bytes(struct unit *u)
{
	size_t n;
	struct key k = one("a", &n);
	CHECK_INT(u, n, 1);
	CHECK_INT(u, k.code, 'a');
	k = one("\x02", &n);
	CHECK_INT(u, k.code, 'b');
	CHECK_INT(u, k.mods, VT_MOD_CTRL);
	k = one("\r", &n);
	CHECK_INT(u, k.code, VT_KEY_ENTER);
	k = one("\x7f", &n);
	CHECK_INT(u, k.code, VT_KEY_BACKSPACE);
	k = one("\xc3\xa9x", &n); /* é */
	CHECK_INT(u, n, 2);
	CHECK_INT(u, k.code, 0xe9);
	k = one("\xe2\x82", &n); /* incomplete UTF-8: wait */
	CHECK_INT(u, n, 0);
	k = one("\xff", &n); /* invalid: the byte itself */
	CHECK_INT(u, n, 1);
	k = one("\x1b", &n);
	CHECK_INT(u, k.code, VT_KEY_ESCAPE);
	k = one("\x1bx", &n);
	CHECK_INT(u, n, 2);
	CHECK_INT(u, k.code, 'x');
	CHECK_INT(u, k.mods, VT_MOD_ALT);
}

static void test_sequences(struct unit *u)
{
	size_t n;
	struct key k = one("\x1b[A", &n);
	CHECK_INT(u, n, 3);
	CHECK_INT(u, k.code, VT_KEY_UP);
	k = one("\x1bOD", &n);
	CHECK_INT(u, k.code, VT_KEY_LEFT);
	k = one("\x1b[1;5C", &n);
	CHECK_INT(u, n, 6);
	CHECK_INT(u, k.code, VT_KEY_RIGHT);
	CHECK_INT(u, k.mods, VT_MOD_CTRL);
	k = one("\x1b[5~", &n);
	CHECK_INT(u, k.code, VT_KEY_PAGEUP);
	k = one("\x1b[24~", &n);
	CHECK_INT(u, k.code, VT_KEY_F12);
	k = one("\x1bOP", &n);
	CHECK_INT(u, k.code, VT_KEY_F1);
	k = one("\x1b[1;", &n); /* incomplete: wait */
	CHECK_INT(u, n, 0);
	k = one("\x1b[", &n);
	CHECK_INT(u, n, 0);
	k = one("\x1b[200~", &n); /* paste start: not a key, passed on */
	CHECK_INT(u, n, 6);
	CHECK_INT(u, k.kind, KEY_UNKNOWN);
	k = one("\x1b[Z", &n);
	CHECK_INT(u, k.code, VT_KEY_TAB);
	CHECK_INT(u, k.mods, VT_MOD_SHIFT);
}

static void test_mouse(struct unit *u)
{
	size_t n;
	struct key k = one("\x1b[<0;10;5M", &n);
	CHECK_INT(u, n, 10);
	CHECK_INT(u, k.kind, KEY_MOUSE);
	CHECK_INT(u, k.mouse.button, 0);
	CHECK(u, k.mouse.pressed);
	CHECK_INT(u, k.mouse.x, 9);
	CHECK_INT(u, k.mouse.y, 4);
	k = one("\x1b[<32;11;5M", &n);
	CHECK(u, k.mouse.motion);
	k = one("\x1b[<0;11;5m", &n);
	CHECK(u, !k.mouse.pressed);
	k = one("\x1b[<65;1;1M", &n);
	CHECK_INT(u, k.mouse.button, 65);
	CHECK_INT(u, k.mouse.x, 0);
	/* cells count from 1: a 0, a huge or a missing coordinate is no report */
	k = one("\x1b[<0;100;0M", &n);
	CHECK_INT(u, k.kind, KEY_UNKNOWN);
	CHECK_INT(u, n, 11);
	k = one("\x1b[<0;0;5M", &n);
	CHECK_INT(u, k.kind, KEY_UNKNOWN);
	k = one("\x1b[<0;99999999999;5M", &n);
	CHECK_INT(u, k.kind, KEY_UNKNOWN);
	k = one("\x1b[<0;5M", &n);
	CHECK_INT(u, k.kind, KEY_UNKNOWN);
}

static void test_names(struct unit *u)
{
	struct key k, b = { 0 };
	char buf[32];
	CHECK(u, keys_parse("C-b", &k));
	CHECK_INT(u, k.code, 'b');
	CHECK_INT(u, k.mods, VT_MOD_CTRL);
	CHECK(u, keys_parse("C-B", &b));
	CHECK(u, keys_equal(&k, &b));
	size_t n = keys_next("\x02", 1, &b);
	CHECK_INT(u, n, 1);
	CHECK(u, keys_equal(&k, &b));
	CHECK(u, keys_parse("C-a", &k));
	keys_next("\x01", 1, &b);
	CHECK(u, keys_equal(&k, &b));
	CHECK(u, keys_parse("M-Up", &k));
	CHECK_STR(u, keys_name(&k, buf, sizeof buf), "M-Up");
	CHECK(u, keys_parse("Space", &k));
	CHECK_INT(u, k.code, ' ');
	CHECK(u, keys_parse("F10", &k));
	CHECK_INT(u, k.code, VT_KEY_F1 + 9);
	CHECK(u, keys_parse("%", &k));
	CHECK_STR(u, keys_name(&k, buf, sizeof buf), "%");
	CHECK(u, keys_parse("C-Space", &k));
	keys_next("\0", 1, &b);
	CHECK(u, keys_equal(&k, &b));
	CHECK(u, !keys_parse("C-", &k));
	CHECK(u, !keys_parse("", &k));
	CHECK(u, !keys_parse("Nope", &k));
	CHECK(u, !keys_parse("F13", &k));
}

/* Random bytes: every key parse consumes within bounds, and only a tail
 * can be "incomplete" (the client's input path must always move on). */
static void test_random(struct unit *u)
{
	unsigned seed = 12345;
	char buf[256];
	int bad = 0;
	for (int round = 0; round < 20000; round++) {
		size_t len = 1 + (size_t)(round % 64);
		for (size_t i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			unsigned r = seed >> 16;
			buf[i] = (char)(r % 4 == 0 ? 0x1b : r % 5 == 0 ? '[' : r % 7 == 0 ? ';' : (int)(r & 0xff));
		}
		size_t at = 0;
		while (at < len) {
			struct key k;
			size_t n = keys_next(buf + at, len - at, &k);
			if (n > len - at)
				bad++;
			if (n == 0)
				break;
			at += n;
		}
		/* what is left waits for more bytes: it must start with ESC or a UTF-8 lead */
		if (at < len && buf[at] != 0x1b && ((unsigned char)buf[at] & 0xc0) != 0xc0)
			bad++;
	}
	CHECK_INT(u, bad, 0);
}

int main(void)
{
	struct unit u = { 0, 0 };
	test_bytes(&u);
	test_sequences(&u);
	test_mouse(&u);
	test_names(&u);
	test_random(&u);
	return unit_done(&u, "test_keys");
}
