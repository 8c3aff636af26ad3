/* captured-view: a pane's capture layer in the multiplexer (c in the
 * denials pane): what its sandbox wrote outside the writable paths,
 * listed live from the layer while the command runs, a diff of the
 * selected text file against the host, and the person's answer: apply
 * the selected change or all of them to the host, or discard the layer
 * once the command has ended. Only a key an attached client typed gets
 * here (a mode's keys), never a program's output; applying is what
 * `sandmux captured apply` does outside (shell/captured-apply.c). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/capture.h"
#include "backends/loop.h"
#include "policy/policy.h"
#include "pty/vt.h"
#include "shell/captured.h"
#include "shell/escalate.h"
#include "shell/mode.h"
#include "shell/mux.h"
#include "ui/denials.h"

#define VIEW_DIFF_MAX (64 * 1024)
#define VIEW_READ_MS  1000 /* the layer is read again at most this often */

struct captured_view {
	int pane;
	struct capture_list list;
	uint64_t read_ms;
	char *diff; /* the selected entry's diff, while shown */
	int diff_of;
	char msg[PATH_MAX + 200]; /* what the last key did, on the last row */
};

static struct pane *view_pane(const struct client *c)
{
	struct pane *p = c->captured != NULL ? pane_find(c->srv, c->captured->pane) : NULL;
	return p != NULL && p->capture != NULL ? p : NULL;
}

/* The layer's changes as they are now (a running sandbox adds to them),
 * and the pane's title count with them. */
static void view_read(struct client *c, bool force)
{
	struct captured_view *v = c->captured;
	struct pane *p = view_pane(c);
	uint64_t now = loop_now_ms();
	if (!force && now - v->read_ms < VIEW_READ_MS)
		return;
	v->read_ms = now;
	capture_list_free(&v->list);
	memset(&v->list, 0, sizeof v->list);
	if (p != NULL && capture_list_read(p->capture, &v->list) == 0)
		p->captured = (int)v->list.n;
}

static void view_line(const struct capture_entry *e, char *buf, size_t cap)
{
	buf[0] = ' ';
	captured_line(e, buf + 1, cap - 1);
}

/* The diff below the list, one line a row, as far as it fits. */
static void view_diff(struct client *c, int y, int rows, int cols)
{
	char line[1024];
	const char *s = c->captured->diff;
	ui_text(c->ui, y++, 0, cols, " diff against the host (d: hide)", UI_TITLE);
	while (s != NULL && *s != '\0' && y < rows) {
		size_t n = strcspn(s, "\n");
		char raw[1024];
		snprintf(raw, sizeof raw, "%.*s", (int)(n < sizeof raw ? n : sizeof raw - 1), s);
		ui_safe_text(line, sizeof line, raw);
		ui_text(c->ui, y++, 0, cols, line, UI_NORMAL);
		s += n + (s[n] == '\n');
	}
}

static void captured_draw(struct client *c)
{
	struct captured_view *v = c->captured;
	struct pane *p = view_pane(c);
	int rows = ui_rows(c->ui), cols = ui_cols(c->ui), n;
	char line[PATH_MAX + 64];
	view_read(c, false);
	n = (int)v->list.n;
	int list_rows = v->diff != NULL ? (rows - 3) / 3 : rows - 2;
	if (list_rows < 1)
		list_rows = 1;
	mode_clamp(c, n, list_rows);
	ui_erase(c->ui);
	snprintf(
		line, sizeof line,
		" pane %d: %d captured change%s%s · Up/Down · d diff · Enter apply · A apply all · X discard · q close",
		v->pane, n, n == 1 ? "" : "s", p != NULL && p->state == PANE_RUNNING ? " (running: live)" : "");
	ui_text(c->ui, 0, 0, cols, line, UI_TITLE_ACTIVE);
	if (p == NULL)
		ui_text(c->ui, 1, 0, cols, " this pane has no capture layer (now)", UI_NORMAL);
	for (int i = c->mode_top; i < n && i - c->mode_top < list_rows; i++) {
		view_line(&v->list.v[i], line, sizeof line);
		ui_text(c->ui, 1 + i - c->mode_top, 0, cols, line, i == c->mode_sel ? UI_STATUS_CURRENT : UI_NORMAL);
	}
	if (v->diff != NULL)
		view_diff(c, 2 + list_rows, rows - 1, cols);
	if (v->msg[0] != '\0' && rows > 2) {
		ui_safe_text(line, sizeof line, v->msg);
		ui_text(c->ui, rows - 1, 0, cols, line, UI_STATUS);
	}
}

