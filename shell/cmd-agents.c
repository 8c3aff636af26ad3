/* cmd-agents: what the agents changed in their state shadows, and the
 * person's way of taking some of it back (policy/agents.h).
 *
 *   sandmux agents diff [-u] [NAME]   A/M/D per file, shadow against the real files
 *   sandmux agents apply NAME PATH... copies those files from the shadow over the real ones
 *
 * apply is refused inside a sandbox (there the real paths are covered by
 * the shadows, and Landlock refuses them anyway): it is how a person, and
 * nothing else, lets a change reach configuration that runs unsandboxed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "policy/agents.h"
#include "policy/config.h"
#include "shell/cmd.h"
#include "shell/home.h"

#define AGENTS_DEPTH 64

static int agents_usage(void)
{
	fprintf(stderr, "usage: sandmux agents diff [-u] [--workspace DIR] [NAME]\n"
			"       sandmux agents apply [--workspace DIR] NAME PATH...\n");
	return 2;
}

static int agents_load(const char *ws, struct policy **p)
{
	char dir[PATH_MAX];
	struct perr e = { 0 };
	const char *home = home_need("agents");
	if (home == NULL)
		return -1;
	struct policy_opts o = { .home = home,
				 .workspace = realpath(ws != NULL ? ws : ".", dir) ? dir : ws,
				 .path_env = getenv("PATH") };
	int r = policy_load(&o, p, &e);
	if (r < 0)
		fprintf(stderr, "sandmux: %s\n", e.msg);
	perr_free(&e);
	if (r == 0 && (*p)->agents->state == NULL) {
		fprintf(stderr, "sandmux: agents: the profile \"%s\" uses no agent presets\n", (*p)->profile);
		policy_free(*p);
		return -1;
	}
	return r;
}

/* "agent NAME: state shadow" names the shadow's agent. */
static bool shadow_of(const struct rule *r, const char *name)
{
	if (name == NULL)
		return true;
	size_t n = strlen(name);
	return strncmp(r->label, "agent ", 6) == 0 && strncmp(r->label + 6, name, n) == 0 && r->label[6 + n] == ':';
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) < 0 || stat(b, &sb) < 0 || sa.st_size != sb.st_size)
		return false;
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	bool same = fa != NULL && fb != NULL;
	char x[8192], y[8192];
	size_t n;
	while (same && (n = fread(x, 1, sizeof x, fa)) > 0)
		same = fread(y, 1, n, fb) == n && memcmp(x, y, n) == 0;
	if (fa != NULL)
		fclose(fa);
	if (fb != NULL)
		fclose(fb);
	return same;
}

static void show_unified(const char *real, const char *shadow)
{
	fflush(stdout); /* the A/M line first */
	pid_t pid = fork();
	if (pid == 0) {
		execlp("diff", "diff", "-u", real, shadow, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

struct walk {
	const char *real_root, *shadow_root;
	bool unified;
	int changes;
};

/* from: the tree walked (the shadow, then the real one for what is gone). */
static void walk_tree(struct walk *w, const char *rel, bool shadow_side, int depth)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s%s", shadow_side ? w->shadow_root : w->real_root, rel);
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d != NULL && (e = readdir(d)) != NULL) {
		char sub[PATH_MAX], real[PATH_MAX], shadow[PATH_MAX];
		struct stat st, other;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    snprintf(sub, sizeof sub, "%s/%s", rel, e->d_name) >= (int)sizeof sub)
			continue;
		snprintf(real, sizeof real, "%s%s", w->real_root, sub);
		snprintf(shadow, sizeof shadow, "%s%s", w->shadow_root, sub);
		const char *here = shadow_side ? shadow : real, *there = shadow_side ? real : shadow;
		if (lstat(here, &st) < 0)
			continue;
		bool exists = lstat(there, &other) == 0;
		if (S_ISDIR(st.st_mode)) {
			if (depth > 0)
				walk_tree(w, sub, shadow_side, depth - 1);
			continue;
		}
		if (!shadow_side) {
			if (!exists) {
				printf("D %s\n", real);
				w->changes++;
			}
			continue;
		}
		if (exists && S_ISREG(st.st_mode) && S_ISREG(other.st_mode) && same_file(real, shadow))
			continue;
		if (!S_ISREG(st.st_mode) && exists)
			continue; /* links and sockets: the agent's own business */
		printf("%c %s\n", exists ? 'M' : 'A', real);
		w->changes++;
		if (w->unified && S_ISREG(st.st_mode))
			show_unified(exists ? real : "/dev/null", shadow);
	}
	if (d != NULL)
		closedir(d);
}

