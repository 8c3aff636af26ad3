/* pty.c: a pair opens with its size, the master never blocks, a resize is
 * seen on the slave side, and the end of the slave reads as -1. */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "pty/pty.h"
#include "unit.h"

static void test_pair(struct unit *u)
{
	struct pty p;
	char err[256] = "";
	if (!CHECK_INT(u, pty_open(&p, 24, 80, err, sizeof err), 0)) {
		fprintf(stderr, "pty_open: %s\n", err);
		return;
	}
	CHECK(u, p.master >= 0 && p.slave >= 0);
	CHECK(u, strncmp(p.name, "/dev/pts/", 9) == 0);
	CHECK(u, fcntl(p.master, F_GETFL) & O_NONBLOCK);
	CHECK(u, fcntl(p.master, F_GETFD) & FD_CLOEXEC);
	struct winsize ws;
	CHECK_INT(u, ioctl(p.slave, TIOCGWINSZ, &ws), 0);
	CHECK_INT(u, ws.ws_row, 24);
	CHECK_INT(u, ws.ws_col, 80);
	CHECK_INT(u, pty_resize(p.master, 50, 200), 0);
	CHECK_INT(u, ioctl(p.slave, TIOCGWINSZ, &ws), 0);
	CHECK_INT(u, ws.ws_row, 50);
	CHECK_INT(u, ws.ws_col, 200);

	char buf[64];
	CHECK_INT(u, pty_read(p.master, buf, sizeof buf), 0); /* nothing yet: no blocking */
	struct termios t;
	tcgetattr(p.slave, &t);
	cfmakeraw(&t);
	tcsetattr(p.slave, TCSANOW, &t);
	CHECK_INT(u, write(p.slave, "hello", 5), 5);
	ssize_t n = 0;
	for (int i = 0; i < 100 && n == 0; i++) {
		n = pty_read(p.master, buf, sizeof buf);
		if (n == 0)
			usleep(10000);
	}
	CHECK_INT(u, n, 5);
	CHECK(u, memcmp(buf, "hello", 5) == 0);
	CHECK_INT(u, pty_write(p.master, "in", 2), 2);
	n = read(p.slave, buf, sizeof buf);
	CHECK_INT(u, n, 2);

	pty_close_slave(&p);
	CHECK_INT(u, p.slave, -1);
	CHECK_INT(u, pty_read(p.master, buf, sizeof buf), -1); /* every writer gone */
	pty_close(&p);
	CHECK_INT(u, p.master, -1);
	pty_close(&p); /* twice is harmless */
}

int main(void)
{
	struct unit u = { 0 };
	test_pair(&u);
	return unit_done(&u, "test_vt_pty");
}
