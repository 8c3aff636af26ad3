/* mode: what covers a client's whole screen and takes its keys for a
 * while — the help screen, the denials pane, the overview — as one
 * interface, as tmux's window_mode: a name, how it draws, what a key does
 * and how it ends. The client holds at most one (client->mode). */
#ifndef MODE_H
#define MODE_H

#include <stdbool.h>

#include "shell/mux.h"

struct client_mode {
	const char *name;
	/* the whole screen of the client */
	void (*draw)(struct client *);
	/* false: the mode ends with this key */
	bool (*key)(struct client *, const struct key *);
	/* optional: what to undo when it ends */
	void (*exit)(struct client *);
};

extern const struct client_mode mode_help;     /* shell/bindings.c */
extern const struct client_mode mode_overview; /* shell/overview.c */
extern const struct client_mode mode_denials;  /* shell/escalate-view.c */
extern const struct client_mode mode_captured; /* shell/captured-view.c */

/* The capture layer of pane `pane` (its id), in mode_captured. */
void captured_view_open(struct client *, int pane);

/* Puts the client in the mode (leaving the one it was in). */
void mode_enter(struct client *, const struct client_mode *);
void mode_leave(struct client *);
/* A key for the client's mode: true when a mode took it. */
bool mode_key(struct client *, const struct key *);
/* A list mode's selected row (c->mode_sel) kept among its n rows, and
 * its first row shown (c->mode_top) so that the selection is among the
 * page rows shown. */
void mode_clamp(struct client *, int n, int page);
/* Draws the client's mode, if any: true when it covered the screen. */
bool mode_draw(struct client *);

#endif
