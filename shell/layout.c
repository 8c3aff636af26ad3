/* layout: see layout.h. Sizes are kept in each node's w/h; layout_apply()
 * rescales children proportionally, so a resize of the outer terminal
 * keeps the arrangement, and the last child absorbs rounding. */
#include "shell/layout.h"

#include <stdlib.h>
#include <string.h>

static const char *const preset_names[LAYOUT_NPRESETS] = { "even-horizontal", "even-vertical", "tiled" };

const char *layout_preset_name(enum layout_preset p)
{
	return p < LAYOUT_NPRESETS ? preset_names[p] : "?";
}

int layout_preset_by_name(const char *name)
{
	for (int i = 0; i < LAYOUT_NPRESETS; i++)
		if (strcmp(name, preset_names[i]) == 0)
			return i;
	return -1;
}

static int gap_of(enum layout_type t)
{
	return t == LAYOUT_LR ? 1 : 0;
}

static int *size_ref(struct layout *l, enum layout_type axis)
{
	return axis == LAYOUT_LR ? &l->w : &l->h;
}

struct layout *layout_new_leaf(void *pane, int x, int y, int w, int h)
{
	struct layout *l = calloc(1, sizeof *l);
	if (l == NULL)
		return NULL;
	*l = (struct layout){ .type = LAYOUT_LEAF, .x = x, .y = y, .w = w, .h = h, .pane = pane };
	return l;
}

void layout_free(struct layout *l)
{
	if (l == NULL)
		return;
	for (int i = 0; i < l->nkids; i++)
		layout_free(l->kids[i]);
	free(l->kids);
	free(l);
}

/* The least room a subtree needs along axis. */
static int min_size(const struct layout *l, enum layout_type axis)
{
	if (l->type == LAYOUT_LEAF)
		return axis == LAYOUT_LR ? LAYOUT_MIN_W : LAYOUT_MIN_H;
	int total = 0;
	for (int i = 0; i < l->nkids; i++) {
		int m = min_size(l->kids[i], axis);
		if (l->type == axis)
			total += m + (i > 0 ? gap_of(axis) : 0);
		else if (m > total)
			total = m;
	}
	return total;
}

/* New sizes along the node's axis for `avail` cells, proportional to the
 * old ones, then raised to each child's minimum by taking from the
 * largest. */
static void share_out(struct layout *l, int avail, int *sizes)
{
	long old = 0;
	for (int i = 0; i < l->nkids; i++)
		old += *size_ref(l->kids[i], l->type) > 0 ? *size_ref(l->kids[i], l->type) : 1;
	int used = 0;
	for (int i = 0; i < l->nkids; i++) {
		int s = *size_ref(l->kids[i], l->type);
		sizes[i] = i == l->nkids - 1 ? avail - used : (int)(((long)(s > 0 ? s : 1) * avail + old / 2) / old);
		used += sizes[i];
	}
	for (int i = 0; i < l->nkids; i++) {
		int need = min_size(l->kids[i], l->type);
		while (sizes[i] < need) {
			int big = -1;
			for (int j = 0; j < l->nkids; j++)
				if (j != i && sizes[j] > min_size(l->kids[j], l->type) &&
				    (big < 0 || sizes[j] > sizes[big]))
					big = j;
			if (big < 0)
				break; /* no room anywhere: the window is too small */
			sizes[big]--;
			sizes[i]++;
		}
	}
}

void layout_apply(struct layout *l, int x, int y, int w, int h)
{
	l->x = x;
	l->y = y;
	l->w = w;
	l->h = h;
	if (l->type == LAYOUT_LEAF)
		return;
	int gap = gap_of(l->type);
	int along = l->type == LAYOUT_LR ? w : h;
	int sizes[l->nkids];
	share_out(l, along - gap * (l->nkids - 1), sizes);
	int pos = l->type == LAYOUT_LR ? x : y;
	for (int i = 0; i < l->nkids; i++) {
		if (l->type == LAYOUT_LR)
			layout_apply(l->kids[i], pos, y, sizes[i], h);
		else
			layout_apply(l->kids[i], x, pos, w, sizes[i]);
		pos += sizes[i] + gap;
	}
}

static int index_of(const struct layout *parent, const struct layout *kid)
{
	for (int i = 0; i < parent->nkids; i++)
		if (parent->kids[i] == kid)
			return i;
	return -1;
}

static bool insert_kid(struct layout *parent, int at, struct layout *kid)
{
	struct layout **k = realloc(parent->kids, sizeof *k * (size_t)(parent->nkids + 1));
	if (k == NULL)
		return false;
	memmove(k + at + 1, k + at, sizeof *k * (size_t)(parent->nkids - at));
	k[at] = kid;
	parent->kids = k;
	parent->nkids++;
	kid->parent = parent;
	return true;
}

static void remove_kid(struct layout *parent, int at)
{
	memmove(parent->kids + at, parent->kids + at + 1, sizeof *parent->kids * (size_t)(parent->nkids - at - 1));
	parent->nkids--;
}

