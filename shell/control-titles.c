/* control-titles: the `title` event, each pane's title line as drawn,
 * told to subscribers when it changes (called after every frame). Apart
 * from control.c, which every file calls to publish, since it reads the
 * title from pane.c. */
#include "shell/mux.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "policy/utf8.h"
#include "pty/vt.h"

/* Keeps only whole, valid UTF-8 sequences (a title cut at its buffer's
 * end, or a program's stray bytes), so that every event is valid JSON. */
static void utf8_clean(char *s)
{
	unsigned char *in = (unsigned char *)s, *out = in;
	size_t left = strlen(s);
	while (left > 0) {
		uint32_t cp;
		size_t n = utf8_decode(in, left, &cp);
		if (n == 0)
			n = 1; /* not the start of a whole sequence: dropped */
		else {
			memmove(out, in, n);
			out += n;
		}
		in += n;
		left -= n;
	}
	*out = '\0';
}

/* The title lines as drawn, told when they change. */
void control_titles(struct server *s)
{
	if (!control_has_subscriber(s))
		return;
	for (struct window *w = s->windows; w != NULL; w = w->next)
		for (struct pane *p = w->panes; p != NULL; p = p->next) {
			char title[256], program[256];
			pane_title(p, title, sizeof title);
			uint64_t sum = 1469598103934665603u; /* FNV-1a */
			for (const unsigned char *c = (const unsigned char *)title; *c; c++)
				sum = (sum ^ *c) * 1099511628211u;
			if (sum == p->title_sum)
				continue;
			p->title_sum = sum;
			size_t n = strlen(title);
			while (n > 0 && title[n - 1] == ' ')
				title[--n] = '\0';
			snprintf(program, sizeof program, "%s", vt_title(p->vt));
			utf8_clean(title);
			utf8_clean(program);
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "title", title + strspn(title, " "));
			cJSON_AddStringToObject(o, "program", program);
			control_event(s, "title", p->id, o);
		}
}
