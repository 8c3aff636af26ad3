/* vt-int: the emulator's state, shared by vt.c (which drives libvterm)
 * and vt-report.c (which answers the reports libvterm 0.1.4 lacks), and
 * nobody else. Only vt.c includes vterm.h: the libvterm types stay opaque. */
#ifndef VT_INT_H
#define VT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pty/grid.h"
#include "pty/vt.h"

struct VTerm;
struct VTermState;

#define VT_REPLY_MAX (64 * 1024) /* replies the host has not taken yet */
#define VT_OSC_MAX   4096        /* a longer unterminated OSC is dropped */
#define VT_TITLE_MAX 256
#define VT_CSI_ARGS  16 /* arguments libvterm 0.1.4 can hold */
#define VT_XSAVE_MAX 32 /* DEC modes XTSAVE keeps */

enum scan { SCAN_GROUND, SCAN_ESC, SCAN_CSI, SCAN_CSI_DROP, SCAN_OSC, SCAN_OSC_ESC };

struct vt {
	struct VTerm *vterm;
	struct VTermState *state;
	struct grid *grid;
	struct vt_attr pen;
	struct vt_modes modes;
	int crow, ccol;
	bool moved; /* cursor moved since vt_clear_dirty */
	bool bell;
	char title[VT_TITLE_MAX];

	/* Autowrap is invisible in the state callbacks: a glyph that ends on
	 * the last column, then one at column 0 of the next row with no
	 * cursor movement between, means the row wrapped. */
	bool wrap_pending;
	int wrap_row;

	enum scan scan;
	/* The parameters of the CSI being scanned: libvterm 0.1.4 knows no
	 * dim (SGR 2) or conceal (SGR 8), so those are applied here. */
	char csi[64];
	size_t csi_len;
	char csi_priv;                  /* private marker ('?', '>', ...) or 0 */
	char csi_inter;                 /* its first intermediate byte */
	bool csi_other;                 /* intermediate or late marker: not ours */
	bool csi_long;                  /* more parameter bytes than csi[] holds */
	char esc_inter;                 /* intermediate of the escape being scanned (ESC # 8) */
	bool decaln;                    /* a DECALN ran in this vt_write */
	int csi_seps;                   /* ';' and ':' seen: libvterm holds 16 arguments */
	uint32_t last_ch[VT_MAX_CHARS]; /* the last glyph put, for REP */
	int last_width;
	size_t rep_budget; /* glyphs REP may still add in this vt_write */
	bool osc_drop;     /* the OSC being held grew too long: discard to its end */
	char *held;        /* VT_OSC_MAX bytes, only while a string is held */
	size_t held_len;

	char *reply;
	size_t reply_len, reply_cap;
	bool probing; /* output goes to probe[], not to the program */
	char probe[64];
	size_t probe_len;

	bool str_dcs;           /* the string being held is a DCS, not an OSC */
	bool guarded;           /* SPA was seen since a reset: erases spare VT_GUARDED cells */
	bool scrolled;          /* libvterm moved a rectangle: its next erase clears what is left */
	bool autowrap, revwrap; /* DECAWM (7), reverse wraparound (45, 1045) */
	bool morefix;           /* 41: a tab after the last column wraps first */
	int sace;               /* DECSACE: 2 rectangle, 0 or 1 the stream */
	struct vt_xsave {
		int mode;
		bool set;
	} xsave[VT_XSAVE_MAX]; /* what XTSAVE saved */
	int nxsave;
	int level; /* DECSCL conformance level, 1 (VT100) to 5 */
	/* libvterm's modes and margins, read back from it after each
	 * sequence that may change them (0.1.4 has no getters). */
	bool origin, lrmm, insert, newline;
	int mtop, mbottom, mleft, mright; /* [top, bottom) x [left, right) */
	/* What DECSC saves (libvterm 0.1.4 has one record, and no sets). */
	char g[4];          /* G0..G3 designations ('B' ASCII, '0' lines...) */
	int gl;             /* 0: G0 in GL (SI), 1: G1 (SO) */
	bool charsets_used; /* a set other than ASCII was designated */
	/* What text straight into the grid must know (vt.c, ascii_put): */
	bool irm; /* libvterm's insert mode (its SM reads the first argument only) */
	/* libvterm may put ASCII otherwise than as it is: a double-width
	 * line was set, or a mode by a CSI too long for csi[] */
	bool ascii_unsure;
	struct vt_saved {
		char g[4];
		int gl;
		bool origin, wrap;
		int row, col;
		struct vt_attr pen;
	} saved[2]; /* DECSC's, of the main and the alternate screen */

