/* command: the one table of the multiplexer's commands, as tmux's
 * cmd_entry. Every verb is one entry — its name, argument spec, usage,
 * target kind, flags and exec function — and four front ends run it:
 * a key binding (bindings.c), the `:` prompt, `sandmux VERB ...` (the
 * client sends the words, server-client.c) and a control request
 * {"id":..,"verb":..} (ctl.c). Each front end parses with args.c, finds
 * the target with cmd-find.c, and reads an error the same way. */
#ifndef COMMAND_H
#define COMMAND_H

#include "shell/args.h"
#include "shell/mux.h"

struct cJSON;

enum cmd_from { CMD_FROM_KEY, CMD_FROM_PROMPT, CMD_FROM_CLI, CMD_FROM_CTL };

enum cmd_target {
	CMD_TARGET_NONE,   /* no -t */
	CMD_TARGET_PANE,   /* -t PANE, else the current window's active pane (must exist) */
	CMD_TARGET_WINDOW, /* the current window (must exist) */
};

/* Which front ends may run it. */
#define CMD_KEY    0x1  /* bound to a key, and typed at the `:` prompt */
#define CMD_CLI    0x2  /* `sandmux VERB` sends it to the server */
#define CMD_CTL    0x4  /* a control-interface verb */
#define CMD_CLIENT 0x8  /* needs an attached client (its screen or keys) */
#define CMD_LOCAL  0x10 /* `sandmux VERB` runs it in its own process, without a session */

struct cmdq;

struct cmd_entry {
	const char *name;
	const char *alias;
	struct args_spec args;
	const char *usage; /* the arguments, after the name */
	const char *key;   /* the default binding after the prefix, or NULL */
	const char *help;  /* one line for the help screen */
	enum cmd_target target;
	unsigned flags;
	/* 0, or -1 after cmdq_error() */
	int (*exec)(struct cmdq *);
};

/* One command being run: who asked, its arguments and target, where its
 * result goes. */
struct cmdq {
	struct server *s;
	struct client *c; /* the client that asked (any kind), or NULL */
	enum cmd_from from;
	const struct cmd_entry *entry;
	struct args args;
	struct window *w;    /* the current window, or the target pane's */
	struct pane *p;      /* the target pane, or the active one (may be NULL) */
	const char *cwd;     /* CMD_FROM_CLI: where `sandmux VERB` ran, else NULL */
	struct buf *out;     /* CMD_FROM_CLI: text for the client to print */
	struct cJSON *reply; /* CMD_FROM_CTL: the response object, fields added by exec */
	int status;          /* CMD_FROM_CLI: the exit status */
	char field[32];      /* after an error: the field it is about, "" none */
	char err[256];       /* ... and what is wrong */
};

extern const struct cmd_entry *const cmd_table[];

/* An entry by name or alias among those with one of flags; NULL. */
const struct cmd_entry *cmd_lookup(const char *name, unsigned flags);
/* An error for the command: status is the CLI's exit status (1, 2). */
int cmdq_error(struct cmdq *, int status, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The value of an option of q's command. */
const char *cmdq_get(const struct cmdq *, const char *name);
int cmdq_int(const struct cmdq *, const char *name, int def);

/* The front ends. Keys: runs a bound command by name, with these words,
 * for an attached client. */
void cmd_run_key(struct client *, const char *name, int argc, const char **argv);
/* The `:` prompt: a line of words. */
void cmd_run_line(struct client *, const char *line);
/* `sandmux VERB ARGS...` from a client; the exit status, text in out.
 * s is NULL for a CMD_LOCAL command run by `sandmux` itself. */
int cmd_run_argv(struct server *, int argc, const char **argv, const char *cwd, struct buf *out);
/* A control request: the verb's fields in o; 0 with the reply's fields
 * added to reply, or -1 with the error's field and text. */
int cmd_run_json(struct client *, const char *verb, const struct cJSON *o, struct cJSON *reply, char *field,
		 size_t fieldlen, char *err, size_t errlen);
/* The control interface's verbs, as hello lists them. */
struct cJSON *cmd_ctl_verbs(void);
/* Help lines, for the help screen; returns the count. */
int cmd_help(const struct server *, char lines[][96], int max);
/* Whether a command of that name can be bound to a key (config.c). */
bool cmd_bindable(const char *name);

/* cmd-find.c: targets as tmux's. A pane: its id ("3", or "%3"), "W.N"
 * (window W's Nth pane from 0) or its name; NULL: the current window's
 * active pane. A window: its index or name. NULL when there is none. */
struct pane *cmd_find_pane(const struct server *, const char *target);
struct window *cmd_find_window(const struct server *, const char *target);

/* A pane for spec in w (NULL: the current window), or in a new window when
 * w has no room; NULL with err. */
struct pane *cmd_new_pane(struct server *, struct window *w, const struct pane_spec *, char *err, size_t errlen);

/* The table's entries, one file a concept. */
extern const struct cmd_entry cmd_split_h_entry, cmd_split_v_entry, cmd_kill_pane_entry, cmd_select_up_entry,
	cmd_select_down_entry, cmd_select_left_entry, cmd_select_right_entry, cmd_next_pane_entry, cmd_zoom_entry,
	cmd_resize_up_entry, cmd_resize_down_entry, cmd_resize_left_entry, cmd_resize_right_entry, cmd_resize_entry,
	cmd_new_pane_entry, cmd_send_keys_entry, cmd_send_text_entry, cmd_capture_entry, cmd_copy_mode_entry,
	cmd_paste_entry; /* cmd-pane.c */
extern const struct cmd_entry cmd_next_layout_entry, cmd_tiled_entry, cmd_new_window_entry, cmd_next_window_entry,
	cmd_prev_window_entry, cmd_select_entry, cmd_rename_window_entry; /* cmd-window.c */
extern const struct cmd_entry cmd_detach_entry, cmd_help_entry, cmd_overview_entry, cmd_denials_entry, cmd_answer_entry,
	cmd_command_prompt_entry, cmd_hello_entry, cmd_list_entry, cmd_subscribe_entry, cmd_info_entry,
	cmd_workspace_entry, cmd_kill_session_entry, cmd_list_commands_entry; /* cmd-server.c */

#endif
