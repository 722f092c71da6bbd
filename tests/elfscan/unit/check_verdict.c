/*
 * check_verdict.c - elfscan's rules (src/elfscan/verdict.c): for each
 * marking and kind of image on the machines whose defaults differ, the
 * effective stack and the findings elfscan(1) documents. And its path
 * patterns (allow.c): without "**", glibc's fnmatch with FNM_PATHNAME
 * judges every pair of a table of patterns and names; "**", and the names
 * an image is matched by (installed path, package member, image file),
 * against what elfscan(1) documents.
 */
#include <check.h>
#include <elf.h>
#include <fnmatch.h>
#include <string.h>

#include "verdict.h"
#include "elfgen.h"

static struct chstk_info
image(unsigned machine, unsigned cls, enum chstk_kind kind,
    enum chstk_state state)
{
	struct chstk_info i;

	memset(&i, 0, sizeof(i));
	i.machine = machine;
	i.elf_class = cls;
	i.kind = kind;
	i.state = state;
	i.type = kind == CHSTK_KIND_OBJECT ? ET_REL : kind ==
	    CHSTK_KIND_SHARED ? ET_DYN : ET_EXEC;
	return i;
}

static const struct row {
	unsigned machine, cls;
	enum chstk_kind kind;
	enum chstk_state state;
	enum effective want;
	uint64_t findings;
} rows[] = {
	/* A marking wins everywhere. */
	{ EM_X86_64, ELFCLASS64, CHSTK_KIND_PROGRAM, CHSTK_EXEC, EFF_EXEC,
	    F_EXEC_STACK },
	{ EM_386, ELFCLASS32, CHSTK_KIND_PROGRAM, CHSTK_NOEXEC, EFF_NOEXEC, 0 },
	{ EM_MIPS, ELFCLASS32, CHSTK_KIND_SHARED, CHSTK_NOEXEC, EFF_NOEXEC, 0 },
	{ EM_AARCH64, ELFCLASS64, CHSTK_KIND_SHARED, CHSTK_EXEC, EFF_EXEC,
	    F_EXEC_STACK | F_DLOPEN_REFUSED },
	/* Unmarked programs: the kernel's main stack, glibc's threads. */
	{ EM_X86_64, ELFCLASS64, CHSTK_KIND_PROGRAM, CHSTK_DEFAULT, EFF_EXEC,
	    F_EXEC_STACK },
	{ EM_386, ELFCLASS32, CHSTK_KIND_PROGRAM, CHSTK_DEFAULT, EFF_EXEC,
	    F_EXEC_STACK | F_READ_IMPLIES_EXEC },
	{ EM_X86_64, ELFCLASS32, CHSTK_KIND_PROGRAM, CHSTK_DEFAULT, EFF_EXEC,
	    F_EXEC_STACK | F_READ_IMPLIES_EXEC },
	{ EM_AARCH64, ELFCLASS64, CHSTK_KIND_PROGRAM, CHSTK_DEFAULT,
	    EFF_NOEXEC, 0 },
	{ EM_S390, ELFCLASS64, CHSTK_KIND_PROGRAM, CHSTK_DEFAULT, EFF_EXEC,
	    F_EXEC_STACK },
	{ EM_MIPS, ELFCLASS32, CHSTK_KIND_PROGRAM, CHSTK_DEFAULT, EFF_EXEC,
	    F_EXEC_STACK },
	{ EM_RISCV, ELFCLASS64, CHSTK_KIND_PROGRAM, CHSTK_DEFAULT, EFF_NOEXEC,
	    0 },
	{ EM_SPARCV9, ELFCLASS64, CHSTK_KIND_PROGRAM, CHSTK_DEFAULT, EFF_EXEC,
	    F_EXEC_STACK },
	{ EM_QDSP6, ELFCLASS32, CHSTK_KIND_PROGRAM, CHSTK_DEFAULT, EFF_UNKNOWN,
	    F_UNKNOWN_DEFAULT },
	/* Unmarked shared objects: glibc's rule alone. */
	{ EM_X86_64, ELFCLASS64, CHSTK_KIND_SHARED, CHSTK_DEFAULT, EFF_EXEC,
	    F_EXEC_STACK | F_DLOPEN_REFUSED },
	{ EM_PPC64, ELFCLASS64, CHSTK_KIND_SHARED, CHSTK_DEFAULT, EFF_NOEXEC,
	    0 },
	{ EM_CSKY, ELFCLASS32, CHSTK_KIND_SHARED, CHSTK_DEFAULT, EFF_NOEXEC,
	    0 },
	{ EM_XTENSA, ELFCLASS32, CHSTK_KIND_SHARED, CHSTK_DEFAULT,
	    EFF_UNKNOWN, F_UNKNOWN_DEFAULT },
	/* Objects: GNU ld asks for an executable stack without the note. */
	{ EM_AARCH64, ELFCLASS64, CHSTK_KIND_OBJECT, CHSTK_DEFAULT, EFF_EXEC,
	    F_EXEC_STACK | F_NO_NOTE },
	/* No rule known. */
	{ 0x1234, ELFCLASS64, CHSTK_KIND_SHARED, CHSTK_DEFAULT, EFF_UNKNOWN,
	    F_UNKNOWN_DEFAULT },
};

