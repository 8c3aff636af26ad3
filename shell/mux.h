/* mux: the multiplexer server's state — one session of windows of panes,
 * the attached clients — and the functions its files share. All state
 * lives in struct server; the server process has exactly one.
 *
 *   server.c        the process: socket, signals, event loop, shutdown
 *   server-draw.c   when the session is drawn (coalesced under a flood)
 *   server-client.c one attached (or commanding) client: messages, input
 *   client-io.c     what the server sends a client, and a client's end
 *   session.c       windows of the session; its size (smallest client)
 *   window.c        a window's panes and layout: split, close, focus, zoom
 *   pane.c          a pane: its PTY, sandboxed process, screen, title
 *   pane-io.c       a pane's PTY output read into its screen, input queued
 *   pane-spawn.c    a pane's policy and its sandbox (backends/run.h)
 *   pane-limits.c   a pane's resource limits
 *   denial-sink.c   where a pane's denials go (log, events, title, prompt)
 *   pane-osc.c      a pane's OSC strings: clipboard, shell integration hook
 *   redraw.c        composing each client's screen with ui/
 *   bindings.c      a client's keys: the prefix, bound commands, the prompts
 *   command.c       the one command table and its front ends (command.h)
 *   args.c          every command's argument parser (args.h)
 *   cmd-find.c      every command's target lookup: pane id, name, W.N
 *   cmd-pane.c      the commands on a pane (split, kill, send-keys, capture...)
 *   cmd-new-pane.c  new-pane: `sandmux new`, ctl's new-pane, `:new-pane`
 *   cmd-window.c    the commands on windows (layouts, select, rename...)
 *   cmd-server.c    the commands on the session and clients (detach, help...)
 *   control.c       events to subscribers, the session as JSON (`ls --json`)
 *   ctl.c           the control interface: JSON-line requests on the socket
 *   alerts.c        attention: prompts, bell, notifications, quiet panes
 *   mode.c          a client's modes (help, overview.c, the prompt), a pane's (copy)
 *   status-prompt.c the status line's prompt: `:`, rename, search, y/n
 *   copy.c          copy mode: scroll, search, select, copy
 *   config.c        ~/.sandmux/sandmux.json
 *   peer.c          refusing socket peers that run inside a sandbox
 *   session-tmp.c   the session's temp dir
 *   sockdir.c       the private socket directory and session names
 * and, outside the server: client.c (the attached terminal), proto.c
 * (the socket's messages), cmd-session.c (the verbs). */
#ifndef MUX_H
#define MUX_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "policy/policy.h"
#include "policy/buf.h"
#include "shell/keys.h"
#include "shell/layout.h"
#include "ui/ui.h"

struct loop;
struct watch;
struct vt;
struct ui;
struct policy;
struct denial;
struct run;
struct run_opts;

/* ~/.sandmux/sandmux.json */
#define MUX_MAX_BINDS        32
#define MUX_MAX_PARKED       64
/* sandmux.json's "limits" when it names none (README "Resource limits") */
#define MUX_LIMIT_PIDS       4096
#define MUX_LIMIT_MEMORY_MIB 8192
#define MUX_LIMIT_TMP_MIB    1024
#define MUX_ALERT_ARGS       8
struct mux_bind {
	struct key key;
	char cmd[32];
};

struct mux_config {
	struct key prefix;
	struct mux_bind binds[MUX_MAX_BINDS]; /* "bind": {"KEY": "COMMAND"}, before the defaults */
	int nbinds;
	int scrollback;
	bool status;
	bool clipboard_write; /* OSC 52 writes reach the sandmux buffer */
	bool mouse;           /* the outer terminal's mouse always reported (click to focus, drag borders, wheel) */
	int net_hold;         /* seconds a refused connection waits for its prompt; 0: never */
	int quiet_after;      /* seconds of quiet after output that ask for attention; 0: never */
	enum { ALERT_TERM_OFF, ALERT_TERM_OSC9, ALERT_TERM_OSC777 } alert_terminal; /* tell the person's terminal */
	char alert_argv[MUX_ALERT_ARGS][256]; /* "alert_command": run with the alert's text added */
	int alert_argc;
	struct limits limits; /* "limits": every pane's, unless its profile sets lower ones */
	bool denials_audit;   /* "denials": "audit": Landlock's audit records report the writes
			       * where they can be read (backends/run.h: opts.audit) */
};
/* Defaults, then the file at path (may be absent). 0, or -1 with
 * "FILE:LINE:COL: FIELD: what is wrong" in err. bindable says which
 * commands "bind" may name (cmd_bindable; NULL: any). */
