/*
 * mdwe.c - what MemoryDenyWriteExecute=yes does to a program and the
 * libraries it loads at start-up (see system.h). systemd sets it in the
 * service's process before execve(), which the program inherits:
 *
 *   PR_SET_MDWE   prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN) since
 *                 systemd 254 (commit 7a114ed4b3; src/core/exec-invoke.c
 *                 apply_memory_deny_write_execute), when the kernel has it
 *                 (Linux 6.3): the kernel refuses any mapping that is
 *                 writable and executable, and any that gains execute
 *                 (include/linux/mman.h map_deny_write_exec, from
 *                 mm/mmap.c mmap_region and mm/mprotect.c), the kernel's
 *                 own ELF loader included
 *   seccomp       before 254, or where the prctl fails with EINVAL: a
 *                 filter on the system calls (src/shared/seccomp-util.c
 *                 seccomp_memory_deny_write_execute): mmap() of W+X and
 *                 mprotect() with PROT_EXEC fail with EPERM; what the
 *                 kernel maps at exec is no system call and passes
 *
 * One row a fault, in the order a process meets them: the kernel maps the
 * program at exec, glibc's dynamic linker sets up its stack and maps,
 * then relocates, the libraries, and the program runs. Each row was
 * watched in a booted Linux 6.12 (kernel/mdwe.sh; tests/system/units.sh
 * judges these verdicts by it); the seccomp column follows from the
 * filter, and from runs of it by hand (elfscan(1), SYSTEM VERDICTS).
 */
#include <elf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "system.h"
#include "verdict.h"
#include "xalloc.h"

/* What is at fault. */
enum what {
	PROG_WX,		/* the program has a W+X PT_LOAD */
	PROG_RIE,		/* the kernel gives it READ_IMPLIES_EXEC */
	TUNABLE_FORCE,		/* glibc.rtld.execstack=2 */
	LIB_WX,			/* a library has a W+X PT_LOAD */
	LIB_XSTACK,		/* a library asks for an executable stack */
	TEXTREL,		/* the program or a library has DT_TEXTREL */
	PROG_THREADS,		/* glibc takes the program to ask for an
				   executable stack */
};

static const struct mdwe_rule {
	enum what what;
	unsigned under;		/* the ways it breaks under */
	bool fatal;
	const char *why;
	/* Under PR_SET_MDWE only, when the seccomp filter may be what is
	   in force instead. */
	const char *why_maybe;
} rules[] = {
	/* fs/binfmt_elf.c elf_map() -> vm_mmap() -> mmap_region(): EACCES
	   after the point of no return, fs/exec.c: SIGSEGV. Watched:
	   mdwe-wx, mdwe-wx-static killed (signal 11). */
	{ PROG_WX, MDWE_PRCTL, true,
	  "a writable and executable segment: under MemoryDenyWriteExecute=yes the kernel cannot map it, and kills the process at exec (SIGSEGV)",
	  "a writable and executable segment: under MemoryDenyWriteExecute=yes the kernel cannot map it, and kills the process at exec (SIGSEGV), where systemd uses PR_SET_MDWE (systemd 254 and later on Linux 6.3 and later; the seccomp filter of older ones lets it run)" },
	/* arch/x86/include/asm/elf.h elf_read_implies_exec(): an ia32
	   program without PT_GNU_STACK; mm/mmap.c do_mmap() adds PROT_EXEC
	   to every readable mapping, its data turns W+X. Watched:
	   mdwe-i386, mdwe-i386-static killed (signal 11). */
	{ PROG_RIE, MDWE_PRCTL, true,
	  "unmarked (no GNU_STACK program header): the kernel gives it READ_IMPLIES_EXEC, which makes its writable data executable, and under MemoryDenyWriteExecute=yes kills it at exec (SIGSEGV)",
	  "unmarked (no GNU_STACK program header): the kernel gives it READ_IMPLIES_EXEC, which makes its writable data executable, and under MemoryDenyWriteExecute=yes kills it at exec (SIGSEGV), where systemd uses PR_SET_MDWE (systemd 254 and later on Linux 6.3 and later; the seccomp filter of older ones lets it run)" },
	/* elf/dl-execstack-tunable.c _dl_handle_execstack_tunable(), at
	   start-up (elf/rtld.c): "Fatal glibc error: cannot enable
	   executable stack as tunable requires", exit 127. Watched on
	   trixie's 2.41 and forky's 2.43 with mdwe-clean. */
	{ TUNABLE_FORCE, MDWE_PRCTL | MDWE_SECCOMP, true,
	  "glibc.rtld.execstack=2 under MemoryDenyWriteExecute=yes: glibc cannot make the stack executable, and every program of the service exits 127 at start ('cannot enable executable stack as tunable requires')",
	  NULL },
	/* elf/dl-load.c _dl_map_segments(): mmap of the RWE segment
	   refused, "failed to map segment from shared object" (elf/
	   dl-load.h), exit 127. Watched: mdwe-needs-wx. */
	{ LIB_WX, MDWE_PRCTL | MDWE_SECCOMP, true,
	  "a writable and executable segment: under MemoryDenyWriteExecute=yes ld.so cannot map it, and the service exits 127 at start ('failed to map segment from shared object')",
	  NULL },
	/* elf/dl-load.c _dl_map_object_from_fd(), then
	   sysdeps/unix/sysv/linux/dl-execstack.c: mprotect(PROT_EXEC) of
	   the stack refused, "cannot enable executable stack as shared
	   object requires", exit 127; only while the process's stack is not
	   already believed executable. Watched: mdwe-needs-xstack. */
	{ LIB_XSTACK, MDWE_PRCTL | MDWE_SECCOMP, true,
	  "it asks for an executable stack: under MemoryDenyWriteExecute=yes ld.so cannot make the stack executable, and the service exits 127 at start ('cannot enable executable stack as shared object requires')",
	  NULL },
	/* elf/dl-reloc.c _dl_relocate_object(): each read-only segment
	   made writable, keeping PROT_EXEC, for the relocations: refused,
	   "cannot make segment writable for relocation", exit 127.
	   Watched: mdwe-needs-textrel, mdwe-textrel-pie. */
	{ TEXTREL, MDWE_PRCTL | MDWE_SECCOMP, true,
	  "text relocations: under MemoryDenyWriteExecute=yes ld.so cannot make its code writable to relocate it, and the service exits 127 at start ('cannot make segment writable for relocation')",
	  NULL },
	/* nptl/allocatestack.c: thread stacks mapped PROT_EXEC while the
	   process's stack flags have PF_X (the program marked so, or
	   unmarked where glibc's default is executable); the main stack
	   the kernel made at exec is not checked (fs/exec.c
	   setup_arg_pages). Watched: mdwe-execstack runs, with "thread"
	   pthread_create fails with EACCES. */
	{ PROG_THREADS, MDWE_PRCTL | MDWE_SECCOMP, false,
	  "glibc takes it to ask for an executable stack: under MemoryDenyWriteExecute=yes it starts, but cannot start a thread (glibc maps thread stacks executable, pthread_create fails)",
	  NULL },
};

