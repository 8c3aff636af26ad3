/* safefile: every file sandmux writes (policy answers, trust records, the
 * denial log, its temp dirs and shell-integration scripts) is reached from
 * a directory the person owns (HOME, the workspace, the socket directory)
 * without following a symbolic link on any component below it: a link
 * planted at ~/.sandmux/state, at <workspace>/.sandmux or at the file
 * itself is refused with a message naming it, never written through. A
 * file is replaced atomically (temp file beside it, O_EXCL | O_NOFOLLOW,
 * write, fsync, rename over, fsync of the directory, the old file's mode
 * kept), so a crash leaves the old file or the new one, and the rename
 * replaces the name: a hard link to the old file elsewhere keeps the old
 * bytes. Errors are one line "PATH: what is wrong". */
#ifndef BACKENDS_SAFEFILE_H
#define BACKENDS_SAFEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct safedir {
	int fd;
	char path[4096]; /* for messages */
};

/* Opens root/rel (rel may be "" or "."): root is followed as it is, each
 * component of rel is opened with O_NOFOLLOW and must be a directory;
 * missing ones are made (0700) when make. 0, or -1 with err. */
int safefile_dir_open(struct safedir *, const char *root, const char *rel, bool make, char *err, size_t errlen);
void safefile_dir_close(struct safedir *);

/* Replaces dir/name with len bytes of text. A new file gets mode; an old
 * one keeps its own. Anything but a regular file at the name (a symbolic
 * link, a FIFO, a directory) is refused. 0, or -1 with err. */
int safefile_replace_at(struct safedir *, const char *name, const char *text, size_t len, mode_t mode, char *err,
			size_t errlen);
/* The same for root/rel, making the directories on the way (0700). */
int safefile_replace(const char *root, const char *rel, const char *text, size_t len, mode_t mode, char *err,
		     size_t errlen);

/* Opens dir/name for appending (made 0600 when missing): refused unless a
 * regular file with one link. fd, or -1 with err. */
int safefile_append_at(struct safedir *, const char *name, char *err, size_t errlen);
/* The same for root/rel, making the directories on the way (0700). */
int safefile_append(const char *root, const char *rel, char *err, size_t errlen);

/* Makes a new directory root/rel/PREFIX-XXXXXX (0700; the directories on
 * the way too) and writes its path to out. 0, or -1 with err. */
int safefile_mkdtemp(const char *root, const char *rel, const char *prefix, char *out, size_t outlen, char *err,
		     size_t errlen);
/* The same name, root/rel/PREFIX-XXXXXX, one that nothing has now, left
 * unmade (root/rel is made): for a directory made only if needed, with
 * mkdir(2), which fails if something took the name since. */
int safefile_tempname(const char *root, const char *rel, const char *prefix, char *out, size_t outlen, char *err,
		      size_t errlen);

/* Writes all of p[0..len) to fd, again after EINTR and short writes;
 * 0, or -1 with errno. */
int safefile_write_all(int fd, const char *p, size_t len);

#endif
