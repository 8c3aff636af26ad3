/* net-dnsmsg: DNS messages (RFC 1035): one question out, A/AAAA records
 * in. Everything read from the wire is bounds-checked: the answer comes
 * from the network and is fuzzed (tests/fuzz/fuzz_proxy.c). */
#include "backends/dns.h"

#include <ctype.h>
#include <string.h>
#include <sys/socket.h>

int dns_name_valid(const char *name)
{
	size_t len = strlen(name), label = 0;
	if (len == 0 || len > 254 || (len == 254 && name[253] != '.'))
		return 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c == '.') {
			if (label == 0)
				return 0;
			label = 0;
			continue;
		}
		if (!isalnum(c) && c != '-' && c != '_')
			return 0;
		if (++label > 63)
			return 0;
	}
	return 1;
}

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static unsigned get16(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

int dns_msg_query(uint8_t *buf, size_t size, uint16_t id, const char *name, int qtype)
{
	size_t len = strlen(name);
	if (!dns_name_valid(name) || size < 12 + len + 2 + 4)
		return -1;
	memset(buf, 0, 12);
	put16(buf, id);
	buf[2] = 0x01; /* RD: recursion desired */
	put16(buf + 4, 1);
	size_t o = 12;
	const char *p = name;
	while (*p != '\0') {
		const char *dot = strchr(p, '.');
		size_t l = dot ? (size_t)(dot - p) : strlen(p);
		buf[o++] = (uint8_t)l;
		memcpy(buf + o, p, l);
		o += l;
		p += l + (dot ? 1 : 0);
	}
	buf[o++] = 0;
	put16(buf + o, (unsigned)qtype);
	put16(buf + o + 2, 1); /* class IN */
	return (int)(o + 4);
}

/* Skips a (possibly compressed) name at *o; -1 if it runs off the end. */
static int skip_name(const uint8_t *msg, size_t len, size_t *o)
{
	for (int labels = 0; labels < 128; labels++) {
		if (*o >= len)
			return -1;
		uint8_t l = msg[*o];
		if ((l & 0xc0) == 0xc0) {
			if (*o + 2 > len)
				return -1;
			*o += 2;
			return 0;
		}
		if (l & 0xc0)
			return -1;
		*o += 1 + (size_t)l;
		if (l == 0)
			return *o <= len ? 0 : -1;
	}
	return -1;
}

/* Does the uncompressed question name at *o equal `name`? Advances *o. */
static int match_qname(const uint8_t *msg, size_t len, size_t *o, const char *name)
{
	size_t n = 0, nlen = strlen(name);
	if (nlen > 0 && name[nlen - 1] == '.')
		nlen--;
	for (;;) {
		if (*o >= len)
			return 0;
		uint8_t l = msg[(*o)++];
		if (l == 0)
			return n == nlen || n == nlen + 1;
		if (l > 63 || *o + l > len)
			return 0;
		if (n > 0) {
			if (n >= nlen || name[n] != '.')
				return 0;
			n++;
		}
		if (n + l > nlen || strncasecmp((const char *)msg + *o, name + n, l) != 0)
			return 0;
		n += l;
		*o += l;
	}
}

static void add_record(int type, const uint8_t *rdata, size_t rdlen, struct net_addr *addr, size_t max, size_t *n)
{
	if (*n >= max)
		return;
	struct net_addr a = { 0 };
	if (type == DNS_TYPE_A && rdlen == 4)
		a.family = AF_INET;
	else if (type == DNS_TYPE_AAAA && rdlen == 16)
		a.family = AF_INET6;
	else
		return;
	memcpy(a.bytes, rdata, rdlen);
	addr[(*n)++] = a;
}

int dns_msg_answer(const uint8_t *msg, size_t len, uint16_t id, const char *name, int qtype, struct net_addr *addr,
		   size_t max, size_t *n, uint32_t *ttl)
{
	if (len < 12 || get16(msg) != id || !(msg[2] & 0x80) || get16(msg + 4) != 1)
		return -1;
	size_t o = 12;
	if (!match_qname(msg, len, &o, name) || o + 4 > len || get16(msg + o) != (unsigned)qtype)
		return -1;
	o += 4;
	unsigned rcode = msg[3] & 0x0f;
	if (rcode != 0)
		return 1;
	unsigned ancount = get16(msg + 6);
	for (unsigned i = 0; i < ancount; i++) {
		if (skip_name(msg, len, &o) < 0 || o + 10 > len)
			return -1;
		unsigned type = get16(msg + o), class = get16(msg + o + 2);
		size_t rdlen = get16(msg + o + 8);
		o += 10;
		if (o + rdlen > len)
			return -1;
		/* A CNAME chain's final records carry the target's name; a
		 * recursive resolver only puts records of that chain in the
		 * answer section, so every A/AAAA there answers our question. */
		if (class == 1 && (int)type == qtype) {
			uint32_t t = (uint32_t)get16(msg + o - 6) << 16 | get16(msg + o - 4);
			if (ttl != NULL && t < *ttl)
				*ttl = t;
			add_record((int)type, msg + o, rdlen, addr, max, n);
		}
		o += rdlen;
	}
	return 0;
}
