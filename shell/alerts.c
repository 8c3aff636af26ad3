/* alerts: attention, per pane and per window, in one place (as tmux's
 * alerts.c does bell, activity and silence). A pane wants its person when
 *   - a sandbox prompt waits for it (ALERT_PROMPT, live: esc_pending),
 *   - it rang the bell (ALERT_BELL),
 *   - its program sent a notification: OSC 9, OSC 777;notify, OSC 99
 *     (ALERT_NOTIFY),
 *   - it went quiet for quiet_after seconds after output (ALERT_QUIET:
 *     the usual sign of an agent waiting for its person).
 * The last three are only raised while the person is not looking at the
 * pane (a pane of the current window, a client attached) and end when
 * they look; quiet only follows output they have not seen. The window's status-bar entry shows the strongest
 * mark of its panes, the pane's title turns a colour, and each new alert
 * is an "attention" event, optionally told to the person's terminal (a
 * notification sandmux builds, never the pane's bytes) and to a command
 * of their configuration (outside every sandbox: it is their file). */
#include "shell/mux.h"

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/loop.h"
#include "policy/utf8.h"
#include "shell/escalate-queue.h"
#include "shell/proto.h"

#define NOTE_MAX    200
/* A pane's notifications reach the terminal and the command at most once
 * this often (the first after the person looked, always): a program in a
 * pane can print OSC 9 in a loop, and each would fork their command. */
#define NOTE_GAP_MS 10000

/* On a client's screen now: a pane of the current window (only the
 * active one when it is zoomed), with a client attached. */
static bool seen(const struct pane *p)
{
	const struct server *s = p->srv;
	if (s->cur != p->win || (p->win->zoomed && p->win->active != p))
		return false;
	for (const struct client *c = s->clients; c != NULL; c = c->next)
		if (c->attached)
			return true;
	return false;
}

unsigned alerts_pane(const struct pane *p)
{
	return p->alerts | (esc_pending(p->esc) ? ALERT_PROMPT : 0);
}

static const char *alert_why(unsigned alert)
{
	return alert == ALERT_PROMPT   ? "prompt"
	       : alert == ALERT_BELL   ? "bell"
	       : alert == ALERT_NOTIFY ? "notification"
				       : "quiet";
}

/* Printable text only, cut whole: what reaches the person's terminal or a
 * command is never a control of the pane's. C1 controls count, whether
 * raw (0x9c ends an OSC string, 0x9b starts CSI, on a terminal that takes
 * 8-bit controls) or UTF-8 encoded (U+009C does the same on terminals that
 * decode first), and so do bytes that are no UTF-8, which a terminal may
 * read as either. */
static void note_clean(char *out, size_t cap, const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		uint32_t cp = 0;
		size_t n = utf8_decode(s + i, len - i, &cp);
		bool keep = n > 0 && cp >= 0x20 && (cp < 0x7f || cp >= 0xa0);
		size_t put = keep ? n : 1;
		if (o + put >= cap)
			break;
		if (keep)
			memcpy(out + o, s + i, n);
		else
			out[o] = cp < 0x20 && n == 1 ? ' ' : '?';
		o += put;
		i += n > 0 ? n : 1;
	}
	out[o] = 0;
}

static void tell_terminals(struct server *s, const char *note)
{
	if (s->cfg.alert_terminal == ALERT_TERM_OFF)
		return;
	char seq[NOTE_MAX + 64];
	int n = s->cfg.alert_terminal == ALERT_TERM_OSC777
			? snprintf(seq, sizeof seq, "\033]777;notify;sandmux;%s\a", note)
			: snprintf(seq, sizeof seq, "\033]9;%s\a", note);
	for (struct client *c = s->clients; c != NULL; c = c->next)
		if (c->attached) {
			client_output(c, seq, (size_t)n);
			client_push(c);
		}
}

/* The configured command, with the note as its last argument, in a
 * grandchild: the server waits only for the child, which exits at once. */
static void run_command(struct server *s, const char *note)
{
	if (s->cfg.alert_argc == 0)
		return;
	pid_t pid = fork();
	if (pid < 0) {
		server_log(s, "alert command: fork failed");
		return;
	}
	if (pid > 0) {
		waitpid(pid, NULL, 0);
		return;
	}
	if (fork() != 0)
		_exit(0);
	char *argv[MUX_ALERT_ARGS + 2];
	int i = 0;
	for (; i < s->cfg.alert_argc; i++)
		argv[i] = s->cfg.alert_argv[i];
	argv[i++] = (char *)note;
	argv[i] = NULL;
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	close_range(3, ~0u, 0); /* none of the server's descriptors */
	signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], argv);
	_exit(127);
}

