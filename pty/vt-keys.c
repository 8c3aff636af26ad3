/* vt-keys: what the program reads for a key press, a paste or a mouse
 * event, xterm-style, honouring the modes the program set (application
 * cursor keys, bracketed paste, mouse reporting and its SGR encoding).
 * Encoded here rather than by libvterm because libvterm sends CSI-u forms
 * (e.g. for Ctrl-I) that shells and editors do not expect. */
#include <stdio.h>
#include <string.h>

#include "pty/utf8.h"
#include "pty/vt.h"

struct keybuf {
	char b[64];
	size_t n;
};

static void put(struct keybuf *k, const char *s, size_t n)
{
	if (n > sizeof k->b - k->n)
		n = sizeof k->b - k->n;
	memcpy(k->b + k->n, s, n);
	k->n += n;
}

static void puts_(struct keybuf *k, const char *s)
{
	put(k, s, strlen(s));
}

static void put_utf8(struct keybuf *k, uint32_t c)
{
	char u[4];
	put(k, u, utf8_encode(c, u));
}

static size_t key_out(const struct keybuf *k, char *out, size_t cap)
{
	if (k->n > cap)
		return 0; /* never send half a key */
	memcpy(out, k->b, k->n);
	return k->n;
}

/* Ctrl with a printable key, as a terminal's keyboard sends it. */
static uint32_t ctrl_char(uint32_t c)
{
	if ((c >= 'a' && c <= 'z') || (c >= '@' && c <= '_'))
		return c & 0x1f;
	switch (c) {
	case ' ':
	case '2':
		return 0;
	case '3':
		return 0x1b;
	case '4':
		return 0x1c;
	case '5':
		return 0x1d;
	case '6':
		return 0x1e;
	case '7':
	case '/':
		return 0x1f;
	case '8':
	case '?':
		return 0x7f;
	default:
		return c;
	}
}

/* xterm's modifier parameter: 1 + shift + 2 alt + 4 ctrl. */
static int mod_param(int mods)
{
	return 1 + (mods & VT_MOD_SHIFT ? 1 : 0) + (mods & VT_MOD_ALT ? 2 : 0) + (mods & VT_MOD_CTRL ? 4 : 0);
}

/* Cursor keys and F1-F4: ESC O x (application mode, no modifier),
 * ESC [ x, or ESC [ 1 ; m x with modifiers. */
static void key_ss3(struct keybuf *k, char final, int mods, bool app)
{
	char s[16];
	if (mods)
		snprintf(s, sizeof s, "\033[1;%d%c", mod_param(mods), final);
	else
		snprintf(s, sizeof s, app ? "\033O%c" : "\033[%c", final);
	puts_(k, s);
}

/* Editing keys and F5-F12: ESC [ n ~, or ESC [ n ; m ~. */
static void key_tilde(struct keybuf *k, int n, int mods)
{
	char s[16];
	if (mods)
		snprintf(s, sizeof s, "\033[%d;%d~", n, mod_param(mods));
	else
		snprintf(s, sizeof s, "\033[%d~", n);
	puts_(k, s);
}

static void key_char(struct keybuf *k, uint32_t key, int mods)
{
	if (mods & VT_MOD_ALT)
		put(k, "\033", 1);
	if (mods & VT_MOD_CTRL)
		key = ctrl_char(key);
	put_utf8(k, key);
}

static void key_special(struct keybuf *k, uint32_t key, int mods, bool app)
{
	static const char cursor[] = "ABDCHF"; /* up down left right home end */
	static const int tilde[] = { 2, 3, 0, 0, 5, 6 };
	static const int fkeys[] = { 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 23, 24 };
	if (key >= VT_KEY_UP && key <= VT_KEY_RIGHT) {
		key_ss3(k, cursor[key - VT_KEY_UP], mods, app);
	} else if (key == VT_KEY_HOME || key == VT_KEY_END) {
		key_ss3(k, cursor[4 + key - VT_KEY_HOME], mods, app);
	} else if (key >= VT_KEY_INS && key <= VT_KEY_PAGEDOWN) {
		key_tilde(k, tilde[key - VT_KEY_INS], mods);
	} else if (key >= VT_KEY_F1 && key <= VT_KEY_F1 + 3) {
		key_ss3(k, "PQRS"[key - VT_KEY_F1], mods, true);
	} else if (key > VT_KEY_F1 + 3 && key <= VT_KEY_F12) {
		key_tilde(k, fkeys[key - VT_KEY_F1], mods);
	}
}

