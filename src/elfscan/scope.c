/*
 * scope.c - which ELF files Linux's rules judge. Not every ELF file a
 * root holds is run or linked by Linux: boot loaders load their own
 * modules, firmware runs in a guest machine, a debug file holds no
 * program, the linker never pulls some archive members, and GCC's LTO
 * objects hold no code until its plugin compiles them. Each class is
 * told by what the file says, never by its name, with the row of the
 * table below that cites the loader or linker whose code says so; an
 * image of one of them is counted in its class and is no finding (--all
 * judges it anyway). The one fact from outside the file is what the root
 * runs (struct runs, read by runs.c). elfscan(1), RULES, gives the table.
 */
#include <elf.h>
#include <string.h>

#include "verdict.h"

/* The dynamic symbols syslinux's module loader reads constructors and
   destructors by, one bit each in scope_symbol()'s seen. */
static const char *const com32_syms[] = {
	"__ctors_start", "__ctors_end", "__dtors_start", "__dtors_end",
};
#define COM32_ALL ((1u << 4) - 1)

/* What an image's class is told by. */
struct scope_in {
	const struct chstk_info *info;
	const struct chstk_sections *sect;	/* NULL: not read */
	bool member;			/* of an ar archive */
	unsigned seen;			/* com32_syms defined */
	const struct runs *runs;	/* NULL: every machine runs */
};

/* glibc's loader takes only ELFOSABI_SYSV and ELFOSABI_GNU
   (sysdeps/gnu/ldsodefs.h VALID_ELF_OSABI, checked by elf/dl-load.c
   open_verify); the other values name another system, whose rules these
   are not. */
static bool
foreign_os(const struct scope_in *in)
{
	return in->info->osabi != ELFOSABI_SYSV &&
	    in->info->osabi != ELFOSABI_GNU;
}

/* objcopy --only-keep-debug and eu-strip -f keep a program's section
   headers but make every section of it NOBITS, notes aside
   (binutils objcopy.c, elfutils strip.c): nothing of the program is
   left to run. (An object whose only allocated bytes are .bss is no
   debug file.) */
static bool
stripped_debug(const struct scope_in *in)
{
	return in->info->type != ET_REL && in->sect != NULL &&
	    in->sect->alloc_bytes == 0 && in->sect->alloc_nobits > 0;
}

/* dwz -m writes the debugging sections a set of files share into an
   object of nothing else: no allocated section, no symbol table (dwz.c
   write_multifile). */
static bool
dwz_file(const struct scope_in *in)
{
	return in->info->kind == CHSTK_KIND_OBJECT && in->sect != NULL &&
	    in->sect->alloc == 0 && !in->sect->symtab;
}

/* syslinux's COM32 modules: shared objects its own loader maps, which
   reads their constructors and destructors by these four symbols
   (com32/lib/sys/module/elf_module.c extract_operations), defined by
   syslinux's linker script (com32/lib/elf32.ld). No interpreter: no
   Linux program. */
static bool
com32_module(const struct scope_in *in)
{
	return in->info->type == ET_DYN && !in->info->interp &&
	    in->seen == COM32_ALL;
}

/* GRUB's modules: objects GRUB's loader links into itself, which takes
   an object only with a .modname section (grub-core/kern/dl.c
   grub_dl_resolve_name). */
static bool
grub_module(const struct scope_in *in)
{
	return in->info->kind == CHSTK_KIND_OBJECT && in->sect != NULL &&
	    in->sect->modname;
}

/* GCC's slim LTO objects: its intermediate code (.gnu.lto_* sections)
   and no code of the machine's. The LTO plugin claims them, and GNU ld
   leaves the objects it claimed out of its stack rule (bfd/elflink.c
   bfd_elf_size_dynamic_sections: BFD_PLUGIN inputs are skipped); with
   -ffat-lto-objects the code is there, and the object is judged. */
static bool
lto_only(const struct scope_in *in)
{
	return in->info->kind == CHSTK_KIND_OBJECT && in->sect != NULL &&
	    in->sect->lto && in->sect->alloc_bytes == 0;
}

/* An archive member that defines no global symbol and holds no code:
   a linker pulls a member only to define a symbol, by the archive's
   index, which lists the global symbols members define (bfd/elflink.c
   elf_link_add_archive_symbols); rustc keeps its metadata (lib.rmeta)
   so, and leaves it out where it links a whole archive
   (rustc_codegen_ssa back/link.rs). */
static bool
unlinked_member(const struct scope_in *in)
{
	return in->member && in->info->kind == CHSTK_KIND_OBJECT &&
	    in->sect != NULL && in->sect->globals == 0 &&
	    in->sect->alloc_bytes == 0;
}

