/* cmd-find: the one target lookup of every command, as tmux's cmd-find.c:
 * a pane by id, "W.N" or name, a window by index or name (command.h). */
#include "shell/command.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* "W.N": window W's Nth pane, counted from 0 in creation order. */
static struct pane *pane_by_place(const struct server *s, long index, const char *nth)
{
	char *end;
	long k = strtol(nth, &end, 10);
	if (*nth == 0 || *end != 0 || k < 0)
		return NULL;
	for (struct window *w = s->windows; w != NULL; w = w->next)
		for (struct pane *p = w->panes; p != NULL && w->index == index; p = p->next)
			if (k-- == 0)
				return p;
	return NULL;
}

struct pane *cmd_find_pane(const struct server *s, const char *target)
{
	if (target == NULL)
		return s->cur != NULL ? s->cur->active : NULL;
	char *end;
	const char *digits = target[0] == '%' ? target + 1 : target;
	long n = strtol(digits, &end, 10);
	if (*digits != 0 && *end == 0)
		return n > 0 && n <= INT_MAX ? pane_find(s, (int)n) : NULL;
	if (target[0] != '%' && *target != 0 && *end == '.' && end > target)
		return pane_by_place(s, n, end + 1);
	for (struct window *w = s->windows; w != NULL; w = w->next)
		for (struct pane *p = w->panes; p != NULL; p = p->next)
			if (*target != 0 && strcmp(p->name, target) == 0)
				return p;
	return NULL;
}

struct window *cmd_find_window(const struct server *s, const char *target)
{
	if (target == NULL)
		return s->cur;
	char *end;
	long n = strtol(target, &end, 10);
	for (struct window *w = s->windows; w != NULL; w = w->next)
		if ((*target != 0 && *end == 0) ? w->index == n : strcmp(w->name, target) == 0)
			return w;
	return NULL;
}

/* Not in pane.c: every layer of shell/ looks panes up, and pane.c starts
 * them (pane-spawn.c, escalate-pane.c), which would make one circle. */
struct pane *pane_find(const struct server *s, int id)
{
	for (struct window *w = s->windows; w != NULL; w = w->next)
		for (struct pane *p = w->panes; p != NULL; p = p->next)
			if (p->id == id)
				return p;
	return NULL;
}
