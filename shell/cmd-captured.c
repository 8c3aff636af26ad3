/* cmd-captured: `sandmux captured`, the person's review of a capture
 * layer (outsideWrites "capture"), outside any sandbox: list what the
 * sandbox wrote outside its writable paths, diff it against the host,
 * apply chosen paths (or all) to the host, or discard the layer.
 *
 * apply writes exactly the chosen entries: each file is copied into a new
 * temporary file beside its target and renamed over it; missing parent
 * directories are made; no symlink on the host is followed on the way
 * (each component is opened O_NOFOLLOW from /), and a host target that is
 * a symlink is refused unless the captured entry is a symlink itself.
 * sandmux's own files (~/.sandmux) are never written. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/capture.h"
#include "policy/paths.h"
#include "policy/policy.h"
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

/* The parent directory of an absolute host path, opened component by
 * component without following a symlink; missing ones are made. The
 * final name goes to *name. -1 with a message. */
static int captured_parent(const char *path, char *copy, size_t size, const char **name)
{
	if (snprintf(copy, size, "%s", path) >= (int)size || copy[0] != '/')
		return -1;
	char *slash = strrchr(copy, '/');
	*slash = '\0';
	*name = slash + 1;
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	for (char *c = copy + 1; fd >= 0 && *c;) {
		char *end = strchr(c, '/');
		if (end != NULL)
			*end = '\0';
		int next = openat(fd, c, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && mkdirat(fd, c, 0755) == 0)
			next = openat(fd, c, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			fprintf(stderr, "sandmux captured: %s: %s%s\n", path, strerror(errno),
				errno == ENOTDIR || errno == ELOOP ? " (a symlink or file in the way: not followed)"
								   : "");
		close(fd);
		fd = next;
		if (end == NULL)
			break;
		*end = '/';
		c = end + 1;
	}
	*slash = '/';
	return fd;
}

/* The captured file, opened beneath the layer with no symlink on the way:
 * a sandbox still running could have turned a directory of its upper
 * layer into a symlink to a file of the person's since the listing. */
static int captured_open_upper(const char *layer, const char *upper)
{
	size_t n = strlen(layer);
	if (strncmp(upper, layer, n) != 0 || upper[n] != '/') {
		errno = EINVAL;
		return -1;
	}
	int dir = open(layer, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -1;
	struct open_how how = { .flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC,
				.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH };
	int fd = (int)syscall(SYS_openat2, dir, upper + n + 1, &how, sizeof how);
	int e = errno;
	close(dir);
	errno = e;
	return fd;
}

/* Copies the captured file (never followed) into a temporary beside the
 * target and renames it over the target. */
static int captured_copy(int dir, const char *name, const struct capture_entry *e, const char *layer)
{
	char tmp[NAME_MAX + 1], buf[65536];
	struct stat st;
	int in = captured_open_upper(layer, e->upper);
	if (in < 0 || fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (in >= 0)
			close(in);
		errno = in < 0 ? errno : EINVAL;
		return -1;
	}
	snprintf(tmp, sizeof tmp, ".sandmux-apply-%d", (int)getpid());
	int out = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, st.st_mode & 07777);
	ssize_t n = 0;
	while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	int e2 = errno;
	close(in);
	if (out < 0)
		return -1;
	if (n < 0 || fchmod(out, st.st_mode & 07777) < 0 || fsync(out) < 0 || close(out) < 0 ||
	    renameat(dir, tmp, dir, name) < 0) {
		e2 = errno ? errno : e2;
		unlinkat(dir, tmp, 0);
		errno = e2;
		return -1;
	}
	return 0;
}

static int captured_apply_one(const struct capture_entry *e, const char *own, const char *layer, const struct policy *p)
{
	char copy[PATH_MAX], target[PATH_MAX];
	const char *name, *rule;
	struct stat hs;
	if (path_under(e->path, own)) {
		fprintf(stderr, "sandmux captured: %s: sandmux's own files are never applied\n", e->path);
		return -1;
	}
	/* protected paths and deny matches are never captured; one that got
	 * in anyway (the observer alone refuses those made after launch) is
	 * not written to the host either */
	if (policy_path_guarded(p, e->path, &rule)) {
		fprintf(stderr, "sandmux captured: %s: refused by the policy (%s): never applied\n", e->path, rule);
		return -1;
	}
	int dir = captured_parent(e->path, copy, sizeof copy, &name);
	if (dir < 0)
		return -1;
	bool exists = fstatat(dir, name, &hs, AT_SYMLINK_NOFOLLOW) == 0;
	int rc = 0;
	if (exists && S_ISLNK(hs.st_mode) && !e->link && strcmp(e->op, "remove") != 0) {
		fprintf(stderr, "sandmux captured: %s: a symlink on the host: not followed, not applied\n", e->path);
		close(dir);
		return -1;
	}
	if (strcmp(e->op, "remove") == 0)
		rc = exists ? unlinkat(dir, name, S_ISDIR(hs.st_mode) ? AT_REMOVEDIR : 0) : 0;
	else if (e->dir)
		rc = exists && S_ISDIR(hs.st_mode) ? 0 : mkdirat(dir, name, 0755);
	else if (e->link) {
		ssize_t len = readlink(e->upper, target, sizeof target - 1);
		rc = len < 0 ? -1 : 0;
		if (rc == 0) {
			target[len] = '\0';
			if (exists && S_ISLNK(hs.st_mode))
				unlinkat(dir, name, 0);
			rc = symlinkat(target, dir, name);
		}
	} else
		rc = captured_copy(dir, name, e, layer);
	if (rc < 0)
		fprintf(stderr, "sandmux captured: apply %s: %s\n", e->path, strerror(errno));
	else
		printf("applied %-7s %s\n", e->op, e->path);
	close(dir);
	return rc;
}

/* The policy of the workspace the layer was made for, as it is now. */
static struct policy *captured_policy(const char *layer, const char *home)
{
	char ws[PATH_MAX];
	struct policy *p = NULL;
	struct perr err = { 0 };
	if (capture_layer_workspace(layer, ws, sizeof ws) < 0) {
		fprintf(stderr, "sandmux captured: %s does not name its workspace: not applied\n", layer);
		return NULL;
	}
	struct policy_opts o = { .home = home, .workspace = ws };
	if (policy_load(&o, &p, &err) < 0)
		fprintf(stderr, "sandmux captured: the policy of %s: %s\n", ws, err.msg);
	perr_free(&err);
	return p;
}

static int captured_apply(const struct capture_list *cl, const bool *pick, const char *home, const char *layer)
{
	char own[PATH_MAX + 16], real[PATH_MAX];
	sm_path(realpath(home, real) ? real : home, SM_PATH_DIR, own, sizeof own);
	struct policy *p = captured_policy(layer, home);
	if (p == NULL)
		return 1;
	int rc = 0;
	for (size_t i = 0; i < cl->n; i++)
		if (pick[i] && captured_apply_one(&cl->v[i], own, layer, p) < 0)
			rc = 1;
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
