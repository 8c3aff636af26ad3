/* The command-line verbs. Each lives in its own shell/cmd-*.c file and
 * returns the process exit status: 0 success, 1 failure, 2 bad input. */
#ifndef CMD_H
#define CMD_H

int cmd_run(int argc, char **argv);      /* shell/cmd-run.c */
int cmd_policy(int argc, char **argv);   /* shell/cmd-policy.c */
int cmd_agents(int argc, char **argv);   /* shell/cmd-agents.c */
int cmd_trust(int argc, char **argv);    /* shell/cmd-policy.c */
int cmd_doctor(int argc, char **argv);   /* shell/cmd-doctor.c */
int cmd_captured(int argc, char **argv); /* shell/cmd-captured.c */
int cmd_session(int argc, char **argv);  /* shell/cmd-session.c: no verb, attach, new, ls, events, kill-session */
int cmd_ctl(int argc, char **argv);      /* shell/cmd-ctl.c: ctl, list, send, capture, kill-pane, answer */
int cmd_request(int argc, char **argv);  /* shell/cmd-request.c: request, why (inside a pane) */

/* shell/cmd-session.c: the session NAME (NULL: this directory's, or the
 * only one), connected; -1 after saying why. */
int session_connect(const char *name);
/* shell/cmd-ctl.c: `sandmux new --file WALL.json`, one control request a
 * pane; the exit status. */
int ctl_wall_file(const char *session, const char *path);

#endif
