/*
 * dwarf.c - what an image's debugging information says of how it was
 * built (CHSTK_READ_EVIDENCE): the compilation units of its DWARF, read
 * with elfutils' libdw (name, producer, language of each, handed to the
 * caller), and the notes Red Hat's annobin leaves (annobin.c).
 *
 * libdw reads from memory the library fills: a copy of the image as
 * sparse as anonymous memory is, holding only the ELF header, the section
 * headers and their names, and the sections read here, each range-checked
 * against the image first. libdw and libelf then never touch the file
 * (a file cut short meanwhile costs an error, not a SIGBUS), never read
 * another file (no .dwo, no dwz file: a string that lies in one is said
 * to), and what they can read is bounded by what was copied:
 *
 *   DWARF_MAX      bytes of the DWARF sections copied, and of those
 *                  compressed, what they expand to (their headers are read
 *                  first), so that a small file cannot claim gigabytes
 *   CHSTK_UNITS_MAX  units; the rest are not read (units_cut)
 *   ABBREV_SCAN    bytes of abbreviations a unit's first entry is looked
 *                  for in, before libdw looks: libdw reads a unit's table
 *                  up to the entry it wants, for every unit again, and a
 *                  hostile file would have each of 65,536 units point at
 *                  a table of megabytes without it
 *   NOTES_MAX      bytes of annobin's notes
 *   MACROS_MAX     entries of the macro tables read, imports included,
 *                  for all the units of the image: a hostile file's
 *                  units could each import one table of millions
 *   IMPORT_DEPTH   imports within imports (gcc writes one level; a table
 *                  that imports itself stops here)
 *
 * DWARF that cannot be read costs the evidence, not the image: the reason
 * goes to evidence_error, and the units read before it stay read. An
 * object's DWARF is not read: its references to strings await the
 * linker's relocations, which libdw does not apply.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

#define DWARF_MAX (UINT64_C(1) << 30)
#define ABBREV_SCAN 16384
#define NOTES_MAX (64u << 20)
#define MACROS_MAX (UINT64_C(1) << 24)
#define IMPORT_DEPTH 8
/* A section name table larger than this is no compiler's or linker's. */
#define NAMES_MAX (1u << 20)

/* The DWARF sections read, by name, plain or compressed the old way. */
enum { S_INFO, S_ABBREV, S_STR, S_LINE_STR, S_STR_OFFSETS, S_MACRO,
    S_MACINFO, S_COUNT };
static const char *const dwarf_names[S_COUNT] = {
	"info", "abbrev", "str", "line_str", "str_offsets", "macro", "macinfo",
};

/* A sparse copy of an image: len bytes of zeros, and a page of them
   beyond, where libdw's strings end at the latest. */
struct sparse {
	const struct chstk_image *im;
	unsigned char *map;
	size_t len, maplen;
	uint64_t budget;	/* what the DWARF sections may still cost */
	uint64_t macros;	/* what the macro tables may still cost */
	Elf *elf;
	Elf_Scn *sec[S_COUNT];
	Elf_Scn *notes, *strings;	/* annobin's two forms */
};

/* Set the evidence error from a format; returns 0, for the caller. */
static int __attribute__((format(printf, 2, 3)))
no_dwarf(struct chstk_hardening_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->evidence_error, sizeof(b->evidence_error), fmt, ap);
	va_end(ap);
	return 0;
}

/* Copy [off, off + len) of the image into the sparse copy; 1 when the
   image does not hold it. */
static int
copy(struct sparse *s, uint64_t off, uint64_t len, const char *what,
    struct chstk_error *err)
{
	if (!chstk__in_range(off, len, s->len))
		return 1;
	if (len == 0)
		return 0;
	return chstk__src_read(s->im->src, off, s->map + off, (size_t)len,
	    what, err);
}

static void
sparse_close(struct sparse *s)
{
	if (s->elf != NULL)
		elf_end(s->elf);
	if (s->map != NULL)
		munmap(s->map, s->maplen);
}

/*
 * The ELF header, the section headers and the section name table of the
 * image, copied, and libelf's descriptor of the copy. 0, 1 when the image
 * has no section headers (nothing to read), or an error; b says why the
 * copy is not usable.
 */
