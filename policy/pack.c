/* pack: see pack.h. The layout: "SMPK", the file names origins point at
 * (a count, then each once), then the fields in the order of
 * pack_fields(). A string is a u32 length (PACK_NONE: NULL) and its bytes
 * without NUL; an origin a u32 index into the files (PACK_NONE: none), a
 * layer byte, line and column; a list a u32 count and its rules (text,
 * label, origin). */
#include "policy/pack.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/agents.h"

#define PACK_MAGIC "SMPK"
#define PACK_NONE  UINT32_MAX
#define RULE_MIN   (4 + 4 + 4 + 1 + 4 + 4) /* the bytes of the smallest packed rule */

/* One pass over the fields, packing or unpacking: the same order both ways. */
struct pack {
	/* packing */
	struct buf *out;
	const char **files;
	size_t nfiles, cap;
	/* unpacking */
	const unsigned char *data;
	size_t len, at;
	char **names; /* the file table, owned by the policy */
	uint32_t nnames;
	char *err;
	size_t errlen;
	bool failed;
};

/* What an unpacked policy owns beside its strings and lists. */
struct unpacked {
	struct policy p; /* first: policy_unpack_free() gets the rest from it */
	struct policy_agents agents;
	char **files;
	uint32_t nfiles;
};

static void put(struct pack *k, const void *v, size_t n)
{
	if (!buf_add(k->out, v, n))
		k->failed = true;
}

static void put_u32(struct pack *k, uint32_t v)
{
	put(k, &v, sizeof v);
}

static void put_str(struct pack *k, const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;
	if (n >= PACK_NONE) {
		k->failed = true;
		return;
	}
	put_u32(k, s != NULL ? (uint32_t)n : PACK_NONE);
	put(k, s, n);
}

/* The index of file in the table being built. */
static uint32_t file_index(struct pack *k, const char *file)
{
	for (size_t i = 0; i < k->nfiles; i++)
		if (strcmp(k->files[i], file) == 0)
			return (uint32_t)i;
	if (k->nfiles == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 8;
		const char **v = realloc(k->files, cap * sizeof *v);
		if (v == NULL) {
			k->failed = true;
			return PACK_NONE;
		}
		k->files = v, k->cap = cap;
	}
	k->files[k->nfiles] = file;
	return (uint32_t)k->nfiles++;
}

static void put_origin(struct pack *k, const struct origin *o)
{
	uint8_t layer = (uint8_t)o->layer;
	int32_t pos[2] = { o->line, o->col };
	put_u32(k, o->file != NULL ? file_index(k, o->file) : PACK_NONE);
	put(k, &layer, 1);
	put(k, pos, sizeof pos);
}

static int fail(struct pack *k, const char *what)
{
	if (!k->failed)
		snprintf(k->err, k->errlen, "policy pack: byte %zu: %s", k->at, what);
	k->failed = true;
	return -1;
}

static int get(struct pack *k, void *v, size_t n)
{
	if (k->failed || k->len - k->at < n)
		return k->failed ? -1 : fail(k, "truncated");
	memcpy(v, k->data + k->at, n);
	k->at += n;
	return 0;
}

static uint32_t get_u32(struct pack *k)
{
	uint32_t v = 0;
	get(k, &v, sizeof v);
	return v;
}

/* A new NUL-terminated copy, or NULL (absent, or failed: k->failed). */
static char *get_str(struct pack *k)
{
	size_t at = k->at;
	uint32_t n = get_u32(k);
	if (k->failed || n == PACK_NONE)
		return NULL;
	if (k->len - k->at < n)
		return fail(k, "string longer than the rest"), NULL;
	if (memchr(k->data + k->at, '\0', n) != NULL) {
		k->at = at;
		return fail(k, "string holds a NUL"), NULL;
	}
	char *s = strndup((const char *)k->data + k->at, n);
	if (s == NULL)
		return fail(k, "out of memory"), NULL;
	k->at += n;
	return s;
}

static bool get_bool(struct pack *k)
{
	uint8_t b = 0;
	if (get(k, &b, 1) == 0 && b > 1)
		fail(k, "a flag that is neither 0 nor 1");
	return b == 1;
}

static void get_origin(struct pack *k, struct origin *o)
{
	uint32_t file = get_u32(k);
	uint8_t layer = 0;
	int32_t pos[2] = { 0, 0 };
	get(k, &layer, 1);
	get(k, pos, sizeof pos);
	if (file != PACK_NONE && file >= k->nnames)
		fail(k, "origin names a file past the table");
	if (layer > LAYER_HARDCODED)
		fail(k, "unknown layer");
	if (k->failed)
		return;
	*o = (struct origin){ file != PACK_NONE ? k->names[file] : NULL, (enum layer)layer, pos[0], pos[1] };
}

static void pack_str(struct pack *k, char **s)
{
	if (k->out != NULL)
		put_str(k, *s);
	else
		*s = get_str(k);
}

static void pack_bool(struct pack *k, bool *b)
{
	uint8_t v = *b;
	if (k->out != NULL)
		put(k, &v, 1);
	else
		*b = get_bool(k);
}

static void pack_origin(struct pack *k, struct origin *o)
{
	if (k->out != NULL)
		put_origin(k, o);
	else
		get_origin(k, o);
}

