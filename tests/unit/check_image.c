/*
 * check_image.c - reading: what chstk_scan_mem() reports for images made
 * byte by byte, and the error it gives for each kind of malformed header.
 */
#include <check.h>
#include <elf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chstk.h"
#include "elfgen.h"

struct seen {
	int calls;
	struct chstk_info info;	/* info.hardening and .sections: lent, gone */
	int64_t guard_reads;	/* info.hardening's, kept */
	char member[64];
};

static int
record(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct seen *s = arg;

	(void)err;
	s->calls++;
	if (info != NULL)
		s->info = *info;
	if (info != NULL && info->hardening != NULL)
		s->guard_reads = info->hardening->guard_reads;
	snprintf(s->member, sizeof(s->member), "%s", member ? member : "");
	return 0;
}

static const struct gen le64 = { 64, 0, ET_EXEC, EM_X86_64 };
static const struct gen be32 = { 32, 1, ET_EXEC, EM_PPC };

/* A two-segment program with the given PT_GNU_STACK flags (or none). */
static size_t
program(const struct gen *g, unsigned char *buf, int stack, uint32_t flags)
{
	struct gen_phdr ph[3] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0x400000, 0x800, 0x800, 0x1000 },
		{ PT_LOAD, PF_R | PF_W, 0x1000, 0x401000, 0x100, 0x300, 0x1000 },
		{ PT_GNU_STACK, flags, 0, 0, 0, 0, 16 },
	};

	gen_program(g, buf, 0x1100, ph, stack ? 3 : 2);
	return 0x1100;
}

static int
scan(const unsigned char *buf, size_t size, struct seen *s,
    struct chstk_error *err)
{
	memset(s, 0, sizeof(*s));
	return chstk_scan_mem(buf, size, record, s, err);
}

START_TEST(reads_each_state_in_each_byte_order)
{
	const struct gen *g = _i ? &be32 : &le64;
	unsigned char buf[0x1100];
	struct chstk_error err;
	struct seen s;

	program(g, buf, 1, PF_R | PF_W);
	ck_assert_int_eq(scan(buf, sizeof(buf), &s, &err), 0);
	ck_assert_int_eq(s.calls, 1);
	ck_assert_int_eq(s.info.state, CHSTK_NOEXEC);
	ck_assert_uint_eq(s.info.elf_class, g->bits == 64 ? ELFCLASS64 :
	    ELFCLASS32);
	ck_assert_uint_eq(s.info.data, g->big ? ELFDATA2MSB : ELFDATA2LSB);
	ck_assert_uint_eq(s.info.machine, g->machine);
	ck_assert_int_eq(s.info.kind, CHSTK_KIND_PROGRAM);
	ck_assert_uint_eq(s.info.loads, 2);
	ck_assert_uint_eq(s.info.exec_limit, 0x4007ff);
	program(g, buf, 1, PF_R | PF_W | PF_X);
	scan(buf, sizeof(buf), &s, &err);
	ck_assert_int_eq(s.info.state, CHSTK_EXEC);
	program(g, buf, 0, 0);
	scan(buf, sizeof(buf), &s, &err);
	ck_assert_int_eq(s.info.state, CHSTK_DEFAULT);
}
END_TEST

START_TEST(last_pt_gnu_stack_wins_as_in_the_kernel)
{
	struct gen_phdr ph[3] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0x400000, 0x200, 0x200, 0x1000 },
		{ PT_GNU_STACK, PF_R | PF_W | PF_X, 0, 0, 0, 0, 16 },
		{ PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 16 },
	};
	unsigned char buf[0x200];
	struct seen s;

	gen_program(&le64, buf, sizeof(buf), ph, 3);
	ck_assert_int_eq(scan(buf, sizeof(buf), &s, NULL), 0);
	ck_assert_int_eq(s.info.state, CHSTK_NOEXEC);
}
END_TEST

