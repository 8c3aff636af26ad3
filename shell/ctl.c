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
#include "shell/mux.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "pty/utf8.h"
#include "pty/vt.h"
#include "shell/escalate-queue.h"
#include "shell/escalate.h"
#include "shell/keys.h"

#define CTL_LINE_MAX  (64u << 10)
#define CTL_VERSION   1
#define CAPTURE_LINES 100000

struct req {
	struct client *c;
	cJSON *o;
	cJSON *id; /* a copy of the request's, or null */
};

static const char *const ctl_verbs[] = {
	"hello",  "list",      "new-pane", "send-keys", "send-text", "capture",
	"resize", "kill-pane", "select",   "subscribe", "answer",
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

/* An optional string field: NULL when absent; -1 after an error when it
 * is not a string. */
static int opt_string(const struct req *r, const char *field, const char **out)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(r->o, field);
	*out = NULL;
	if (v == NULL)
		return 0;
	if (!cJSON_IsString(v))
		return fail(r, field, "must be a string");
	*out = v->valuestring;
	return 0;
}

static int opt_int(const struct req *r, const char *field, int lo, int hi, int *out)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(r->o, field);
	if (v == NULL)
		return 0;
	if (!cJSON_IsNumber(v) || v->valuedouble != (double)(int)v->valuedouble || v->valueint < lo ||
	    v->valueint > hi) {
		char why[80];
		snprintf(why, sizeof why, "must be a whole number from %d to %d", lo, hi);
		return fail(r, field, why);
	}
	*out = v->valueint;
	return 0;
}

/* A string array field into argv (NULL-terminated, pointing into the
 * request); -1 after an error. */
static int opt_strings(const struct req *r, const char *field, char ***out)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(r->o, field), *e;
	*out = NULL;
	if (v == NULL)
		return 0;
	int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
	if (n <= 0 || n > 256)
		return fail(r, field, "must be an array of 1 to 256 strings");
	char **argv = calloc((size_t)n + 1, sizeof *argv);
	if (argv == NULL)
		return fail(r, field, "out of memory");
	int i = 0;
	cJSON_ArrayForEach(e, v)
	{
		if (!cJSON_IsString(e)) {
			free(argv);
			return fail(r, field, "must be an array of strings");
		}
		argv[i++] = e->valuestring;
	}
	*out = argv;
	return 0;
}

/* "target": a pane id (number or digits), "W.N" (window index W, its Nth
 * pane from 0) or a pane name; absent: the active pane of the current
 * window. NULL after an error. */
static struct pane *target_pane(const struct req *r)
{
	struct server *s = r->c->srv;
	cJSON *v = cJSON_GetObjectItemCaseSensitive(r->o, "target");
	if (v == NULL) {
		if (s->cur != NULL && s->cur->active != NULL)
			return s->cur->active;
		fail(r, "target", "no active pane");
		return NULL;
	}
	if (cJSON_IsNumber(v) && (v->valuedouble != (double)v->valueint || v->valueint <= 0)) {
		fail(r, "target", "a pane id is a whole number from 1"); /* 2.7 is no pane 2 */
		return NULL;
	}
	struct pane *p =
		ctl_find_pane(s, cJSON_IsString(v) ? v->valuestring : NULL, cJSON_IsNumber(v) ? v->valueint : -1);
	if (p == NULL)
		fail(r, "target",
		     cJSON_IsString(v) || cJSON_IsNumber(v) ? "no such pane" : "must be a string or number");
	return p;
}

struct pane *ctl_find_pane(struct server *s, const char *name, int id)
{
	if (name != NULL) {
		char *end;
		long n = strtol(name, &end, 10);
		if (*name != 0 && *end == 0)
			id = (int)n;
		else if (*name != 0 && *end == '.' && end[1] != 0) {
			long k = strtol(end + 1, &end, 10);
			for (struct window *w = s->windows; w != NULL && *end == 0; w = w->next)
				for (struct pane *p = w->panes; p != NULL && w->index == n; p = p->next)
					if (k-- == 0)
						return p;
			return NULL;
		} else {
			for (struct window *w = s->windows; w != NULL; w = w->next)
				for (struct pane *p = w->panes; p != NULL; p = p->next)
					if (strcmp(p->name, name) == 0)
						return p;
			return NULL;
		}
	}
	return id > 0 ? pane_find(s, id) : NULL;
}

