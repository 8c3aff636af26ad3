/* escalate-grant: an approved grant of a path that does not exist yet is
 * made by sandmux, as the person, before the restart: a Landlock rule can
 * only name what exists, and a grant of the parent directory would open
 * everything else in it (policy/suggest.h). */
#include "shell/escalate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/suggest.h"

int escalate_grant_make(const struct suggestion *s, char *err, size_t len)
{
	struct stat st;
	if (s->kind == SUGGEST_NONE || s->create == 0 || s->kind != SUGGEST_RW || s->value[0] != '/')
		return 0;
	if (lstat(s->value, &st) == 0) {
		if ((s->create == 'd') == S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode))
			return 0; /* made meanwhile, as asked */
		snprintf(err, len, "%s exists and is not the %s the command asked for", s->value,
			 s->create == 'd' ? "directory" : "file");
		return -1;
	}
	int rc;
	if (s->create == 'd') {
		rc = mkdir(s->value, s->mode ? (mode_t)(s->mode & 07777) : 0755);
	} else {
		rc = open(s->value, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			  s->mode ? (mode_t)(s->mode & 07777) : 0644);
		if (rc >= 0)
			rc = close(rc);
	}
	if (rc < 0) {
		snprintf(err, len, "cannot make %s: %s", s->value, strerror(errno));
		return -1;
	}
	return 0;
}