static void unpack_rules(struct pack *k, struct rules *r)
{
	uint32_t n = get_u32(k);
	if (k->failed || n == 0)
		return;
	if (n > (k->len - k->at) / RULE_MIN) {
		fail(k, "more rules than bytes left");
		return;
	}
	if ((r->v = calloc(n, sizeof *r->v)) == NULL) {
		fail(k, "out of memory");
		return;
	}
	r->cap = n;
	for (; r->n < n && !k->failed; r->n++) {
		struct rule *e = &r->v[r->n];
		size_t at = k->at;
		e->text = get_str(k);
		e->label = get_str(k);
		get_origin(k, &e->origin);
		if (e->text == NULL && !k->failed) {
			k->at = at;
			fail(k, "a rule without text");
		}
	}
}

static void pack_rules(struct pack *k, struct rules *r)
{
	if (k->out == NULL) {
		unpack_rules(k, r);
		return;
	}
	if (r->n >= PACK_NONE)
		k->failed = true;
	put_u32(k, (uint32_t)r->n);
	for (size_t i = 0; i < r->n && !k->failed; i++) {
		put_str(k, r->v[i].text);
		put_str(k, r->v[i].label);
		put_origin(k, &r->v[i].origin);
	}
}

/* The fields, both ways; a = where p->agents is (unpacking: to fill). */
/* A field added to either struct changes its size and stops the build
 * here: pack it below if the observer, suggest.c or hint.c may read it
 * (unpacked, it reads as zero in panes only), then update the size. */
_Static_assert(sizeof(struct policy) == 448, "struct policy changed: does pack_fields() need the new field?");
_Static_assert(sizeof(struct policy_agents) == 120,
	       "struct policy_agents changed: does pack_fields() need the new field?");

static void pack_fields(struct pack *k, struct policy *p, struct policy_agents *a)
{
	pack_str(k, &p->profile);
	pack_origin(k, &p->profile_origin);
	pack_str(k, &p->workspace);
	pack_str(k, &p->home);
	pack_str(k, &p->tmpdir);
	bool *flags[] = { &p->sandboxed,    &p->read_all, &p->tmp_writable, &p->shared_cache, &p->allow_weaker,
			  &p->allow_ptrace, &p->capture,  &p->denial_hints, &p->net.strict,   &p->net.default_allow };
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
		pack_bool(k, flags[i]);
	uint8_t mode = (uint8_t)p->net.mode;
	if (k->out != NULL)
		put(k, &mode, 1);
	else if (get(k, &mode, 1) == 0 && mode > NET_HOST)
		fail(k, "unknown network mode");
	p->net.mode = (enum net_mode)mode;
	pack_origin(k, &p->net.default_origin);
	struct rules *lists[] = { &p->read,    &p->write,          &p->readonly,  &p->deny,    &p->ignore,
				  &p->protect, &p->protect_except, &p->net.allow, &p->net.deny };
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
		pack_rules(k, lists[i]);
	bool agents = a != NULL;
	pack_bool(k, &agents);
	if (!agents || k->failed)
		return;
	if (k->out == NULL)
		p->agents = a;
	pack_str(k, &a->state);
	pack_rules(k, &a->shadow);
	pack_rules(k, &a->quiet);
	pack_rules(k, &a->quiet_hosts);
}

bool policy_pack(const struct policy *p, struct buf *out)
{
	struct buf body = { 0 };
	struct pack k = { .out = &body };
	/* the fields are only read: pack_fields() is shared with unpacking */
	pack_fields(&k, (struct policy *)p, p->agents);
	struct pack head = { .out = out };
	put(&head, PACK_MAGIC, 4);
	put_u32(&head, (uint32_t)k.nfiles);
	for (size_t i = 0; i < k.nfiles; i++)
		put_str(&head, k.files[i]);
	put(&head, buf_data(&body), body.len);
	free(k.files);
	buf_free(&body);
	return !k.failed && !head.failed;
}

struct policy *policy_unpack(const void *data, size_t len, char *err, size_t errlen)
{
	struct unpacked *u = calloc(1, sizeof *u);
	struct pack k = { .data = data, .len = len, .err = err, .errlen = errlen };
	char magic[4];
	if (u == NULL) {
		snprintf(err, errlen, "policy pack: out of memory");
		return NULL;
	}
	if (get(&k, magic, 4) == 0 && memcmp(magic, PACK_MAGIC, 4) != 0) {
		k.at = 0;
		fail(&k, "not a packed policy");
	}
	uint32_t n = get_u32(&k);
	if (!k.failed && n > (len - k.at) / 4)
		fail(&k, "more file names than bytes left");
	if (!k.failed && n > 0 && (u->files = calloc(n, sizeof *u->files)) == NULL)
		fail(&k, "out of memory");
	for (; !k.failed && u->nfiles < n; u->nfiles++)
		if ((u->files[u->nfiles] = get_str(&k)) == NULL && !k.failed)
			fail(&k, "a file name that is absent");
	k.names = u->files, k.nnames = u->nfiles;
	if (!k.failed)
		pack_fields(&k, &u->p, &u->agents);
	if (!k.failed && k.at != len)
		fail(&k, "bytes after the end");
	if (k.failed) {
		policy_unpack_free(&u->p);
		return NULL;
	}
	return &u->p;
}

void policy_unpack_free(struct policy *p)
{
	if (p == NULL)
		return;
	struct unpacked *u = (struct unpacked *)(void *)p;
	free(p->profile);
	free(p->workspace);
	free(p->home);
	free(p->tmpdir);
	struct rules *lists[] = { &p->read,     &p->write,         &p->readonly,       &p->deny,
				  &p->ignore,   &p->protect,       &p->protect_except, &p->net.allow,
				  &p->net.deny, &u->agents.shadow, &u->agents.quiet,   &u->agents.quiet_hosts };
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
		rules_free(lists[i]);
	free(u->agents.state);
	for (uint32_t i = 0; i < u->nfiles; i++)
		free(u->files[i]);
	free(u->files);
	free(u);
}
