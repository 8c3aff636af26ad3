/* control: events for agent harnesses and scripts, and the session as
 * JSON, on the session's one socket (DESIGN.md "Shape": control socket).
 *
 * A subscriber (MSG_SUBSCRIBE from `sandmux events`, or "subscribe" on the
 * control interface, ctl.c) gets every event as one JSON object with an
 * "event" field: "denial" (DESIGN.md's object, written by the same
 * formatter as denials.jsonl), "prompt", "answer", "exit", "attention",
 * "title" (a pane's title line as drawn changed).
 * Every denial, not the coalesced list: the count in the denials pane is
 * for people, a harness wants each attempt. `ls --json` describes the
 * session.
 *
 * Nothing here answers a prompt or touches a policy; a framed subscriber
 * may send nothing after subscribing. A sandboxed program never gets this
 * far: the socket directory is masked in every sandbox and client_accept()
 * refuses sandboxed peers (peer.c).
 *
 * A subscriber that does not read must not stall the server or grow its
 * memory: once SUB_MAX bytes wait for it, events are only counted until
 * its queue has drained, then it reads {"dropped":N} and events resume. */
#include "shell/mux.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "backends/events.h"
#include "backends/run.h"
#include "pty/vt.h"
#include "shell/escalate-queue.h"
#include "shell/proto.h"

#define SUB_MAX (256u << 10)

static const char *const event_kinds[] = { "denial", "prompt", "answer", "exit", "attention", "title" };

unsigned control_kinds_parse(const char *list)
{
	unsigned mask = 0;
	char buf[256];
	snprintf(buf, sizeof buf, "%s", list);
	for (char *save = NULL, *k = strtok_r(buf, ",", &save); k != NULL; k = strtok_r(NULL, ",", &save)) {
		size_t i = 0;
		while (i < sizeof event_kinds / sizeof event_kinds[0] && strcmp(k, event_kinds[i]) != 0)
			i++;
		if (i == sizeof event_kinds / sizeof event_kinds[0])
			return 0;
		mask |= 1u << i;
	}
	return mask;
}

static unsigned kind_bit(const char *kind)
{
	for (size_t i = 0; i < sizeof event_kinds / sizeof event_kinds[0]; i++)
		if (strcmp(kind, event_kinds[i]) == 0)
			return 1u << i;
	return 0;
}

/* The payload: int32 pane (0: all), then optionally a uint32 mask of
 * event kinds (bit i: event_kinds[i]; absent or 0: all). */
int control_subscribe(struct client *c, const char *p, size_t len)
{
	int32_t pane;
	uint32_t kinds = 0;
	if ((len != sizeof pane && len != sizeof pane + sizeof kinds) || (memcpy(&pane, p, sizeof pane), pane < 0) ||
	    c->attached || c->subscribed) {
		server_log(c->srv, "client %d: malformed subscribe; dropped", c->fd);
		return -1;
	}
	if (len > sizeof pane)
		memcpy(&kinds, p + sizeof pane, sizeof kinds);
	c->subscribed = true;
	c->sub_pane = pane;
	c->sub_kinds = kinds;
	server_log(c->srv, "client %d subscribed to events (pane %d, 0: all)", c->fd, (int)pane);
	int32_t ok = 0;
	client_send(c, MSG_REPLY, &ok, sizeof ok);
	return 0;
}

/* Drops once full, and keeps dropping until the queue has drained, so
 * that {"dropped":N} stands where the events were lost. */
static void sub_put(struct client *c, const char *json, size_t len)
{
	if (c->dropped > 0 || c->out.len + sizeof(struct msg_hdr) + len > SUB_MAX) {
		c->dropped++;
		return;
	}
	if (c->ctl)
		client_send_line(c, json);
	else
		client_send(c, MSG_EVENT, json, len);
}

void control_caught_up(struct client *c)
{
	if (!c->subscribed || c->dropped == 0 || c->out.len > 0)
		return;
	char line[64];
	snprintf(line, sizeof line, "{\"dropped\":%lu}", c->dropped);
	server_log(c->srv, "client %d: %lu denial event(s) dropped: it did not read", c->fd, c->dropped);
	c->dropped = 0;
	if (c->ctl)
		client_send_line(c, line);
	else
		client_send(c, MSG_EVENT, line, strlen(line));
}

