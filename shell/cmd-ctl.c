/* cmd-ctl: the control interface's command line (README "Control
 * interface"): `sandmux ctl` sends JSON requests as they are; list, send,
 * capture, kill-pane and answer build one request each and print its
 * response for a person or a script. A target "SESSION:PANE" names the
 * session too; otherwise the session is the current directory's (or the
 * only one), as for every verb. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "policy/json.h"
#include "backends/safefile.h"
#include "policy/buf.h"
#include "shell/cmd.h"

/* Reads one line into line (without the newline); 1, 0 at the end, -1. */
static int read_line(int fd, struct buf *in, struct buf *line)
{
	for (;;) {
		char *nl = in->len > 0 ? memchr(buf_data(in), '\n', in->len) : NULL;
		if (nl != NULL) {
			buf_clear(line);
			buf_add(line, buf_data(in), (size_t)(nl - buf_data(in)));
			buf_add(line, "", 1);
			buf_drop(in, (size_t)(nl - buf_data(in)) + 1);
			return 1;
		}
		char b[65536];
		ssize_t n = read(fd, b, sizeof b);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		buf_add(in, b, (size_t)n);
	}
}

/* Sends one request; its response in *out (a parsed object), and with
 * follow, every line after it (events) printed until the server goes. */
static int roundtrip(const char *session, cJSON *req, bool follow, cJSON **out)
{
	int fd = session_connect(session);
	char *text = req != NULL ? cJSON_PrintUnformatted(req) : NULL;
	cJSON_Delete(req);
	if (fd < 0 || text == NULL) {
		free(text);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	struct buf in = { 0 }, line = { 0 };
	int r = safefile_write_all(fd, text, strlen(text)) < 0 || safefile_write_all(fd, "\n", 1) < 0
			? -1
			: read_line(fd, &in, &line);
	free(text);
	*out = r == 1 ? cJSON_Parse(buf_data(&line)) : NULL;
	if (r == 1 && follow && (printf("%s\n", buf_data(&line)) < 0 || fflush(stdout) != 0))
		r = 0;
	while (r == 1 && follow && (r = read_line(fd, &in, &line)) == 1)
		if (printf("%s\n", buf_data(&line)) < 0 || fflush(stdout) != 0)
			break;
	close(fd);
	buf_free(&in);
	buf_free(&line);
	if (*out == NULL) {
		fprintf(stderr, "sandmux: the server did not answer\n");
		return 1;
	}
	cJSON *err = cJSON_GetObjectItemCaseSensitive(*out, "error");
	if (cJSON_IsString(err)) {
		fprintf(stderr, "sandmux: %s\n", err->valuestring);
		return 1;
	}
	return 0;
}

/* "SESSION:PANE" or "PANE": the session part (NULL: the default) goes to
 * session, the pane part is returned. */
static const char *split_target(char *t, const char **session)
{
	char *colon = strrchr(t, ':');
	*session = NULL;
	if (colon == NULL)
		return t;
	*colon = 0;
	*session = t;
	return colon + 1;
}

static cJSON *request(const char *verb, const char *target)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "id", 1);
	cJSON_AddStringToObject(o, "verb", verb);
	if (target != NULL)
		cJSON_AddStringToObject(o, "target", target);
	return o;
}

/* sandmux ctl [-t NAME] [JSON]: one request and its response (and, for
 * subscribe, the events after it); without JSON, lines from stdin to the
 * session and lines from it to stdout, until both ends are done. */
static int ctl_pipe(const char *session)
{
	int fd = session_connect(session);
	if (fd < 0)
		return 1;
	struct pollfd pf[2] = { { .fd = STDIN_FILENO, .events = POLLIN }, { .fd = fd, .events = POLLIN } };
	for (;;) {
		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			break;
		char b[65536];
		if (pf[0].revents & (POLLIN | POLLHUP)) {
			ssize_t n = read(STDIN_FILENO, b, sizeof b);
			if (n <= 0) {
				shutdown(fd, SHUT_WR); /* the server answers what it has, then closes */
				pf[0].fd = -1;
			} else if (safefile_write_all(fd, b, (size_t)n) < 0)
				break;
		}
		if (pf[1].revents & (POLLIN | POLLHUP | POLLERR)) {
			ssize_t n = read(fd, b, sizeof b);
			if (n <= 0 || safefile_write_all(STDOUT_FILENO, b, (size_t)n) < 0)
				break;
		}
	}
	close(fd);
	return 0;
}

