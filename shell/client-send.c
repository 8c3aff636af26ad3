/* client-send: what the server queues for a client — framed messages,
 * the control interface's lines — and whether it has fallen behind. The
 * lowest part of a client: the event and drawing files send through it
 * without reaching the rest of the server (server-client.c). */
#include "shell/mux.h"

#include "backends/loop.h"
#include "shell/proto.h"

#define OUT_HIGH (4u << 20) /* a client this far behind gets no new frames */

/* LOOP_IN, unless a control client has said all it will say, or has not
 * read the answers it has: then its requests wait in the socket (ctl.c
 * stops at the same mark), so a client that asks and never reads cannot
 * grow the server. */
int client_reading(const struct client *c)
{
	return c->ctl_eof || (c->ctl && client_behind(c)) ? 0 : LOOP_IN;
}

void client_send(struct client *c, int type, const void *data, size_t len)
{
	proto_put(&c->out, (enum msg_type)type, data, len);
	watch_set(c->w, client_reading(c) | LOOP_OUT);
}

void client_send_line(struct client *c, const char *text)
{
	buf_addstr(&c->out, text);
	buf_add(&c->out, "\n", 1);
	watch_set(c->w, client_reading(c) | LOOP_OUT);
}

bool client_behind(const struct client *c)
{
	return c->out.len > OUT_HIGH;
}