START_TEST(counts_writable_executable_segments)
{
	struct gen_phdr ph[2] = {
		{ PT_LOAD, PF_R | PF_W | PF_X, 0, 0x400000, 0x100, 0x100, 0x1000 },
		{ PT_LOAD, PF_R | PF_W | PF_X, 0, 0x500000, 0x100, 0x100, 0x1000 },
	};
	unsigned char buf[0x200];
	struct seen s;

	gen_program(&le64, buf, sizeof(buf), ph, 2);
	scan(buf, sizeof(buf), &s, NULL);
	ck_assert_uint_eq(s.info.wx, 2);
	ck_assert_uint_eq(s.info.exec_limit, 0x5000ff);
}
END_TEST

START_TEST(tells_programs_from_shared_objects)
{
	struct gen g = le64;
	struct gen_phdr ph[2] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0, 0x200, 0x200, 0x1000 },
		{ PT_INTERP, PF_R, 0x100, 0x100, 0x10, 0x10, 1 },
	};
	unsigned char buf[0x200];
	struct seen s;

	g.type = ET_DYN;
	gen_program(&g, buf, sizeof(buf), ph, 1);
	scan(buf, sizeof(buf), &s, NULL);
	ck_assert_int_eq(s.info.kind, CHSTK_KIND_SHARED);
	gen_program(&g, buf, sizeof(buf), ph, 2);
	scan(buf, sizeof(buf), &s, NULL);
	ck_assert_int_eq(s.info.kind, CHSTK_KIND_PROGRAM);
	ck_assert(s.info.pie && s.info.interp);
}
END_TEST

/* Segments or a section header table past the end: cut; a program
   whose code has no bytes in the file: no exec_in_file. */
START_TEST(tells_a_file_cut_short)
{
	unsigned char buf[0x1100];
	struct gen_phdr ph[1] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0x400000, 0, 0x800, 0x1000 },
	};
	struct seen s;
	size_t size = program(&le64, buf, 1, PF_R | PF_W);

	scan(buf, size, &s, NULL);
	ck_assert(!s.info.cut && s.info.exec_in_file);
	scan(buf, size - 1, &s, NULL);
	ck_assert_int_eq(s.calls, 1);
	ck_assert(s.info.cut);
	/* A section header table said to lie past the end. */
	gen_put(&le64, buf + 40, 8, size - 8);
	gen_put(&le64, buf + 58, 2, 64);
	gen_put(&le64, buf + 60, 2, 2);
	scan(buf, size, &s, NULL);
	ck_assert(s.info.cut);
	gen_put(&le64, buf + 40, 8, 0);
	gen_program(&le64, buf, sizeof(buf), ph, 1);
	scan(buf, sizeof(buf), &s, NULL);
	ck_assert(!s.info.cut && !s.info.exec_in_file && s.info.has_exec_code);
}
END_TEST

/* The OS of an NT_GNU_ABI_TAG note, in both byte orders. */
START_TEST(reads_the_abi_tag)
{
	const struct gen *g = _i ? &be32 : &le64;
	struct gen_phdr ph[2] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0x400000, 0x300, 0x300, 0x1000 },
		{ PT_NOTE, PF_R, 0x200, 0x400200, 48, 48, 4 },
	};
	unsigned char buf[0x300];
	unsigned char *n = buf + 0x200;
	struct seen s;

	gen_program(g, buf, sizeof(buf), ph, 1);
	scan(buf, sizeof(buf), &s, NULL);
	ck_assert_int_eq(s.info.abi_tag, -1);
	gen_program(g, buf, sizeof(buf), ph, 2);
	/* An unrelated note first, then the tag: FreeBSD (3), 13.0.0. */
	gen_put(g, n, 4, 4);
	gen_put(g, n + 4, 4, 4);
	gen_put(g, n + 8, 4, 3);
	memcpy(n + 12, "GNU", 4);
	gen_put(g, n + 20, 4, 4);
	gen_put(g, n + 24, 4, 16);
	gen_put(g, n + 28, 4, 1);
	memcpy(n + 32, "GNU", 4);
	gen_put(g, n + 36, 4, 3);
	gen_put(g, n + 40, 4, 13);
	scan(buf, sizeof(buf), &s, NULL);
	ck_assert_int_eq(s.info.abi_tag, -1);	/* the note runs past 48 */
	gen_put(g, buf + (g->bits == 64 ? 64 + 56 + 32 : 52 + 32 + 16),
	    g->bits == 64 ? 8 : 4, 52);
	scan(buf, sizeof(buf), &s, NULL);
	ck_assert_int_eq(s.info.abi_tag, 3);
	ck_assert_mem_eq(s.info.head, buf, CHSTK_HEAD_LEN);
}
END_TEST

