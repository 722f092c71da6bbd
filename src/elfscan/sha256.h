/*
 * sha256.h - SHA-256 (FIPS 180-4), for the digests an apt repository's
 * Release and Packages give (repo-apt.c). None of elfscan's dependencies
 * (libelf, libdw, libarchive, json-c, zlib) offers it in its interface, so
 * it is written here, checked by tests/elfscan/unit/check_sha256 against
 * the standard's examples.
 */
#ifndef SHA256_H
#define SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32
#define SHA256_HEX (2 * SHA256_LEN + 1)

struct sha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes hashed */
	unsigned char block[64];
	size_t used;		/* bytes of block filled */
};
void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t len);
/* The digest, as lowercase hex ended by a NUL, into hex; c is spent. */
void sha256_hex(struct sha256 *c, char hex[SHA256_HEX]);
/* The digest of the file at path, read whole, into hex, and its size:
   0, or -1 with errno set. */
int sha256_file(const char *path, char hex[SHA256_HEX], uint64_t *size);

#endif
