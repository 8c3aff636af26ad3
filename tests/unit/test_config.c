/* The multiplexer's ~/.sandmux/sandmux.json: values taken, and each bad
 * value refused with FILE:LINE:COL: FIELD. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "shell/mux.h"
#include "tests/unit/unit.h"

static int load(const char *text, struct mux_config *cfg, char *err, size_t errlen)
{
	char path[] = "/tmp/sandmux-config-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return -2;
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	int rc = mux_config_load(cfg, path, err, errlen);
	unlink(path);
	return rc;
}

int main(void)
{
	struct unit u = { 0 };
	struct mux_config cfg;
	char err[512] = "";
	mux_config_defaults(&cfg);
	CHECK_INT(&u, cfg.net_hold, 30);
	CHECK_INT(&u, cfg.scrollback, 2000);
	CHECK_INT(&u, load("{\"net_hold\": 5, \"scrollback\": 100}", &cfg, err, sizeof err), 0);
	CHECK_INT(&u, cfg.net_hold, 5);
	CHECK_INT(&u, cfg.scrollback, 100);
	CHECK_INT(&u, load("{\"net_hold\": 0}", &cfg, err, sizeof err), 0);
	CHECK_INT(&u, cfg.net_hold, 0);
	CHECK_INT(&u, load("{\n  \"net_hold\": -1\n}", &cfg, err, sizeof err), -1);
	CHECK(&u, strstr(err, ":2:15: net_hold: want a whole number of seconds") != NULL);
	CHECK_INT(&u, load("{\"net_hold\": \"30\"}", &cfg, err, sizeof err), -1);
	CHECK(&u, strstr(err, ":1:14: net_hold:") != NULL);
	CHECK(&u, !cfg.mouse); /* the outer terminal's own selection, as tmux */
	CHECK_INT(&u, load("{\"mouse\": true}", &cfg, err, sizeof err), 0);
	CHECK(&u, cfg.mouse);
	CHECK_INT(&u, load("{\"mouse\": 1}", &cfg, err, sizeof err), -1);
	CHECK(&u, strstr(err, "mouse: want true or false") != NULL);
	CHECK_INT(&u, load("{\"nope\": 1}", &cfg, err, sizeof err), -1);
	CHECK(&u, strstr(err, "unknown setting (known: prefix, scrollback, status, clipboard, mouse, net_hold, bind, "
			      "quiet_after, alert_terminal, alert_command, limits, denials)") != NULL);
	/* attention (shell/alerts.c) */
	mux_config_defaults(&cfg);
	CHECK_INT(&u, cfg.quiet_after, 5);
	CHECK_INT(&u, cfg.alert_terminal, ALERT_TERM_OFF);
	CHECK_INT(&u, cfg.alert_argc, 0);
	CHECK_INT(
		&u,
		load("{\"quiet_after\": 0, \"alert_terminal\": \"osc777\", \"alert_command\": [\"notify-send\", \"-a\", \"sandmux\"]}",
		     &cfg, err, sizeof err),
		0);
	CHECK_INT(&u, cfg.quiet_after, 0);
	CHECK_INT(&u, cfg.alert_terminal, ALERT_TERM_OSC777);
	CHECK_INT(&u, cfg.alert_argc, 3);
	CHECK_STR(&u, cfg.alert_argv[2], "sandmux");
	CHECK_INT(&u, load("{\"alert_terminal\": \"beep\"}", &cfg, err, sizeof err), -1);
	CHECK(&u, strstr(err, ":1:20: alert_terminal: want \"off\", \"osc9\" or \"osc777\"") != NULL);
	CHECK_INT(&u, load("{\"alert_command\": []}", &cfg, err, sizeof err), -1);
	CHECK(&u, strstr(err, "alert_command: want an array of strings") != NULL);
	CHECK_INT(&u, load("{\"alert_command\": [\"a\", 2]}", &cfg, err, sizeof err), -1);
	CHECK(&u, strstr(err, ":1:25: alert_command[1]: want a non-empty string") != NULL);
	CHECK_INT(&u, load("{\"quiet_after\": 1.5}", &cfg, err, sizeof err), -1);
	CHECK(&u, strstr(err, "quiet_after: want a whole number of seconds from 0 (never) to 3600") != NULL);
	mux_config_defaults(&cfg);
	CHECK_INT(&u, cfg.limits.pids, MUX_LIMIT_PIDS);
	CHECK_INT(&u, cfg.limits.memory_mib, MUX_LIMIT_MEMORY_MIB);
	CHECK_INT(&u, cfg.limits.tmp_mib, MUX_LIMIT_TMP_MIB);
	CHECK_INT(&u, load("{\"limits\": {\"pids\": 64, \"memory\": 0}}", &cfg, err, sizeof err), 0);
	CHECK_INT(&u, cfg.limits.pids, 64);
	CHECK_INT(&u, cfg.limits.memory_mib, 0);
	CHECK_INT(&u, cfg.limits.tmp_mib, MUX_LIMIT_TMP_MIB);
	CHECK_INT(&u, load("{\"limits\": {\"cpu\": 1}}", &cfg, err, sizeof err), -1);
	CHECK(&u, strstr(err, ":1:20: cpu: unknown limit (known: pids, memory, tmp)") != NULL);
	CHECK_INT(&u, load("{\"limits\": {\"tmp\": 1.5}}", &cfg, err, sizeof err), -1);
	CHECK(&u, strstr(err, "tmp: want a whole number") != NULL);
	/* the denial channel: the observer unless Landlock's records are chosen */
	mux_config_defaults(&cfg);
	CHECK(&u, !cfg.denials_audit);
	CHECK_INT(&u, load("{\"denials\": \"audit\"}", &cfg, err, sizeof err), 0);
	CHECK(&u, cfg.denials_audit);
	CHECK_INT(&u, load("{\"denials\": \"observer\"}", &cfg, err, sizeof err), 0);
	CHECK(&u, !cfg.denials_audit);
	CHECK_INT(&u, load("{\n  \"denials\": \"records\"\n}", &cfg, err, sizeof err), -1);
	CHECK(&u, strstr(err, ":2:14: denials: want \"observer\" (the default) or \"audit\"") != NULL);
	CHECK(&u, !cfg.denials_audit); /* a bad file: the defaults */
	CHECK_INT(&u, load("{\"denials\": true}", &cfg, err, sizeof err), -1);
	CHECK(&u, strstr(err, "denials: want") != NULL);
	return unit_done(&u, "test_config");
}