static int agents_diff(const struct policy *p, const char *name, bool unified)
{
	const struct policy_agents *a = p->agents;
	int changes = 0;
	if (name != NULL && agents_find(p, name) == NULL) {
		fprintf(stderr, "sandmux: agents: no preset named %s\n", name);
		return 2;
	}
	for (size_t i = 0; i < a->shadow.n; i++) {
		struct walk w = { a->shadow.v[i].text, a->shadow_src.v[i].text, unified, 0 };
		struct stat st;
		if (!shadow_of(&a->shadow.v[i], name) || lstat(w.shadow_root, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk_tree(&w, "", true, AGENTS_DEPTH);
			walk_tree(&w, "", false, AGENTS_DEPTH);
		} else if (!same_file(w.real_root, w.shadow_root)) {
			printf("M %s\n", w.real_root);
			w.changes++;
			if (unified)
				show_unified(w.real_root, w.shadow_root);
		}
		changes += w.changes;
	}
	if (changes == 0)
		printf("no changes in the shadows of %s\n", name != NULL ? name : "any agent");
	return changes > 0 ? 1 : 0;
}

/* The shadow's copy of a real path under one of NAME's shadows. */
static const char *shadow_path(const struct policy *p, const char *name, const char *real, char *buf, size_t size)
{
	const struct policy_agents *a = p->agents;
	for (size_t i = 0; i < a->shadow.n; i++) {
		const char *root = a->shadow.v[i].text;
		if (shadow_of(&a->shadow.v[i], name) && path_under(real, root) &&
		    snprintf(buf, size, "%s%s", a->shadow_src.v[i].text, real + strlen(root)) < (int)size)
			return buf;
	}
	return NULL;
}

/* The shadow's file over the real one: a temp file beside it, renamed. */
static int apply_one(const char *from, const char *to)
{
	char tmp[PATH_MAX], *canon = realpath(from, NULL);
	struct stat st;
	/* a symlink a sandbox planted in its shadow would copy any file */
	bool plain = canon != NULL && strcmp(canon, from) == 0;
	free(canon);
	int in = plain ? open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (!plain)
		errno = ELOOP;
	if (in < 0 || fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "sandmux: agents: %s: %s in the shadow\n", to,
			in < 0 ? strerror(errno) : "not a regular file");
		if (in >= 0)
			close(in);
		return -1;
	}
	/* the directories a new file needs, as the shadow has them */
	snprintf(tmp, sizeof tmp, "%s", to);
	for (char *s = strchr(tmp + 1, '/'); s != NULL; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(tmp, 0700);
		*s = '/';
	}
	snprintf(tmp, sizeof tmp, "%s.sandmux-apply.%d", to, (int)getpid());
	int out = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, st.st_mode & 07777);
	char buf[65536];
	ssize_t n = 0;
	bool ok = out >= 0;
	while (ok && (n = read(in, buf, sizeof buf)) > 0)
		ok = write(out, buf, (size_t)n) == n;
	ok = ok && n == 0 && fsync(out) == 0;
	if (out >= 0 && close(out) < 0)
		ok = false;
	close(in);
	if (!ok || rename(tmp, to) < 0) {
		fprintf(stderr, "sandmux: agents: write %s: %s\n", to, strerror(errno));
		unlink(tmp);
		return -1;
	}
	printf("applied %s\n", to);
	return 0;
}

static int agents_copy_back(const struct policy *p, const char *name, char **paths, int n)
{
	if (getenv("SANDMUX_SANDBOX") != NULL) {
		fprintf(stderr, "sandmux: agents apply: refused inside a sandbox; run it in your own terminal\n");
		return 1;
	}
	if (agents_find(p, name) == NULL) {
		fprintf(stderr, "sandmux: agents: no preset named %s\n", name);
		return 2;
	}
	int rc = 0;
	for (int i = 0; i < n; i++) {
		char abs[2 * PATH_MAX + 2], cwd[PATH_MAX], src[PATH_MAX];
		if (paths[i][0] == '/' || paths[i][0] == '~')
			snprintf(abs, sizeof abs, "%s", paths[i]);
		else
			snprintf(abs, sizeof abs, "%s/%s", getcwd(cwd, sizeof cwd) ? cwd : ".", paths[i]);
		char *real = path_expand(abs, p->home);
		if (real == NULL || shadow_path(p, name, real, src, sizeof src) == NULL) {
			fprintf(stderr, "sandmux: agents: %s is not in a state shadow of %s\n", paths[i], name);
			rc = 1;
		} else if (apply_one(src, real) < 0) {
			rc = 1;
		}
		free(real);
	}
	return rc;
}

int cmd_agents(int argc, char **argv)
{
	const char *ws = NULL;
	bool unified = false;
	int i = 2;
	if (argc < 2)
		return agents_usage();
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-u") == 0 && strcmp(argv[1], "diff") == 0)
			unified = true;
		else if (strcmp(argv[i], "--workspace") == 0 && i + 1 < argc)
			ws = argv[++i];
		else
			return agents_usage();
	}
	bool diff = strcmp(argv[1], "diff") == 0;
	if ((diff && argc - i > 1) || (!diff && (strcmp(argv[1], "apply") != 0 || argc - i < 2)))
		return agents_usage();
	struct policy *p;
	if (agents_load(ws, &p) < 0)
		return 2;
	int rc = diff ? agents_diff(p, i < argc ? argv[i] : NULL, unified)
		      : agents_copy_back(p, argv[i], argv + i + 1, argc - i - 1);
	policy_free(p);
	return rc;
}