START_TEST(gives_the_documented_verdict)
{
	const struct row *r = &rows[_i];
	struct chstk_info i = image(r->machine, r->cls, r->kind, r->state);
	struct verdict v;

	verdict_of(&i, VERDICT_REFUSING, &v);
	ck_assert_int_eq(v.effective, r->want);
	ck_assert_uint_eq(v.findings, r->findings);
	ck_assert_ptr_nonnull(v.why);
}
END_TEST

START_TEST(allowed_keeps_only_wx)
{
	struct chstk_info i = image(EM_386, ELFCLASS32, CHSTK_KIND_PROGRAM,
	    CHSTK_DEFAULT);
	struct verdict v;

	i.wx = 1;
	verdict_of(&i, VERDICT_REFUSING | VERDICT_ALLOWED, &v);
	ck_assert(v.allowed);
	ck_assert_uint_eq(v.findings, F_WX_SEGMENT);
	verdict_of(&i, VERDICT_REFUSING, &v);
	ck_assert_uint_eq(v.findings, F_EXEC_STACK | F_READ_IMPLIES_EXEC |
	    F_WX_SEGMENT);
}
END_TEST

START_TEST(ia64_follows_its_flag)
{
	struct chstk_info i = image(EM_IA_64, ELFCLASS64, CHSTK_KIND_PROGRAM,
	    CHSTK_DEFAULT);
	struct verdict v;

	verdict_of(&i, VERDICT_REFUSING, &v);
	ck_assert_int_eq(v.effective, EFF_NOEXEC);
	i.flags = 1;
	verdict_of(&i, VERDICT_REFUSING, &v);
	ck_assert_int_eq(v.effective, EFF_EXEC);
}
END_TEST

/* Without a dynamic linker the C library, if any, is linked in: the why
   says the kernel's rule for the main stack, not glibc's. */
START_TEST(static_program_does_not_claim_glibc)
{
	struct chstk_info i = image(EM_X86_64, ELFCLASS64, CHSTK_KIND_PROGRAM,
	    CHSTK_DEFAULT);
	struct verdict v;

	verdict_of(&i, VERDICT_REFUSING, &v);
	ck_assert_int_eq(v.effective, EFF_EXEC);
	ck_assert_ptr_null(strstr(v.why, "glibc"));
	ck_assert_ptr_nonnull(strstr(v.why, "the kernel makes the main stack non-executable"));
	ck_assert_ptr_nonnull(strstr(v.why, "a C library's thread stacks would be executable"));
	i.machine = EM_MIPS;
	i.elf_class = ELFCLASS32;
	verdict_of(&i, VERDICT_REFUSING, &v);
	ck_assert_ptr_null(strstr(v.why, "glibc"));
	ck_assert_ptr_nonnull(strstr(v.why, "depends on the CPU"));
	i = image(EM_X86_64, ELFCLASS64, CHSTK_KIND_PROGRAM, CHSTK_DEFAULT);
	i.interp = true;
	verdict_of(&i, VERDICT_REFUSING, &v);
	ck_assert_str_eq(v.why, "unmarked: glibc makes thread stacks executable");
}
END_TEST

