/*
 * check_archive.c - ar archives made byte by byte: members and their names
 * as the scanner reports them, a rewrite that moves members (the symbol
 * index must follow them), and the errors for broken archives.
 */
#include <check.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chstk.h"
#include "elfgen.h"

struct ar {
	unsigned char buf[16384];
	size_t len;
};

static void
ar_start(struct ar *a)
{
	memcpy(a->buf, "!<arch>\n", 8);
	a->len = 8;
}

/* Append a member with the name field as given (16 bytes, padded). */
static size_t
ar_add(struct ar *a, const char *name, const void *data, size_t size)
{
	size_t at = a->len;
	char h[61];

	snprintf(h, sizeof(h), "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0",
	    "0", "0", "644", size);
	memcpy(a->buf + a->len, h, 60);
	memcpy(a->buf + a->len + 60, data, size);
	a->len += 60 + size;
	if (a->len & 1)
		a->buf[a->len++] = '\n';
	return at;
}

/* A 32-bit big-endian symbol index naming members at offs. */
static void
index32(unsigned char *p, const size_t *offs, int n, const char *names,
    size_t names_len)
{
	int i;

	p[3] = (unsigned char)n;
	for (i = 0; i < n; i++) {
		p[4 + 4 * i + 2] = (unsigned char)(offs[i] >> 8);
		p[4 + 4 * i + 3] = (unsigned char)offs[i];
	}
	memcpy(p + 4 + 4 * n, names, names_len);
}

struct seen {
	int calls, errors;
	char names[256];
	enum chstk_state states[8];
};

static int
record(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct seen *s = arg;
	size_t len = strlen(s->names);

	(void)err;
	snprintf(s->names + len, sizeof(s->names) - len, "%s;", member);
	if (info != NULL)
		s->states[s->calls] = info->state;
	else
		s->errors++;
	s->calls++;
	return 0;
}

static const struct gen obj = { 64, 0, ET_REL, EM_X86_64 };

/* An archive: index, long names, an object with a long name and a note,
   a text file, an object without a note (to grow), a BSD-named object. */
static void
sample(struct ar *a, size_t *offs)
{
	static const char longnames[] = "a_very_long_member_name.o/\n";
	unsigned char o1[1024], o2[1024], idx[32] = { 0 };
	size_t n1 = gen_object(&obj, o1, 1, 0), n2 = gen_object(&obj, o2, 0, 0);
	char bsd[1100];

	ar_start(a);
	ar_add(a, "/", idx, sizeof(idx));
	ar_add(a, "//", longnames, sizeof(longnames) - 1);
	offs[0] = ar_add(a, "/0", o1, n1);
	ar_add(a, "README/", "text\n", 5);
	offs[1] = ar_add(a, "grow.o/", o2, n2);
	memcpy(bsd, "bsd.o", 5);
	memcpy(bsd + 5, o1, n1);
	offs[2] = ar_add(a, "#1/5", bsd, 5 + n1);
	index32(a->buf + 8 + 60, offs, 3, "f\0g\0h\0", 6);
}

START_TEST(reads_members_and_their_names)
{
	struct ar a;
	struct seen s = { 0 };
	size_t offs[3];

	sample(&a, offs);
	ck_assert_int_eq(chstk_scan_mem(a.buf, a.len, record, &s, NULL), 0);
	ck_assert_str_eq(s.names, "a_very_long_member_name.o;grow.o;bsd.o;");
	ck_assert_int_eq(s.calls, 3);
	ck_assert_int_eq(s.errors, 0);
	ck_assert_int_eq(s.states[0], CHSTK_NOEXEC);
	ck_assert_int_eq(s.states[1], CHSTK_DEFAULT);
}
END_TEST

