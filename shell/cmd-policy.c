/* cmd-policy: `sandmux policy show|explain|check` and `sandmux trust`.
 * Bad input exits 2 with one line "FILE:LINE:COL: FIELD: what is wrong";
 * warnings are lines starting "sandmux: warning:". */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/safefile.h"
#include "policy/config.h"
#include "policy/paths.h"
#include "policy/trust.h"
#include "shell/cmd.h"
#include "shell/home.h"
#include "shell/policy-show.h"

struct policy_args {
	const char *sandbox, *workspace, *config, *op;
	bool json;
	const char *pos[4]; /* positional arguments after the sub-verb */
	int npos;
	char ws[PATH_MAX];
};

static int usage(void)
{
	fprintf(stderr,
		"usage: sandmux policy show [--json] [COMMON]\n"
		"       sandmux policy explain [--op read|write|create|remove|rename|exec|connect] PATH|HOST[:PORT] [COMMON]\n"
		"       sandmux policy check FILE\n"
		"       sandmux trust [FILE] [--workspace DIR]\n"
		"COMMON: --sandbox NAME  --workspace DIR (default: .)  --config FILE (in place of ~/.sandmux/sandbox.json)\n");
	return 2;
}

/* Options may come anywhere after the verb. */
static int args_parse(int argc, char **argv, int first, struct policy_args *a)
{
	for (int i = first; i < argc; i++) {
		const char **slot = strcmp(argv[i], "--sandbox") == 0     ? &a->sandbox
				    : strcmp(argv[i], "--workspace") == 0 ? &a->workspace
				    : strcmp(argv[i], "--config") == 0    ? &a->config
				    : strcmp(argv[i], "--op") == 0        ? &a->op
									  : NULL;
		if (slot) {
			if (++i == argc)
				return usage();
			*slot = argv[i];
		} else if (strcmp(argv[i], "--json") == 0) {
			a->json = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "sandmux: unknown option %s\n", argv[i]);
			return usage();
		} else if (a->npos < 4) {
			a->pos[a->npos++] = argv[i];
		} else {
			return usage();
		}
	}
	if (!realpath(a->workspace ? a->workspace : ".", a->ws)) {
		fprintf(stderr, "sandmux: --workspace %s: no such directory\n", a->workspace ? a->workspace : ".");
		return 2;
	}
	return 0;
}

/* Prints the error alone (bad input is exactly one line), or the
 * warnings: 2 on error. */
static int report(struct perr *e, int r)
{
	if (r < 0)
		fprintf(stderr, "%s\n", e->msg);
	else
		perr_print_warnings(e, stderr);
	perr_free(e);
	return r < 0 ? 2 : 0;
}

static int load(const struct policy_args *a, struct policy **p)
{
	struct perr e = { 0 };
	char cfg[PATH_MAX];
	const char *home = home_need("policy");
	if (home == NULL)
		return 1;
	struct policy_opts o = {
		.home = home,
		.workspace = a->ws,
		.profile_flag = a->sandbox,
		.profile_env = getenv("SANDMUX_SANDBOX"),
		.path_env = getenv("PATH"),
	};
	if (a->config)
		o.user_file = realpath(a->config, cfg) ? cfg : a->config;
	return report(&e, policy_load(&o, p, &e));
}

static int policy_show(const struct policy_args *a)
{
	struct policy *p;
	int r = load(a, &p);
	if (r)
		return r;
	if (a->json)
		r = policy_show_json(p, stdout) < 0 ? 1 : 0;
	else
		policy_show_text(p, stdout);
	policy_free(p);
	return r;
}

static void print_decision(const char *what, const char *target, struct decision d)
{
	char where[1200];
	printf("%s: %s %s\n  rule: %s\n  from: %s\n", d.allow ? "allow" : "deny", what, target, d.rule,
	       policy_show_origin(d.origin, where, sizeof where));
}

/* "host", "host:443", "[v6]:443", "v6" -> host and port. */
static int split_host(const char *in, char *host, size_t size, int *port)
{
	const char *colon = strrchr(in, ':');
	*port = 0;
	if (in[0] == '[') {
		const char *close = strchr(in, ']');
		if (!close)
			return -1;
		snprintf(host, size, "%.*s", (int)(close - in - 1), in + 1);
		colon = close[1] == ':' ? close + 1 : NULL;
	} else if (colon && strchr(in, ':') != colon) {
		snprintf(host, size, "%s", in); /* bare IPv6 */
		return 0;
	} else {
		snprintf(host, size, "%.*s", colon ? (int)(colon - in) : (int)strlen(in), in);
	}
	if (colon) {
		*port = atoi(colon + 1);
		if (*port < 1 || *port > 65535)
			return -1;
	}
	return 0;
}

