/* term-colors: asking the person's terminal for its colours and taking
 * its answers out of the typed input (shell/term-colors.h). */
#include "shell/term-colors.h"

#include <stdlib.h>
#include <string.h>

const char *term_colors_query(struct term_colors *t)
{
	*t = (struct term_colors){ .waiting = true };
	return "\033]10;?\033\\\033]11;?\033\\\033]12;?\033\\\033[c";
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

/* One component, 1 to 4 hex digits, scaled to 8 bits; its length in *used. */
static int component(const char *s, size_t len, size_t *used)
{
	unsigned v = 0;
	size_t n = 0;
	while (n < len && n < 5 && hex_digit(s[n]) >= 0)
		v = v * 16 + (unsigned)hex_digit(s[n++]);
	*used = n;
	if (n == 0 || n > 4)
		return -1;
	unsigned max = (1u << (4 * n)) - 1;
	return (int)((v * 255 + max / 2) / max);
}

bool term_colors_parse_rgb(const char *s, size_t len, uint32_t *rgb)
{
	if (len < 4 || memcmp(s, "rgb:", 4) != 0)
		return false;
	size_t at = 4;
	uint32_t v = 0;
	for (int i = 0; i < 3; i++) {
		size_t used;
		int c = component(s + at, len - at, &used);
		if (c < 0)
			return false;
		at += used;
		if (i < 2 && (at >= len || s[at++] != '/'))
			return false;
		v = v << 8 | (uint32_t)c;
	}
	if (at != len)
		return false;
	*rgb = v;
	return true;
}

/* An OSC 10/11/12 answer at s ("ESC ] 1N ; rgb:... BEL or ST"): 1 and its
 * length in *used when whole, 0 when it may still be one but its end has
 * not come, -1 when it is not one. */
static int osc_answer(struct term_colors *t, const char *s, size_t len, size_t *used)
{
	static const char head[] = "\033]1";
	size_t k = 0;
	for (; k < 3; k++)
		if (k >= len || s[k] != head[k])
			return k >= len ? 0 : -1;
	if (len < 5)
		return len == 4 && s[3] >= '0' && s[3] <= '2' ? 0 : len < 4 ? 0 : -1;
	if (s[3] < '0' || s[3] > '2' || s[4] != ';')
		return -1;
	for (size_t i = 5; i < len && i < TERM_HELD_MAX; i++) {
		size_t end = s[i] == '\a' ? i + 1 : s[i] == '\033' && i + 1 < len && s[i + 1] == '\\' ? i + 2 : 0;
		if (s[i] == '\033' && i + 1 >= len)
			return 0;
		if (s[i] == '\033' && s[i + 1] != '\\')
			return -1; /* cut short by another escape: not an answer */
		if (end == 0)
			continue;
		uint32_t rgb;
		int which = s[3] - '0';
		if (term_colors_parse_rgb(s + 5, i - 5, &rgb)) {
			t->rgb[which] = rgb;
			t->known |= 1u << which;
		}
		*used = end;
		return 1;
	}
	return len < TERM_HELD_MAX ? 0 : -1;
}

/* The DA1 answer ("ESC [ ? digits and ; c"): ends the wait. */
static int da1_answer(struct term_colors *t, const char *s, size_t len, size_t *used)
{
	if (len < 2 || s[1] != '[')
		return len < 2 ? 0 : -1;
	if (len < 3)
		return 0;
	if (s[2] != '?')
		return -1;
	for (size_t i = 3; i < len && i < TERM_HELD_MAX; i++) {
		if (s[i] == 'c') {
			t->waiting = false;
			*used = i + 1;
			return 1;
		}
		if ((s[i] < '0' || s[i] > '9') && s[i] != ';')
			return -1;
	}
	return len < TERM_HELD_MAX ? 0 : -1;
}

size_t term_colors_filter(struct term_colors *t, const char *in, size_t len, char *out)
{
	size_t n = t->nheld + len;
	char *b = malloc(n > 0 ? n : 1);
	if (b == NULL) { /* no room to look: it is all input */
		size_t o = term_colors_stop(t, out);
		memcpy(out + o, in, len);
		return o + len;
	}
	memcpy(b, t->held, t->nheld);
	memcpy(b + t->nheld, in, len);
	t->nheld = 0;
	size_t o = 0, i = 0;
	while (i < n) {
		if (!t->waiting || b[i] != '\033') {
			out[o++] = b[i++];
			continue;
		}
		size_t used = 0;
		int r = osc_answer(t, b + i, n - i, &used);
		if (r < 0)
			r = da1_answer(t, b + i, n - i, &used);
		if (r == 1) {
			i += used;
		} else if (r == 0 && n - i <= TERM_HELD_MAX) {
			memcpy(t->held, b + i, n - i); /* the rest of it comes with the next read */
			t->nheld = n - i;
			break;
		} else {
			out[o++] = b[i++];
		}
	}
	free(b);
	return o;
}

size_t term_colors_stop(struct term_colors *t, char *out)
{
	size_t n = t->nheld;
	memcpy(out, t->held, n);
	t->nheld = 0;
	t->waiting = false;
	return n;
}