/* Puts `with` where `old` was in the tree (or at the root). */
static void replace_node(struct layout **root, struct layout *old, struct layout *with)
{
	with->parent = old->parent;
	if (old->parent == NULL)
		*root = with;
	else
		old->parent->kids[index_of(old->parent, old)] = with;
}

struct layout *layout_split(struct layout **root, struct layout *leaf, enum layout_type type, void *pane)
{
	int gap = gap_of(type);
	int along = *size_ref(leaf, type);
	int need = type == LAYOUT_LR ? LAYOUT_MIN_W : LAYOUT_MIN_H;
	if (along < 2 * need + gap)
		return NULL;
	struct layout *nl = layout_new_leaf(pane, leaf->x, leaf->y, leaf->w, leaf->h);
	if (nl == NULL)
		return NULL;
	struct layout *parent = leaf->parent;
	if (parent == NULL || parent->type != type) {
		struct layout *node = calloc(1, sizeof *node);
		if (node == NULL) {
			free(nl);
			return NULL;
		}
		*node = (struct layout){ .type = type, .x = leaf->x, .y = leaf->y, .w = leaf->w, .h = leaf->h };
		replace_node(root, leaf, node);
		if (!insert_kid(node, 0, leaf)) {
			replace_node(root, node, leaf);
			free(node);
			free(nl);
			return NULL;
		}
		parent = node;
	}
	if (!insert_kid(parent, index_of(parent, leaf) + 1, nl)) {
		free(nl);
		return NULL;
	}
	int second = (along - gap) / 2;
	*size_ref(nl, type) = second;
	*size_ref(leaf, type) = along - gap - second;
	layout_apply(parent, parent->x, parent->y, parent->w, parent->h);
	return nl;
}

/* A node left with one child is replaced by that child; a child of the
 * same type as its new parent is merged into it. */
static void collapse(struct layout **root, struct layout *node)
{
	if (node->nkids != 1)
		return;
	struct layout *only = node->kids[0];
	replace_node(root, node, only);
	struct layout *gp = only->parent;
	free(node->kids);
	free(node);
	if (gp != NULL && only->type == gp->type) {
		int at = index_of(gp, only);
		remove_kid(gp, at);
		for (int i = 0; i < only->nkids; i++)
			insert_kid(gp, at + i, only->kids[i]);
		free(only->kids);
		free(only);
	}
}

void layout_remove(struct layout **root, struct layout *leaf)
{
	struct layout *parent = leaf->parent;
	if (parent == NULL) {
		*root = NULL;
		layout_free(leaf);
		return;
	}
	int at = index_of(parent, leaf);
	struct layout *heir = parent->kids[at > 0 ? at - 1 : at + 1];
	*size_ref(heir, parent->type) += *size_ref(leaf, parent->type) + gap_of(parent->type);
	remove_kid(parent, at);
	layout_free(leaf);
	struct layout *top = parent->parent != NULL ? parent->parent : NULL;
	int x = parent->x, y = parent->y, w = parent->w, h = parent->h;
	collapse(root, parent);
	if (top != NULL)
		layout_apply(top, top->x, top->y, top->w, top->h);
	else
		layout_apply(*root, x, y, w, h);
}

/* Moves the border between kids i and i+1 of node by delta, within the
 * minimum sizes of both sides. */
static void move_border(struct layout *node, int i, int delta)
{
	struct layout *a = node->kids[i], *b = node->kids[i + 1];
	int *sa = size_ref(a, node->type), *sb = size_ref(b, node->type);
	int mina = min_size(a, node->type), minb = min_size(b, node->type);
	if (*sa + delta < mina)
		delta = mina - *sa;
	if (*sb - delta < minb)
		delta = *sb - minb;
	*sa += delta;
	*sb -= delta;
	layout_apply(node, node->x, node->y, node->w, node->h);
}

bool layout_resize_leaf(struct layout *leaf, enum layout_type type, int delta)
{
	for (struct layout *l = leaf; l->parent != NULL; l = l->parent) {
		if (l->parent->type != type)
			continue;
		int at = index_of(l->parent, l);
		/* the border after it, or for the last child the one before */
		move_border(l->parent, at < l->parent->nkids - 1 ? at : at - 1, delta);
		return true;
	}
	return false;
}

int layout_count(const struct layout *l)
{
	if (l == NULL)
		return 0;
	if (l->type == LAYOUT_LEAF)
		return 1;
	int n = 0;
	for (int i = 0; i < l->nkids; i++)
		n += layout_count(l->kids[i]);
	return n;
}

static int collect(struct layout *l, struct layout **out, int max, int n)
{
	if (l == NULL)
		return n;
	if (l->type == LAYOUT_LEAF) {
		if (n < max)
			out[n] = l;
		return n + 1;
	}
	for (int i = 0; i < l->nkids; i++)
		n = collect(l->kids[i], out, max, n);
	return n;
}

int layout_leaves(struct layout *l, struct layout **out, int max)
{
	int n = collect(l, out, max, 0);
	return n < max ? n : max;
}

