/* chan: the launcher's child-to-parent messages over a SOCK_SEQPACKET
 * pair. One datagram per message, so a message is never split. */
#ifndef CHAN_H
#define CHAN_H

struct chan_msg {
	char type;      /* 'E' error, 'F' fds, 'L' the observer's listener */
	char text[512]; /* 'E': "STEP: what: strerror" */
	int notify_fd;  /* 'F': -1 when not passed */
	int proxy_fd;
	int pty_fd;
	int port;
	int listener; /* 'L': its fd number in the child */
};

/* Sends "WHAT: WHY" (or WHAT alone when why is NULL). Async-signal-safe
 * enough for a forked child: no allocation. */
void chan_send_err(int fd, const char *what, const char *why);
/* Any of the fds may be -1 (not passed). */
int chan_send_fds(int fd, int notify_fd, int proxy_fd, int pty_fd, int port);
/* The observer's listener, by number: the parent takes it with
 * pidfd_getfd. Sent with send(), which the observer never holds (a
 * sendmsg would wait for an answer from the parent, which cannot answer
 * before it has the listener). */
int chan_send_listener(int fd, int listener);
/* 1: a message; 0: end of file; -1: error. */
int chan_recv(int fd, struct chan_msg *);
/* The parent's one-byte answer to 'L' ('A' taken, 'X' not), and the
 * child's wait for it: the byte, or -1. */
int chan_reply(int fd, char answer);
int chan_wait_reply(int fd);

struct seccomp_prog;
/* The parent's 'S': the seccomp filters it compiled (backends/sandbox.h),
 * the deny list and the observer's (len 0: none), in one datagram. */
int chan_send_filters(int fd, const struct seccomp_prog *deny, const struct seccomp_prog *notify);
/* The child's wait for 'S': 0 with both filled (into one allocation, at
 * deny->insn), or -1. */
int chan_recv_filters(int fd, struct seccomp_prog *deny, struct seccomp_prog *notify);

#endif
