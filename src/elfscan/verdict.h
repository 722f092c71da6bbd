/*
 * verdict.h - the rules elfscan judges an image by: what stack it gets
 * (verdict.c, a table of machines), its other defences with --hardening
 * and what --require asks of them (hardening.c), the path patterns of the
 * allowlist and of --require (allow.c), the classes of ELF files they do
 * not judge (scope.c), and the kinds of finding all of them give
 * (findings.c). Pure functions of what the library read: no I/O but
 * loading the allowlist.
 */
#ifndef VERDICT_H
#define VERDICT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "chstk.h"
#include "where.h"

/* What a finding is: each a bit of a uint64_t, in the order of the table
   below; a set of findings is a uint64_t. */
#define F_BIT(i) (UINT64_C(1) << (i))
#define F_EXEC_STACK F_BIT(0)		/* the stack will be executable */
#define F_READ_IMPLIES_EXEC F_BIT(1)	/* and every readable mapping too */
#define F_DLOPEN_REFUSED F_BIT(2)	/* glibc >= 2.41 refuses to dlopen it */
#define F_UNKNOWN_DEFAULT F_BIT(3)	/* unmarked, default not known here */
#define F_NO_NOTE F_BIT(4)		/* object without .note.GNU-stack */
#define F_WX_SEGMENT F_BIT(5)		/* writable and executable memory */
#define F_MALFORMED F_BIT(6)		/* an ELF file that does not parse */
/* --require'd hardening found missing (hardening.c). */
#define F_NO_PIE F_BIT(7)
#define F_NO_FULL_RELRO F_BIT(8)
#define F_NO_CANARY F_BIT(9)
#define F_NO_FORTIFY F_BIT(10)
#define F_UNSAFE_RPATH F_BIT(11)
#define F_NO_IBT F_BIT(12)
#define F_NO_SHSTK F_BIT(13)
#define F_NO_BTI F_BIT(14)
#define F_NO_PAC F_BIT(15)
#define F_NOT_STRIPPED F_BIT(16)
/* The verdicts of a root (system.h): what breaks, and where. */
#define F_STACK_MADE_EXEC F_BIT(17)	/* a library makes a process's stack
					   executable */
#define F_STARTUP_REFUSED F_BIT(18)	/* glibc will not start the program */
#define F_PLUGIN_REFUSED F_BIT(19)	/* the host's dlopen refuses it */
#define F_PLUGIN_EXEC_STACK F_BIT(20)	/* it makes the host's stack
					   executable */
#define F_UNRESOLVED F_BIT(21)		/* a needed library found nowhere */
#define F_TUNABLE_EXEC_STACK F_BIT(22)	/* GLIBC_TUNABLES forces executable
					   stacks */
#define F_MDWE_BREAKS F_BIT(23)	/* MemoryDenyWriteExecute=yes breaks a
					   service */
/* --diff: a defence the new build lost (diff.c). */
#define F_REGRESSION F_BIT(24)
/* Running processes (proc.h): what their memory is now. */
#define F_PROC_EXEC_STACK F_BIT(25)	/* an executable stack, asked for */
#define F_PROC_UNASKED F_BIT(26)	/* one nothing it loaded asks for */
#define F_PROC_RWX F_BIT(27)		/* other writable and executable
					   memory */
/* --require'd: annocheck's tests of the binary alone (hardening.c). */
#define F_TEXTREL F_BIT(28)
#define F_MULTI_DYNAMIC F_BIT(29)
#define F_BAD_PROPERTY F_BIT(30)
#define F_NO_ENDBR F_BIT(31)
#define F_NO_BTI_PLT F_BIT(32)
#define F_ODD_SEGMENT F_BIT(33)
#define F_RELRO_GAP F_BIT(34)
#define F_RUN_PATH_OUTSIDE F_BIT(35)
#define F_SUSPICIOUS_NAME F_BIT(36)
/* --require'd: no GNU_RELRO segment at all (hardening.c). */
#define F_NO_RELRO F_BIT(37)
/* --require'd compiler defences the evidence shows missing (hardening.c,
   evidence.c). */
#define F_NO_STACK_CLASH F_BIT(38)
#define F_NOT_OPTIMIZED F_BIT(39)
#define F_NO_AUTO_VAR_INIT F_BIT(40)
#define F_COUNT 41
#define F_FIRST_SYSTEM 17	/* the bit index of F_STACK_MADE_EXEC */
_Static_assert(F_BIT(F_FIRST_SYSTEM) == F_STACK_MADE_EXEC,
    "F_FIRST_SYSTEM is the bit of the first verdict of a root");
