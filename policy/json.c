/* json: a recursive-descent JSON reader that keeps positions (json.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/json.h"

struct parser {
	const char *s;
	size_t len, pos;
	size_t tpos; /* line/col below are those of byte tpos */
	int tline, tcol;
	int depth;
	struct json *in; /* the container being read, for the error's path */
	struct json_error *err;
};

/* Line and column of byte off. Offsets asked for only grow (except in
 * errors, which come last), so tracking is linear overall. */
static void parser_where(struct parser *p, size_t off, int *line, int *col)
{
	if (off < p->tpos) {
		p->tpos = 0;
		p->tline = p->tcol = 1;
	}
	for (; p->tpos < off && p->tpos < p->len; p->tpos++) {
		unsigned char c = (unsigned char)p->s[p->tpos];
		if (c == '\n') {
			p->tline++;
			p->tcol = 1;
		} else if ((c & 0xC0) != 0x80) { /* count characters, not UTF-8 continuation bytes */
			p->tcol++;
		}
	}
	*line = p->tline;
	*col = p->tcol;
}

static int parser_fail(struct parser *p, size_t off, const char *msg)
{
	if (p->err->msg[0])
		return -1; /* keep the first, innermost error */
	parser_where(p, off, &p->err->line, &p->err->col);
	p->err->offset = off;
	snprintf(p->err->msg, sizeof p->err->msg, "%s", msg);
	json_path(p->in, p->err->path, sizeof p->err->path);
	return -1;
}

static void parser_skip_ws(struct parser *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) && p->s[p->pos])
		p->pos++;
}

static struct json *json_new(struct parser *p, enum json_type t)
{
	struct json *j = calloc(1, sizeof *j);
	if (!j)
		abort();
	j->type = t;
	j->start = p->pos;
	parser_where(p, p->pos, &j->line, &j->col);
	return j;
}

static int hex4(const char *s, uint32_t *out)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t utf8_put(char *o, uint32_t c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xC0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xE0 | c >> 12);
		o[1] = (char)(0x80 | (c >> 6 & 0x3F));
		o[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | c >> 18);
	o[1] = (char)(0x80 | (c >> 12 & 0x3F));
	o[2] = (char)(0x80 | (c >> 6 & 0x3F));
	o[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

/* \uXXXX, with surrogate pairs joined. p->pos is at the 'u'. */
static int parse_unicode(struct parser *p, char *out, size_t *o)
{
	uint32_t c, lo;
	if (p->pos + 5 > p->len || hex4(p->s + p->pos + 1, &c) < 0)
		return parser_fail(p, p->pos - 1, "bad \\u escape");
	p->pos += 5;
	if (c >= 0xDC00 && c <= 0xDFFF)
		return parser_fail(p, p->pos - 6, "lone low surrogate in \\u escape");
	if (c >= 0xD800 && c <= 0xDBFF) {
		if (p->pos + 6 > p->len || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u' ||
		    hex4(p->s + p->pos + 2, &lo) < 0 || lo < 0xDC00 || lo > 0xDFFF)
			return parser_fail(p, p->pos - 6, "unpaired high surrogate in \\u escape");
		p->pos += 6;
		c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
	}
	*o += utf8_put(out + *o, c);
	return 0;
}

static int parse_escape(struct parser *p, char *out, size_t *o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	char c = p->pos < p->len ? p->s[p->pos] : 0;
	if (c == 'u')
		return parse_unicode(p, out, o);
	const char *hit = c ? strchr(from, c) : NULL;
	if (!hit)
		return parser_fail(p, p->pos - 1, "bad escape in string");
	out[(*o)++] = to[hit - from];
	p->pos++;
	return 0;
}

/* Bytes from `from` to the closing quote, skipping escapes; the source
 * length when unterminated. */
static size_t string_span(const struct parser *p, size_t from)
{
	size_t i = from;
	while (i < p->len && p->s[i] != '"')
		i += p->s[i] == '\\' ? 2 : 1;
	return (i < p->len ? i : p->len) - from;
}

/* A string at p->pos (the opening quote). The unescaped text is never
 * longer than its source, so one allocation of the source span fits. */
static int parse_string(struct parser *p, char **out, size_t *outlen)
{
	size_t open = p->pos++;
	char *buf = malloc(string_span(p, p->pos) + 4);
	size_t o = 0;
	if (!buf)
		abort();
	for (;;) {
		if (p->pos >= p->len) {
			free(buf);
			return parser_fail(p, open, "unterminated string");
		}
		unsigned char c = (unsigned char)p->s[p->pos];
		if (c == '"')
			break;
		if (c < 0x20) {
			free(buf);
			return parser_fail(p, p->pos, "control character in string");
		}
		p->pos++;
		if (c == '\\') {
			if (parse_escape(p, buf, &o) < 0) {
				free(buf);
				return -1;
			}
		} else {
			buf[o++] = (char)c;
		}
	}
	p->pos++;
	buf[o] = 0;
	*out = buf;
	*outlen = o;
	return 0;
}

static int parse_number(struct parser *p, struct json *j)
{
	size_t i = p->pos;
	const char *s = p->s;
#define DIGIT(k) ((k) < p->len && s[k] >= '0' && s[k] <= '9')
	if (i < p->len && s[i] == '-')
		i++;
	if (!DIGIT(i))
		return parser_fail(p, p->pos, "bad number");
	if (s[i] == '0')
		i++;
	else
		while (DIGIT(i))
			i++;
	if (i < p->len && s[i] == '.') {
		if (!DIGIT(i + 1))
			return parser_fail(p, i, "bad number: digits must follow '.'");
		for (i++; DIGIT(i); i++)
			;
	}
	if (i < p->len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < p->len && (s[i] == '+' || s[i] == '-'))
			i++;
		if (!DIGIT(i))
			return parser_fail(p, i, "bad number: digits must follow the exponent");
		while (DIGIT(i))
			i++;
	}
#undef DIGIT
	char tmp[64];
	size_t n = i - p->pos < sizeof tmp - 1 ? i - p->pos : sizeof tmp - 1;
	memcpy(tmp, s + p->pos, n);
	tmp[n] = 0;
	j->number = strtod(tmp, NULL);
	p->pos = i;
	return 0;
}

