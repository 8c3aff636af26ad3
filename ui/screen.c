/* screen: one curses SCREEN per client. curses writes into a memfd (never
 * a pipe: a full pipe would block the server on its own output), and
 * ui_flush() reads the bytes where they are (mapped) and rewinds it. Drawing goes straight
 * into newscr, the screen doupdate() sends, and stdscr is shrunk to one
 * cell: a third full copy of the screen per client would only cost
 * memory (tmux keeps none). The mouse is turned on
 * in the outer terminal with SGR reports (1006), which shell/keys.c reads. */
#include "ui/ui-private.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* bracketed paste, and the mouse (SGR reports) on the outer terminal,
 * the mouse only while wanted (ui_mouse): else the terminal's own
 * selection works without Shift */
#define PASTE_ON  "\033[?2004h"
#define MOUSE_ON  "\033[?1000h\033[?1002h\033[?1006h"
#define MOUSE_OFF "\033[?1006l\033[?1002l\033[?1000l"
#define ALL_OFF   "\033[?2004l" MOUSE_OFF

/* A frame is read straight from the memfd's pages when it fits in the
 * mapping; the file is emptied when a frame left more than UI_KEEP. */
#define UI_MAP  (4u << 20)
#define UI_KEEP (256u << 10)

static void ui_colors(struct ui *ui)
{
	if (!has_colors() || start_color() == ERR)
		return;
	use_default_colors();
	ui->ncolors = COLORS;
	ui->direct = (tigetflag("RGB") > 0 || tigetflag("Tc") > 0) && COLORS >= 0x1000000;
	/* how many colour numbers the entry's setaf still sends as palette
	 * indices (xterm-direct256: 256, xterm-direct: 8) */
	const char *setaf = tigetstr("setaf");
	bool ok = setaf != NULL && setaf != (char *)-1;
	ui->direct_palette = ok && strstr(setaf, "38;5;") ? 256 : ok && strstr(setaf, "9%p1") ? 16 : 8;
}

/* The terminal to draw with: a client whose COLORTERM says 24-bit colour
 * but whose xterm-like entry has 256 gets xterm-direct256 (the same
 * xterm sequences, palette indices kept, 24-bit colour for the rest), so
 * colours are passed through rather than brought down to 256. */
static SCREEN *ui_newterm(const char *term, FILE *out, FILE *in)
{
	/* curses catches SIGTSTP only if it is at its default when the first
	 * screen is made, and otherwise leaves it alone for good: it would
	 * set and reset the handler around every doupdate(), two system
	 * calls a frame, to suspend a server that has no terminal. */
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	bool masked = sigaction(SIGTSTP, &ign, &old) == 0;
	SCREEN *s = newterm(term, out, in);
	if (masked)
		sigaction(SIGTSTP, &old, NULL);
	return s;
}

static SCREEN *ui_screen(const char *term, bool truecolor, FILE *out, FILE *in)
{
	if (truecolor && strncmp(term, "xterm", 5) == 0 && strstr(term, "direct") == NULL) {
		SCREEN *s = ui_newterm("xterm-direct256", out, in);
		if (s != NULL)
			return s;
	}
	return ui_newterm(term, out, in);
}