/* What the rules read of the object o. */
static struct mdwe_obj
facts_of(const struct obj *o)
{
	struct verdict v;

	verdict_of(&o->info, 0, &v);
	return (struct mdwe_obj){ .wx = o->info.wx,
	    .asks = v.effective == EFF_EXEC,
	    .rie = (v.findings & F_READ_IMPLIES_EXEC) != 0,
	    .textrel = o->textrel };
}

/* Does the rule hold of the object o (a library when lib)? */
static bool
holds(enum what w, const struct mdwe_obj *o, bool lib, bool main_x, int t)
{
	switch (w) {
	case PROG_WX:
		return !lib && o->wx > 0;
	case PROG_RIE:
		return !lib && o->rie;
	case LIB_WX:
		return lib && o->wx > 0;
	case LIB_XSTACK:
		/* Refused by glibc itself with the tunable at 0; with it at
		   2, or the program asking, the stack is executable
		   already. */
		return lib && o->asks && !main_x && t == 1;
	case TEXTREL:
		return o->textrel;
	case PROG_THREADS:
		return !lib && o->asks && t != 0;
	case TUNABLE_FORCE:
		break;
	}
	return false;
}

static void
fault(const struct mdwe_rule *r, size_t node, unsigned mech,
    void (*fn)(void *arg, const struct mdwe_fault *f), void *arg)
{
	struct mdwe_fault f = { node, r->why, r->fatal };

	if (!(r->under & mech))
		return;
	if ((mech & ~r->under) != 0 && r->why_maybe != NULL)
		f.why = r->why_maybe;
	fn(arg, &f);
}

void
mdwe_faults_of(const struct mdwe_obj *v, size_t n, bool dynamic,
    unsigned mech, int t, void (*fn)(void *arg, const struct mdwe_fault *f),
    void *arg)
{
	bool main_x = v[0].asks, fatal = false;
	size_t i, k;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct mdwe_rule *r = &rules[i];

		if (r->what == TUNABLE_FORCE) {
			if (dynamic && t == 2 && (r->under & mech)) {
				fault(r, MDWE_TUNABLE, mech, fn, arg);
				fatal = true;
			}
			continue;
		}
		if (r->what == PROG_THREADS && fatal)
			continue;
		for (k = 0; k < n; k++) {
			if (!holds(r->what, &v[k], k > 0, main_x, t) ||
			    !(r->under & mech))
				continue;
			fault(r, k, mech, fn, arg);
			/* A program that never starts starts no thread; one
			   that may (under one way only) may fail to. */
			fatal = fatal || (r->fatal && (mech & ~r->under) == 0);
		}
	}
}

void
mdwe_faults(const struct obj *program, const struct closure *c,
    unsigned mech, int t, void (*fn)(void *arg, const struct mdwe_fault *f),
    void *arg)
{
	size_t k, n = c != NULL ? c->n : 1;
	struct mdwe_obj *v = xcalloc(n, sizeof(*v));

	for (k = 0; k < n; k++)
		v[k] = facts_of(k == 0 ? program : c->v[k].o);
	mdwe_faults_of(v, n, c != NULL, mech, t, fn, arg);
	free(v);
}

unsigned
mdwe_ways_of(unsigned systemd, const char *kernel)
{
	unsigned major, minor;

	if (systemd != 0 && systemd < 254)
		return MDWE_SECCOMP;
	if (systemd == 0 || kernel == NULL ||
	    sscanf(kernel, "%u.%u", &major, &minor) != 2)
		return MDWE_PRCTL | MDWE_SECCOMP;
	return major > 6 || (major == 6 && minor >= 3) ? MDWE_PRCTL :
	    MDWE_SECCOMP;
}

const char *
mdwe_ways_said(unsigned ways, unsigned systemd)
{
	return ways == MDWE_PRCTL ? "PR_SET_MDWE" :
	    ways == MDWE_SECCOMP ? "a seccomp filter" : systemd != 0 ?
	    "PR_SET_MDWE on Linux 6.3 and later, else a seccomp filter (the kernel is not known)" :
	    "PR_SET_MDWE or a seccomp filter";
}