int mux_config_load_checked(struct mux_config *, const char *path, bool (*bindable)(const char *name), char *err,
			    size_t errlen);
int mux_config_load(struct mux_config *, const char *path, char *err, size_t errlen); /* bindable NULL */
void mux_config_defaults(struct mux_config *);

enum pane_state { PANE_RUNNING, PANE_EXITED, PANE_KILLED, PANE_FAILED };

struct pane_mode;   /* mode.h */
struct client_mode; /* mode.h */

struct pane {
	struct pane *next; /* in its window, in creation order */
	struct window *win;
	struct server *srv;
	int id;
	char name[64];
	char profile[64];
	int fd; /* PTY master, -1 once the program is gone and drained */
	pid_t pid;
	bool sandboxed;    /* pid is the sandbox's init (exit 128+N: signal N) */
	bool weak;         /* the weaker sandbox (no user namespaces): "weak" in the title */
	bool keep_on_exit; /* a command from `sandmux new`: stays after exit 0 */
	struct watch *fdw;
	struct buf wq; /* bytes for the program, waiting for room in the PTY */
	struct vt *vt;
	enum pane_state state;
	int status; /* exit status or signal */
	int denials;
	int x, y, w, h; /* on screen, title line included */
	bool resized;
	const struct pane_mode *mode; /* copy mode (shell/mode.h), or NULL */
	void *mode_data;              /* ... its state, the mode's own */
	/* OSC 7/133/633 from the program (shell integration) go here; set it
	 * after pane_new(). OSC 52 is handled by pane-osc.c. */
	void (*osc_hook)(int command, const char *arg, size_t len, void *data);
	void *osc_hook_data;
	struct run *run;           /* its sandbox (backends/run.h), kept after the end
				    * until a restart or pane_free (held connections) */
	struct policy *run_policy; /* what that sandbox decides by, kept as long as it */
	struct esc_pane *esc;      /* prompts, grants, what a restart runs (shell/escalate.h) */
	unsigned alerts;           /* ALERT_BELL | ALERT_NOTIFY | ALERT_QUIET not yet seen (alerts.c) */
	uint64_t last_output;      /* loop_now_ms() of its last output */
	uint64_t seen_at;          /* ... and of the last frame that showed it */
	uint64_t told_at;          /* ... and of its last notification told outside (alerts.c) */
	uint64_t quiet_timer;
	uint64_t read_timer;      /* a pane not typed into rests a moment after a full read (pane.c) */
	unsigned limits_said;     /* the limits hit since the start already said in the pane */
	char *capture;            /* capture mode: the pane's layer directory, NULL otherwise */
	int captured;             /* what the layer held when the command last ended */
	int capture_lock;         /* its lock while the command runs (capture_layer_lock), or -1 */
	struct request_pane *req; /* its request channel (shell/request.h), or NULL */
	uint64_t title_sum;       /* a hash of the title line last told subscribers (control.c) */
};

struct window {
	struct window *next;
	struct server *srv;
	int index;
	char name[32];
	struct pane *panes;
	struct pane *active;
	struct layout *root;
	bool zoomed;
	int preset; /* last layout_preset applied, -1 none */
};

