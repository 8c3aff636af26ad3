/* utf8: reading UTF-8, for every place that shows or passes on text it did
 * not make (prompts, hints, notifications, title events) and must tell a
 * whole, valid sequence from bytes a terminal could misread. */
#ifndef POLICY_UTF8_H
#define POLICY_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length of the UTF-8 sequence at p (at most n bytes; 1 for ASCII)
 * with its code point in *cp, or 0 when it is none: cut short, a stray
 * continuation byte, overlong, a surrogate, past U+10FFFF. */
size_t utf8_decode(const unsigned char *p, size_t n, uint32_t *cp);

#endif
