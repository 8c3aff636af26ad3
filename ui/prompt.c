/* prompt: an escalation prompt drawn over the bottom rows of its pane, in
 * the alert style, so that it cannot be mistaken for the program's own
 * output. Lines are wrapped, never cut: the person must see all of what
 * will run, and where, before answering. The caller checks with
 * ui_prompt_rows() that what matters fits; if the box is taller than the
 * pane, only its first lines lose their top rows. */
#include "ui/denials.h"

#include <stdlib.h>
#include <string.h>

#include "ui/ui.h"

/* The bytes of the next row of at most w cells at p. A code point other
 * than ASCII counts two cells, the most a terminal gives one, so that a
 * row is never wider than the box (ui_text would cut it). */
static size_t row_len(const char *p, int w)
{
	int cells = 0;
	size_t len = 0;
	while (p[len] != 0) {
		int cw = (unsigned char)p[len] < 0x80 ? 1 : 2;
		if (cells + cw > w && cells > 0)
			break;
		cells += cw;
		len++;
		while ((p[len] & 0xc0) == 0x80)
			len++;
	}
	return len;
}

int ui_prompt_rows(const char *line, int w)
{
	int n = 0;
	if (w < 2)
		return 1 << 20;
	do {
		line += row_len(line, w);
		n++;
	} while (*line != 0);
	return n;
}

struct prow {
	const char *text;
	size_t len;
	enum ui_style style;
};

void ui_draw_prompt(struct ui *ui, int x, int y, int w, int h, const char *const *lines, int n, bool focused)
{
	if (w < 4 || h < 2 || n < 1)
		return;
	int total = 0;
	for (int i = 0; i < n; i++)
		total += ui_prompt_rows(lines[i], w);
	struct prow *rows = calloc((size_t)total, sizeof *rows);
	if (rows == NULL)
		return;
	int r = 0;
	for (int i = 0; i < n; i++) {
		const char *p = lines[i];
		do {
			size_t len = row_len(p, w);
			rows[r++] = (struct prow){ p, len,
						   i == n - 1 ? (focused ? UI_TITLE_ACTIVE : UI_STATUS) : UI_ALERT };
			p += len;
		} while (*p != 0);
	}
	int shown = total < h - 1 ? total : h - 1; /* the title line stays */
	char *buf = malloc((size_t)w * 4 + 1);
	for (int i = 0; buf != NULL && i < shown; i++) {
		const struct prow *pr = &rows[total - shown + i];
		memcpy(buf, pr->text, pr->len);
		buf[pr->len] = 0;
		ui_text(ui, y + h - shown + i, x, w, buf, pr->style);
	}
	free(buf);
	free(rows);
}
