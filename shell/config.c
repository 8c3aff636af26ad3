/* config: ~/.sandmux/sandmux.json, the multiplexer's own settings:
 *   {"prefix": "C-a", "scrollback": 5000, "status": true, "clipboard": false, "mouse": false,
 *    "net_hold": 30, "bind": {"v": "split-h", "-": "split-v"},
 *    "limits": {"pids": 4096, "memory": 8192, "tmp": 1024}, "denials": "observer"}
 * read with policy/json.h so that errors name FILE:LINE:COL and the field,
 * the same format as the policy files. A missing file is not an error. */
#include "shell/mux.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "policy/config.h"
#include "policy/json.h"
#include "policy/readfile.h"

void mux_config_defaults(struct mux_config *cfg)
{
	*cfg = (struct mux_config){ .scrollback = 2000,
				    .status = true,
				    .net_hold = 30,
				    .quiet_after = 5,
				    .limits = { MUX_LIMIT_PIDS, MUX_LIMIT_MEMORY_MIB, MUX_LIMIT_TMP_MIB } };
	keys_parse("C-b", &cfg->prefix);
}

static int bad(const char *path, const struct json *v, char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s:%d:%d: %s: %s", path, v->line, v->col, v->key != NULL ? v->key : "(top level)", what);
	return -1;
}

/* "bind": {"v": "split-h", "C-x": "kill-pane"}: keys after the prefix. */
static int config_binds(struct mux_config *cfg, const char *path, const struct json *obj,
			bool (*bindable)(const char *), char *err, size_t errlen)
{
	if (obj->type != JSON_OBJECT)
		return bad(path, obj, err, errlen,
			   "want an object of \"KEY\": \"COMMAND\" (see prefix ? for the commands)");
	const struct json *b;
	json_each(b, obj)
	{
		struct mux_bind *mb = &cfg->binds[cfg->nbinds];
		if (cfg->nbinds == MUX_MAX_BINDS)
			return bad(path, b, err, errlen, "too many bindings");
		if (!keys_parse(b->key, &mb->key))
			return bad(path, b, err, errlen, "not a key name (such as \"v\", \"C-x\", \"M-Up\", \"F5\")");
		if (b->type != JSON_STRING || (bindable != NULL && !bindable(b->str)) ||
		    strlen(b->str) >= sizeof mb->cmd)
			return bad(path, b, err, errlen, "not a command (prefix ? lists them)");
		snprintf(mb->cmd, sizeof mb->cmd, "%s", b->str);
		cfg->nbinds++;
	}
	return 0;
}

/* "alert_command": ["notify-send", "sandmux"]: the alert's text is added. */
static int config_alert_command(struct mux_config *cfg, const char *path, const struct json *arr, char *err,
				size_t errlen)
{
	const struct json *e;
	if (arr->type != JSON_ARRAY || arr->child == NULL)
		return bad(path, arr, err, errlen, "want an array of strings: the program and its first arguments");
	cfg->alert_argc = 0;
	json_each(e, arr)
	{
		const char *why =
			e->type != JSON_STRING || strlen(e->str) >= sizeof cfg->alert_argv[0] || e->str[0] == 0
				? "want a non-empty string shorter than 256 bytes"
			: cfg->alert_argc == MUX_ALERT_ARGS ? "at most 8 words"
							    : NULL;
		if (why != NULL) {
			snprintf(err, errlen, "%s:%d:%d: alert_command[%zu]: %s", path, e->line, e->col, e->index, why);
			return -1;
		}
		snprintf(cfg->alert_argv[cfg->alert_argc++], sizeof cfg->alert_argv[0], "%s", e->str);
	}
	return 0;
}

/* "limits": {"pids": N, "memory": MiB, "tmp": MiB}; 0: none. */
static int config_limits(struct mux_config *cfg, const char *path, const struct json *obj, char *err, size_t errlen)
{
	if (obj->type != JSON_OBJECT)
		return bad(path, obj, err, errlen,
			   "want an object such as {\"pids\": 4096, \"memory\": 8192, \"tmp\": 1024}");
	const struct json *v;
	json_each(v, obj)
	{
		long *to = strcmp(v->key, "pids") == 0     ? &cfg->limits.pids
			   : strcmp(v->key, "memory") == 0 ? &cfg->limits.memory_mib
			   : strcmp(v->key, "tmp") == 0    ? &cfg->limits.tmp_mib
							   : NULL;
		if (to == NULL)
			return bad(path, v, err, errlen, "unknown limit (known: pids, memory, tmp)");
		if (v->type != JSON_NUMBER || v->number < 0 || v->number > 1e9 || v->number != (long)v->number)
			return bad(path, v, err, errlen, "want a whole number from 0 (no limit) to 1000000000");
		*to = (long)v->number;
	}
	return 0;
}

/* bindable: whether a "bind" may name that command (the command table,
 * given by the caller so that this file needs none of it); NULL: any. */