static void publish(struct server *s, const char *kind, int pane, const char *json)
{
	unsigned bit = kind_bit(kind);
	for (struct client *c = s->clients; c != NULL; c = c->next)
		if (c->subscribed && (c->sub_pane == 0 || c->sub_pane == pane) &&
		    (c->sub_kinds == 0 || (c->sub_kinds & bit)))
			sub_put(c, json, strlen(json));
}

bool control_has_subscriber(const struct server *s)
{
	for (const struct client *c = s->clients; c != NULL; c = c->next)
		if (c->subscribed)
			return true;
	return false;
}

void control_event(struct server *s, const char *kind, int pane, cJSON *fields)
{
	if (!control_has_subscriber(s)) {
		cJSON_Delete(fields);
		return;
	}
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", kind);
	cJSON_AddNumberToObject(o, "pane", pane);
	for (cJSON *f = fields != NULL ? fields->child : NULL; f != NULL; f = f->next)
		cJSON_AddItemToObject(o, f->string, cJSON_Duplicate(f, true));
	cJSON_Delete(fields);
	char *json = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (json == NULL) {
		server_log(s, "%s event: out of memory", kind);
		return;
	}
	publish(s, kind, pane, json);
	free(json);
}

/* The denial is DESIGN.md's object as denials.jsonl has it, with the
 * "event" field put in front of its first key. */
void control_publish(struct server *s, const struct denial *d)
{
	if (!control_has_subscriber(s))
		return;
	char *json = denial_to_json(d, false);
	struct buf line = { 0 };
	if (json == NULL || json[0] != '{' || !buf_addstr(&line, "{\"event\":\"denial\",") ||
	    !buf_addstr(&line, json + 1) || !buf_add(&line, "", 1)) {
		server_log(s, "denial event: out of memory");
		free(json);
		buf_free(&line);
		return;
	}
	publish(s, "denial", d->pane, buf_data(&line));
	free(json);
	buf_free(&line);
}

static cJSON *prompt_json(const struct pane *p, const struct esc_prompt *q)
{
	cJSON *o = cJSON_CreateObject();
	char id[32], offer[4200];
	snprintf(id, sizeof id, "%d.%u", p->id, q->seq);
	cJSON_AddStringToObject(o, "id", id);
	cJSON_AddStringToObject(o, "op", q->d.op);
	cJSON_AddStringToObject(o, "target", q->d.target != NULL ? q->d.target : "");
	cJSON_AddStringToObject(o, "comm", q->d.comm);
	if (suggest_format(&q->d.suggest, offer, sizeof offer) > 0)
		cJSON_AddStringToObject(o, "offer", offer);
	if (q->cmd != NULL)
		cJSON_AddStringToObject(o, "rerun", q->cmd);
	return o;
}

void control_prompt_event(struct server *s, const struct pane *p)
{
	if (control_has_subscriber(s) && esc_pending(p->esc))
		control_event(s, "prompt", p->id, prompt_json(p, &p->esc->q[p->esc->nq - 1]));
}

void control_answer_event(struct server *s, const struct pane *p, unsigned seq, const char *scope,
			  const struct suggestion *given)
{
	if (!control_has_subscriber(s))
		return;
	cJSON *o = cJSON_CreateObject();
	char id[32], text[4200];
	snprintf(id, sizeof id, "%d.%u", p->id, seq);
	cJSON_AddStringToObject(o, "prompt", id);
	cJSON_AddStringToObject(o, "scope", scope);
	if (given != NULL && suggest_format(given, text, sizeof text) > 0)
		cJSON_AddStringToObject(o, "granted", text);
	control_event(s, "answer", p->id, o);
}

/* "running", or how it ended: the words of the title (pane_title). */
static void pane_state_json(cJSON *o, const struct pane *p)
{
	static const char *const names[] = {
		[PANE_RUNNING] = "running",
		[PANE_EXITED] = "exited",
		[PANE_KILLED] = "killed",
		[PANE_FAILED] = "failed",
	};
	cJSON_AddStringToObject(o, "state", names[p->state]);
	if (p->state == PANE_EXITED)
		cJSON_AddNumberToObject(o, "exit", p->status);
	else if (p->state == PANE_KILLED)
		cJSON_AddNumberToObject(o, "signal", p->status);
}

