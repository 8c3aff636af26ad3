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

	bool str_dcs; /* the string being held is a DCS, not an OSC */
	int level;    /* DECSCL conformance level, 1 (VT100) to 5 */
	/* libvterm's modes and margins, read back from it after each
	 * sequence that may change them (0.1.4 has no getters). */
	bool origin, lrmm, insert, newline;
	int mtop, mbottom, mleft, mright; /* [top, bottom) x [left, right) */
	/* What DECSC saves beyond what libvterm 0.1.4 saves. */
	char g[4];          /* G0..G3 designations ('B' ASCII, '0' lines...) */
	int gl;             /* 0: G0 in GL (SI), 1: G1 (SO) */
	bool charsets_used; /* a set other than ASCII was designated */
	struct vt_saved {
		char g[4];
		int gl;
		bool origin, wrap;
	} saved;

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

#endif
