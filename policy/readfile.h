/* readfile: the one bounded reader of the whole files sandmux reads
 * (policy files, trust records, sandmux.json). It reads what it is given
 * and nothing else: the file is opened once, checked on its descriptor
 * (a regular file, not a FIFO or device that could block or change) and
 * read through that descriptor, so every check and every byte are of the
 * same file. */
#ifndef POLICY_READFILE_H
#define POLICY_READFILE_H

#include <stddef.h>

enum {
	/* refuse a file with more than one hard link: another name of it
	 * could be writable where this one is not */
	READFILE_ONE_LINK = 1,
};

/* Reads path into *text, NUL-terminated, caller frees; at most max bytes.
 * With a root, path is relative to it and opened beneath it with no
 * symbolic link on any component (openat2 RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS); root itself is the caller's and may be reached
 * through links. Without one (NULL), links are followed. 1 read, 0 absent
 * (the file or a directory on its way is missing), -1 with why filled
 * (what is wrong, without the file name). */
int readfile(const char *root, const char *path, unsigned flags, size_t max, char **text, size_t *len, char *why,
	     size_t whylen);

#endif
