/* sha256: FIPS 180-4 SHA-256, for the content hashes of trusted files. */
#ifndef POLICY_SHA256_H
#define POLICY_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	uint8_t buf[64];
	size_t nbuf;
};

void sha256_init(struct sha256 *);
void sha256_update(struct sha256 *, const void *, size_t);
void sha256_final(struct sha256 *, uint8_t out[32]);
/* The digest of data as 64 lower-case hex digits plus NUL. */
void sha256_hex(const void *data, size_t len, char out[65]);

#endif
