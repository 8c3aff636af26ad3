/* policy-show: renders a struct policy for people and for programs. */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "policy/agents.h"
#include "policy/config.h"
#include "policy/net.h"
#include "shell/policy-show.h"

static const char *const net_modes[] = { "none", "proxy", "host" };
static const char *const inherits[] = { "all", "core", "none" };

const char *policy_show_origin(struct origin o, char *buf, size_t size)
{
	if (o.file && o.line)
		snprintf(buf, size, "%s:%d:%d (%s)", o.file, o.line, o.col, layer_name(o.layer));
	else if (o.file)
		snprintf(buf, size, "%s", o.file);
	else
		snprintf(buf, size, "%s", layer_name(o.layer));
	return buf;
}

static void text_rules(FILE *f, const char *title, const struct rules *r)
{
	char where[1200];
	if (!r->n)
		return;
	fprintf(f, "%s:\n", title);
	for (size_t i = 0; i < r->n; i++) {
		const char *why = r->v[i].label ? r->v[i].label : "";
		fprintf(f, "  %-40s %s%s[%s]\n", r->v[i].text, why, *why ? "  " : "",
			policy_show_origin(r->v[i].origin, where, sizeof where));
	}
}

static void text_files(const struct policy *p, FILE *f)
{
	const struct config *c = p->config;
	fprintf(f, "files read:\n");
	if (!c || !c->nfiles)
		fprintf(f, "  (none: built-in defaults)\n");
	for (size_t i = 0; c && i < c->nfiles; i++)
		fprintf(f, "  %s (%s)\n", c->files[i], layer_name(c->file_layers[i]));
}

static void text_words(FILE *f, const char *title, const struct rules *r)
{
	if (r->n == 0)
		return;
	fprintf(f, "    %s:", title);
	for (size_t i = 0; i < r->n; i++)
		fprintf(f, " %s", r->v[i].text);
	fprintf(f, "\n");
}

/* The presets in force, each with where it was last changed. */
static void text_agents(const struct policy *p, FILE *f)
{
	char where[1200];
	const struct policy_agents *a = p->agents;
	if (a == NULL || a->n == 0)
		return;
	fprintf(f, "agents (%s):\n",
		a->state != NULL ? a->state : "not applied: only profiles built on workspace use them");
	for (size_t i = 0; i < a->n; i++) {
		const struct policy_agent *ag = &a->v[i];
		fprintf(f, "  %-14s %s%s  [%s]\n", ag->name, ag->enabled ? "on" : "off (enabled: false)",
			!ag->enabled || a->state == NULL ? ""
			: ag->present                    ? ", found here: state shadowed"
							 : ", not found here (no program in PATH, no state)",
			policy_show_origin(ag->origin, where, sizeof where));
		text_words(f, "state", &ag->paths);
		text_words(f, "API hosts", &ag->hosts);
		text_words(f, "telemetry (refused)", &ag->telemetry);
		text_words(f, "resume", &ag->resume);
		text_words(f, "env", &ag->env);
		text_words(f, "refused quietly", &ag->quiet);
	}
	text_rules(f, "agent state shadows", &a->shadow);
	text_rules(f, "quiet (denials that never prompt)", &a->quiet);
	text_rules(f, "quiet hosts", &a->quiet_hosts);
}

