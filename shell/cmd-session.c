/* cmd-session: the session verbs. `sandmux` alone starts (or attaches) the
 * session of the current directory; attach, ls, events and the commands
 * of the server's table (new, kill-session, tiled: command.h) talk to a
 * running server over its socket. Starting a server: the listening
 * socket is bound here first (so two starters cannot race), then the
 * server is forked into the background with its own session id. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shell/client.h"
#include "shell/cmd.h"
#include "shell/command.h"
#include "shell/mux.h"
#include "shell/proto.h"

struct target {
	char dir[PATH_MAX];
	char name[64];
	char path[PATH_MAX + 80];
};

static int listen_at(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof sa.sun_path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sa.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	mode_t old = umask(0177);
	int r = bind(fd, (struct sockaddr *)&sa, sizeof sa);
	umask(old);
	if (r < 0 || listen(fd, 64) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* The server's calls into the files above it (mux.h). */
/* A frame, then the title events of whatever changed a title in it. */
static void session_draw(struct server *s)
{
	redraw_clients(s);
	control_titles(s);
}

static const struct server_hooks hooks = {
	.key = bindings_key,
	.command = cmd_run_argv,
	.ctl_input = ctl_input,
	.subscribe = control_subscribe,
	.caught_up = control_caught_up,
	.bindable = cmd_bindable,
	.draw = session_draw,
	.draw_active = redraw_active,
	.resize = session_resize,
	.close_pane = window_close_pane,
};

/* The server process: detached from the terminal, in its own session. */
static void daemonize(int listen_fd, const struct target *t, const char *workspace, const char *profile)
{
	if (setsid() < 0)
		_exit(1);
	pid_t pid = fork();
	if (pid != 0)
		_exit(pid < 0 ? 1 : 0);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		close(null);
	}
	if (chdir("/") < 0)
		_exit(1);
	_exit(server_start(t->name, t->path, listen_fd, workspace, profile, &hooks));
}

static int start_server(const struct target *t, const char *workspace, const char *profile)
{
	int fd = listen_at(t->path);
	if (fd < 0 && errno == EADDRINUSE) {
		int probe = client_connect(t->path);
		if (probe >= 0) {
			close(probe);
			return 0; /* someone else started it meanwhile */
		}
		unlink(t->path); /* stale: its server is gone */
		fd = listen_at(t->path);
	}
	if (fd < 0) {
		fprintf(stderr, "sandmux: cannot listen on %s: %s\n", t->path, strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "sandmux: fork: %s\n", strerror(errno));
		close(fd);
		return -1;
	}
	if (pid == 0)
		daemonize(fd, t, workspace, profile);
	close(fd);
	waitpid(pid, NULL, 0);
	return 0;
}

static int target_init(struct target *t, const char *name)
{
	char err[512];
	if (sockdir_get(t->dir, sizeof t->dir, err, sizeof err) < 0) {
		fprintf(stderr, "sandmux: %s\n", err);
		return -1;
	}
	snprintf(t->name, sizeof t->name, "%s", name);
	snprintf(t->path, sizeof t->path, "%s/%s", t->dir, t->name);
	return 0;
}

/* Live sessions in the socket directory; stale sockets are removed. */
static int list_sessions(const char *dir, char names[][64], int max)
{
	DIR *d = opendir(dir);
	if (d == NULL)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < max) {
		char path[PATH_MAX + 80];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (e->d_name[0] == '.' || strlen(e->d_name) >= 64 || lstat(path, &st) < 0 || !S_ISSOCK(st.st_mode))
			continue;
		int fd = client_connect(path);
		if (fd < 0) {
			if (errno == ECONNREFUSED)
				unlink(path);
			continue;
		}
		close(fd);
		memcpy(names[n++], e->d_name, strlen(e->d_name) + 1);
	}
	closedir(d);
	return n;
}

