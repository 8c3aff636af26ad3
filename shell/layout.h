/* layout: the arithmetic of a window's panes, as a tree. A leaf holds one
 * pane (an opaque pointer); an inner node splits its rectangle among its
 * children side by side (LAYOUT_LR) or stacked (LAYOUT_TB). Side by side
 * children are separated by a one-column border; stacked children need no
 * border row because each pane's first row is its title line.
 * Pure: no terminal, no processes, unit-tested in tests/unit/test_layout.c. */
#ifndef LAYOUT_H
#define LAYOUT_H

#include <stdbool.h>

enum layout_type { LAYOUT_LEAF, LAYOUT_LR, LAYOUT_TB };

/* The smallest pane: a title line and one row, two columns. */
#define LAYOUT_MIN_W 2
#define LAYOUT_MIN_H 2

struct layout {
	enum layout_type type;
	struct layout *parent;
	struct layout **kids;
	int nkids;
	int x, y, w, h;
	void *pane; /* leaves only */
};

/* The layouts `next-layout` cycles through. */
enum layout_preset { LAYOUT_EVEN_LR, LAYOUT_EVEN_TB, LAYOUT_TILED, LAYOUT_NPRESETS };
const char *layout_preset_name(enum layout_preset);
/* The preset of that name, or -1. */
int layout_preset_by_name(const char *name);

struct layout *layout_new_leaf(void *pane, int x, int y, int w, int h);
void layout_free(struct layout *);

/* Splits `leaf` in `type` direction; the new leaf (holding `pane`) goes
 * after it. Returns the new leaf, or NULL when there is no room. *root may
 * change. */
struct layout *layout_split(struct layout **root, struct layout *leaf, enum layout_type type, void *pane);
/* Removes a leaf and gives its room to a neighbour; *root becomes NULL
 * when it was the last leaf. */
void layout_remove(struct layout **root, struct layout *leaf);
/* Lays the tree out in a new rectangle, keeping proportions. */
void layout_apply(struct layout *, int x, int y, int w, int h);
/* Moves the border after `leaf` (or after its nearest ancestor in a
 * `type` split; before it when it is the last child) by delta cells:
 * negative is left/up. Returns false when there is none. */
bool layout_resize_leaf(struct layout *leaf, enum layout_type type, int delta);

/* Queries. */
int layout_count(const struct layout *);
/* Leaves in order; returns how many were stored (at most max). */
int layout_leaves(struct layout *, struct layout **out, int max);
struct layout *layout_find_pane(struct layout *, const void *pane);
struct layout *layout_at(struct layout *, int x, int y);
/* The leaf beyond leaf's edge in direction (dx, dy) (one of them 0),
 * nearest to (px, py) along that edge; NULL at the window's edge. */
struct layout *layout_neighbor(struct layout *root, struct layout *leaf, int dx, int dy, int px, int py);
/* A border at (x, y): the node whose child `*index` ends there (for mouse
 * drags). LR borders are the border column; TB borders are the title row
 * of the lower child. */
struct layout *layout_border_at(struct layout *root, int x, int y, int *index);
/* Moves border `index` (between kid index and index+1) of `node` so that
 * the kid ends at absolute position `pos` (x for LR, y for TB). */
void layout_drag(struct layout *node, int index, int pos);

/* Rebuilds a tree holding panes[0..n) in a preset arrangement. */
struct layout *layout_preset(enum layout_preset, void **panes, int n, int x, int y, int w, int h);

#endif
