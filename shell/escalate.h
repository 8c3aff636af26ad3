/* escalate: a pane's denials become prompts, and an approved prompt
 * restarts the pane's command in a new, broader sandbox (DESIGN.md
 * "Escalation"; Landlock domains cannot be relaxed in place).
 *
 *   escalate-queue.c  the per-pane prompt queue and the grants (pure)
 *   escalate-pane.c   grants, what a restart runs, the shell integration,
 *                     the restart
 *   denial-sink.c     where a pane's denials go: log, events, title count,
 *                     prompt offer
 *   escalate-view.c   the denials pane and the prompts: keys and drawing
 *
 * The invariant: a grant only ever comes from esc_answer(), and that is
 * only called from a key typed by an attached client (to mode_sandbox or
 * the overview, mode.h) or the person's control interface
 * (escalate_answer(), ctl.c), which no sandbox can reach. What a
 * program prints never answers, and cannot choose which command a prompt
 * offers to re-run: only the shell's own signed reports can
 * (shell-report.h), and the prompt shows every byte of it. */
#ifndef ESCALATE_H
#define ESCALATE_H

#include <stdbool.h>
#include <stddef.h>

struct denial;
struct denials;
struct suggestion;
struct policy;
/* escalate-pane.c: the hooks the multiplexer calls */
struct pane;
struct pane_spec;
struct server;
struct client;
struct key;
struct run_opts;
struct window;

/* pane_new(), before the program starts: remembers what a restart runs. */
void escalate_pane_init(struct pane *, const struct pane_spec *);
/* pane_free(): frees the state. */
void escalate_pane_free(struct pane *);
/* pane_spawn(), right after the policy is loaded: broadens it by the
 * grants, picks what runs (a re-run, the shell with integration), turns
 * the observer on and sets how long connections are held. extra: more
 * variables (or NULL); the start's extra_env becomes a merged copy owned
 * by the pane until ..._end. */
void escalate_spawn_begin(struct pane *, struct policy *, struct run_opts *, char *const *extra);
/* After run_start(), whether or not it started. */
void escalate_spawn_end(struct pane *);
/* The program ended (pane.c's exit handler). */
void escalate_pane_exited(struct pane *);
/* denial-sink.c: every denial of the pane's sandbox (run.h's callback,
 * arg the pane): logged, counted in the title, in the session's events
 * and to the control subscribers, and offered as a prompt. */
void denial_sink_pane(struct denial *, void *pane);
/* A denial of the command an approved request of the pane runs: the
 * same, attributed to the pane, but its prompt (by_request) re-runs
 * nothing when answered, and it is not offered again when the pane's
 * own command fails. */
void denial_sink_request(struct pane *, struct denial *);
/* The command ended badly (status) after denials: the prompt still open
 * says so, or the latest denial's prompt is offered again. */
void denial_sink_reoffer(struct pane *, int status);
void denial_sink_free(struct server *);
/* A write that landed in the pane's capture layer (op: create, write,
 * remove, replace): an event "captured" that offers nothing, to the
 * denials pane, the log and the control subscribers. */
void escalate_captured(struct pane *, const char *path, const char *op);
/* Restarts the pane's command (or, after an answer in a shell pane, the
 * re-run) under the pane's grants. */
void escalate_restart(struct pane *);
/* An agent pane (policy/agents.h): the command a restart runs instead,
 * with the agent's resume arguments ("claude --continue"), into buf, and
 * the agent's name; NULL when the pane's command (or, in a shell pane,
 * the command line `line`) is no agent that can resume. */
const char *escalate_resume(const struct pane *, const char *line, char *buf, size_t cap);
/* denial-sink.c: the session's coalesced denials, oldest first (NULL:
 * out of memory). */
const struct denials *escalate_denials(struct server *);
/* A connection of the pane waits for its prompt (the proxy holds it). */
bool escalate_net_held(const struct pane *);
/* Answers held connections in place, no restart: with s (NULL: refused)
 * added to the proxy's policy for the rest of this run, every held
 * connection is decided again. */
void escalate_net_answer(struct pane *, const struct suggestion *s);
/* escalate-view.c: " · prompt!" while a prompt waits, and while a
 * connection is held " · held, refused in 27s" (else ""), into buf. */
void escalate_title_mark(const struct pane *, char *buf, size_t cap);
/* A connection of the pane is held: its title counts down every second
 * until none is. */
void escalate_held_tick(struct pane *);
/* The key bindings: the denials pane, the next pending prompt. */
void escalate_toggle_denials(struct client *);
void escalate_next_prompt(struct client *);
/* The control interface's "answer" (ctl.c): the person's own channel, as
 * good as a key. Answers p's head prompt; -1 with why when it could not. */
enum esc_scope;
int escalate_answer(struct client *, struct pane *, enum esc_scope, char *err, size_t errlen);
/* redraw: the prompts over their panes (the denials pane is a client
 * mode, mode_denials in mode.h). */
void escalate_draw_prompts(struct client *, struct window *);
void escalate_server_free(struct server *);
/* escalate-grant.c: makes the file or directory an approved grant names
 * when it does not exist yet (s->create), as the person. 0, or -1 with
 * one line in err. */
int escalate_grant_make(const struct suggestion *s, char *err, size_t len);

#endif
