/* shell-report: authenticates the shell integration's reports and keeps
 * the prompt boundaries (shell/shell-report.h). */
#include "shell/shell-report.h"

#include <stdlib.h>
#include <string.h>

void report_gate_reset(struct report_gate *g, const char *secret)
{
	unsigned long ignored = g->ignored;
	report_gate_free(g);
	memset(g, 0, sizeof *g);
	g->ignored = ignored;
	if (secret != NULL && strlen(secret) == INTEGRATION_SECRET_LEN)
		memcpy(g->secret, secret, INTEGRATION_SECRET_LEN + 1);
}

void report_gate_free(struct report_gate *g)
{
	free(g->line);
	free(g->cmd);
	free(g->cwd);
	g->line = g->cmd = g->cwd = NULL;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Reads "\xHH" or "%HH" at p (n bytes left): the byte, or -1. */
static int hexbyte(const char *p, size_t n)
{
	int h, l;
	if (n < 3 || (h = hexval(p[1])) < 0 || (l = hexval(p[2])) < 0)
		return -1;
	return h << 4 | l;
}

char *report_unescape(const char *arg, size_t len)
{
	char *out = malloc(len + 1), *o = out;
	for (size_t i = 0; out != NULL && i < len; i++) {
		if (arg[i] != '\\') {
			*o++ = arg[i];
			continue;
		}
		int b = -1;
		if (i + 1 < len && arg[i + 1] == '\\') {
			b = '\\';
			i++;
		} else if (i + 1 < len && arg[i + 1] == 'x' && (b = hexbyte(arg + i + 1, len - i - 1)) >= 0)
			i += 3;
		if (b <= 0) { /* an unknown escape, or a NUL: not the shell's */
			free(out);
			return NULL;
		}
		*o++ = (char)b;
	}
	if (out != NULL)
		*o = 0;
	if (out != NULL && strlen(out) != (size_t)(o - out)) {
		free(out); /* a raw NUL */
		return NULL;
	}
	return out;
}

char *report_osc7_path(const char *arg, size_t len)
{
	if (len < 8 || strncmp(arg, "file://", 7) != 0)
		return NULL;
	const char *p = memchr(arg + 7, '/', len - 7); /* past the host name */
	if (p == NULL)
		return NULL;
	size_t n = (size_t)(arg + len - p);
	char *out = malloc(n + 1), *o = out;
	for (size_t i = 0; out != NULL && i < n; i++) {
		int b;
		if (p[i] == '%' && (b = hexbyte(p + i, n - i)) >= 0) {
			*o++ = (char)b;
			i += 2;
		} else {
			*o++ = p[i];
		}
	}
	if (out != NULL)
		*o = 0;
	if (out != NULL && (strlen(out) != (size_t)(o - out) || out[0] != '/')) {
		free(out); /* a NUL in a path: not one */
		return NULL;
	}
	return out;
}

/* The secret compared in a time that does not depend on where it
 * differs: a program could otherwise guess it a byte at a time. */
static bool same_secret(const char *a, const char *b, size_t blen)
{
	size_t alen = strlen(a);
	unsigned diff = alen != blen || alen == 0;
	for (size_t i = 0; i < alen && i < blen; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return diff == 0;
}

/* The body of an authenticated report: arg without its ";SECRET" tail,
 * or NULL (*blen untouched) when the tail is not the secret. */
static const char *authenticate(const struct report_gate *g, const char *arg, size_t len, size_t *blen)
{
	const char *semi = NULL;
	for (size_t i = len; i-- > 0;)
		if (arg[i] == ';') {
			semi = arg + i;
			break;
		}
	if (semi == NULL || !same_secret(g->secret, semi + 1, (size_t)(arg + len - semi - 1)))
		return NULL;
	*blen = (size_t)(semi - arg);
	return arg;
}

static void set_str(char **dst, char *val)
{
	free(*dst);
	*dst = val;
}

/* 133: A, C or "D;STATUS". */
static enum report_kind mark(struct report_gate *g, const char *b, size_t n, int *status)
{
	if (n == 1 && b[0] == 'A') {
		g->state = REPORT_AT_PROMPT;
		/* cmd stays: the observer may report the last command's
		 * denials after its prompt is back */
		set_str(&g->line, NULL);
		return REPORT_PROMPT;
	}
	if (n == 1 && b[0] == 'C' && g->state == REPORT_AT_PROMPT) {
		g->state = REPORT_RUNNING;
		set_str(&g->cmd, g->line);
		g->line = NULL;
		return REPORT_START;
	}
	if (n >= 3 && n < 16 && b[0] == 'D' && b[1] == ';' && g->state == REPORT_RUNNING) {
		char num[16];
		memcpy(num, b + 2, n - 2);
		num[n - 2] = 0;
		char *end;
		long st = strtol(num, &end, 10);
		if (*end != 0 || end == num || st < 0 || st > 255)
			return REPORT_NONE;
		g->state = REPORT_IDLE;
		*status = (int)st;
		return REPORT_END;
	}
	return REPORT_NONE;
}

static enum report_kind take(struct report_gate *g, int command, const char *b, size_t n, int *status)
{
	if (command == 133)
		return mark(g, b, n, status);
	if (command == 633 && n >= 2 && b[0] == 'E' && b[1] == ';' && g->state == REPORT_AT_PROMPT) {
		char *line = report_unescape(b + 2, n - 2);
		if (line == NULL)
			return REPORT_NONE;
		if (line[0] == 0) { /* zsh without history: no line to re-run */
			free(line);
			line = NULL;
		}
		set_str(&g->line, line);
		return REPORT_LINE;
	}
	if (command == 7 && g->state == REPORT_AT_PROMPT) {
		char *cwd = report_osc7_path(b, n);
		if (cwd == NULL)
			return REPORT_NONE;
		set_str(&g->cwd, cwd);
		return REPORT_CWD;
	}
	return REPORT_NONE;
}

enum report_kind report_gate_feed(struct report_gate *g, int command, const char *arg, size_t len, int *status)
{
	if (command != 133 && command != 633 && command != 7)
		return REPORT_NONE;
	size_t n = 0;
	const char *b = authenticate(g, arg, len, &n);
	enum report_kind k = b != NULL ? take(g, command, b, n, status) : REPORT_NONE;
	if (k == REPORT_NONE)
		g->ignored++;
	return k;
}
