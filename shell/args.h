/* args: one argument parser for every command, whichever front end
 * typed it: a command line (`sandmux VERB ...`, the `:` prompt) or a
 * JSON request of the control interface. A command declares its options
 * once (args_spec); a command line gives them as -x VALUE or --name VALUE,
 * a request as fields named by the same names. The words after the
 * options are the positional arguments, in JSON one array field. */
#ifndef ARGS_H
#define ARGS_H

#include <stdbool.h>
#include <stddef.h>

struct cJSON;

#define ARGS_MAX 12

enum args_type {
	ARGS_FLAG,   /* -x / --name alone; JSON true or false */
	ARGS_STRING, /* a value */
	ARGS_INT,    /* a whole number from lo to hi */
	ARGS_TARGET, /* a target (cmd-find.c): a string, in JSON also a pane id */
};

struct args_opt {
	char letter;      /* -x on a command line, 0: none */
	const char *name; /* the JSON field, and --name on a command line */
	enum args_type type;
	int lo, hi;        /* ARGS_INT's range */
	const char *alias; /* another --name for a command line ("sandbox" for "profile") */
};

struct args_spec {
	struct args_opt opts[ARGS_MAX]; /* ended by a zero entry */
	const char *words;              /* JSON: the array field of the positional words; NULL: none */
	int lower, upper;               /* how many words, when there are any: at least, at most (-1: any) */
	bool dashdash;                  /* on a command line, words only after "--" */
};

struct args {
	const char *val[ARGS_MAX]; /* each option's value by its index, "" for a flag; NULL: absent */
	char num[ARGS_MAX][16];    /* a JSON number as text */
	int argc;
	const char **argv; /* the words, NULL-terminated */
	bool owned;        /* argv was allocated here (JSON) */
	char field[32];    /* after an error: the option or field it is about ("" none) */
	char why[160];     /* ... and what is wrong */
};

/* A command line's words after the command's name; 0, or -1 with the
 * error in a->field and a->why. argv stays the caller's. */
int args_parse(const struct args_spec *, int argc, const char **argv, struct args *);
/* The fields of a JSON request object; 0 or -1 as args_parse. */
int args_from_json(const struct args_spec *, const struct cJSON *, struct args *);
void args_free(struct args *);

/* An option's value by name, NULL when absent. */
const char *args_get(const struct args_spec *, const struct args *, const char *name);
bool args_has(const struct args_spec *, const struct args *, const char *name);
/* An ARGS_INT option (checked by the parser), or def when absent. */
int args_int(const struct args_spec *, const struct args *, const char *name, int def);

#endif
