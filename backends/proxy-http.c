/* proxy-http: the request head of an HTTP proxy client (RFC 9112):
 * "CONNECT host:port" or "METHOD http://authority/path", then headers.
 * Strict on purpose: anything ambiguous is a 400, never a guess. */
#include "backends/proxy.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backends/dns.h"
#include "backends/net-addr.h"

#define MAX_HEADERS 100

/* End of the head: the offset after the empty line, or 0. Lines end in
 * CRLF or a bare LF. */
static size_t head_end(const char *buf, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++) {
		if (buf[i] != '\n')
			continue;
		if (buf[i + 1] == '\n')
			return i + 2;
		if (buf[i + 1] == '\r' && i + 2 < len && buf[i + 2] == '\n')
			return i + 3;
	}
	return 0;
}

/* Next line of [*p, end): sets *line and *n (without CR/LF). */
static int next_line(const char *buf, size_t end, size_t *p, const char **line, size_t *n)
{
	if (*p >= end)
		return 0;
	const char *nl = memchr(buf + *p, '\n', end - *p);
	if (nl == NULL)
		return 0;
	*line = buf + *p;
	*n = (size_t)(nl - *line);
	*p += *n + 1;
	if (*n > 0 && (*line)[*n - 1] == '\r')
		(*n)--;
	return 1;
}

static int is_tchar(unsigned char c)
{
	return isalnum(c) || (c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* Any byte in the head that has no business there: NUL, other controls
 * than CR (before LF), LF and TAB, and DEL. Catches binary at once. */
static int head_has_junk(const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];
		if ((c < 0x20 && c != '\r' && c != '\n' && c != '\t') || c == 0x7f)
			return 1;
		if (c == '\r' && i + 1 < len && buf[i + 1] != '\n')
			return 1;
	}
	return 0;
}

static int parse_port(const char *s, size_t n, int *port)
{
	if (n == 0 || n > 5)
		return -1;
	int v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v < 1 || v > 65535)
		return -1;
	*port = v;
	return 0;
}

