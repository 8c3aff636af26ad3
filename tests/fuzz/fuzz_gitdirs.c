/* libFuzzer target for the git metadata look (policy/gitdirs.c): any
 * bytes as a workspace's .git/config (its core.hooksPath) and as its
 * .gitmodules (each submodule's path) must give protected entries or
 * none, never a crash, a hang or an empty entry (an absolute or `~`
 * hooksPath is kept as git reads it: profile.c anchors it). Input:
 * the config's text, then a NUL, then .gitmodules'. The workspace is a
 * directory of its own, made once, with a .git and one nested repo.
 * Build and run: tests/fuzz/run.sh fuzz_gitdirs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/gitdirs.h"

static char ws[] = "/tmp/sandmux-fuzz-gitdirs.XXXXXX";

static void put(const char *rel, const uint8_t *data, size_t size)
{
	char path[sizeof ws + 32];
	snprintf(path, sizeof path, "%s/%s", ws, rel);
	FILE *f = fopen(path, "w");
	if (f == NULL)
		abort();
	if (size > 0 && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
}

static const char *const dirs[] = { ".git", ".git/hooks", ".git/modules", "sub", "sub/.git", "m" };

/* At exit: the workspace goes, files first, then its directories deepest first. */
static void cleanup(void)
{
	static const char *const files[] = { ".git/config", ".gitmodules", "m/.git" };
	char path[sizeof ws + 32];
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", ws, files[i]);
		unlink(path);
	}
	for (size_t i = sizeof dirs / sizeof dirs[0]; i-- > 0;) {
		snprintf(path, sizeof path, "%s/%s", ws, dirs[i]);
		rmdir(path);
	}
	rmdir(ws);
}

static void setup(void)
{
	char path[sizeof ws + 32];
	if (mkdtemp(ws) == NULL)
		abort();
	atexit(cleanup);
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", ws, dirs[i]);
		mkdir(path, 0755);
	}
	put("m/.git", (const uint8_t *)"gitdir: ../.git/modules/m\n", 26);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	if (!ready) {
		setup();
		ready = 1;
	}
	const uint8_t *nul = memchr(data, 0, size);
	size_t n = nul != NULL ? (size_t)(nul - data) : size;
	put(".git/config", data, n);
	put(".gitmodules", nul != NULL ? nul + 1 : data, nul != NULL ? size - n - 1 : 0);
	struct strv globs = { 0 }, files = { 0 };
	gitdirs_protected(ws, &globs, &files);
	for (size_t i = 0; i < globs.n; i++)
		if (globs.v[i][0] == '\0')
			abort();
	strv_free(globs.v);
	strv_free(files.v);
	return 0;
}