/* SGR for a cell's attributes, from a reset: what `capture -e` shows. */
static void sgr_add(struct buf *b, const struct vt_attr *a)
{
	static const struct {
		uint16_t flag;
		const char *code;
	} f[] = {
		{ VT_BOLD, ";1" },  { VT_DIM, ";2" },     { VT_ITALIC, ";3" },  { VT_UNDERLINE, ";4" },
		{ VT_BLINK, ";5" }, { VT_REVERSE, ";7" }, { VT_CONCEAL, ";8" }, { VT_STRIKE, ";9" },
	};
	char s[96] = "\033[0";
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		if (a->flags & f[i].flag)
			strcat(s, f[i].code);
	const uint32_t col[2] = { a->fg, a->bg };
	for (int i = 0; i < 2; i++) {
		size_t n = strlen(s);
		if (col[i] & VT_COLOR_RGB)
			snprintf(s + n, sizeof s - n, ";%d;2;%u;%u;%u", i ? 48 : 38, (col[i] >> 16) & 255,
				 (col[i] >> 8) & 255, col[i] & 255);
		else if (col[i] & VT_COLOR_INDEX)
			snprintf(s + n, sizeof s - n, ";%d;5;%u", i ? 48 : 38, col[i] & 255);
	}
	strcat(s, "m");
	buf_addstr(b, s);
}

static bool attr_eq(const struct vt_attr *a, const struct vt_attr *b)
{
	return a->fg == b->fg && a->bg == b->bg && a->flags == b->flags;
}

/* One row as text, trailing blanks cut; with attrs, an SGR before every
 * change of attributes (and a reset at the end when any was set). */
static void ctl_row_text(const struct vt *vt, int row, bool attrs, struct buf *b)
{
	int cols = vt_cols(vt), last = -1;
	for (int x = 0; x < cols; x++) {
		const struct vt_cell *cell = vt_cell(vt, row, x);
		if (cell != NULL && cell->ch[0] != 0 && cell->ch[0] != ' ')
			last = x;
	}
	struct vt_attr cur = { 0 };
	for (int x = 0; x <= last; x++) {
		const struct vt_cell *cell = vt_cell(vt, row, x);
		if (cell == NULL || cell->width == 0)
			continue;
		if (attrs && !attr_eq(&cell->attr, &cur)) {
			cur = cell->attr;
			sgr_add(b, &cur);
		}
		char u[4];
		if (cell->ch[0] == 0)
			buf_add(b, " ", 1);
		for (int i = 0; i < VT_MAX_CHARS && cell->ch[i] != 0; i++)
			buf_add(b, u, utf8_encode(cell->ch[i], u));
	}
	struct vt_attr none = { 0 };
	if (attrs && !attr_eq(&cur, &none))
		buf_addstr(b, "\033[0m");
}

static int verb_hello(const struct req *r)
{
	cJSON *o = reply_new(r), *verbs = cJSON_CreateArray();
	cJSON_AddNumberToObject(o, "version", CTL_VERSION);
	for (size_t i = 0; i < sizeof ctl_verbs / sizeof ctl_verbs[0]; i++)
		cJSON_AddItemToArray(verbs, cJSON_CreateString(ctl_verbs[i]));
	cJSON_AddItemToObject(o, "verbs", verbs);
	done(r, o);
	return 0;
}

static int verb_list(const struct req *r)
{
	cJSON *o = reply_new(r);
	cJSON_AddItemToObject(o, "session", control_session_json(r->c->srv));
	done(r, o);
	return 0;
}

static struct window *window_by_index(struct server *s, int index)
{
	for (struct window *w = s->windows; w != NULL; w = w->next)
		if (w->index == index)
			return w;
	return NULL;
}

static int verb_new_pane(const struct req *r)
{
	struct server *s = r->c->srv;
	struct pane_spec spec = { .cwd = s->workspace };
	const char *layout = NULL, *agent = NULL, *cwd = NULL;
	char **argv = NULL;
	int window = -1;
	if (opt_string(r, "name", &spec.name) < 0 || opt_string(r, "profile", &spec.profile) < 0 ||
	    opt_string(r, "cwd", &cwd) < 0 || opt_string(r, "layout", &layout) < 0 ||
	    opt_string(r, "agent", &agent) < 0 || opt_int(r, "window", -1, 100000, &window) < 0 ||
	    opt_strings(r, "command", &argv) < 0)
		return -1;
	if (cwd != NULL && cwd[0] != '/') {
		free(argv);
		return fail(r, "cwd", "must be an absolute path");
	}
	int preset = layout != NULL ? layout_preset_by_name(layout) : -1;
	if (layout != NULL && preset < 0) {
		free(argv);
		return fail(r, "layout", "unknown layout (even-horizontal, even-vertical or tiled)");
	}
	cJSON *fresh = cJSON_GetObjectItemCaseSensitive(r->o, "new_window");
	if (fresh != NULL && !cJSON_IsBool(fresh)) {
		free(argv);
		return fail(r, "new_window", "must be true or false");
	}
	struct window *w = window >= 0 ? window_by_index(s, window) : s->cur;
	if (window >= 0 && w == NULL) {
		free(argv);
		return fail(r, "window", "no such window");
	}
	if (cJSON_IsTrue(fresh))
		w = NULL; /* command_new_pane() opens one */
	if (agent != NULL)
		spec.name = spec.name != NULL ? spec.name : agent;
	spec.cwd = cwd != NULL ? cwd : s->workspace;
	spec.argv = argv;
	char err[256];
	struct pane *p = command_new_pane(s, w, &spec, err, sizeof err);
	free(argv);
	if (p == NULL)
		return fail(r, NULL, err);
	if (preset >= 0)
		window_next_layout(p->win, preset);
	cJSON *o = reply_new(r);
	cJSON_AddNumberToObject(o, "pane", p->id);
	cJSON_AddNumberToObject(o, "window", p->win->index);
	cJSON_AddStringToObject(o, "state", p->state == PANE_FAILED ? "failed" : "running");
	done(r, o);
	return 0;
}