struct client {
	struct client *next;
	struct server *srv;
	int fd;
	struct watch *w;
	struct buf in, out;
	/* the client's terminal, passed with its hello (SCM_RIGHTS): frames
	 * are written to it here, as tmux does, rather than relayed by the
	 * client (one process fewer between a key and its echo); -1: relayed */
	int tty;
	struct buf tty_out;  /* what the terminal has not taken yet */
	struct watch *tty_w; /* waits for it to take more, or for keys */
	/* once the client hands its keys over too (MSG_TTY_INPUT): what is
	 * read from the terminal goes here (shell/server-client.c), else NULL */
	void (*tty_input)(struct client *, const char *data, size_t len);
	bool attached;
	bool closing; /* drop once out is sent */
	int rows, cols;
	struct ui *ui;
	bool full;                      /* redraw everything at the next draw */
	bool prefix;                    /* the prefix key was pressed */
	bool pasting;                   /* inside a bracketed paste: every byte is text */
	const struct client_mode *mode; /* covers the screen and takes keys (shell/mode.h), or NULL */
	int mode_sel, mode_top;         /* the mode's selected row and first row shown */
	struct buf keys;                /* input bytes not yet a whole key */
	uint64_t keys_timer;            /* flushes them if no more come (client_keys_late) */
	struct layout *drag;            /* a border being dragged with the mouse */
	int drag_index;
	/* under mode (shell/mode.h): one that lets keys through, back when mode ends */
	const struct client_mode *mode_under;
	/* the status line's prompt (mode_prompt, shell/status-prompt.c) */
	char prompt[128];                                       /* what is typed so far */
	char prompt_label[64];                                  /* ":", "search: ", or a y/n question */
	void (*prompt_done)(struct client *, const char *text); /* on Enter */
	void (*prompt_yes)(struct client *, int arg);           /* a question's y, else NULL */
	int prompt_arg;                                         /* ... its argument (the pane y kills) */
	char message[128];                                      /* one line shown in the status bar until a key */
	/* escalation (shell/escalate-view.c) */
	int denials_filter; /* its pane filter, 0: all */
	int denials_top;    /* its first line shown (mode_denials) */
	int sandbox_pane;   /* the pane whose prompt takes keys (mode_sandbox), 0: none */
	/* mode_captured's state (shell/captured-view.c) */
	struct captured_view *captured;
	/* the control interface (shell/ctl.c): JSON lines, not framed */
	bool ctl;
	bool ctl_skip; /* inside a line too long to take: skipping to its end */
	bool ctl_eof;  /* it shut its writing side: answers and events still go out */
	/* an event subscriber (shell/control.c): never attached */
	bool subscribed;
	int sub_pane;          /* only this pane's events, 0: all */
	unsigned sub_kinds;    /* only these kinds (control_kinds_parse), 0: all */
	unsigned long dropped; /* events not queued since it fell behind */
};

/* What the server's lower files (server.c, server-client.c, server-draw.c,
 * client-io.c, pane.c) call in the higher ones — the key bindings, the
 * command table, the control interface, the event subscribers, drawing,
 * the session's size, closing a pane's window — given by the caller of
 * server_start(), so that no arrow points up (README "Layout"). */
struct server_hooks {
	void (*key)(struct client *, const struct key *, const char *raw, size_t rawlen); /* bindings_key */
	int (*command)(struct server *, int argc, const char **argv, const char *cwd, struct buf *reply);
	void (*ctl_input)(struct client *);                                 /* ctl.c */
	int (*subscribe)(struct client *, const char *payload, size_t len); /* control.c; -1: malformed */
	void (*caught_up)(struct client *);                                 /* control.c */
	bool (*bindable)(const char *name);                                 /* config.c's check */
	void (*draw)(struct server *);                                      /* redraw_clients, for server-draw.c */
	void (*resize)(struct server *);                                    /* session_resize, for client-io.c */
	void (*close_pane)(struct window *, struct pane *);                 /* window_close_pane, for pane.c */
	void (*draw_active)(struct server *);                               /* redraw_active, for server-draw.c */
};