static int verb_ctl(int argc, char **argv)
{
	const char *session = NULL;
	int i = 1;
	if (i + 1 < argc && strcmp(argv[i], "-t") == 0) {
		session = argv[i + 1];
		i += 2;
	}
	if (i == argc)
		return ctl_pipe(session);
	if (i + 1 != argc) {
		fprintf(stderr, "usage: sandmux ctl [-t NAME] ['{\"id\":1,\"verb\":\"list\"}']\n");
		return 2;
	}
	cJSON *req = cJSON_Parse(argv[i]), *resp = NULL;
	if (!cJSON_IsObject(req)) {
		fprintf(stderr, "sandmux ctl: the request is not a JSON object\n");
		cJSON_Delete(req);
		return 2;
	}
	cJSON *verb = cJSON_GetObjectItemCaseSensitive(req, "verb");
	bool follow = cJSON_IsString(verb) && strcmp(verb->valuestring, "subscribe") == 0;
	int r = roundtrip(session, req, follow, &resp);
	char *text = resp != NULL ? cJSON_PrintUnformatted(resp) : NULL;
	if (text != NULL && !follow)
		printf("%s\n", text); /* with follow, the response was the first line printed */
	free(text);
	cJSON_Delete(resp);
	return r;
}

static void list_print(const cJSON *session)
{
	const cJSON *w, *p;
	printf("%-5s %-16s %-6s %-10s %-12s %7s %7s %7s\n", "PANE", "NAME", "WINDOW", "STATE", "PROFILE", "DENIALS",
	       "PROMPTS", "DROPPED");
	cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(session, "windows"))
	{
		cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(w, "panes"))
		{
			const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "name"));
			const cJSON *dropped = cJSON_GetObjectItemCaseSensitive(p, "prompts_dropped");
			printf("%-5d %-16s %-6d %-10s %-12s %7d %7d %7d\n",
			       cJSON_GetObjectItemCaseSensitive(p, "id")->valueint, name && *name ? name : "-",
			       cJSON_GetObjectItemCaseSensitive(w, "index")->valueint,
			       cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "state")),
			       cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "profile")),
			       cJSON_GetObjectItemCaseSensitive(p, "denials")->valueint,
			       cJSON_GetObjectItemCaseSensitive(p, "prompts")->valueint,
			       cJSON_IsNumber(dropped) ? dropped->valueint : 0);
		}
	}
}

/* sandmux list [-t NAME] [--json] */
static int verb_list(int argc, char **argv)
{
	const char *session = NULL;
	bool json = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-t") == 0 && i + 1 < argc)
			session = argv[++i];
		else if (strcmp(argv[i], "--json") == 0)
			json = true;
		else {
			fprintf(stderr, "usage: sandmux list [-t NAME] [--json]\n");
			return 2;
		}
	}
	cJSON *resp = NULL;
	int r = roundtrip(session, request("list", NULL), false, &resp);
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(resp, "session");
	if (r == 0 && json) {
		char *text = cJSON_PrintUnformatted(s);
		printf("%s\n", text != NULL ? text : "null");
		free(text);
	} else if (r == 0)
		list_print(s);
	cJSON_Delete(resp);
	return r;
}

/* The -t PANE every pane verb takes; NULL after printing the usage. */
static char *pane_flag(int *i, int argc, char **argv, const char *usage)
{
	if (*i + 1 < argc && strcmp(argv[*i], "-t") == 0) {
		*i += 2;
		return argv[*i - 1];
	}
	fprintf(stderr, "usage: sandmux %s\n", usage);
	return NULL;
}

/* sandmux send -t PANE KEYS... (key names such as Enter, C-c, Up; other
 * words are typed as they stand) */
static int verb_send(int argc, char **argv)
{
	int i = 1;
	const char *session, *usage = "send -t [SESSION:]PANE KEY...";
	char *t = pane_flag(&i, argc, argv, usage);
	if (t == NULL || i == argc) {
		if (t != NULL)
			fprintf(stderr, "usage: sandmux %s\n", usage);
		return 2;
	}
	cJSON *req = request("send-keys", split_target(t, &session)), *keys = cJSON_AddArrayToObject(req, "keys"),
	      *resp = NULL;
	for (; i < argc; i++)
		cJSON_AddItemToArray(keys, cJSON_CreateString(argv[i]));
	int r = roundtrip(session, req, false, &resp);
	cJSON_Delete(resp);
	return r;
}

