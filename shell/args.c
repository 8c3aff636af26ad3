/* args: parsing a command's options and words from a command line or a
 * JSON request, by the command's one declaration (args.h). */
#include "shell/args.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int __attribute__((format(printf, 3, 4))) args_fail(struct args *a, const char *field, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->why, sizeof a->why, fmt, ap);
	va_end(ap);
	snprintf(a->field, sizeof a->field, "%s", field != NULL ? field : "");
	return -1;
}

static int opt_count(const struct args_spec *spec)
{
	int n = 0;
	while (n < ARGS_MAX && spec->opts[n].name != NULL)
		n++;
	return n;
}

static int opt_index(const struct args_spec *spec, const char *name)
{
	for (int i = 0; i < opt_count(spec); i++)
		if (strcmp(spec->opts[i].name, name) == 0)
			return i;
	return -1;
}

/* "-x" or "--name": the option's index, -1 when unknown, -2 when the
 * word is no option at all (a word, or "-" alone). */
static int opt_by_word(const struct args_spec *spec, const char *w)
{
	if (w[0] != '-' || w[1] == 0)
		return -2;
	for (int i = 0; i < opt_count(spec); i++) {
		const struct args_opt *o = &spec->opts[i];
		if (w[1] != '-' && w[2] == 0 && o->letter == w[1])
			return i;
		if (w[1] == '-' && (strcmp(w + 2, o->name) == 0 || (o->alias != NULL && strcmp(w + 2, o->alias) == 0)))
			return i;
	}
	return -1;
}

static bool whole_in(const char *text, int lo, int hi)
{
	char *end;
	long n = strtol(text, &end, 10);
	return text[0] != 0 && *end == 0 && n >= lo && n <= hi;
}

static int words_check(const struct args_spec *spec, struct args *a)
{
	if (a->argc > 0 && a->argc < spec->lower) /* none at all: the command says whether it needs them */
		return args_fail(a, spec->words, "wants at least %d words", spec->lower);
	if (spec->upper >= 0 && a->argc > spec->upper)
		return args_fail(a, spec->words, "takes at most %d words", spec->upper);
	return 0;
}

int args_parse(const struct args_spec *spec, int argc, const char **argv, struct args *a)
{
	*a = (struct args){ 0 };
	int i = 0;
	bool dashes = false;
	for (; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			dashes = true;
			i++;
			break;
		}
		int k = opt_by_word(spec, argv[i]);
		if (k == -2 && !spec->dashdash)
			break;
		if (k < 0)
			return args_fail(a, NULL, "unknown option %s", argv[i]);
		const struct args_opt *o = &spec->opts[k];
		if (o->type == ARGS_FLAG) {
			a->val[k] = "";
			continue;
		}
		if (i + 1 >= argc)
			return args_fail(a, NULL, "%s needs a value", argv[i]);
		a->val[k] = argv[++i];
		if (o->type == ARGS_INT && !whole_in(a->val[k], o->lo, o->hi))
			return args_fail(a, o->name, "must be a whole number from %d to %d", o->lo, o->hi);
	}
	if (spec->dashdash && !dashes && i < argc)
		return args_fail(a, NULL, "unknown option %s", argv[i]);
	a->argc = argc - i;
	a->argv = argv + i;
	return words_check(spec, a);
}

static int json_opt(const struct args_opt *o, const cJSON *v, struct args *a, int k)
{
	switch (o->type) {
	case ARGS_FLAG:
		if (!cJSON_IsBool(v))
			return args_fail(a, o->name, "must be true or false");
		a->val[k] = cJSON_IsTrue(v) ? "" : NULL;
		return 0;
	case ARGS_STRING:
		if (!cJSON_IsString(v))
			return args_fail(a, o->name, "must be a string");
		a->val[k] = v->valuestring;
		return 0;
	case ARGS_INT:
		if (!cJSON_IsNumber(v) || v->valuedouble != (double)(int)v->valuedouble || v->valueint < o->lo ||
		    v->valueint > o->hi)
			return args_fail(a, o->name, "must be a whole number from %d to %d", o->lo, o->hi);
		break;
	case ARGS_TARGET:
		if (cJSON_IsString(v)) {
			a->val[k] = v->valuestring;
			return 0;
		}
		if (!cJSON_IsNumber(v))
			return args_fail(a, o->name, "must be a string or number");
		if (v->valuedouble != (double)v->valueint || v->valueint <= 0) /* 2.7 is no pane 2 */
			return args_fail(a, o->name, "a pane id is a whole number from 1");
		break;
	}
	snprintf(a->num[k], sizeof a->num[k], "%d", v->valueint);
	a->val[k] = a->num[k];
	return 0;
}

static int json_words(const struct args_spec *spec, const cJSON *o, struct args *a)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, spec->words), *e;
	int upper = spec->upper < 0 ? 256 : spec->upper, n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
	if (v == NULL)
		return 0;
	if (n < spec->lower || n > upper || (n == 0 && spec->lower > 0))
		return args_fail(a, spec->words, "must be an array of %d to %d strings", spec->lower, upper);
	a->argv = calloc((size_t)n + 1, sizeof *a->argv);
	if (a->argv == NULL)
		return args_fail(a, spec->words, "out of memory");
	a->owned = true;
	cJSON_ArrayForEach(e, v)
	{
		if (!cJSON_IsString(e))
			return args_fail(a, spec->words, "must be an array of strings");
		a->argv[a->argc++] = e->valuestring;
	}
	return 0;
}

int args_from_json(const struct args_spec *spec, const cJSON *o, struct args *a)
{
	*a = (struct args){ 0 };
	for (int k = 0; k < opt_count(spec); k++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, spec->opts[k].name);
		if (v != NULL && json_opt(&spec->opts[k], v, a, k) < 0)
			return -1;
	}
	return spec->words != NULL ? json_words(spec, o, a) : 0;
}

void args_free(struct args *a)
{
	if (a->owned)
		free(a->argv);
	a->argv = NULL;
	a->owned = false;
}

const char *args_get(const struct args_spec *spec, const struct args *a, const char *name)
{
	int k = opt_index(spec, name);
	return k >= 0 ? a->val[k] : NULL;
}

bool args_has(const struct args_spec *spec, const struct args *a, const char *name)
{
	return args_get(spec, a, name) != NULL;
}

int args_int(const struct args_spec *spec, const struct args *a, const char *name, int def)
{
	const char *v = args_get(spec, a, name);
	return v != NULL ? (int)strtol(v, NULL, 10) : def;
}
