/* unixsock / unixdiag: what can be checked without a sandbox. unix_diag in
 * our own namespace finds a socket bound to a file (and nothing for a
 * plain file); our own namespaces are refused as a sandbox's (EXDEV, and
 * no socket counts as held by a sandbox sharing our pid namespace); the
 * kernel has what the takeover needs. The takeover itself runs in
 * tests/sandbox/unixsock.sh. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "backends/unixdiag.h"
#include "backends/unixsock.h"
#include "tests/unit/unit.h"

static void test_bound(struct unit *u, const char *dir)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	snprintf(a.sun_path, sizeof a.sun_path, "%s/s", dir);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	CHECK_INT(u, bind(s, (struct sockaddr *)&a, sizeof a), 0);
	struct stat file, sock, plain;
	CHECK_INT(u, stat(a.sun_path, &file), 0);
	CHECK_INT(u, fstat(s, &sock), 0);
	int diag = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, 4 /* NETLINK_SOCK_DIAG */);
	CHECK(u, diag >= 0);
	uint32_t ino = 0;
	CHECK_INT(u, unixdiag_bound(diag, &file, &ino), 1);
	CHECK_INT(u, ino, sock.st_ino);
	char p[200];
	snprintf(p, sizeof p, "%s/plain", dir);
	close(open(p, O_CREAT | O_WRONLY, 0600));
	CHECK_INT(u, stat(p, &plain), 0);
	CHECK_INT(u, unixdiag_bound(diag, &plain, &ino), 0);
	/* Our own pid namespace is no sandbox's: nothing counts as held. */
	CHECK(u, !unixdiag_held(getpid(), (uint32_t)sock.st_ino));
	close(s);
	CHECK_INT(u, unixdiag_bound(diag, &file, &ino), 0); /* closed: the file stays, unbound */
	/* The same query twice in a row reads each dump whole. */
	CHECK_INT(u, unixdiag_bound(diag, &file, &ino), 0);
	close(diag);
	unlink(a.sun_path);
	unlink(p);
}

static void test_own_namespace(struct unit *u)
{
	errno = 0;
	CHECK_INT(u, unixdiag_open(getpid()), -1);
	CHECK_INT(u, errno, EXDEV);
}

static void test_probe(struct unit *u)
{
	char msg[256];
	CHECK_INT(u, unixsock_probe(msg, sizeof msg), 0);
	CHECK(u, strstr(msg, "unreachable") != NULL);
}

int main(void)
{
	struct unit u = { 0 };
	char dir[] = "/tmp/test_unixsock.XXXXXX";
	if (mkdtemp(dir) == NULL)
		return 1;
	test_bound(&u, dir);
	test_own_namespace(&u);
	test_probe(&u);
	rmdir(dir);
	return unit_done(&u, "test_unixsock");
}