struct server {
	const struct server_hooks *hooks;
	struct loop *loop;
	struct mux_config cfg;
	char cfg_err[600]; /* shown to each client that attaches */
	char name[64];
	char *sock_path;
	char *workspace;
	char *home; /* $HOME when the server started, NULL unless absolute */
	char *profile;
	char *tmpdir; /* the session's temp dir (session-tmp.c) */
	int listen_fd, sig_fd;
	struct watch *listen_w, *sig_w;
	FILE *log;
	struct client *clients;
	struct window *windows;
	struct window *cur;
	int next_window, next_pane;
	int rows, cols;                    /* the session's size: the smallest attached client */
	struct buf paste;                  /* the copy-mode buffer */
	struct ui *parked[MUX_MAX_PARKED]; /* screens of gone clients, for reuse (ui_park) */
	int nparked;
	uint64_t draw_timer, last_draw;
	uint32_t term_rgb[3];           /* the attached terminal's fg, bg, cursor (shell/term-colors.h) */
	unsigned term_known;            /* bit i: term_rgb[i] was answered */
	uint64_t last_input;            /* when a client last typed (pane.c: floods rest meanwhile) */
	uint64_t flood_start;           /* pane output in the tick from flood_start */
	size_t flood_bytes, flood_prev; /* this tick's, the last tick's */
	bool draw_pending;
	bool draw_held;    /* the pending draw waits out a flood's tick */
	bool echo_pending; /* the active pane alone is drawn at this turn's end */
	bool quit;
	char quit_why[64];        /* what asked it to end: "kill-session", "signal 15 (SIGTERM)" */
	struct esc_server *esc;   /* the shell integration (shell/escalate-pane.c) */
	struct denial_sink *sink; /* the session's denial events (shell/denial-sink.c) */
	/* The panes' observer processes are forked from it (backends/observer-zygote.h). */
	struct observer_zygote *observers;
};

/* server.c */
int server_start(const char *name, const char *sock_path, int listen_fd, const char *workspace, const char *profile,
		 const struct server_hooks *);