/* The findings --require gives. */
#define F_HARDENING (F_NO_PIE | F_NO_FULL_RELRO | F_NO_CANARY | F_NO_FORTIFY | \
    F_UNSAFE_RPATH | F_NO_IBT | F_NO_SHSTK | F_NO_BTI | F_NO_PAC | \
    F_NOT_STRIPPED | F_TEXTREL | F_MULTI_DYNAMIC | F_BAD_PROPERTY | \
    F_NO_ENDBR | F_NO_BTI_PLT | F_ODD_SEGMENT | F_RELRO_GAP | \
    F_RUN_PATH_OUTSIDE | F_SUSPICIOUS_NAME | F_NO_RELRO | \
    F_NO_STACK_CLASH | F_NOT_OPTIMIZED | F_NO_AUTO_VAR_INIT)

/* findings.c: each kind of finding, once, for every writer. */
struct finding_kind {
	const char *id;		/* "exec-stack": text, JSON, SARIF ruleId */
	const char *name;	/* "ExecutableStack": SARIF's rule name */
	const char *level;	/* SARIF: error, warning or note */
	const char *severity;	/* security-severity, CVSS-like 0.0 - 10.0 */
	const char *brief;	/* one sentence: what it means */
	const char *full;	/* why it matters */
	const char *help;	/* how to fix it */
	const char *noun;	/* what a count of it counts: "image" */
};
/* The kind of the finding of bit index i (0 for F_EXEC_STACK); never
   NULL. */
const struct finding_kind *finding_kind(unsigned i);

/* allow.c: path patterns, the one matcher of --allow, --allow-pattern and
   --require. A pattern matches an image by its path as printed, by its
   installed path (below the directory named on the command line), or by
   its container's or a member's own path; "**" crosses directories, "*"
   does not; a leading "/" or "./" does not count (see allow.c). */
struct allow_pattern {
	char *text;		/* as written */
	char *glob;		/* normalized */
	char *file;		/* the --allow file it came from, or NULL */
	unsigned line;		/* its line there */
	atomic_bool used;	/* it allowed an image */
};
/* The allowlist: the patterns of the paths allowed an executable stack. */
struct allow {
	struct allow_pattern *v;
	size_t n;
};
/* Add the patterns of file, one a line (blank lines and # comments
   skipped). Returns 0, or -1 with errno set. */
int allow_load(struct allow *a, const char *file);
/* Add one pattern, from line of file, or from the command line (file
   NULL). */
void allow_add(struct allow *a, const char *pattern, const char *file,
    unsigned line);
/* The first pattern that matches the image at w, or NULL; every pattern
   that matches it is marked used. Safe from several threads. */
const struct allow_pattern *allow_which(const struct allow *a,
    const struct where *w);
void allow_free(struct allow *a);
/* Does the pattern match the image at w by one of its names? */
bool where_match(const char *pattern, const struct where *w);
/* Does the pattern match the name (a path, FILE!MEMBER) itself? */
bool glob_match(const char *pattern, const char *name);

/*
 * scope.c: what Linux's rules judge. Not every ELF file of a root is run
 * or linked by Linux; the classes of those that are not, each told by
 * rows of scope.c's table, are counted, never findings (--all judges them
 * anyway). In the order of the table.
 */
enum scope {
	SCOPE_LINUX,		/* judged by the rules */
	SCOPE_FOREIGN_OS,	/* made for another operating system */
	SCOPE_DEBUG,		/* a separate debug file */
	SCOPE_BOOT,		/* a boot loader's module */
	SCOPE_LTO,		/* compiler code for link-time optimization only */
	SCOPE_UNLINKED,		/* an archive member no link pulls */
	SCOPE_FOREIGN_MACHINE,	/* a program for a machine the root does
				   not run */
	SCOPE_COUNT
};
/* What a root runs (runs.c reads it): machines, by what the library
   reads of an image, and the binfmt_misc handlers that serve others, by
   the magic and mask they match an image's first bytes with. */