/* sandmux capture -t PANE [-S START] [-e] */
static int verb_capture(int argc, char **argv)
{
	int i = 1;
	const char *session, *usage = "capture -t [SESSION:]PANE [-S START] [-e]";
	char *t = pane_flag(&i, argc, argv, usage);
	if (t == NULL)
		return 2;
	cJSON *req = request("capture", split_target(t, &session)), *resp = NULL;
	for (; i < argc; i++) {
		char *end = NULL;
		long start;
		if (strcmp(argv[i], "-e") == 0)
			cJSON_AddBoolToObject(req, "attributes", true);
		else if (strcmp(argv[i], "-S") == 0 && i + 1 < argc && (start = strtol(argv[++i], &end, 10)) <= 0 &&
			 *end == 0)
			cJSON_AddNumberToObject(req, "start", (double)start);
		else {
			fprintf(stderr, "usage: sandmux %s\n", usage);
			cJSON_Delete(req);
			return 2;
		}
	}
	int r = roundtrip(session, req, false, &resp);
	const cJSON *l;
	cJSON_ArrayForEach(l, cJSON_GetObjectItemCaseSensitive(resp, "lines")) printf("%s\n", l->valuestring);
	cJSON_Delete(resp);
	return r;
}

/* sandmux kill-pane -t PANE */
static int verb_kill_pane(int argc, char **argv)
{
	int i = 1;
	const char *session, *usage = "kill-pane -t [SESSION:]PANE";
	char *t = pane_flag(&i, argc, argv, usage);
	if (t == NULL || i != argc) {
		if (t != NULL)
			fprintf(stderr, "usage: sandmux %s\n", usage);
		return 2;
	}
	cJSON *resp = NULL;
	int r = roundtrip(session, request("kill-pane", split_target(t, &session)), false, &resp);
	cJSON_Delete(resp);
	return r;
}

/* sandmux answer [SESSION:]PANE.N once|session|always|repo|deny|dismiss */
static int verb_answer(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: sandmux answer [SESSION:]PROMPT once|session|always|repo|deny|dismiss\n");
		return 2;
	}
	const char *session, *prompt = split_target(argv[1], &session);
	cJSON *req = request("answer", NULL), *resp = NULL;
	cJSON_AddStringToObject(req, "prompt", prompt);
	cJSON_AddStringToObject(req, "scope", argv[2]);
	int r = roundtrip(session, req, false, &resp);
	cJSON_Delete(resp);
	return r;
}

/* ---- sandmux new --file WALL.json ---- */

#define WALL_MAX (1 << 20)

struct wall_err {
	const char *path;
	char *msg;
	size_t cap;
};

static int wall_bad(struct wall_err *e, const struct json *v, const char *field, const char *why)
{
	snprintf(e->msg, e->cap, "%s:%d:%d: %s: %s", e->path, v->line, v->col, field, why);
	return -1;
}

/* One pane object into a new-pane request. */
static int wall_pane(struct wall_err *e, const struct json *o, size_t i, cJSON *req)
{
	static const char *const strings[] = { "name", "agent", "profile", "cwd", "layout" };
	char field[64];
	if (o->type != JSON_OBJECT) {
		snprintf(field, sizeof field, "panes[%zu]", i);
		return wall_bad(e, o, field, "want an object with \"command\" (and name, agent, profile, cwd, window)");
	}
	const struct json *m, *a;
	json_each(m, o)
	{
		snprintf(field, sizeof field, "panes[%zu].%s", i, m->key);
		bool str = false;
		for (size_t k = 0; k < sizeof strings / sizeof strings[0]; k++)
			str |= strcmp(m->key, strings[k]) == 0;
		if (str && m->type != JSON_STRING)
			return wall_bad(e, m, field, "want a string");
		if (str) {
			cJSON_AddStringToObject(req, m->key, m->str);
		} else if (strcmp(m->key, "command") == 0) {
			if (m->type != JSON_ARRAY || m->child == NULL)
				return wall_bad(e, m, field, "want an array of strings: the program and its arguments");
			cJSON *argv = cJSON_AddArrayToObject(req, "command");
			json_each(a, m)
			{
				if (a->type != JSON_STRING)
					return wall_bad(e, a, field, "want strings only");
				cJSON_AddItemToArray(argv, cJSON_CreateString(a->str));
			}
		} else if (strcmp(m->key, "window") == 0) {
			if (m->type == JSON_STRING && strcmp(m->str, "new") == 0)
				cJSON_AddBoolToObject(req, "new_window", true);
			else if (m->type == JSON_NUMBER && m->number >= 0 && m->number == (int)m->number)
				cJSON_AddNumberToObject(req, "window", m->number);
			else
				return wall_bad(e, m, field, "want a window index or \"new\"");
		} else {
			return wall_bad(e, m, field, "unknown key (known: command, name, agent, profile, cwd, window)");
		}
	}
	if (json_get(o, "command") == NULL) {
		snprintf(field, sizeof field, "panes[%zu]", i);
		return wall_bad(e, o, field, "no \"command\"");
	}
	return 0;
}

