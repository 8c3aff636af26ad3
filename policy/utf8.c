/* utf8: see utf8.h. */
#include "policy/utf8.h"

size_t utf8_decode(const unsigned char *p, size_t n, uint32_t *cp)
{
	size_t len = p[0] < 0x80             ? 1
		     : (p[0] & 0xe0) == 0xc0 ? 2
		     : (p[0] & 0xf0) == 0xe0 ? 3
		     : (p[0] & 0xf8) == 0xf0 ? 4
					     : 0;
	if (len == 0 || len > n)
		return 0;
	uint32_t c = len == 1 ? p[0] : p[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	static const uint32_t least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (c < least[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}
