/* pty: open, size, read and write a pseudo-terminal pair. */
#include "pty/pty.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static int pty_fail(struct pty *p, char *err, size_t errlen, const char *step)
{
	int e = errno;
	snprintf(err, errlen, "%s: %s", step, strerror(e));
	pty_close(p);
	errno = e;
	return -1;
}

int pty_open(struct pty *p, int rows, int cols, char *err, size_t errlen)
{
	p->master = p->slave = -1;
	p->name[0] = '\0';
	p->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (p->master < 0)
		return pty_fail(p, err, errlen, "posix_openpt");
	if (grantpt(p->master) < 0)
		return pty_fail(p, err, errlen, "grantpt");
	if (unlockpt(p->master) < 0)
		return pty_fail(p, err, errlen, "unlockpt");
	if (ptsname_r(p->master, p->name, sizeof p->name) != 0)
		return pty_fail(p, err, errlen, "ptsname");
	int fl = fcntl(p->master, F_GETFL);
	if (fl < 0 || fcntl(p->master, F_SETFL, fl | O_NONBLOCK) < 0)
		return pty_fail(p, err, errlen, "fcntl O_NONBLOCK");
	p->slave = open(p->name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (p->slave < 0)
		return pty_fail(p, err, errlen, p->name);
	if (pty_resize(p->master, rows, cols) < 0)
		return pty_fail(p, err, errlen, "TIOCSWINSZ");
	return 0;
}

int pty_resize(int master, int rows, int cols)
{
	struct winsize ws = { .ws_row = rows > 0 ? rows : 1, .ws_col = cols > 0 ? cols : 1 };
	return ioctl(master, TIOCSWINSZ, &ws);
}

ssize_t pty_read(int master, char *buf, size_t cap)
{
	for (;;) {
		ssize_t n = read(master, buf, cap);
		if (n > 0)
			return n;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		return -1; /* 0 or EIO: every slave fd is closed */
	}
}

ssize_t pty_write(int master, const char *buf, size_t len)
{
	for (;;) {
		ssize_t n = write(master, buf, len);
		if (n >= 0)
			return n;
		if (errno == EINTR)
			continue;
		return errno == EAGAIN ? 0 : -1;
	}
}

void pty_close_slave(struct pty *p)
{
	if (p->slave >= 0)
		close(p->slave);
	p->slave = -1;
}

void pty_close(struct pty *p)
{
	pty_close_slave(p);
	if (p->master >= 0)
		close(p->master);
	p->master = -1;
}