/* What one object a process loads asks of its main stack and of its
   threads': an unmarked x86_64 program, the kernel's non-executable main
   stack and glibc's executable thread stacks; an unmarked i386 one, both
   (READ_IMPLIES_EXEC); a marking, or a library, both alike. */
START_TEST(stacks_split_main_and_threads)
{
	static const struct {
		unsigned machine, cls;
		enum chstk_kind kind;
		enum chstk_state state;
		enum effective main_stack, threads;
	} t[] = {
		{ EM_X86_64, ELFCLASS64, CHSTK_KIND_PROGRAM, CHSTK_DEFAULT,
		    EFF_NOEXEC, EFF_EXEC },
		{ EM_386, ELFCLASS32, CHSTK_KIND_PROGRAM, CHSTK_DEFAULT,
		    EFF_EXEC, EFF_EXEC },
		{ EM_AARCH64, ELFCLASS64, CHSTK_KIND_PROGRAM, CHSTK_DEFAULT,
		    EFF_NOEXEC, EFF_NOEXEC },
		{ EM_S390, ELFCLASS64, CHSTK_KIND_PROGRAM, CHSTK_DEFAULT,
		    EFF_NOEXEC, EFF_EXEC },
		{ EM_X86_64, ELFCLASS64, CHSTK_KIND_PROGRAM, CHSTK_EXEC,
		    EFF_EXEC, EFF_EXEC },
		{ EM_X86_64, ELFCLASS64, CHSTK_KIND_PROGRAM, CHSTK_NOEXEC,
		    EFF_NOEXEC, EFF_NOEXEC },
		{ EM_X86_64, ELFCLASS64, CHSTK_KIND_SHARED, CHSTK_DEFAULT,
		    EFF_EXEC, EFF_EXEC },
		{ EM_AARCH64, ELFCLASS64, CHSTK_KIND_SHARED, CHSTK_DEFAULT,
		    EFF_NOEXEC, EFF_NOEXEC },
	};
	enum effective m, th;
	const char *why;
	size_t k;

	for (k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct chstk_info i = image(t[k].machine, t[k].cls, t[k].kind,
		    t[k].state);

		i.interp = true;
		verdict_stacks(&i, &m, &th, &why);
		ck_assert_msg(m == t[k].main_stack && th == t[k].threads,
		    "row %zu: main %d threads %d", k, m, th);
		ck_assert_ptr_nonnull(why);
	}
}
END_TEST

START_TEST(core_files_have_no_verdict)
{
	struct chstk_info i = image(EM_X86_64, ELFCLASS64, CHSTK_KIND_OTHER,
	    CHSTK_DEFAULT);
	struct verdict v;

	i.type = ET_CORE;
	verdict_of(&i, VERDICT_REFUSING, &v);
	ck_assert_int_eq(v.effective, EFF_NONE);
	ck_assert_uint_eq(v.findings, 0);
	ck_assert_str_eq(type_name(&i), "core");
}
END_TEST

/* Patterns and names without "**", or a leading "/", "./" or "!", where
   the matcher must agree with fnmatch(FNM_PATHNAME). */
