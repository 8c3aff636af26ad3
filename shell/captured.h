/* captured: reviewing a capture layer outside any sandbox (shell/
 * captured-apply.c, used by `sandmux captured` and the multiplexer's view
 * of a pane's layer, shell/captured-view.c). */
#ifndef CAPTURED_H
#define CAPTURED_H

#include <stddef.h>

struct capture_entry;
struct policy;

/* The policy of the workspace the layer was made for, as it is now
 * (what apply refuses to write); NULL with one line in msg. */
struct policy *captured_policy(const char *layer, const char *home, char *msg, size_t size);
/* Writes one captured change to the host: 0 with "applied OP PATH" in
 * msg, or -1 with what refused it. */
int captured_apply_entry(const struct capture_entry *, const char *home, const char *layer, const struct policy *,
			 char *msg, size_t size);
/* A unified diff of a captured file against the host's into out (cut at
 * size), or one line saying why there is none (a directory, a symlink, a
 * binary file). -1 when diff could not run. */
int captured_diff_text(const struct capture_entry *, char *out, size_t size);

#endif
