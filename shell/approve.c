/* approve: reading a sandbox.json, adding one entry, writing it back
 * atomically. The edit itself is policy/jsonedit.c, the write
 * backends/safefile.c. */
#include "shell/approve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/safefile.h"
#include "policy/config.h"
#include "policy/jsonedit.h"
#include "policy/readfile.h"
#include "policy/suggest.h"

/* The whole file, or "" when it does not exist; read beneath root with no
 * link on the way, like the write that follows. */
static char *read_text(const char *root, const char *rel, char *err, size_t errlen)
{
	char *text, why[512];
	size_t len;
	int r = readfile(root, rel, 0, CONFIG_MAX_BYTES, &text, &len, why, sizeof why);
	if (r == 0)
		return strdup("");
	if (r < 0) {
		snprintf(err, errlen, "%s/%s: %s; refused", root, rel, why);
		return NULL;
	}
	if (strlen(text) != len) {
		snprintf(err, errlen, "%s/%s: contains a NUL byte", root, rel);
		free(text);
		return NULL;
	}
	return text;
}

int approve_always(const char *root, const char *rel, const struct suggestion *s, char *err, size_t errlen)
{
	if (s->kind == SUGGEST_NONE) {
		snprintf(err, errlen, "nothing to approve");
		return -1;
	}
	if (root == NULL || root[0] != '/') {
		snprintf(err, errlen, "$HOME is not an absolute path: no %s to write; nothing written", rel);
		return -1;
	}
	char *text = read_text(root, rel, err, errlen);
	if (text == NULL)
		return -1;
	bool added = false;
	char sub[256];
	char *edited = jsonedit_add(text, suggest_key(s->kind), s->value, &added, sub, sizeof sub);
	free(text);
	if (edited == NULL) {
		/* jsonedit names "sandbox.json:L:C"; say which file. */
		bool pos = strncmp(sub, "sandbox.json:", 13) == 0;
		snprintf(err, errlen, "%s/%s:%s%s", root, rel, pos ? "" : " ", pos ? sub + 13 : sub);
		return -1;
	}
	int rc = added ? safefile_replace(root, rel, edited, strlen(edited), 0644, err, errlen) : 0;
	free(edited);
	return rc < 0 ? -1 : added;
}
