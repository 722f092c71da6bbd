/*
 * verdict.c - what stack a system gives an ELF image, and what is wrong.
 *
 * A marked image gets what it asks for everywhere: PF_X (or SHF_EXECINSTR)
 * is an executable stack, its absence a non-executable one. An unmarked
 * image gets its system's default, which differs by machine and by who
 * reads the marking: the kernel, for the main stack of a program it runs,
 * and glibc's dynamic linker, for a shared object it loads and for the
 * thread stacks of every program. Those defaults are the table below, one
 * row a machine, each with the code it was read from (Linux 6.1, glibc
 * 2.36; see elfscan(1), RULES).
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "verdict.h"

enum rule { NOEXEC, EXEC, UNKNOWN };

struct machine_rule {
	unsigned machine;	/* e_machine */
	unsigned elf_class;	/* ELFCLASS32 or ELFCLASS64; 0 for both */
	const char *name;
	/* An unmarked program's main stack, from the kernel: its stack
	   default (VM_STACK_DEFAULT_FLAGS) and elf_read_implies_exec(). */
	enum rule kernel;
	/* Does an unmarked program get READ_IMPLIES_EXEC? */
	bool rie;
	/* An unmarked shared object, and the thread stacks of an unmarked
	   program: glibc's DEFAULT_STACK_PERMS. */
	enum rule glibc;
};

static const struct machine_rule rules[] = {
	/* arch/x86/include/asm/elf.h elf_read_implies_exec(): only ia32
	   tasks since Linux 5.8 (mmap_is_ia32()); x32 is ia32 there.
	   sysdeps/x86_64/stackinfo.h, sysdeps/i386/stackinfo.h: PF_X. */
	{ EM_X86_64, ELFCLASS64, "x86_64", NOEXEC, false, EXEC },
	{ EM_X86_64, ELFCLASS32, "x32", EXEC, true, EXEC },
	{ EM_386, 0, "i386", EXEC, true, EXEC },
	{ 6 /* EM_486 */, 0, "i486", EXEC, true, EXEC },
	/* arch/arm/kernel/elf.c arm_elf_read_implies_exec() (ARMv6 and
	   later); arch/arm64/include/asm/elf.h compat_elf_read_implies_exec()
	   for AArch32 on arm64, 0 for native arm64.
	   sysdeps/arm/stackinfo.h: PF_X; sysdeps/aarch64/stackinfo.h: not. */
	{ EM_ARM, 0, "arm", EXEC, true, EXEC },
	{ EM_AARCH64, 0, "aarch64", NOEXEC, false, NOEXEC },
	/* arch/powerpc/include/asm/elf.h elf_read_implies_exec(): 32-bit
	   tasks only; page_64.h: the 64-bit ABI stack is non-executable.
	   sysdeps/powerpc/stackinfo.h: PF_X for 32-bit only. */
	{ EM_PPC, 0, "ppc", EXEC, true, EXEC },
	{ EM_PPC64, 0, "ppc64", NOEXEC, false, NOEXEC },
	/* arch/s390/include/asm/page.h VM_DATA_DEFAULT_FLAGS: non-exec.
	   sysdeps/s390/stackinfo.h: PF_X. */
	{ EM_S390, 0, "s390", NOEXEC, false, EXEC },
	/* arch/mips/kernel/elf.c mips_elf_read_implies_exec(): only on CPUs
	   without RIXI, which the file cannot tell. sysdeps/mips: PF_X. */
	{ EM_MIPS, 0, "mips", UNKNOWN, false, EXEC },
	/* arch/riscv/include/asm/page.h, arch/loongarch/include/asm/page.h:
	   no READ_IMPLIES_EXEC; sysdeps/{riscv,loongarch}/stackinfo.h. */
	{ EM_RISCV, 0, "riscv", NOEXEC, false, NOEXEC },
	{ EM_LOONGARCH, 0, "loongarch", NOEXEC, false, NOEXEC },
	/* include/linux/mm.h: VM_DATA_DEFAULT_FLAGS is VM_DATA_FLAGS_EXEC
	   where the architecture does not override it; their glibc ports
	   (sysdeps/{sparc,hppa,alpha,m68k,sh,microblaze,or1k}) use PF_X. */
	{ EM_SPARC, 0, "sparc", EXEC, false, EXEC },
	{ EM_SPARC32PLUS, 0, "sparc32plus", EXEC, false, EXEC },
	{ EM_SPARCV9, 0, "sparcv9", EXEC, false, EXEC },
	{ EM_PARISC, 0, "parisc", EXEC, false, EXEC },
	{ EM_ALPHA, 0, "alpha", EXEC, false, EXEC },
	{ EM_68K, 0, "m68k", EXEC, false, EXEC },
	{ EM_SH, 0, "sh", EXEC, false, EXEC },
	{ EM_MICROBLAZE, 0, "microblaze", EXEC, false, EXEC },
	{ EM_OPENRISC, 0, "openrisc", EXEC, false, EXEC },
	/* C-SKY and Xtensa: exec by the same default; glibc's csky port
	   does not set PF_X (sysdeps/csky/stackinfo.h), and glibc has no
	   Xtensa port. */
	{ EM_CSKY, 0, "csky", EXEC, false, NOEXEC },
	{ EM_XTENSA, 0, "xtensa", EXEC, false, UNKNOWN },
	/* arch/{arc,nios2,hexagon}/include/asm/page.h: non-exec defaults;
	   sysdeps/{arc,nios2}/stackinfo.h: no PF_X; no glibc for Hexagon. */
	{ EM_ARC_COMPACT, 0, "arc", NOEXEC, false, NOEXEC },
	{ EM_ARCV2, 0, "arcv2", NOEXEC, false, NOEXEC },
	{ EM_ALTERA_NIOS2, 0, "nios2", NOEXEC, false, NOEXEC },
	{ EM_QDSP6, 0, "hexagon", NOEXEC, false, UNKNOWN },
	/* arch/ia64/include/asm/elf.h: exec only with the e_flags bit
	   EF_IA_64_LINUX_EXECUTABLE_STACK, handled below. */
	{ EM_IA_64, 0, "ia64", NOEXEC, false, NOEXEC },
};

