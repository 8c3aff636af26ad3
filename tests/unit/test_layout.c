/* Layout arithmetic: splits, removal, proportional resize, borders,
 * neighbours and the presets. */
#include "shell/layout.h"
#include "tests/unit/unit.h"

static int P[16]; /* stand-ins for panes: only their addresses matter */

static void test_split_lr(struct unit *u)
{
	struct layout *root = layout_new_leaf(&P[0], 0, 0, 81, 24);
	struct layout *a = root;
	struct layout *b = layout_split(&root, a, LAYOUT_LR, &P[1]);
	CHECK(u, b != NULL);
	CHECK_INT(u, root->type, LAYOUT_LR);
	CHECK_INT(u, a->x, 0);
	CHECK_INT(u, a->w, 40);
	CHECK_INT(u, b->x, 41); /* one border column between */
	CHECK_INT(u, b->w, 40);
	CHECK_INT(u, b->h, 24);
	/* a third split of b in the same direction joins the same node */
	struct layout *c = layout_split(&root, b, LAYOUT_LR, &P[2]);
	CHECK_INT(u, root->nkids, 3);
	CHECK_INT(u, a->w + b->w + c->w + 2, 81);
	CHECK_INT(u, c->x + c->w, 81);
	layout_free(root);
}

static void test_split_tb_and_remove(struct unit *u)
{
	struct layout *root = layout_new_leaf(&P[0], 0, 0, 80, 23);
	struct layout *a = root;
	struct layout *b = layout_split(&root, a, LAYOUT_TB, &P[1]);
	CHECK_INT(u, a->h + b->h, 23); /* no border row: the title line is one */
	CHECK_INT(u, b->y, a->h);
	struct layout *c = layout_split(&root, b, LAYOUT_LR, &P[2]);
	CHECK_INT(u, layout_count(root), 3);
	CHECK_INT(u, c->y, b->y);
	layout_remove(&root, c);
	CHECK_INT(u, layout_count(root), 2);
	b = layout_find_pane(root, &P[1]);
	CHECK_INT(u, b->w, 80);
	CHECK_INT(u, b->type, LAYOUT_LEAF);
	CHECK(u, b->parent == root);
	layout_remove(&root, layout_find_pane(root, &P[0]));
	CHECK(u, root == layout_find_pane(root, &P[1]));
	CHECK_INT(u, root->h, 23);
	CHECK_INT(u, root->y, 0);
	layout_remove(&root, root);
	CHECK(u, root == NULL);
}

static void test_too_small(struct unit *u)
{
	struct layout *root = layout_new_leaf(&P[0], 0, 0, 4, 3);
	CHECK(u, layout_split(&root, root, LAYOUT_LR, &P[1]) == NULL);
	CHECK(u, layout_split(&root, root, LAYOUT_TB, &P[1]) == NULL);
	CHECK(u, root->type == LAYOUT_LEAF);
	layout_free(root);
}

static void test_apply_keeps_proportions(struct unit *u)
{
	struct layout *root = layout_new_leaf(&P[0], 0, 0, 101, 30);
	struct layout *a = root;
	struct layout *b = layout_split(&root, a, LAYOUT_LR, &P[1]);
	layout_resize_leaf(a, LAYOUT_LR, -25); /* a: 25, b: 75 */
	CHECK_INT(u, a->w, 25);
	CHECK_INT(u, b->w, 75);
	layout_apply(root, 0, 0, 201, 30);
	CHECK_INT(u, a->w, 50);
	CHECK_INT(u, b->w, 150);
	layout_apply(root, 0, 0, 5, 30); /* squeezed: both keep their minimum */
	CHECK_INT(u, a->w, 2);
	CHECK_INT(u, b->w, 2);
	layout_free(root);
}

static void test_resize_clamps(struct unit *u)
{
	struct layout *root = layout_new_leaf(&P[0], 0, 0, 80, 20);
	struct layout *a = root;
	struct layout *b = layout_split(&root, a, LAYOUT_TB, &P[1]);
	CHECK(u, layout_resize_leaf(b, LAYOUT_TB, -100)); /* b is last: its top border goes up */
	CHECK_INT(u, a->h, LAYOUT_MIN_H);
	CHECK_INT(u, b->h, 20 - LAYOUT_MIN_H);
	CHECK(u, !layout_resize_leaf(a, LAYOUT_LR, 3)); /* no side-by-side split */
	layout_free(root);
}