static void raise_alert(struct pane *p, unsigned alert, const char *text, size_t len)
{
	struct server *s = p->srv;
	bool fresh = !(alerts_pane(p) & alert);
	if (alert != ALERT_PROMPT)
		p->alerts |= alert;
	if (!fresh && alert != ALERT_NOTIFY)
		return;
	char body[NOTE_MAX], raw[NOTE_MAX + 96], note[NOTE_MAX + 96];
	note_clean(body, sizeof body, text != NULL ? text : "", text != NULL ? len : 0);
	int n = snprintf(raw, sizeof raw, "pane %d (%s): %s%s%s", p->id, p->name, alert_why(alert), body[0] ? ": " : "",
			 body);
	note_clean(note, sizeof note, raw, n < 0 ? 0 : (size_t)n < sizeof raw ? (size_t)n : sizeof raw - 1);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "why", alert_why(alert));
	if (body[0])
		cJSON_AddStringToObject(o, "text", body);
	control_event(s, "attention", p->id, o);
	uint64_t now = loop_now_ms();
	if (alert != ALERT_NOTIFY || fresh || p->told_at == 0 || now - p->told_at >= NOTE_GAP_MS) {
		if (alert == ALERT_NOTIFY)
			p->told_at = now;
		tell_terminals(s, note);
		run_command(s, note);
	}
	server_redraw(s, true);
}

void alerts_bell(struct pane *p)
{
	if (!seen(p))
		raise_alert(p, ALERT_BELL, NULL, 0);
}

void alerts_prompt(struct pane *p)
{
	raise_alert(p, ALERT_PROMPT, NULL, 0);
}

void alerts_notify(struct pane *p, int command, const char *arg, size_t len)
{
	/* OSC 9;4;... is a progress report (ConEmu), not a notification;
	 * OSC 777 notifies only as "notify;TITLE;BODY"; OSC 99 carries its
	 * text after "METADATA;" */
	if (command == 9 && len >= 2 && arg[0] == '4' && arg[1] == ';')
		return;
	if (command == 777 && (len < 7 || memcmp(arg, "notify;", 7) != 0))
		return;
	if (command == 777 || command == 99) {
		const char *semi = memchr(arg, ';', len);
		size_t skip = semi != NULL ? (size_t)(semi - arg) + 1 : len;
		arg += skip;
		len -= skip;
	}
	if (!seen(p))
		raise_alert(p, ALERT_NOTIFY, arg, len);
}

static void quiet_check(void *arg)
{
	struct pane *p = arg;
	int after = p->srv->cfg.quiet_after * 1000;
	uint64_t now = loop_now_ms(), idle = now - p->last_output;
	p->quiet_timer = 0;
	if (idle < (uint64_t)after) { /* output came meanwhile: wait for the rest */
		p->quiet_timer = timer_add(p->srv->loop, (int)((uint64_t)after - idle), quiet_check, p);
		return;
	}
	if (!seen(p) && p->state == PANE_RUNNING && p->last_output > p->seen_at)
		raise_alert(p, ALERT_QUIET, NULL, 0);
}

void alerts_output(struct pane *p)
{
	p->last_output = loop_now_ms();
	if (p->alerts & ALERT_QUIET) {
		p->alerts &= ~ALERT_QUIET;
		server_redraw(p->srv, true);
	}
	if (p->quiet_timer == 0 && p->srv->cfg.quiet_after > 0)
		p->quiet_timer = timer_add(p->srv->loop, p->srv->cfg.quiet_after * 1000, quiet_check, p);
}

void alerts_seen(struct server *s)
{
	struct window *w = s->cur;
	uint64_t now = loop_now_ms();
	for (struct pane *p = w != NULL ? w->panes : NULL; p != NULL; p = p->next)
		if (seen(p)) {
			p->alerts = 0; /* drawn as seen in this very frame */
			p->seen_at = now;
		}
}

void alerts_pane_free(struct pane *p)
{
	if (p->quiet_timer != 0)
		timer_cancel(p->srv->loop, p->quiet_timer);
	p->quiet_timer = 0;
}

/* "!" a prompt waits or a bell rang, "#" a notification, "~" quiet. */
const char *alerts_window_mark(const struct window *w)
{
	unsigned all = 0;
	for (const struct pane *p = w->panes; p != NULL; p = p->next)
		all |= alerts_pane(p);
	return all & (ALERT_PROMPT | ALERT_BELL) ? "!" : all & ALERT_NOTIFY ? "#" : all & ALERT_QUIET ? "~" : "";
}