size_t vt_key(struct vt *vt, uint32_t key, int mods, char *out, size_t cap)
{
	struct keybuf k = { .n = 0 };
	const char *alt = mods & VT_MOD_ALT ? "\033" : "";
	switch (key) {
	case VT_KEY_ENTER:
		puts_(&k, alt), puts_(&k, "\r");
		break;
	case VT_KEY_TAB:
		puts_(&k, mods & VT_MOD_SHIFT ? "\033[Z" : "\t");
		break;
	case VT_KEY_BACKSPACE:
		puts_(&k, alt), puts_(&k, mods & VT_MOD_CTRL ? "\010" : "\177");
		break;
	case VT_KEY_ESCAPE:
		puts_(&k, alt), puts_(&k, "\033");
		break;
	default:
		if (key < 0x110000)
			key_char(&k, key, mods);
		else
			key_special(&k, key, mods, vt_modes(vt)->app_cursor);
	}
	return key_out(&k, out, cap);
}

/* A paste is one piece for the program: line ends become CR as typed,
 * and with bracketed paste the text cannot end the bracket early. */
size_t vt_paste(struct vt *vt, const char *text, size_t len, char *out, size_t cap)
{
	static const char open[] = "\033[200~", close[] = "\033[201~";
	bool br = vt_modes(vt)->bracketed_paste;
	size_t n = 0, room = br ? sizeof close - 1 : 0;
	if (cap < room + (br ? sizeof open - 1 : 0))
		return 0;
	if (br) {
		memcpy(out, open, sizeof open - 1);
		n = sizeof open - 1;
	}
	for (size_t i = 0; i < len && n + room < cap; i++) {
		if (br && text[i] == '\033')
			continue; /* an ESC inside could close the bracket */
		out[n++] = text[i] == '\n' ? '\r' : text[i];
	}
	if (br) {
		memcpy(out + n, close, sizeof close - 1);
		n += sizeof close - 1;
	}
	return n;
}

static bool mouse_wanted(int mode, int button, bool motion)
{
	if (mode == 0)
		return false;
	if (!motion)
		return true;
	return mode == 3 || (mode == 2 && button != 0);
}

size_t vt_mouse(struct vt *vt, int row, int col, int button, bool pressed, int mods, char *out, size_t cap)
{
	const struct vt_modes *m = vt_modes(vt);
	bool motion = button & VT_MOUSE_MOTION;
	button &= ~VT_MOUSE_MOTION;
	if (!mouse_wanted(m->mouse, button, motion) || button < 0 || button > 5 || row < 0 || col < 0)
		return 0;
	bool wheel = button >= 4;
	if (wheel && !pressed)
		return 0;
	int cb = wheel ? 64 + button - 4 : button == 0 ? 3 : button - 1;
	cb += (mods & VT_MOD_SHIFT ? 4 : 0) + (mods & VT_MOD_ALT ? 8 : 0) + (mods & VT_MOD_CTRL ? 16 : 0);
	cb += motion ? 32 : 0;
	char s[48];
	int n;
	if (m->mouse_sgr) {
		n = snprintf(s, sizeof s, "\033[<%d;%d;%d%c", cb, col + 1, row + 1, pressed || motion ? 'M' : 'm');
	} else {
		if (!pressed && !motion)
			cb = (cb & ~3) | 3; /* X10 reports a release as button 3 */
		if (col > 222 || row > 222)
			return 0; /* not encodable without SGR */
		n = snprintf(s, sizeof s, "\033[M%c%c%c", 32 + cb, 33 + col, 33 + row);
	}
	if (n < 0 || (size_t)n > cap)
		return 0;
	memcpy(out, s, n);
	return n;
}