static int
sparse_open(struct sparse *s, struct chstk_hardening_buf *b,
    struct chstk_error *err)
{
	const GElf_Ehdr *e = &s->im->ehdr;
	uint64_t size = chstk__src_size(s->im->src);
	long page = sysconf(_SC_PAGESIZE);
	size_t strndx;
	GElf_Shdr sh;
	int r;

	if (s->im->shnum == 0 || size == UINT64_MAX)
		return 1;
	if (size > SIZE_MAX - 2 * (uint64_t)page)
		return no_dwarf(b, "an image of %ju bytes is too big to read its DWARF on this machine",
		    (uintmax_t)size), 1;
	s->len = (size_t)size;
	s->maplen = (s->len / (size_t)page + 2) * (size_t)page;
	s->map = mmap(NULL, s->maplen, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->map == MAP_FAILED) {
		s->map = NULL;
		return chstk__syserror(err, "cannot read the DWARF");
	}
	r = copy(s, 0, chstk__fsize(s->im, ELF_T_EHDR), "ELF header", err);
	if (r == 0)
		r = copy(s, e->e_shoff, (uint64_t)s->im->shnum *
		    e->e_shentsize, "section header table", err);
	if (r != 0)
		return r;
	s->elf = elf_memory((char *)s->map, s->len);
	if (s->elf == NULL || elf_getshdrstrndx(s->elf, &strndx) != 0 ||
	    gelf_getshdr(elf_getscn(s->elf, strndx), &sh) == NULL)
		return no_dwarf(b, "libelf cannot read the section headers: %s",
		    elf_errmsg(-1)), 1;
	if (sh.sh_type == SHT_NOBITS ||
	    copy(s, sh.sh_offset, sh.sh_size, "section name table", err) != 0)
		return no_dwarf(b, "the section name table runs past the end of the file"), 1;
	return 0;
}

/* What the section of header sh, named name, is to this file. */
static void
classify(struct sparse *s, Elf_Scn *scn, const char *name,
    struct chstk_hardening *h)
{
	size_t i;

	if (strcmp(name, ".gnu.build.attributes") == 0)
		s->notes = scn;
	else if (strcmp(name, ".annobin.notes") == 0)
		s->strings = scn;
	else if (strcmp(name, ".gnu_debugaltlink") == 0)
		h->debug_alt = true;
	/* An object's DWARF names its strings through relocations, which
	   libdw does not apply (libdwfl does): not read. */
	for (i = 0; i < S_COUNT && s->im->ehdr.e_type != ET_REL; i++)
		if ((strncmp(name, ".debug_", 7) == 0 &&
		    strcmp(name + 7, dwarf_names[i]) == 0) ||
		    (strncmp(name, ".zdebug_", 8) == 0 &&
		    strcmp(name + 8, dwarf_names[i]) == 0))
			s->sec[i] = scn;
}

/*
 * What one compressed section expands to, from its header: ELF's
 * Elf64_Chdr or Elf32_Chdr (SHF_COMPRESSED), or GNU's "ZLIB" and a
 * big-endian size (.zdebug_*). 0 when it cannot say.
 */
static uint64_t
expanded(struct sparse *s, Elf_Scn *scn, const GElf_Shdr *sh)
{
	const unsigned char *p = s->map + sh->sh_offset;
	GElf_Chdr ch;
	uint64_t n = 0;
	int i;

	if (sh->sh_flags & SHF_COMPRESSED)
		return gelf_getchdr(scn, &ch) != NULL ? ch.ch_size : 0;
	if (sh->sh_size < 12 || memcmp(p, "ZLIB", 4) != 0)
		return sh->sh_size;
	for (i = 4; i < 12; i++)
		n = n << 8 | p[i];
	return n;
}

/* Copy the DWARF sections and annobin's notes, within the bounds: 0, 1
   when they cannot be read (b says why), or an error. */
static int
copy_sections(struct sparse *s, struct chstk_hardening_buf *b,
    struct chstk_error *err)
{
	Elf_Scn *want[S_COUNT + 2];
	uint64_t cost, limit;
	size_t i, strndx;
	Elf_Scn *scn = NULL;
	const char *name;
	GElf_Shdr sh;
	int r;