/* -t NAME, else the current directory's session, else the only one. */
static int target_pick(struct target *t, const char *name)
{
	char cwd[PATH_MAX], def[64];
	if (name != NULL)
		return target_init(t, name);
	if (getcwd(cwd, sizeof cwd) == NULL)
		snprintf(cwd, sizeof cwd, "/");
	sockdir_name_for(cwd, def, sizeof def);
	if (target_init(t, def) < 0)
		return -1;
	int fd = client_connect(t->path);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	char names[2][64];
	int n = list_sessions(t->dir, names, 2);
	if (n == 1)
		return target_init(t, names[0]);
	fprintf(stderr, n == 0 ? "sandmux: no sessions running\n"
			       : "sandmux: several sessions run; name one with -t NAME (see sandmux ls)\n");
	return -1;
}

static int connect_target(const struct target *t)
{
	int fd = client_connect(t->path);
	if (fd < 0)
		fprintf(stderr, "sandmux: no session \"%s\" (%s)\n", t->name, strerror(errno));
	return fd;
}

int session_connect(const char *name)
{
	struct target t;
	return target_pick(&t, name) < 0 ? -1 : connect_target(&t);
}

/* The session of this workspace: NAME, or NAME-2, NAME-3... when another
 * directory of the same name has NAME. Returns a connected socket, -1
 * with t naming a free slot, or -2 after printing an error. */
static int session_for(const char *workspace, const char *name, struct target *t)
{
	for (int i = 1; i < 100; i++) {
		char n[64], ws[PATH_MAX];
		snprintf(n, sizeof n, i == 1 ? "%.60s" : "%.56s-%d", name, i);
		if (target_init(t, n) < 0)
			return -2;
		int fd = client_connect(t->path);
		if (fd < 0)
			return -1;
		char *argv[] = { "workspace" };
		if (client_request(fd, 1, argv, ws, sizeof ws) == 0 && strcmp(ws, workspace) == 0)
			return client_connect(t->path);
	}
	fprintf(stderr, "sandmux: too many sessions named %s\n", name);
	return -2;
}

/* sandmux [--sandbox NAME] */
static int verb_default(int argc, char **argv)
{
	const char *profile = getenv("SANDMUX_SANDBOX");
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--sandbox") == 0 && i + 1 < argc)
			profile = argv[++i];
		else {
			fprintf(stderr, "sandmux: unknown option %s\nusage: sandmux [--sandbox NAME]\n", argv[i]);
			return 2;
		}
	}
	char workspace[PATH_MAX], name[64];
	if (getcwd(workspace, sizeof workspace) == NULL) {
		fprintf(stderr, "sandmux: cannot tell the current directory: %s\n", strerror(errno));
		return 1;
	}
	if (!isatty(STDIN_FILENO)) {
		fprintf(stderr, "sandmux: not a terminal (to add a pane from a script, use sandmux new -- CMD)\n");
		return 1;
	}
	sockdir_name_for(workspace, name, sizeof name);
	struct target t;
	int fd = session_for(workspace, name, &t);
	if (fd == -2)
		return 1;
	if (fd < 0) {
		char resolved[128];
		if (session_profile(workspace, profile, resolved, sizeof resolved) < 0)
			return 1;
		if (start_server(&t, workspace, resolved) < 0)
			return 1;
		for (int i = 0; i < 100 && fd < 0; i++) /* the server is listening already: this is quick */
			if ((fd = client_connect(t.path)) < 0)
				usleep(10000);
		if (fd < 0) {
			fprintf(stderr, "sandmux: the server did not start (see ~/.sandmux/state/server.log)\n");
			return 1;
		}
	}
	return client_attach(fd, profile);
}

static int verb_attach(int argc, char **argv)
{
	const char *name = NULL, *profile = getenv("SANDMUX_SANDBOX");
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-t") == 0 && i + 1 < argc)
			name = argv[++i];
		else if (strcmp(argv[i], "--sandbox") == 0 && i + 1 < argc)
			profile = argv[++i];
		else {
			fprintf(stderr, "usage: sandmux attach [-t NAME]\n");
			return 2;
		}
	}
	int fd = session_connect(name);
	return fd < 0 ? 1 : client_attach(fd, profile);
}

