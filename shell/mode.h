/* mode: what takes a client's keys for a while, or a pane's, as one
 * interface as tmux's window_mode: a name, what a key (and the mouse)
 * does, how it draws, its mark in the title, how it ends.
 *
 * A client's mode covers its whole screen (the help screen, the denials
 * pane, the overview), shows in its status line (the prompt) or over a
 * pane (the sandbox prompt, drawn by escalate_draw_prompts()); the client
 * holds one (client->mode) and, under it, at most one mode that lets
 * keys through (client->mode_under): what those keys open (copy mode's
 * search, a bound command's prompt) goes over it, and it comes back when
 * that ends, as tmux's pane modes stack. A pane's mode changes what
 * the pane shows and takes the keys typed at it (copy mode); the pane
 * holds at most one (pane->mode, with its state in pane->mode_data), and
 * keeps it while the focus is elsewhere. The lower files (pane.c,
 * redraw.c) only call through these pointers, never a mode's file.
 *
 * Both kinds say the same things the same way: key() tells whether the
 * mode took the key (false: it goes on to the bindings and the pane), and
 * a mode ends itself (mode_leave(), or its pane's exit) when a key ends
 * it; exit() frees what it holds. */
#ifndef MODE_H
#define MODE_H

#include <stdbool.h>

#include "shell/mux.h"

struct client_mode {
	const char *name;
	/* the whole screen of the client; NULL: it shows in the status line */
	void (*draw)(struct client *);
	/* the status line, the cursor after it (the prompt) */
	const char *(*status)(const struct client *, char *line, size_t size);
	/* whether the mode took the key; the key that ends it calls mode_leave() */
	bool (*key)(struct client *, const struct key *);
	/* optional: what to undo when it ends */
	void (*exit)(struct client *);
	/* it lets keys through, and stays under a mode they open */
	bool under;
};

struct pane_mode {
	const char *name;
	const char *title; /* the mark in the pane's title line */
	/* a key typed at the pane: whether the mode took it (it may end itself) */
	bool (*key)(struct client *, struct pane *, const struct key *);
	/* the mouse wheel over the pane: dir 1 up, -1 down */
	void (*wheel)(struct client *, struct pane *, int dir);
	/* how the pane is drawn: lines scrolled up, the cursor, the selection */
	void (*view)(const struct pane *, int *scroll, int *cy, int *cx, struct ui_sel *);
	/* frees its state, without drawing (pane_free calls it too) */
	void (*exit)(struct pane *);
};

extern const struct client_mode mode_help;     /* shell/cmd-server.c */
extern const struct client_mode mode_overview; /* shell/overview.c */
extern const struct client_mode mode_denials;  /* shell/escalate-view.c */
extern const struct client_mode mode_captured; /* shell/captured-view.c */

/* The capture layer of pane `pane` (its id), in mode_captured. */
void captured_view_open(struct client *, int pane);
extern const struct client_mode mode_prompt;  /* shell/status-prompt.c */
extern const struct client_mode mode_sandbox; /* shell/escalate-view.c */
extern const struct pane_mode mode_copy;      /* shell/copy.c */

/* Puts the client in the mode, leaving the one it was in unless that one
 * stays under it (mode->under). */
void mode_enter(struct client *, const struct client_mode *);
/* Leaves the client's mode; the one under it, if any, takes the keys. */
void mode_leave(struct client *);
/* Ends the mode m wherever it is, on top or under another. */
void mode_end(struct client *, const struct client_mode *m);
/* A key for the client's mode: true when a mode took it. */
bool mode_key(struct client *, const struct key *);
/* A list mode's selected row (c->mode_sel) kept among its n rows, and
 * its first row shown (c->mode_top) so that the selection is among the
 * page rows shown. */
void mode_clamp(struct client *, int n, int page);
/* Draws the client's mode, if any: true when it covered the screen. */
bool mode_draw(struct client *);

/* status-prompt.c: opens the prompt with a label; Enter gives done what
 * was typed (Escape and C-c give nothing). */
void prompt_open(struct client *, const char *label, void (*done)(struct client *, const char *text));
/* A y/n question: y calls yes(arg); any other key closes it. */
void prompt_confirm(struct client *, const char *question, void (*yes)(struct client *, int), int arg);

#endif
