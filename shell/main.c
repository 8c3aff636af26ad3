/* sandmux: a terminal multiplexer whose panes run in kernel-enforced
 * sandboxes. main only picks the verb: a program of its own (run, policy,
 * the control CLI: a shell/cmd-*.c each), or a command of the
 * multiplexer's table (command.h) that the session's server runs. */
#include <stdio.h>
#include <string.h>

#include "backends/observer-zygote.h"
#include "shell/cmd.h"
#include "shell/command.h"

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
	{ "ls", cmd_session, "ls [--json]" },
	{ "events", cmd_session, "events [-t NAME] [--pane N] [--kind K,...]" },
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
	for (size_t i = 0; cmd_table[i] != NULL; i++) {
		const struct cmd_entry *e = cmd_table[i];
		if ((e->flags & CMD_CLI) && e->usage != NULL) /* the server's commands for scripts */
			fprintf(f, "       sandmux %s%s%s\n", e->alias != NULL ? e->alias : e->name,
				e->usage[0] ? " " : "", e->usage);
	}
}

/* A command of the table that needs no session (list-commands). */
static int local(int argc, char **argv)
{
	struct buf out = { 0 };
	int status = cmd_run_argv(NULL, argc, (const char **)argv, NULL, &out);
	fwrite(buf_data(&out), 1, out.len, status == 0 ? stdout : stderr);
	buf_free(&out);
	return status;
}

int main(int argc, char **argv)
{
	if (argc == 1 && strcmp(argv[0], OBSERVER_ZYGOTE_NAME) == 0)
		return observer_zygote_main(); /* a server's, exec'd by it (backends/observer-zygote.h) */
	if (argc > 1 &&
	    (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc > 1 && argv[1][0] != '-') {
		for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
			if (strcmp(argv[1], verbs[i].name) == 0)
				return verbs[i].fn(argc - 1, argv + 1);
		if (cmd_lookup(argv[1], CMD_LOCAL) != NULL)
			return local(argc - 1, argv + 1);
		if (cmd_lookup(argv[1], CMD_CLI) != NULL)
			return cmd_session(argc - 1, argv + 1);
		fprintf(stderr, "sandmux: unknown command \"%s\"\n", argv[1]);
		usage(stderr);
		return 2;
	}
	return cmd_session(argc, argv);
}
