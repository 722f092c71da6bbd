/*
 * check_rewrite.c - the rewrite of programs (phdr.c) and objects
 * (object.c) through chstk_rewrite_fd(), in both byte orders, read back
 * with elfgen's reader, which shares no code with the library.
 */
#include <check.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chstk.h"
#include "elfgen.h"

static const struct gen gens[] = {
	{ 64, 0, ET_EXEC, EM_X86_64 },
	{ 32, 1, ET_EXEC, EM_PPC },
	{ 64, 1, ET_DYN, EM_S390 },
	{ 32, 0, ET_DYN, EM_386 },
};

/* Rewrite buf with op; returns the output (owned) and its size. */
static unsigned char *
rewrite(const unsigned char *buf, size_t size, enum chstk_op op, int want_r,
    size_t *out_size, struct chstk_error *err)
{
	int in = gen_memfd(buf, size), out = gen_memfd(NULL, 0);
	struct chstk_result res;
	unsigned char *o;

	ck_assert_int_ge(in, 0);
	ck_assert_int_ge(out, 0);
	ck_assert_int_eq(chstk_rewrite_fd(in, out, op, &res, err), want_r);
	o = gen_slurp(out, out_size);
	close(in);
	close(out);
	return o;
}

static int
count_type(const struct gen_phdr *ph, size_t n, uint32_t type)
{
	size_t i;
	int c = 0;

	for (i = 0; i < n; i++)
		c += ph[i].type == type;
	return c;
}

static const struct gen_phdr *
find(const struct gen_phdr *ph, size_t n, uint32_t type)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ph[i].type == type)
			return &ph[i];
	return NULL;
}

/* Only the bytes in [off, off + len) may differ. */
static void
same_except(const unsigned char *a, const unsigned char *b, size_t size,
    size_t off, size_t len)
{
	size_t i;

	for (i = 0; i < size; i++)
		if (i < off || i >= off + len)
			ck_assert_msg(a[i] == b[i], "byte %zu changed", i);
}

START_TEST(flips_pf_x_and_nothing_else)
{
	const struct gen *g = &gens[_i];
	struct gen_phdr ph[2] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0x10000, 0x400, 0x400, 0x1000 },
		{ PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 16 },
	}, back[4];
	unsigned char buf[0x400], *out;
	size_t size, n, at = gen_ehsize(g) + gen_phentsize(g);
	uint64_t phoff;

	gen_program(g, buf, sizeof(buf), ph, 2);
	out = rewrite(buf, sizeof(buf), CHSTK_OP_SET_EXEC, 1, &size, NULL);
	ck_assert_uint_eq(size, sizeof(buf));
	n = gen_read_phdrs(g, out, size, back, 4, &phoff);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(back[1].flags, PF_R | PF_W | PF_X);
	same_except(buf, out, size, at + (g->bits == 64 ? 4 : 24), 4);
	free(out);
	out = rewrite(buf, sizeof(buf), CHSTK_OP_SET_NOEXEC, 0, &size, NULL);
	ck_assert_uint_eq(size, 0);
	free(out);
}
END_TEST

START_TEST(default_turns_the_entry_into_pt_null)
{
	const struct gen *g = &gens[_i];
	struct gen_phdr ph[2] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0x10000, 0x400, 0x400, 0x1000 },
		{ PT_GNU_STACK, PF_R | PF_W | PF_X, 0, 0, 0, 0, 16 },
	}, back[4];
	unsigned char buf[0x400], *out;
	size_t size, n;
	uint64_t phoff;

	gen_program(g, buf, sizeof(buf), ph, 2);
	out = rewrite(buf, sizeof(buf), CHSTK_OP_CLEAR_EXEC, 1, &size, NULL);
	n = gen_read_phdrs(g, out, size, back, 4, &phoff);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(count_type(back, n, PT_GNU_STACK), 0);
	ck_assert_uint_eq(back[1].type, PT_NULL);
	ck_assert_uint_eq(back[1].flags | back[1].align, 0);
	free(out);
}
END_TEST

START_TEST(reuses_a_pt_null_slot)
{
	const struct gen *g = &gens[_i];
	struct gen_phdr ph[3] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0x10000, 0x400, 0x400, 0x1000 },
		{ PT_NULL, 0, 0, 0, 0, 0, 0 },
		{ PT_NOTE, PF_R, 0x200, 0x10200, 0x10, 0x10, 4 },
	}, back[4];
	unsigned char buf[0x400], *out;
	size_t size, n;
	uint64_t phoff;

	gen_program(g, buf, sizeof(buf), ph, 3);
	out = rewrite(buf, sizeof(buf), CHSTK_OP_SET_NOEXEC, 1, &size, NULL);
	ck_assert_uint_eq(size, sizeof(buf));
	n = gen_read_phdrs(g, out, size, back, 4, &phoff);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(phoff, gen_ehsize(g));
	ck_assert_uint_eq(back[1].type, PT_GNU_STACK);
	ck_assert_uint_eq(back[1].flags, PF_R | PF_W);
	ck_assert_uint_eq(back[2].type, PT_NOTE);
	free(out);
}
END_TEST

