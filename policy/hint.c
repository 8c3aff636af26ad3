/* hint: denial lines for the denied program and for `sandmux why`. */
#include "policy/hint.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/suggest.h"
#include "policy/utf8.h"

#define HINT_MAX_CMD 300 /* bytes of the denied command line shown */

/* Whether a terminal shows code point cp as text: not C1 controls
 * (U+0080..U+009F, obeyed as ESC sequences) nor bidi overrides and
 * isolates. */
static bool shown_as_text(uint32_t cp)
{
	return cp >= 0xa0 && !(cp >= 0x202a && cp <= 0x202e) && !(cp >= 0x2066 && cp <= 0x2069);
}

/* Text with control bytes (C0, DEL, C1, bytes that are not shown UTF-8
 * text) and backslash escaped: the line goes to the program's own
 * terminal, where a path's bytes must not act as escape sequences. */
static void put_escaped(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t left = strlen(s); left > 0;) {
		uint32_t cp = 0;
		size_t n = *p >= 0x80 ? utf8_decode(p, left, &cp) : 1;
		if (n > 1 && shown_as_text(cp)) {
			fwrite(p, 1, n, f);
		} else {
			n = 1;
			if (*p < 0x20 || *p >= 0x7f || *p == '\\')
				fprintf(f, *p == '\\' ? "\\\\" : "\\x%02x", *p);
			else
				fputc(*p, f);
		}
		p += n;
		left -= n;
	}
}

/* A path, shortened to ~/... under home. */
static void put_path(FILE *f, const char *path, const char *home)
{
	size_t h = home != NULL ? strlen(home) : 0;
	if (h > 1 && strncmp(path, home, h) == 0 && (path[h] == '/' || path[h] == '\0')) {
		fputc('~', f);
		put_escaped(f, path + h);
		return;
	}
	put_escaped(f, path);
}

static bool plain(const char *w)
{
	return w[0] != '\0' &&
	       strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-") == strlen(w);
}

void hint_put_word(FILE *f, const char *w, bool space)
{
	if (space)
		fputc(' ', f);
	if (plain(w)) {
		fputs(w, f);
		return;
	}
	fputc('\'', f);
	for (const char *p = w; *p; p++) {
		char one[2] = { *p, 0 };
		*p == '\'' ? fputs("'\\''", f) : put_escaped(f, one);
	}
	fputc('\'', f);
}

/* A path argument: ~/x stays unquoted when the rest is plain. */
static void put_path_word(FILE *f, const char *path, const char *home)
{
	size_t h = home != NULL ? strlen(home) : 0;
	if (h > 1 && strncmp(path, home, h) == 0 && path[h] == '/' && plain(path + h)) {
		fprintf(f, "~%s", path + h);
		return;
	}
	hint_put_word(f, path, false);
}

static const char *ask_flag(const struct suggestion *s)
{
	return s->kind == SUGGEST_RW    ? "--write"
	       : s->kind == SUGGEST_RO  ? "--read"
	       : s->kind == SUGGEST_NET ? "--net"
					: NULL;
}

static void put_ask(FILE *f, const struct denial *d, const char *home, char *const *argv)
{
	const char *flag = ask_flag(&d->suggest);
	if (flag == NULL)
		return;
	fprintf(f, "; ask: sandmux request %s ", flag);
	if (d->suggest.kind == SUGGEST_NET)
		hint_put_word(f, d->suggest.value, false);
	else
		put_path_word(f, d->suggest.value, home);
	fputs(" --", f);
	if (argv == NULL || argv[0] == NULL) {
		fputs(" CMD", f);
		return;
	}
	long start = ftell(f);
	for (size_t i = 0; argv[i] != NULL; i++) {
		if (ftell(f) - start > HINT_MAX_CMD) {
			fputs(" ...", f);
			break;
		}
		hint_put_word(f, argv[i], true);
	}
}

static void put_denied(FILE *f, const struct denial *d, const char *home)
{
	fprintf(f, "denied %s ", d->op);
	if (d->target != NULL && d->target[0] == '/')
		put_path(f, d->target, home);
	else
		put_escaped(f, d->target != NULL ? d->target : "?");
	fputs(" (", f);
	put_escaped(f, d->rule != NULL ? d->rule : "no rule named");
	fputc(')', f);
}

/* The memstream's text into buf, cut to cap (keeping a newline at the
 * end when nl); its length. */
static size_t finish(FILE *f, char *text, size_t len, char *buf, size_t cap, bool nl)
{
	(void)f;
	if (cap == 0) {
		free(text);
		return 0;
	}
	size_t room = cap - 1 - (nl ? 1 : 0);
	size_t n = text == NULL ? 0 : len < room ? len : room;
	if (n > 0)
		memcpy(buf, text, n);
	if (nl)
		buf[n++] = '\n';
	buf[n] = '\0';
	free(text);
	return n;
}

size_t hint_format(const struct denial *d, const char *home, char *const *argv, char *buf, size_t cap)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (f == NULL)
		return finish(NULL, NULL, 0, buf, cap, true);
	fputs("sandmux: ", f);
	put_denied(f, d, home);
	put_ask(f, d, home, argv);
	fclose(f);
	return finish(f, text, len, buf, cap, true);
}

size_t hint_why_line(const struct denial *d, const char *home, char *buf, size_t cap)
{
	char *text = NULL, ts[32];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (f == NULL)
		return finish(NULL, NULL, 0, buf, cap, false);
	denial_format_ts(d->ts_ms, ts);
	fprintf(f, "%s ", ts);
	put_denied(f, d, home);
	fprintf(f, " [%s", d->layer);
	if (d->comm[0]) {
		fputs(", ", f);
		put_escaped(f, d->comm);
	}
	fputc(']', f);
	if (d->count > 1)
		fprintf(f, " x%u", d->count);
	put_ask(f, d, home, NULL);
	fclose(f);
	return finish(f, text, len, buf, cap, false);
}
