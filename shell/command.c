/* command: verbs a client runs in the server without attaching: `new`
 * (a pane running CMD, from a script), `info` (one line for `sandmux ls`;
 * `info --json`: the session in JSON for `ls --json`, control.c),
 * `kill-session`, and the layout verbs. Each answers with a status and
 * text for the client to print. */
#include "shell/mux.h"

#include <stdio.h>
#include <string.h>

static int reply(struct buf *out, int status, const char *fmt, const char *arg)
{
	char line[1024];
	snprintf(line, sizeof line, fmt, arg);
	buf_addstr(out, line);
	return status;
}

static int cmd_new(struct server *s, int argc, const char **argv, const char *cwd, struct buf *out)
{
	struct pane_spec spec = { .cwd = cwd };
	int i = 1;
	for (; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (i + 1 >= argc)
			return reply(out, 2, "sandmux new: %s needs a value\n", argv[i]);
		if (strcmp(argv[i], "-n") == 0)
			spec.name = argv[++i];
		else if (strcmp(argv[i], "--sandbox") == 0)
			spec.profile = argv[++i];
		else if (strcmp(argv[i], "--cwd") == 0)
			spec.cwd = argv[++i];
		else
			return reply(out, 2, "sandmux new: unknown option %s\n", argv[i]);
	}
	if (i >= argc)
		return reply(
			out, 2, "%s",
			"sandmux new: no command (usage: new [-n NAME] [--sandbox P] [--cwd DIR] -- CMD [ARG...])\n");
	spec.argv = (char *const *)(argv + i);
	char dir[4200];
	if (spec.cwd[0] != '/') { /* relative to where `sandmux new` ran */
		snprintf(dir, sizeof dir, "%s/%s", cwd, spec.cwd);
		spec.cwd = dir;
	}
	struct window *w = s->cur;
	char err[256];
	struct pane *p = w != NULL ? window_split(w, 0, &spec, err, sizeof err) : NULL;
	if (p == NULL) {
		/* no room in this window: the pane gets a window of its own */
		w = session_new_window(s, NULL);
		p = w != NULL ? window_split(w, 0, &spec, err, sizeof err) : NULL;
		if (p == NULL) {
			if (w != NULL)
				session_remove_window(s, w);
			return reply(out, 1, "sandmux new: %s\n", err);
		}
		session_select(s, w);
	}
	char line[128];
	snprintf(line, sizeof line, "%d", p->id);
	if (p->state == PANE_FAILED)
		return reply(out, 1, "sandmux new: pane %s did not start (see its screen)\n", line);
	return reply(out, 0, "pane %s\n", line);
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
