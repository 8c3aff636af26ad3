/* run-tty: the terminal side of `sandmux run` when stdin is a terminal.
 * The command gets a PTY of its own (as sudo's use_pty does): it has a
 * working controlling terminal, and it is not the person's, so nothing it
 * does with its terminal (TIOCSTI, job control, a title) reaches the outer
 * one except as output bytes. */
#ifndef RUN_TTY_H
#define RUN_TTY_H

#include <stdbool.h>
#include <termios.h>

struct loop;
struct run_opts;
struct watch;

struct run_tty {
	int outer;            /* the person's terminal (stdin) */
	int to;               /* where the command's output goes (stdout) */
	int master, slave;    /* slave goes to the command; -1 when closed */
	struct termios saved; /* the outer terminal's modes, restored at the end */
	bool raw;
	struct watch *in, *out;
	char err[256];
};

/* Keeps the outer terminal's modes; with make_pty also opens a PTY pair
 * here (for an unsandboxed command), else the launcher makes it inside the
 * sandbox and run_tty_attach() takes its master. 0 or -1 with err. */
int run_tty_open(struct run_tty *, int outer, bool make_pty);
/* Takes the master of a PTY made elsewhere and gives it the outer
 * terminal's modes and size. */
void run_tty_attach(struct run_tty *, int master);
/* Puts the outer terminal in raw mode and starts relaying both ways. */
int run_tty_start(struct run_tty *, struct loop *);
/* Copies the outer terminal's size to the PTY (on SIGWINCH). */
void run_tty_resize(struct run_tty *);
/* Relays what the command wrote that is still buffered, then stops. */
void run_tty_drain(struct run_tty *);
/* Restores the outer terminal and closes everything. */
void run_tty_close(struct run_tty *);
/* The command's terminal in o: a PTY inside the sandbox, this one's
 * slave (unsandboxed), or without a terminal (use_tty false) stdio,
 * a terminal stdout or stderr reopened write-only; the caller closes
 * o->stdio[1..2] when they are above 2. */
void run_tty_opts(struct run_tty *, bool use_tty, bool sandboxed, struct run_opts *o);

#endif
