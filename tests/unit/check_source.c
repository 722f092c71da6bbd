/*
 * check_source.c - files read through the block cache (lib/source.c):
 * chstk_scan_fd() and chstk_scan_fd_with() given a head must report what
 * chstk_scan_mem(), which reads no file, reports for the same bytes,
 * wherever the headers lie against the cache's blocks and however much of
 * the head the caller lends; and the head lent is what is read.
 */
#include <check.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chstk.h"
#include "elfgen.h"

#define MAX_IMAGES 64

struct seen {
	int calls, errors;
	char names[2048];
	struct chstk_info info[MAX_IMAGES];
};

static int
record(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct seen *s = arg;
	size_t len = strlen(s->names);

	snprintf(s->names + len, sizeof(s->names) - len, "%s:%s;",
	    member ? member : "", info ? chstk_state_name(info->state) :
	    err->msg);
	if (info == NULL)
		s->errors++;
	else if (s->calls < MAX_IMAGES)
		s->info[s->calls] = *info;
	s->calls++;
	return 0;
}

/* Scan buf from memory, then from a file lent head bytes of it, whose
   size the library asks first or, regular, only when it must: all must
   return and report alike. Returns how many images were reported. */
static int
same_as_memory_as(const unsigned char *buf, size_t size, size_t head,
    bool regular)
{
	struct seen *m = calloc(1, sizeof(*m)), *f = calloc(1, sizeof(*f));
	struct chstk_error err;
	int rm, rf, fd, i;

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(f);
	rm = chstk_scan_mem(buf, size, record, m, &err);
	fd = gen_memfd(buf, size);
	rf = chstk_scan_fd_with(fd, &(struct chstk_scan_opts){ .head = buf,
	    .head_len = head < size ? head : size, .regular = regular },
	    record, f, &err);
	close(fd);
	ck_assert_int_eq(rf, rm);
	ck_assert_str_eq(f->names, m->names);
	ck_assert_int_eq(f->calls, m->calls);
	for (i = 0; i < m->calls && i < MAX_IMAGES; i++) {
		ck_assert_int_eq(f->info[i].state, m->info[i].state);
		ck_assert_int_eq(f->info[i].kind, m->info[i].kind);
		ck_assert_uint_eq(f->info[i].loads, m->info[i].loads);
		ck_assert_uint_eq(f->info[i].mark_offset, m->info[i].mark_offset);
		ck_assert_uint_eq(f->info[i].wx, m->info[i].wx);
	}
	i = m->calls;
	free(m);
	free(f);
	return i;
}

static int
same_as_memory(const unsigned char *buf, size_t size, size_t head)
{
	int n = same_as_memory_as(buf, size, head, false);

	ck_assert_int_eq(same_as_memory_as(buf, size, head, true), n);
	return n;
}

static const struct gen le64 = { 64, 0, ET_DYN, EM_X86_64 };
static const struct gen be32 = { 32, 1, ET_EXEC, EM_PPC };

/* Heads a caller may lend: none, less than the ELF header, some, a block. */
static const size_t heads[] = { 0, 8, 100, 4096 };

/*
 * A program of size bytes whose program headers lie at phoff, the last of
 * them PT_GNU_STACK with flags: the headers are moved there from where
 * gen_program() puts them, and e_phoff with them.
 */
static void
program_at(const struct gen *g, unsigned char *buf, size_t size,
    uint64_t phoff, uint32_t flags)
{
	struct gen_phdr ph[3] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0x400000, 0x800, 0x800, 0x1000 },
		{ PT_DYNAMIC, PF_R | PF_W, 0x1000, 0x401000, 0x20, 0x20, 8 },
		{ PT_GNU_STACK, flags, 0, 0, 0, 0, 16 },
	};
	size_t eh = gen_ehsize(g), len = 3 * gen_phentsize(g);
	unsigned char table[3 * 56];

	gen_program(g, buf, size, ph, 3);
	memcpy(table, buf + eh, len);
	memset(buf + eh, 0, len);
	memcpy(buf + phoff, table, len);
	if (g->bits == 64)
		gen_put(g, buf + 0x20, 8, phoff);
	else
		gen_put(g, buf + 0x1c, 4, phoff);
}

/* Program headers inside the first block, straddling its end, inside the
   second, straddling the second's, and in a block read after others. */
static const uint64_t phoffs[] = { 0, 4096 - 60, 4096 + 200, 8192 - 8,
    20000 };

START_TEST(reads_program_headers_wherever_they_lie)
{
	const struct gen *g = _i & 1 ? &be32 : &le64;
	uint64_t phoff = phoffs[_i / 2 % 5];
	size_t h = heads[_i / 10], size = 24576;
	unsigned char *buf = malloc(size);

	ck_assert_ptr_nonnull(buf);
	if (phoff == 0)
		phoff = gen_ehsize(g);
	program_at(g, buf, size, phoff, PF_R | PF_W | (_i & 2 ? PF_X : 0));
	ck_assert_int_eq(same_as_memory(buf, size, h), 1);
	/* Cut off inside the program headers: the same error as in memory. */
	ck_assert_int_eq(same_as_memory(buf, (size_t)phoff + 20, h), 0);
	/* Cut off inside the dynamic section: the same kind as in memory. */
	if (phoff + 3 * gen_phentsize(g) <= 0x1000)
		ck_assert_int_eq(same_as_memory(buf, 0x1000 + 8, h), 1);
	free(buf);
}
END_TEST

