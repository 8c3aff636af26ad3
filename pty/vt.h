/* vt: one pane's terminal emulator. libvterm's *state* layer parses; the
 * grid (pty/grid.c) is ours: O(1) scrolling by rotating rows, and a
 * bounded scrollback ring. pty/vt.c is the only file that includes
 * vterm.h; nothing else in sandmux knows libvterm exists. */
#ifndef VT_H
#define VT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Colours: VT_COLOR_DEFAULT, an index 0..255 (VT_COLOR_INDEX | n), or
 * 24-bit (VT_COLOR_RGB | 0xRRGGBB). */
#define VT_COLOR_DEFAULT 0u
#define VT_COLOR_INDEX   0x01000000u
#define VT_COLOR_RGB     0x02000000u

enum {
	VT_BOLD = 1 << 0,
	VT_UNDERLINE = 1 << 1,
	VT_ITALIC = 1 << 2,
	VT_REVERSE = 1 << 3,
	VT_BLINK = 1 << 4,
	VT_STRIKE = 1 << 5,
	VT_DIM = 1 << 6,
	VT_CONCEAL = 1 << 7,
	VT_PROTECTED = 1 << 8, /* DECSCA: selective erase spares it (not drawn) */
	VT_GUARDED = 1 << 9,   /* SPA..EPA: erases but DECERA/DECSERA spare it (not drawn) */
};

struct vt_attr {
	uint32_t fg, bg;
	uint16_t flags;
};

/* One cell. width is 1, 2 for the first half of a wide character, and 0
 * for the second half (draw nothing there). ch[0] == 0 is a blank. */
#define VT_MAX_CHARS 3
struct vt_cell {
	uint32_t ch[VT_MAX_CHARS]; /* base character and combining marks */
	uint8_t width;
	struct vt_attr attr;
};

/* Modes the program asked for, that the host must honour. */
struct vt_modes {
	bool cursor_visible;
	bool altscreen;
	bool app_cursor;
	bool app_keypad;
	bool bracketed_paste;
	int mouse; /* 0 none, 1 click, 2 drag, 3 any motion */
	bool mouse_sgr;
	bool reverse_screen; /* DECSCNM: draw the whole screen reversed */
	int cursor_shape;    /* 0 default, 1 block, 2 underline, 3 bar */
};

struct vt;

struct vt *vt_new(int rows, int cols, int scrollback_lines);
void vt_free(struct vt *);

/* Feed bytes the program wrote. Never writes to the real terminal. */
void vt_write(struct vt *, const char *buf, size_t len);
void vt_resize(struct vt *, int rows, int cols);

int vt_rows(const struct vt *);
int vt_cols(const struct vt *);
/* row 0..rows-1 is the screen; -1..-history is the scrollback. */
const struct vt_cell *vt_cell(const struct vt *, int row, int col);
int vt_history(const struct vt *); /* lines currently in scrollback */
void vt_cursor(const struct vt *, int *row, int *col);
const struct vt_modes *vt_modes(const struct vt *);
const char *vt_title(const struct vt *); /* OSC 0/2, "" when unset */

/* Dirty tracking: which screen rows changed since vt_clear_dirty(). */
bool vt_row_dirty(const struct vt *, int row);
bool vt_dirty(const struct vt *);
void vt_clear_dirty(struct vt *);
bool vt_take_bell(struct vt *);

/* Keys: encode a key for the program, honouring its modes. `key` is a
 * Unicode code point or one of VT_KEY_*; mods is VT_MOD_* bits. Returns
 * the number of bytes written to out. */
enum {
	VT_KEY_ENTER = 0x110000,
	VT_KEY_TAB,
	VT_KEY_BACKSPACE,
	VT_KEY_ESCAPE,
	VT_KEY_UP,
	VT_KEY_DOWN,
	VT_KEY_LEFT,
	VT_KEY_RIGHT,
	VT_KEY_INS,
	VT_KEY_DEL,
	VT_KEY_HOME,
	VT_KEY_END,
	VT_KEY_PAGEUP,
	VT_KEY_PAGEDOWN,
	VT_KEY_F1, /* ... VT_KEY_F1 + 11 for F12 */
	VT_KEY_F12 = VT_KEY_F1 + 11,
};
enum { VT_MOD_SHIFT = 1, VT_MOD_ALT = 2, VT_MOD_CTRL = 4 };
size_t vt_key(struct vt *, uint32_t key, int mods, char *out, size_t cap); /* 0 if cap is short */
/* A paste: line ends become CR; with bracketed paste it is wrapped in
 * ESC[200~ ... ESC[201~ and ESC bytes inside are dropped (so the text
 * cannot end the bracket). Cut at cap: give len + 12 bytes. */
size_t vt_paste(struct vt *, const char *text, size_t len, char *out, size_t cap);
size_t vt_mouse(struct vt *, int row, int col, int button, bool pressed, int mods, char *out, size_t cap);

/* Mouse: button 1-3 (left, middle, right), 4-5 (wheel up, down), with
 * VT_MOUSE_MOTION for a motion report (button 0 | VT_MOUSE_MOTION: no
 * button held). Encoded only when the program asked for that kind of
 * report (vt_modes()->mouse), in SGR form when it asked for SGR. */
#define VT_MOUSE_MOTION 0x100

/* Bytes the terminal must send back to the program (answers to device
 * attribute queries and the like). Returns the count moved into out. */
size_t vt_take_reply(struct vt *, char *out, size_t cap);

/* The default colours (0xRRGGBB) answered to a program's OSC 10/11/12
 * query; dark (e5e5e5 on 000000) unless the host knows better. */
void vt_set_default_colors(struct vt *, uint32_t fg_rgb, uint32_t bg_rgb);
/* The colour the cursor is drawn in (OSC 12), when the host knows it;
 * until then the foreground's is answered. */
void vt_set_cursor_color(struct vt *, uint32_t rgb);

/* The pane gained or lost focus: answered to the program (CSI I / CSI O)
 * only if it asked for focus events (mode 1004); read with vt_take_reply. */
void vt_focus(struct vt *, bool in);

/* OSC strings the emulator does not handle itself (7: cwd, 133/633: shell
 * integration) go to this handler: command number, argument after the ';'.
 * OSC 52 (clipboard) reaches it only after vt_allow_clipboard(vt, true). */
typedef void vt_osc_fn(int command, const char *arg, size_t len, void *data);
void vt_set_osc_handler(struct vt *, vt_osc_fn *, void *data);
void vt_allow_clipboard(struct vt *, bool allow);

/* The row goes on in the next one (autowrap): join them when copying. */
bool vt_row_wrapped(const struct vt *, int row);
void vt_clear_history(struct vt *);
/* Bytes this pane's emulator holds (screens and scrollback). */
size_t vt_memory(const struct vt *);

#endif