/* A file cut short whose dynamic section is gone with its end: reported,
   without the hardening; whole, its dynamic section past the end is an
   image that cannot be read. */
START_TEST(reports_a_cut_file_without_what_is_gone)
{
	struct gen g = { 64, 0, ET_DYN, EM_X86_64 };
	struct gen_phdr ph[2] = {
		{ PT_LOAD, PF_R | PF_W, 0, 0, 0x1000, 0x1000, 0x1000 },
		{ PT_DYNAMIC, PF_R | PF_W, 0xf00, 0xf00, 0x100, 0x100, 8 },
	};
	unsigned char buf[0x1000];
	struct chstk_scan_opts o = { .read = CHSTK_READ_HARDENING };
	struct chstk_error err;
	struct seen s = { 0 };

	gen_program(&g, buf, sizeof(buf), ph, 2);
	ck_assert_int_eq(chstk_scan_mem_with(buf, 0x800, &o, record, &s, &err),
	    0);
	ck_assert(s.calls == 1 && s.info.cut && s.info.hardening == NULL);
	ph[0].filesz = 0x800;
	gen_program(&g, buf, sizeof(buf), ph, 2);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(chstk_scan_mem_with(buf, 0x800, &o, record, &s, &err),
	    CHSTK_ERR_TRUNCATED);
	ck_assert_int_eq(s.calls, 0);
}
END_TEST

/* What want was asked, and what the image's callback saw. */
struct want_seen {
	struct seen s;
	struct {
		int calls;
		enum chstk_kind kind;
		unsigned answer;
	} a;
	bool sections;
	unsigned count;
};

/* The scan's argument, as the image's callback gets it. */
static unsigned
want(void *arg, const struct chstk_info *info)
{
	struct want_seen *w = arg;

	w->a.calls++;
	w->a.kind = info->kind;
	return w->a.answer;
}

static int
record_want(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct want_seen *w = arg;

	w->sections = info != NULL && info->sections != NULL;
	if (w->sections)
		w->count = info->sections->count;
	return record(&w->s, member, info, err);
}

/* want is asked once an image's headers are read, only with
   CHSTK_READ_WANT, and gets what it asks for. */
START_TEST(asks_want_for_more)
{
	struct gen g = { 64, 0, ET_DYN, EM_X86_64 };
	struct gen_phdr ph[1] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0, 0x200, 0x200, 0x1000 },
	};
	unsigned char buf[0x200], obj[1024];
	struct chstk_scan_opts o = { .want = want };
	struct want_seen w = { 0 };
	size_t n;

	gen_program(&g, buf, sizeof(buf), ph, 1);
	w.a.answer = CHSTK_READ_SECTIONS;
	ck_assert_int_eq(chstk_scan_mem_with(buf, sizeof(buf), &o, record_want,
	    &w, NULL), 0);
	ck_assert(w.a.calls == 0 && !w.sections);
	o.read = CHSTK_READ_WANT;
	ck_assert_int_eq(chstk_scan_mem_with(buf, sizeof(buf), &o, record_want,
	    &w, NULL), 0);
	ck_assert(w.a.calls == 1 && w.sections && w.count == 0);
	ck_assert_int_eq(w.a.kind, CHSTK_KIND_SHARED);
	w.a.answer = 0;
	ck_assert_int_eq(chstk_scan_mem_with(buf, sizeof(buf), &o, record_want,
	    &w, NULL), 0);
	ck_assert(w.a.calls == 2 && !w.sections);
	/* An object's sections are always read. */
	g.type = ET_REL;
	n = gen_object(&g, obj, 1, 0);
	ck_assert_int_eq(chstk_scan_mem_with(obj, n, &o, record_want, &w,
	    NULL), 0);
	ck_assert(w.sections && w.count == 4);
}
END_TEST

/* The guard reads of a stripped static program: each encoding once, one
   across the boundary of two 64 KiB reads; none for a dynamic one. */