static void test_at_neighbor_border(struct unit *u)
{
	struct layout *root = layout_new_leaf(&P[0], 0, 0, 81, 24);
	struct layout *a = root;
	struct layout *b = layout_split(&root, a, LAYOUT_LR, &P[1]);
	struct layout *c = layout_split(&root, b, LAYOUT_TB, &P[2]);
	CHECK(u, layout_at(root, 0, 0) == a);
	CHECK(u, layout_at(root, 40, 5) == NULL); /* the border column */
	CHECK(u, layout_at(root, 50, 1) == b);
	CHECK(u, layout_at(root, 50, 20) == c);
	CHECK(u, layout_neighbor(root, a, 1, 0, 0, 20) == c);
	CHECK(u, layout_neighbor(root, a, 1, 0, 0, 2) == b);
	CHECK(u, layout_neighbor(root, b, 0, 1, 50, 0) == c);
	CHECK(u, layout_neighbor(root, c, -1, 0, 50, 20) == a);
	CHECK(u, layout_neighbor(root, a, -1, 0, 0, 0) == NULL);
	/* tiled, three panes: Up from the full-width one at the bottom, whose
	 * middle is the border column between the two above */
	struct layout *t = layout_new_leaf(&P[3], 0, 0, 81, 24);
	struct layout *top = t;
	struct layout *bottom = layout_split(&t, top, LAYOUT_TB, &P[4]);
	struct layout *right = layout_split(&t, top, LAYOUT_LR, &P[5]);
	CHECK(u, layout_at(t, 40, 2) == NULL);
	struct layout *up = layout_neighbor(t, bottom, 0, -1, 40, bottom->y + 2);
	CHECK(u, up == top || up == right);
	CHECK(u, layout_neighbor(t, bottom, 0, -1, 60, bottom->y) == right);
	CHECK(u, layout_neighbor(t, top, 1, 0, 0, 0) == right);
	layout_free(t);
	int idx = -1;
	CHECK(u, layout_border_at(root, 40, 3, &idx) == root);
	CHECK_INT(u, idx, 0);
	struct layout *n = layout_border_at(root, 60, c->y, &idx);
	CHECK(u, n == b->parent);
	layout_drag(n, idx, c->y + 3);
	CHECK_INT(u, c->y, 15);
	CHECK_INT(u, b->h + c->h, 24);
	layout_drag(root, 0, 20);
	CHECK_INT(u, a->w, 20);
	CHECK_INT(u, b->x, 21);
	layout_free(root);
}

static void test_presets(struct unit *u)
{
	void *panes[5] = { &P[0], &P[1], &P[2], &P[3], &P[4] };
	struct layout *out[8];
	struct layout *t = layout_preset(LAYOUT_TILED, panes, 4, 0, 0, 81, 24);
	CHECK_INT(u, layout_leaves(t, out, 8), 4);
	for (int i = 0; i < 4; i++) {
		CHECK_INT(u, out[i]->w, 40);
		CHECK_INT(u, out[i]->h, 12);
	}
	CHECK(u, out[0]->pane == &P[0] && out[3]->pane == &P[3]);
	layout_free(t);
	t = layout_preset(LAYOUT_TILED, panes, 5, 0, 0, 80, 24); /* 3 + 2 */
	CHECK_INT(u, layout_leaves(t, out, 8), 5);
	CHECK_INT(u, out[0]->h + out[3]->h, 24);
	CHECK_INT(u, out[3]->w + out[4]->w + 1, 80);
	layout_free(t);
	t = layout_preset(LAYOUT_EVEN_TB, panes, 3, 0, 0, 80, 24);
	CHECK_INT(u, layout_leaves(t, out, 8), 3);
	CHECK_INT(u, out[0]->h, 8);
	CHECK_INT(u, out[2]->y, 16);
	layout_free(t);
	t = layout_preset(LAYOUT_EVEN_LR, panes, 1, 0, 0, 80, 24);
	CHECK_INT(u, t->type, LAYOUT_LEAF);
	CHECK_INT(u, t->w, 80);
	layout_free(t);
	CHECK_STR(u, layout_preset_name(LAYOUT_TILED), "tiled");
}

int main(void)
{
	struct unit u = { 0, 0 };
	test_split_lr(&u);
	test_split_tb_and_remove(&u);
	test_too_small(&u);
	test_apply_keeps_proportions(&u);
	test_resize_clamps(&u);
	test_at_neighbor_border(&u);
	test_presets(&u);
	return unit_done(&u, "test_layout");
}