/* server-log.c: ~/.sandmux/state/server.log. */
void server_log(struct server *, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* From now on a fatal signal writes one line into the log first. */
void server_log_crashes(struct server *);
/* server-draw.c: counts pane output, which decides whether drawing is
 * coalesced. */
void server_output(struct server *, size_t n);
/* Asks for a draw at the next tick; full: every client repaints all. */
void server_redraw(struct server *, bool full);
/* Draw at the end of this loop turn, flood or not (a typed key's echo). */
void server_redraw_now(struct server *);
/* server.c */
void server_shutdown(struct server *);

/* server-client.c */
void client_accept(struct server *);
/* client-io.c: ends a client: why (NULL: say nothing) is printed by it, as a normal
 * end (drop) or an error (fail). */
void client_drop(struct client *, const char *why);
void client_fail(struct client *, const char *why);
void client_send(struct client *, int type, const void *data, size_t len);
/* Bytes for the client's terminal: to the terminal itself when the
 * client passed it, else in MSG_OUTPUT messages; sent by client_push(),
 * which the caller calls before its turn ends. */
void client_output(struct client *, const char *data, size_t len);
/* The loop's interest in the client's terminal, after tty_input or the
 * bytes waiting for it changed. */
void client_tty_watch(struct client *);
/* A control-interface client: text and a newline, unframed. */
void client_send_line(struct client *, const char *text);
/* Whether c is still connected: a key or message may drop its client. */
bool client_alive(const struct server *, const struct client *);
void client_message(struct client *, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The client is so far behind that drawing for it is skipped. */
bool client_behind(const struct client *);
/* LOOP_IN, unless a control client has said all it will say or is
 * behind; 0 then. */
int client_reading(const struct client *);
/* Writes what is queued now, as far as the socket takes it without
 * blocking (a frame should not wait for the next loop turn); errors are
 * left for the loop to see. */
void client_push(struct client *);

/* peer.c: why a connecting process may not use the session (it runs in
 * a pane's sandbox), or NULL. */
const char *peer_refusal(const struct server *, pid_t pid);

/* session.c */
struct window *session_new_window(struct server *, const char *name);
void session_remove_window(struct server *, struct window *);
void session_select(struct server *, struct window *);
/* Recomputes the session size from the attached clients. */
void session_resize(struct server *);
int session_area_rows(const struct server *); /* rows for panes (without status) */
int session_pane_count(const struct server *);

/* window.c */
struct pane_spec {
	char *const *argv; /* NULL: $SHELL */
	const char *name;
	const char *profile; /* NULL: the session's */
	const char *cwd;     /* NULL: the workspace */
	const char *agent;   /* --agent: the agent preset the command is; NULL: by argv[0] */
};
/* Splits the active pane (LAYOUT_LR / LAYOUT_TB, or 0: along its longer
 * side) and starts a pane. NULL with err when there is no room. */
struct pane *window_split(struct window *, int type, const struct pane_spec *, char *err, size_t errlen);
void window_close_pane(struct window *, struct pane *);
void window_focus(struct window *, struct pane *);
void window_focus_dir(struct window *, int dx, int dy);
void window_zoom(struct window *);
void window_resize_pane(struct window *, int dx, int dy);
void window_next_layout(struct window *, int preset); /* preset -1: the next one */
/* Lays the window out in the session area and resizes its panes. */
void window_layout(struct window *);

/* pane.c */
struct pane *pane_new(struct window *, const struct pane_spec *, int cols, int rows);
void pane_free(struct pane *);
void pane_resize(struct pane *, int w, int h);
/* Ends what runs in the pane and starts spec's program again on a new
 * PTY, keeping the screen (an approved escalation, shell/escalate.h). */
void pane_respawn(struct pane *, const struct pane_spec *);
/* The title line: "[1] name · profile · running · denials 0". */
void pane_title(const struct pane *, char *buf, size_t cap);
/* Capture mode, after the command ended: counts what its layer holds and
 * lists each change in the denials pane (op "captured"). */
void pane_captured(struct pane *);
/* The pane has no capture layer any more (a restart makes a new one). */
void pane_capture_drop(struct pane *);
/* Its sandbox is gone: the layer may be applied or discarded now. */
void pane_capture_unlock(struct pane *);
struct pane *pane_find(const struct server *, int id); /* cmd-find.c */

/* pane-io.c: queues input for the program (dropped once 1 MiB waits). */
void pane_write(struct pane *, const char *, size_t);
/* Reads what the program has written so far, now (a denial arrived: the
 * shell's OSC 633;E for the command that caused it came before it). */
void pane_read_pending(struct pane *);
/* Watches the pane's new PTY master (p->fd) for output. */
void pane_io_start(struct pane *);
/* Stops watching the PTY and closes it; queued input is dropped. */
void pane_close_fd(struct pane *);

/* denial-sink.c: adds one to the pane's denial counter in its title. */
void pane_add_denial(struct server *, int pane_id);

/* pane-osc.c: routes the pane's OSC strings (clipboard, osc_hook). */
void pane_osc_init(struct pane *);
/* Answers the pane's colour queries with the attached terminal's colours
 * the server has (server.term_rgb); the defaults otherwise. */
void pane_osc_colors(struct pane *);

/* alerts.c: what asks for the person's attention (bell, notification,
 * quiet after output, a waiting prompt), per pane and per window. */
enum { ALERT_PROMPT = 1, ALERT_BELL = 2, ALERT_NOTIFY = 4, ALERT_QUIET = 8 };
unsigned alerts_pane(const struct pane *);
void alerts_bell(struct pane *);
void alerts_prompt(struct pane *);
/* OSC 9, 777 and 99 from the pane's program. */
void alerts_notify(struct pane *, int command, const char *arg, size_t len);
void alerts_output(struct pane *);
/* A frame shows the current window: its panes' alerts end. */
void alerts_seen(struct server *);
void alerts_pane_free(struct pane *);
/* The status-bar mark of a window: "!", "#", "~" or "". */
const char *alerts_window_mark(const struct window *);

/* pane-limits.c: a pane's resource limits, asked of each start (run.h
 * makes them kernel state and watches their counters). tag: room for
 * the cgroups' name. */
void pane_limits_opts(struct pane *, struct policy *, struct run_opts *, char *tag, size_t cap);
/* The same for any sandbox the server starts (what: "pane", "request";
 * id: its pane): sandmux.json's limits lowered by pol's. */
void limits_opts(struct server *, struct policy *pol, struct run_opts *, const char *what, int id, char *tag,
		 size_t cap);
/* After the start: the limits in force, in the log. */
void pane_limits_started(struct pane *);
/* A limit hit (op "limit"): in the log, and once per start in the pane. */
void pane_limits_denial(struct pane *, const struct denial *);
/* " · pids 64 mem 64M tmp 16M" for a running sandboxed pane, else "" */
void pane_limits_title(const struct pane *, char *buf, size_t cap);

/* redraw.c */
void redraw_clients(struct server *);
/* The active pane's changes alone (an echo while another pane floods):
 * the other panes' dirty rows wait for the next tick. */
void redraw_active(struct server *);

/* session-tmp.c: the session's temp dir, made and removed. */
char *session_tmp_make(const char *home, const char *name, char *err, size_t errlen);
void session_tmp_remove(const char *path);

/* pane-spawn.c: the profile a new session runs under (flag, then
 * $SANDMUX_SANDBOX, then the config), resolved now so that a bad policy is
 * reported on the terminal; 0, or -1 after printing why. */
int session_profile(const char *workspace, const char *flag, char *name, size_t cap);
/* pane-spawn.c: the pane's policy as a new start would load it (its
 * profile, the session temp dir), without grants; 0, or -1 with err. */
int pane_policy(struct pane *, struct policy **, char *err, size_t errlen);
/* pane-spawn.c: starts the program on the PTY slave, sandboxed
 * (backends/run.h); on_exit(code, sig, pane) when it ends. */
int pane_spawn(struct pane *, const struct pane_spec *, char *const *argv, char **env, int slave,
	       void (*on_exit)(int code, int sig, void *pane), char *err, size_t errlen);
/* Ends the pane's sandbox, if it has one, and frees what it decided by
 * (pane_free and every respawn). */
void pane_run_stop(struct pane *);

/* bindings.c: handles one key typed by a client. */
void bindings_key(struct client *, const struct key *, const char *raw, size_t rawlen);

/* The command table, its front ends and target lookup: command.h. */

/* ctl.c: the control interface (JSON lines; a connection whose first
 * byte is '{'). Takes every whole request line in the client's input. */
void ctl_input(struct client *);

/* control.c: events to subscribers and the session as JSON. */
struct denial;
/* MSG_SUBSCRIBE from a client: it gets every event from now on. */
int control_subscribe(struct client *, const char *payload, size_t len); /* -1: malformed, drop it */
/* "denial,exit" as a mask of event kinds; 0 when one is unknown. */
unsigned control_kinds_parse(const char *list);
/* One denial (every one, not coalesced) to the subscribers that want it. */
void control_publish(struct server *, const struct denial *);
/* One event {"event":KIND,"pane":N,...fields} to the subscribers that
 * want it; takes fields (an object, or NULL). */
struct cJSON;
void control_event(struct server *, const char *kind, int pane, struct cJSON *fields);
/* "prompt": the pane's newest prompt was queued; "answer": prompt seq of
 * the pane was answered (given: what was granted, or NULL). */
struct suggestion;
void control_prompt_event(struct server *, const struct pane *);
void control_answer_event(struct server *, const struct pane *, unsigned seq, const char *scope,
			  const struct suggestion *given);
/* The session, its windows and panes (`ls --json`, ctl's "list"). */
struct cJSON *control_session_json(const struct server *);
/* Whether any client follows the events. */
bool control_has_subscriber(const struct server *);
/* control-titles.c, at each draw: a "title" event for every pane whose
 * title line (its program's OSC 0/2, or sandmux's own text) changed since
 * last told. */
void control_titles(struct server *);
/* The client's queue is empty: a subscriber that lost events hears how
 * many, and gets events again. */
void control_caught_up(struct client *);
/* `ls --json`: the session as one JSON object. */
int control_ls(struct server *, struct buf *out);

/* copy.c: copy mode, a pane mode (mode.h's mode_copy). */
void copy_enter(struct pane *, int scroll);

/* sockdir.c */
/* The private directory for sockets: $XDG_RUNTIME_DIR/sandmux or
 * /tmp/sandmux-UID, created 0700; refuses one owned by someone else or
 * open to others. */
int sockdir_get(char *path, size_t cap, char *err, size_t errlen);
/* The session name for a directory: its base name, made safe. */
void sockdir_name_for(const char *dir, char *name, size_t cap);

#endif
