/* events: the size-capped denials.jsonl log and the one listener told of
 * every denial (the record itself is policy/denial.c). */
#include "backends/events.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backends/safefile.h"
#include "policy/paths.h"

/* Rotation keeps at most cap bytes in the live file and one older file;
 * rename() moves the name, it follows no link. */
static int log_rotate_if_full(struct safedir *d, const char *name, size_t cap, size_t adding)
{
	struct stat st;
	char old[64];
	if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || (size_t)st.st_size + adding <= cap)
		return 0;
	snprintf(old, sizeof old, "%s.1", name);
	return renameat(d->fd, name, d->fd, old);
}

/* The log's directory and its name in it. */
static const char *log_name(char *dir, size_t size)
{
	const char *rel = sm_path_rel(SM_PATH_DENIALS), *slash = strrchr(rel, '/');
	snprintf(dir, size, "%.*s", (int)(slash - rel), rel);
	return slash + 1;
}

int denial_log_append(const char *home, size_t cap, const struct denial *d, char *err, size_t errlen)
{
	char *line = denial_to_json(d, false);
	if (line == NULL) {
		snprintf(err, errlen, "denials log: out of memory");
		return -1;
	}
	size_t len = strlen(line);
	line[len] = '\n'; /* cJSON's buffer has room: the string's own NUL */
	int rc = -1, fd = -1;
	char why[4400], rel[64];
	const char *name = log_name(rel, sizeof rel);
	struct safedir dir;
	if (safefile_dir_open(&dir, home, rel, true, why, sizeof why) < 0)
		goto out;
	if (log_rotate_if_full(&dir, name, cap, len + 1) < 0)
		snprintf(why, sizeof why, "%s/%s: rotate: %s", dir.path, name, strerror(errno));
	else
		fd = safefile_append_at(&dir, name, why, sizeof why);
	/* One write of the whole line: concurrent writers never interleave. */
	if (fd >= 0 && write(fd, line, len + 1) == (ssize_t)(len + 1))
		rc = 0;
	else if (fd >= 0)
		snprintf(why, sizeof why, "%s/%s: write: %s", dir.path, name, strerror(errno));
	safefile_dir_close(&dir);
out:
	if (rc < 0)
		snprintf(err, errlen, "denials log %s", why);
	if (fd >= 0)
		close(fd);
	free(line);
	return rc;
}

int events_init(struct events *ev, const char *home)
{
	memset(ev, 0, sizeof *ev);
	ev->log_cap = DENIAL_LOG_CAP;
	if (home != NULL && home[0] == '/' && (ev->log_home = strdup(home)) == NULL)
		return -1;
	return 0;
}

char *events_log_path(const char *home)
{
	char *p = NULL;
	if (home == NULL || asprintf(&p, "%s/%s", home, sm_path_rel(SM_PATH_DENIALS)) < 0)
		return NULL;
	return p;
}

const struct denial *events_emit(struct events *ev, const struct denial *d)
{
	if (ev->log_home != NULL)
		denial_log_append(ev->log_home, ev->log_cap, d, ev->err, sizeof ev->err);
	const struct denial *e = denials_add(&ev->list, d);
	if (e == NULL) {
		/* Out of memory: the denials pane misses it, and says so; the
		 * listener still hears of it, uncoalesced. */
		ev->lost++;
		snprintf(ev->err, sizeof ev->err, "denials: out of memory: %lu not kept for the denials pane",
			 ev->lost);
	}
	if (ev->listener != NULL)
		ev->listener(e != NULL ? e : d, ev->listener_arg);
	return e;
}

void events_free(struct events *ev)
{
	denials_free(&ev->list);
	free(ev->log_home);
	ev->log_home = NULL;
}