/* Each index entry must point at the header of the member it pointed at. */
START_TEST(moves_the_index_with_the_members)
{
	struct ar a;
	size_t offs[3], size, i;
	int in, out;
	unsigned char *o;
	struct chstk_result res;
	struct chstk_error err;
	static const char *const want[] = { "/0", "grow.o/", "#1/5" };

	sample(&a, offs);
	in = gen_memfd(a.buf, a.len);
	out = gen_memfd(NULL, 0);
	ck_assert_int_eq(chstk_rewrite_fd(in, out, CHSTK_OP_SET_EXEC, &res,
	    &err), 1);
	ck_assert_uint_eq(res.images, 3);
	ck_assert_uint_eq(res.changed, 3);
	o = gen_slurp(out, &size);
	ck_assert_uint_gt(size, a.len);
	for (i = 0; i < 3; i++) {
		const unsigned char *e = o + 8 + 60 + 4 + 4 * i;
		size_t at = (size_t)e[2] << 8 | e[3];

		ck_assert_uint_lt(at + 60, size);
		ck_assert_int_eq(memcmp(o + at, want[i], strlen(want[i])), 0);
		ck_assert_int_eq(memcmp(o + at + 58, "`\n", 2), 0);
	}
	ck_assert_uint_eq(offs[0], (size_t)o[8 + 60 + 6] << 8 | o[8 + 60 + 7]);
	free(o);
	close(in);
	close(out);
}
END_TEST

static const struct broken {
	const char *what;
	size_t at;		/* where to write, or 0 to cut to len */
	const char *bytes;
	size_t len;
	int code;
	const char *msg;
} broken[] = {
	{ "bad terminator", 8 + 58, "xx", 2, CHSTK_ERR_CORRUPT,
	    "member at offset 8: bad header" },
	{ "size not a number", 8 + 48, "12ab      ", 10, CHSTK_ERR_CORRUPT,
	    "member at offset 8: bad header" },
	{ "size past the end", 8 + 48, "9999999   ", 10, CHSTK_ERR_TRUNCATED,
	    "member at offset 8 runs past the end of the file" },
	{ "long name past the table", 0, NULL, 0, CHSTK_ERR_CORRUPT, NULL },
	{ "cut in a header", 0, NULL, 120, CHSTK_ERR_TRUNCATED,
	    "archive member header runs past the end of the file" },
	{ "thin", 0, "!<thin>\n", 8, CHSTK_ERR_UNSUPPORTED,
	    "thin archive: its members are separate files" },
};

START_TEST(refuses_broken_archives)
{
	const struct broken *b = &broken[_i];
	struct ar a;
	size_t offs[3], len;
	struct seen s = { 0 };
	struct chstk_error err;
	char msg[128];

	sample(&a, offs);
	len = a.len;
	if (b->msg != NULL)
		snprintf(msg, sizeof(msg), "%s", b->msg);
	else
		snprintf(msg, sizeof(msg),
		    "member at offset %zu: bad long name reference", offs[0]);
	if (b->bytes != NULL)
		memcpy(a.buf + b->at, b->bytes, b->len);
	else if (b->len != 0)
		len = b->len;
	else
		memcpy(a.buf + offs[0], "/99 ", 4);
	ck_assert_int_eq(chstk_scan_mem(a.buf, len, record, &s, &err),
	    b->code);
	ck_assert_str_eq(err.msg, msg);
}
END_TEST

START_TEST(reports_a_broken_member_and_goes_on)
{
	struct ar a;
	unsigned char o[1024];
	size_t n = gen_object(&obj, o, 1, 0);
	struct seen s = { 0 };

	ar_start(&a);
	ar_add(&a, "bad.o/", o, 40);
	ar_add(&a, "good.o/", o, n);
	ck_assert_int_eq(chstk_scan_mem(a.buf, a.len, record, &s, NULL), 0);
	ck_assert_int_eq(s.calls, 2);
	ck_assert_int_eq(s.errors, 1);
	ck_assert_str_eq(s.names, "bad.o;good.o;");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("archive");
	TCase *tc = tcase_create("archive");

	tcase_add_test(tc, reads_members_and_their_names);
	tcase_add_test(tc, moves_the_index_with_the_members);
	tcase_add_loop_test(tc, refuses_broken_archives, 0,
	    sizeof(broken) / sizeof(broken[0]));
	tcase_add_test(tc, reports_a_broken_member_and_goes_on);
	suite_add_tcase(s, tc);
	return gen_run(s);
}