#define BINFMT_LEN CHSTK_HEAD_LEN
#define RUNS_MAX 32
struct runs {
	bool any;		/* not known: every machine runs */
	struct {
		unsigned short machine;
		unsigned char elf_class;	/* 0: either */
		unsigned char data;		/* 0: either byte order */
	} m[RUNS_MAX];
	size_t nm;
	struct binfmt {
		unsigned char magic[BINFMT_LEN], mask[BINFMT_LEN];
	} *fmt;
	size_t nfmt;
};
bool runs_serve(const struct runs *r, const struct chstk_info *info);
/* The symbols of the image being read that tell its class, into *seen. */
void scope_symbol(unsigned *seen, const struct chstk_sym *sym);
/* The CHSTK_READ_* bits an image's class needs read beyond its headers
   (a chstk_want_fn's answer). */
unsigned scope_want(const struct chstk_info *info);
/* The class of an image (member: of an ar archive; seen: scope_symbol's;
   runs NULL: every machine runs), and why in a static sentence (NULL for
   SCOPE_LINUX). */
enum scope scope_of(const struct chstk_info *info, bool member, unsigned seen,
    const struct runs *runs, const char **why);
/* "linux", "boot-loader" ...: the word of text, JSON and SARIF. */
const char *scope_name(enum scope s);

/* verdict.c: the stack. */
enum effective { EFF_NOEXEC, EFF_EXEC, EFF_UNKNOWN, EFF_NONE };

/* The verdict on one ELF image. */
struct verdict {
	enum effective effective;
	uint64_t findings;	/* F_* bits */
	bool allowed;		/* matched --allow: stack findings waived */
	uint64_t waived;	/* those findings */
	const struct allow_pattern *allowed_by;	/* the pattern that did,
						   set by the judge */
	const char *why;	/* a sentence, static */
	enum scope scope;	/* SCOPE_LINUX, or a class not judged
				   (judged with --all) */
};
/* How an image is judged: verdict_of()'s how, bits. */
enum {
	VERDICT_ALLOWED = 1,	/* it matched --allow */
	VERDICT_REFUSING = 2,	/* the glibc that would load it refuses to
				   dlopen a library that asks for an
				   executable stack (2.41 and later) */
};
void verdict_of(const struct chstk_info *info, unsigned how,
    struct verdict *v);
/* The stacks a process gets from one object it loads, by the same rules:
   *main_stack the main stack's (the kernel's, from the program; glibc's,
   which makes it executable for a library that asks), *threads the
   thread stacks' (glibc's); *why, the rule's sentence (static). A library
   asks for both or neither; a program's two differ where it is unmarked
   and the kernel's default is not glibc's. */
void verdict_stacks(const struct chstk_info *info,
    enum effective *main_stack, enum effective *threads, const char **why);
const char *machine_name(unsigned machine, char *buf, size_t len);
const char *type_name(const struct chstk_info *info);
const char *effective_name(enum effective e);
/* Print the rules table (for the man page and --rules). */
void rules_print(FILE *f);

/* hardening.c: the symbols of one image as they go by, then the judged
   defences. */
#define HARD_NFORT 79	/* the fortifiable functions' table */
#define HARD_NAME 64	/* bytes kept of a suspicious name, escaped */
struct hard_syms {
	bool canary;
	/* Per fortifiable function: 1 referenced, 2 its __*_chk referenced,
	   in the dynamic table; 4 and 8 the same in the static one. */
	unsigned char fort[HARD_NFORT];
	/* The functions the image exports (chstk_sym.code), and how many
	   start with each landing pad: ENDBR64, ENDBR32, and AArch64's BTI
	   c or jc, PACIASP or PACIBSP. */
	unsigned functions, endbr64, endbr32, bti;
	/* Names that may hide what they say: with a control character, a
	   bidirectional or zero-width format character, or bytes that are
	   no UTF-8; and those whose only flaw is a space, which Go allows. */
	unsigned suspicious, spaced;
	char first_suspicious[HARD_NAME], first_spaced[HARD_NAME];
	bool rust;		/* a symbol of Rust's runtime */
};
void hard_syms_clear(struct hard_syms *s);
void hard_syms_add(struct hard_syms *s, const struct chstk_sym *sym);

enum tri { T_NA, T_UNKNOWN, T_NO, T_YES };
enum relro { RELRO_NA, RELRO_NONE, RELRO_PARTIAL, RELRO_FULL };
enum pie { PIE_NA, PIE_NO, PIE_YES, PIE_STATIC };

