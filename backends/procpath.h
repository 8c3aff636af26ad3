/* procpath: the path arguments of a process stopped in a seccomp
 * notification (backends/observer.c). The kernel prints the paths of
 * another mount namespace from that namespace's root, so every path here
 * is the one the process itself would see. */
#ifndef PROCPATH_H
#define PROCPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Reads size bytes at addr in pid's memory, page by page (a string ending
 * just before an unmapped page still reads); with stop_at_nul, up to the
 * first piece holding a NUL (the first piece is at most 256 bytes, the
 * rest of its page after it). Returns the bytes read or -1 (errno EPERM:
 * ptrace restrictions forbid it); what is past them in buf is untouched. */
ssize_t procpath_read_mem(pid_t pid, uint64_t addr, void *buf, size_t size, bool stop_at_nul);

/* Writes size bytes at addr in pid's memory: bytes written, or -1. */
ssize_t procpath_write_mem(pid_t pid, uint64_t addr, const void *buf, size_t size);

/* Thread tid's fd, duplicated into this process (the same open file),
 * with pidfd_getfd: ptrace rules apply. fd, or -1 with errno. */
int procpath_take_fd(pid_t tid, int fd);

/* The directories a process's dirfds name, remembered with a copy of
 * each open file: while the same open file (kcmp) is at that fd, it
 * names the same directory, and is not read through /proc again. A
 * rename may move it: the observer drops the memo on every rename it
 * sees. Several at once: rm -rf goes back to a parent's fd after each
 * subdirectory's. */
#define PROCPATH_MEMOS 4
#define PROCPATH_SPENT 16
struct procpath_memo {
	pid_t self;
	pid_t pidfd_tid; /* whose pidfd is kept (the fds are taken from it) */
	int pidfd;       /* -1: none */
	unsigned tick;
	struct procpath_dirfd {
		pid_t pid;
		int fd;
		int ours;      /* our copy of the open file; -1: a free slot */
		char *path;    /* what it names */
		size_t len;    /* strlen(path) */
		unsigned used; /* tick of its last use: the least recent goes */
	} v[PROCPATH_MEMOS];
	/* the slot the last procpath_absolute() joined its path to; -1: none */
	int via;
	/* fds procpath_plain_dir() is done with, closed together: one
	 * close_range() for each run of consecutive numbers */
	int spent[PROCPATH_SPENT];
	int nspent;
};
void procpath_memo_init(struct procpath_memo *);
/* Forgets the directories (closes the copies); keeps the pidfd. */
void procpath_memo_drop(struct procpath_memo *);
/* Forgets everything, the pidfd too, and closes the spent fds. */
void procpath_memo_free(struct procpath_memo *);
/* Whether the directory dir (n bytes) names, walked from fd the way the
 * process's own walk goes, meets no symlink on the way: then the
 * directory it reaches is dir's lexical normalisation, no resolving
 * needed. in_root: fd is the process's root, dir absolute in it (the
 * walk stays there, as the process's does); otherwise fd is a copy of
 * the dirfd the process names dir relative to (the memo's ours), and
 * the walk must stay beneath it (".." above it: false). The mounts are
 * those of the process's namespace (fd's). False also when dir does not
 * lead to a directory. name: NULL, or a name in that directory that
 * must be no symlink (procpath_plain_name). The fd the walk opened is
 * closed later (memo). */
bool procpath_plain_dir(struct procpath_memo *, int fd, const char *dir, size_t n, bool in_root, const char *name);
/* Whether name in the directory dirfd is no symlink (absent, or any
 * other file); name NULL: true. */
bool procpath_plain_name(int dirfd, const char *name);

/* The path string at addr made absolute against dirfd (AT_FDCWD: the
 * cwd) as pid sees them; not resolved or normalised. memo: NULL, or
 * one that may remember dirfd (its `via` says whether it did). 0, or -1
 * when it cannot be told (bad pointer, dirfd not a directory). */
int procpath_absolute(struct procpath_memo *, pid_t pid, uint64_t addr, int dirfd, char *out, size_t size);

/* path (a string already read) made absolute like procpath_absolute. */
int procpath_join(pid_t pid, int dirfd, const char *path, char *out, size_t size);

/* Opens abs (O_PATH, close-on-exec; with `dir`, O_DIRECTORY) in root,
 * resolving symlinks the way the process would: absolute ones stay
 * inside its root; magic links (/proc/PID/fd/N) are refused. fd or -1. */
int procpath_open(int root, const char *abs, bool dir);

/* The path an fd of ours names (in the process's mount namespace, seen
 * from its root: the kernel prints it from that namespace's root). */
int procpath_fd_path(int fd, char *buf, size_t size);

/* The canonical path a call on abs acts on, resolved in root (an O_PATH
 * fd of the process's root): with `follow`, the file itself if it exists
 * (a final symlink followed, as open and exec do); otherwise the
 * canonical directory plus the last name (create, remove and rename act
 * on the name). *exists says whether that name exists. A followed final
 * symlink that leads nowhere (an open with O_CREAT creates its target)
 * is followed to that target. root may be a directory below the
 * process's root (openat2's RESOLVE_IN_ROOT): abs is then a path in it,
 * and what is returned the canonical path all the same. last: the path
 * tried last (abs, or where its symlinks led; a relative path: a
 * target too long to follow). malloc'ed, or NULL when the directory
 * cannot be resolved. dir: NULL, or where the identity of the directory
 * the name was found in goes when the result is that directory plus
 * the name (st_ino 0 otherwise). */
char *procpath_canon(int root, const char *abs, bool follow, bool *exists, char *last, size_t last_size,
		     struct stat *dir);

#endif