/* A program for a machine the root does not run (runs.c: its kernel's,
   its dynamic linkers', its binfmt_misc handlers'), that no C library
   tagged as a Linux program (glibc's csu/abi-note.S puts the tag in
   every program it starts): firmware for a guest machine, as QEMU's, or
   arch-test's probes of other machines. */
static bool
foreign_machine(const struct scope_in *in)
{
	return in->info->kind == CHSTK_KIND_PROGRAM && in->info->abi_tag != 0 &&
	    in->runs != NULL && !runs_serve(in->runs, in->info);
}

static const struct scope_rule {
	enum scope scope;
	bool (*is)(const struct scope_in *in);
	const char *why;
} rules[] = {
	{ SCOPE_FOREIGN_OS, foreign_os,
	  "made for another operating system (EI_OSABI): Linux's rules do not apply" },
	{ SCOPE_DEBUG, stripped_debug,
	  "a separate debug file: its program's sections are there without their bytes" },
	{ SCOPE_DEBUG, dwz_file,
	  "debugging sections shared by other files (dwz): nothing to link or run" },
	{ SCOPE_BOOT, com32_module,
	  "a syslinux COM32 module: syslinux's loader maps it, not Linux" },
	{ SCOPE_BOOT, grub_module,
	  "a GRUB module: GRUB links it into itself, no Linux linker does" },
	{ SCOPE_LTO, lto_only,
	  "GCC's LTO code only: the linker plugin compiles it, ld's stack rule skips it" },
	{ SCOPE_UNLINKED, unlinked_member,
	  "an archive member that defines no symbol and holds no code: no link pulls it" },
	{ SCOPE_FOREIGN_MACHINE, foreign_machine,
	  "a program for a machine this root does not run, not tagged for Linux (firmware, a test of another machine)" },
};

static const char *const names[SCOPE_COUNT] = {
	[SCOPE_LINUX] = "linux", [SCOPE_FOREIGN_OS] = "foreign-os",
	[SCOPE_DEBUG] = "debug", [SCOPE_BOOT] = "boot-loader",
	[SCOPE_LTO] = "lto", [SCOPE_UNLINKED] = "unlinked",
	[SCOPE_FOREIGN_MACHINE] = "foreign-machine",
};

const char *
scope_name(enum scope s)
{
	return s < SCOPE_COUNT ? names[s] : "?";
}

void
scope_symbol(unsigned *seen, const struct chstk_sym *sym)
{
	size_t i;

	if (!sym->dynamic || sym->undefined || sym->cut)
		return;
	for (i = 0; i < sizeof(com32_syms) / sizeof(com32_syms[0]); i++)
		if (strcmp(sym->name, com32_syms[i]) == 0)
			*seen |= 1u << i;
}

/*
 * What an image's class needs read beyond its headers, asked of the
 * images where a finding is at stake only: the dynamic symbols of a
 * shared object without an interpreter that asks for an executable stack, is
 * unmarked or has a writable and executable segment (every COM32
 * module: one RWE segment); the sections of a program or shared object
 * cut short or whose code has no bytes in the file (a debug file).
 */
unsigned
scope_want(const struct chstk_info *info)
{
	unsigned want = 0;

	if (info->type == ET_DYN && !info->interp &&
	    (info->state != CHSTK_NOEXEC || info->wx > 0))
		want |= CHSTK_READ_DYNSYM;
	if (info->type != ET_REL && (info->cut ||
	    (info->has_exec_code && !info->exec_in_file)))
		want |= CHSTK_READ_SECTIONS;
	return want;
}

enum scope
scope_of(const struct chstk_info *info, bool member, unsigned seen,
    const struct runs *runs, const char **why)
{
	struct scope_in in = { info, info->sections, member, seen, runs };
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rules[i].is(&in)) {
			*why = rules[i].why;
			return rules[i].scope;
		}
	*why = NULL;
	return SCOPE_LINUX;
}

bool
runs_serve(const struct runs *r, const struct chstk_info *info)
{
	size_t i, k;

	if (r->any)
		return true;
	for (i = 0; i < r->nm; i++)
		if (r->m[i].machine == info->machine &&
		    (r->m[i].elf_class == 0 ||
		    r->m[i].elf_class == info->elf_class) &&
		    (r->m[i].data == 0 || r->m[i].data == info->data))
			return true;
	for (i = 0; i < r->nfmt; i++) {
		for (k = 0; k < BINFMT_LEN; k++)
			if ((info->head[k] ^ r->fmt[i].magic[k]) &
			    r->fmt[i].mask[k])
				break;
		if (k == BINFMT_LEN)
			return true;
	}
	return false;
}
