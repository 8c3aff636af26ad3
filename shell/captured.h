/* captured: reviewing a capture layer outside any sandbox (shell/
 * captured-apply.c, used by `sandmux captured` and the multiplexer's view
 * of a pane's layer, shell/captured-view.c). */
#ifndef CAPTURED_H
#define CAPTURED_H

#include <stddef.h>
#include <sys/types.h>

struct capture_entry;
struct policy;

/* The policy of the workspace the layer was made for, as it is now
 * (what apply refuses to write); NULL with one line in msg. */
struct policy *captured_policy(const char *layer, const char *home, char *msg, size_t size);
/* Writes one captured change to the host: 0 with "applied OP PATH" in
 * msg, or -1 with what refused it. */
int captured_apply_entry(const struct capture_entry *, const char *home, const char *layer, const struct policy *,
			 char *msg, size_t size);
/* A name as it may be shown on a terminal: control characters as '?'
 * (ui_safe_text), into buf. Returns buf. */
const char *captured_name(const char *path, char *buf, size_t size);
/* One entry as listed: "OP PATH" ('/' after a directory; "(fifo, not
 * applied)" after what is never applied), the path shown safely. */
void captured_line(const struct capture_entry *, char *buf, size_t size);
/* The layer taken for applying or discarding (capture_layer_lock): an
 * fd to close after, or -1 with why in msg (in use: its sandbox still
 * runs), for the caller to say with the layer's name. */
int captured_lock(const char *layer, char *msg, size_t size);
/* The layer discarded under that lock: 0, or -1 with why in msg. */
int captured_discard_locked(const char *layer, char *msg, size_t size);
/* A diff of a captured file against the host's: into head the lines
 * before it (a mode change; or why there is no diff: a directory, a
 * symlink, a FIFO, a binary file), then diff -u's output to read from
 * the fd returned (-1: none), *pid to end with captured_diff_end. Both
 * files are opened here, a FIFO never; diff reads those opened files. */
int captured_diff_start(const struct capture_entry *, const char *layer, char *head, size_t hsize, pid_t *pid);
/* Closes fd, reaps diff: 0, or -1 when diff failed. */
int captured_diff_end(int fd, pid_t pid);
/* head and diff together into out (cut at size). -1 when there is
 * neither. */
int captured_diff_text(const struct capture_entry *, const char *layer, char *out, size_t size);

#endif
