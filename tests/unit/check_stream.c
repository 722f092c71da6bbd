/*
 * check_stream.c - chstk_scan_stream() (lib/stream.c and its readers): an
 * image read once, front to back, in pieces of any size, gives what
 * chstk_scan_mem() gives; what would need too much kept is refused before
 * it is read when the size is known, and once past the limit when it is
 * not; a read function that fails ends the scan.
 */
#include <check.h>
#include <stdio.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "chstk.h"
#include "elfgen.h"

/* A stream over buf in pieces of piece bytes, then zeros up to total. */
struct feed {
	const unsigned char *buf;
	size_t len, piece;
	uint64_t total, pos;
	int fail_at;		/* the call that fails, or 0 */
	int calls;
};

static ssize_t
feed(void *arg, void *out, size_t len)
{
	struct feed *f = arg;
	size_t n = len < f->piece ? len : f->piece;

	if (++f->calls == f->fail_at)
		return -1;
	if (n > f->total - f->pos)
		n = (size_t)(f->total - f->pos);
	if (f->pos < f->len) {
		if (n > f->len - f->pos)
			n = (size_t)(f->len - f->pos);
		memcpy(out, f->buf + f->pos, n);
	} else {
		memset(out, 0, n);
	}
	f->pos += n;
	return (ssize_t)n;
}

/* What a scan saw of its last image: its info, and the sections it
   pointed to (the pointer itself is the scan's: NULL here). */
struct seen {
	unsigned images, bad;
	struct chstk_info info;
	struct chstk_sections sect;
	char member[64];
};

static int
on_image(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct seen *s = arg;

	(void)err;
	s->images++;
	s->bad += info == NULL;
	if (info != NULL) {
		s->info = *info;
		s->info.sections = NULL;
		if (info->sections != NULL)
			s->sect = *info->sections;
	}
	snprintf(s->member, sizeof(s->member), "%s", member ? member : "");
	return 0;
}

/* A PIE whose dynamic section lies 8 MiB past its headers. */
START_TEST(far_dynamic_section)
{
	struct gen g = { 64, 0, ET_DYN, EM_X86_64 };
	size_t size = (8u << 20) + 4096;
	unsigned char *buf = calloc(1, size);
	struct gen_phdr ph[] = {
		{ PT_LOAD, PF_R, 0, 0, size, size, 4096 },
		{ PT_DYNAMIC, PF_R | PF_W, 8u << 20, 8u << 20, 32, 32, 8 },
	};
	struct seen mem = { 0 }, stream = { 0 };
	struct feed f = { buf, size, 4093, size, 0, 0, 0 };
	struct chstk_error err;

	ck_assert_ptr_nonnull(buf);
	gen_program(&g, buf, size, ph, 2);
	gen_put(&g, buf + (8u << 20), 8, DT_FLAGS_1);
	gen_put(&g, buf + (8u << 20) + 8, 8, DF_1_PIE);
	ck_assert_int_eq(chstk_scan_mem(buf, size, on_image, &mem, &err), 0);
	ck_assert_int_eq(chstk_scan_stream(feed, &f, size, on_image, &stream,
	    &err), 0);
	ck_assert(mem.info.pie);
	ck_assert_uint_eq(stream.images, 1);
	ck_assert_int_eq(memcmp(&mem.info, &stream.info, sizeof(mem.info)), 0);
	free(buf);
}
END_TEST

/* An object is kept whole: one over the limit is refused, before it is
   read when its size is known, once past the limit when it is not. */
START_TEST(object_over_the_limit)
{
	struct gen g = { 64, 0, ET_REL, EM_X86_64 };
	unsigned char obj[1024];
	size_t n = gen_object(&g, obj, 1, 0);
	uint64_t big = (uint64_t)CHSTK_STREAM_KEEP + 4096;
	struct feed known = { obj, n, 4096, big, 0, 0, 0 };
	struct feed unknown = { obj, n, 65536, big, 0, 0, 0 };
	struct seen s = { 0 };
	struct chstk_error err;

	ck_assert_int_eq(chstk_scan_stream(feed, &known, big, on_image, &s,
	    &err), CHSTK_ERR_NOMEM);
	ck_assert_str_eq(err.msg, "67112960 bytes to buffer, more than 67108864");
	ck_assert_uint_le(known.pos, 4096);
	ck_assert_int_eq(chstk_scan_stream(feed, &unknown, UINT64_MAX,
	    on_image, &s, &err), CHSTK_ERR_NOMEM);
	ck_assert_str_eq(err.msg, "more than 67108864 bytes to buffer");
	ck_assert_uint_eq(s.images, 0);
}
END_TEST

