/* suggest: a candidate broadening, then the proof that it is enough: the
 * policy is asked again with the candidate added, and only a candidate
 * that turns the decision into "allow" is offered. That one step keeps
 * protected paths, deny globs, sandmux's own files and always-blocked
 * addresses out of every suggestion, whatever rule denied. */
#include "policy/suggest.h"

#include "policy/agents.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Decides with one more entry in a list of the policy; the policy itself
 * is left as it was (a shallow copy with a longer array). */
static bool allowed_with(const struct policy *p, struct rules *(*list)(struct policy *), const char *entry,
			 const char *path, enum fs_op op, const char *host)
{
	struct policy q = *p;
	struct rules *r = list(&q);
	struct rule *v = malloc((r->n + 1) * sizeof *v);
	if (v == NULL)
		return false;
	if (r->n > 0)
		memcpy(v, r->v, r->n * sizeof *v);
	v[r->n] = (struct rule){ .text = (char *)entry, .origin = { .file = NULL, .layer = LAYER_USER } };
	*r = (struct rules){ .v = v, .n = r->n + 1, .cap = r->n + 1 };
	struct decision d = host ? policy_decide_host(&q, host, NULL, 0) : policy_decide_path(&q, path, op);
	/* a rename or link the observer refused for what it could carry
	 * (policy_decide_carry) stays refused, whatever list grows */
	if (d.allow && !host && (op == OP_RENAME || op == OP_CREATE))
		d = policy_decide_carry(&q, path);
	free(v);
	return d.allow;
}

static struct rules *write_list(struct policy *p)
{
	return &p->write;
}

static struct rules *read_list(struct policy *p)
{
	return &p->read;
}

static struct rules *net_list(struct policy *p)
{
	return &p->net.allow;
}

static bool fill(struct suggestion *out, enum suggest_kind kind, const char *value)
{
	out->kind = kind;
	snprintf(out->value, sizeof out->value, "%s", value);
	return true;
}

/* Directories whose whole grant would open too much: /, $HOME, and any
 * holding a shell's startup files (a sandbox writing ~/.bashrc runs
 * outside it at the next login). */
static const char *const startup[] = { ".bashrc",   ".bash_profile", ".bash_login",  ".profile", ".zshrc", ".zshenv",
				       ".zprofile", ".zlogin",       ".bash_logout", ".zlogout", ".login", ".cshrc" };

/* A shell startup file itself is never offered either. */
static bool is_startup(const char *path)
{
	const char *base = strrchr(path, '/') + 1;
	for (size_t i = 0; i < sizeof startup / sizeof startup[0]; i++)
		if (strcmp(base, startup[i]) == 0)
			return true;
	return false;
}

static bool too_wide(const struct policy *p, const char *dir)
{
	char f[4200];
	if (dir[0] == '\0' || strcmp(dir, "/") == 0 || (p->home != NULL && strcmp(dir, p->home) == 0))
		return true;
	for (size_t i = 0; i < sizeof startup / sizeof startup[0]; i++)
		if (snprintf(f, sizeof f, "%s/%s", dir, startup[i]) < (int)sizeof f && access(f, F_OK) == 0)
			return true;
	return false;
}

bool suggest_path(const struct policy *p, const char *path, enum fs_op op, struct suggestion *out)
{
	return suggest_path_kind(p, path, op, 0, out);
}