static int explain_host(const struct policy *p, const char *target)
{
	char host[300], bare[300];
	int port;
	const char *scheme = strstr(target, "://");
	/* URL paths are ignored: matching is on the host (DESIGN.md) */
	snprintf(bare, sizeof bare, "%s", scheme ? scheme + 3 : target);
	bare[strcspn(bare, "/")] = 0;
	if (split_host(bare, host, sizeof host, &port) < 0) {
		fprintf(stderr, "sandmux: %s: not a HOST[:PORT]\n", target);
		return 2;
	}
	struct decision d = policy_decide_host(p, host, NULL, port);
	print_decision("connect", target, d);
	return d.allow ? 0 : 1;
}

static const char *const ops[] = { "read", "write", "create", "remove", "rename", "exec" };

/* Symlinks resolved where the path exists, as the kernel would see it. */
static void absolute(const char *in, char *out)
{
	char tmp[PATH_MAX * 2];
	if (realpath(in, out))
		return;
	if (in[0] == '/')
		snprintf(tmp, sizeof tmp, "%s", in);
	else if (getcwd(out, PATH_MAX))
		snprintf(tmp, sizeof tmp, "%s/%s", out, in);
	char *n = path_normalize(tmp);
	snprintf(out, PATH_MAX, "%s", n);
	free(n);
}

static int explain_path(const struct policy *p, const char *op, const char *target)
{
	char path[PATH_MAX];
	int status = 0;
	absolute(target, path);
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		if (op ? strcmp(op, ops[i]) != 0 : i != OP_READ && i != OP_WRITE)
			continue;
		struct decision d = policy_decide_path(p, path, (enum fs_op)i);
		print_decision(ops[i], path, d);
		if (!d.allow)
			status = 1;
	}
	return status;
}

static bool looks_like_path(const char *t)
{
	return t[0] == '/' || t[0] == '.' || t[0] == '~' || strchr(t, '/') != NULL;
}

static int policy_explain(const struct policy_args *a)
{
	bool op_ok = !a->op || strcmp(a->op, "connect") == 0;
	for (size_t i = 0; a->op && i < sizeof ops / sizeof ops[0]; i++)
		op_ok |= strcmp(a->op, ops[i]) == 0;
	if (a->npos != 1 || !op_ok)
		return usage();
	struct policy *p;
	int r = load(a, &p);
	if (r)
		return r;
	const char *t = a->pos[0];
	bool host = a->op ? strcmp(a->op, "connect") == 0 : strstr(t, "://") || !looks_like_path(t);
	char expanded[PATH_MAX];
	if (!host && t[0] == '~' && t[1] == '/') {
		snprintf(expanded, sizeof expanded, "%s%s", p->home, t + 1);
		t = expanded;
	}
	r = host ? explain_host(p, t) : explain_path(p, a->op, t);
	policy_free(p);
	return r;
}

/* A profile named in the file must be built in or defined there. */
static void check_names(const struct config *c, struct perr *e)
{
	if (c->profile.v && !profile_is_builtin(c->profile.v) && !config_profile(c, c->profile.v))
		perr_warn(e, "%s:%d:%d: profile: \"%s\" is not defined in this file", c->profile.o.file,
			  c->profile.o.line, c->profile.o.col, c->profile.v);
	for (size_t i = 0; i < c->nprofiles; i++) {
		const struct opt_str *x = &c->profiles[i].extends;
		if (x->v && !profile_is_builtin(x->v) && !config_profile(c, x->v))
			perr_warn(e, "%s:%d:%d: profiles.%s.extends: \"%s\" is not defined in this file", x->o.file,
				  x->o.line, x->o.col, c->profiles[i].name, x->v);
	}
}

static int policy_check(const struct policy_args *a)
{
	struct config c = { 0 };
	struct perr e = { 0 };
	const char *home;
	if (a->npos != 1)
		return usage();
	if ((home = home_need("policy")) == NULL)
		return 1;
	int r = config_load(&c, a->pos[0], LAYER_USER, home, &e);
	if (r == 0) {
		perr_set(&e, a->pos[0], 0, 0, NULL, "no such file");
		r = -1;
	}
	if (r > 0)
		check_names(&c, &e);
	config_free(&c);
	r = report(&e, r);
	if (r == 0)
		printf("%s: ok\n", a->pos[0]);
	return r;
}

int cmd_policy(int argc, char **argv)
{
	struct policy_args a = { 0 };
	if (argc < 2)
		return usage();
	int r = args_parse(argc, argv, 2, &a);
	if (r)
		return r;
	if (strcmp(argv[1], "show") == 0 && a.npos == 0)
		return policy_show(&a);
	if (strcmp(argv[1], "explain") == 0)
		return policy_explain(&a);
	if (strcmp(argv[1], "check") == 0)
		return policy_check(&a);
	return usage();
}

