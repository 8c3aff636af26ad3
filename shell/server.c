/* server: the session's process. It owns every PTY, sandbox and screen in
 * one event loop; clients come and go on the listening socket. It ends
 * when the last window closes, on kill-session, or on SIGTERM/SIGINT/
 * SIGHUP, and then kills every pane's sandbox (no process outlives it). */
#include "shell/mux.h"
#include "shell/escalate.h"

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "backends/loop.h"
#include "backends/observer-zygote.h"
#include "backends/safefile.h"
#include "policy/paths.h"
#include "shell/home.h"

static void on_listen(struct watch *w, int events, void *arg)
{
	(void)w;
	(void)events;
	client_accept(arg);
}

static void on_signal(struct watch *w, int events, void *arg)
{
	(void)events;
	struct server *s = arg;
	struct signalfd_siginfo si;
	while (read(watch_fd(w), &si, sizeof si) == sizeof si) {
		const char *abbrev = sigabbrev_np((int)si.ssi_signo);
		snprintf(s->quit_why, sizeof s->quit_why, "signal %u (SIG%s)", si.ssi_signo, abbrev ? abbrev : "?");
		server_log(s, "%s: shutting down", s->quit_why);
		server_shutdown(s);
	}
}

/* Signals that end the server arrive on a signalfd, in the loop. They are
 * blocked in the server only: pane.c unblocks them in each child. */
static int signals_open(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, set, NULL) < 0)
		return -1;
	signal(SIGPIPE, SIG_IGN);
	return signalfd(-1, set, SFD_NONBLOCK | SFD_CLOEXEC);
}

static int server_init(struct server *s, const char *name, const char *sock_path, int listen_fd, const char *workspace,
		       const char *profile)
{
	snprintf(s->name, sizeof s->name, "%s", name);
	s->sock_path = strdup(sock_path);
	s->workspace = strdup(workspace);
	s->profile = strdup(profile);
	s->listen_fd = listen_fd;
	s->rows = 24;
	s->cols = 80;
	s->loop = loop_new();
	s->observers = observer_zygote_new();
	sigset_t set;
	s->sig_fd = signals_open(&set);
	if (s->loop == NULL || s->observers == NULL || s->sig_fd < 0 || s->sock_path == NULL || s->workspace == NULL ||
	    s->profile == NULL)
		return -1;
	s->listen_w = watch_add(s->loop, listen_fd, LOOP_IN, on_listen, s);
	s->sig_w = watch_add(s->loop, s->sig_fd, LOOP_IN, on_signal, s);
	return s->listen_w != NULL && s->sig_w != NULL ? 0 : -1;
}

/* Once: from now on a new `sandmux` starts a new server, not this one
 * (and a later unlink here would remove that new server's socket). */
static void server_stop_listening(struct server *s)
{
	if (s->listen_w == NULL)
		return;
	unlink(s->sock_path);
	watch_del(s->listen_w);
	s->listen_w = NULL;
}

void server_shutdown(struct server *s)
{
	s->quit = true;
	server_stop_listening(s);
}

static void server_free(struct server *s)
{
	while (s->clients != NULL)
		client_drop(s->clients, s->windows == NULL ? "exited" : "server exited");
	while (s->windows != NULL)
		session_remove_window(s, s->windows);
	observer_zygote_free(s->observers); /* after the panes: their observers are its children */
	server_stop_listening(s);
	close(s->listen_fd);
	if (s->sig_fd >= 0)
		close(s->sig_fd);
	loop_free(s->loop);
	buf_free(&s->paste);
	while (s->nparked > 0) /* the process ends: no other screen to disturb */
		ui_free(s->parked[--s->nparked], NULL, NULL);
	free(s->sock_path);
	free(s->workspace);
	free(s->home);
	free(s->profile);
	escalate_server_free(s);
	session_tmp_remove(s->tmpdir);
	free(s->tmpdir);

	if (s->log != NULL)
		fclose(s->log);
}

/* Sends what is queued to clients being dropped, best effort, before the
 * process goes away. */
static void flush_clients(struct server *s)
{
	for (struct client *c = s->clients; c != NULL; c = c->next)
		if (c->out.len > 0 && write(c->fd, buf_data(&c->out), c->out.len) > 0)
			buf_clear(&c->out);
}

/* Cells are drawn as UTF-8 whatever locale the server was started in. */
static void server_locale(void)
{
	setlocale(LC_ALL, "");
	if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0 && setlocale(LC_CTYPE, "C.UTF-8") == NULL)
		setlocale(LC_CTYPE, "en_US.UTF-8");
}

int server_start(const char *name, const char *sock_path, int listen_fd, const char *workspace, const char *profile,
		 const struct server_hooks *hooks)
{
	server_locale();
	/* HOME is read once, here: every file under ~/.sandmux the session
	 * writes is named from this copy, and with no absolute HOME none is. */
	const char *env_home = home_env();
	struct server s = {
		.hooks = hooks, .listen_fd = -1, .sig_fd = -1, .home = env_home != NULL ? strdup(env_home) : NULL
	};
	/* ~/.sandmux/state/server.log: never through a link (backends/safefile.h) */
	char err[512];
	int logfd = s.home != NULL ? safefile_append(s.home, sm_path_rel(SM_PATH_SERVER_LOG), err, sizeof err) : -1;
	s.log = logfd >= 0 ? fdopen(logfd, "a") : NULL;
	if (server_init(&s, name, sock_path, listen_fd, workspace, profile) < 0) {
		server_log(&s, "cannot start: %s", strerror(errno));
		server_free(&s);
		return 1;
	}
	char cfgpath[4200];
	const char *home = s.home;
	sm_path(home, SM_PATH_CONFIG, cfgpath, sizeof cfgpath);
	if (mux_config_load_checked(&s.cfg, cfgpath, hooks->bindable, err, sizeof err) < 0) {
		server_log(&s, "%s (using the defaults)", err);
		size_t hl = home != NULL ? strlen(home) : 0;
		bool under = hl > 1 && strncmp(err, home, hl) == 0 && err[hl] == '/';
		snprintf(s.cfg_err, sizeof s.cfg_err, "%s%s", under ? "~" : "", err + (under ? hl : 0));
	}
	s.tmpdir = session_tmp_make(s.home, s.name, err, sizeof err);
	if (s.tmpdir == NULL) {
		server_log(&s, "cannot start: %s", err);
		server_free(&s);
		return 1;
	}
	struct window *w = session_new_window(&s, NULL);
	struct pane_spec spec = { 0 };
	if (w == NULL || window_split(w, 0, &spec, err, sizeof err) == NULL) {
		server_log(&s, "cannot start the first pane: %s", err);
		server_free(&s);
		return 1;
	}
	server_log_crashes(&s);
	server_log(&s, "started: workspace %s, profile %s, pid %d", workspace, profile, (int)getpid());
	int rc = 0;
	while (!s.quit && s.windows != NULL)
		if (loop_once(s.loop, -1) < 0 && errno != EINTR) {
			server_log(&s, "exiting: the event loop failed: %s", strerror(errno));
			rc = 1;
			break;
		}
	if (rc == 0)
		server_log(&s, "exiting: %s",
			   s.windows == NULL ? "the last window closed"
			   : s.quit_why[0]   ? s.quit_why
					     : "asked to");
	flush_clients(&s);
	server_free(&s);
	return rc;
}
