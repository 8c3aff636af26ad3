/* denials: drawing the denials pane and the escalation prompts
 * (ui/denials.c, ui/prompt.c). The caller (shell/escalate-view.c) decides
 * what is listed and in which order; this only draws it. */
#ifndef UI_DENIALS_H
#define UI_DENIALS_H

#include <stdbool.h>
#include <stddef.h>

struct ui;
struct denial;

/* The whole screen (rows x cols): a title line, a column header, then
 * v[top..] one a line: time, pane, process, operation, target, the rule
 * and the file it came from, the count. */
void ui_draw_denials(struct ui *, int rows, int cols, const char *title, const struct denial *const *v, size_t n,
		     size_t top);

/* A prompt box of n lines over the bottom of the rectangle (x, y, w, h);
 * the last line is the keys. focused: it takes keys now. Lines wrap,
 * never cut; when the box is taller than h - 1 rows, the top rows go. */
void ui_draw_prompt(struct ui *, int x, int y, int w, int h, const char *const *lines, int n, bool focused);
/* How many rows of a box w cells wide the line takes (ui_draw_prompt). */
int ui_prompt_rows(const char *line, int w);

/* exact.c: text shown exactly, every byte visible: control characters,
 * bytes that are not UTF-8, and invisible, bidi, zero-width, combining
 * and space-like code points escaped (\t \r \x1b \u202e), a backslash
 * doubled. malloc'ed (NULL: out of memory). */
char *ui_exact_text(const char *text);

/* Copies text with control characters shown as '?': what a sandboxed
 * program named must not reach the terminal as a control sequence. */
void ui_safe_text(char *out, size_t cap, const char *text);

#endif
