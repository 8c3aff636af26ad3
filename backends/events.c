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

/* mkdir -p of the directory part of path, private to the user. */
static int make_parent(const char *path)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(dir, 0700) < 0 && errno != EEXIST ? -1 : 0;
}

/* Rotation keeps at most cap bytes in the live file and one older file. */
static int log_rotate_if_full(const char *path, size_t cap, size_t adding)
{
	struct stat st;
	if (stat(path, &st) < 0 || (size_t)st.st_size + adding <= cap)
		return 0;
	char old[4200];
	snprintf(old, sizeof old, "%s.1", path);
	return rename(path, old);
}

int denial_log_append(const char *path, size_t cap, const struct denial *d, char *err, size_t errlen)
{
	char *line = denial_to_json(d, false);
	if (line == NULL) {
		snprintf(err, errlen, "denials log: out of memory");
		return -1;
	}
	size_t len = strlen(line);
	line[len] = '\n'; /* cJSON's buffer has room: the string's own NUL */
	int rc = -1;
	int fd = -1;
	if (make_parent(path) < 0 || log_rotate_if_full(path, cap, len + 1) < 0)
		goto out;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	/* One write of the whole line: concurrent writers never interleave. */
	if (fd >= 0 && write(fd, line, len + 1) == (ssize_t)(len + 1))
		rc = 0;
out:
	if (rc < 0)
		snprintf(err, errlen, "denials log %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(line);
	return rc;
}

int events_init(struct events *ev, const char *log_path)
{
	memset(ev, 0, sizeof *ev);
	ev->log_cap = DENIAL_LOG_CAP;
	if (log_path != NULL && (ev->log_path = strdup(log_path)) == NULL)
		return -1;
	return 0;
}

char *events_log_path(const char *home)
{
	char *p = NULL;
	if (home == NULL || asprintf(&p, "%s/.sandmux/state/denials.jsonl", home) < 0)
		return NULL;
	return p;
}

const struct denial *events_emit(struct events *ev, const struct denial *d)
{
	if (ev->log_path != NULL)
		denial_log_append(ev->log_path, ev->log_cap, d, ev->err, sizeof ev->err);
	const struct denial *e = denials_add(&ev->list, d);
	if (e != NULL && ev->listener != NULL)
		ev->listener(e, ev->listener_arg);
	return e;
}

void events_free(struct events *ev)
{
	denials_free(&ev->list);
	free(ev->log_path);
	ev->log_path = NULL;
}