/* The same object, small, in pieces of one byte, sized or not. */
START_TEST(object_in_small_pieces)
{
	struct gen g = { 32, 1, ET_REL, EM_PPC };
	unsigned char obj[1024];
	size_t n = gen_object(&g, obj, 1, SHF_EXECINSTR);
	struct feed sized = { obj, n, 1, n, 0, 0, 0 };
	struct feed unsized = { obj, n, 1, n, 0, 0, 0 };
	struct seen mem = { 0 }, a = { 0 }, b = { 0 };
	struct chstk_error err;

	ck_assert_int_eq(chstk_scan_mem(obj, n, on_image, &mem, &err), 0);
	ck_assert_int_eq(mem.info.state, CHSTK_EXEC);
	ck_assert_int_eq(chstk_scan_stream(feed, &sized, n, on_image, &a,
	    &err), 0);
	ck_assert_int_eq(chstk_scan_stream(feed, &unsized, UINT64_MAX,
	    on_image, &b, &err), 0);
	ck_assert_int_eq(memcmp(&mem.info, &a.info, sizeof(mem.info)), 0);
	ck_assert_int_eq(memcmp(&mem.info, &b.info, sizeof(mem.info)), 0);
	ck_assert_int_eq(memcmp(&mem.sect, &a.sect, sizeof(mem.sect)), 0);
	ck_assert_int_eq(memcmp(&mem.sect, &b.sect, sizeof(mem.sect)), 0);
	ck_assert_uint_eq(mem.sect.count, 4);
}
END_TEST

START_TEST(a_failed_read_ends_the_scan)
{
	struct gen g = { 64, 0, ET_REL, EM_X86_64 };
	unsigned char obj[1024];
	size_t n = gen_object(&g, obj, 1, 0);
	struct feed f = { obj, n, 16, n, 0, 3, 0 };
	struct seen s = { 0 };
	struct chstk_error err;

	ck_assert_int_eq(chstk_scan_stream(feed, &f, n, on_image, &s, &err),
	    CHSTK_ERR_SYS);
	ck_assert_uint_eq(s.images, 0);
}
END_TEST

/* An ar archive with a long-name table, read member by member: the table
   comes back for the names after the members before them are gone. */
START_TEST(archive_with_long_names)
{
	static const char names[] = "a_member_name_longer_than_sixteen.o/\n";
	struct gen g = { 64, 0, ET_REL, EM_X86_64 };
	unsigned char obj[1024], ar[4096];
	size_t n = gen_object(&g, obj, 1, 0), len = 0;
	struct seen mem = { 0 }, stream = { 0 };
	struct feed f = { ar, 0, 5, 0, 0, 0, 0 };
	struct chstk_error err;

	memcpy(ar, "!<arch>\n", 8);
	len = 8;
	len += (size_t)sprintf((char *)ar + len, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n",
	    "//", "0", "0", "0", "644", sizeof(names) - 1);
	memcpy(ar + len, names, sizeof(names) - 1);
	len += sizeof(names) - 1;
	len += len & 1;
	len += (size_t)sprintf((char *)ar + len, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n",
	    "/0", "0", "0", "0", "644", n);
	memcpy(ar + len, obj, n);
	len += n;
	f.len = f.total = len;
	ck_assert_int_eq(chstk_scan_mem(ar, len, on_image, &mem, &err), 0);
	ck_assert_int_eq(chstk_scan_stream(feed, &f, len, on_image, &stream,
	    &err), 0);
	ck_assert_uint_eq(stream.images, 1);
	ck_assert_str_eq(stream.member, "a_member_name_longer_than_sixteen.o");
	ck_assert_str_eq(stream.member, mem.member);
	ck_assert_int_eq(memcmp(&mem.info, &stream.info, sizeof(mem.info)), 0);
	ck_assert_int_eq(memcmp(&mem.sect, &stream.sect, sizeof(mem.sect)), 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("stream");
	TCase *tc = tcase_create("stream");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, far_dynamic_section);
	tcase_add_test(tc, object_over_the_limit);
	tcase_add_test(tc, object_in_small_pieces);
	tcase_add_test(tc, a_failed_read_ends_the_scan);
	tcase_add_test(tc, archive_with_long_names);
	suite_add_tcase(s, tc);
	return gen_run(s);
}
