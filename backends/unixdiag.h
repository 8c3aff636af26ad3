/* unixdiag: is a socket file bound by a socket of the sandbox? Asked of
 * the kernel's sock_diag interface (unix_diag, UDIAG_SHOW_VFS: each bound
 * AF_UNIX socket with the device and inode of its file) from a netlink
 * socket that lives in the sandbox's network namespace, so only the
 * sandbox's own sockets are listed. For backends/unixsock.c. */
#ifndef UNIXDIAG_H
#define UNIXDIAG_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* A NETLINK_SOCK_DIAG socket in pid's network namespace, made by a
 * short-lived helper process that joins the namespace (and, unprivileged,
 * the sandbox's user namespace first, which the host's user owns). -1 with
 * errno set; errno EXDEV: pid shares this process's network namespace, so
 * the answer would not tell the sandbox's sockets from the host's. */
int unixdiag_open(pid_t pid);

/* 1: some AF_UNIX socket in diag's namespace is bound to the file st
 * describes (its sockfs inode into *sock_ino); 0: none; -1: the query
 * failed (errno). */
int unixdiag_bound(int diag, const struct stat *st, uint32_t *sock_ino);

/* Whether a process in pid's pid namespace holds socket sock_ino among
 * its fds: for a sandbox on the host's network, where the namespace does
 * not tell its sockets apart. Walks /proc: milliseconds. */
bool unixdiag_held(pid_t pid, uint32_t sock_ino);

#endif
