/* home: $HOME, read once (home.h). */
#include "shell/home.h"

#include <stdio.h>
#include <stdlib.h>

#include "policy/paths.h"

const char *home_env(void)
{
	const char *home = getenv("HOME");
	return sm_home_ok(home) ? home : NULL;
}

const char *home_need(const char *verb)
{
	const char *home = home_env();
	if (home == NULL) {
		const char *raw = getenv("HOME");
		fprintf(stderr,
			"sandmux%s%s: HOME is %s%s%s: sandmux's files live under ~/.sandmux; set HOME to your home directory\n",
			verb != NULL ? " " : "", verb != NULL ? verb : "",
			raw == NULL ? "not set" : "not an absolute path (\"", raw == NULL ? "" : raw,
			raw == NULL ? "" : "\")");
	}
	return home;
}
