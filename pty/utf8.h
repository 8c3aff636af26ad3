/* utf8: one code point to UTF-8, for the bytes sandmux itself sends to a
 * program (keys) or feeds to the emulator (repeated glyphs). */
#ifndef UTF8_H
#define UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Writes 1 to 4 bytes into out and returns the count. */
size_t utf8_encode(uint32_t c, char out[4]);

#endif
