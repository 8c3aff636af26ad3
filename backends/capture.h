/* capture: outsideWrites "capture", a per-pane copy-on-write layer of
 * overlayfs over the host's top-level directories (capture.c, inside the
 * sandbox), and what it holds once written (capture-layer.c, on the
 * host): a layer directory holds upper/NAME for each overlaid /NAME.
 *
 * In the upper directory: a character device 0:0 is a whiteout (the
 * file was removed), a directory with the xattr user.overlay.opaque "y"
 * replaced the host's directory of that name, anything else was created
 * or changed inside. */
#ifndef CAPTURE_H
#define CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct sbx;

/* In the sandbox (before any other mount, see capture.c). */
int capture_mount(struct sbx *);
/* After every mount was made read-only: the overlays writable again. */
int capture_rw(struct sbx *);
/* Keeps an O_PATH fd of path (the host's view) for a later bind. */
int capture_keep_source(struct sbx *, const char *path);
/* "/proc/self/fd/N" for a kept path, or path itself. */
const char *capture_source(const struct sbx *, const char *path, char *buf, size_t size);
void capture_close_sources(struct sbx *);

/* One captured change, by host path. op: "create" (new file, directory
 * or symlink), "write" (an existing file changed: content, mode or
 * owner), "remove" (a whiteout), "replace" (an opaque directory: the
 * host's was removed and made again). */
struct capture_entry {
	char *path;  /* on the host */
	char *upper; /* the same in the layer */
	const char *op;
	bool dir;            /* a directory (create/replace) */
	bool link;           /* a symlink */
	mode_t mode;         /* its type and mode bits in the layer (a removal: the host's) */
	const char *special; /* "fifo", "socket", "device": never read, never applied */
};

struct capture_list {
	struct capture_entry *v;
	size_t n, cap;
};

/* Walks layer/upper: appends what it holds, sorted by path. Directories
 * that only carry a changed file (copied up unchanged) are not listed,
 * nor files copied up whose content and mode still equal the host's.
 * 0, or -1 with errno (ENOENT: no such layer). */
int capture_list_read(const char *layer, struct capture_list *);
void capture_list_free(struct capture_list *);
/* Removes the layer directory and everything in it (the work dirs the
 * kernel leaves mode 000 too). 0 or -1 with errno. */
int capture_discard(const char *layer);
/* After the sandbox: the list, and the layer removed when it holds
 * nothing. 0 or -1 with errno. */
int capture_layer_settle(const char *layer, struct capture_list *);
/* The layer directory HOME/.sandmux/state/capture/SESSION/NAME (made if
 * missing; a name ending in XXXXXX, or NULL: a new one, made unique as
 * mkdtemp does) into out. 0 or -1. */
int capture_layer_make(const char *home, const char *session, const char *name, char *out, size_t size);
/* layer/workspace: the workspace whose policy the layer was made under,
 * written by the host (0 or -1), read back by `sandmux captured` (0, or
 * -1 when there is none). */
int capture_layer_set_workspace(const char *layer, const char *workspace);
int capture_layer_workspace(const char *layer, char *buf, size_t size);
/* The layer in use: the process that runs its sandbox holds this lock
 * on the layer directory from before the start until the sandbox's end;
 * applying or discarding what it holds takes the same lock, so never
 * while a sandbox can still change it. Never waits: an fd to close to
 * let go, or -1 with errno (EWOULDBLOCK: someone else has it). */
int capture_layer_lock(const char *layer);

#endif
