/*
 * sha256.c - SHA-256 as FIPS 180-4 section 6.2 computes it: 64-byte
 * blocks, big-endian words, the length in bits in the last 8 bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sha256.h"

static const uint32_t k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b,
	0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
	0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7,
	0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152,
	0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
	0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
	0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
	0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t
ror(uint32_t x, unsigned n)
{
	return x >> n | x << (32 - n);
}

static void
block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], v[8], t1, t2;
	unsigned i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		    (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 64; i++)
		w[i] = w[i - 16] + (ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^
		    w[i - 15] >> 3) + w[i - 7] + (ror(w[i - 2], 17) ^
		    ror(w[i - 2], 19) ^ w[i - 2] >> 10);
	memcpy(v, h, sizeof(v));
	for (i = 0; i < 64; i++) {
		t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) +
		    ((v[4] & v[5]) ^ (~v[4] & v[6])) + k[i] + w[i];
		t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) +
		    ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
		memmove(v + 1, v, 7 * sizeof(*v));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		h[i] += v[i];
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>

/*
 * The same, n blocks at once, with the x86 SHA extensions (Intel SHA-NI,
 * AMD Zen and later): the state held as ABEF and CDGH, two rounds an
 * instruction, four words of the schedule an sha256msg1/msg2 pair.
 */
__attribute__((target("sha,sse4.1"))) static void
blocks_ni(uint32_t h[8], const unsigned char *p, size_t n)
{
	const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL,
	    0x0405060700010203ULL);
	__m128i t = _mm_loadu_si128((const __m128i *)&h[0]);
	__m128i s1 = _mm_loadu_si128((const __m128i *)&h[4]);
	__m128i s0, save0, save1, w[4], m;
	unsigned i;

	t = _mm_shuffle_epi32(t, 0xb1);		/* C D A B */
	s1 = _mm_shuffle_epi32(s1, 0x1b);	/* H G F E */
	s0 = _mm_alignr_epi8(t, s1, 8);		/* A B E F */
	s1 = _mm_blend_epi16(s1, t, 0xf0);	/* C D G H */
	for (; n > 0; n--, p += 64) {
		save0 = s0;
		save1 = s1;
		for (i = 0; i < 16; i++) {
			if (i < 4)
				w[i] = _mm_shuffle_epi8(_mm_loadu_si128(
				    (const __m128i *)(p + 16 * i)), swap);
			else
				w[i % 4] = _mm_sha256msg2_epu32(_mm_add_epi32(
				    _mm_sha256msg1_epu32(w[i % 4],
				    w[(i + 1) % 4]), _mm_alignr_epi8(
				    w[(i + 3) % 4], w[(i + 2) % 4], 4)),
				    w[(i + 3) % 4]);
			m = _mm_add_epi32(w[i % 4], _mm_loadu_si128(
			    (const __m128i *)&k[4 * i]));
			s1 = _mm_sha256rnds2_epu32(s1, s0, m);
			s0 = _mm_sha256rnds2_epu32(s0, s1,
			    _mm_shuffle_epi32(m, 0x0e));
		}
		s0 = _mm_add_epi32(s0, save0);
		s1 = _mm_add_epi32(s1, save1);
	}
	t = _mm_shuffle_epi32(s0, 0x1b);	/* F E B A */
	s1 = _mm_shuffle_epi32(s1, 0xb1);	/* D C H G */
	s0 = _mm_blend_epi16(t, s1, 0xf0);	/* D C B A */
	s1 = _mm_alignr_epi8(s1, t, 8);		/* H G F E */
	_mm_storeu_si128((__m128i *)&h[0], s0);
	_mm_storeu_si128((__m128i *)&h[4], s1);
}

static bool
has_ni(void)
{
	static int has = -1;

	/* ELFSCAN_SHA256_PORTABLE: the portable code all the same (the
	   unit tests check both). */
	unsigned a, b, c, d;

	/* CPUID: SSE4.1 is leaf 1's ECX bit 19, SHA leaf 7's EBX bit 29 (as
	   clang 14 knows no "sha" for __builtin_cpu_supports). */
	if (has < 0)
		has = __get_cpuid(1, &a, &b, &c, &d) && (c & 1u << 19) &&
		    __get_cpuid_count(7, 0, &a, &b, &c, &d) &&
		    (b & 1u << 29) && getenv("ELFSCAN_SHA256_PORTABLE") == NULL;
	return has;
}
#else
static bool
has_ni(void)
{
	return false;
}
static void
blocks_ni(uint32_t h[8], const unsigned char *p, size_t n)
{
	(void)h;
	(void)p;
	(void)n;
}
#endif

/* n blocks: with the CPU's SHA instructions where it has them. */
static void
blocks(uint32_t h[8], const unsigned char *p, size_t n)
{
	if (has_ni()) {
		blocks_ni(h, p, n);
		return;
	}
	for (; n > 0; n--, p += 64)
		block(h, p);
}

void
sha256_init(struct sha256 *c)
{
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(c->h, h0, sizeof(h0));
	c->len = 0;
	c->used = 0;
}

void
sha256_update(struct sha256 *c, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t n;

	c->len += len;
	while (len > 0) {
		/* Whole blocks straight from the data. */
		if (c->used == 0 && len >= sizeof(c->block)) {
			n = len / sizeof(c->block);
			blocks(c->h, p, n);
			p += n * sizeof(c->block);
			len -= n * sizeof(c->block);
			continue;
		}
		n = sizeof(c->block) - c->used < len ?
		    sizeof(c->block) - c->used : len;
		memcpy(c->block + c->used, p, n);
		c->used += n;
		p += n;
		len -= n;
		if (c->used == sizeof(c->block)) {
			blocks(c->h, c->block, 1);
			c->used = 0;
		}
	}
}

void
sha256_hex(struct sha256 *c, char hex[SHA256_HEX])
{
	uint64_t bits = c->len * 8;
	unsigned char pad = 0x80, len[8];
	unsigned i;

	for (i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(c, &pad, 1);
	pad = 0;
	while (c->used != 56)
		sha256_update(c, &pad, 1);
	sha256_update(c, len, sizeof(len));
	for (i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08x", (unsigned)c->h[i]);
}

int
sha256_file(const char *path, char hex[SHA256_HEX], uint64_t *size)
{
	unsigned char buf[65536];
	struct sha256 c;
	ssize_t n;
	int fd, e;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) == -1)
		return -1;
	sha256_init(&c);
	*size = 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0 ||
	    (n == -1 && errno == EINTR))
		if (n > 0) {
			sha256_update(&c, buf, (size_t)n);
			*size += (uint64_t)n;
		}
	e = errno;
	close(fd);
	if (n == -1) {
		errno = e;
		return -1;
	}
	sha256_hex(&c, hex);
	return 0;
}