	vt_osc_fn *osc_fn;
	void *osc_data;
	bool clipboard;
	uint32_t default_fg, default_bg; /* 0xRRGGBB, for colour queries */
	uint32_t cursor_color;
	bool cursor_color_set;
};

/* Queue bytes for the program (bounded: dropped when the host lags). */
void vt_reply(struct vt *, const char *s, size_t len);

/* A CSI libvterm did not handle (leader and intermediates as strings,
 * args with -1 for a missing one): true if it was a report answered here. */
bool report_csi(struct vt *, const char *leader, const long *args, int argc, const char *inter, char command);
/* A DCS string (without ESC P and ST): true if answered here (DECRQSS
 * of SGR and DECSCL), false to leave it to libvterm. */
bool report_dcs(struct vt *, const char *s, size_t len);
bool report_osc_color(struct vt *, int num, const char *arg, size_t len);
/* DEC DSR (CSI ? Ps n) other than the cursor's: printer, keys, locator,
 * macros, integrity, sessions, all as a pane without such things. */
bool report_dec_dsr(struct vt *, long ps, long pid);
/* Primary and secondary device attributes, as xterm at the DECSCL level. */
void report_da(struct vt *, char leader);

/* vt-rect.c: rectangle editing, selective erase, DECBI/DECFI. */
struct vt_rect {
	int top, left, bottom, right; /* [top, bottom) x [left, right) of the screen */
};
/* args[first..first+3] as Pt;Pl;Pb;Pr, defaults the whole area, relative
 * to the margins and clipped to them in origin mode: false when empty. */
bool rect_parse(const struct vt *, const long *args, int argc, int first, struct vt_rect *);
/* DECFRA, DECERA, DECSERA, DECCRA, DECCARA, DECRARA, DECSACE (a CSI
 * libvterm left): true if it was one. */
bool rect_csi(struct vt *, const char *leader, const long *args, int argc, const char *inter, char command);
/* Erase cells [r0,r1) x [c0,c1) with the pen's background, but for the
 * cells with a flag of spare: VT_PROTECTED (DECSCA's, for DECSERA), and
 * VT_GUARDED (SPA's, for ED, EL, ECH and, as xterm, DECSED and DECSEL). */
void rect_erase(struct vt *, int r0, int r1, int c0, int c1, unsigned spare);
/* DCH n above or below the scrolling region, where xterm does it and
 * libvterm 0.1.4 does not: true if done here. */
bool rect_delete_chars(struct vt *, long n);
/* SPA (on) and EPA: what is put between is guarded. */
void rect_guard(struct vt *, bool on);
/* DECSCA Ps: 1 protects what is put from now on, 0 and 2 do not. */
void rect_protect(struct vt *, long ps);
/* DECBI (back) or DECFI (forward): at its margin the margins' contents
 * scroll; else the cursor moves by the column returned (-1, 0, 1). */
int rect_index(struct vt *, bool forward);

/* vt-move.c: CUU (A), CUD (B), CUF (C), CUB (D), CNL (E), CPL (F), CHA
 * (G) and HPA (`) in origin mode, with n (-1 missing) to
 * the screen position *row, *col xterm moves to: false if not one. */
bool move_csi(struct vt *, char final, long n, int *row, int *col);
/* The column CUB n (BS: 1) from col goes to. */
int move_back(const struct vt *, int col, int n);
/* With reverse wraparound (and DECAWM) on, where BS or CUB n go: back
 * past the left margin (or edge) to the previous row's right margin,
 * from the top margin to the bottom one; false when it is off. */
bool move_back_wrap(const struct vt *, int n, int *row, int *col);
/* DECSET or DECRESET of the modes in args: DECAWM and reverse wrap kept. */
void move_modes(struct vt *, const long *args, int argc, bool set);
/* A line feed (or RI, up) here neither scrolls nor moves: at the bottom
 * (top) margin, outside the left and right margins. */
bool move_index_held(const struct vt *, bool up);

/* vt-modes.c: XTSAVE and XTRESTORE of the DEC modes in args. */
void modes_save(struct vt *, const long *args, int argc);
void modes_restore(struct vt *, const long *args, int argc);
/* vt.c: DEC mode m as DECRQM answers it (1 set, 2 reset, 0 unknown), and
 * setting it with the sequence s as if the program had sent it. */
int vt_mode_get(struct vt *, long m);
void vt_mode_set(struct vt *, const char *s, size_t len, long m, bool set);

#endif
