/* perr: the one error line and the warnings of a policy load, plus the
 * names of the enums of policy.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"

const char *layer_name(enum layer l)
{
	static const char *const names[] = { "default", "per-user", "per-repo", "admin", "hardcoded" };
	return (unsigned)l < sizeof names / sizeof names[0] ? names[l] : "?";
}

const char *fs_op_name(enum fs_op op)
{
	static const char *const names[] = { "read", "write", "create", "remove", "rename", "exec" };
	return (unsigned)op < sizeof names / sizeof names[0] ? names[op] : "?";
}

/* Errors and warnings are one line each: keys and values quoted from a
 * file may hold newlines or escape sequences, which must not reach the
 * terminal raw. */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

void perr_set(struct perr *e, const char *file, int line, int col, const char *field, const char *fmt, ...)
{
	char what[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	char where[512] = "";
	if (file && line > 0)
		snprintf(where, sizeof where, "%s:%d:%d: ", file, line, col);
	else if (file)
		snprintf(where, sizeof where, "%s: ", file);
	char full[2048];
	snprintf(full, sizeof full, "%s%s%s%s", where, field ? field : "", field ? ": " : "", what);
	snprintf(e->msg, sizeof e->msg, "%.1023s", full);
	one_line(e->msg);
}

void perr_warn(struct perr *e, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	one_line(buf);
	char **w = realloc(e->warnings, (e->nwarnings + 1) * sizeof *w);
	if (!w || !(w[e->nwarnings] = strdup(buf)))
		abort();
	e->warnings = w;
	e->nwarnings++;
}

void perr_print_warnings(const struct perr *e, FILE *f)
{
	for (size_t i = 0; i < e->nwarnings; i++)
		fprintf(f, "sandmux: warning: %s\n", e->warnings[i]);
}

void perr_free(struct perr *e)
{
	for (size_t i = 0; i < e->nwarnings; i++)
		free(e->warnings[i]);
	free(e->warnings);
	e->warnings = NULL;
	e->nwarnings = 0;
}