struct ui *ui_new(const char *term, bool truecolor, int rows, int cols, char *err, size_t errlen)
{
	struct ui *ui = calloc(1, sizeof *ui);
	if (ui == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	ui->fd = memfd_create("sandmux-ui", MFD_CLOEXEC);
	ui->map = ui->fd >= 0 ? mmap(NULL, UI_MAP, PROT_READ, MAP_SHARED, ui->fd, 0) : MAP_FAILED;
	ui->out = ui->fd >= 0 && ui->map != MAP_FAILED ? fdopen(ui->fd, "w") : NULL;
	ui->in = fopen("/dev/null", "re");
	if (ui->out == NULL || ui->in == NULL) {
		snprintf(err, errlen, "terminal buffer: %s", strerror(errno));
		ui_free(ui, NULL, NULL);
		return NULL;
	}
	ui->scr = ui_screen(term, truecolor, ui->out, ui->in);
	ui->truecolor = truecolor;
	if (ui->scr == NULL) {
		snprintf(err, errlen, "cannot draw on a terminal of type \"%s\" (no terminfo entry)", term);
		ui_free(ui, NULL, NULL);
		return NULL;
	}
	set_term(ui->scr);
	typeahead(-1); /* curses would poll /dev/null for input and abandon updates */
	nonl();
	leaveok(newscr, FALSE);
	ui_colors(ui);
	ui_resize(ui, rows, cols);
	ui->pending_raw = PASTE_ON;
	ui->mouse = false;
	snprintf(ui->term, sizeof ui->term, "%s", term);
	return ui;
}

/* The frame curses wrote, from the start of the memfd to its offset:
 * read in place, then the offset rewound (the next frame writes over
 * it; only the bytes up to the offset count). */
static void ui_take(struct ui *ui, void (*sink)(void *, const char *, size_t), void *arg)
{
	fflush(ui->out);
	off_t end = lseek(ui->fd, 0, SEEK_CUR);
	if (end <= 0)
		return;
	if (sink != NULL && (size_t)end <= UI_MAP)
		sink(arg, ui->map, (size_t)end);
	char buf[65536];
	for (off_t at = 0; sink != NULL && (size_t)end > UI_MAP && at < end;) {
		ssize_t n = pread(ui->fd, buf, sizeof buf, at);
		if (n <= 0)
			break;
		sink(arg, buf, (size_t)n);
		at += n;
	}
	if ((size_t)end > UI_KEEP && ftruncate(ui->fd, 0) != 0)
		return;
	lseek(ui->fd, 0, SEEK_SET);
}

void ui_park(struct ui *ui, void (*sink)(void *, const char *, size_t), void *arg)
{
	set_term(ui->scr);
	endwin();
	ui_take(ui, sink, arg);
	if (sink != NULL)
		sink(arg, ALL_OFF, strlen(ALL_OFF));
}

bool ui_reuse(struct ui *ui, const char *term, bool truecolor, int rows, int cols)
{
	if (strcmp(ui->term, term) != 0 || ui->truecolor != truecolor)
		return false;
	ui_resize(ui, rows, cols); /* repaints all (clearok) */
	werase(newscr);
	ui->pending_raw = PASTE_ON;
	ui->mouse = false;
	return true;
}

void ui_free(struct ui *ui, void (*sink)(void *, const char *, size_t), void *arg)
{
	if (ui == NULL)
		return;
	if (ui->scr != NULL) {
		ui_park(ui, sink, arg);
		delscreen(ui->scr);
	}
	if (ui->map != NULL && ui->map != MAP_FAILED)
		munmap(ui->map, UI_MAP);
	if (ui->out != NULL)
		fclose(ui->out);
	else if (ui->fd >= 0)
		close(ui->fd);
	if (ui->in != NULL)
		fclose(ui->in);
	free(ui);
}

void ui_resize(struct ui *ui, int rows, int cols)
{
	set_term(ui->scr);
	ui->rows = rows < 1 ? 1 : rows;
	ui->cols = cols < 1 ? 1 : cols;
	resize_term(ui->rows, ui->cols);
	wresize(stdscr, 1, 1); /* unused: drawing goes to newscr (see above) */
	clearok(curscr, TRUE); /* the outer terminal may have reflowed: repaint all */
}

int ui_rows(const struct ui *ui)
{
	return ui->rows;
}

int ui_cols(const struct ui *ui)
{
	return ui->cols;
}

void ui_erase(struct ui *ui)
{
	set_term(ui->scr);
	werase(newscr);
}

void ui_flush(struct ui *ui, void (*sink)(void *, const char *, size_t), void *arg)
{
	set_term(ui->scr);
	doupdate();
	ui_take(ui, sink, arg);
	if (ui->pending_raw != NULL) {
		sink(arg, ui->pending_raw, strlen(ui->pending_raw));
		ui->pending_raw = NULL;
	}
}

void ui_mouse(struct ui *ui, bool on)
{
	if (on == ui->mouse)
		return;
	ui->mouse = on;
	ui->pending_raw = on                ? (ui->pending_raw ? PASTE_ON MOUSE_ON : MOUSE_ON)
			  : ui->pending_raw ? PASTE_ON
					    : MOUSE_OFF;
}

void ui_cursor(struct ui *ui, int y, int x, bool visible)
{
	set_term(ui->scr);
	curs_set(visible ? 1 : 0);
	wmove(newscr, y, x);
}