	elf_getshdrstrndx(s->elf, &strndx);
	while ((scn = elf_nextscn(s->elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL &&
		    (name = elf_strptr(s->elf, strndx, sh.sh_name)) != NULL)
			classify(s, scn, name, &b->h);
	memcpy(want, s->sec, sizeof(s->sec));
	want[S_COUNT] = s->notes;
	want[S_COUNT + 1] = s->strings;
	for (i = 0; i < S_COUNT + 2; i++) {
		if (want[i] == NULL || gelf_getshdr(want[i], &sh) == NULL ||
		    sh.sh_type == SHT_NOBITS)
			continue;
		limit = i < S_COUNT ? s->budget : NOTES_MAX;
		if (sh.sh_size > limit)
			return no_dwarf(b, "a debugging section of %ju bytes, more than the %ju this library reads",
			    (uintmax_t)sh.sh_size, (uintmax_t)limit), 1;
		r = copy(s, sh.sh_offset, sh.sh_size, "debugging section",
		    err);
		if (r < 0)
			return r;
		if (r > 0)
			return no_dwarf(b, "a debugging section runs past the end of the file"), 1;
		if (i >= S_COUNT)
			continue;
		if ((cost = expanded(s, want[i], &sh)) == 0 && sh.sh_size > 0)
			return no_dwarf(b, "a compressed debugging section has no valid header"), 1;
		if (cost > s->budget)
			return no_dwarf(b, "a compressed debugging section expands to %ju bytes, more than the %ju this library reads",
			    (uintmax_t)cost, (uintmax_t)s->budget), 1;
		s->budget -= cost;
	}
	return 0;
}

/* Is the string section of libdw's NUL-terminated, so that a string in
   it cannot run past its end? (Checked after libdw expanded it.) */
static bool
strings_end(Elf_Scn *scn)
{
	Elf_Data *d;

	if (scn == NULL)
		return true;
	d = elf_getdata(scn, NULL);
	return d == NULL || d->d_size == 0 ||
	    ((const char *)d->d_buf)[d->d_size - 1] == '\0';
}

/* The unsigned LEB128 at *p (before end), or false when it runs past
   end or past 64 bits. */
static bool
uleb(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	while (*p < end && shift < 64) {
		unsigned char c = *(*p)++;

		*v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return true;
		shift += 7;
	}
	return false;
}

/* Does the abbreviation table at off of abbrev hold code within
   ABBREV_SCAN bytes of its start? */
static bool
abbrev_near(const Elf_Data *abbrev, uint64_t off, uint64_t code)
{
	const unsigned char *p, *end;
	uint64_t c, tag, attr, form, v;

	if (abbrev == NULL || off >= abbrev->d_size)
		return false;
	p = (const unsigned char *)abbrev->d_buf + off;
	end = abbrev->d_size - off > ABBREV_SCAN ? p + ABBREV_SCAN :
	    (const unsigned char *)abbrev->d_buf + abbrev->d_size;
	while (uleb(&p, end, &c) && c != 0) {
		if (c == code)
			return true;
		if (!uleb(&p, end, &tag) || p >= end)
			return false;
		p++;	/* DW_CHILDREN_yes or _no */
		do {
			if (!uleb(&p, end, &attr) || !uleb(&p, end, &form))
				return false;
			/* DW_FORM_implicit_const holds its value here. */
			if (form == DW_FORM_implicit_const && !uleb(&p, end, &v))
				return false;
		} while (attr != 0 || form != 0);
	}
	return false;
}

/* The string attribute at of die into out (len bytes); *cut when it did
   not fit, u->elsewhere when it lies in a dwz file. */
static void
string_of(Dwarf_Die *die, unsigned at, char *out, size_t len, bool *cut,
    struct chstk_unit *u)
{
	Dwarf_Attribute attr;
	const char *s;
	size_t n;

	out[0] = '\0';
	*cut = false;
	if (dwarf_attr(die, at, &attr) == NULL)
		return;
	/* Asking libdw for these would have it look for the dwz file. */
	if (dwarf_whatform(&attr) == DW_FORM_GNU_strp_alt ||
	    dwarf_whatform(&attr) == DW_FORM_strp_sup) {
		u->elsewhere = true;
		return;
	}
	if ((s = dwarf_formstring(&attr)) == NULL)
		return;
	n = strnlen(s, len);
	*cut = n == len;
	if (*cut)
		n = len - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

/* A walk of one unit's macro table for _FORTIFY_SOURCE. */
struct macros {
	Dwarf *dbg;
	Dwarf_Die *unit;	/* the unit whose table it is */
	uint64_t *budget;	/* entries the image may still cost */
	unsigned depth;		/* of imports */
	unsigned files;		/* of start_file: 0 outside any source */
	/* The level the entries outside any source file leave (the
	   command line's and the compiler's own, which clang writes after
	   the sources) and the one the sources leave: -1 when none
	   touches it. */
	int cmdline, source;
	bool bad;		/* cut short: a table libdw cannot read, or
				   the budget spent */
	bool unread;		/* a define whose string cannot be read */
};

static int macro_entry(Dwarf_Macro *m, void *arg);

/* The entries of the table at off (an import) or of the unit's (cu). */
static void
macro_table(struct macros *w, Dwarf_Die *cu, Dwarf_Off off)
{
	ptrdiff_t t = DWARF_GETMACROS_START;

	do
		t = cu != NULL ? dwarf_getmacros(cu, macro_entry, w, t) :
		    dwarf_getmacros_off(w->dbg, off, macro_entry, w, t);
	while (t > 0 && !w->bad && !w->unread);
	if (t < 0)
		w->bad = true;
}

/* The level "_FORTIFY_SOURCE VALUE" defines: its number, above 3 taken
   as 3 the way glibc's features.h does, 1 when it is not a number (as
   -D_FORTIFY_SOURCE alone); -1 when it defines another macro. */
static int
fortify_define(const char *def)
{
	static const char fs[] = "_FORTIFY_SOURCE";
	const char *v = def + sizeof(fs) - 1;
	unsigned long n;
	char *end;

	if (strncmp(def, fs, sizeof(fs) - 1) != 0 || (*v != ' ' && *v != '\0'))
		return -1;
	v += strspn(v, " ");
	n = strtoul(v, &end, 10);
	if (end == v || (*end != '\0' && *end != ' '))
		return 1;
	return n > 3 ? 3 : (int)n;
}

/* The section named name of the file dbg reads, or NULL. */
static Elf_Data *
section_data(Dwarf *dbg, const char *name)
{
	Elf *elf = dwarf_getelf(dbg);
	Elf_Scn *scn = NULL;
	size_t strndx;
	GElf_Shdr sh;
	const char *n;

	if (elf == NULL || elf_getshdrstrndx(elf, &strndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL && sh.sh_type != SHT_NOBITS &&
		    (n = elf_strptr(elf, strndx, sh.sh_name)) != NULL &&
		    strcmp(n, name) == 0)
			return elf_getdata(scn, NULL);
	return NULL;
}

/*
 * The string of a DW_MACRO_define_strx or _undef_strx entry, which libdw
 * (0.188) cannot read: it looks the index up without the unit's
 * DW_AT_str_offsets_base, and will not read an index outside .debug_info.
 * So: the index (a ULEB128, DW_FORM_strx, where the entry's second
 * operand is), the unit's base, the entry of .debug_str_offsets there (4
 * bytes: 32-bit DWARF), and the string of .debug_str at that offset, each
 * bounded by its section. NULL when it is not one, or cannot be read.
 */
static const char *
strx_string(const struct macros *w, Dwarf_Macro *m, unsigned op)
{
	const unsigned char *p, *end;
	Dwarf_Attribute a, base_attr;
	Dwarf_Word base, index = 0, at;
	Elf_Data *offs;
	uint32_t off;
	unsigned shift = 0;
	size_t len;
	const char *str;

	if ((op != DW_MACRO_define_strx && op != DW_MACRO_undef_strx) ||
	    w->unit == NULL || dwarf_macro_param(m, 1, &a) != 0 ||
	    a.form != DW_FORM_strx || a.valp == NULL ||
	    dwarf_attr(w->unit, DW_AT_str_offsets_base, &base_attr) == NULL ||
	    dwarf_formudata(&base_attr, &base) != 0 ||
	    (offs = section_data(w->dbg, ".debug_str_offsets")) == NULL ||
	    offs->d_buf == NULL)
		return NULL;
	/* The index: at most 10 bytes of ULEB128. */
	p = a.valp;
	end = p + 10;
	do {
		if (p == end || shift > 63)
			return NULL;
		index |= (Dwarf_Word)(*p & 0x7f) << shift;
		shift += 7;
	} while (*p++ & 0x80);
	if (index > (UINT64_MAX - base) / 4)
		return NULL;
	at = base + index * 4;
	if (at > offs->d_size || offs->d_size - at < 4)
		return NULL;
	memcpy(&off, (const unsigned char *)offs->d_buf + at, 4);
	if (elf_getident(dwarf_getelf(w->dbg), NULL)[EI_DATA] !=
	    (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB :
	    ELFDATA2MSB))
		off = __builtin_bswap32(off);
	str = dwarf_getstring(w->dbg, off, &len);
	return str;
}

/*
 * One entry. Defines and undefines with their string in the file
 * (DW_MACRO_define, _strp, _strx, and their GNU and .debug_macinfo
 * twins, which share the numbers); the _sup forms and imports of the dwz
 * file are not read: asking libdw for them would have it look for it.
 */
static int
macro_entry(Dwarf_Macro *m, void *arg)
{
	struct macros *w = arg;
	const char *str;
	Dwarf_Word line, off;
	unsigned op;
	size_t len = sizeof("_FORTIFY_SOURCE") - 1;
	int level = -1;

	if (*w->budget == 0) {
		w->bad = true;
		return DWARF_CB_ABORT;
	}
	--*w->budget;
	if (dwarf_macro_opcode(m, &op) != 0)
		return DWARF_CB_OK;
	if (op == DW_MACRO_start_file)
		w->files++;
	else if (op == DW_MACRO_end_file && w->files > 0)
		w->files--;
	if (op == DW_MACRO_import) {
		if (w->depth == IMPORT_DEPTH || dwarf_macro_param1(m, &off) != 0) {
			w->bad = true;
			return DWARF_CB_ABORT;
		}
		w->depth++;
		macro_table(w, NULL, off);
		w->depth--;
		return w->bad ? DWARF_CB_ABORT : DWARF_CB_OK;
	}
	if (op != DW_MACRO_define && op != DW_MACRO_define_strp &&
	    op != DW_MACRO_define_strx && op != DW_MACRO_undef &&
	    op != DW_MACRO_undef_strp && op != DW_MACRO_undef_strx)
		return DWARF_CB_OK;
	if (dwarf_macro_param2(m, &line, &str) != 0 || str == NULL)
		str = strx_string(w, m, op);
	if (str == NULL) {
		w->unread = true;
		return DWARF_CB_ABORT;
	}
	if (op == DW_MACRO_define || op == DW_MACRO_define_strp ||
	    op == DW_MACRO_define_strx)
		level = fortify_define(str);
	else if (strncmp(str, "_FORTIFY_SOURCE", len) == 0 &&
	    (str[len] == '\0' || str[len] == ' '))
		level = 0;
	if (level >= 0)
		*(w->files > 0 ? &w->source : &w->cmdline) = level;
	return DWARF_CB_OK;
}

/* _FORTIFY_SOURCE as the macro table of the unit of die leaves it (see
   chstk_unit.fortify); b says why a table was not read to its end. The
   entries outside any start_file are the command line's and the
   compiler's own: gcc writes them first, clang's .debug_macinfo last. */
static int
unit_fortify(Dwarf *dbg, Dwarf_Die *die, uint64_t *budget,
    struct chstk_hardening_buf *b)
{
	struct macros w = { .dbg = dbg, .unit = die, .budget = budget,
	    .cmdline = -1, .source = -1 };
	Dwarf_Attribute attr;

	if (dwarf_attr(die, DW_AT_macros, &attr) == NULL &&
	    dwarf_attr(die, DW_AT_GNU_macros, &attr) == NULL &&
	    dwarf_attr(die, DW_AT_macro_info, &attr) == NULL)
		return CHSTK_FORTIFY_UNKNOWN;
	macro_table(&w, die, 0);
	if (w.unread)
		return CHSTK_FORTIFY_UNKNOWN;
	/* The command line comes before the sources, wherever it is
	   written. */
	if (!w.bad)
		return w.source >= 0 ? w.source : w.cmdline >= 0 ? w.cmdline : 0;
	if (b->evidence_error[0] == '\0')
		no_dwarf(b, *budget == 0 ?
		    "the macro tables hold more than the %ju entries this library reads" :
		    "a macro table that libdw cannot read, or imports nested more than %ju deep",
		    *budget == 0 ? (uintmax_t)MACROS_MAX : (uintmax_t)IMPORT_DEPTH);
	return CHSTK_FORTIFY_UNKNOWN;
}

/* Hand one unit, whose DIE is at die_off, to o->unit: what it returned,
   or 0 with *bad when libdw cannot read the DIE. macros is what the macro
   tables may still cost. */
static int
one_unit(Dwarf *dbg, Dwarf_Off die_off, uint64_t *macros,
    const struct chstk_scan_opts *o, void *arg,
    struct chstk_hardening_buf *b, bool *bad)
{
	struct chstk_unit u = { .name = b->unit_name,
	    .producer = b->unit_producer };
	Dwarf_Attribute attr;
	Dwarf_Word lang;
	Dwarf_Die die;
	int tag;

	if (dwarf_offdie(dbg, die_off, &die) == NULL) {
		*bad = true;
		return 0;
	}
	tag = dwarf_tag(&die);
	if (tag != DW_TAG_compile_unit && tag != DW_TAG_skeleton_unit)
		return 0;
	string_of(&die, DW_AT_name, b->unit_name, sizeof(b->unit_name),
	    &u.name_cut, &u);
	string_of(&die, DW_AT_producer, b->unit_producer,
	    sizeof(b->unit_producer), &u.producer_cut, &u);
	if (dwarf_attr(&die, DW_AT_language, &attr) != NULL &&
	    dwarf_formudata(&attr, &lang) == 0 && lang <= UINT32_MAX)
		u.language = (unsigned)lang;
	u.fortify = unit_fortify(dbg, &die, macros, b);
	b->h.units++;
	return o->unit != NULL ? o->unit(arg, &u) : 0;
}

/* Each unit of .debug_info to o->unit, up to CHSTK_UNITS_MAX. */
static int
walk_units(struct sparse *s, Dwarf *dbg, const struct chstk_scan_opts *o,
    void *arg, struct chstk_hardening_buf *b)
{
	Elf_Data *info = elf_getdata(s->sec[S_INFO], NULL);
	Elf_Data *abbrev = s->sec[S_ABBREV] != NULL ?
	    elf_getdata(s->sec[S_ABBREV], NULL) : NULL;
	Dwarf_Off off = 0, next, abbrev_off;
	const unsigned char *p;
	size_t hsize, n = 0;
	uint64_t code;
	bool bad = false;
	int r;

	while ((r = dwarf_next_unit(dbg, off, &next, &hsize, NULL, &abbrev_off,
	    NULL, NULL, NULL, NULL)) == 0) {
		if (n++ == CHSTK_UNITS_MAX) {
			b->h.units_cut = true;
			return 0;
		}
		if (info == NULL || off + hsize >= info->d_size)
			return no_dwarf(b, "a compilation unit's header runs past .debug_info");
		p = (const unsigned char *)info->d_buf + off + hsize;
		if (!uleb(&p, (const unsigned char *)info->d_buf + info->d_size,
		    &code) || !abbrev_near(abbrev, abbrev_off, code))
			return no_dwarf(b, "the abbreviation of the compilation unit at %#jx is not within %u bytes of its table",
			    (uintmax_t)off, ABBREV_SCAN);
		r = one_unit(dbg, off + hsize, &s->macros, o, arg, b, &bad);
		if (bad)
			return no_dwarf(b, "the compilation unit at %#jx: %s",
			    (uintmax_t)off, dwarf_errmsg(-1));
		if (r != 0)
			return r;
		off = next;
	}
	return r < 0 ? no_dwarf(b, "the unit header at %#jx: %s",
	    (uintmax_t)off, dwarf_errmsg(-1)) : 0;
}

/* annobin's notes, in either form, copied already. */
static void
annobin(struct sparse *s, struct chstk_hardening *h)
{
	GElf_Shdr sh;

	if (s->notes != NULL && gelf_getshdr(s->notes, &sh) != NULL &&
	    sh.sh_type == SHT_NOTE)
		chstk__annobin_notes(s->map + sh.sh_offset, (size_t)sh.sh_size,
		    s->im->ehdr.e_ident[EI_DATA] == ELFDATA2MSB, h);
	if (s->strings != NULL && gelf_getshdr(s->strings, &sh) != NULL &&
	    sh.sh_type != SHT_NOBITS)
		chstk__annobin_strings(s->map + sh.sh_offset,
		    (size_t)sh.sh_size, h);
}

/*
 * Does the image hold anything read here: a .debug_info (or .zdebug_info,
 * but in an object), annobin's notes? Most hold none, and are told so by
 * their section headers and names alone, read again through the
 * library's cache, without a copy; 1 yes, 0 no, or an error.
 */
static int
worth_reading(const struct chstk_image *im, struct chstk_error *err)
{
	static const char *const names[] = { ".debug_info", ".zdebug_info",
	    ".gnu.build.attributes", ".annobin.notes" };
	union { Elf32_Shdr s32[64]; Elf64_Shdr s64[64]; } m;
	bool is64 = im->ehdr.e_ident[EI_CLASS] == ELFCLASS64;
	uint64_t tab_off, tab_size, name, type;
	size_t i, k, c, j, first;
	char *tab;
	int r, found = 0;

	r = chstk__read_entries(im, ELF_T_SHDR, im->ehdr.e_shoff, im->shstrndx,
	    1, &m, "section header", err);
	if (r < 0)
		return r;
	tab_off = is64 ? m.s64[0].sh_offset : m.s32[0].sh_offset;
	tab_size = is64 ? m.s64[0].sh_size : m.s32[0].sh_size;
	if (tab_size == 0 || tab_size > NAMES_MAX ||
	    !chstk__in_range(tab_off, tab_size, chstk__src_size(im->src)))
		return 0;
	if ((tab = malloc((size_t)tab_size + 1)) == NULL)
		return chstk__syserror(err, "cannot read the section names");
	r = chstk__src_read(im->src, tab_off, tab, (size_t)tab_size,
	    "section name table", err);
	tab[tab_size] = '\0';
	/* An object's DWARF is not read, its notes are. */
	first = im->ehdr.e_type == ET_REL ? 2 : 0;
	for (i = 0; r == 0 && !found && i < im->shnum; i += c) {
		c = im->shnum - i < 64 ? im->shnum - i : 64;
		r = chstk__read_entries(im, ELF_T_SHDR, im->ehdr.e_shoff, i, c,
		    &m, "section header table", err);
		for (k = 0; r == 0 && k < c; k++) {
			name = is64 ? m.s64[k].sh_name : m.s32[k].sh_name;
			type = is64 ? m.s64[k].sh_type : m.s32[k].sh_type;
			if (type == SHT_NOBITS || name >= tab_size)
				continue;
			for (j = first; j < sizeof(names) / sizeof(names[0]); j++)
				if (strcmp(tab + name, names[j]) == 0)
					found = 1;
		}
	}
	free(tab);
	return r < 0 ? r : found;
}

int
chstk__dwarf_read(const struct chstk_image *im,
    const struct chstk_scan_opts *o, void *arg, struct chstk_hardening_buf *b,
    struct chstk_error *err)
{
	struct sparse s = { .im = im, .budget = DWARF_MAX,
	    .macros = MACROS_MAX };
	Dwarf *dbg;
	int r;

	if (im->shnum == 0)
		return 0;
	if ((r = worth_reading(im, err)) <= 0)
		return r;
	if ((r = sparse_open(&s, b, err)) == 0)
		r = copy_sections(&s, b, err);
	if (r != 0) {
		sparse_close(&s);
		return r < 0 ? r : 0;
	}
	annobin(&s, &b->h);
	if (s.sec[S_INFO] != NULL) {
		b->h.dwarf = true;
		if ((dbg = dwarf_begin_elf(s.elf, DWARF_C_READ, NULL)) == NULL) {
			no_dwarf(b, "libdw cannot read it: %s", dwarf_errmsg(-1));
		} else {
			if (!strings_end(s.sec[S_STR]) ||
			    !strings_end(s.sec[S_LINE_STR]))
				no_dwarf(b, "a DWARF string section does not end in a NUL");
			else
				r = walk_units(&s, dbg, o, arg, b);
			dwarf_end(dbg);
		}
	}
	sparse_close(&s);
	return r;
}
