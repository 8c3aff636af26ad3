/* keys: the bytes a client's terminal sends, cut into keys and mouse
 * events; and key names ("C-b", "M-x", "Up", "F5") for the config and the
 * help screen. Pure: unit-tested in tests/unit/test_keys.c. */
#ifndef KEYS_H
#define KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pty/vt.h" /* VT_KEY_* and VT_MOD_* name the keys */

enum key_kind {
	KEY_PLAIN,   /* code: a code point or VT_KEY_*; mods: VT_MOD_* */
	KEY_MOUSE,   /* the outer terminal's SGR (1006) mouse report */
	KEY_UNKNOWN, /* an escape sequence we do not interpret: pass it on as is */
};

/* Mouse buttons: 0 left, 1 middle, 2 right, 64 wheel up, 65 wheel down. */
struct key_mouse {
	int button;
	bool pressed; /* false: release */
	bool motion;  /* a drag (motion with a button down) */
	int x, y;     /* 0-based cell */
};

struct key {
	enum key_kind kind;
	uint32_t code;
	int mods;
	struct key_mouse mouse;
};

/* Parses one key from buf. Returns the bytes it used (the key's raw form
 * is buf[0..n)), or 0 when buf holds only the start of a sequence and
 * more bytes are needed. A lone ESC is the Escape key. */
size_t keys_next(const char *buf, size_t len, struct key *);

/* "C-b", "M-x", "C-M-Up", "Space", "Enter", "F1", "%", "\"". Returns
 * false for a name it does not know. */
bool keys_parse(const char *name, struct key *);
/* The name of a key, as keys_parse() reads it. */
const char *keys_name(const struct key *, char *buf, size_t cap);
bool keys_equal(const struct key *, const struct key *);

#endif