static const struct machine_rule *
rule_for(unsigned machine, unsigned elf_class)
{
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rules[i].machine == machine && (rules[i].elf_class == 0 ||
		    rules[i].elf_class == elf_class))
			return &rules[i];
	return NULL;
}

const char *
machine_name(unsigned machine, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rules[i].machine == machine && rules[i].elf_class != ELFCLASS32)
			return rules[i].name;
	snprintf(buf, len, "em%u", machine);
	return buf;
}

const char *
type_name(const struct chstk_info *info)
{
	switch (info->kind) {
	case CHSTK_KIND_PROGRAM:
		return info->pie ? "pie" : "exec";
	case CHSTK_KIND_SHARED:
		return "shared";
	case CHSTK_KIND_OBJECT:
		return "object";
	default:
		return info->type == ET_CORE ? "core" : "other";
	}
}

const char *
effective_name(enum effective e)
{
	static const char *const names[] = {
		[EFF_NOEXEC] = "noexec", [EFF_EXEC] = "exec",
		[EFF_UNKNOWN] = "unknown", [EFF_NONE] = "none",
	};

	return names[e];
}

static enum effective
eff(enum rule r)
{
	return r == EXEC ? EFF_EXEC : r == NOEXEC ? EFF_NOEXEC : EFF_UNKNOWN;
}

/* An unmarked program: the kernel's main stack, glibc's thread stacks. */
static void
unmarked_program(const struct machine_rule *m, const struct chstk_info *info,
    struct verdict *v)
{
	bool ia64_x = info->machine == EM_IA_64 && info->flags & 1;

	if (m->kernel == EXEC || ia64_x) {
		v->effective = EFF_EXEC;
		v->why = m->rie ? "unmarked: the kernel makes the stack and every readable mapping executable (READ_IMPLIES_EXEC)" :
		    "unmarked: this machine's kernel default is an executable stack";
		if (m->rie)
			v->findings |= F_READ_IMPLIES_EXEC;
	} else if (m->glibc == EXEC && !info->interp) {
		/* No dynamic linker: the C library, if any, is linked in, and
		   need not be glibc. */
		v->effective = EFF_EXEC;
		v->why = m->kernel == NOEXEC ?
		    "unmarked and static: the kernel makes the main stack non-executable; a C library's thread stacks would be executable" :
		    "unmarked and static: the kernel's main stack depends on the CPU; a C library's thread stacks would be executable";
	} else if (m->glibc == EXEC) {
		v->effective = EFF_EXEC;
		v->why = "unmarked: glibc makes thread stacks executable";
	} else if (m->kernel == UNKNOWN || m->glibc == UNKNOWN) {
		v->effective = EFF_UNKNOWN;
		v->why = "unmarked: the default depends on the CPU or C library";
	} else {
		v->effective = EFF_NOEXEC;
		v->why = "unmarked: this machine's default is non-executable";
	}
}

