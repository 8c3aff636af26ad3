/* ui: drawing one client's terminal with ncursesw. The server keeps one
 * struct ui per attached client; curses renders into a memory file and
 * ui_flush() hands the bytes to the caller, who sends them to the client.
 * Nothing here decides anything: callers say what goes where. */
#ifndef UI_H
#define UI_H

#include <stdbool.h>
#include <stddef.h>

struct vt;
struct ui;

/* term: the client's $TERM; truecolor: it takes 24-bit colour (its
 * COLORTERM says so), even if its terminfo entry does not. Returns NULL
 * with err set when curses cannot drive that terminal. */
struct ui *ui_new(const char *term, bool truecolor, int rows, int cols, char *err, size_t errlen);
/* Ends curses on this terminal (leaves the alternate screen, turns the
 * mouse off); the last bytes go through `sink` before the ui is freed. */
void ui_free(struct ui *, void (*sink)(void *, const char *, size_t), void *arg);
/* Ends curses on this terminal like ui_free() but keeps the SCREEN for
 * ui_reuse(): ncurses' delscreen() of one screen stops doupdate() of the
 * others from writing anything, so a server with clients left keeps
 * screens instead of deleting them. */
void ui_park(struct ui *, void (*sink)(void *, const char *, size_t), void *arg);
/* A parked ui for a new client with the same terminal type: true, and it
 * repaints everything at the next flush. */
bool ui_reuse(struct ui *, const char *term, bool truecolor, int rows, int cols);
void ui_resize(struct ui *, int rows, int cols);
/* Mouse reports from the outer terminal on or off (sent at the next flush). */
void ui_mouse(struct ui *, bool on);
int ui_rows(const struct ui *);
int ui_cols(const struct ui *);
/* Blank the whole screen (before drawing a different layout). */
void ui_erase(struct ui *);
/* Renders what was drawn since the last flush, and passes the bytes on. */
void ui_flush(struct ui *, void (*sink)(void *, const char *, size_t), void *arg);

/* Pane content (ui/draw.c). Draws rows of vt into the rectangle, starting
 * `scroll` lines up in its history; only dirty rows unless `all`. A
 * selection (copy mode) is drawn in reverse. */
struct ui_sel {
	bool on;
	int r0, c0, r1, c1; /* vt rows (negative: history), inclusive, ordered */
};
void ui_draw_vt(struct ui *, struct vt *, int x, int y, int w, int h, int scroll, bool all, const struct ui_sel *);
void ui_cursor(struct ui *, int y, int x, bool visible);

/* Lines and text (ui/status.c). */
enum ui_style {
	UI_NORMAL,
	UI_TITLE,
	UI_TITLE_ACTIVE,
	UI_TITLE_ALERT, /* a pane that wants its person: a prompt, a bell, quiet */
	UI_STATUS,
	UI_STATUS_CURRENT,
	UI_BORDER,
	UI_BORDER_ACTIVE,
	UI_ALERT
};
/* UTF-8 text at (y, x), clipped or padded with blanks to w cells. */
void ui_text(struct ui *, int y, int x, int w, const char *text, enum ui_style);
void ui_vline(struct ui *, int x, int y, int h, enum ui_style);
/* Fills a rectangle with a blank or a dot pattern (area outside the session size). */
void ui_fill(struct ui *, int x, int y, int w, int h, bool dots);

#endif
