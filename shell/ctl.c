/* ctl: the control interface, JSON lines on the session's socket for agent
 * harnesses and scripts (`sandmux ctl`, README "Control interface").
 *
 * A connection whose first byte is `{` speaks it (the framed protocol of
 * proto.h starts with a small binary type, never that byte): one request
 * a line, one response a line with the request's "id", and after
 * "subscribe" one event a line (control.c). A malformed or unknown request
 * gets an error naming the field, an oversized line is refused and skipped
 * to its end; the connection stays usable either way.
 *
 * The socket is the person's channel: only their own processes outside
 * every sandbox reach it (peer.c, the masked socket directory), so
 * "answer" here is as good as a keypress in an attached client. Nothing
 * inside a pane can get this far. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "shell/command.h"

#define CTL_LINE_MAX (64u << 10)

struct req {
	struct client *c;
	cJSON *o;
	cJSON *id; /* a copy of the request's, or null */
};

/* Sends one object as a line; takes it. */
static void ctl_send(struct client *c, cJSON *o)
{
	char *text = o != NULL ? cJSON_PrintUnformatted(o) : NULL;
	cJSON_Delete(o);
	if (text == NULL) {
		client_send_line(c, "{\"error\":\"out of memory\"}");
		return;
	}
	client_send_line(c, text);
	free(text);
}

static cJSON *reply_new(const struct req *r)
{
	cJSON *o = cJSON_CreateObject();
	if (o != NULL && r->id != NULL)
		cJSON_AddItemToObject(o, "id", cJSON_Duplicate(r->id, true));
	return o;
}

/* {"id":..,"error":"FIELD: WHY","field":"FIELD"}; returns -1. */
static int fail(const struct req *r, const char *field, const char *why)
{
	cJSON *o = reply_new(r);
	char text[512];
	snprintf(text, sizeof text, "%s%s%s", field != NULL ? field : "", field != NULL ? ": " : "", why);
	cJSON_AddStringToObject(o, "error", text);
	if (field != NULL)
		cJSON_AddStringToObject(o, "field", field);
	ctl_send(r->c, o);
	return -1;
}

static void done(const struct req *r, cJSON *o)
{
	if (o == NULL)
		o = reply_new(r);
	cJSON_AddBoolToObject(o, "ok", true);
	ctl_send(r->c, o);
}

/* A verb of the command table (command.h), its fields parsed by the
 * entry's argument spec. */
static void ctl_dispatch(const struct req *r, const char *verb)
{
	char field[32], err[256];
	cJSON *o = reply_new(r);
	if (cmd_run_json(r->c, verb, r->o, o, field, sizeof field, err, sizeof err) == 0) {
		done(r, o);
		return;
	}
	cJSON_Delete(o);
	fail(r, field[0] != 0 ? field : NULL, err);
}

static void ctl_request(struct client *c, const char *line, size_t len)
{
	struct req r = { .c = c };
	const char *end = NULL;
	r.o = cJSON_ParseWithLengthOpts(line, len, &end, false);
	if (r.o == NULL) {
		char why[80];
		snprintf(why, sizeof why, "not JSON (at byte %zu)",
			 end != NULL && end >= line ? (size_t)(end - line) : 0);
		fail(&r, NULL, why);
		return;
	}
	if (!cJSON_IsObject(r.o)) {
		fail(&r, NULL, "a request is one JSON object");
		cJSON_Delete(r.o);
		return;
	}
	r.id = cJSON_GetObjectItemCaseSensitive(r.o, "id");
	cJSON *verb = cJSON_GetObjectItemCaseSensitive(r.o, "verb");
	if (cJSON_GetObjectItemCaseSensitive(r.o, "hello") != NULL && verb == NULL)
		ctl_dispatch(&r, "hello");
	else if (!cJSON_IsString(verb))
		fail(&r, "verb", verb == NULL ? "missing" : "must be a string");
	else
		ctl_dispatch(&r, verb->valuestring);
	cJSON_Delete(r.o);
}

void ctl_input(struct client *c)
{
	struct server *s = c->srv;
	while (c->in.len > 0 && !client_behind(c)) { /* the rest waits for it to read (client_flush) */
		char *nl = memchr(buf_data(&c->in), '\n', c->in.len);
		if (c->ctl_skip) { /* the rest of a refused line */
			c->ctl_skip = nl == NULL;
			buf_drop(&c->in, nl != NULL ? (size_t)(nl - buf_data(&c->in)) + 1 : c->in.len);
			continue;
		}
		size_t len = nl != NULL ? (size_t)(nl - buf_data(&c->in)) : c->in.len;
		if (len > CTL_LINE_MAX) {
			struct req r = { .c = c };
			fail(&r, NULL, "line too long (at most 65536 bytes a request)");
			c->ctl_skip = true;
			continue;
		}
		if (nl == NULL)
			return; /* the rest of the line is on its way */
		if (len > 0)
			ctl_request(c, buf_data(&c->in), len);
		if (!client_alive(s, c))
			return;
		buf_drop(&c->in, len + 1);
	}
}
