/* proxy-socks: SOCKS5 (RFC 1928): the method greeting, the
 * username/password subnegotiation (RFC 1929), the CONNECT request, and
 * the replies. */
#include "backends/proxy.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "backends/dns.h"
#include "backends/net-addr.h"

int proxy_socks_greeting(const uint8_t *buf, size_t len, int method, int *offered)
{
	*offered = 0;
	if (len < 2)
		return len > 0 && buf[0] != 5 ? PARSE_BAD : PARSE_MORE;
	if (buf[0] != 5 || buf[1] == 0)
		return PARSE_BAD;
	size_t need = 2 + (size_t)buf[1];
	if (len < need)
		return PARSE_MORE;
	for (size_t i = 2; i < need; i++)
		if (buf[i] == method)
			*offered = 1;
	return (int)need;
}

/* VER 1, ULEN, UNAME, PLEN, PASSWD. */
int proxy_socks_auth(const uint8_t *buf, size_t len, char user[256], char pass[256])
{
	user[0] = pass[0] = '\0';
	if (len >= 1 && buf[0] != 1)
		return PARSE_BAD;
	if (len < 2 || len < 2 + (size_t)buf[1] + 1)
		return PARSE_MORE;
	size_t ulen = buf[1], plen = buf[2 + ulen];
	if (len < 3 + ulen + plen)
		return PARSE_MORE;
	memcpy(user, buf + 2, ulen);
	user[ulen] = '\0';
	memcpy(pass, buf + 3 + ulen, plen);
	pass[plen] = '\0';
	/* a NUL inside would make two different names compare equal */
	if (strlen(user) != ulen || strlen(pass) != plen)
		return PARSE_BAD;
	return (int)(3 + ulen + plen);
}

static int socks_domain(const uint8_t *p, size_t n, struct socks_req *r)
{
	struct net_addr a;
	if (n == 0)
		return -1;
	memcpy(r->host, p, n);
	r->host[n] = '\0';
	if (memchr(r->host, '\0', n) != NULL)
		return -1;
	if (net_addr_parse(r->host, &a) == 0)
		return 0; /* an IP literal sent as a name: decided as an IP */
	if (!dns_name_valid(r->host))
		return -1;
	for (char *c = r->host; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return 0;
}

int proxy_socks_request(const uint8_t *buf, size_t len, struct socks_req *r)
{
	memset(r, 0, sizeof *r);
	if (len >= 1 && buf[0] != 5)
		return -SOCKS_FAIL;
	if (len >= 3 && buf[2] != 0)
		return -SOCKS_FAIL;
	if (len >= 2 && buf[1] != SOCKS_CONNECT)
		return -SOCKS_BAD_COMMAND;
	if (len < 5)
		return PARSE_MORE;
	size_t alen;
	switch (buf[3]) {
	case 1:
		alen = 4;
		break;
	case 4:
		alen = 16;
		break;
	case 3:
		alen = 1 + (size_t)buf[4];
		break;
	default:
		return -SOCKS_BAD_ATYP;
	}
	if (len < 4 + alen + 2)
		return PARSE_MORE;
	r->cmd = buf[1];
	r->port = buf[4 + alen] << 8 | buf[4 + alen + 1];
	if (r->port == 0)
		return -SOCKS_FAIL;
	if (buf[3] == 3) {
		if (socks_domain(buf + 5, alen - 1, r) < 0)
			return -SOCKS_HOST_UNREACH;
	} else {
		struct net_addr a = { .family = buf[3] == 1 ? AF_INET : AF_INET6 };
		memcpy(a.bytes, buf + 4, alen);
		net_addr_format(&a, r->host, sizeof r->host);
	}
	return (int)(4 + alen + 2);
}

size_t proxy_socks_reply(uint8_t *out, int code, const struct net_addr *bound, int port)
{
	out[0] = 5;
	out[1] = (uint8_t)code;
	out[2] = 0;
	if (bound != NULL && bound->family == AF_INET6) {
		out[3] = 4;
		memcpy(out + 4, bound->bytes, 16);
		out[20] = (uint8_t)(port >> 8);
		out[21] = (uint8_t)port;
		return 22;
	}
	out[3] = 1;
	memset(out + 4, 0, 6);
	if (bound != NULL) {
		memcpy(out + 4, bound->bytes, 4);
		out[8] = (uint8_t)(port >> 8);
		out[9] = (uint8_t)port;
	}
	return 10;
}
