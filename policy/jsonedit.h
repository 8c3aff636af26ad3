/* jsonedit: adds one string to a list in a sandbox.json *text*, the way a
 * person would by hand: every other byte of the file (keys, their order,
 * unknown keys, spacing, indentation) stays as it was. Pure: string in,
 * string out; the file I/O lives with the caller (shell/approve.c). */
#ifndef JSONEDIT_H
#define JSONEDIT_H

#include <stdbool.h>
#include <stddef.h>

/* key: a list's name, dotted for a nested one ("additionalReadwritePaths",
 * "networkPolicy.allow"); missing objects and the list are created, in
 * the style of the surrounding members. An empty or all-blank text becomes
 * a new object. Returns a malloc'ed text (unchanged, with *added false,
 * when the value is already in the list), or NULL with err set
 * ("sandbox.json:LINE:COL: what is wrong"). */
char *jsonedit_add(const char *text, const char *key, const char *value, bool *added, char *err, size_t errlen);

#endif
