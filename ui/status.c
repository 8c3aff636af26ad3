/* status: the host's own text — pane title lines, the status bar, the help
 * screen, prompts — and the borders between panes. */
#include "ui/ui-private.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static void style_attr(struct ui *ui, enum ui_style s, attr_t *at, int *pair)
{
	*at = A_NORMAL;
	*pair = 0;
	bool colour = ui->ncolors >= 8;
	switch (s) {
	case UI_NORMAL:
		break;
	case UI_TITLE:
		*at = colour ? A_NORMAL : A_REVERSE;
		*pair = colour ? ui_pair(ui, COLOR_BLACK, COLOR_WHITE) : 0;
		break;
	case UI_TITLE_ACTIVE:
	case UI_STATUS_CURRENT:
		*at = colour ? A_BOLD : A_REVERSE | A_BOLD;
		*pair = colour ? ui_pair(ui, COLOR_BLACK, COLOR_GREEN) : 0;
		break;
	case UI_TITLE_ALERT:
		*at = colour ? A_BOLD : A_REVERSE | A_BLINK;
		*pair = colour ? ui_pair(ui, COLOR_BLACK, COLOR_YELLOW) : 0;
		break;
	case UI_STATUS:
		*at = colour ? A_NORMAL : A_REVERSE;
		*pair = colour ? ui_pair(ui, COLOR_BLACK, COLOR_CYAN) : 0;
		break;
	case UI_BORDER:
		break;
	case UI_BORDER_ACTIVE:
		*pair = colour ? ui_pair(ui, COLOR_GREEN, -1) : 0;
		*at = colour ? A_NORMAL : A_BOLD;
		break;
	case UI_ALERT:
		*at = A_BOLD;
		*pair = colour ? ui_pair(ui, COLOR_WHITE, COLOR_RED) : 0;
		break;
	}
}

void ui_text(struct ui *ui, int y, int x, int w, const char *text, enum ui_style s)
{
	set_term(ui->scr);
	if (w <= 0 || y < 0 || y >= ui->rows)
		return;
	attr_t at;
	int pair;
	style_attr(ui, s, &at, &pair);
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t len = strlen(text);
	int col = 0;
	while (len > 0 && col < w) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, text, len, &st);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			wc = L'?';
			n = 1;
			memset(&st, 0, sizeof st);
		}
		int cw = wcwidth(wc);
		if (cw < 1) {
			wc = L'?';
			cw = 1;
		}
		if (col + cw > w)
			break;
		wchar_t s2[2] = { wc, 0 };
		cchar_t cc;
		setcchar(&cc, s2, at, 0, &pair);
		mvwadd_wch(newscr, y, x + col, &cc);
		col += cw;
		text += n;
		len -= n;
	}
	wchar_t blank[2] = { L' ', 0 };
	cchar_t cc;
	setcchar(&cc, blank, at, 0, &pair);
	/* the blanks in one call; the last one added as before, so curses'
	 * cursor is left where it was */
	if (col + 1 < w)
		mvwhline_set(newscr, y, x + col, &cc, w - col - 1);
	if (col < w)
		mvwadd_wch(newscr, y, x + w - 1, &cc);
}

void ui_vline(struct ui *ui, int x, int y, int h, enum ui_style s)
{
	set_term(ui->scr);
	attr_t at;
	int pair;
	style_attr(ui, s, &at, &pair);
	cchar_t cc;
	wchar_t line[2] = { L'│', 0 };
	setcchar(&cc, line, at, 0, &pair);
	for (int r = 0; r < h; r++)
		mvwadd_wch(newscr, y + r, x, &cc);
}

void ui_fill(struct ui *ui, int x, int y, int w, int h, bool dots)
{
	set_term(ui->scr);
	for (int r = 0; r < h; r++)
		mvwhline(newscr, y + r, x, dots ? '.' : ' ', w);
}
