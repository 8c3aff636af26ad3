/* status-prompt: a line typed in the status bar — the `:` command
 * prompt, renaming a window, copy mode's search — or a y/n question, as
 * a client mode (mode.h) that shows in the status line: the panes stay
 * in view, the keys come here until Enter, Escape or C-c. What the line
 * is for is the callback it was opened with. */
#include "shell/mode.h"

#include <string.h>

#include "pty/vt.h"

static void prompt_set(struct client *c, const char *label, void (*done)(struct client *, const char *), int arg)
{
	snprintf(c->prompt_label, sizeof c->prompt_label, "%s", label);
	c->prompt[0] = 0;
	c->prompt_done = done;
	c->prompt_yes = NULL;
	c->prompt_arg = arg;
	mode_enter(c, &mode_prompt);
}

void prompt_open(struct client *c, const char *label, void (*done)(struct client *, const char *))
{
	prompt_set(c, label, done, 0);
}

void prompt_confirm(struct client *c, const char *question, void (*yes)(struct client *, int), int arg)
{
	prompt_set(c, question, NULL, arg);
	c->prompt_yes = yes;
}

/* Leaves the mode before the callback runs: it may open another mode,
 * or end the client. */
static bool prompt_key(struct client *c, const struct key *k)
{
	size_t len = strlen(c->prompt);
	if (c->prompt_yes != NULL) { /* any key answers: y yes, anything else no */
		void (*yes)(struct client *, int) = c->prompt_yes;
		mode_leave(c);
		if ((k->code == 'y' || k->code == 'Y') && k->mods == 0)
			yes(c, c->prompt_arg);
		return true;
	}
	if (k->code == VT_KEY_ENTER || k->code == VT_KEY_ESCAPE || (k->code == 'c' && k->mods == VT_MOD_CTRL)) {
		void (*done)(struct client *, const char *) = c->prompt_done;
		char text[sizeof c->prompt];
		memcpy(text, c->prompt, sizeof text);
		mode_leave(c);
		if (k->code == VT_KEY_ENTER && done != NULL)
			done(c, text);
		return true;
	}
	if (k->code == VT_KEY_BACKSPACE) {
		if (len > 0)
			c->prompt[len - 1] = 0;
	} else if (k->mods == 0 && k->code >= 0x20 && k->code < 0x7f && len + 1 < sizeof c->prompt) {
		c->prompt[len] = (char)k->code;
		c->prompt[len + 1] = 0;
	}
	server_redraw(c->srv, false);
	return true;
}

/* The label and what is typed so far; the cursor stands at its end. */
static const char *prompt_status(const struct client *c, char *line, size_t size)
{
	snprintf(line, size, "%s%s", c->prompt_label, c->prompt_yes != NULL ? "" : c->prompt);
	return line;
}

const struct client_mode mode_prompt = { .name = "prompt", .key = prompt_key, .status = prompt_status };