/* Appends a member of size bytes to an archive of *len bytes. */
static void
ar_add(unsigned char *a, size_t *len, const char *name, const void *data,
    size_t size)
{
	char h[61];

	snprintf(h, sizeof(h), "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0",
	    "0", "0", "644", size);
	memcpy(a + *len, h, 60);
	memcpy(a + *len + 60, data, size);
	*len += 60 + size;
	if (*len & 1)
		a[(*len)++] = '\n';
}

/*
 * Forty objects with notes of each state, some padded with text members
 * of odd sizes so that headers and section tables fall across block ends,
 * and one larger than the run of small members the cache reads at once:
 * more blocks than the cache keeps, read front to back and back again for
 * each member's names. Cut off inside a member, the same error as in
 * memory.
 */
START_TEST(reads_every_member_of_a_long_archive)
{
	static const struct gen obj = { 64, 0, ET_REL, EM_X86_64 };
	static const struct gen obj32 = { 32, 1, ET_REL, EM_PPC };
	unsigned char *a = malloc(131072), o[1024];
	static unsigned char pad[21000];
	size_t len = 8, n;
	char name[17];
	int i;

	ck_assert_ptr_nonnull(a);
	memcpy(a, "!<arch>\n", 8);
	memset(pad, 'x', sizeof(pad));
	for (i = 0; i < 40; i++) {
		n = gen_object(i % 3 ? &obj : &obj32, o, i % 4 != 3,
		    i % 2 ? SHF_EXECINSTR : 0);
		snprintf(name, sizeof(name), "m%d.o/", i);
		ar_add(a, &len, name, o, n);
		if (i % 5 == _i)
			ar_add(a, &len, "pad/", pad, 1000 + 333 * (size_t)i % 2000);
		if (i == 20 + _i)
			ar_add(a, &len, "big/", pad, 16000 + 1001 * (size_t)_i);
	}
	ck_assert_uint_lt(len, 131072);
	ck_assert_int_eq(same_as_memory(a, len, heads[_i % 4]), 40);
	same_as_memory(a, len - 333, heads[_i % 4]);
	free(a);
}
END_TEST

/*
 * Members named from the long-name table, one small enough to be read
 * whole once (_i 0) and one that is not (_i 1), the names at its start
 * and its end: the same names as in memory.
 */
START_TEST(reads_long_names_from_either_table)
{
	static const struct gen obj = { 64, 0, ET_REL, EM_X86_64 };
	size_t tsize = _i ? 5000 : 3000, len = 8, n;
	unsigned char *a = malloc(65536), o[1024];
	char *table = malloc(tsize), ref[17];
	size_t at[2] = { 0, tsize - 40 };
	struct seen *seen = calloc(1, sizeof(*seen));
	struct chstk_error err;
	int i, fd;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(table);
	memcpy(a, "!<arch>\n", 8);
	memset(table, '\n', tsize);
	for (i = 0; i < 2; i++)
		memcpy(table + at[i], i ? "the_last_long_member_name.o/" :
		    "the_first_long_member_name.o/", 28 + (i == 0));
	ar_add(a, &len, "//", table, tsize);
	for (i = 0; i < 4; i++) {
		n = gen_object(&obj, o, true, 0);
		snprintf(ref, sizeof(ref), "/%zu", at[i % 2]);
		ar_add(a, &len, ref, o, n);
	}
	ck_assert_int_eq(same_as_memory(a, len, 4096), 4);
	fd = gen_memfd(a, len);
	ck_assert_int_eq(chstk_scan_fd_with(fd, &(struct chstk_scan_opts){
	    .regular = true }, record, seen, &err), 0);
	close(fd);
	ck_assert_str_eq(seen->names, "the_first_long_member_name.o:noexec;"
	    "the_last_long_member_name.o:noexec;"
	    "the_first_long_member_name.o:noexec;"
	    "the_last_long_member_name.o:noexec;");
	free(seen);
	free(table);
	free(a);
}
END_TEST

/* The head lent is what the library reads, not the file's bytes again:
   here it says exec where the file says noexec. */
START_TEST(takes_the_head_it_is_lent)
{
	unsigned char file[8192], head[4096];
	struct chstk_error err;
	struct seen *s = calloc(1, sizeof(*s));
	int fd;

	ck_assert_ptr_nonnull(s);
	program_at(&le64, file, sizeof(file), 64, PF_R | PF_W);
	memcpy(head, file, sizeof(head));
	program_at(&le64, head, sizeof(head), 64, PF_R | PF_W | PF_X);
	fd = gen_memfd(file, sizeof(file));
	ck_assert_int_eq(chstk_scan_fd_with(fd, &(struct chstk_scan_opts){
	    .head = head, .head_len = sizeof(head) }, record, s, &err), 0);
	ck_assert_int_eq(s->info[0].state, CHSTK_EXEC);
	memset(s, 0, sizeof(*s));
	ck_assert_int_eq(chstk_scan_fd(fd, record, s, &err), 0);
	ck_assert_int_eq(s->info[0].state, CHSTK_NOEXEC);
	ck_assert_int_eq(chstk_scan_fd_with(fd, &(struct chstk_scan_opts){
	    .head_len = 8 }, record, s, &err), CHSTK_ERR_INVAL);
	close(fd);
	free(s);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("source");
	TCase *tc = tcase_create("cache");

	tcase_add_loop_test(tc, reads_program_headers_wherever_they_lie, 0,
	    40);
	tcase_add_loop_test(tc, reads_every_member_of_a_long_archive, 0, 5);
	tcase_add_loop_test(tc, reads_long_names_from_either_table, 0, 2);
	tcase_add_test(tc, takes_the_head_it_is_lent);
	suite_add_tcase(s, tc);
	return gen_run(s);
}