/*
 * PT_PHDR, then a text segment ending at 0x200 with zero padding up to the
 * data segment at offset 0x1000: the table moves into the padding and the
 * text segment grows over it. With fill, the padding is not zero (not
 * free), and the table goes to the end of the file with a new PT_LOAD.
 */
static size_t
padded_program(const struct gen *g, unsigned char *buf, int fill)
{
	size_t es = gen_phentsize(g);
	struct gen_phdr ph[3] = {
		{ PT_PHDR, PF_R, gen_ehsize(g), 0x10000 + gen_ehsize(g),
		    3 * es, 3 * es, 8 },
		{ PT_LOAD, PF_R | PF_X, 0, 0x10000, 0x200, 0x200, 0x1000 },
		{ PT_LOAD, PF_R | PF_W, 0x1000, 0x11000, 0x80, 0x2000, 0x1000 },
	};

	gen_program(g, buf, 0x1080, ph, 3);
	if (fill)
		memset(buf + 0x200, 0xcc, 0xe00);
	return 0x1080;
}

START_TEST(grows_the_table_into_padding)
{
	const struct gen *g = &gens[_i];
	size_t es = gen_phentsize(g), size, n;
	unsigned char buf[0x1080], *out;
	struct gen_phdr back[8];
	const struct gen_phdr *p;
	uint64_t phoff;

	padded_program(g, buf, 0);
	out = rewrite(buf, sizeof(buf), CHSTK_OP_SET_NOEXEC, 1, &size, NULL);
	ck_assert_uint_eq(size, sizeof(buf));
	n = gen_read_phdrs(g, out, size, back, 8, &phoff);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(phoff, 0x200);
	ck_assert_uint_eq(back[0].type, PT_PHDR);
	ck_assert_uint_eq(back[0].offset, 0x200);
	ck_assert_uint_eq(back[0].vaddr, 0x10200);
	ck_assert_uint_eq(back[0].filesz, 4 * es);
	ck_assert_uint_eq(back[1].filesz, 0x200 + 4 * es);
	ck_assert_uint_eq(back[1].memsz, 0x200 + 4 * es);
	ck_assert_uint_eq(back[2].offset, 0x1000);
	p = find(back, n, PT_GNU_STACK);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->flags, PF_R | PF_W);
	same_except(buf, out, 0x200, 0, gen_ehsize(g));
	free(out);
}
END_TEST

START_TEST(appends_the_table_with_a_new_load)
{
	const struct gen *g = &gens[_i];
	size_t es = gen_phentsize(g), size, n;
	unsigned char buf[0x1080], *out;
	struct gen_phdr back[8];
	uint64_t phoff;

	padded_program(g, buf, 1);
	out = rewrite(buf, sizeof(buf), CHSTK_OP_SET_EXEC, 1, &size, NULL);
	n = gen_read_phdrs(g, out, size, back, 8, &phoff);
	ck_assert_uint_eq(n, 5);
	ck_assert_uint_eq(phoff, 0x1080);
	ck_assert_uint_eq(size, 0x1080 + 5 * es);
	ck_assert_uint_eq(back[0].type, PT_PHDR);
	ck_assert_uint_eq(back[0].offset, 0x1080);
	/* The new PT_LOAD follows the others, above the data's .bss, with
	   its address congruent to its offset. */
	ck_assert_uint_eq(back[3].type, PT_LOAD);
	ck_assert_uint_eq(back[3].offset, 0x1080);
	ck_assert_uint_eq(back[3].vaddr, 0x13080);
	ck_assert_uint_eq(back[3].flags, PF_R);
	ck_assert_uint_eq(back[3].filesz, 5 * es);
	ck_assert_uint_eq(back[0].vaddr, back[3].vaddr);
	ck_assert_uint_eq(back[4].type, PT_GNU_STACK);
	ck_assert_uint_eq(back[4].flags, PF_R | PF_W | PF_X);
	same_except(buf, out, sizeof(buf), 0, gen_ehsize(g));
	free(out);
}
END_TEST

START_TEST(refuses_a_program_table_bigger_than_a_page)
{
	struct gen_phdr ph[73];
	const struct gen *g = &gens[0];
	struct chstk_error err;
	unsigned char *buf = calloc(1, 0x3000), *out;
	size_t i, size;

	ph[0] = (struct gen_phdr){ PT_LOAD, PF_R | PF_X, 0, 0x10000, 0x3000,
	    0x3000, 0x1000 };
	for (i = 1; i < 73; i++)
		ph[i] = (struct gen_phdr){ PT_NOTE, PF_R, 0x2000, 0x12000, 4,
		    4, 4 };
	gen_program(g, buf, 0x3000, ph, 73);
	out = rewrite(buf, 0x3000, CHSTK_OP_SET_NOEXEC, CHSTK_ERR_UNSUPPORTED,
	    &size, &err);
	ck_assert_str_eq(err.msg, "program header table would exceed 4096 "
	    "bytes, more than the kernel loads");
	free(out);
	free(buf);
}
END_TEST