struct hard {
	bool known;		/* read (--hardening) and a kind judged */
	enum relro relro;
	enum tri bind_now;
	enum pie pie;
	enum tri canary;
	int64_t canary_checks;	/* a stripped static program's reads of the
				   stack protector's guard; -1: not counted */
	enum tri fortify;	/* T_NA: nothing fortifiable used */
	unsigned char fortified[HARD_NFORT], unfortified[HARD_NFORT];
	unsigned nfortified, nunfortified;
	enum tri paths;		/* T_NA: none; T_NO: unsafe entries */
	unsigned nunsafe;
	char unsafe[512];	/* the unsafe entries, ':'-separated */
	enum tri ibt, shstk, bti, pac;
	enum tri symbols;	/* .symtab present */
	/* What the evidence shows (evidence.h): the code's stack probes,
	   annobin's notes, the compilers' recorded options. */
	enum tri stack_clash, optimized, auto_var_init;
	/* annocheck's tests of the binary alone (elfscan(1), HARDENING):
	   T_NA where a test means nothing for the image. */
	enum tri textrel;	/* text relocations */
	enum tri one_dynamic;	/* at most one dynamic segment and section */
	enum tri property;	/* the property note is well-formed; T_NA
				   without one */
	const char *property_fault;	/* what is wrong with it, or NULL */
	enum tri entry_endbr;	/* x86 programs: ENDBR at the entry point */
	unsigned functions, endbr;	/* x86 and AArch64: exported functions,
					   and those with a landing pad */
	enum tri bti_plt, pac_plt;	/* AArch64, dynamic */
	unsigned odd;		/* ODD_* */
	enum tri relro_covers;	/* GNU_RELRO covers what it should */
	unsigned relro_gaps;	/* CHSTK_RELRO_* sections it does not */
	enum tri system_paths;	/* run paths only under /usr or $ORIGIN */
	unsigned noutside;
	char outside[512];	/* the other entries, ':'-separated */
	enum tri names;		/* no suspicious symbol name */
	unsigned nsuspicious;
	char suspicious[HARD_NAME];	/* the first, escaped */
	enum lang { LANG_UNKNOWN, LANG_GO, LANG_RUST } lang;
	unsigned machine;	/* e_machine, for the promises of a profile */
};
/* Segments whose flags make no sense (struct hard.odd). */
enum { ODD_TLS_EXEC = 1, ODD_STACK_NOT_RW = 2 };
struct evidence;
/* ev: the image's evidence, or NULL when none was read */
void hardening_judge(const struct chstk_info *info, const struct hard_syms *s,
    const struct evidence *ev, struct hard *out);
const char *fortify_name(unsigned i);
/* The names of the CHSTK_RELRO_* sections of bits, ':'-separated, in
   buf. */
const char *relro_names(unsigned bits, char *buf, size_t len);

/* --require: a glob (NULL: every path) and the findings a missing
   property gives there; from a profile, also the machines and images the
   promise holds for. */
struct require {
	char *glob;
	uint64_t findings;
	unsigned machine;	/* e_machine; 0: every machine */
	unsigned except[4];	/* but these (0: none) */
	bool programs;		/* programs only */
};
/* Parse "[GLOB=]PROP,PROP..." into r. 0, or -1 with *bad pointing at the
   unknown word in arg (which ends at a comma or at the end). */
int require_parse(struct require *r, const char *arg, const char **bad);
/* The name of the i-th property (from 0), or NULL past the last. */
const char *require_property(size_t i);
/* The finding a missing property name[0, len) gives, or 0 for a word that
   names no property. */
uint64_t require_finding(const char *name, size_t len);
uint64_t require_check(const struct require *req, size_t n,
    const struct where *w, const struct hard *h);
void require_free(struct require *r, size_t n);
/* Why an image has the --require finding bit (one of F_HARDENING), in
   one sentence, in buf. */
const char *hard_why(uint64_t bit, const struct hard *h, char *buf,
    size_t len);

/* profiles.c: what a distribution's build flags promise (--profile). */
/* The name of the i-th profile (from 0), or NULL past the last. */
const char *profile_name(size_t i);
/* Append to *req (*n entries) a requirement for each promise of profile
   name that elfscan can check. 0, or -1 when no profile is so named. */
int profile_require(const char *name, struct require **req, size_t *n);
/* Print the promises of the profiles names[0, n) (n 0: of every
   profile), in the table's order, each with its source, those not checked
   with why (--list). */
void profile_print(FILE *f, const char *const *names, size_t n);

#endif