START_TEST(counts_guard_reads)
{
	static const unsigned char x64[][9] = {
		{ 0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0 },
		{ 0x64, 0x4c, 0x2b, 0x3c, 0x25, 0x28, 0, 0, 0 },
		{ 0x64, 0x48, 0x33, 0x14, 0x25, 0x28, 0, 0, 0 },
		{ 0x64, 0x48, 0x3b, 0x0c, 0x25, 0x28, 0, 0, 0 },
		{ 0x64, 0x48, 0x89, 0x04, 0x25, 0x28, 0, 0, 0 },	/* a store */
		{ 0x64, 0x48, 0x8b, 0x05, 0x25, 0x28, 0, 0, 0 },	/* rip-relative */
	};
	static const unsigned char x86[][7] = {
		{ 0x65, 0xa1, 0x14, 0, 0, 0, 0x90 },
		{ 0x65, 0x8b, 0x15, 0x14, 0, 0, 0 },
		{ 0x65, 0x2b, 0x0d, 0x14, 0, 0, 0 },
		{ 0x65, 0xa3, 0x14, 0, 0, 0, 0x90 },	/* a store */
	};
	struct gen g = le64;
	size_t size = 0x30000, i;
	unsigned char *buf = calloc(1, size);
	struct gen_phdr ph[2] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0x400000, 0x30000, 0x30000, 0x1000 },
		{ PT_INTERP, PF_R, 0x100, 0x400100, 0x10, 0x10, 1 },
	};
	struct chstk_scan_opts o = { .read = CHSTK_READ_HARDENING };
	struct seen s = { 0 };

	ck_assert_ptr_nonnull(buf);
	gen_program(&g, buf, size, ph, 1);
	for (i = 0; i < 6; i++)
		memcpy(buf + 0x1000 + 0x100 * i, x64[i], 9);
	memcpy(buf + 0x10000 - 4, x64[0], 9);
	ck_assert_int_eq(chstk_scan_mem_with(buf, size, &o, record, &s, NULL), 0);
	ck_assert_int_eq(s.guard_reads, 5);
	gen_program(&g, buf, size, ph, 2);
	ck_assert_int_eq(chstk_scan_mem_with(buf, size, &o, record, &s, NULL), 0);
	ck_assert_int_eq(s.guard_reads, -1);
	g.bits = 32;
	g.machine = EM_386;
	memset(buf, 0, size);
	gen_program(&g, buf, size, ph, 1);
	for (i = 0; i < 4; i++)
		memcpy(buf + 0x1000 + 0x100 * i, x86[i], 7);
	ck_assert_int_eq(chstk_scan_mem_with(buf, size, &o, record, &s, NULL), 0);
	ck_assert_int_eq(s.guard_reads, 3);
	g.machine = EM_PPC;
	gen_program(&g, buf, size, ph, 1);
	ck_assert_int_eq(chstk_scan_mem_with(buf, size, &o, record, &s, NULL), 0);
	ck_assert_int_eq(s.guard_reads, -1);
	free(buf);
}
END_TEST

START_TEST(reads_the_note_of_objects)
{
	struct gen g = { 64, 0, ET_REL, EM_X86_64 };
	unsigned char buf[1024];
	struct seen s;
	size_t n;

	n = gen_object(&g, buf, 0, 0);
	ck_assert_int_eq(scan(buf, n, &s, NULL), 0);
	ck_assert_int_eq(s.info.kind, CHSTK_KIND_OBJECT);
	ck_assert_int_eq(s.info.state, CHSTK_DEFAULT);
	n = gen_object(&g, buf, 1, SHF_EXECINSTR);
	scan(buf, n, &s, NULL);
	ck_assert_int_eq(s.info.state, CHSTK_EXEC);
	g.bits = 32;
	g.big = 1;
	n = gen_object(&g, buf, 1, 0);
	scan(buf, n, &s, NULL);
	ck_assert_int_eq(s.info.state, CHSTK_NOEXEC);
}
END_TEST