void policy_show_text(const struct policy *p, FILE *f)
{
	char where[1200];
	fprintf(f, "profile: %s (built-in base: %s)  [%s]\n", p->profile, p->base,
		policy_show_origin(p->profile_origin, where, sizeof where));
	fprintf(f, "workspace: %s\n", p->workspace);
	fprintf(f, "sandboxed: %s\n", p->sandboxed ? "yes" : "no");
	if (!p->sandboxed) {
		text_files(p, f);
		return;
	}
	fprintf(f, "reads: %s\n",
		p->read_all ? "everywhere (except deny)" : "only the paths below and the writable ones");
	if (!p->read_all)
		text_rules(f, "readable", &p->read);
	text_rules(f, "writable", &p->write);
	text_rules(f, "never writable", &p->readonly);
	text_rules(f, "denied (no read, write or rename)", &p->deny);
	text_rules(f, "ignored by .cursorignore/.sandmuxignore (like denied; paths from the workspace root)",
		   &p->ignore);
	text_rules(f, "write-protected", &p->protect);
	text_rules(f, "writable exceptions", &p->protect_except);
	fprintf(f, "temp dir: %s\n", p->tmp_writable ? "writable" : "read-only (disableTmpWrite)");
	fprintf(f, "shared build cache: %s\n", p->shared_cache ? "on" : "off");
	fprintf(f, "without user namespaces: %s\n",
		p->allow_weaker ? "the weaker sandbox (allowWeakerSandbox)" : "refuse");
	fprintf(f, "ptrace: %s\n", p->allow_ptrace ? "allowed" : "denied");
	fprintf(f, "network: %s\n", net_modes[p->net.mode]);
	if (p->net.mode == NET_PROXY)
		fprintf(f, "  default: %s  [%s]\n", p->net.default_allow ? "allow" : "deny",
			policy_show_origin(p->net.default_origin, where, sizeof where));
	text_rules(f, "network allow", &p->net.allow);
	text_rules(f, "network deny", &p->net.deny);
	if (p->net.mode == NET_PROXY) {
		fprintf(f, "always blocked, also when a name resolves there:\n");
		for (size_t i = 0; net_block_rule(i); i++)
			fprintf(f, "  %s\n", net_block_rule(i));
	}
	fprintf(f, "environment: inherit %s, default excludes (*KEY* *SECRET* *TOKEN*) %s\n", inherits[p->env.inherit],
		p->env.ignore_default_excludes ? "off" : "on");
	text_rules(f, "env exclude", &p->env.exclude);
	text_rules(f, "env include_only", &p->env.include_only);
	text_rules(f, "env set", &p->env.set);
	text_agents(p, f);
	text_files(p, f);
}

static cJSON *json_origin(struct origin o)
{
	cJSON *j = cJSON_CreateObject();
	if (o.file)
		cJSON_AddStringToObject(j, "file", o.file);
	else
		cJSON_AddNullToObject(j, "file");
	cJSON_AddStringToObject(j, "layer", layer_name(o.layer));
	cJSON_AddNumberToObject(j, "line", o.line);
	cJSON_AddNumberToObject(j, "col", o.col);
	return j;
}

static cJSON *json_rules(const struct rules *r)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < r->n; i++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "value", r->v[i].text);
		if (r->v[i].label)
			cJSON_AddStringToObject(e, "rule", r->v[i].label);
		cJSON_AddItemToObject(e, "origin", json_origin(r->v[i].origin));
		cJSON_AddItemToArray(a, e);
	}
	return a;
}

static cJSON *json_net(const struct policy *p)
{
	cJSON *n = cJSON_CreateObject();
	cJSON_AddStringToObject(n, "mode", net_modes[p->net.mode]);
	cJSON_AddStringToObject(n, "default", p->net.default_allow ? "allow" : "deny");
	cJSON_AddItemToObject(n, "default_origin", json_origin(p->net.default_origin));
	cJSON_AddBoolToObject(n, "strict", p->net.strict);
	cJSON_AddItemToObject(n, "allow", json_rules(&p->net.allow));
	cJSON_AddItemToObject(n, "deny", json_rules(&p->net.deny));
	return n;
}

static cJSON *json_env(const struct policy *p)
{
	cJSON *e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "inherit", inherits[p->env.inherit]);
	cJSON_AddBoolToObject(e, "ignore_default_excludes", p->env.ignore_default_excludes);
	cJSON_AddItemToObject(e, "exclude", json_rules(&p->env.exclude));
	cJSON_AddItemToObject(e, "include_only", json_rules(&p->env.include_only));
	cJSON_AddItemToObject(e, "set", json_rules(&p->env.set));
	return e;
}