struct member {
	char *key; /* moved into the node */
	int line, col;
	size_t start;
};

static int parse_value(struct parser *p, struct json *parent, struct member *m, struct json **out);

static void json_append(struct json *parent, struct json *c)
{
	c->parent = parent;
	c->index = parent->n++;
	if (parent->last)
		parent->last->next = c;
	else
		parent->child = c;
	parent->last = c;
}

static int parse_member(struct parser *p, struct json *obj)
{
	struct member m = { .start = p->pos };
	size_t keylen;
	struct json *v;
	if (p->pos >= p->len || p->s[p->pos] != '"')
		return parser_fail(p, p->pos, "expected a key in double quotes");
	parser_where(p, m.start, &m.line, &m.col);
	if (parse_string(p, &m.key, &keylen) < 0)
		return -1;
	parser_skip_ws(p);
	if (p->pos >= p->len || p->s[p->pos] != ':') {
		free(m.key);
		return parser_fail(p, p->pos, "expected ':' after the key");
	}
	p->pos++;
	parser_skip_ws(p);
	return parse_value(p, obj, &m, &v);
}

/* Arrays and objects: elements separated by ',', closed by `close`. */
static int parse_container(struct parser *p, struct json *j, char close)
{
	if (++p->depth > JSON_MAX_DEPTH)
		return parser_fail(p, p->pos, "nested too deeply");
	struct json *outer = p->in;
	p->in = j;
	p->pos++;
	parser_skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		goto done;
	}
	for (;;) {
		struct json *v;
		parser_skip_ws(p);
		if (close == '}' ? parse_member(p, j) < 0 : parse_value(p, j, NULL, &v) < 0)
			return -1;
		parser_skip_ws(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == close) {
			p->pos++;
			break;
		}
		return parser_fail(p, p->pos, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
	}
done:
	p->in = outer;
	p->depth--;
	return 0;
}

static int parse_literal(struct parser *p, const char *word, struct json *j)
{
	size_t n = strlen(word);
	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
		return parser_fail(p, p->pos, "expected a value");
	p->pos += n;
	j->boolean = word[0] == 't';
	return 0;
}