/* Each entry a key name as the config reads them ("Enter", "C-c", "Up"),
 * or, when it is not one, text typed as it stands (as tmux's send-keys). */
static int verb_send_keys(const struct req *r)
{
	struct pane *p = target_pane(r);
	cJSON *v = cJSON_GetObjectItemCaseSensitive(r->o, "keys"), *e;
	if (p == NULL)
		return -1;
	if (!cJSON_IsArray(v))
		return fail(r, "keys", "must be an array of key names or strings");
	cJSON_ArrayForEach(e, v) if (!cJSON_IsString(e)) return fail(r, "keys", "must be an array of strings");
	if (p->fd < 0)
		return fail(r, "target", "the pane's program has ended");
	cJSON_ArrayForEach(e, v)
	{
		struct key k;
		char out[64];
		size_t n = keys_parse(e->valuestring, &k) && k.kind == KEY_PLAIN
				   ? vt_key(p->vt, k.code, k.mods, out, sizeof out)
				   : 0;
		if (n > 0)
			pane_write(p, out, n);
		else
			pane_write(p, e->valuestring, strlen(e->valuestring));
	}
	done(r, NULL);
	return 0;
}

static int verb_send_text(const struct req *r)
{
	struct pane *p = target_pane(r);
	const char *text;
	if (p == NULL || opt_string(r, "text", &text) < 0)
		return -1;
	if (text == NULL)
		return fail(r, "text", "missing");
	if (p->fd < 0)
		return fail(r, "target", "the pane's program has ended");
	pane_write(p, text, strlen(text));
	done(r, NULL);
	return 0;
}

static int verb_capture(const struct req *r)
{
	struct pane *p = target_pane(r);
	int start = 0;
	cJSON *attrs = cJSON_GetObjectItemCaseSensitive(r->o, "attributes");
	if (p == NULL || opt_int(r, "start", -CAPTURE_LINES, 0, &start) < 0)
		return -1;
	if (attrs != NULL && !cJSON_IsBool(attrs))
		return fail(r, "attributes", "must be true or false");
	cJSON *o = reply_new(r), *lines = cJSON_CreateArray();
	struct buf line = { 0 };
	int from = start < -vt_history(p->vt) ? -vt_history(p->vt) : start;
	for (int row = from; row < vt_rows(p->vt); row++) {
		line.len = 0;
		ctl_row_text(p->vt, row, cJSON_IsTrue(attrs), &line);
		buf_add(&line, "", 1);
		cJSON_AddItemToArray(lines, cJSON_CreateString(line.p));
	}
	buf_free(&line);
	int cy, cx;
	vt_cursor(p->vt, &cy, &cx);
	cJSON_AddNumberToObject(o, "pane", p->id);
	cJSON_AddNumberToObject(o, "rows", vt_rows(p->vt));
	cJSON_AddNumberToObject(o, "cols", vt_cols(p->vt));
	cJSON_AddNumberToObject(o, "cursor_row", cy);
	cJSON_AddNumberToObject(o, "cursor_col", cx);
	cJSON_AddItemToObject(o, "lines", lines);
	done(r, o);
	return 0;
}

static int verb_resize(const struct req *r)
{
	struct pane *p = target_pane(r);
	int dx = 0, dy = 0;
	if (p == NULL || opt_int(r, "dx", -1000, 1000, &dx) < 0 || opt_int(r, "dy", -1000, 1000, &dy) < 0)
		return -1;
	if (dx == 0 && dy == 0)
		return fail(r, "dx", "give dx or dy (cells to grow the pane by; negative shrinks)");
	window_focus(p->win, p);
	window_resize_pane(p->win, dx, dy);
	cJSON *o = reply_new(r);
	cJSON_AddNumberToObject(o, "width", p->w);
	cJSON_AddNumberToObject(o, "height", p->h - 1);
	done(r, o);
	return 0;
}

