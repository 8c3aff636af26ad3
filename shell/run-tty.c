/* run-tty: see run-tty.h. */
#include "shell/run-tty.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "backends/loop.h"
#include "backends/run.h"

int run_tty_open(struct run_tty *t, int outer, bool make_pty)
{
	memset(t, 0, sizeof *t);
	t->outer = outer;
	t->to = STDOUT_FILENO;
	t->slave = t->master = -1;
	if (tcgetattr(outer, &t->saved) < 0) {
		snprintf(t->err, sizeof t->err, "pty: read the terminal's modes: %s", strerror(errno));
		return -1;
	}
	if (!make_pty)
		return 0;
	t->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (t->master < 0 || grantpt(t->master) < 0 || unlockpt(t->master) < 0) {
		snprintf(t->err, sizeof t->err, "pty: open: %s", strerror(errno));
		return -1;
	}
	const char *name = ptsname(t->master);
	t->slave = name ? open(name, O_RDWR | O_NOCTTY | O_CLOEXEC) : -1;
	if (t->slave < 0) {
		snprintf(t->err, sizeof t->err, "pty: open the slave: %s", strerror(errno));
		return -1;
	}
	tcsetattr(t->slave, TCSANOW, &t->saved);
	run_tty_resize(t);
	return 0;
}

void run_tty_attach(struct run_tty *t, int master)
{
	t->master = master;
	/* A PTY pair shares its modes: setting them on the master sets the
	 * slave's that the command sees. */
	tcsetattr(master, TCSANOW, &t->saved);
	run_tty_resize(t);
}

void run_tty_resize(struct run_tty *t)
{
	struct winsize ws;
	if (ioctl(t->outer, TIOCGWINSZ, &ws) == 0)
		ioctl(t->master, TIOCSWINSZ, &ws);
}

/* Writes all of buf, waiting when the fd is full: the relay has no other
 * work that could go on meanwhile. */
static int run_tty_write_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && (errno == EINTR || errno == EAGAIN)) {
			struct pollfd p = { fd, POLLOUT, 0 };
			poll(&p, 1, 100);
			continue;
		}
		if (w < 0)
			return -1;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* 1: relayed something; 0: end of file or the PTY hung up; -1 error. */
static int run_tty_copy(int from, int to)
{
	char buf[16384];
	ssize_t n = read(from, buf, sizeof buf);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (n <= 0)
		return n == 0 || errno == EIO ? 0 : -1;
	return run_tty_write_all(to, buf, (size_t)n) < 0 ? -1 : 1;
}

static void run_tty_on_outer(struct watch *w, int events, void *arg)
{
	struct run_tty *t = arg;
	(void)events;
	if (run_tty_copy(t->outer, t->master) <= 0) {
		watch_del(w);
		t->in = NULL;
	}
}

static void run_tty_on_master(struct watch *w, int events, void *arg)
{
	struct run_tty *t = arg;
	(void)events;
	if (run_tty_copy(t->master, t->to) <= 0) {
		watch_del(w);
		t->out = NULL;
	}
}

int run_tty_start(struct run_tty *t, struct loop *loop)
{
	/* In the background (`sandmux run cmd &`), touching the terminal's
	 * modes or reading it would stop us (SIGTTOU, SIGTTIN): relay output
	 * only, as the shell's own background jobs do. */
	bool fg = tcgetpgrp(t->outer) == getpgrp();
	struct termios raw = t->saved;
	cfmakeraw(&raw);
	if (fg && tcsetattr(t->outer, TCSAFLUSH, &raw) == 0)
		t->raw = true;
	fcntl(t->master, F_SETFL, fcntl(t->master, F_GETFL) | O_NONBLOCK);
	if (fg)
		t->in = watch_add(loop, t->outer, LOOP_IN, run_tty_on_outer, t);
	t->out = watch_add(loop, t->master, LOOP_IN, run_tty_on_master, t);
	if ((fg && t->in == NULL) || t->out == NULL) {
		snprintf(t->err, sizeof t->err, "pty: watch: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void run_tty_drain(struct run_tty *t)
{
	/* The sandbox is gone (its pid namespace with it), so the slave is
	 * closed everywhere and a read ends in EIO once the buffer is empty.
	 * Bounded all the same. */
	for (int i = 0; i < 1024; i++) {
		struct pollfd p = { t->master, POLLIN, 0 };
		if (poll(&p, 1, 50) <= 0 || run_tty_copy(t->master, t->to) <= 0)
			break;
	}
}

void run_tty_close(struct run_tty *t)
{
	if (t->in)
		watch_del(t->in);
	if (t->out)
		watch_del(t->out);
	t->in = t->out = NULL;
	if (t->raw)
		tcsetattr(t->outer, TCSAFLUSH, &t->saved);
	t->raw = false;
	if (t->slave >= 0)
		close(t->slave);
	if (t->master >= 0)
		close(t->master);
	t->slave = t->master = -1;
}

/* A sandboxed command's PTY is made inside (its own devpts). Without a
 * PTY, a stdout or stderr that is the person's terminal would usually be
 * open read-write (shells open the tty once): the command could read the
 * person's keystrokes through it. It gets a write-only open of the same
 * terminal instead. */
void run_tty_opts(struct run_tty *t, bool use_tty, bool sandboxed, struct run_opts *o)
{
	if (use_tty && sandboxed) {
		o->want_pty = true;
		/* its modes and size from the start: the command may ask for
		 * them before this process has the master (run_tty_attach) */
		o->pty_like = t->outer;
	} else if (use_tty)
		o->tty = t->slave;
	for (int fd = 1; fd < 3 && !use_tty; fd++) {
		char path[32];
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		if (isatty(fd) && (fcntl(fd, F_GETFL) & O_ACCMODE) != O_WRONLY)
			o->stdio[fd] = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	}
}