/* host, [v6] or host:port, [v6]:port. No userinfo, no zone ids. */
static int parse_authority(const char *s, size_t n, struct http_req *r, int default_port)
{
	size_t hlen;
	const char *host = s, *colon;
	if (n == 0 || n >= sizeof r->authority)
		return -1;
	if (s[0] == '[') {
		const char *close = memchr(s, ']', n);
		if (close == NULL)
			return -1;
		host = s + 1;
		hlen = (size_t)(close - host);
		colon = close + 1 < s + n ? close + 1 : NULL;
		if (colon != NULL && *colon != ':')
			return -1;
	} else {
		colon = memchr(s, ':', n);
		hlen = colon ? (size_t)(colon - s) : n;
	}
	if (hlen == 0 || hlen >= sizeof r->host)
		return -1;
	memcpy(r->host, host, hlen);
	r->host[hlen] = '\0';
	r->port = default_port;
	if (colon != NULL && parse_port(colon + 1, (size_t)(s + n - colon - 1), &r->port) < 0)
		return -1;
	if (r->port == 0)
		return -1;
	struct net_addr a;
	if (s[0] == '[' ? net_addr_parse(r->host, &a) < 0 || a.family != AF_INET6
			: net_addr_parse(r->host, &a) < 0 && !dns_name_valid(r->host))
		return -1;
	for (char *c = r->host; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	memcpy(r->authority, s, n);
	r->authority[n] = '\0';
	return 0;
}

/* "http://authority[/path]": anything else (https, relative) is refused:
 * the proxy does not originate TLS, and relative targets name no host. */
static int parse_absolute(const char *line, const char *t, size_t n, struct http_req *r)
{
	if (n < 7 || strncasecmp(t, "http://", 7) != 0)
		return -1;
	const char *auth = t + 7, *end = t + n;
	const char *slash = auth;
	while (slash < end && *slash != '/' && *slash != '?')
		slash++;
	if (memchr(auth, '@', (size_t)(slash - auth)) != NULL)
		return -1;
	if (parse_authority(auth, (size_t)(slash - auth), r, 80) < 0)
		return -1;
	r->path_off = (size_t)(slash - line);
	r->path_len = (size_t)(end - slash);
	return 0;
}

static int parse_request_line(const char *line, size_t n, struct http_req *r)
{
	const char *sp1 = memchr(line, ' ', n);
	if (sp1 == NULL || sp1 == line || (size_t)(sp1 - line) >= sizeof r->method)
		return -1;
	const char *target = sp1 + 1;
	const char *sp2 = memchr(target, ' ', n - (size_t)(target - line));
	if (sp2 == NULL || sp2 == target)
		return -1;
	const char *ver = sp2 + 1;
	size_t vlen = n - (size_t)(ver - line);
	if (vlen != 8 || memcmp(ver, "HTTP/1.", 7) != 0 || (ver[7] != '0' && ver[7] != '1'))
		return -1;
	r->version_minor = ver[7] - '0';
	for (const char *c = line; c < sp1; c++)
		if (!is_tchar((unsigned char)*c))
			return -1;
	memcpy(r->method, line, (size_t)(sp1 - line));
	r->method[sp1 - line] = '\0';
	size_t tlen = (size_t)(sp2 - target);
	for (size_t i = 0; i < tlen; i++)
		if ((unsigned char)target[i] <= ' ' || (unsigned char)target[i] >= 0x7f)
			return -1;
	r->is_connect = strcmp(r->method, "CONNECT") == 0;
	if (r->is_connect)
		return parse_authority(target, tlen, r, 0);
	return parse_absolute(line, target, tlen, r);
}

/* One header line; a Proxy-Authorization value is noted (without the
 * blanks around it). */
static int parse_header(const char *buf, const char *line, size_t n, struct http_req *r)
{
	static const char auth[] = "proxy-authorization";
	const char *colon = memchr(line, ':', n);
	if (colon == NULL || colon == line)
		return -1;
	for (const char *c = line; c < colon; c++)
		if (!is_tchar((unsigned char)*c))
			return -1;
	if ((size_t)(colon - line) != sizeof auth - 1 || strncasecmp(line, auth, sizeof auth - 1) != 0)
		return 0;
	const char *v = colon + 1, *end = line + n;
	while (v < end && (*v == ' ' || *v == '\t'))
		v++;
	while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	r->auth_off = (size_t)(v - buf);
	r->auth_len = (size_t)(end - v);
	r->auth_n++;
	return 0;
}

int proxy_http_parse(const char *buf, size_t len, struct http_req *r)
{
	memset(r, 0, sizeof *r);
	size_t scan = len < PROXY_HEAD_MAX ? len : PROXY_HEAD_MAX;
	size_t end = head_end(buf, scan);
	if (head_has_junk(buf, end ? end : scan))
		return PARSE_BAD;
	if (end == 0)
		return len >= PROXY_HEAD_MAX ? PARSE_TOO_BIG : PARSE_MORE;
	size_t p = 0, n;
	const char *line;
	if (!next_line(buf, end, &p, &line, &n) || parse_request_line(line, n, r) < 0)
		return PARSE_BAD;
	if (r->path_len == 0)
		r->path_off = 0;
	for (int i = 0; next_line(buf, end, &p, &line, &n) && n > 0; i++)
		if (i >= MAX_HEADERS || parse_header(buf, line, n, r) < 0)
			return PARSE_BAD;
	r->head_len = end;
	return PARSE_OK;
}

static int hop_by_hop(const char *line, size_t n)
{
	static const char *const names[] = {
		"connection", "proxy-connection", "keep-alive", "proxy-authorization", "proxy-authenticate", "te",
		"trailer",    "upgrade",          "host"
	};
	const char *colon = memchr(line, ':', n);
	size_t nlen = (size_t)(colon - line);
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strlen(names[i]) == nlen && strncasecmp(line, names[i], nlen) == 0)
			return 1;
	return 0;
}

static int append(char *out, size_t size, size_t *o, const char *s, size_t n)
{
	if (*o + n > size)
		return -1;
	memcpy(out + *o, s, n);
	*o += n;
	return 0;
}

int proxy_http_rewrite(const char *buf, const struct http_req *r, char *out, size_t size)
{
	size_t o = 0, p = 0, n;
	const char *line;
	char first[64];
	int fl = snprintf(first, sizeof first, "%s ", r->method);
	if (append(out, size, &o, first, (size_t)fl) < 0)
		return -1;
	if (r->path_len == 0 ? append(out, size, &o, "/", 1) < 0
			     : (buf[r->path_off] == '?' && append(out, size, &o, "/", 1) < 0) ||
				       append(out, size, &o, buf + r->path_off, r->path_len) < 0)
		return -1;
	if (append(out, size, &o, " HTTP/1.1\r\nHost: ", 17) < 0 ||
	    append(out, size, &o, r->authority, strlen(r->authority)) < 0 || append(out, size, &o, "\r\n", 2) < 0)
		return -1;
	next_line(buf, r->head_len, &p, &line, &n); /* the request line, done above */
	while (next_line(buf, r->head_len, &p, &line, &n) && n > 0) {
		if (hop_by_hop(line, n))
			continue;
		if (append(out, size, &o, line, n) < 0 || append(out, size, &o, "\r\n", 2) < 0)
			return -1;
	}
	if (append(out, size, &o, "Connection: close\r\n\r\n", 21) < 0)
		return -1;
	return (int)o;
}
