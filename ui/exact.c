/* exact: text a person must read exactly as it is, such as a command line
 * about to re-run with a grant, with every byte visible. What a terminal
 * would not show as itself is written as an escape: control characters
 * (\t \n \r, else \xHH), bytes that are not UTF-8 (\xHH), and the code
 * points that are invisible, reorder or overdraw what is around them or
 * look like a plain space (\uXXXX): C1 controls, bidi embeddings,
 * overrides and isolates, zero-width and format characters, combining
 * marks, variation selectors, tags, private use, non-ASCII spaces. A
 * backslash is doubled, so that an escape always means one. */
#include "ui/denials.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/utf8.h"

/* [first, last] ranges, sorted. */
static const uint32_t hidden[][2] = {
	{ 0x0080, 0x00a0 },   { 0x00ad, 0x00ad },    { 0x0300, 0x036f }, { 0x061c, 0x061c },   { 0x115f, 0x1160 },
	{ 0x1680, 0x1680 },   { 0x17b4, 0x17b5 },    { 0x180b, 0x180f }, { 0x1ab0, 0x1aff },   { 0x1dc0, 0x1dff },
	{ 0x2000, 0x200f },   { 0x2028, 0x202f },    { 0x205f, 0x206f }, { 0x20d0, 0x20ff },   { 0x2800, 0x2800 },
	{ 0x3000, 0x3000 },   { 0x3164, 0x3164 },    { 0xd800, 0xf8ff }, { 0xfe00, 0xfe0f },   { 0xfe20, 0xfe2f },
	{ 0xfeff, 0xfeff },   { 0xffa0, 0xffa0 },    { 0xfff0, 0xffff }, { 0x1bca0, 0x1bca3 }, { 0x1d173, 0x1d17a },
	{ 0xe0000, 0xe0fff }, { 0xf0000, 0x10ffff },
};

static bool is_hidden(uint32_t c)
{
	if ((c & 0xfffe) == 0xfffe) /* the noncharacters of every plane */
		return true;
	for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++)
		if (c >= hidden[i][0] && c <= hidden[i][1])
			return true;
	return false;
}

/* Appends the shown form of one byte or code point at p; returns how
 * many bytes of p it took. out has room for 11 more bytes. */
static size_t show_one(const unsigned char *p, size_t n, char *out, size_t *o)
{
	if (*p == '\\') {
		*o += (size_t)sprintf(out + *o, "\\\\");
		return 1;
	}
	if (*p < 0x20 || *p == 0x7f) {
		const char *name = *p == '\t' ? "\\t" : *p == '\n' ? "\\n" : *p == '\r' ? "\\r" : NULL;
		*o += name != NULL ? (size_t)sprintf(out + *o, "%s", name) : (size_t)sprintf(out + *o, "\\x%02x", *p);
		return 1;
	}
	if (*p < 0x80) {
		out[(*o)++] = (char)*p;
		return 1;
	}
	uint32_t c;
	size_t len = utf8_decode(p, n, &c);
	if (len == 0) {
		*o += (size_t)sprintf(out + *o, "\\x%02x", *p);
		return 1;
	}
	if (is_hidden(c))
		*o += (size_t)sprintf(out + *o, c > 0xffff ? "\\U%08x" : "\\u%04x", (unsigned)c);
	else {
		memcpy(out + *o, p, len);
		*o += len;
	}
	return len;
}

char *ui_exact_text(const char *text)
{
	const unsigned char *p = (const unsigned char *)(text != NULL ? text : "");
	size_t n = strlen((const char *)p);
	char *out = malloc(n * 10 + 1); /* "\U0010ffff" from four bytes: the most */
	if (out == NULL)
		return NULL;
	size_t o = 0;
	while (n > 0) {
		size_t used = show_one(p, n, out, &o);
		p += used;
		n -= used;
	}
	out[o] = 0;
	return out;
}
