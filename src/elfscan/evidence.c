/*
 * evidence.c - how an image was built, from what the library read of its
 * DWARF units, annobin's notes and its code (evidence.h).
 *
 * A unit's producer (DW_AT_producer) names its compiler, and gcc's
 * records the -f, -m and -O options it was given (-grecord-gcc-switches,
 * gcc's default), never -D, -W or what a distribution's gcc turns on by
 * default; clang's records its whole command line, -D included, only with
 * -grecord-command-line. Of the units whose producer records options,
 * each option is counted as the last of its kind on the line sets it
 * (gcc and clang take the last one too). An assembler's unit
 * (DW_LANG_Mips_Assembler, which both gas and clang's assembler write, or
 * a "GNU AS" producer) is a source the compiler did not write a
 * .note.GNU-stack for: where an executable stack is asked for without a
 * trampoline, the likely reason. A unit's _FORTIFY_SOURCE level is the
 * one its macro table leaves (-g3, read by the library), which sees what
 * the command line, a distribution's gcc and the sources define; else
 * the one clang's recorded -D and -U set.
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "evidence.h"

#define DW_LANG_MIPS_ASSEMBLER 0x8001

#define NO_NOTE { -1, -1 }
const struct evidence ev_none = {
	.an_stack_prot = NO_NOTE, .an_stack_clash = NO_NOTE,
	.an_cf_full = NO_NOTE, .an_fortify = NO_NOTE,
	.an_glibcxx_assertions = NO_NOTE, .an_optimize = NO_NOTE,
	.an_lto = NO_NOTE, .an_auto_var_init = NO_NOTE,
};

void
ev_clear(struct evidence *e)
{
	*e = ev_none;
}

/* What one producer's options set, the last of each kind winning. */
struct options {
	enum opt opt;
	bool stack_clash, cf_full, auto_var_init, lto;
	int sp;			/* 0 none, 1 basic, 2 strong or all */
	int fortify;		/* 0 unset */
	bool glibcxx;
};

/* A -D or -U of macro[=value], d true for -D. */
static void
define(struct options *o, const char *m, bool d)
{
	static const char fs[] = "_FORTIFY_SOURCE", ga[] = "_GLIBCXX_ASSERTIONS";

	if (strncmp(m, fs, sizeof(fs) - 1) == 0 &&
	    (m[sizeof(fs) - 1] == '\0' || m[sizeof(fs) - 1] == '='))
		o->fortify = !d ? 0 : m[sizeof(fs) - 1] == '\0' ? 1 :
		    m[sizeof(fs)] >= '0' && m[sizeof(fs)] <= '3' ?
		    m[sizeof(fs)] - '0' : 1;
	else if (strncmp(m, ga, sizeof(ga) - 1) == 0 &&
	    (m[sizeof(ga) - 1] == '\0' || m[sizeof(ga) - 1] == '='))
		o->glibcxx = d;
}

static void
optimize(struct options *o, const char *t)
{
	if (t[2] == '\0')
		o->opt = OPT_1;
	else if (t[2] >= '0' && t[2] <= '9' && t[3] == '\0')
		o->opt = t[2] == '0' ? OPT_0 : t[2] == '1' ? OPT_1 :
		    t[2] == '2' ? OPT_2 : OPT_3;
	else if (strcmp(t, "-Os") == 0 || strcmp(t, "-Oz") == 0)
		o->opt = OPT_S;
	else if (strcmp(t, "-Og") == 0)
		o->opt = OPT_G;
	else if (strcmp(t, "-Ofast") == 0)
		o->opt = OPT_FAST;
}

/* One option of a producer's line; next is the word after it (clang
   writes "-D _FORTIFY_SOURCE=3"), or NULL. Returns whether it took next. */