static enum json_type type_of(char c)
{
	switch (c) {
	case '{':
		return JSON_OBJECT;
	case '[':
		return JSON_ARRAY;
	case '"':
		return JSON_STRING;
	case 't':
	case 'f':
		return JSON_BOOL;
	case 'n':
		return JSON_NULL;
	default:
		return JSON_NUMBER;
	}
}

/* The node is attached to its parent before its contents are read, so an
 * error inside it can name its path. */
static int parse_value(struct parser *p, struct json *parent, struct member *m, struct json **out)
{
	char c = p->pos < p->len ? p->s[p->pos] : 0;
	*out = NULL;
	if (!c || (!strchr("{[\"tfn-", c) && (c < '0' || c > '9'))) {
		free(m ? m->key : NULL);
		return parser_fail(p, p->pos, p->pos < p->len ? "expected a value" : "unexpected end of input");
	}
	struct json *j = *out = json_new(p, type_of(c));
	if (m) {
		j->key = m->key;
		j->key_line = m->line;
		j->key_col = m->col;
		j->key_start = m->start;
	}
	if (parent)
		json_append(parent, j);
	int r;
	switch (c) {
	case '{':
		r = parse_container(p, j, '}');
		break;
	case '[':
		r = parse_container(p, j, ']');
		break;
	case '"':
		r = parse_string(p, &j->str, &j->len);
		break;
	case 't':
		r = parse_literal(p, "true", j);
		break;
	case 'f':
		r = parse_literal(p, "false", j);
		break;
	case 'n':
		r = parse_literal(p, "null", j);
		break;
	default:
		r = parse_number(p, j);
	}
	j->end = p->pos;
	return r;
}

struct json *json_parse(const char *text, size_t len, struct json_error *err)
{
	struct parser p = { .s = text, .len = len, .tline = 1, .tcol = 1, .err = err };
	struct json *root = NULL;
	memset(err, 0, sizeof *err);
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
		p.pos = p.tpos = 3; /* a UTF-8 byte order mark, as some editors write: not a column */
	parser_skip_ws(&p);
	if (parse_value(&p, NULL, NULL, &root) == 0) {
		parser_skip_ws(&p);
		if (p.pos == p.len)
			return root;
		p.in = NULL;
		parser_fail(&p, p.pos, "text after the end of the document");
	}
	json_free(root);
	return NULL;
}

void json_free(struct json *j)
{
	while (j) {
		struct json *next = j->next;
		json_free(j->child);
		free(j->key);
		free(j->str);
		free(j);
		j = next;
	}
}

const struct json *json_get(const struct json *obj, const char *key)
{
	const struct json *c, *hit = NULL;
	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	json_each(c, obj) if (strcmp(c->key, key) == 0) hit = c;
	return hit;
}

const struct json *json_at(const struct json *j, size_t i)
{
	const struct json *c;
	if (!j)
		return NULL;
	json_each(c, j) if (c->index == i) return c;
	return NULL;
}

char *json_path(const struct json *j, char *buf, size_t size)
{
	char tmp[256];
	buf[0] = 0;
	if (!j || !j->parent) {
		snprintf(buf, size, "(top level)");
		return buf;
	}
	for (; j && j->parent; j = j->parent) {
		if (j->key)
			snprintf(tmp, sizeof tmp, "%s%s%s", j->key, buf[0] && buf[0] != '[' ? "." : "", buf);
		else
			snprintf(tmp, sizeof tmp, "[%zu]%s%s", j->index, buf[0] && buf[0] != '[' ? "." : "", buf);
		snprintf(buf, size, "%s", tmp);
	}
	return buf;
}

const char *json_type_name(enum json_type t)
{
	static const char *const names[] = { "null", "a boolean", "a number", "a string", "an array", "an object" };
	return names[t];
}

char *json_quote(const char *s)
{
	size_t n = strlen(s);
	char *out = malloc(6 * n + 3), *o = out; /* "\u00XX" is the longest form of a byte */
	if (!out)
		abort();
	*o++ = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			*o++ = '\\';
			*o++ = (char)c;
		} else if (c < 0x20) {
			o += sprintf(o, "\\u%04x", c);
		} else {
			*o++ = (char)c;
		}
	}
	*o++ = '"';
	*o = 0;
	return out;
}
