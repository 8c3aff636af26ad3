/* control: the session's JSON interface, for agent harnesses and scripts,
 * on the session's one socket (DESIGN.md "Shape": control socket).
 *
 * A subscriber (MSG_SUBSCRIBE, `sandmux events`) gets every denial as one
 * MSG_EVENT holding DESIGN.md's object, written by the same formatter as
 * denials.jsonl. Every event, not the coalesced list: the count in the
 * denials pane is for people, a harness wants each attempt. `ls --json`
 * describes the session.
 *
 * Read-only: nothing here answers a prompt or touches a policy (the
 * invariant: only a key from an attached client does that), and a
 * subscriber may send nothing after subscribing. A sandboxed program never
 * gets this far: the socket directory is masked in every sandbox and
 * client_accept() refuses sandboxed peers (peer.c).
 *
 * A subscriber that does not read must not stall the server or grow its
 * memory: once SUB_MAX bytes wait for it, events are only counted until
 * its queue has drained, then it reads {"dropped":N} and events resume. */
#include "shell/mux.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "backends/events.h"
#include "shell/escalate-queue.h"
#include "shell/proto.h"

#define SUB_MAX (256u << 10)

void control_subscribe(struct client *c, const char *p, size_t len)
{
	int32_t pane;
	if (len != sizeof pane || (memcpy(&pane, p, sizeof pane), pane < 0) || c->attached || c->subscribed) {
		server_log(c->srv, "client %d: malformed subscribe; dropped", c->fd);
		client_fail(c, "protocol error");
		return;
	}
	c->subscribed = true;
	c->sub_pane = pane;
	server_log(c->srv, "client %d subscribed to denials (pane %d, 0: all)", c->fd, (int)pane);
	int32_t ok = 0;
	client_send(c, MSG_REPLY, &ok, sizeof ok);
}

/* Drops once full, and keeps dropping until the queue has drained, so
 * that {"dropped":N} stands where the events were lost. */
static void sub_put(struct client *c, const char *json, size_t len)
{
	if (c->dropped > 0 || c->out.len + sizeof(struct msg_hdr) + len > SUB_MAX) {
		c->dropped++;
		return;
	}
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
	client_send(c, MSG_EVENT, line, strlen(line));
}

void control_publish(struct server *s, const struct denial *d)
{
	char *json = NULL;
	for (struct client *c = s->clients; c != NULL; c = c->next) {
		if (!c->subscribed || (c->sub_pane != 0 && c->sub_pane != d->pane))
			continue;
		if (json == NULL && (json = denial_to_json(d, false)) == NULL) {
			server_log(s, "denial event: out of memory");
			return;
		}
		sub_put(c, json, strlen(json));
	}
	free(json);
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
	pane_state_json(o, p);
	cJSON_AddNumberToObject(o, "denials", p->denials);
	cJSON_AddNumberToObject(o, "prompts", p->esc != NULL ? (double)p->esc->nq : 0);
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

static cJSON *session_json(const struct server *s)
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
	cJSON *o = session_json(s);
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
