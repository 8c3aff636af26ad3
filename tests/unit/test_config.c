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
	CHECK(&u,
	      strstr(err, "unknown setting (known: prefix, scrollback, status, clipboard, mouse, net_hold, bind)") != NULL);
	return unit_done(&u, "test_config");
}
