/* request: the server's end of each pane's request channel (DESIGN.md
 * "Escalation"; the wire format is backends/reqchan.h).
 *
 * `sandmux request` inside a pane asks for a command to run in a new
 * sandbox broadened by exactly what it names; the request becomes a
 * prompt in the pane's queue (escalate-queue.h), answered only by a key
 * or the person's control interface like every prompt. Approved, the
 * command runs in a new sandbox with the requester's stdio, and its exit
 * status goes back; denied, dropped or timed out, the requester hears
 * "refused". `sandmux why` reads the pane's recent denials. Nothing else
 * passes: the channel never approves, never reaches the control socket,
 * and is rate-limited per pane; a malformed message is refused and
 * counted. */
#ifndef REQUEST_H
#define REQUEST_H

#include <stdbool.h>

struct client;
struct pane;
struct esc_prompt;
struct request;
enum esc_scope;

/* pane_spawn(), before the sandbox starts: a fresh channel; returns its
 * pane end (run_opts.request_fd), or -1 (none for an unsandboxed pane). */
int request_spawn_begin(struct pane *, bool sandboxed);
/* After the start: the server's copy of the pane end goes. */
void request_spawn_end(int fd);
/* pane_free(): the channel, and every command a request runs, end. */
void request_pane_free(struct pane *);
/* A prompt holding a request leaves the queue unanswered: the requester
 * is told why, its descriptors closed. */
void request_cancel(struct request *, const char *why);
/* The prompt's four lines (malloc'ed) for a request prompt; false when
 * it does not fit the pane whole (it cannot be approved then). */
bool request_prompt_lines(const struct pane *, const struct esc_prompt *, char *l[4]);
/* The person's answer to the head prompt, a request. */
void request_answer(struct client *, struct pane *, enum esc_scope);

#endif
