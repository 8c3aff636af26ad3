/* pane-osc: the OSC strings a pane's program sends that the emulator
 * passes up. OSC 52 (set clipboard) reaches here only when the config
 * says "clipboard": true, and then fills the session's copy buffer (pasted
 * with prefix ]) — never the person's own clipboard, and a query ("?") is
 * never answered. Everything else (7, 133, 633: shell integration) goes
 * to the pane's osc_hook, for whoever watches the shell. */
#include "shell/mux.h"

#include <string.h>

#include "pty/vt.h"

#define CLIP_MAX (1u << 20)

static int b64(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

static void clipboard_set(struct server *s, const char *arg, size_t len)
{
	const char *semi = memchr(arg, ';', len);
	if (semi == NULL)
		return;
	const unsigned char *p = (const unsigned char *)semi + 1, *end = (const unsigned char *)arg + len;
	if (end - p == 1 && *p == '?')
		return; /* a read of the clipboard: never answered */
	buf_clear(&s->paste);
	unsigned bits = 0;
	int nbits = 0;
	for (; p < end && s->paste.len < CLIP_MAX; p++) {
		int v = b64(*p);
		if (v < 0)
			continue; /* '=' padding, line breaks */
		bits = bits << 6 | (unsigned)v;
		nbits += 6;
		if (nbits >= 8) {
			nbits -= 8;
			char c = (char)(bits >> nbits & 0xff);
			buf_add(&s->paste, &c, 1);
		}
	}
}

static void pane_osc(int command, const char *arg, size_t len, void *data)
{
	struct pane *p = data;
	if (command == 52) {
		if (p->srv->cfg.clipboard_write)
			clipboard_set(p->srv, arg, len);
		return;
	}
	if (command == 9 || command == 777 || command == 99) {
		alerts_notify(p, command, arg, len);
		return;
	}
	if (p->osc_hook != NULL)
		p->osc_hook(command, arg, len, p->osc_hook_data);
}

void pane_osc_colors(struct pane *p)
{
	const struct server *s = p->srv;
	if ((s->term_known & 3) == 3)
		vt_set_default_colors(p->vt, s->term_rgb[0], s->term_rgb[1]);
	if (s->term_known & 4)
		vt_set_cursor_color(p->vt, s->term_rgb[2]);
}

void pane_osc_init(struct pane *p)
{
	vt_set_osc_handler(p->vt, pane_osc, p);
	vt_allow_clipboard(p->vt, p->srv->cfg.clipboard_write);
	pane_osc_colors(p);
}