/* The malformed headers: each edit of a good program, and what it gives. */
static const struct bad {
	const char *what;
	size_t off;		/* where to write, or SIZE_MAX for a cut */
	int len;
	uint64_t value;		/* the value, or the cut's length */
	int code;
	const char *msg;
} bads[] = {
	{ "cut in the magic", SIZE_MAX, 0, 3, CHSTK_ERR_NOT_ELF,
	    "not an ELF file" },
	{ "wrong magic", 1, 1, 'X', CHSTK_ERR_NOT_ELF, "not an ELF file" },
	{ "cut in the identification", SIZE_MAX, 0, 10, CHSTK_ERR_TRUNCATED,
	    "ELF header runs past the end of the file" },
	{ "cut in the header", SIZE_MAX, 0, 40, CHSTK_ERR_TRUNCATED,
	    "ELF header runs past the end of the file" },
	{ "class 3", 4, 1, 3, CHSTK_ERR_CORRUPT, "invalid ELF class 3" },
	{ "byte order 0", 5, 1, 0, CHSTK_ERR_CORRUPT,
	    "invalid ELF byte order 0" },
	{ "version 2", 6, 1, 2, CHSTK_ERR_CORRUPT, "unknown ELF version 2" },
	{ "table past the end", 32, 8, 0x10000, CHSTK_ERR_TRUNCATED,
	    "program header table runs past the end of the file" },
	{ "offset that wraps", 32, 8, UINT64_MAX - 8, CHSTK_ERR_TRUNCATED,
	    "program header table runs past the end of the file" },
	{ "too many entries", 56, 2, 0xfffe, CHSTK_ERR_TRUNCATED,
	    "program header table runs past the end of the file" },
	{ "entry size 32", 54, 2, 32, CHSTK_ERR_CORRUPT,
	    "program header table entry size is 32, not 56" },
	{ "cut in the table", SIZE_MAX, 0, 100, CHSTK_ERR_TRUNCATED,
	    "program header table runs past the end of the file" },
};

START_TEST(refuses_malformed_headers)
{
	const struct bad *b = &bads[_i];
	unsigned char *buf = malloc(0x1100);
	size_t size = program(&le64, buf, 1, PF_R | PF_W);
	struct chstk_error err;
	struct seen s;
	unsigned char *exact;

	if (b->off == SIZE_MAX)
		size = (size_t)b->value;
	else
		gen_put(&le64, buf + b->off, b->len, b->value);
	/* An allocation of exactly the size: a read past it is caught by
	   the sanitizers and valgrind. */
	exact = malloc(size);
	memcpy(exact, buf, size);
	ck_assert_int_eq(scan(exact, size, &s, &err), b->code);
	ck_assert_int_eq(err.code, b->code);
	ck_assert_str_eq(err.msg, b->msg);
	ck_assert_int_eq(s.calls, 0);
	free(exact);
	free(buf);
}
END_TEST

START_TEST(refuses_malformed_objects)
{
	struct gen g = { 64, 0, ET_REL, EM_X86_64 };
	unsigned char buf[1024];
	struct chstk_error err;
	struct seen s;
	size_t n = gen_object(&g, buf, 1, 0);

	gen_put(&g, buf + 40, 8, 0x100000);		/* e_shoff */
	ck_assert_int_eq(scan(buf, n, &s, &err), CHSTK_ERR_TRUNCATED);
	ck_assert_str_eq(err.msg,
	    "section header table runs past the end of the file");
	n = gen_object(&g, buf, 1, 0);
	gen_put(&g, buf + 62, 2, 9);			/* e_shstrndx */
	ck_assert_int_eq(scan(buf, n, &s, &err), CHSTK_ERR_CORRUPT);
	ck_assert_str_eq(err.msg, "section name table index 9 out of range");
	n = gen_object(&g, buf, 1, 0);
	gen_put(&g, buf + 58, 2, 40);			/* e_shentsize */
	ck_assert_int_eq(scan(buf, n, &s, &err), CHSTK_ERR_CORRUPT);
	ck_assert_str_eq(err.msg,
	    "section header table entry size is 40, not 64");
}
END_TEST

/* A note at p: its header, name and descriptor, each padded to 4 bytes.
   Returns its size. */
