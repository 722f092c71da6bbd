/*
 * check_sha256.c - elfscan's SHA-256 (src/elfscan/sha256.c) against the
 * examples of FIPS 180-4 (NIST's "SHA256.pdf" and the one-million-"a"
 * message of FIPS 180-2 appendix B.3), the empty message, and the same
 * messages fed in pieces that straddle the 64-byte blocks, and a long
 * message fed whole (the path that hashes blocks straight from the data);
 * each with the CPU's SHA instructions where it has them and with the
 * portable code (ELFSCAN_SHA256_PORTABLE, read once a process: Check runs
 * each test in a process of its own). And the file digest against
 * sha256's of the same bytes in memory.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* One million "a" fed whole, and as a file. */
START_TEST(test_whole)
{
	char hex[SHA256_HEX], path[] = "/tmp/check_sha256.XXXXXX";
	char *m = malloc(1000000);
	struct sha256 c;
	uint64_t size;
	int fd;

	ck_assert_ptr_nonnull(m);
	memset(m, 'a', 1000000);
	sha256_init(&c);
	sha256_update(&c, m, 1000000);
	sha256_hex(&c, hex);
	ck_assert_str_eq(hex, vectors[3].hex);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, m, 1000000), 1000000);
	close(fd);
	ck_assert_int_eq(sha256_file(path, hex, &size), 0);
	unlink(path);
	ck_assert_str_eq(hex, vectors[3].hex);
	ck_assert_uint_eq(size, 1000000);
	free(m);
}
END_TEST

static void
portable(void)
{
	setenv("ELFSCAN_SHA256_PORTABLE", "1", 1);
}

int
main(void)
{
	Suite *s = suite_create("sha256");
	TCase *tc = tcase_create("fips180-4");
	TCase *pc = tcase_create("fips180-4, portable");

	tcase_add_loop_test(tc, test_vector, 0,
	    (int)(sizeof(vectors) / sizeof(vectors[0])));
	tcase_add_loop_test(tc, test_pieces, 0, 4);
	tcase_add_test(tc, test_whole);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(pc, portable, NULL);
	tcase_add_loop_test(pc, test_vector, 0,
	    (int)(sizeof(vectors) / sizeof(vectors[0])));
	tcase_add_loop_test(pc, test_pieces, 0, 4);
	tcase_add_test(pc, test_whole);
	suite_add_tcase(s, pc);
	return gen_run(s);
}
