/*
 * evidence.h - how an image was built, as far as it tells (evidence.c):
 * the compilation units of its DWARF, in the file or in its separate
 * debug file (their producers: which compiler, and with gcc, or clang's
 * -grecord-command-line, its options; the _FORTIFY_SOURCE level their
 * -g3 macro tables leave), annobin's notes, and its x86-64
 * code (GCC's trampolines, stack probes). From them: why an image asks for
 * an executable stack and whether chstk -E is safe on it (the cause),
 * and the compiler's defences --hardening reports. Pure functions of what
 * the library read; never a guess: what nothing shows is unknown.
 */
#ifndef EVIDENCE_H
#define EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "chstk.h"
#include "verdict.h"

/* -O levels as producers record them; -Oz counts as -Os. */
enum opt { OPT_0, OPT_1, OPT_2, OPT_3, OPT_S, OPT_G, OPT_FAST, OPT_COUNT };

/* Of the units whose producer records the compiler's options (gcc's, and
   clang's with -grecord-command-line): how many had each. */
struct ev_flags {
	unsigned opt[OPT_COUNT];
	unsigned stack_clash;	/* -fstack-clash-protection */
	unsigned cf_full;	/* -fcf-protection (=full) */
	unsigned auto_var_init;	/* -ftrivial-auto-var-init=zero or
				   =pattern */
	unsigned lto;		/* -flto */
	unsigned sp_strong;	/* -fstack-protector-strong or -all */
	unsigned sp_basic;	/* -fstack-protector alone */
	/* clang records -D; gcc never does */
	unsigned defines;	/* units that could record one: clang's */
	unsigned fortify[4];	/* by _FORTIFY_SOURCE level, 0: unset */
	unsigned glibcxx;	/* -D_GLIBCXX_ASSERTIONS */
};

/* _FORTIFY_SOURCE's level, of the units that record it: their macro
   table (-g3), else clang's producer (-grecord-command-line); gcc's
   producer never records -D. */
struct ev_fortify {
	unsigned units;		/* that record it */
	unsigned macros;	/* of them, by their macro table */
	unsigned level[4];	/* by level, 0: not defined */
};

#define EV_TEXT 256

struct evidence {
	bool looked;		/* the DWARF and notes were read */
	bool code;		/* its x86-64 code was searched */
	/* The units, in the file or its separate debug file. */
	unsigned units;
	unsigned assembler;	/* DW_LANG_Mips_Assembler, or "GNU AS" */
	unsigned gimple;	/* "GNU GIMPLE": what LTO compiled */
	unsigned recorded;	/* compiled, the options recorded */
	unsigned unrecorded;	/* compiled, none recorded (clang) */
	unsigned elsewhere;	/* producer in a dwz file, not read */
	struct ev_flags f;
	struct ev_fortify fl;
	char compiler[64];	/* the first compiler seen: "GNU C17
				   12.2.0", "clang 14.0.6" */
	char asm_names[EV_TEXT];	/* the assembly sources, ", "-separated,
					   as many as fit */
	unsigned asm_listed;	/* how many asm_names holds */
	bool units_cut, debug_alt;
	/* The code (with ev.code). */
	unsigned trampolines, probed, unprobed;
	bool code_cut;
	/* annobin's notes */
	unsigned an_notes;
	struct chstk_annobin_value an_stack_prot, an_stack_clash, an_cf_full,
	    an_fortify, an_glibcxx_assertions, an_optimize, an_lto,
	    an_auto_var_init;
	/* Where the units came from: the separate debug file (in the root,
	   or PACKAGE!MEMBER), "" when from the file itself or none. */
	char debug_file[EV_TEXT];
	/* A separate debug file found but not used, and why; or "". */
	char debug_problem[EV_TEXT];
	char error[EV_TEXT];	/* why the DWARF or code was not read */
};

/* Nothing read: no units, no notes (their values -1). */
extern const struct evidence ev_none;
void ev_clear(struct evidence *e);
/* One compilation unit of the image (or of its debug file). */
void ev_unit(struct evidence *e, const struct chstk_unit *u);
/* The rest of what the library read of the image with
   CHSTK_READ_EVIDENCE (and CHSTK_READ_CODE_SEARCH: h->code). */
void ev_image(struct evidence *e, const struct chstk_hardening *h);
/* The units and notes of the image's separate debug file, d, found at
   where, used in place of the image's own (which it has none of). */
void ev_debug_file(struct evidence *e, const struct evidence *d,
    const char *where);
/* Does the image have units of its own (or notes), so that its separate
   debug file is not needed? */
bool ev_has_own(const struct evidence *e);

/* Whether 'chstk -E' is safe on an image that asks for an executable
   stack. */
enum ev_safe { SAFE_UNKNOWN, SAFE_LIKELY, SAFE_NOT };
/* What made the image (info) ask for an executable stack, in a phrase
   into buf ("from the assembly sources a.S, b.S"), and whether chstk -E
   is safe on it. */
enum ev_safe ev_cause(const struct chstk_info *info,
    const struct evidence *e, char *buf, size_t len);
/* "likely safe: ...", "not safe: ...", "unknown: ...": the phrase. */
const char *ev_safe_phrase(enum ev_safe s, const struct chstk_info *info,
    const struct evidence *e);
/* "likely", "no", "unknown": the JSON word. */
const char *ev_safe_word(enum ev_safe s);

/* What an image's evidence says of a defence (T_NA: nothing to protect,
   no stack frame of a page or more; T_UNKNOWN: nothing tells). */
enum tri ev_stack_clash(const struct evidence *e);
enum tri ev_optimized(const struct evidence *e);
enum tri ev_auto_var_init(const struct evidence *e);

#endif