static size_t
note(const struct gen *g, unsigned char *p, const char *name, uint32_t type,
    const void *desc, uint32_t dsz, uint32_t claimed)
{
	uint32_t nsz = (uint32_t)strlen(name) + 1;

	gen_put(g, p, 4, nsz);
	gen_put(g, p + 4, 4, claimed);
	gen_put(g, p + 8, 4, type);
	memcpy(p + 12, name, nsz);
	memcpy(p + 12 + (nsz + 3) / 4 * 4, desc, dsz);
	return 12 + (nsz + 3) / 4 * 4 + (dsz + 3) / 4 * 4;
}

/* What a scan with CHSTK_READ_DYNAMIC saw of the dlopen notes. */
struct notes {
	char list[64];
	size_t len;
	bool cut, read;
};

static int
record_notes(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct notes *n = arg;
	const char *p;

	(void)member;
	(void)err;
	if (info == NULL || info->hardening == NULL)
		return 0;
	n->read = true;
	n->cut = info->hardening->dlopen_cut;
	for (p = info->hardening->dlopen; *p != '\0'; p += strlen(p) + 1)
		;
	n->len = (size_t)(p - info->hardening->dlopen) + 1;
	memcpy(n->list, info->hardening->dlopen, n->len < sizeof(n->list) ?
	    n->len : sizeof(n->list));
	return 0;
}

#define NT_DLOPEN 0x407c0c0a

/* systemd's dlopen notes (lib/hardening.c): every FDO note of that type
   in every PT_NOTE segment, its text up to the first NUL, none of
   another owner or type, none empty; a note that runs past its segment
   ends that segment's reading; a segment that cannot be read, or a text
   that does not fit, cuts the list. */
START_TEST(reads_dlopen_notes)
{
	const struct gen *g = _i ? &be32 : &le64;
	struct chstk_scan_opts o = { .read = CHSTK_READ_DYNAMIC };
	static const char want[] = "[1]\0[2]\0[3]\0";
	struct gen_phdr ph[4] = {
		{ PT_LOAD, PF_R, 0, 0, 0x400, 0x400, 0x1000 },
		{ PT_NOTE, PF_R, 0x140, 0x140, 0, 0, 4 },
		{ PT_NOTE, PF_R, 0x200, 0x200, 0, 0, 4 },
		{ PT_NOTE, PF_R, 0x300, 0x300, 0x10000000, 0x10000000, 4 },
	};
	unsigned char buf[0x400], *big;
	struct chstk_error err;
	struct notes n;
	size_t at;

	/* Segment 1: a build ID, "[1]", a package note, "[2]" without its
	   NUL, an empty text. Segment 2: "[3]", then a note claiming more
	   than the segment holds, then one it never reaches. */
	gen_program(g, buf, sizeof(buf), ph, 3);
	at = 0x140;
	at += note(g, buf + at, "GNU", 3, "12345678", 8, 8);
	at += note(g, buf + at, "FDO", NT_DLOPEN, "[1]", 4, 4);
	at += note(g, buf + at, "FDO", 0xcafe1a7e, "{}", 3, 3);
	at += note(g, buf + at, "FDO", NT_DLOPEN, "[2]", 3, 3);
	at += note(g, buf + at, "FDO", NT_DLOPEN, "\0\0\0", 4, 4);
	ph[1].filesz = ph[1].memsz = at - 0x140;
	at = 0x200;
	at += note(g, buf + at, "FDO", NT_DLOPEN, "[3]", 4, 4);
	at += note(g, buf + at, "FDO", NT_DLOPEN, "[4]", 4, 0x1000);
	at += note(g, buf + at, "FDO", NT_DLOPEN, "[5]", 4, 4);
	ph[2].filesz = ph[2].memsz = at - 0x200;
	gen_program(g, buf, 0x140, ph, 3);
	memset(&n, 0, sizeof(n));
	ck_assert_int_eq(chstk_scan_mem_with(buf, sizeof(buf), &o, record_notes,
	    &n, &err), 0);
	ck_assert(n.read && !n.cut);
	ck_assert_uint_eq(n.len, sizeof(want));
	ck_assert(memcmp(n.list, want, sizeof(want)) == 0);

	/* A third segment past the end of the file: the list is cut, what
	   was read stays. */
	gen_program(g, buf, 0x140, ph, 4);
	memset(&n, 0, sizeof(n));
	ck_assert_int_eq(chstk_scan_mem_with(buf, sizeof(buf), &o, record_notes,
	    &n, &err), 0);
	ck_assert(n.read && n.cut);
	ck_assert(memcmp(n.list, want, sizeof(want)) == 0);

	/* A text longer than the room: cut before it. */
	big = calloc(1, 0x140 + 32 + CHSTK_DLOPEN_LEN);
	ck_assert_ptr_nonnull(big);
	memset(big + 0x140 + 16, 'x', CHSTK_DLOPEN_LEN);
	ph[1].filesz = ph[1].memsz = 16 + CHSTK_DLOPEN_LEN;
	ph[0].filesz = ph[0].memsz = 0x140 + 16 + CHSTK_DLOPEN_LEN;
	gen_program(g, big, 0x140, ph, 2);
	note(g, big + 0x140, "FDO", NT_DLOPEN, "", 0, CHSTK_DLOPEN_LEN);
	memset(&n, 0, sizeof(n));
	ck_assert_int_eq(chstk_scan_mem_with(big, 0x140 + 32 + CHSTK_DLOPEN_LEN,
	    &o, record_notes, &n, &err), 0);
	ck_assert(n.read && n.cut);
	ck_assert_uint_eq(n.len, 1);
	free(big);
}
END_TEST