/* {"layout": "tiled", "panes": [{"name": "a", "command": ["claude"]}, ...]}:
 * every pane checked first, then opened one request each. */
static int wall_requests(struct wall_err *e, const struct json *root, cJSON *reqs)
{
	if (root->type != JSON_OBJECT)
		return wall_bad(e, root, "(top level)", "want an object with \"panes\" (and \"layout\")");
	const struct json *layout = json_get(root, "layout"), *panes = json_get(root, "panes"), *m, *p;
	json_each(m, root) if (strcmp(m->key, "layout") != 0 && strcmp(m->key, "panes") != 0) return wall_bad(
		e, m, m->key, "unknown key (known: layout, panes)");
	if (layout != NULL && layout->type != JSON_STRING)
		return wall_bad(e, layout, "layout", "want even-horizontal, even-vertical or tiled");
	if (panes == NULL || panes->type != JSON_ARRAY || panes->child == NULL)
		return wall_bad(e, panes != NULL ? panes : root, "panes", "want a non-empty array of panes");
	size_t i = 0;
	json_each(p, panes)
	{
		cJSON *req = cJSON_CreateObject();
		cJSON_AddNumberToObject(req, "id", (double)i);
		cJSON_AddStringToObject(req, "verb", "new-pane");
		cJSON_AddItemToArray(reqs, req);
		if (wall_pane(e, p, i, req) < 0)
			return -1;
		if (p->next == NULL && layout != NULL && json_get(p, "layout") == NULL)
			cJSON_AddStringToObject(req, "layout", layout->str);
		i++;
	}
	return 0;
}

int ctl_wall_file(const char *session, const char *path)
{
	char msg[600];
	struct wall_err e = { path, msg, sizeof msg };
	FILE *f = fopen(path, "re");
	char *text = f != NULL ? malloc(WALL_MAX + 1) : NULL;
	size_t len = text != NULL ? fread(text, 1, WALL_MAX + 1, f) : 0;
	if (f != NULL)
		fclose(f);
	if (text == NULL || len > WALL_MAX) {
		fprintf(stderr, "sandmux new: %s: %s\n", path,
			f == NULL ? strerror(errno) : "unreadable or over 1 MiB");
		free(text);
		return 2;
	}
	struct json_error je = { 0 };
	struct json *root = json_parse(text, len, &je);
	free(text);
	if (root == NULL) {
		fprintf(stderr, "sandmux new: %s:%d:%d: %s: %s\n", path, je.line, je.col,
			je.path[0] ? je.path : "(top level)", je.msg);
		return 2;
	}
	cJSON *reqs = cJSON_CreateArray();
	int r = wall_requests(&e, root, reqs);
	json_free(root);
	if (r < 0) {
		fprintf(stderr, "sandmux new: %s\n", msg);
		cJSON_Delete(reqs);
		return 2;
	}
	cJSON *req, *resp;
	int status = 0;
	cJSON_ArrayForEach(req, reqs)
	{
		resp = NULL;
		int rr = roundtrip(session, cJSON_Duplicate(req, true), false, &resp);
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(resp, "pane");
		if (rr == 0 && cJSON_IsNumber(id))
			printf("pane %d\n", id->valueint);
		status |= rr;
		cJSON_Delete(resp);
	}
	cJSON_Delete(reqs);
	return status;
}

int cmd_ctl(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} verbs[] = {
		{ "ctl", verb_ctl },         { "list", verb_list },           { "send", verb_send },
		{ "capture", verb_capture }, { "kill-pane", verb_kill_pane }, { "answer", verb_answer },
	};
	signal(SIGPIPE, SIG_IGN);
	for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
		if (strcmp(argv[0], verbs[i].name) == 0)
			return verbs[i].fn(argc, argv);
	return 2;
}
