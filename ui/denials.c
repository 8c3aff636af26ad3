/* denials: the denials pane, one coalesced denial a line, newest first
 * (the caller sorts and filters). */
#include "ui/denials.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "policy/denial.h"
#include "ui/ui.h"

void ui_safe_text(char *out, size_t cap, const char *text)
{
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p && o + 1 < cap; p++)
		out[o++] = *p < 0x20 || *p == 0x7f ? '?' : (char)*p;
	if (cap > 0)
		out[o] = 0;
}

/* "13:02:03" in local time: the person reads the pane, not a log. */
static void hms(int64_t ts_ms, char buf[16])
{
	time_t t = (time_t)(ts_ms / 1000);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, 16, "%H:%M:%S", &tm);
}

static void denial_line(const struct denial *d, char *buf, size_t cap)
{
	char ts[16], target[1024], rule[512], from[600] = "built in", comm[20];
	hms(d->ts_ms, ts);
	ui_safe_text(target, sizeof target, d->target);
	ui_safe_text(rule, sizeof rule, d->rule);
	ui_safe_text(comm, sizeof comm, d->comm[0] ? d->comm : "?");
	if (d->rule_file != NULL) {
		char f[512];
		ui_safe_text(f, sizeof f, d->rule_file);
		if (d->rule_line > 0)
			snprintf(from, sizeof from, "%s:%d", f, d->rule_line);
		else
			snprintf(from, sizeof from, "%s", f);
	}
	snprintf(buf, cap, "%s %4d %-12.12s %-7s x%-4u %s  [%s · %s]", ts, d->pane, comm, d->op, d->count, target, rule,
		 from);
}

void ui_draw_denials(struct ui *ui, int rows, int cols, const char *title, const struct denial *const *v, size_t n,
		     size_t top)
{
	ui_erase(ui);
	ui_text(ui, 0, 0, cols, title, UI_TITLE_ACTIVE);
	ui_text(ui, 1, 0, cols, "time     pane process      op      count target  [rule · from]", UI_TITLE);
	char line[2400];
	for (int y = 2; y < rows && top < n; y++, top++) {
		denial_line(v[top], line, sizeof line);
		ui_text(ui, y, 0, cols, line, UI_NORMAL);
	}
	if (n == 0 && rows > 2)
		ui_text(ui, 2, 0, cols, "no denials", UI_NORMAL);
}
