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
#include "ui/denials.h"

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
	char line[PATH_MAX + 64];
	if (!json) {
		for (size_t i = 0; i < cl->n; i++) {
			captured_line(&cl->v[i], line, sizeof line);
			printf("%s\n", line);
		}
		return;
	}
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < cl->n; i++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "path", cl->v[i].path);
		cJSON_AddStringToObject(e, "op", cl->v[i].op);
		if (cl->v[i].special != NULL) /* never applied */
			cJSON_AddStringToObject(e, "special", cl->v[i].special);
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
			char shown[PATH_MAX];
			fprintf(stderr, "sandmux captured: %s: not in the layer (see sandmux captured list)\n",
				captured_name(argv[a], shown, sizeof shown));
			ok = false;
		}
	}
	return ok;
}

/* diff's output line by line, each shown safely (tabs kept): a file's
 * content reaches the terminal no more than its name does. */
static void captured_print_safe(int fd)
{
	FILE *f = fdopen(fd, "r");
	char *line = NULL, *out = NULL;
	size_t cap = 0;
	ssize_t n;
	while (f != NULL && (n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		out = realloc(out, (size_t)n + 1);
		if (out == NULL)
			abort();
		for (char *s = line, *tab; s != NULL; s = tab != NULL ? tab + 1 : NULL) {
			if ((tab = strchr(s, '\t')) != NULL)
				*tab = '\0';
			ui_safe_text(out, (size_t)n + 1, s);
			fputs(out, stdout);
			if (tab != NULL)
				putchar('\t');
		}
		putchar('\n');
	}
	free(line);
	free(out);
	if (f != NULL)
		fclose(f);
}

static int captured_diff(const struct capture_list *cl, const bool *pick, const char *layer)
{
	char head[2 * PATH_MAX];
	int rc = 0;
	for (size_t i = 0; i < cl->n; i++) {
		const struct capture_entry *e = &cl->v[i];
		pid_t pid;
		if (!pick[i] || e->dir || e->link)
			continue;
		int fd = captured_diff_start(e, layer, head, sizeof head, &pid);
		fputs(head, stdout); /* names shown safely already */
		if (fd < 0)
			continue;
		fflush(stdout);
		int out = dup(fd);
		if (out >= 0)
			captured_print_safe(out);
		if (captured_diff_end(fd, pid) < 0)
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
	/* its sandbox could change a file between the diff and this */
	char shown[PATH_MAX];
	int lock = captured_lock(layer, msg, sizeof msg);
	if (lock < 0) {
		fprintf(stderr, "sandmux captured: %s: %s\n", captured_name(layer, shown, sizeof shown), msg);
		policy_free(p);
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
	close(lock);
	policy_free(p);
	return rc;
}

static int captured_discard(const char *layer)
{
	char msg[PATH_MAX + 200], shown[PATH_MAX];
	captured_name(layer, shown, sizeof shown);
	if (captured_discard_locked(layer, msg, sizeof msg) < 0) {
		fprintf(stderr, "sandmux captured: %s: %s\n", shown, msg);
		return 1;
	}
	printf("discarded %s\n", shown);
	return 0;
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
	if (strcmp(verb, "discard") == 0)
		return captured_discard(layer);
	struct capture_list cl = { 0 };
	if (capture_list_read(layer, &cl) < 0) {
		char shown[PATH_MAX];
		fprintf(stderr, "sandmux captured: %s: %s\n", captured_name(layer, shown, sizeof shown),
			strerror(errno));
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
		rc = captured_chosen(&cl, argc - i, argv + i, pick) ? captured_diff(&cl, pick, layer) : 1;
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