static const char *const fn_patterns[] = {
	"usr/lib/x.so", "usr/lib/*", "usr/*/x.so", "*", "*.so", "usr/lib/?.so",
	"usr/lib/[xy].so", "usr/lib/[!x].so", "usr/lib/[^x].so",
	"usr/lib/[a-x].so", "usr/lib/[]x].so", "usr/lib/[!]].so",
	"usr/lib/\\*.so", "usr/lib/\\x.so", "usr/lib/[x", "usr/lib/x.s[o",
	"usr?lib/x.so", "usr[/]lib/x.so", "*/*/*", "*/*", "usr/lib/x.so*",
	"usr/lib/*x*", "u*r/l*b/x*", "usr/lib/*.so.[0-9]", "[u]sr/lib/*",
	"usr/lib/x.so!m.o", "usr/lib/x.so!*", "*!*", "usr/lib/[-x].so",
	"usr/lib/[x-].so", "", "usr/lib/",
};
static const char *const fn_names[] = {
	"usr/lib/x.so", "usr/lib/y.so", "usr/lib/z.so", "usr/lib/].so",
	"usr/lib/*.so", "usr/lib/[x", "usr/lib/x.s[o", "usr/lib/sub/x.so",
	"usr/lib/x.so.1", "usr/lib/x.so.10", "usr/lib/x.so!m.o",
	"usr/lib/x.so!sub/m.o", "x.so", "usr/lib/-.so", "usr/lib/", "",
	"usr/bin/x.so", "usr/lib/xx",
};

START_TEST(patterns_agree_with_fnmatch)
{
	size_t i, k;

	for (i = 0; i < sizeof(fn_patterns) / sizeof(fn_patterns[0]); i++)
		for (k = 0; k < sizeof(fn_names) / sizeof(fn_names[0]); k++)
			ck_assert_msg(glob_match(fn_patterns[i], fn_names[k]) ==
			    (fnmatch(fn_patterns[i], fn_names[k],
			    FNM_PATHNAME) == 0), "pattern '%s', name '%s'",
			    fn_patterns[i], fn_names[k]);
}
END_TEST

static const struct {
	const char *pattern, *name;
	bool want;
} stars[] = {
	{ "usr/lib/**", "usr/lib/x.so", true },
	{ "usr/lib/**", "usr/lib/a/b/x.so", true },
	{ "usr/lib/**", "usr/libx/x.so", false },
	{ "usr/lib/*", "usr/lib/a/x.so", false },
	{ "usr/**/x.so", "usr/x.so", true },
	{ "usr/**/x.so", "usr/lib/x.so", true },
	{ "usr/**/x.so", "usr/lib/a/x.so", true },
	{ "usr/**/x.so", "usr/lib/ax.so", false },
	{ "**/x.so", "x.so", true },
	{ "**/x.so", "a/b/x.so", true },
	{ "**/x.so", "a/bx.so", false },
	{ "**", "a/b/c", true },
	{ "usr/lib/**.so", "usr/lib/a/b.so", true },
	{ "usr/lib/**.so", "usr/lib/a/b.so.1", false },
	{ "usr/***/x.so", "usr/a/b/x.so", true },
	{ "a/**/b/**/c", "a/b/c", true },
	{ "a/**/b/**/c", "a/x/b/y/z/c", true },
	{ "a/**/b/**/c", "a/x/y/c", false },
	/* a leading "/" or "./", and after a "!", is no part of a name */
	{ "/usr/lib/x.so", "usr/lib/x.so", true },
	{ "usr/lib/x.so", "/usr/lib/x.so", true },
	{ "./usr/lib/x.so", "/usr/lib/x.so", true },
	{ "//usr/lib/x.so", "./usr/lib/x.so", true },
	{ "a.deb!usr/lib/*", "a.deb!/usr/lib/x.so", true },
	{ "a.deb!/usr/lib/*", "a.deb!./usr/lib/x.so", true },
	{ "/usr/lib/x.so", "usr/lib/x.sox", false },
	{ "[/]usr/lib/x.so", "/usr/lib/x.so", false },
	{ "\\/usr/lib/x.so", "/usr/lib/x.so", false },
};

