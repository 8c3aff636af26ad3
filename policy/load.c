/* load: policy_load() reads every layer of DESIGN.md "Sources" in order
 * (per-user, per-repo with trust, admin), merges them and resolves the
 * profile into a struct policy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "policy/agents.h"
#include "policy/config.h"
#include "policy/ignore.h"
#include "policy/paths.h"
#include "policy/profile.h"
#include "policy/trust.h"

#define ADMIN_FILE "/etc/sandmux/policy.json"

/* Loads one file and merges it; 0 also when absent. */
static int load_layer(struct config *cfg, const char *file, enum layer layer, const char *home, struct perr *err)
{
	struct config one = { 0 };
	int r = config_load(&one, file, layer, home, err);
	if (r > 0)
		config_merge(cfg, &one, err);
	config_free(&one);
	return r < 0 ? -1 : 0;
}

/* A per-repo file: its widening parts apply only once trusted. Read once:
 * the bytes parsed are the bytes whose hash is checked. */
static int load_repo_file(struct config *cfg, const char *ws, const char *rel, const char *home, struct perr *err)
{
	char *text, ignored[512], file[4096];
	size_t len;
	struct config one = { 0 };
	snprintf(file, sizeof file, "%s/%s", ws, rel);
	int r = config_read_repo_file(ws, rel, &text, &len, err);
	if (r <= 0)
		return r;
	r = config_parse(&one, file, text, len, LAYER_REPO, home, err);
	if (r == 0 && !trust_check(home, file, text, len)) {
		config_drop_widening(&one, cfg, ignored, sizeof ignored);
		if (ignored[0])
			perr_warn(err,
				  "%s is not trusted; ignored what it widens: %s (run `sandmux trust` to apply it)",
				  file, ignored);
	}
	if (r == 0)
		config_merge(cfg, &one, err);
	config_free(&one);
	free(text);
	return r;
}

/* The admin file counts only when root owns it and only root can write it. */
static bool admin_acceptable(const char *file, const struct policy_opts *opts, struct perr *err)
{
	struct stat st;
	if (stat(file, &st) < 0)
		return false;
	if (opts->admin_ownership_unchecked || (st.st_uid == 0 && !(st.st_mode & 022)))
		return true;
	perr_warn(err, "%s ignored: it must be owned by root and not writable by group or others", file);
	return false;
}

static int load_layers(struct config *cfg, const struct policy_opts *o, struct perr *err)
{
	char f[4096];
	const char *admin = o->admin_file ? o->admin_file : ADMIN_FILE;
	if (o->user_file) {
		struct stat st;
		if (stat(o->user_file, &st) < 0) {
			perr_set(err, o->user_file, 0, 0, NULL, "cannot read the --config file");
			return -1;
		}
		if (load_layer(cfg, o->user_file, LAYER_USER, o->home, err) < 0)
			return -1;
	} else {
		const enum sm_path user[] = { SM_PATH_CURSOR_POLICY, SM_PATH_USER_POLICY };
		for (size_t i = 0; i < 2; i++)
			if (sm_path(o->home, user[i], f, sizeof f) == 0 &&
			    load_layer(cfg, f, LAYER_USER, o->home, err) < 0)
				return -1;
	}
	for (size_t i = 0; i < SM_REPO_NFILES; i++)
		if (load_repo_file(cfg, o->workspace, sm_repo_files[i], o->home, err) < 0)
			return -1;
	if (admin_acceptable(admin, o, err) && load_layer(cfg, admin, LAYER_ADMIN, o->home, err) < 0)
		return -1;
	return 0;
}

/* Symlinks resolved when the path exists: decisions are on the paths the
 * kernel sees. */
static char *canonical(const char *path)
{
	char *r = realpath(path, NULL);
	return r ? r : path_normalize(path);
}

/* Every rule vector down to its length: a server keeps a policy per pane. */
static void policy_shrink(struct policy *p)
{
	struct rules *r[] = { &p->read,     &p->write,          &p->readonly,         &p->deny,
			      &p->protect,  &p->protect_except, &p->ignore,           &p->net.allow,
			      &p->net.deny, &p->env.exclude,    &p->env.include_only, &p->env.set };
	for (size_t i = 0; i < sizeof r / sizeof *r; i++)
		rules_shrink(r[i]);
	agents_shrink(p->agents);
}

int policy_load(const struct policy_opts *opts, struct policy **out, struct perr *err)
{
	*out = NULL;
	if (!opts->home || opts->home[0] != '/' || !opts->workspace || opts->workspace[0] != '/') {
		perr_set(err, NULL, 0, 0, opts->home && opts->home[0] == '/' ? "workspace" : "HOME",
			 "must be an absolute path");
		return -1;
	}
	struct config *cfg = calloc(1, sizeof *cfg);
	struct policy *p = calloc(1, sizeof *p);
	if (!cfg || !p)
		abort();
	p->config = cfg;
	p->home = canonical(opts->home);
	p->workspace = canonical(opts->workspace);
	struct policy_opts o = *opts;
	o.home = p->home;
	o.workspace = p->workspace;
	if (load_layers(cfg, &o, err) < 0 || profile_resolve(p, cfg, &o, err) < 0 ||
	    (p->sandboxed && ignore_load(p, cfg, err) < 0)) {
		policy_free(p);
		return -1;
	}
	policy_shrink(p);
	*out = p;
	return 0;
}

static void env_policy_free(struct env_policy *e)
{
	rules_free(&e->exclude);
	rules_free(&e->include_only);
	rules_free(&e->set);
}

void policy_free(struct policy *p)
{
	if (!p)
		return;
	free(p->profile);
	free(p->base);
	free(p->workspace);
	free(p->home);
	free(p->tmpdir);
	struct rules *lists[] = { &p->read,    &p->write,          &p->readonly,  &p->deny,    &p->ignore,
				  &p->protect, &p->protect_except, &p->net.allow, &p->net.deny };
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
		rules_free(lists[i]);
	env_policy_free(&p->env);
	if (p->agents != NULL)
		agents_free(p->agents);
	free(p->agents);
	config_free(p->config);
	free(p->config);
	free(p);
}