static bool
option(struct options *o, const char *t, const char *next)
{
	if ((strcmp(t, "-D") == 0 || strcmp(t, "-U") == 0) && next != NULL) {
		define(o, next, t[1] == 'D');
		return true;
	}
	if (strncmp(t, "-D", 2) == 0 || strncmp(t, "-U", 2) == 0)
		define(o, t + 2, t[1] == 'D');
	else if (strncmp(t, "-O", 2) == 0)
		optimize(o, t);
	else if (strcmp(t, "-fstack-clash-protection") == 0)
		o->stack_clash = true;
	else if (strcmp(t, "-fno-stack-clash-protection") == 0)
		o->stack_clash = false;
	else if (strncmp(t, "-fcf-protection", 15) == 0)
		o->cf_full = t[15] == '\0' || strcmp(t + 15, "=full") == 0;
	else if (strncmp(t, "-ftrivial-auto-var-init=", 24) == 0)
		o->auto_var_init = strcmp(t + 24, "zero") == 0 ||
		    strcmp(t + 24, "pattern") == 0;
	else if (strcmp(t, "-flto") == 0 || strncmp(t, "-flto=", 6) == 0)
		o->lto = true;
	else if (strcmp(t, "-fno-lto") == 0)
		o->lto = false;
	else if (strcmp(t, "-fstack-protector") == 0)
		o->sp = 1;
	else if (strcmp(t, "-fstack-protector-strong") == 0 ||
	    strcmp(t, "-fstack-protector-all") == 0)
		o->sp = 2;
	else if (strcmp(t, "-fno-stack-protector") == 0 ||
	    strcmp(t, "-fstack-protector-explicit") == 0)
		o->sp = 0;
	return false;
}

/* The word at p into w (len bytes, cut to fit; "" at the end); returns
   what follows it. */
static const char *
word(const char *p, char *w, size_t len)
{
	size_t n;

	p += strspn(p, " ");
	n = strcspn(p, " ");
	snprintf(w, len, "%.*s", (int)n, p);
	return p + n;
}

/* The options a producer's line records; false when it records none. */
static bool
options_of(const char *producer, struct options *o)
{
	char cur[256], next[256];
	const char *p;
	bool any = false;

	memset(o, 0, sizeof(*o));
	o->opt = OPT_0;
	p = word(producer, cur, sizeof(cur));
	while (cur[0] != '\0') {
		p = word(p, next, sizeof(next));
		if (cur[0] == '-') {
			any = true;
			if (option(o, cur, next[0] != '\0' ? next : NULL))
				p = word(p, next, sizeof(next));
		}
		memcpy(cur, next, sizeof(cur));
	}
	return any;
}

/* "GNU C17 12.2.0", "clang 14.0.6": who made the unit, into out. */
static void
compiler_of(const char *producer, char *out, size_t len)
{
	const char *c = strstr(producer, "clang version ");
	size_t n;

	if (c != NULL) {
		c += 14;
		snprintf(out, len, "clang %.*s", (int)strcspn(c, " "), c);
		return;
	}
	/* gcc: "GNU", the language, the version. */
	n = strcspn(producer, " ");
	n += strspn(producer + n, " ");
	n += strcspn(producer + n, " ");
	n += strspn(producer + n, " ");
	n += strcspn(producer + n, " ");
	snprintf(out, len, "%.*s", (int)n, producer);
}

static void
count(struct ev_flags *f, const struct options *o, bool clang)
{
	f->opt[o->opt]++;
	f->stack_clash += o->stack_clash;
	f->cf_full += o->cf_full;
	f->auto_var_init += o->auto_var_init;
	f->lto += o->lto;
	f->sp_strong += o->sp == 2;
	f->sp_basic += o->sp == 1;
	if (!clang)
		return;
	f->defines++;
	f->fortify[o->fortify]++;
	f->glibcxx += o->glibcxx;
}

static void
fortify_level(struct ev_fortify *fl, int level, bool macro)
{
	fl->units++;
	fl->macros += macro;
	fl->level[level]++;
}