/* What trusting `repo` lets through, against the per-user layer. */
static void trust_explain(const char *file, struct config *repo, const char *home, const char *user_file)
{
	struct config user = { 0 }, one;
	struct perr e = { 0 };
	char ignored[512], path[PATH_MAX + 32];
	const enum sm_path rel[] = { SM_PATH_CURSOR_POLICY, SM_PATH_USER_POLICY };
	for (size_t i = 0; i < 2 && !user_file; i++) {
		memset(&one, 0, sizeof one);
		if (sm_path(home, rel[i], path, sizeof path) == 0 && config_load(&one, path, LAYER_USER, home, &e) > 0)
			config_merge(&user, &one, &e);
		config_free(&one);
	}
	memset(&one, 0, sizeof one);
	if (user_file && config_load(&one, user_file, LAYER_USER, home, &e) > 0)
		config_merge(&user, &one, &e);
	config_free(&one);
	config_drop_widening(repo, &user, ignored, sizeof ignored);
	printf("sandmux: trusted %s%s%s\n", file, ignored[0] ? "; it now widens: " : " (it widens nothing)", ignored);
	config_free(&user);
	perr_free(&e);
}

/* The record with file -> tag, written beside the old one and renamed
 * over it (backends/safefile.h): policy/ writes no file. */
static int trust_store(const char *home, const char *file, const char *tag, struct perr *e)
{
	char *old = NULL, err[1024];
	size_t old_len = 0;
	if (trust_read(home, &old, &old_len, e) < 0)
		return -1;
	char *rec = trust_add(old, old_len, file, tag);
	free(old);
	int rc = rec != NULL
			 ? safefile_replace(home, sm_path_rel(SM_PATH_TRUST), rec, strlen(rec), 0600, err, sizeof err)
			 : -1;
	if (rc < 0)
		perr_set(e, NULL, 0, 0, NULL, "trust: %s", rec != NULL ? err : "out of memory");
	free(rec);
	return rc;
}

/* Validates, then records one file. It is read once: the bytes parsed and
 * explained are the bytes hashed and recorded, whatever happens to the
 * file meanwhile. found: whether it exists (absent: 0, nothing done). */
static int trust_one(const char *ws, const char *rel, const char *home, const char *user_file, bool *found)
{
	struct config c = { 0 };
	struct perr e = { 0 };
	char file[PATH_MAX + 32], tag[TRUST_TAG_SIZE], *text = NULL;
	size_t len;
	snprintf(file, sizeof file, "%s/%s", ws, rel);
	int r = config_read_repo_file(ws, rel, &text, &len, &e);
	*found = r != 0;
	if (r == 0)
		return 0;
	if (r > 0 && config_parse(&c, file, text, len, LAYER_REPO, home, &e) < 0)
		r = -1;
	if (r > 0)
		trust_tag(text, len, tag);
	free(text);
	if (r < 0) {
		config_free(&c);
		return report(&e, -1);
	}
	if (trust_store(home, file, tag, &e) < 0) {
		fprintf(stderr, "sandmux: %s\n", e.msg);
		perr_free(&e);
		config_free(&c);
		return 1;
	}
	r = report(&e, 0);
	trust_explain(file, &c, home, user_file);
	config_free(&c);
	return r;
}

/* .sandmux/sandbox.json, then .cursor/sandbox.json */
static const char *repo_file(size_t i)
{
	return sm_repo_files[SM_REPO_NFILES - 1 - i];
}

/* FILE must name DIR/.sandmux/sandbox.json or DIR/.cursor/sandbox.json:
 * DIR is resolved as the person named it, the rest never is (a link
 * there is refused when the file is read). */
static int trust_split(const char *arg, char ws[PATH_MAX], const char **rel)
{
	size_t n = strlen(arg);
	for (size_t i = 0; i < 2; i++) {
		size_t k = strlen(repo_file(i));
		if (n < k || strcmp(arg + n - k, repo_file(i)) != 0 || (n > k && arg[n - k - 1] != '/'))
			continue;
		char dir[PATH_MAX];
		snprintf(dir, sizeof dir, "%.*s", n > k ? (int)(n - k) : 1, n > k ? arg : ".");
		*rel = repo_file(i);
		return realpath(dir, ws) != NULL ? 0 : -1;
	}
	return -1;
}

int cmd_trust(int argc, char **argv)
{
	struct policy_args a = { 0 };
	const char *home, *rel;
	char ws[PATH_MAX];
	bool found = false, one;
	int r = args_parse(argc, argv, 1, &a);
	if (r)
		return r;
	if (a.npos > 1)
		return usage();
	if ((home = home_need("trust")) == NULL)
		return 2;
	if (a.npos == 1) {
		if (trust_split(a.pos[0], ws, &rel) < 0) {
			fprintf(stderr,
				"sandmux: %s: not a per-repo policy file (want DIR/.sandmux/sandbox.json or "
				"DIR/.cursor/sandbox.json in an existing DIR)\n",
				a.pos[0]);
			return 2;
		}
		r = trust_one(ws, rel, home, a.config, &one);
		if (!one)
			fprintf(stderr, "%s: no such file\n", a.pos[0]);
		return one ? r : 2;
	}
	for (size_t i = 0; i < 2 && r == 0; i++) {
		r = trust_one(a.ws, repo_file(i), home, a.config, &one);
		found |= one;
	}
	if (!found && r == 0)
		fprintf(stderr, "sandmux: %s has no .sandmux/sandbox.json or .cursor/sandbox.json to trust\n", a.ws);
	return found || r ? r : 1;
}
