/* keys: see keys.h. xterm's encodings: CSI with a ";MOD" parameter for
 * modified keys, SS3 for application-mode arrows and F1-F4, CSI N ~ for
 * the editing and function keys, and CSI < B;X;Y M/m for SGR mice. */
#include "shell/keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CSI_MAX 32 /* a longer "sequence" is garbage: pass it on */

static const struct {
	const char *name;
	uint32_t code;
} named[] = {
	{ "Enter", VT_KEY_ENTER },
	{ "Tab", VT_KEY_TAB },
	{ "BSpace", VT_KEY_BACKSPACE },
	{ "Escape", VT_KEY_ESCAPE },
	{ "Up", VT_KEY_UP },
	{ "Down", VT_KEY_DOWN },
	{ "Left", VT_KEY_LEFT },
	{ "Right", VT_KEY_RIGHT },
	{ "IC", VT_KEY_INS },
	{ "DC", VT_KEY_DEL },
	{ "Home", VT_KEY_HOME },
	{ "End", VT_KEY_END },
	{ "PageUp", VT_KEY_PAGEUP },
	{ "PageDown", VT_KEY_PAGEDOWN },
	{ "Space", ' ' },
};

static size_t plain(struct key *k, uint32_t code, int mods, size_t n)
{
	*k = (struct key){ .kind = KEY_PLAIN, .code = code, .mods = mods };
	return n;
}

/* A control byte (or DEL): the key it stands for. */
static size_t control(struct key *k, unsigned char c)
{
	switch (c) {
	case '\r':
		return plain(k, VT_KEY_ENTER, 0, 1);
	case '\t':
		return plain(k, VT_KEY_TAB, 0, 1);
	case 0x7f:
		return plain(k, VT_KEY_BACKSPACE, 0, 1);
	case 0:
		return plain(k, ' ', VT_MOD_CTRL, 1);
	default:
		if (c < 0x1b)
			return plain(k, 'a' + c - 1, VT_MOD_CTRL, 1);
		return plain(k, "\\]^_"[c - 0x1c], VT_MOD_CTRL, 1);
	}
}

/* UTF-8; an invalid byte stands for itself (as U+FFFD would lose it). */
static size_t utf8(const unsigned char *s, size_t len, struct key *k)
{
	int n = s[0] >= 0xf8 ? 1 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 1;
	if (n == 1)
		return plain(k, s[0], 0, 1);
	if (len < (size_t)n)
		return 0;
	uint32_t cp = s[0] & (0x3f >> (n - 1));
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return plain(k, s[0], 0, 1);
		cp = cp << 6 | (s[i] & 0x3f);
	}
	return plain(k, cp, 0, (size_t)n);
}

static int mods_of(int param)
{
	return param >= 2 ? (param - 1) & 7 : 0;
}

static uint32_t tilde_key(int n)
{
	static const uint32_t keys[] = {
		[1] = VT_KEY_HOME,   [2] = VT_KEY_INS,      [3] = VT_KEY_DEL,  [4] = VT_KEY_END,
		[5] = VT_KEY_PAGEUP, [6] = VT_KEY_PAGEDOWN, [7] = VT_KEY_HOME, [8] = VT_KEY_END
	};
	static const int fkeys[] = { 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 23, 24 };
	if (n > 0 && n < 9)
		return keys[n];
	for (int i = 0; i < 12; i++)
		if (fkeys[i] == n)
			return VT_KEY_F1 + (uint32_t)i;
	return 0;
}

static uint32_t final_key(char f)
{
	switch (f) {
	case 'A':
		return VT_KEY_UP;
	case 'B':
		return VT_KEY_DOWN;
	case 'C':
		return VT_KEY_RIGHT;
	case 'D':
		return VT_KEY_LEFT;
	case 'H':
		return VT_KEY_HOME;
	case 'F':
		return VT_KEY_END;
	case 'P':
	case 'Q':
	case 'R':
	case 'S':
		return VT_KEY_F1 + (uint32_t)(f - 'P');
	case 'Z':
		return VT_KEY_TAB; /* back tab: shift added by the caller */
	default:
		return 0;
	}
}

/* A decimal field of at most five digits, then sep; -1 when it is not. */
static int mouse_field(const char **p, char sep)
{
	int v = 0, digits = 0;
	for (; **p >= '0' && **p <= '9' && digits < 6; (*p)++, digits++)
		v = v * 10 + (**p - '0');
	if (digits == 0 || digits > 5 || (sep != 0 && **p != sep))
		return -1;
	if (sep != 0)
		(*p)++;
	return v;
}

/* "<B;X;Y" then M or m: cells count from 1, so 0 (or a number past any
 * terminal's size) is no report but a malformed sequence. */
static size_t mouse_sgr(const char *p, char final, size_t n, struct key *k)
{
	p += *p == '<';
	int b = mouse_field(&p, ';'), x = mouse_field(&p, ';'), y = mouse_field(&p, 0);
	if (b < 0 || x < 1 || y < 1 || x > 10000 || y > 10000)
		return (*k = (struct key){ .kind = KEY_UNKNOWN }), n;
	*k = (struct key){ .kind = KEY_MOUSE,
			   .mods = (b & 4 ? VT_MOD_SHIFT : 0) | (b & 8 ? VT_MOD_ALT : 0) | (b & 16 ? VT_MOD_CTRL : 0) };
	k->mouse = (struct key_mouse){
		.button = (b & 3) | (b & 64), .pressed = final == 'M', .motion = (b & 32) != 0, .x = x - 1, .y = y - 1
	};
	return n;
}

