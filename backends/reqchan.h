/* reqchan: the wire format of a pane's request channel (DESIGN.md
 * "Escalation": a descriptor that carries requests and nothing else).
 *
 * The launcher gives every process of a pane one end of a SOCK_SEQPACKET
 * socketpair as fd LAUNCH_REQUEST_FD, named by $SANDMUX_REQUEST_FD; the
 * server holds the other end. A message on it is one datagram:
 *
 *   "sandmux-request/1" NUL KIND NUL { TAG NUL VALUE NUL }...
 *
 * KIND is "request" (`sandmux request`) or "why" (`sandmux why`). The
 * tags of a request: "write" PATH, "read" PATH, "net" HOST[:PORT],
 * "reason" TEXT, "cwd" DIR, and "arg" ARG once per word of the command,
 * in order. With the datagram come descriptors (SCM_RIGHTS): first the
 * requester's end of a fresh socketpair of its own, on which the answer
 * comes back (nobody else in the pane can read it), then, for a request,
 * its stdin, stdout and stderr. The server never writes on the shared
 * channel.
 *
 * An answer is one datagram "sandmux-reply/1" NUL TYPE NUL TEXT NUL:
 * "exit" N (the command's status), "refused" WHY, "line" TEXT (one line
 * of `sandmux why`), "end". */
#ifndef REQCHAN_H
#define REQCHAN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define LAUNCH_REQUEST_FD 4
#define REQCHAN_ENV       "SANDMUX_REQUEST_FD"

#define REQCHAN_MAX_MSG    32768 /* one datagram */
#define REQCHAN_MAX_FIELD  4096  /* one value, its NUL excluded */
#define REQCHAN_MAX_ARGS   128
#define REQCHAN_MAX_GRANTS 8
#define REQCHAN_MAX_REASON 300
#define REQCHAN_FDS        4 /* reply socket, stdin, stdout, stderr */

enum reqchan_kind { REQCHAN_REQUEST, REQCHAN_WHY };
enum reqchan_grant { REQCHAN_WRITE, REQCHAN_READ, REQCHAN_NET };

struct reqchan_msg {
	enum reqchan_kind kind;
	struct {
		enum reqchan_grant kind;
		const char *value; /* points into the datagram */
	} grant[REQCHAN_MAX_GRANTS];
	int ngrants;
	const char *reason; /* NULL: none given */
	const char *cwd;    /* NULL: none given */
	const char *argv[REQCHAN_MAX_ARGS + 1];
	int argc;
};

/* Parses a datagram (buf[len - 1] must be its last NUL). A request needs
 * a command, an absolute cwd, absolute paths and plain host names; a
 * "why" takes no tags. 0, or -1 with one line naming the field and its
 * position in err. Pure: pointers into buf. */
int reqchan_parse(const char *buf, size_t len, struct reqchan_msg *, char *err, size_t errlen);
/* The datagram for m into buf: its length, or 0 when it does not fit or
 * would not parse (a too long field). */
size_t reqchan_build(const struct reqchan_msg *m, char *buf, size_t size);
/* The answer datagram of type and text into buf: its length, or 0. */
size_t reqchan_reply_build(const char *type, const char *text, char *buf, size_t size);
/* Parses an answer: its type and text (pointers into buf); -1 when it is
 * no answer. */
int reqchan_reply_parse(const char *buf, size_t len, const char **type, const char **text);
/* "write", "read", "net". */
const char *reqchan_grant_name(enum reqchan_grant);

/* Sends one datagram with up to REQCHAN_FDS descriptors, never waiting
 * (the server must not block on a socket a sandbox chose): 0 or -1
 * (errno; EAGAIN: no room now). */
int reqchan_send(int sock, const void *buf, size_t len, const int *fds, int nfds);
/* Receives one datagram into buf (size REQCHAN_MAX_MSG at least) and its
 * descriptors (close-on-exec; at most REQCHAN_FDS, more are a truncation)
 * and, when the socket has SO_PASSCRED, the sender's pid. Returns the
 * length, 0 at end of file, -1 with errno (EMSGSIZE: truncated, every fd
 * that came closed; EAGAIN: nothing there). */
ssize_t reqchan_recv(int sock, char *buf, size_t size, int *fds, int *nfds, pid_t *pid);
/* Sends an answer; errors ignored (the requester may be gone). */
void reqchan_reply(int sock, const char *type, const char *text);

#endif