/* An assembly source, added to the list as far as it fits. */
static void
assembly(struct evidence *e, const char *name)
{
	size_t have = strlen(e->asm_names), n = strlen(name);

	e->assembler++;
	if (have + (have ? 2 : 0) + n + 1 > sizeof(e->asm_names))
		return;
	snprintf(e->asm_names + have, sizeof(e->asm_names) - have, "%s%s",
	    have ? ", " : "", name[0] ? name : "(unnamed)");
	e->asm_listed++;
}

void
ev_unit(struct evidence *e, const struct chstk_unit *u)
{
	const char *p = u->producer;
	struct options o;
	bool clang = strstr(p, "clang version ") != NULL;
	bool macro = u->fortify >= 0 && u->fortify <= 3;

	e->units++;
	if (u->language == DW_LANG_MIPS_ASSEMBLER ||
	    strncmp(p, "GNU AS", 6) == 0) {
		assembly(e, u->name);
		return;
	}
	if (macro)
		fortify_level(&e->fl, u->fortify, true);
	if (p[0] == '\0') {
		e->elsewhere += u->elsewhere;
		return;
	}
	if (strncmp(p, "GNU GIMPLE", 10) == 0) {
		e->gimple++;
		return;
	}
	if (strncmp(p, "GNU ", 4) != 0 && !clang)
		return;
	if (e->compiler[0] == '\0')
		compiler_of(p, e->compiler, sizeof(e->compiler));
	if (!options_of(p, &o)) {
		e->unrecorded++;
		return;
	}
	e->recorded++;
	count(&e->f, &o, clang);
	if (clang && !macro)
		fortify_level(&e->fl, o.fortify, false);
}

void
ev_image(struct evidence *e, const struct chstk_hardening *h)
{
	e->looked = true;
	e->units_cut = h->units_cut;
	e->debug_alt = h->debug_alt;
	snprintf(e->error, sizeof(e->error), "%s",
	    h->evidence_error != NULL ? h->evidence_error : "");
	e->an_notes = h->an_notes;
	e->an_stack_prot = h->an_stack_prot;
	e->an_stack_clash = h->an_stack_clash;
	e->an_cf_full = h->an_cf_full;
	e->an_fortify = h->an_fortify;
	e->an_glibcxx_assertions = h->an_glibcxx_assertions;
	e->an_optimize = h->an_optimize;
	e->an_lto = h->an_lto;
	e->an_auto_var_init = h->an_auto_var_init;
	if (!h->code)
		return;
	e->code = true;
	e->trampolines = h->trampolines;
	e->probed = h->probed;
	e->unprobed = h->unprobed;
	e->code_cut = h->code_cut;
}

bool
ev_has_own(const struct evidence *e)
{
	return e->units > 0 || e->an_notes > 0;
}

void
ev_debug_file(struct evidence *e, const struct evidence *d,
    const char *where)
{
	struct evidence own = *e;

	*e = *d;
	/* The code is the image's: a debug file holds none. */
	e->code = own.code;
	e->trampolines = own.trampolines;
	e->probed = own.probed;
	e->unprobed = own.unprobed;
	e->code_cut = own.code_cut;
	e->looked = true;
	snprintf(e->debug_file, sizeof(e->debug_file), "%s", where);
	if (e->error[0] == '\0')
		snprintf(e->error, sizeof(e->error), "%s", own.error);
}

/* Can the code tell a trampoline? On x86-64, when it was searched. */
static bool
code_tells(const struct chstk_info *info, const struct evidence *e)
{
	return info->machine == EM_X86_64 && info->elf_class == ELFCLASS64 &&
	    e->code;
}

