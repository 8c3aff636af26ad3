/* A small test harness: each tests/unit/test_*.c includes this, calls
 * CHECK*() inside test functions listed in main, and ends with
 * unit_done(), which prints "N passed, N failed" and sets the exit code. */
#ifndef UNIT_H
#define UNIT_H
#include <stdio.h>
#include <string.h>

struct unit {
	int passed, failed;
};

#define CHECK(u, cond)          unit_check((u), (cond), #cond, __FILE__, __LINE__)
#define CHECK_STR(u, got, want) unit_check_str((u), (got), (want), #got, __FILE__, __LINE__)
#define CHECK_INT(u, got, want) unit_check_int((u), (long)(got), (long)(want), #got, __FILE__, __LINE__)

static inline int unit_check(struct unit *u, int ok, const char *what, const char *file, int line)
{
	if (ok)
		u->passed++;
	else {
		u->failed++;
		fprintf(stderr, "%s:%d: FAIL: %s\n", file, line, what);
	}
	return ok;
}

static inline int unit_check_str(struct unit *u, const char *got, const char *want, const char *what, const char *file,
				 int line)
{
	int ok = (got == NULL && want == NULL) || (got != NULL && want != NULL && strcmp(got, want) == 0);
	if (!ok)
		fprintf(stderr, "%s:%d: %s: got \"%s\", want \"%s\"\n", file, line, what, got ? got : "(null)",
			want ? want : "(null)");
	return unit_check(u, ok, what, file, line);
}

static inline int unit_check_int(struct unit *u, long got, long want, const char *what, const char *file, int line)
{
	if (got != want)
		fprintf(stderr, "%s:%d: %s: got %ld, want %ld\n", file, line, what, got, want);
	return unit_check(u, got == want, what, file, line);
}

static inline int unit_done(struct unit *u, const char *name)
{
	printf("%s: %d passed, %d failed\n", name, u->passed, u->failed);
	return u->failed ? 1 : 0;
}
#endif
