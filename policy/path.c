/* path: lexical normalisation of policy paths ("~/" expansion, no "//",
 * ".", ".."). Symlinks are the caller's business: policy is pure. */
#include <stdlib.h>
#include <string.h>

#include "policy/config.h"
#include "policy/policy.h"

bool path_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

char *path_normalize(const char *path)
{
	size_t n = strlen(path);
	char *out = malloc(n + 2);
	size_t o = 0;
	if (!out)
		abort();
	for (const char *p = path; *p;) {
		while (*p == '/')
			p++;
		const char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == 0)
			break;
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--; /* drop the '/' too; ".." at "/" stays "/" */
		} else if (!(len == 1 && p[0] == '.')) {
			out[o++] = '/';
			memcpy(out + o, p, len);
			o += len;
		}
		p += len;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = 0;
	return out;
}

char *path_expand(const char *path, const char *home)
{
	if (path[0] == '~' && (path[1] == '/' || path[1] == 0) && home && home[0] == '/') {
		size_t n = strlen(home) + strlen(path) + 2;
		char *tmp = malloc(n), *r;
		if (!tmp)
			abort();
		strcpy(tmp, home);
		strcat(tmp, "/");
		strcat(tmp, path + 1);
		r = path_normalize(tmp);
		free(tmp);
		return r;
	}
	return path[0] == '/' ? path_normalize(path) : NULL;
}
