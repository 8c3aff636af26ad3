/* client: the attaching side of a session (shell/client.c), and one-shot
 * commands to a running server. */
#ifndef CLIENT_H
#define CLIENT_H

#include <stddef.h>

/* A connected socket to the session at path, or -1 with errno. */
int client_connect(const char *path);
/* Attaches this terminal until detach or the session's end; returns the
 * exit status. profile: the --sandbox asked for, "" or NULL for any. */
int client_attach(int sock, const char *profile);
/* Sends argv as a command verb; the reply's text goes to reply. Returns
 * its status, -1 when the server did not answer. Closes sock. */
int client_request(int sock, int argc, char **argv, char *reply, size_t cap);
/* The same, printing the reply; returns its status. */
int client_command(int sock, int argc, char **argv);
/* `sandmux events`: subscribes to the session's events (pane 0: all;
 * kinds: a mask from control_kinds_parse(), 0: all) and prints each as one
 * JSON line until the server exits (0) or stdout's reader goes away (0).
 * 1 when the server refused or could not be read. */
int client_events(int sock, int pane, unsigned kinds);

#endif