/* CSI (ESC [): parameters, intermediates, a final byte. */
static size_t csi(const char *s, size_t len, struct key *k)
{
	size_t i = 2;
	while (i < len && i < CSI_MAX && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x3f)
		i++;
	if (i >= len)
		return len >= CSI_MAX ? (*k = (struct key){ .kind = KEY_UNKNOWN }), len : 0;
	char f = s[i];
	size_t n = i + 1;
	char params[CSI_MAX + 1];
	memcpy(params, s + 2, i - 2);
	params[i - 2] = 0;
	if (params[0] == '<' && (f == 'M' || f == 'm'))
		return mouse_sgr(params, f, n, k);
	int a = 0, b = 0;
	sscanf(params, "%d;%d", &a, &b);
	uint32_t code = f == '~' ? tilde_key(a) : final_key(f);
	if (code == 0 || (params[0] != 0 && (params[0] < '0' || params[0] > '9')))
		return (*k = (struct key){ .kind = KEY_UNKNOWN }), n;
	return plain(k, code, mods_of(b) | (f == 'Z' ? VT_MOD_SHIFT : 0), n);
}

size_t keys_next(const char *buf, size_t len, struct key *k)
{
	const unsigned char *s = (const unsigned char *)buf;
	if (len == 0)
		return 0;
	if (s[0] != 0x1b)
		return s[0] < 0x20 || s[0] == 0x7f ? control(k, s[0]) : utf8(s, len, k);
	if (len == 1)
		return plain(k, VT_KEY_ESCAPE, 0, 1);
	if (s[1] == '[')
		return len == 2 ? 0 : csi(buf, len, k);
	if (s[1] == 'O') {
		if (len == 2)
			return 0;
		uint32_t code = final_key((char)s[2]);
		return code ? plain(k, code, 0, 3) : ((*k = (struct key){ .kind = KEY_UNKNOWN }), 3);
	}
	size_t n = keys_next(buf + 1, len - 1, k);
	if (n == 0)
		return 0;
	if (k->kind == KEY_PLAIN)
		k->mods |= VT_MOD_ALT;
	return n + 1;
}

static bool parse_base(const char *name, uint32_t *code)
{
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
		if (strcasecmp(name, named[i].name) == 0)
			return (*code = named[i].code), true;
	if ((name[0] == 'F' || name[0] == 'f') && name[1] >= '1' && name[1] <= '9') {
		int n = atoi(name + 1);
		if (n >= 1 && n <= 12)
			return (*code = VT_KEY_F1 + (uint32_t)n - 1), true;
	}
	struct key k;
	size_t len = strlen(name);
	if (len == 0 || utf8((const unsigned char *)name, len, &k) != len || k.code < 0x20)
		return false;
	*code = k.code;
	return true;
}

bool keys_parse(const char *name, struct key *k)
{
	int mods = 0;
	for (;;) {
		if (strncmp(name, "C-", 2) == 0 && name[2] != 0)
			mods |= VT_MOD_CTRL;
		else if (strncmp(name, "M-", 2) == 0 && name[2] != 0)
			mods |= VT_MOD_ALT;
		else if (strncmp(name, "S-", 2) == 0 && name[2] != 0)
			mods |= VT_MOD_SHIFT;
		else
			break;
		name += 2;
	}
	uint32_t code;
	if (!parse_base(name, &code))
		return false;
	if ((mods & VT_MOD_CTRL) && code >= 'A' && code <= 'Z')
		code += 'a' - 'A'; /* a terminal cannot tell C-B from C-b */
	*k = (struct key){ .kind = KEY_PLAIN, .code = code, .mods = mods };
	return true;
}

const char *keys_name(const struct key *k, char *buf, size_t cap)
{
	char base[16];
	const char *b = NULL;
	for (size_t i = 0; i < sizeof named / sizeof named[0] && b == NULL; i++)
		if (named[i].code == k->code)
			b = named[i].name;
	if (b == NULL && k->code >= VT_KEY_F1 && k->code <= VT_KEY_F12) {
		snprintf(base, sizeof base, "F%u", (unsigned)(k->code - VT_KEY_F1 + 1));
		b = base;
	} else if (b == NULL) {
		char *p = base;
		uint32_t c = k->code < 0x110000 ? k->code : '?';
		if (c < 0x80)
			*p++ = (char)c;
		else if (c < 0x800)
			*p++ = (char)(0xc0 | c >> 6), *p++ = (char)(0x80 | (c & 0x3f));
		else if (c < 0x10000)
			*p++ = (char)(0xe0 | c >> 12), *p++ = (char)(0x80 | (c >> 6 & 0x3f)),
			*p++ = (char)(0x80 | (c & 0x3f));
		else
			*p++ = (char)(0xf0 | c >> 18), *p++ = (char)(0x80 | (c >> 12 & 0x3f)),
			*p++ = (char)(0x80 | (c >> 6 & 0x3f)), *p++ = (char)(0x80 | (c & 0x3f));
		*p = 0;
		b = base;
	}
	snprintf(buf, cap, "%s%s%s%s", k->mods & VT_MOD_CTRL ? "C-" : "", k->mods & VT_MOD_ALT ? "M-" : "",
		 k->mods & VT_MOD_SHIFT ? "S-" : "", b);
	return buf;
}

bool keys_equal(const struct key *a, const struct key *b)
{
	return a->kind == KEY_PLAIN && b->kind == KEY_PLAIN && a->code == b->code && a->mods == b->mods;
}