static cJSON *pane_json(const struct pane *p)
{
	cJSON *o = cJSON_CreateObject();
	if (o == NULL)
		return NULL;
	cJSON_AddNumberToObject(o, "id", p->id);
	cJSON_AddStringToObject(o, "name", p->name);
	cJSON_AddStringToObject(o, "profile", p->profile);
	char layers[200];
	run_layers(p->run, layers, sizeof layers); /* what holds the sandbox: "" when nothing started */
	cJSON_AddStringToObject(o, "layers", layers);
	pane_state_json(o, p);
	cJSON_AddNumberToObject(o, "denials", p->denials);
	cJSON_AddNumberToObject(o, "prompts", p->esc != NULL ? (double)p->esc->nq : 0);
	/* denials that found ESC_QUEUE_MAX prompts waiting: no prompt of their own */
	cJSON_AddNumberToObject(o, "prompts_not_queued", p->esc != NULL ? (double)p->esc->not_queued : 0);
	/* prompts dropped as stale: their process trees gone, the pane moved on */
	cJSON_AddNumberToObject(o, "prompts_dropped", p->esc != NULL ? (double)p->esc->dropped : 0);
	cJSON *waiting = cJSON_AddArrayToObject(o, "waiting");
	for (size_t i = 0; p->esc != NULL && i < p->esc->nq; i++)
		cJSON_AddItemToArray(waiting, prompt_json(p, &p->esc->q[i]));
	/* shell integration look-alikes a program printed (forged or out of place) */
	cJSON_AddNumberToObject(o, "reports_ignored", p->esc != NULL ? (double)p->esc->gate.ignored : 0);
	cJSON_AddBoolToObject(o, "active", p == p->win->active);
	return o;
}

static cJSON *window_json(const struct server *s, const struct window *w)
{
	cJSON *o = cJSON_CreateObject(), *panes = cJSON_CreateArray();
	if (o == NULL || panes == NULL) {
		cJSON_Delete(o);
		cJSON_Delete(panes);
		return NULL;
	}
	cJSON_AddNumberToObject(o, "index", w->index);
	cJSON_AddStringToObject(o, "name", w->name);
	cJSON_AddBoolToObject(o, "active", w == s->cur);
	for (const struct pane *p = w->panes; p != NULL; p = p->next)
		cJSON_AddItemToArray(panes, pane_json(p));
	cJSON_AddItemToObject(o, "panes", panes);
	return o;
}

cJSON *control_session_json(const struct server *s)
{
	cJSON *o = cJSON_CreateObject(), *wins = cJSON_CreateArray();
	if (o == NULL || wins == NULL) {
		cJSON_Delete(o);
		cJSON_Delete(wins);
		return NULL;
	}
	int clients = 0, subscribers = 0;
	for (const struct client *c = s->clients; c != NULL; c = c->next) {
		clients += c->attached;
		subscribers += c->subscribed;
	}
	cJSON_AddStringToObject(o, "name", s->name);
	cJSON_AddStringToObject(o, "workspace", s->workspace);
	cJSON_AddStringToObject(o, "profile", s->profile);
	cJSON_AddNumberToObject(o, "clients", clients);
	cJSON_AddNumberToObject(o, "subscribers", subscribers);
	for (const struct window *w = s->windows; w != NULL; w = w->next)
		cJSON_AddItemToArray(wins, window_json(s, w));
	cJSON_AddItemToObject(o, "windows", wins);
	return o;
}

int control_ls(struct server *s, struct buf *out)
{
	cJSON *o = control_session_json(s);
	char *text = o != NULL ? cJSON_PrintUnformatted(o) : NULL;
	cJSON_Delete(o);
	if (text == NULL) {
		buf_addstr(out, "sandmux: out of memory\n");
		return 1;
	}
	buf_addstr(out, text);
	free(text);
	return 0;
}