START_TEST(names_states_and_operations)
{
	static const enum chstk_state all[] = {
		CHSTK_DEFAULT, CHSTK_EXEC, CHSTK_NOEXEC,
	};
	/* The seed's table: the state each option leaves, per state. */
	static const enum chstk_state want[5][3] = {
		[CHSTK_OP_SET_EXEC] = { CHSTK_EXEC, CHSTK_EXEC, CHSTK_EXEC },
		[CHSTK_OP_SET_NOEXEC] = { CHSTK_NOEXEC, CHSTK_NOEXEC,
		    CHSTK_NOEXEC },
		[CHSTK_OP_CLEAR_EXEC] = { CHSTK_DEFAULT, CHSTK_DEFAULT,
		    CHSTK_NOEXEC },
		[CHSTK_OP_CLEAR_NOEXEC] = { CHSTK_DEFAULT, CHSTK_EXEC,
		    CHSTK_DEFAULT },
		[CHSTK_OP_SET_DEFAULT] = { CHSTK_DEFAULT, CHSTK_DEFAULT,
		    CHSTK_DEFAULT },
	};
	int op, i;

	for (op = 0; op < 5; op++)
		for (i = 0; i < 3; i++)
			ck_assert_int_eq(chstk_op_result(op, all[i]),
			    want[op][all[i]]);
	ck_assert_str_eq(chstk_state_name(CHSTK_EXEC), "exec");
	ck_assert_str_eq(chstk_state_name(CHSTK_NOEXEC), "noexec");
	ck_assert_str_eq(chstk_state_name(CHSTK_DEFAULT), "default");
	ck_assert_str_eq(chstk_version(), PACKAGE_VERSION);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("image");
	TCase *tc = tcase_create("read");

	tcase_add_loop_test(tc, reads_each_state_in_each_byte_order, 0, 2);
	tcase_add_test(tc, last_pt_gnu_stack_wins_as_in_the_kernel);
	tcase_add_test(tc, counts_writable_executable_segments);
	tcase_add_test(tc, tells_programs_from_shared_objects);
	tcase_add_test(tc, tells_a_file_cut_short);
	tcase_add_loop_test(tc, reads_the_abi_tag, 0, 2);
	tcase_add_test(tc, asks_want_for_more);
	tcase_add_test(tc, reports_a_cut_file_without_what_is_gone);
	tcase_add_test(tc, counts_guard_reads);
	tcase_add_test(tc, reads_the_note_of_objects);
	tcase_add_loop_test(tc, reads_dlopen_notes, 0, 2);
	tcase_add_loop_test(tc, refuses_malformed_headers, 0,
	    sizeof(bads) / sizeof(bads[0]));
	tcase_add_test(tc, refuses_malformed_objects);
	tcase_add_test(tc, names_states_and_operations);
	suite_add_tcase(s, tc);
	return gen_run(s);
}
