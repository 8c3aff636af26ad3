/* sandmux: a terminal multiplexer whose panes run in kernel-enforced
 * sandboxes. main only picks the verb; each verb is a shell/cmd-*.c. */
#include <stdio.h>
#include <string.h>

#include "shell/cmd.h"

static const struct verb {
	const char *name;
	int (*fn)(int, char **);
	const char *usage;
} verbs[] = {
	{ "run", cmd_run, "run [--sandbox NAME] [--workspace DIR] [--config FILE] [--report FILE] -- CMD [ARG...]" },
	{ "policy", cmd_policy, "policy show [--json] | explain [--op OP] PATH|HOST[:PORT] | check FILE" },
	{ "trust", cmd_trust, "trust [FILE]" },
	{ "doctor", cmd_doctor, "doctor" },
	{ "captured", cmd_captured,
	  "captured [--layer DIR] [list [--json] | diff [PATH...] | apply (--all | PATH...) | discard]" },
	{ "attach", cmd_session, "attach [-t NAME]" },
	{ "new", cmd_session, "new [-n NAME] [--sandbox P] [--cwd DIR] -- CMD [ARG...]" },
	{ "ls", cmd_session, "ls [--json]" },
	{ "events", cmd_session, "events [-t NAME] [--pane N]" },
	{ "kill-session", cmd_session, "kill-session [-t NAME]" },
	{ "tiled", cmd_session, "tiled [-t NAME]" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: sandmux [--sandbox NAME]          start or attach the session for this directory\n");
	for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
		fprintf(f, "       sandmux %s\n", verbs[i].usage);
}

int main(int argc, char **argv)
{
	if (argc > 1 &&
	    (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc > 1 && argv[1][0] != '-') {
		for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
			if (strcmp(argv[1], verbs[i].name) == 0)
				return verbs[i].fn(argc - 1, argv + 1);
		fprintf(stderr, "sandmux: unknown command \"%s\"\n", argv[1]);
		usage(stderr);
		return 2;
	}
	return cmd_session(argc, argv);
}
