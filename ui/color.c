/* color: a pane's colours (default, 0-255, 24-bit) brought down to what
 * the client's terminal has: direct colour, 256, 16 or 8 colours, or
 * none. Pairs come from curses' own allocator (alloc_pair), which
 * recycles the least recently used when the terminal's pairs run out. */
#include "ui/ui-private.h"

#include "pty/vt.h"

/* The xterm 256-colour cube levels. */
static const int cube[6] = { 0, 95, 135, 175, 215, 255 };

static int nearest_level(int v)
{
	int best = 0;
	for (int i = 1; i < 6; i++)
		if ((v - cube[i]) * (v - cube[i]) < (v - cube[best]) * (v - cube[best]))
			best = i;
	return best;
}

static int rgb_to_256(uint32_t rgb)
{
	int r = (int)(rgb >> 16 & 0xff), g = (int)(rgb >> 8 & 0xff), b = (int)(rgb & 0xff);
	int ri = nearest_level(r), gi = nearest_level(g), bi = nearest_level(b);
	int cube_d =
		(r - cube[ri]) * (r - cube[ri]) + (g - cube[gi]) * (g - cube[gi]) + (b - cube[bi]) * (b - cube[bi]);
	int avg = (r + g + b) / 3;
	int gray = avg > 238 ? 23 : avg < 8 ? 0 : (avg - 8) / 10;
	int gv = 8 + gray * 10;
	int gray_d = (r - gv) * (r - gv) + (g - gv) * (g - gv) + (b - gv) * (b - gv);
	return gray_d < cube_d ? 232 + gray : 16 + 36 * ri + 6 * gi + bi;
}

/* 256 -> 16: the basic colour nearest in hue, bright when light. */
static int to_16(int n)
{
	if (n < 16)
		return n;
	int r, g, b;
	if (n >= 232) {
		r = g = b = 8 + (n - 232) * 10;
	} else {
		n -= 16;
		r = cube[n / 36];
		g = cube[n / 6 % 6];
		b = cube[n % 6];
	}
	int c = (r > 127 ? 1 : 0) | (g > 127 ? 2 : 0) | (b > 127 ? 4 : 0);
	return (r + g + b) / 3 > 170 ? c + 8 : c;
}

static uint32_t index_to_rgb(int n)
{
	static const uint32_t basic[16] = { 0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd,
					    0x00cdcd, 0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00,
					    0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff };
	if (n < 16)
		return basic[n];
	if (n >= 232) {
		uint32_t v = (uint32_t)(8 + (n - 232) * 10);
		return v << 16 | v << 8 | v;
	}
	n -= 16;
	return (uint32_t)cube[n / 36] << 16 | (uint32_t)cube[n / 6 % 6] << 8 | (uint32_t)cube[n % 6];
}

static int map_color(const struct ui *ui, uint32_t c)
{
	if (c == VT_COLOR_DEFAULT || ui->ncolors == 0)
		return -1;
	if (ui->direct) {
		/* palette indices stay indices where the entry sends them as
		 * such (the person's palette, not xterm's); 24-bit colours below
		 * that number are nudged up a step of blue, invisibly */
		int n = (int)(c & 0xff);
		if (!(c & VT_COLOR_RGB))
			return n < ui->direct_palette ? n : (int)index_to_rgb(n);
		int rgb = (int)(c & 0xffffff);
		return rgb < ui->direct_palette ? rgb + ui->direct_palette : rgb;
	}
	int n = c & VT_COLOR_RGB ? rgb_to_256(c & 0xffffff) : (int)(c & 0xff);
	if (n < ui->ncolors)
		return n;
	n = to_16(n);
	return n < ui->ncolors ? n : n % 8;
}

int ui_pair(struct ui *ui, int fg, int bg)
{
	if (ui->ncolors == 0 || (fg < 0 && bg < 0))
		return 0;
	int p = alloc_pair(fg, bg);
	return p < 0 ? 0 : p;
}

void ui_attr(struct ui *ui, const struct vt_attr *a, attr_t *attrs, int *pair)
{
	attr_t at = 0;
	if (a->flags & VT_BOLD)
		at |= A_BOLD;
	if (a->flags & VT_UNDERLINE)
		at |= A_UNDERLINE;
	if (a->flags & VT_ITALIC)
		at |= A_ITALIC;
	if (a->flags & VT_REVERSE)
		at |= A_REVERSE;
	if (a->flags & VT_BLINK)
		at |= A_BLINK;
	if (a->flags & VT_DIM)
		at |= A_DIM;
	if (a->flags & VT_CONCEAL)
		at |= A_INVIS;
	*attrs = at;
	*pair = ui_pair(ui, map_color(ui, a->fg), map_color(ui, a->bg));
}