bool suggest_path_kind(const struct policy *p, const char *path, enum fs_op op, char kind, struct suggestion *out)
{
	out->kind = SUGGEST_NONE;
	out->value[0] = '\0';
	out->create = 0;
	out->mode = 0;
	if (path == NULL || path[0] != '/' || strlen(path) >= sizeof out->value || agents_quiet_path(p, path))
		return false; /* quiet: recorded and counted, never a prompt */
	if (op == OP_READ || op == OP_EXEC) {
		/* Reads: the path itself; the profile chose to list them. */
		if (allowed_with(p, read_list, path, path, op, NULL))
			return fill(out, SUGGEST_RO, path);
		return false;
	}
	/* A write or a create: exactly the path (made at approval when it is
	 * new, so that a rule can name it). */
	if ((op == OP_WRITE || op == OP_CREATE) && kind != 'l') {
		if (is_startup(path) || !allowed_with(p, write_list, path, path, op, NULL))
			return false;
		out->create = op == OP_CREATE ? (kind == 'd' ? 'd' : 'f') : 0;
		return fill(out, SUGGEST_RW, path);
	}
	/* A remove, rename or link: the rights are the directory's. */
	char dir[sizeof out->value];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	*slash = '\0';
	if (too_wide(p, slash == dir ? "/" : dir))
		return false;
	if (allowed_with(p, write_list, dir, path, op, NULL))
		return fill(out, SUGGEST_RW, dir);
	return false;
}

void suggest_apply(struct policy *p, const struct suggestion *s)
{
	static const struct origin approval = { .file = "(approved in this session)", .layer = LAYER_USER };
	if (s->kind == SUGGEST_NONE)
		return;
	struct rules *r = s->kind == SUGGEST_RW ? &p->write : s->kind == SUGGEST_RO ? &p->read : &p->net.allow;
	if (!rules_has(r, s->value))
		rules_add(r, s->value, approval);
}

void suggest_target_host(const char *target, char *host, size_t size)
{
	if (target[0] == '[') {
		size_t len = strcspn(target + 1, "]");
		snprintf(host, size, "%.*s", (int)len, target + 1);
		return;
	}
	const char *colon = strchr(target, ':');
	if (colon != NULL && strchr(colon + 1, ':') == NULL)
		snprintf(host, size, "%.*s", (int)(colon - target), target);
	else
		snprintf(host, size, "%s", target);
}

bool suggest_host(const struct policy *p, const char *target, struct suggestion *out)
{
	char host[256], cidr[272];
	out->kind = SUGGEST_NONE;
	out->value[0] = '\0';
	if (target == NULL)
		return false;
	suggest_target_host(target, host, sizeof host);
	if (host[0] == '\0' || agents_quiet_host(p, host))
		return false;
	if (allowed_with(p, net_list, host, NULL, OP_READ, host))
		return fill(out, SUGGEST_NET, host);
	/* An address literal may need the CIDR form of the allow list. */
	snprintf(cidr, sizeof cidr, "%s/%d", host, strchr(host, ':') ? 128 : 32);
	if (strspn(host, "0123456789.:abcdefABCDEF") == strlen(host) &&
	    allowed_with(p, net_list, cidr, NULL, OP_READ, host))
		return fill(out, SUGGEST_NET, cidr);
	return false;
}

/* The value as a JSON string (quotes and backslashes escaped). */
static size_t quoted(const char *v, char *buf, size_t size)
{
	size_t n = 0;
	for (; *v && n + 3 < size; v++) {
		if (*v == '"' || *v == '\\')
			buf[n++] = '\\';
		buf[n++] = *v;
	}
	buf[n] = '\0';
	return n;
}

size_t suggest_format(const struct suggestion *s, char *buf, size_t size)
{
	char v[sizeof s->value * 2];
	if (s->kind == SUGGEST_NONE || size == 0)
		return 0;
	quoted(s->value, v, sizeof v);
	const char *key = suggest_key(s->kind), *dot = strchr(key, '.');
	int n;
	if (dot != NULL)
		n = snprintf(buf, size, "\"%.*s\": {\"%s\": [\"%s\"]}", (int)(dot - key), key, dot + 1, v);
	else
		n = snprintf(buf, size, "\"%s\": [\"%s\"]", key, v);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

const char *suggest_key(enum suggest_kind kind)
{
	switch (kind) {
	case SUGGEST_RW:
		return SUGGEST_KEY_RW;
	case SUGGEST_RO:
		return SUGGEST_KEY_RO;
	case SUGGEST_NET:
		return SUGGEST_KEY_NET;
	case SUGGEST_NONE:
		break;
	}
	return NULL;
}
