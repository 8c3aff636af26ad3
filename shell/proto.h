/* proto: the messages between a client and the server on the session's
 * unix socket. Each is a header (type, payload length, both uint32 in host
 * order: the peers are the same binary on the same machine) and a payload.
 * A message of unknown type or longer than MSG_MAX drops the client. */
#ifndef PROTO_H
#define PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "policy/buf.h"

#define MSG_MAX          (1u << 20)
#define PROTO_VERSION    2
#define COMMAND_ARGS_MAX 1024 /* strings in one MSG_COMMAND (a wall of panes in one `new`) */

enum msg_type {
	/* client -> server */
	MSG_HELLO = 1, /* struct msg_hello, then "TERM\0PROFILE\0": attach */
	MSG_INPUT,     /* bytes typed */
	MSG_RESIZE,    /* struct msg_size */
	MSG_COMMAND,   /* "CWD\0ARG0\0ARG1\0...": a verb without a terminal */
	MSG_SUBSCRIBE, /* int32 pane (0: all): denial events until either side goes (shell/control.c) */
	MSG_COLORS,    /* struct msg_colors: the attached terminal's own colours (shell/term-colors.h) */
	MSG_TTY_INPUT, /* empty: the client stopped reading its terminal; read the one it passed */
	/* server -> client */
	MSG_OUTPUT = 64, /* bytes to write to the terminal */
	MSG_EXIT,        /* text: why the client should exit ("detached") */
	MSG_REPLY,       /* int32 status, then text to print; for MSG_SUBSCRIBE: accepted */
	MSG_EVENT,       /* one JSON object, no newline (shell/control.c) */
};

struct msg_size {
	int32_t rows, cols;
};

struct msg_hello {
	uint32_t version;
	struct msg_size size;
};

struct msg_colors {
	uint32_t known;  /* bit i: rgb[i] is the terminal's (TERM_FG, TERM_BG, TERM_CURSOR) */
	uint32_t rgb[3]; /* 0xRRGGBB */
};

struct msg_hdr {
	uint32_t type, len;
};

/* Appends a framed message to out. */
void proto_put(struct buf *out, enum msg_type, const void *payload, size_t len);
/* If `in` starts with a whole message: its header and payload pointer,
 * returns 1; 0 when more bytes are needed; -1 when it is malformed. */
int proto_get(const struct buf *in, struct msg_hdr *, const char **payload);
/* Splits a NUL-separated payload into at most max strings; returns count
 * or -1 when the last one is not terminated. */
int proto_strings(const char *p, size_t len, const char **out, int max);

#endif