START_TEST(double_star_crosses_directories)
{
	size_t i;

	for (i = 0; i < sizeof(stars) / sizeof(stars[0]); i++)
		ck_assert_msg(glob_match(stars[i].pattern, stars[i].name) ==
		    stars[i].want, "pattern '%s', name '%s': want %d",
		    stars[i].pattern, stars[i].name, stars[i].want);
}
END_TEST

/* An image is matched by its path, its installed path, and its
   container's and its own paths inside a package or image. */
START_TEST(an_image_has_all_its_names)
{
	struct where disk = { .path = "debian/foo/usr/lib/foo/x.so",
	    .root = 10 };
	struct where deb = { .path = "/pool/foo.deb",
	    .member = "usr/lib/foo/x.so" };
	struct where ar = { .path = "/srv/chroot/usr/lib/libx.a",
	    .root = 11, .member = "x.o" };
	struct where img = { .path = "img.tar", .image = "t,t2",
	    .member = "/usr/lib/foo/libx.a!x.o" };

	ck_assert(where_match("/usr/lib/foo/**", &disk));
	ck_assert(where_match("debian/*/usr/lib/foo/x.so", &disk));
	ck_assert(!where_match("/foo/**", &disk));
	disk.root = 0;
	ck_assert(!where_match("/usr/lib/foo/**", &disk));
	ck_assert(where_match("/usr/lib/foo/**", &deb));
	ck_assert(where_match("/pool/foo.deb", &deb));
	ck_assert(where_match("/pool/*.deb!usr/lib/**", &deb));
	ck_assert(!where_match("usr/lib/*", &deb));
	ck_assert(where_match("/usr/lib/libx.a", &ar));
	ck_assert(where_match("/usr/lib/libx.a!x.o", &ar));
	ck_assert(where_match("/srv/chroot/usr/lib/libx.a!*.o", &ar));
	ck_assert(!where_match("/chroot/**", &ar));
	ck_assert(where_match("/usr/lib/foo/**", &img));
	ck_assert(where_match("img.tar", &img));
	ck_assert(where_match("img.tar!t,t2!**", &img));
	ck_assert(where_match("usr/lib/foo/libx.a", &img));
	ck_assert(!where_match("t,t2", &img));
}
END_TEST

/* Every pattern that matches is marked used; the first is the answer. */
START_TEST(allowlist_marks_what_matched)
{
	struct allow a = { NULL, 0 };
	struct where w = { .path = "/r/usr/lib/x.so", .root = 2 };

	allow_add(&a, "/nothing/**", NULL, 0);
	allow_add(&a, "usr/lib/*.so", "list", 3);
	allow_add(&a, "/**", "list", 4);
	ck_assert_str_eq(allow_which(&a, &w)->text, "usr/lib/*.so");
	ck_assert(!a.v[0].used);
	ck_assert(a.v[1].used && a.v[2].used);
	ck_assert_str_eq(a.v[1].file, "list");
	ck_assert_uint_eq(a.v[1].line, 3);
	allow_free(&a);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("verdict");
	TCase *tc = tcase_create("rules");
	TCase *pat = tcase_create("patterns");

	tcase_add_loop_test(tc, gives_the_documented_verdict, 0,
	    sizeof(rows) / sizeof(rows[0]));
	tcase_add_test(tc, allowed_keeps_only_wx);
	tcase_add_test(tc, ia64_follows_its_flag);
	tcase_add_test(tc, static_program_does_not_claim_glibc);
	tcase_add_test(tc, core_files_have_no_verdict);
	tcase_add_test(tc, stacks_split_main_and_threads);
	suite_add_tcase(s, tc);
	tcase_add_test(pat, patterns_agree_with_fnmatch);
	tcase_add_test(pat, double_star_crosses_directories);
	tcase_add_test(pat, an_image_has_all_its_names);
	tcase_add_test(pat, allowlist_marks_what_matched);
	suite_add_tcase(s, pat);
	return gen_run(s);
}