static void
unmarked(const struct chstk_info *info, struct verdict *v)
{
	const struct machine_rule *m = rule_for(info->machine,
	    info->elf_class);

	if (info->kind == CHSTK_KIND_OBJECT) {
		v->effective = EFF_EXEC;
		v->findings |= F_NO_NOTE;
		v->why = "no .note.GNU-stack: GNU ld will ask for an executable stack";
	} else if (m == NULL) {
		v->effective = EFF_UNKNOWN;
		v->why = "unmarked, and no rule is known for this machine";
	} else if (info->kind == CHSTK_KIND_SHARED) {
		v->effective = eff(m->glibc);
		v->why = m->glibc == EXEC ? "unmarked: glibc loads it as needing an executable stack" : m->glibc == NOEXEC ?
		    "unmarked: glibc's default on this machine is non-executable" : "unmarked: no glibc rule for this machine";
	} else {
		unmarked_program(m, info, v);
	}
}

void
verdict_of(const struct chstk_info *info, unsigned how, struct verdict *v)
{
	memset(v, 0, sizeof(*v));
	if (info->kind == CHSTK_KIND_OTHER) {
		v->effective = EFF_NONE;
		v->why = "not a program, library or object";
		return;
	}
	if (info->state == CHSTK_EXEC) {
		v->effective = EFF_EXEC;
		v->why = "marked exec";
	} else if (info->state == CHSTK_NOEXEC) {
		v->effective = EFF_NOEXEC;
		v->why = "marked noexec";
	} else {
		unmarked(info, v);
	}
	if (v->effective == EFF_EXEC)
		v->findings |= F_EXEC_STACK;
	if (v->effective == EFF_UNKNOWN)
		v->findings |= F_UNKNOWN_DEFAULT;
	if (v->effective == EFF_EXEC && info->kind == CHSTK_KIND_SHARED &&
	    how & VERDICT_REFUSING)
		v->findings |= F_DLOPEN_REFUSED;
	/* The kernel maps a loadable segment from the file: past its end, a
	   touch of the segment is a SIGBUS (mm/filemap.c). */
	if (info->cut) {
		v->findings |= F_MALFORMED;
		v->why = "a segment or the section header table runs past the end of the file";
	}
	if (how & VERDICT_ALLOWED && v->findings) {
		v->allowed = true;
		v->waived = v->findings;
		v->findings = 0;
	}
	if (info->wx > 0)
		v->findings |= F_WX_SEGMENT;
}

void
verdict_stacks(const struct chstk_info *info, enum effective *main_stack,
    enum effective *threads, const char **why)
{
	const struct machine_rule *m = rule_for(info->machine,
	    info->elf_class);
	struct verdict v;

	verdict_of(info, 0, &v);
	*main_stack = *threads = v.effective;
	*why = v.why;
	if (info->kind != CHSTK_KIND_PROGRAM || info->state != CHSTK_DEFAULT ||
	    m == NULL)
		return;
	/* Unmarked: the kernel's default for the main stack, the C
	   library's for the threads'. */
	*main_stack = info->machine == EM_IA_64 && info->flags & 1 ? EFF_EXEC :
	    eff(m->kernel);
	*threads = eff(m->glibc);
}

static const char *
rule_word(enum rule r)
{
	return r == EXEC ? "exec" : r == NOEXEC ? "noexec" : "unknown";
}

void
rules_print(FILE *f)
{
	size_t i;

	fprintf(f, "%-12s %-5s %-14s %-4s %s\n", "MACHINE", "CLASS",
	    "KERNEL-STACK", "RIE", "GLIBC");
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		fprintf(f, "%-12s %-5s %-14s %-4s %s\n", rules[i].name,
		    rules[i].elf_class == ELFCLASS64 ? "64" :
		    rules[i].elf_class == ELFCLASS32 ? "32" : "any",
		    rule_word(rules[i].kernel), rules[i].rie ? "yes" : "no",
		    rule_word(rules[i].glibc));
}