enum ev_safe
ev_cause(const struct chstk_info *info, const struct evidence *e, char *buf,
    size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (info->kind == CHSTK_KIND_OBJECT)
		n = (size_t)snprintf(buf, len, "%s", info->state == CHSTK_EXEC ?
		    "its .note.GNU-stack asks for an executable stack: its compiler asked" :
		    "it has no .note.GNU-stack: an assembly source, or a tool that does not write the note");
	else if (info->state == CHSTK_DEFAULT)
		n = (size_t)snprintf(buf, len, "it has no GNU_STACK program header: linked by an old toolchain or a linker script without one");
	if (e->assembler > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%sfrom the assembly source%s %s",
		    n ? "; " : "", e->assembler == 1 ? "" : "s", e->asm_names);
	if (e->assembler > e->asm_listed && n < len)
		n += (size_t)snprintf(buf + n, len - n, " and %u more",
		    e->assembler - e->asm_listed);
	if (e->trampolines > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%sGCC nested-function trampolines (%u built on the stack in its code)",
		    n ? "; " : "", e->trampolines);
	if (n == 0 && e->units > 0)
		snprintf(buf, len, "its DWARF names no assembly source%s: linked with -z execstack, or an object without DWARF asked",
		    code_tells(info, e) ? " and its code builds no trampoline" : "");
	else if (n == 0)
		snprintf(buf, len, "nothing in the file tells: no DWARF%s",
		    e->debug_problem[0] ? " (its debug file was not used)" :
		    " (stripped, and no debug file found)");
	if (e->trampolines > 0)
		return SAFE_NOT;
	if (info->kind != CHSTK_KIND_OBJECT && e->units > 0 &&
	    code_tells(info, e))
		return SAFE_LIKELY;
	return SAFE_UNKNOWN;
}

const char *
ev_safe_phrase(enum ev_safe s, const struct chstk_info *info,
    const struct evidence *e)
{
	switch (s) {
	case SAFE_LIKELY:
		return "likely safe: no sign the code runs code on its stack";
	case SAFE_NOT:
		return "not safe: GCC trampolines";
	default:
		return !e->looked ? "unknown: its DWARF and code were not read" :
		    info->kind == CHSTK_KIND_OBJECT ?
		    "unknown: an object's DWARF is not read" :
		    e->units == 0 ? "unknown: no DWARF to tell what it holds" :
		    !e->code ? "unknown: its code was not searched (x86-64 only)" :
		    "unknown";
	}
}

const char *
ev_safe_word(enum ev_safe s)
{
	return s == SAFE_LIKELY ? "likely" : s == SAFE_NOT ? "no" : "unknown";
}

/* A setting annobin's notes give: T_YES when every note has it at least
   at, T_NO when one has less, T_UNKNOWN when none says. */
static enum tri
noted(const struct evidence *e, const struct chstk_annobin_value *v, int at)
{
	if (e->an_notes == 0 || v->min < 0)
		return T_UNKNOWN;
	return v->min >= at ? T_YES : T_NO;
}

/* Of the units that record their options, have had all of them? */
static enum tri
recorded(const struct evidence *e, unsigned have)
{
	if (e->recorded == 0)
		return T_UNKNOWN;
	return have == e->recorded ? T_YES : T_NO;
}

enum tri
ev_stack_clash(const struct evidence *e)
{
	enum tri t;

	/* What the code does wins over what the options said. */
	if (e->code && e->unprobed > 0)
		return T_NO;
	if (e->code && e->probed > 0)
		return T_YES;
	if ((t = noted(e, &e->an_stack_clash, 1)) != T_UNKNOWN)
		return t;
	if ((t = recorded(e, e->f.stack_clash)) != T_UNKNOWN)
		return t;
	return e->code ? T_NA : T_UNKNOWN;
}

enum tri
ev_optimized(const struct evidence *e)
{
	enum tri t;

	if ((t = noted(e, &e->an_optimize, 2)) != T_UNKNOWN)
		return t;
	return recorded(e, e->f.opt[OPT_2] + e->f.opt[OPT_3] +
	    e->f.opt[OPT_S] + e->f.opt[OPT_FAST]);
}

enum tri
ev_auto_var_init(const struct evidence *e)
{
	enum tri t;

	if ((t = noted(e, &e->an_auto_var_init, 1)) != T_UNKNOWN)
		return t;
	return recorded(e, e->f.auto_var_init);
}