/* What a key did: on the view's last row, and in the server log. */
static void view_say(struct client *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void view_say(struct client *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->captured->msg, sizeof c->captured->msg, fmt, ap);
	va_end(ap);
	server_log(c->srv, "pane %d: captured: %s", c->captured->pane, c->captured->msg);
}

static void view_diff_toggle(struct client *c)
{
	struct captured_view *v = c->captured;
	bool same = v->diff != NULL && v->diff_of == c->mode_sel;
	free(v->diff);
	v->diff = NULL;
	if (same || c->mode_sel < 0 || c->mode_sel >= (int)v->list.n)
		return;
	v->diff = malloc(VIEW_DIFF_MAX);
	v->diff_of = c->mode_sel;
	struct pane *p = view_pane(c);
	if (v->diff != NULL &&
	    (p == NULL || captured_diff_text(&v->list.v[c->mode_sel], p->capture, v->diff, VIEW_DIFF_MAX) < 0))
		snprintf(v->diff, VIEW_DIFF_MAX, "diff could not run");
}

/* Enter (one) or A (all): written to the host as `captured apply` would. */
static void view_apply(struct client *c, bool all)
{
	struct captured_view *v = c->captured;
	struct pane *p = view_pane(c);
	char msg[PATH_MAX + 200];
	if (p == NULL || v->list.n == 0 || c->srv->home == NULL) {
		view_say(c, "nothing to apply");
		return;
	}
	/* its sandbox could change a file between the diff and this */
	int lock = captured_lock(p->capture, msg, sizeof msg);
	if (lock < 0) {
		view_say(c, "pane %d: %s", p->id, msg);
		return;
	}
	struct policy *pol = captured_policy(p->capture, c->srv->home, msg, sizeof msg);
	int done = 0, failed = 0;
	for (size_t i = 0; pol != NULL && i < v->list.n; i++) {
		if (!all && (int)i != c->mode_sel)
			continue;
		if (captured_apply_entry(&v->list.v[i], c->srv->home, p->capture, pol, msg, sizeof msg) < 0)
			failed++;
		else
			done++;
		view_say(c, "%s", msg);
	}
	policy_free(pol);
	close(lock);
	if (pol == NULL)
		view_say(c, "%s", msg);
	else if (all)
		view_say(c, "applied %d change%s to the host%s", done, done == 1 ? "" : "s",
			 failed ? ", some refused (see the server log)" : "");
}

/* X: the layer removed, only once nothing writes into it. */
static void view_discard(struct client *c)
{
	struct pane *p = view_pane(c);
	char msg[PATH_MAX + 200];
	if (p == NULL)
		return;
	if (captured_discard_locked(p->capture, msg, sizeof msg) < 0) {
		view_say(c, "pane %d: %s", p->id, msg);
		return;
	}
	view_say(c, "captured changes discarded (%s)", p->capture);
	pane_capture_drop(p); /* a restart makes a new one */
	p->captured = 0;
	view_read(c, true);
}

static bool captured_key(struct client *c, const struct key *k)
{
	struct captured_view *v = c->captured;
	if (k->kind != KEY_PLAIN)
		return true;
	switch (k->code) {
	case 'q':
	case VT_KEY_ESCAPE:
		mode_leave(c);
		return true;
	case 'k':
	case VT_KEY_UP:
	case 'j':
	case VT_KEY_DOWN:
		c->mode_sel += k->code == 'k' || k->code == VT_KEY_UP ? -1 : 1;
		free(v->diff);
		v->diff = NULL;
		break;
	case 'd':
		view_diff_toggle(c);
		break;
	case VT_KEY_ENTER:
		view_apply(c, false);
		break;
	case 'A':
		view_apply(c, true);
		break;
	case 'X':
		view_discard(c);
		break;
	case 'r':
		view_read(c, true);
		break;
	default:
		return true;
	}
	c->full = true;
	server_redraw(c->srv, true);
	return true;
}

static void captured_exit(struct client *c)
{
	if (c->captured == NULL)
		return;
	capture_list_free(&c->captured->list);
	free(c->captured->diff);
	free(c->captured);
	c->captured = NULL;
}

const struct client_mode mode_captured = {
	.name = "captured", .draw = captured_draw, .key = captured_key, .exit = captured_exit
};

void captured_view_open(struct client *c, int pane)
{
	struct captured_view *v = calloc(1, sizeof *v);
	if (v == NULL)
		return;
	mode_enter(c, &mode_captured);
	v->pane = pane;
	c->captured = v;
	view_read(c, true);
}
