/* pty: a pseudo-terminal pair for one pane. The master stays in the
 * server (non-blocking, close-on-exec); the slave goes to the launcher
 * (struct launch.tty), which makes it the sandboxed child's controlling
 * terminal. Resizing the master (TIOCSWINSZ) makes the kernel send
 * SIGWINCH to the foreground process group of the slave. */
#ifndef PTY_H
#define PTY_H

#include <stddef.h>
#include <sys/types.h>

struct pty {
	int master; /* -1 when closed */
	int slave;  /* -1 once handed over or closed */
	char name[64];
};

/* Open a pair sized rows x cols. -1 with err filled ("posix_openpt: ..."). */
int pty_open(struct pty *, int rows, int cols, char *err, size_t errlen);
/* Set the size the program sees; it gets SIGWINCH. 0, or -1 with errno. */
int pty_resize(int master, int rows, int cols);
/* Read what the program wrote, at most cap bytes (callers bound it per
 * loop turn so a flooding pane cannot starve the others). Returns the
 * count, 0 when nothing is there now (EAGAIN), -1 at end: the slave side
 * is closed (EIO) or a real error. */
ssize_t pty_read(int master, char *buf, size_t cap);
/* Write input for the program; returns bytes taken (may be short when the
 * program does not read), -1 on error. */
ssize_t pty_write(int master, const char *buf, size_t len);
/* Close the slave in the server once the child has it. */
void pty_close_slave(struct pty *);
void pty_close(struct pty *);

#endif