START_TEST(refuses_core_files)
{
	struct gen g = gens[_i];
	struct gen_phdr ph = { PT_LOAD, PF_R, 0, 0, 0x100, 0x100, 0x1000 };
	unsigned char buf[0x100], *out;
	struct chstk_error err;
	size_t size;

	g.type = ET_CORE;
	gen_program(&g, buf, sizeof(buf), &ph, 1);
	out = rewrite(buf, sizeof(buf), CHSTK_OP_SET_NOEXEC,
	    CHSTK_ERR_UNSUPPORTED, &size, &err);
	ck_assert_str_eq(err.msg, "cannot mark a core file");
	free(out);
}
END_TEST

START_TEST(objects_gain_flip_and_lose_the_note)
{
	struct gen g = gens[_i];
	unsigned char buf[1024], *out, *out2;
	size_t n, size, size2, count;

	g.type = ET_REL;
	n = gen_object(&g, buf, 0, 0);
	ck_assert_int_eq(gen_section_flags(&g, buf, n, ".note.GNU-stack",
	    &count), -1);
	out = rewrite(buf, n, CHSTK_OP_SET_NOEXEC, 1, &size, NULL);
	ck_assert_int_eq(gen_section_flags(&g, out, size, ".note.GNU-stack",
	    &count), 0);
	ck_assert_uint_eq(count, 5);
	ck_assert_int_eq(gen_section_flags(&g, out, size, ".text", &count),
	    SHF_ALLOC | SHF_EXECINSTR);
	out2 = rewrite(out, size, CHSTK_OP_SET_EXEC, 1, &size2, NULL);
	ck_assert_uint_eq(size2, size);
	ck_assert_int_eq(gen_section_flags(&g, out2, size2, ".note.GNU-stack",
	    &count), SHF_EXECINSTR);
	free(out);
	out = rewrite(out2, size2, CHSTK_OP_CLEAR_EXEC, 1, &size, NULL);
	ck_assert_int_eq(gen_section_flags(&g, out, size, ".note.GNU-stack",
	    &count), -1);
	ck_assert_uint_eq(count, 4);
	free(out);
	free(out2);
}
END_TEST

START_TEST(keeps_a_note_a_symbol_names)
{
	struct gen g = gens[_i];
	unsigned char buf[1024], *out;
	struct chstk_error err;
	size_t n, size;

	g.type = ET_REL;
	n = gen_object(&g, buf, 2, 0);
	out = rewrite(buf, n, CHSTK_OP_SET_DEFAULT, CHSTK_ERR_UNSUPPORTED,
	    &size, &err);
	ck_assert_str_eq(err.msg,
	    "cannot remove .note.GNU-stack: symbol 1 refers to it");
	free(out);
}
END_TEST

START_TEST(refuses_signed_kernel_modules)
{
	static const char sig[] = "~Module signature appended~\n";
	struct gen g = gens[0];
	unsigned char buf[1024 + sizeof(sig)], *out;
	struct chstk_error err;
	size_t n, size;

	g.type = ET_REL;
	n = gen_object(&g, buf, 1, 0);
	memcpy(buf + n, sig, sizeof(sig) - 1);
	out = rewrite(buf, n + sizeof(sig) - 1, CHSTK_OP_SET_EXEC,
	    CHSTK_ERR_UNSUPPORTED, &size, &err);
	ck_assert_str_eq(err.msg,
	    "signed kernel module: a change would void the signature");
	free(out);
}
END_TEST

START_TEST(refuses_unknown_operations)
{
	unsigned char buf[1024], *out;
	struct gen g = gens[0];
	struct chstk_error err;
	size_t size, n;

	g.type = ET_REL;
	n = gen_object(&g, buf, 1, 0);
	out = rewrite(buf, n, (enum chstk_op)42, CHSTK_ERR_INVAL, &size, &err);
	ck_assert_str_eq(err.msg, "unknown operation");
	free(out);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rewrite");
	TCase *p = tcase_create("programs"), *o = tcase_create("objects");
	int n = sizeof(gens) / sizeof(gens[0]);

	tcase_add_loop_test(p, flips_pf_x_and_nothing_else, 0, n);
	tcase_add_loop_test(p, default_turns_the_entry_into_pt_null, 0, n);
	tcase_add_loop_test(p, reuses_a_pt_null_slot, 0, n);
	tcase_add_loop_test(p, grows_the_table_into_padding, 0, n);
	tcase_add_loop_test(p, appends_the_table_with_a_new_load, 0, n);
	tcase_add_test(p, refuses_a_program_table_bigger_than_a_page);
	tcase_add_loop_test(p, refuses_core_files, 0, n);
	tcase_add_loop_test(o, objects_gain_flip_and_lose_the_note, 0, n);
	tcase_add_loop_test(o, keeps_a_note_a_symbol_names, 0, n);
	tcase_add_test(o, refuses_signed_kernel_modules);
	tcase_add_test(o, refuses_unknown_operations);
	suite_add_tcase(s, p);
	suite_add_tcase(s, o);
	return gen_run(s);
}
