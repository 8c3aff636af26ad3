/* libFuzzer target for the ignore file parser and matcher: any bytes as
 * a .cursorignore must give patterns or one error line, and matching any
 * path against them must neither crash nor hang (the observer matches
 * every call of a pane against them). Input: the file's text, then a NUL,
 * then paths, one a line. Build and run: tests/fuzz/run.sh fuzz_ignore. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/ignore.h"

#define FUZZ_MAX_PATHS 16

static void match_paths(const struct rules *r, const char *paths)
{
	char path[1024];
	const char *s = paths;
	for (int i = 0; i < FUZZ_MAX_PATHS && *s; i++) {
		size_t n = strcspn(s, "\n");
		int len = snprintf(path, sizeof path, "/ws/%.*s", (int)n, s);
		if (len > 0 && (size_t)len < sizeof path)
			for (int is_dir = -1; is_dir <= 1; is_dir++)
				ignore_match(r, "/ws", path, is_dir);
		s += n + (s[n] == '\n');
	}
	ignore_match(r, "/ws", "/ws/a/b/c.env", -1);
	ignore_active(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char file[] = "/ws/.cursorignore";
	const uint8_t *nul = memchr(data, 0, size);
	size_t text_len = nul ? (size_t)(nul - data) : size;
	char *paths = calloc(1, size - text_len + 1);
	if (paths == NULL)
		return 0;
	if (nul)
		memcpy(paths, nul + 1, size - text_len - 1);
	struct rules r = { 0 };
	struct perr e = { 0 };
	if (ignore_parse(&r, file, (const char *)data, text_len, &e) == 0)
		match_paths(&r, paths);
	rules_free(&r);
	perr_free(&e);
	free(paths);
	return 0;
}