/* A command of the server's table (new, kill-session, tiled...): an
 * optional -t NAME first, the rest to the server. */
static int verb_remote(int argc, char **argv, const char *verb)
{
	const char *name = NULL;
	int i = 1;
	if (i + 1 < argc && strcmp(argv[i], "-t") == 0) {
		name = argv[i + 1];
		i += 2;
	}
	if (strcmp(verb, "new") == 0 && i + 1 < argc && strcmp(argv[i], "--file") == 0) {
		if (i + 2 != argc) {
			fprintf(stderr, "usage: sandmux new [-t SESSION] --file WALL.json\n");
			return 2;
		}
		signal(SIGPIPE, SIG_IGN);
		return ctl_wall_file(name, argv[i + 1]);
	}
	int fd = session_connect(name);
	if (fd < 0)
		return 1;
	argv[i - 1] = (char *)verb;
	return client_command(fd, argc - i + 1, argv + i - 1);
}

/* sandmux events [-t NAME] [--pane N] [--kind K,...] */
static int verb_events(int argc, char **argv)
{
	const char *name = NULL;
	long pane = 0;
	unsigned kinds = 0;
	for (int i = 1; i < argc; i++) {
		char *end = NULL;
		if (strcmp(argv[i], "-t") == 0 && i + 1 < argc)
			name = argv[++i];
		else if (strcmp(argv[i], "--pane") == 0 && i + 1 < argc &&
			 ((pane = strtol(argv[++i], &end, 10)) > 0 && pane < INT_MAX && *end == 0))
			continue;
		else if (strcmp(argv[i], "--kind") == 0 && i + 1 < argc &&
			 (kinds = control_kinds_parse(argv[++i])) != 0)
			continue;
		else {
			fprintf(stderr, "usage: sandmux events [-t NAME] [--pane N] [--kind "
					"denial,prompt,answer,exit,attention,title]\n");
			return 2;
		}
	}
	int fd = session_connect(name);
	return fd < 0 ? 1 : client_events(fd, (int)pane, kinds);
}

/* ls --json: one array of the sessions' objects (control.c), [] when
 * none runs, so that a script needs no special case. */
static int ls_json(char names[][64], int n)
{
	char *reply = malloc(MSG_MAX);
	if (reply == NULL)
		return 1;
	printf("[");
	for (int i = 0, first = 1; i < n; i++) {
		struct target t;
		target_init(&t, names[i]);
		int fd = client_connect(t.path);
		char *info[] = { "info", "--json" };
		if (fd >= 0 && client_request(fd, 2, info, reply, MSG_MAX) == 0) {
			printf("%s%s", first ? "" : ",", reply);
			first = 0;
		}
	}
	printf("]\n");
	free(reply);
	return 0;
}

static int verb_ls(int argc, char **argv)
{
	bool json = argc == 2 && strcmp(argv[1], "--json") == 0;
	if (argc > 1 && !json) {
		fprintf(stderr, "usage: sandmux ls [--json]\n");
		return 2;
	}
	struct target t;
	if (target_init(&t, "x") < 0)
		return 1;
	char names[256][64];
	int n = list_sessions(t.dir, names, 256);
	if (json)
		return ls_json(names, n);
	if (n == 0) {
		fprintf(stderr, "sandmux: no sessions running\n");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		target_init(&t, names[i]);
		int fd = client_connect(t.path);
		char *info[] = { "info" };
		if (fd >= 0)
			client_command(fd, 1, info);
	}
	return 0;
}

int cmd_session(int argc, char **argv)
{
	if (strcmp(argv[0], "attach") == 0)
		return verb_attach(argc, argv);
	if (strcmp(argv[0], "ls") == 0)
		return verb_ls(argc, argv);
	if (strcmp(argv[0], "events") == 0)
		return verb_events(argc, argv);
	if (cmd_lookup(argv[0], CMD_CLI) != NULL) /* the server's command table */
		return verb_remote(argc, argv, argv[0]);
	return verb_default(argc, argv);
}
