/* libFuzzer target for the client's key input path: the bytes an
 * attached terminal sends, cut into keys the way the server does it
 * (shell/server-client.c client_keys: whole keys as reads arrive, an
 * incomplete sequence waiting, and the late path that takes its first
 * byte alone), each key named and its name parsed back, special keys
 * encoded for a pane through vt_key(). Nothing may crash, read past the
 * buffer, consume more than it was given, or stall on a byte. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pty/vt.h"
#include "shell/keys.h"

#define CARRY 4096

static void key_check(struct vt *vt, const struct key *k)
{
	char name[64], out[64];
	struct key back;
	keys_name(k, name, sizeof name);
	if (k->kind == KEY_PLAIN && keys_parse(name, &back))
		(void)keys_equal(k, &back);
	if (k->kind == KEY_PLAIN && k->code >= VT_KEY_UP && k->code <= VT_KEY_F12)
		vt_key(vt, k->code, k->mods, out, sizeof out);
	if (k->kind == KEY_MOUSE && (k->mouse.x < 0 || k->mouse.y < 0))
		__builtin_trap();
}

/* Every whole key of buf[0..*len); late: the first byte left is a key
 * of its own. What is left moves to the front. */
static void drain(struct vt *vt, char *buf, size_t *len, bool late)
{
	size_t at = 0;
	while (at < *len) {
		struct key k;
		size_t n = keys_next(buf + at, *len - at, &k);
		if (n > *len - at)
			__builtin_trap();
		if (n == 0 && late) {
			n = keys_next(buf + at, 1, &k);
			if (n > 1)
				__builtin_trap();
			if (n == 0)
				n = 1, k = (struct key){ .kind = KEY_UNKNOWN };
			late = false;
		}
		if (n == 0)
			break;
		key_check(vt, &k);
		at += n;
	}
	memmove(buf, buf + at, *len - at);
	*len -= at;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	struct vt *vt = vt_new(24, 80, 0);
	if (vt == NULL)
		return 0;
	/* The first byte chooses how the rest arrives: reads of 1..64 bytes,
	 * and whether a pause (the late timer) follows each read. */
	size_t chunk = 1 + data[0] % 64;
	bool pauses = data[1] & 1;
	char buf[CARRY];
	size_t len = 0;
	for (size_t off = 2; off < size; off += chunk) {
		size_t n = size - off < chunk ? size - off : chunk;
		if (n > sizeof buf - len)
			n = sizeof buf - len;
		memcpy(buf + len, data + off, n);
		len += n;
		drain(vt, buf, &len, false);
		while (pauses && len > 0)
			drain(vt, buf, &len, true);
		if (len == sizeof buf) /* the server bounds what waits too */
			len = 0;
	}
	while (len > 0)
		drain(vt, buf, &len, true);
	vt_free(vt);
	return 0;
}