static int config_member(struct mux_config *cfg, const char *path, const struct json *v, bool (*bindable)(const char *),
			 char *err, size_t errlen)
{
	if (strcmp(v->key, "prefix") == 0) {
		if (v->type != JSON_STRING || !keys_parse(v->str, &cfg->prefix))
			return bad(path, v, err, errlen, "want a key name such as \"C-b\", \"C-a\" or \"M-Space\"");
	} else if (strcmp(v->key, "scrollback") == 0) {
		if (v->type != JSON_NUMBER || v->number < 0 || v->number > 1000000 || v->number != (int)v->number)
			return bad(path, v, err, errlen, "want a whole number of lines from 0 to 1000000");
		cfg->scrollback = (int)v->number;
	} else if (strcmp(v->key, "net_hold") == 0) {
		if (v->type != JSON_NUMBER || v->number < 0 || v->number > 3600 || v->number != (int)v->number)
			return bad(path, v, err, errlen, "want a whole number of seconds from 0 to 3600");
		cfg->net_hold = (int)v->number;
	} else if (strcmp(v->key, "status") == 0 || strcmp(v->key, "clipboard") == 0 || strcmp(v->key, "mouse") == 0) {
		if (v->type != JSON_BOOL)
			return bad(path, v, err, errlen, "want true or false");
		*(strcmp(v->key, "status") == 0  ? &cfg->status
		  : strcmp(v->key, "mouse") == 0 ? &cfg->mouse
						 : &cfg->clipboard_write) = v->boolean;
	} else if (strcmp(v->key, "bind") == 0) {
		return config_binds(cfg, path, v, bindable, err, errlen);
	} else if (strcmp(v->key, "quiet_after") == 0) {
		if (v->type != JSON_NUMBER || v->number < 0 || v->number > 3600 || v->number != (int)v->number)
			return bad(path, v, err, errlen, "want a whole number of seconds from 0 (never) to 3600");
		cfg->quiet_after = (int)v->number;
	} else if (strcmp(v->key, "alert_terminal") == 0) {
		static const char *const names[] = { "off", "osc9", "osc777" };
		size_t i = 0;
		while (v->type == JSON_STRING && i < 3 && strcmp(v->str, names[i]) != 0)
			i++;
		if (v->type != JSON_STRING || i == 3)
			return bad(path, v, err, errlen, "want \"off\", \"osc9\" or \"osc777\"");
		cfg->alert_terminal = (int)i;
	} else if (strcmp(v->key, "alert_command") == 0) {
		return config_alert_command(cfg, path, v, err, errlen);
	} else if (strcmp(v->key, "limits") == 0) {
		return config_limits(cfg, path, v, err, errlen);
	} else if (strcmp(v->key, "denials") == 0) {
		/* "audit": Landlock's records report the writes (backends/run.h's
		 * opts.audit), at the cost said there */
		if (v->type != JSON_STRING || (strcmp(v->str, "observer") != 0 && strcmp(v->str, "audit") != 0))
			return bad(path, v, err, errlen, "want \"observer\" (the default) or \"audit\"");
		cfg->denials_audit = strcmp(v->str, "audit") == 0;
	} else {
		return bad(path, v, err, errlen,
			   "unknown setting (known: prefix, scrollback, status, clipboard, mouse, net_hold, bind, "
			   "quiet_after, alert_terminal, alert_command, limits, denials)");
	}
	return 0;
}

static char *read_file(const char *path, size_t *len, char *err, size_t errlen)
{
	char *text = NULL, why[512];
	if (readfile(NULL, path, 0, CONFIG_MAX_BYTES, &text, len, why, sizeof why) < 0)
		snprintf(err, errlen, "%s: %s", path, why);
	return text;
}

int mux_config_load_checked(struct mux_config *cfg, const char *path, bool (*bindable)(const char *), char *err,
			    size_t errlen)
{
	mux_config_defaults(cfg);
	err[0] = 0;
	size_t len = 0;
	char *text = read_file(path, &len, err, errlen);
	if (text == NULL)
		return err[0] ? -1 : 0;
	struct json_error je = { 0 };
	struct json *root = json_parse(text, len, &je);
	free(text);
	if (root == NULL) {
		snprintf(err, errlen, "%s:%d:%d: %s: %s", path, je.line, je.col, je.path[0] ? je.path : "(top level)",
			 je.msg);
		return -1;
	}
	int r = 0;
	if (root->type != JSON_OBJECT) {
		r = bad(path, root, err, errlen, "want an object");
	} else {
		const struct json *v;
		json_each(v, root)
		{
			if ((r = config_member(cfg, path, v, bindable, err, errlen)) < 0)
				break;
		}
	}
	json_free(root);
	if (r < 0)
		mux_config_defaults(cfg);
	return r;
}

int mux_config_load(struct mux_config *cfg, const char *path, char *err, size_t errlen)
{
	return mux_config_load_checked(cfg, path, NULL, err, errlen);
}
