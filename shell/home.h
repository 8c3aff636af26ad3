/* home: $HOME, read in this one place. Every file of sandmux's own lives
 * under it (policy/paths.h); the server keeps the copy it read at start
 * (struct server's home), a command-line verb asks here once. */
#ifndef SHELL_HOME_H
#define SHELL_HOME_H

/* $HOME when it is set and absolute, else NULL. */
const char *home_env(void);
/* The same for a verb that reads or writes sandmux's files: NULL after
 * one line on stderr naming the verb (may be NULL), so nothing is read from or written
 * to a path built on an empty or relative HOME ("/.sandmux/..."). */
const char *home_need(const char *verb);

#endif