static int verb_kill_pane(const struct req *r)
{
	struct pane *p = target_pane(r);
	if (p == NULL)
		return -1;
	server_log(r->c->srv, "ctl: kill-pane %d", p->id);
	window_close_pane(p->win, p);
	done(r, NULL);
	return 0;
}

static int verb_select(const struct req *r)
{
	struct server *s = r->c->srv;
	int window = -1;
	if (opt_int(r, "window", 0, 100000, &window) < 0)
		return -1;
	if (window >= 0 && cJSON_GetObjectItemCaseSensitive(r->o, "target") == NULL) {
		struct window *w = window_by_index(s, window);
		if (w == NULL)
			return fail(r, "window", "no such window");
		session_select(s, w);
		done(r, NULL);
		return 0;
	}
	struct pane *p = target_pane(r);
	if (p == NULL)
		return -1;
	session_select(s, p->win);
	window_focus(p->win, p);
	done(r, NULL);
	return 0;
}

static int verb_subscribe(const struct req *r)
{
	int pane = 0;
	const char *kinds = NULL;
	if (opt_int(r, "pane", 0, 1 << 30, &pane) < 0 || opt_string(r, "events", &kinds) < 0)
		return -1;
	unsigned mask = kinds != NULL ? control_kinds_parse(kinds) : 0;
	if (kinds != NULL && mask == 0)
		return fail(r, "events", "a comma-separated list of denial, prompt, answer, exit, attention, title");
	r->c->subscribed = true;
	r->c->sub_pane = pane;
	r->c->sub_kinds = mask;
	server_log(r->c->srv, "client %d subscribed to events (pane %d, 0: all)", r->c->fd, pane);
	done(r, NULL);
	return 0;
}

static int verb_answer(const struct req *r)
{
	const char *id, *scope_s;
	if (opt_string(r, "prompt", &id) < 0 || opt_string(r, "scope", &scope_s) < 0)
		return -1;
	int scope = esc_scope_parse(scope_s);
	if (scope < 0)
		return fail(r, "scope", "must be once, session, always, repo, deny or dismiss");
	int pane_id = 0;
	unsigned seq = 0;
	char tail;
	if (id == NULL || sscanf(id, "%d.%u%c", &pane_id, &seq, &tail) != 2)
		return fail(r, "prompt", "must be a prompt id \"PANE.N\" (see the prompt events or list)");
	struct pane *p = pane_find(r->c->srv, pane_id);
	if (p == NULL || p->esc == NULL || esc_raise(p->esc, seq) < 0)
		return fail(r, "prompt", "no such prompt waiting");
	char err[256];
	if (escalate_answer(r->c, p, (enum esc_scope)scope, err, sizeof err) < 0)
		return fail(r, "scope", err);
	done(r, NULL);
	return 0;
}

static int ctl_dispatch(const struct req *r, const char *verb)
{
	static const struct {
		const char *name;
		int (*fn)(const struct req *);
	} table[] = {
		{ "hello", verb_hello },         { "list", verb_list },           { "new-pane", verb_new_pane },
		{ "send-keys", verb_send_keys }, { "send-text", verb_send_text }, { "capture", verb_capture },
		{ "resize", verb_resize },       { "kill-pane", verb_kill_pane }, { "select", verb_select },
		{ "subscribe", verb_subscribe }, { "answer", verb_answer },
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (strcmp(verb, table[i].name) == 0)
			return table[i].fn(r);
	return fail(r, "verb", "unknown verb (send {\"hello\":1} for the list)");
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
		verb_hello(&r);
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
		char *nl = memchr(c->in.p, '\n', c->in.len);
		if (c->ctl_skip) { /* the rest of a refused line */
			c->ctl_skip = nl == NULL;
			buf_drop(&c->in, nl != NULL ? (size_t)(nl - c->in.p) + 1 : c->in.len);
			continue;
		}
		size_t len = nl != NULL ? (size_t)(nl - c->in.p) : c->in.len;
		if (len > CTL_LINE_MAX) {
			struct req r = { .c = c };
			fail(&r, NULL, "line too long (at most 65536 bytes a request)");
			c->ctl_skip = true;
			continue;
		}
		if (nl == NULL)
			return; /* the rest of the line is on its way */
		if (len > 0)
			ctl_request(c, c->in.p, len);
		if (!client_alive(s, c))
			return;
		buf_drop(&c->in, len + 1);
	}
}
