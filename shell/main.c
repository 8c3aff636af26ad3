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
	{ "agents", cmd_agents, "agents diff [-u] [NAME] | apply NAME PATH..." },
	{ "doctor", cmd_doctor, "doctor" },
	{ "captured", cmd_captured,
	  "captured [--layer DIR] [list [--json] | diff [PATH...] | apply (--all | PATH...) | discard]" },
	{ "attach", cmd_session, "attach [-t NAME]" },
	{ "new", cmd_session,
	  "new [-t SESSION] [-n NAME] [--sandbox P] [--cwd DIR] [--agent NAME] [--layout L] [--json] -- CMD [ARG...] [::: CMD...]" },
	{ "new", cmd_session, "new [-t SESSION] --file WALL.json" },
	{ "ls", cmd_session, "ls [--json]" },
	{ "events", cmd_session, "events [-t NAME] [--pane N] [--kind K,...]" },
	{ "kill-session", cmd_session, "kill-session [-t NAME]" },
	{ "tiled", cmd_session, "tiled [-t NAME]" },
	{ "ctl", cmd_ctl, "ctl [-t NAME] [JSON]" },
	{ "list", cmd_ctl, "list [-t NAME] [--json]" },
	{ "send", cmd_ctl, "send -t [SESSION:]PANE KEY..." },
	{ "capture", cmd_ctl, "capture -t [SESSION:]PANE [-S START] [-e]" },
	{ "kill-pane", cmd_ctl, "kill-pane -t [SESSION:]PANE" },
	{ "answer", cmd_ctl, "answer [SESSION:]PANE.N once|session|always|repo|deny|dismiss" },
	{ "request", cmd_request,
	  "request [--write PATH] [--read PATH] [--net HOST[:PORT]] [--reason TEXT] -- CMD [ARG...]   (in a pane)" },
	{ "why", cmd_request, "why   (in a pane: its sandbox's recent denials)" },
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
