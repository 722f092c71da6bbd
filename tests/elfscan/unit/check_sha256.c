/*
 * check_sha256.c - elfscan's SHA-256 (src/elfscan/sha256.c) against the
 * examples of FIPS 180-4 (NIST's "SHA256.pdf" and the one-million-"a"
 * message of FIPS 180-2 appendix B.3), the empty message, and the same
 * messages fed in pieces that straddle the 64-byte blocks.
 */
#include <check.h>
#include <string.h>

#include "sha256.h"
#include "elfgen.h"

static const struct {
	const char *msg;
	size_t repeat;
	const char *hex;
} vectors[] = {
	{ "", 1,
	  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", 1,
	  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "a", 1000000,
	  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
};

START_TEST(test_vector)
{
	char hex[SHA256_HEX];
	struct sha256 c;
	size_t i;

	sha256_init(&c);
	for (i = 0; i < vectors[_i].repeat; i++)
		sha256_update(&c, vectors[_i].msg, strlen(vectors[_i].msg));
	sha256_hex(&c, hex);
	ck_assert_str_eq(hex, vectors[_i].hex);
}
END_TEST

/* The two-block message of FIPS 180-4, fed 1, 7, 63 and 64 bytes at a
   time: the digest does not depend on how the bytes come. */
START_TEST(test_pieces)
{
	static const size_t sizes[] = { 1, 7, 63, 64 };
	const char *m = vectors[2].msg;
	char hex[SHA256_HEX];
	struct sha256 c;
	size_t at, n;

	sha256_init(&c);
	for (at = 0; m[at] != '\0'; at += n) {
		n = sizes[_i] < strlen(m + at) ? sizes[_i] : strlen(m + at);
		sha256_update(&c, m + at, n);
	}
	sha256_hex(&c, hex);
	ck_assert_str_eq(hex, vectors[2].hex);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sha256");
	TCase *tc = tcase_create("fips180-4");

	tcase_add_loop_test(tc, test_vector, 0,
	    (int)(sizeof(vectors) / sizeof(vectors[0])));
	tcase_add_loop_test(tc, test_pieces, 0, 4);
	suite_add_tcase(s, tc);
	return gen_run(s);
}
