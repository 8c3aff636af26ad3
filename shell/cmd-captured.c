/* cmd-captured: `sandmux captured`, the person's review of a capture
 * layer (outsideWrites "capture"), outside any sandbox: list what the
 * sandbox wrote outside its writable paths, diff it against the host,
 * apply chosen paths (or all) to the host (shell/captured-apply.c), or
 * discard the layer. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/capture.h"
#include "policy/paths.h"
#include "policy/policy.h"
#include "shell/captured.h"
#include "shell/cmd.h"
#include "shell/home.h"

static int captured_usage(void)
{
	fprintf(stderr,
		"usage: sandmux captured [--layer DIR] [list [--json] | diff [PATH...] | apply (--all | PATH...) | "
		"discard]\n");
	return 2;
}

/* The newest layer under HOME/.sandmux/state/capture/SESSION/. */
static int captured_newest(const char *home, char *out, size_t size)
{
	char root[PATH_MAX];
	struct timespec best = { 0, 0 };
	out[0] = '\0';
	sm_path(home, SM_PATH_CAPTURE, root, sizeof root);
	DIR *d = opendir(root);
	struct dirent *e;
	while (d != NULL && (e = readdir(d)) != NULL) {
		char sess[PATH_MAX];
		if (e->d_name[0] == '.' || snprintf(sess, sizeof sess, "%s/%s", root, e->d_name) >= (int)sizeof sess)
			continue;
		DIR *s = opendir(sess);
		struct dirent *f;
		while (s != NULL && (f = readdir(s)) != NULL) {
			char layer[PATH_MAX];
			struct stat st;
			if (f->d_name[0] == '.' ||
			    snprintf(layer, sizeof layer, "%s/%s", sess, f->d_name) >= (int)sizeof layer ||
			    lstat(layer, &st) < 0 || !S_ISDIR(st.st_mode))
				continue;
			if (st.st_mtim.tv_sec > best.tv_sec ||
			    (st.st_mtim.tv_sec == best.tv_sec && st.st_mtim.tv_nsec > best.tv_nsec)) {
				best = st.st_mtim;
				snprintf(out, size, "%s", layer);
			}
		}
		if (s != NULL)
			closedir(s);
	}
	if (d != NULL)
		closedir(d);
	return out[0] ? 0 : -1;
}

static void captured_list(const struct capture_list *cl, bool json)
{
	if (!json) {
		for (size_t i = 0; i < cl->n; i++)
			printf("%-7s %s%s\n", cl->v[i].op, cl->v[i].path, cl->v[i].dir ? "/" : "");
		return;
	}
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < cl->n; i++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "path", cl->v[i].path);
		cJSON_AddStringToObject(e, "op", cl->v[i].op);
		cJSON_AddItemToArray(a, e);
	}
	char *s = cJSON_Print(a);
	if (s != NULL)
		printf("%s\n", s);
	free(s);
	cJSON_Delete(a);
}

/* The entries named on the command line (all when none is): NULL and a
 * message for a name that is not in the layer. */
static bool captured_chosen(const struct capture_list *cl, int argc, char **argv, bool *pick)
{
	bool ok = true;
	for (size_t i = 0; i < cl->n; i++)
		pick[i] = argc == 0;
	for (int a = 0; a < argc; a++) {
		bool found = false;
		for (size_t i = 0; i < cl->n; i++)
			if (strcmp(cl->v[i].path, argv[a]) == 0)
				found = pick[i] = true;
		if (!found) {
			fprintf(stderr, "sandmux captured: %s: not in the layer (see sandmux captured list)\n",
				argv[a]);
			ok = false;
		}
	}
	return ok;
}

static int captured_diff(const struct capture_list *cl, const bool *pick)
{
	int rc = 0;
	for (size_t i = 0; i < cl->n; i++) {
		const struct capture_entry *e = &cl->v[i];
		if (!pick[i] || e->dir || e->link)
			continue;
		bool removed = strcmp(e->op, "remove") == 0;
		const char *old = strcmp(e->op, "create") == 0 ? "/dev/null" : e->path;
		const char *new = removed ? "/dev/null" : e->upper;
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			execlp("diff", "diff", "-u", "--label", e->path, "--label", e->path, old, new, (char *)NULL);
			_exit(127);
		}
		int st = 0;
		if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) > 1)
			rc = 1;
	}
	return rc;
}

static int captured_apply(const struct capture_list *cl, const bool *pick, const char *home, const char *layer)
{
	char msg[PATH_MAX + 200];
	struct policy *p = captured_policy(layer, home, msg, sizeof msg);
	if (p == NULL) {
		fprintf(stderr, "sandmux captured: %s\n", msg);
		return 1;
	}
	int rc = 0;
	for (size_t i = 0; i < cl->n; i++) {
		if (!pick[i])
			continue;
		if (captured_apply_entry(&cl->v[i], home, layer, p, msg, sizeof msg) < 0) {
			fprintf(stderr, "sandmux captured: %s\n", msg);
			rc = 1;
		} else
			printf("%s\n", msg);
	}
	policy_free(p);
	return rc;
}

int cmd_captured(int argc, char **argv)
{
	const char *home;
	char layer[PATH_MAX] = "";
	int i = 1;
	if (getenv("SANDMUX_SANDBOX") != NULL) {
		fprintf(stderr, "sandmux captured: only outside a sandbox (the person's review)\n");
		return 1;
	}
	if (i + 1 < argc && strcmp(argv[i], "--layer") == 0) {
		snprintf(layer, sizeof layer, "%s", argv[i + 1]);
		i += 2;
	}
	const char *verb = i < argc ? argv[i++] : "list";
	if ((home = home_need("captured")) == NULL)
		return 1;
	if (layer[0] == '\0' && captured_newest(home, layer, sizeof layer) < 0) {
		fprintf(stderr, "sandmux captured: no capture layer under ~/.sandmux/state/capture\n");
		return 1;
	}
	if (strcmp(verb, "discard") == 0) {
		if (capture_discard(layer) < 0) {
			fprintf(stderr, "sandmux captured: discard %s: %s\n", layer, strerror(errno));
			return 1;
		}
		printf("discarded %s\n", layer);
		return 0;
	}
	struct capture_list cl = { 0 };
	if (capture_list_read(layer, &cl) < 0) {
		fprintf(stderr, "sandmux captured: %s: %s\n", layer, strerror(errno));
		return 1;
	}
	bool *pick = calloc(cl.n + 1, sizeof *pick);
	int rc = 2;
	if (pick == NULL)
		abort();
	if (strcmp(verb, "list") == 0 && (i == argc || (i + 1 == argc && strcmp(argv[i], "--json") == 0))) {
		captured_list(&cl, i < argc);
		rc = 0;
	} else if (strcmp(verb, "diff") == 0) {
		rc = captured_chosen(&cl, argc - i, argv + i, pick) ? captured_diff(&cl, pick) : 1;
	} else if (strcmp(verb, "apply") == 0 && i < argc) {
		bool all = strcmp(argv[i], "--all") == 0 && i + 1 == argc;
		rc = captured_chosen(&cl, all ? 0 : argc - i, argv + i, pick) ? captured_apply(&cl, pick, home, layer)
									      : 1;
	} else {
		rc = captured_usage();
	}
	free(pick);
	capture_list_free(&cl);
	return rc;
}