struct layout *layout_find_pane(struct layout *l, const void *pane)
{
	if (l == NULL)
		return NULL;
	if (l->type == LAYOUT_LEAF)
		return l->pane == pane ? l : NULL;
	for (int i = 0; i < l->nkids; i++) {
		struct layout *f = layout_find_pane(l->kids[i], pane);
		if (f != NULL)
			return f;
	}
	return NULL;
}

static bool contains(const struct layout *l, int x, int y)
{
	return x >= l->x && x < l->x + l->w && y >= l->y && y < l->y + l->h;
}

struct layout *layout_at(struct layout *l, int x, int y)
{
	if (l == NULL || !contains(l, x, y))
		return NULL;
	if (l->type == LAYOUT_LEAF)
		return l;
	for (int i = 0; i < l->nkids; i++) {
		struct layout *f = layout_at(l->kids[i], x, y);
		if (f != NULL)
			return f;
	}
	return NULL;
}

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

struct layout *layout_neighbor(struct layout *root, struct layout *leaf, int dx, int dy, int px, int py)
{
	int x = clamp(px, leaf->x, leaf->x + leaf->w - 1);
	int y = clamp(py, leaf->y, leaf->y + leaf->h - 1);
	if (dx > 0)
		x = leaf->x + leaf->w + gap_of(LAYOUT_LR);
	else if (dx < 0)
		x = leaf->x - 1 - gap_of(LAYOUT_LR);
	else if (dy > 0)
		y = leaf->y + leaf->h + gap_of(LAYOUT_TB);
	else if (dy < 0)
		y = leaf->y - 1 - gap_of(LAYOUT_TB);
	/* The point may fall on a border of the panes beyond (the middle of a
	 * full-width pane under two side by side): step along the edge, either
	 * way, to the nearest pane that shares it. */
	int span = dx != 0 ? leaf->h : leaf->w;
	for (int d = 0; d <= span; d++)
		for (int sgn = 1; sgn >= -1; sgn -= 2) {
			int ax = dx != 0 ? x : x + sgn * d, ay = dx != 0 ? y + sgn * d : y;
			bool inside = dx != 0 ? ay >= leaf->y && ay < leaf->y + leaf->h
					      : ax >= leaf->x && ax < leaf->x + leaf->w;
			struct layout *n = inside ? layout_at(root, ax, ay) : NULL;
			if (n != NULL)
				return n;
		}
	return NULL;
}

struct layout *layout_border_at(struct layout *l, int x, int y, int *index)
{
	if (l == NULL || l->type == LAYOUT_LEAF || !contains(l, x, y))
		return NULL;
	for (int i = 0; i + 1 < l->nkids; i++) {
		const struct layout *k = l->kids[i];
		if ((l->type == LAYOUT_LR && x == k->x + k->w) || (l->type == LAYOUT_TB && y == l->kids[i + 1]->y)) {
			*index = i;
			return l;
		}
	}
	for (int i = 0; i < l->nkids; i++) {
		struct layout *f = layout_border_at(l->kids[i], x, y, index);
		if (f != NULL)
			return f;
	}
	return NULL;
}

void layout_drag(struct layout *node, int index, int pos)
{
	if (node == NULL || index < 0 || index + 1 >= node->nkids)
		return;
	const struct layout *k = node->kids[index];
	int delta = node->type == LAYOUT_LR ? pos - (k->x + k->w) : pos - (k->y + k->h);
	if (delta != 0)
		move_border(node, index, delta);
}

/* A node of `type` holding `kids` of equal size. */
static struct layout *even_node(enum layout_type type, struct layout **kids, int n)
{
	if (n == 1)
		return kids[0];
	struct layout *node = calloc(1, sizeof *node);
	if (node == NULL)
		return NULL;
	node->type = type;
	for (int i = 0; i < n; i++) {
		kids[i]->w = kids[i]->h = 1; /* equal shares in layout_apply */
		insert_kid(node, i, kids[i]);
	}
	return node;
}

struct layout *layout_preset(enum layout_preset p, void **panes, int n, int x, int y, int w, int h)
{
	if (n <= 0)
		return NULL;
	struct layout *leaves[n];
	for (int i = 0; i < n; i++)
		leaves[i] = layout_new_leaf(panes[i], 0, 0, 1, 1);
	struct layout *root;
	if (p == LAYOUT_EVEN_LR || p == LAYOUT_EVEN_TB) {
		root = even_node(p == LAYOUT_EVEN_LR ? LAYOUT_LR : LAYOUT_TB, leaves, n);
	} else {
		int cols = 1;
		while (cols * cols < n)
			cols++;
		int rows = (n + cols - 1) / cols;
		struct layout *rowv[rows];
		for (int r = 0; r < rows; r++) {
			int first = r * cols, count = n - first < cols ? n - first : cols;
			rowv[r] = even_node(LAYOUT_LR, leaves + first, count);
			rowv[r]->w = rowv[r]->h = 1;
		}
		root = even_node(LAYOUT_TB, rowv, rows);
	}
	root->parent = NULL;
	layout_apply(root, x, y, w, h);
	return root;
}
