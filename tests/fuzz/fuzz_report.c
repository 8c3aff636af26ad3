/* libFuzzer target: the shell integration's report parsers (OSC 133,
 * 633;E and 7, shell/shell-report.c) and the exact display of what they
 * yield (ui/exact.c, ui_prompt_rows). The first byte picks the OSC
 * number, the rest is its argument, fed to a gate that knows a fixed
 * secret; the argument is also fed again with that secret appended, so
 * that the authenticated paths are reached. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shell/shell-report.h"
#include "ui/denials.h"

#define K "0123456789abcdef0123456789abcdef"

static void show(const char *text)
{
	char *t = ui_exact_text(text);
	if (t != NULL)
		ui_prompt_rows(t, 7);
	free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int cmds[] = { 133, 633, 7, 2 };
	if (size < 1)
		return 0;
	struct report_gate g = { 0 };
	report_gate_reset(&g, K);
	int st, cmd = cmds[data[0] & 3];
	const char *arg = (const char *)data + 1;
	size_t len = size - 1;
	char *signed_arg = malloc(len + sizeof ";" K);
	if (signed_arg == NULL)
		return 0;
	memcpy(signed_arg, arg, len);
	memcpy(signed_arg + len, ";" K, sizeof ";" K);
	/* a prompt first, so that every report is in place at least once */
	report_gate_feed(&g, 133, "A;" K, 2 + 32, &st);
	report_gate_feed(&g, cmd, arg, len, &st);
	report_gate_feed(&g, cmd, signed_arg, len + 1 + 32, &st);
	report_gate_feed(&g, 133, "C;" K, 2 + 32, &st);
	report_gate_feed(&g, cmd, signed_arg, len + 1 + 32, &st);
	show(g.cmd);
	show(g.cwd);
	char *u = report_unescape(arg, len), *p = report_osc7_path(arg, len);
	show(u);
	show(p);
	free(u);
	free(p);
	/* the raw bytes too, as a name in a prompt would be */
	char *raw = malloc(len + 1);
	if (raw != NULL) {
		memcpy(raw, arg, len);
		raw[len] = 0;
		show(raw);
	}
	free(raw);
	free(signed_arg);
	report_gate_free(&g);
	return 0;
}
