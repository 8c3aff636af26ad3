/* command: verbs a client runs in the server without attaching: `new`
 * (a pane running CMD, from a script), `info` (one line for `sandmux ls`;
 * `info --json`: the session in JSON for `ls --json`, control.c),
 * `kill-session`, and the layout verbs. Each answers with a status and
 * text for the client to print. */
#include "shell/mux.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int reply(struct buf *out, int status, const char *fmt, const char *arg)
{
	char line[1024];
	snprintf(line, sizeof line, fmt, arg);
	buf_addstr(out, line);
	return status;
}

struct pane *command_new_pane(struct server *s, struct window *w, const struct pane_spec *spec, char *err,
			      size_t errlen)
{
	struct pane *p = w != NULL ? window_split(w, 0, spec, err, errlen) : NULL;
	if (p != NULL)
		return p;
	/* no room in this window: the pane gets a window of its own */
	w = session_new_window(s, NULL);
	p = w != NULL ? window_split(w, 0, spec, err, errlen) : NULL;
	if (p == NULL) {
		if (w != NULL)
			session_remove_window(s, w);
		else
			snprintf(err, errlen, "out of memory");
		return NULL;
	}
	session_select(s, w);
	return p;
}

#define NEW_USAGE                                                                                                   \
	"usage: sandmux new [-t SESSION] [-n NAME] [--sandbox P] [--cwd DIR] [--agent NAME] [--layout L] [--json] " \
	"-- CMD "                                                                                                   \
	"[ARG...] [::: CMD [ARG...]]... | new [-t SESSION] --file WALL.json\n"

struct new_opts {
	struct pane_spec spec;
	int preset; /* -1: keep the layout */
	bool json;
};

/* The options before "--"; returns the index of the first command word,
 * or -1 after a reply. */
static int new_options(int argc, const char **argv, struct new_opts *o, struct buf *out)
{
	int i = 1;
	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			o->json = true;
			continue;
		}
		if (i + 1 >= argc)
			return reply(out, 2, "sandmux new: %s needs a value\n", argv[i]), -1;
		const char *opt = argv[i++];
		if (strcmp(opt, "-n") == 0)
			o->spec.name = argv[i];
		else if (strcmp(opt, "--sandbox") == 0)
			o->spec.profile = argv[i];
		else if (strcmp(opt, "--cwd") == 0)
			o->spec.cwd = argv[i];
		else if (strcmp(opt, "--agent") == 0)
			o->spec.agent = argv[i];
		else if (strcmp(opt, "--layout") != 0)
			return reply(out, 2, "sandmux new: unknown option %s\n", opt), -1;
		else if ((o->preset = layout_preset_by_name(argv[i])) < 0)
			return reply(out, 2, "sandmux new: --layout %s: want even-horizontal, even-vertical or tiled\n",
				     argv[i]),
			       -1;
	}
	if (i + 1 >= argc || strcmp(argv[i + 1], ":::") == 0)
		return reply(out, 2, "sandmux new: no command\n%s", NEW_USAGE), -1;
	return i + 1;
}

/* One pane a command; commands are separated by ":::" (a wall in one
 * step). With -n NAME the panes are NAME, NAME-2, NAME-3... */
static int cmd_new(struct server *s, int argc, const char **argv, const char *cwd, struct buf *out)
{
	struct new_opts o = { .spec = { .cwd = cwd }, .preset = -1 };
	int i = new_options(argc, argv, &o, out);
	if (i < 0)
		return 2;
	char dir[4200], name[80];
	if (o.spec.cwd[0] != '/') { /* relative to where `sandmux new` ran */
		snprintf(dir, sizeof dir, "%s/%s", cwd, o.spec.cwd);
		o.spec.cwd = dir;
	}
	for (int k = i; k <= argc; k++) /* every command checked before any pane opens */
		if ((k == argc || strcmp(argv[k], ":::") == 0) && (k == i || strcmp(argv[k - 1], ":::") == 0))
			return reply(out, 2, "sandmux new: an empty command between :::\n%s", NEW_USAGE);
	const char *base = o.spec.name;
	struct buf ids = { 0 };
	struct pane *p = NULL;
	int status = 0, first = 0;
	for (int n = 1; i < argc; n++) {
		int end = i;
		while (end < argc && strcmp(argv[end], ":::") != 0)
			end++;
		argv[end] = NULL; /* each command its own argv */
		if (base != NULL && n > 1)
			snprintf(name, sizeof name, "%.60s-%d", base, n), o.spec.name = name;
		o.spec.argv = (char *const *)(argv + i);
		char err[256], id[32];
		if ((p = command_new_pane(s, s->cur, &o.spec, err, sizeof err)) == NULL) {
			status = reply(out, 1, "sandmux new: %s\n", err);
			break;
		}
		if (ids.len == 0)
			first = p->id;
		snprintf(id, sizeof id, "%s%d", ids.len > 0 ? "," : "", p->id);
		buf_addstr(&ids, id);
		if (p->state == PANE_FAILED)
			status = reply(out, 1, "sandmux new: pane %s did not start (see its screen)\n",
				       id + (id[0] == ','));
		i = end + 1;
	}
	if (p != NULL && o.preset >= 0)
		window_next_layout(p->win, o.preset);
	buf_add(&ids, "", 1);
	char line[2048];
	if (o.json)
		snprintf(line, sizeof line, "{\"pane\":%d,\"panes\":[%s]}\n", first, ids.p);
	else
		snprintf(line, sizeof line, "pane %s\n", ids.p);
	if (status == 0 || ids.len > 1)
		buf_addstr(out, line);
	buf_free(&ids);
	return status;
}

static int cmd_info(struct server *s, struct buf *out)
{
	int clients = 0, windows = 0;
	for (struct client *c = s->clients; c != NULL; c = c->next)
		clients += c->attached;
	for (struct window *w = s->windows; w != NULL; w = w->next)
		windows++;
	char line[1024];
	snprintf(line, sizeof line, "%s: %d windows, %d panes, profile %s, %s (%dx%d)%s\n", s->name, windows,
		 session_pane_count(s), s->profile, s->workspace, s->cols, s->rows, clients ? " (attached)" : "");
	buf_addstr(out, line);
	return 0;
}

int command_run(struct server *s, int argc, const char **argv, const char *cwd, struct buf *out)
{
	if (strcmp(argv[0], "new") == 0)
		return cmd_new(s, argc, argv, cwd, out);
	if (strcmp(argv[0], "info") == 0 && argc == 2 && strcmp(argv[1], "--json") == 0)
		return control_ls(s, out);
	if (strcmp(argv[0], "info") == 0)
		return cmd_info(s, out);
	if (strcmp(argv[0], "workspace") == 0)
		return reply(out, 0, "%s", s->workspace);
	if (strcmp(argv[0], "kill-session") == 0) {
		snprintf(s->quit_why, sizeof s->quit_why, "kill-session");
		server_log(s, "kill-session");
		server_shutdown(s);
		return reply(out, 0, "killed session %s\n", s->name);
	}
	if (strcmp(argv[0], "tiled") == 0 && s->cur != NULL) {
		window_next_layout(s->cur, LAYOUT_TILED);
		return 0;
	}
	return reply(out, 2, "sandmux: unknown server command %s\n", argv[0]);
}
