/* term-colors: the person's terminal's own colours (foreground,
 * background, cursor), asked once by a client as it attaches, so that
 * panes answer their programs' OSC 10/11/12 queries with what the person
 * really sees (a light or dark theme) instead of a guess. The answers come
 * back among what is typed: term_colors_filter() takes them out. A report
 * to a pane is still only about the pane: the server answers from the
 * values it was given, a pane's query never reaches the terminal. */
#ifndef TERM_COLORS_H
#define TERM_COLORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TERM_FG, TERM_BG, TERM_CURSOR, TERM_NCOLORS };

#define TERM_HELD_MAX 96 /* the longest answer held while its end is still coming */

struct term_colors {
	uint32_t rgb[TERM_NCOLORS]; /* 0xRRGGBB */
	unsigned known;             /* bit i: rgb[i] was answered */
	bool waiting;               /* the terminal's DA1 answer, which ends the answers, has not come */
	char held[TERM_HELD_MAX];   /* the start of an answer cut off by the end of a read */
	size_t nheld;
};

/* The queries to write to the terminal: OSC 10, 11 and 12 "?", then DA1,
 * which every terminal answers, so one that keeps quiet about its colours
 * is known as soon as that answer arrives. Starts waiting. */
const char *term_colors_query(struct term_colors *);
/* Takes the answers out of the len bytes read (and what was held from the
 * last read) and writes the rest, what was typed, to out, which has room
 * for len + TERM_HELD_MAX bytes; returns how many. Once the wait ended
 * (the DA1 answer) everything is typed input. */
size_t term_colors_filter(struct term_colors *, const char *in, size_t len, char *out);
/* Gives up waiting (the terminal answered nothing in time): what was held
 * goes to out (room for TERM_HELD_MAX); returns how many bytes. */
size_t term_colors_stop(struct term_colors *, char *out);
/* Parses an "rgb:R/G/B" colour (1 to 4 hex digits each, as X11 and xterm
 * write them) into 0xRRGGBB; false when it is not one. */
bool term_colors_parse_rgb(const char *s, size_t len, uint32_t *rgb);

#endif