static cJSON *json_words(const struct rules *r)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < r->n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(r->v[i].text));
	return a;
}

static cJSON *json_agents(const struct policy *p)
{
	cJSON *o = cJSON_CreateObject();
	const struct policy_agents *a = p->agents;
	if (a == NULL)
		return o;
	if (a->state != NULL)
		cJSON_AddStringToObject(o, "state", a->state);
	cJSON *list = cJSON_AddArrayToObject(o, "presets");
	for (size_t i = 0; i < a->n; i++) {
		const struct policy_agent *ag = &a->v[i];
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "name", ag->name);
		cJSON_AddBoolToObject(e, "enabled", ag->enabled);
		cJSON_AddBoolToObject(e, "present", ag->present);
		cJSON_AddItemToObject(e, "paths", json_words(&ag->paths));
		cJSON_AddItemToObject(e, "hosts", json_words(&ag->hosts));
		cJSON_AddItemToObject(e, "telemetry", json_words(&ag->telemetry));
		cJSON_AddItemToObject(e, "resume", json_words(&ag->resume));
		cJSON_AddItemToObject(e, "env", json_words(&ag->env));
		cJSON_AddItemToObject(e, "origin", json_origin(ag->origin));
		cJSON_AddItemToArray(list, e);
	}
	cJSON_AddItemToObject(o, "shadows", json_rules(&a->shadow));
	cJSON_AddItemToObject(o, "quiet", json_rules(&a->quiet));
	cJSON_AddItemToObject(o, "quiet_hosts", json_rules(&a->quiet_hosts));
	return o;
}

static cJSON *json_files(const struct policy *p)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; p->config && i < p->config->nfiles; i++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "file", p->config->files[i]);
		cJSON_AddStringToObject(e, "layer", layer_name(p->config->file_layers[i]));
		cJSON_AddItemToArray(a, e);
	}
	return a;
}

int policy_show_json(const struct policy *p, FILE *f)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "profile", p->profile);
	cJSON_AddStringToObject(j, "base", p->base);
	cJSON_AddItemToObject(j, "profile_origin", json_origin(p->profile_origin));
	cJSON_AddStringToObject(j, "workspace", p->workspace);
	cJSON_AddStringToObject(j, "home", p->home);
	cJSON_AddBoolToObject(j, "sandboxed", p->sandboxed);
	cJSON_AddBoolToObject(j, "read_all", p->read_all);
	cJSON_AddItemToObject(j, "read", json_rules(&p->read));
	cJSON_AddItemToObject(j, "write", json_rules(&p->write));
	cJSON_AddItemToObject(j, "readonly", json_rules(&p->readonly));
	cJSON_AddItemToObject(j, "deny", json_rules(&p->deny));
	cJSON_AddItemToObject(j, "ignore", json_rules(&p->ignore));
	cJSON_AddItemToObject(j, "protect", json_rules(&p->protect));
	cJSON_AddItemToObject(j, "protect_except", json_rules(&p->protect_except));
	cJSON_AddBoolToObject(j, "tmp_writable", p->tmp_writable);
	cJSON_AddBoolToObject(j, "shared_cache", p->shared_cache);
	cJSON_AddBoolToObject(j, "allow_weaker", p->allow_weaker);
	cJSON_AddBoolToObject(j, "allow_ptrace", p->allow_ptrace);
	cJSON_AddItemToObject(j, "network", json_net(p));
	cJSON_AddItemToObject(j, "env", json_env(p));
	cJSON_AddItemToObject(j, "agents", json_agents(p));
	cJSON_AddItemToObject(j, "files", json_files(p));
	char *s = cJSON_Print(j);
	cJSON_Delete(j);
	if (!s)
		return -1;
	fprintf(f, "%s\n", s);
	free(s);
	return 0;
}
