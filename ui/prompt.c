/* prompt: an escalation prompt drawn over the bottom rows of its pane, in
 * the alert style, so that it cannot be mistaken for the program's own
 * output. Lines are wrapped, not cut: the person must see all of what
 * will run, and where, before answering. */
#include "ui/denials.h"

#include <string.h>

#include "ui/ui.h"

#define ROWS_MAX 32

/* Splits text into rows of at most w code points (one cell each: the
 * text was made safe, and paths are mostly ASCII). */
static int wrap(const char *text, int w, char rows[][1024], int max)
{
	int n = 0;
	const char *p = text;
	do {
		int cells = 0;
		size_t len = 0;
		while (p[len] != 0 && cells < w && len + 4 < 1024) {
			len++;
			while ((p[len] & 0xc0) == 0x80)
				len++;
			cells++;
		}
		if (n < max) {
			memcpy(rows[n], p, len);
			rows[n++][len] = 0;
		}
		p += len;
	} while (*p != 0 && n < max);
	return n;
}

void ui_draw_prompt(struct ui *ui, int x, int y, int w, int h, const char *const *lines, int n, bool focused)
{
	char rows[ROWS_MAX][1024];
	enum ui_style style[ROWS_MAX];
	if (w < 4 || h < 2 || n < 1)
		return;
	int keys = 0, body = 0;
	char krows[4][1024];
	keys = wrap(lines[n - 1], w, krows, 4);
	for (int i = 0; i < n - 1 && body < ROWS_MAX; i++)
		body += wrap(lines[i], w, rows + body, ROWS_MAX - body);
	int room = h - 1 - keys; /* the title line stays */
	if (body > room)
		body = room > 0 ? room : 0;
	for (int i = 0; i < body; i++)
		style[i] = UI_ALERT;
	for (int i = 0; i < keys && body + i < ROWS_MAX; i++) {
		memcpy(rows[body + i], krows[i], sizeof krows[i]);
		style[body + i] = focused ? UI_TITLE_ACTIVE : UI_STATUS;
	}
	int total = body + keys < ROWS_MAX ? body + keys : ROWS_MAX;
	if (total > h - 1)
		total = h - 1;
	int top = y + h - total;
	for (int i = 0; i < total; i++)
		ui_text(ui, top + i, x, w, rows[i], style[i]);
}
