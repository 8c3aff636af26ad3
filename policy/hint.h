/* hint: the one line a denied process gets on its own stderr
 * ("denialHints"), and the lines of `sandmux why`. Pure: a denial in,
 * text out; every control byte of a path or word is shown escaped
 * (\xNN), so a name cannot move the cursor or forge a line. */
#ifndef HINT_H
#define HINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "policy/denial.h"

/* "sandmux: denied write ~/.npm/_cacache (not under a writable path);
 * ask: sandmux request --write ~/.npm/_cacache -- npm install\n".
 * argv: the denied process's command line (NULL: "CMD"); home shortens
 * paths to ~/ (NULL: not). The ask part only when the denial has a
 * suggestion. Returns the length (the line is cut to fit cap, keeping its
 * newline). */
size_t hint_format(const struct denial *, const char *home, char *const *argv, char *buf, size_t cap);
/* One line of `sandmux why`: "TS op target (rule) [layer] xN; ask:
 * sandmux request --write PATH -- CMD", no newline. */
size_t hint_why_line(const struct denial *, const char *home, char *buf, size_t cap);
/* A word as a shell reads it back (quoted unless plain), control bytes
 * escaped; a space first when space. */
void hint_put_word(FILE *, const char *word, bool space);

#endif
