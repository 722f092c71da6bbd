/*
 * hardening.c - what an ELF image says of its other defences and of how it
 * links, for the scanners' CHSTK_READ_HARDENING and CHSTK_READ_DYNAMIC:
 * the dynamic section (immediate binding, RPATH and RUNPATH, the needed
 * libraries, the SONAME, text relocations) and the interpreter's path;
 * with CHSTK_READ_HARDENING also the GNU property note (x86 IBT and SHSTK,
 * AArch64 BTI and PAC), the symbol tables, handed to the caller one
 * symbol at a time, and, for a stripped static program, the stack
 * protector's reads in its code. What they mean is the caller's to judge
 * (elfscan's hardening.c and its system verdicts).
 *
 * Everything is read in bounded pieces, each range-checked against the
 * file before it is read: the dynamic section CHUNK entries at a time, the
 * symbol tables BLOCK bytes at a time, their names from the string table
 * read once whole when it is at most NAMES_WHOLE bytes, else through a
 * window on it, a string of the dynamic section up to CHSTK_PATH_LEN
 * bytes, at most NEEDED_MAX needed libraries, the property note up to
 * NOTE_MAX bytes. A count no real file reaches is an error, so that a
 * sparse file claiming billions of entries costs nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Entries decoded per read, as in image.c. */
#define CHUNK 64
/* Real dynamic sections hold tens of entries; the linker ends them with a
   few spare DT_NULLs. */
#define DYN_MAX (UINT64_C(1) << 16)
/* A libLLVM has some 10^5 dynamic symbols, an unstripped browser 10^6. */
#define SYM_MAX (UINT64_C(1) << 23)
/* A property note holds a few properties of 4 or 8 bytes each. */
#define NOTE_MAX 4096
/* Programs need tens of libraries; more names than this are cut. */
#define NEEDED_MAX 256
/* A symbol name longer than this is passed cut (and flagged). */
#define NAME_MAX_LEN 1024

#ifndef GNU_PROPERTY_X86_FEATURE_1_AND
#define GNU_PROPERTY_X86_FEATURE_1_AND 0xc0000002u
#endif
#ifndef GNU_PROPERTY_AARCH64_FEATURE_1_AND
#define GNU_PROPERTY_AARCH64_FEATURE_1_AND 0xc0000000u
#endif
#ifndef NT_GNU_PROPERTY_TYPE_0
#define NT_GNU_PROPERTY_TYPE_0 5
#endif

static uint64_t
get(const unsigned char *p, unsigned n, int msb)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[msb ? i : n - 1 - i];
	return v;
}

static int
is_msb(const struct chstk_image *im)
{
	return im->ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
}

/* The file offset of virtual address vaddr, through the PT_LOADs; the
   bytes up to the end of that segment's file image are left in *room. */
static int
vaddr_to_off(const struct chstk_image *im, uint64_t vaddr, uint64_t *off,
    uint64_t *room)
{
	size_t i;

	for (i = 0; i < im->phnum; i++) {
		const GElf_Phdr *ph = &im->phdr[i];

		if (ph->p_type != PT_LOAD || vaddr < ph->p_vaddr ||
		    vaddr - ph->p_vaddr >= ph->p_filesz)
			continue;
		*off = ph->p_offset + (vaddr - ph->p_vaddr);
		*room = ph->p_filesz - (vaddr - ph->p_vaddr);
		return 0;
	}
	return -1;
}

/*
 * Copy the string at index str of the dynamic string table into out (len
 * bytes); *cut when it did not fit. A string the file cannot hold is an
 * error: the loader would read garbage there.
 */
static int
dyn_string(const struct chstk_image *im, uint64_t strtab, uint64_t strsz,
    uint64_t str, char *out, size_t len, bool *cut, struct chstk_error *err)
{
	uint64_t off, room, n, size = chstk__src_size(im->src);
	char *nul;
	int r;

	if (str >= strsz || vaddr_to_off(im, strtab, &off, &room) < 0 ||
	    str >= room || !chstk__in_range(off, room, size))
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "dynamic string %ju lies outside the string table",
		    (uintmax_t)str);
	n = room - str < strsz - str ? room - str : strsz - str;
	if (n > len - 1)
		n = len - 1;
	r = chstk__src_read(im->src, off + str, out, (size_t)n,
	    "dynamic string table", err);
	if (r < 0)
		return r;
	out[n] = '\0';
	nul = memchr(out, '\0', (size_t)n);
	*cut = nul == NULL && n == len - 1;
	if (nul == NULL && !*cut)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "dynamic string %ju runs past its table", (uintmax_t)str);
	return 0;
}

/* What the dynamic section's walk keeps until the strings can be read. */
struct dyn_walk {
	bool strtab, strsz;
	uint64_t strtab_addr, strsz_val, rpath, runpath, soname;
	uint64_t needed[NEEDED_MAX];
	unsigned nneeded;
};

static void
dyn_entry(struct chstk_hardening *h, struct dyn_walk *w, int64_t tag,
    uint64_t val)
{
	switch (tag) {
	case DT_BIND_NOW:
		h->bind_now = true;
		break;
	case DT_FLAGS:
		h->flags = val;
		if (val & DF_BIND_NOW)
			h->bind_now = true;
		if (val & DF_TEXTREL)
			h->textrel = true;
		break;
	case DT_TEXTREL:
		h->textrel = true;
		break;
	case DT_SONAME:
		h->has_soname = true;
		w->soname = val;
		break;
	case DT_NEEDED:
		h->nneeded++;
		if (w->nneeded < NEEDED_MAX)
			w->needed[w->nneeded++] = val;
		else
			h->needed_cut = true;
		break;
	case DT_FLAGS_1:
		h->flags_1 = val;
		if (val & DF_1_NOW)
			h->bind_now = true;
		break;
	case DT_DEBUG:
		h->debug = true;
		break;
	case DT_RPATH:
		h->has_rpath = true;
		w->rpath = val;
		break;
	case DT_RUNPATH:
		h->has_runpath = true;
		w->runpath = val;
		break;
	case DT_STRTAB:
		w->strtab = true;
		w->strtab_addr = val;
		break;
	case DT_STRSZ:
		w->strsz = true;
		w->strsz_val = val;
		break;
	default:
		break;
	}
}

/* The DT_NEEDED names, one after the other in b->needed, as many as fit
   whole. */
static int
needed_names(const struct chstk_image *im, const struct dyn_walk *w,
    struct chstk_hardening_buf *b, struct chstk_error *err)
{
	char name[CHSTK_PATH_LEN];
	size_t used = 0, len;
	unsigned i;
	bool cut;
	int r;

	for (i = 0; i < w->nneeded; i++) {
		r = dyn_string(im, w->strtab_addr, w->strsz_val, w->needed[i],
		    name, sizeof(name), &cut, err);
		if (r < 0)
			return r;
		len = strlen(name) + 1;
		if (cut || used + len + 1 > sizeof(b->needed)) {
			b->h.needed_cut = true;
			break;
		}
		memcpy(b->needed + used, name, len);
		used += len;
	}
	b->needed[used] = '\0';
	return 0;
}

/* The interpreter's path: the first PT_INTERP's bytes up to its NUL. */
static int
read_interp(const struct chstk_image *im, struct chstk_hardening_buf *b,
    struct chstk_error *err)
{
	uint64_t n;
	size_t i;
	int r;

	for (i = 0; i < im->phnum; i++) {
		const GElf_Phdr *ph = &im->phdr[i];

		if (ph->p_type != PT_INTERP)
			continue;
		if (!chstk__in_range(ph->p_offset, ph->p_filesz,
		    chstk__src_size(im->src)))
			return chstk__error(err, CHSTK_ERR_TRUNCATED,
			    "interpreter path runs past the end of the file");
		n = ph->p_filesz < sizeof(b->interp) - 1 ? ph->p_filesz :
		    sizeof(b->interp) - 1;
		r = chstk__src_read(im->src, ph->p_offset, b->interp,
		    (size_t)n, "interpreter path", err);
		if (r < 0)
			return r;
		b->interp[n] = '\0';
		return 0;
	}
	return 0;
}

/* Walk the first PT_DYNAMIC, as the loader does, up to DT_NULL. */
static int
read_dynamic(const struct chstk_image *im, struct chstk_hardening_buf *b,
    struct chstk_error *err)
{
	struct chstk_hardening *h = &b->h;
	union { Elf32_Dyn d32[CHUNK]; Elf64_Dyn d64[CHUNK]; } m;
	bool is64 = im->ehdr.e_ident[EI_CLASS] == ELFCLASS64;
	size_t es = chstk__fsize(im, ELF_T_DYN), k, c;
	struct dyn_walk w = { 0 };
	const GElf_Phdr *ph = NULL;
	uint64_t i, n;
	bool cut;
	int r = 0;

	for (k = 0; k < im->phnum && ph == NULL; k++)
		if (im->phdr[k].p_type == PT_DYNAMIC)
			ph = &im->phdr[k];
	if (ph == NULL)
		return 0;
	h->dynamic = true;
	if (!chstk__in_range(ph->p_offset, ph->p_filesz,
	    chstk__src_size(im->src)))
		return chstk__error(err, CHSTK_ERR_TRUNCATED,
		    "dynamic section runs past the end of the file");
	n = ph->p_filesz / es;
	if (n > DYN_MAX)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "dynamic section of %ju entries, more than the %ju this library reads",
		    (uintmax_t)n, (uintmax_t)DYN_MAX);
	for (i = 0; i < n; i += c) {
		c = n - i < CHUNK ? (size_t)(n - i) : CHUNK;
		r = chstk__read_entries(im, ELF_T_DYN, ph->p_offset, (size_t)i,
		    c, &m, "dynamic section", err);
		if (r < 0)
			return r;
		for (k = 0; k < c; k++) {
			int64_t tag = is64 ? m.d64[k].d_tag : m.d32[k].d_tag;

			if (tag == DT_NULL)
				goto strings;
			dyn_entry(h, &w, tag, is64 ? m.d64[k].d_un.d_val :
			    m.d32[k].d_un.d_val);
		}
	}
strings:
	if ((h->has_rpath || h->has_runpath || h->has_soname ||
	    h->nneeded > 0) && (!w.strtab || !w.strsz))
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "dynamic section names strings but has no string table");
	if (h->has_rpath)
		r = dyn_string(im, w.strtab_addr, w.strsz_val, w.rpath,
		    b->rpath, sizeof(b->rpath), &h->rpath_cut, err);
	if (r == 0 && h->has_runpath)
		r = dyn_string(im, w.strtab_addr, w.strsz_val, w.runpath,
		    b->runpath, sizeof(b->runpath), &h->runpath_cut, err);
	if (r == 0 && h->has_soname)
		r = dyn_string(im, w.strtab_addr, w.strsz_val, w.soname,
		    b->soname, sizeof(b->soname), &cut, err);
	if (r == 0)
		r = needed_names(im, &w, b, err);
	return r;
}

/* The properties of one NT_GNU_PROPERTY_TYPE_0 descriptor. */
static void
properties(const struct chstk_image *im, const unsigned char *p, size_t len,
    struct chstk_hardening *h)
{
	size_t align = im->ehdr.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4;
	int msb = is_msb(im);

	while (len >= 8) {
		uint32_t type = (uint32_t)get(p, 4, msb);
		uint32_t size = (uint32_t)get(p + 4, 4, msb);
		size_t step;

		if (size > len - 8)
			return;
		if (size == 4 && type == GNU_PROPERTY_X86_FEATURE_1_AND)
			h->x86_feature_1 = (uint32_t)get(p + 8, 4, msb);
		if (size == 4 && type == GNU_PROPERTY_AARCH64_FEATURE_1_AND)
			h->aarch64_feature_1 = (uint32_t)get(p + 8, 4, msb);
		step = 8 + (size + align - 1) / align * align;
		if (step > len)
			return;
		p += step;
		len -= step;
	}
}

/* The note at [off, off + size): a segment or a section of notes. */
static int
read_property(const struct chstk_image *im, uint64_t off, uint64_t size,
    struct chstk_hardening *h, struct chstk_error *err)
{
	unsigned char buf[NOTE_MAX];
	const unsigned char *desc;
	size_t dsz;
	int r;

	if (!chstk__in_range(off, size, chstk__src_size(im->src)))
		return chstk__error(err, CHSTK_ERR_TRUNCATED,
		    "property note runs past the end of the file");
	if (size > NOTE_MAX)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "property note of %ju bytes, more than the %u this library reads",
		    (uintmax_t)size, NOTE_MAX);
	r = chstk__src_read(im->src, off, buf, (size_t)size, "property note",
	    err);
	if (r < 0)
		return r;
	/* The descriptor is 8-aligned in 64-bit files, but the "GNU" name's
	   4 bytes after the 12 of the header keep it so. */
	r = chstk__gnu_note(buf, (size_t)size, is_msb(im),
	    NT_GNU_PROPERTY_TYPE_0, &desc, &dsz);
	if (r < 0)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "property note entry runs past its note");
	if (r > 0) {
		h->property = true;
		properties(im, desc, dsz, h);
	}
	return 0;
}

/*
 * A symbol table is read BLOCK bytes at a time. Its string table is read
 * whole, in one read, when it holds at most NAMES_WHOLE bytes (every
 * .dynstr and .strtab of Debian's /usr but a few of browsers and
 * compilers; a stream may keep four times as much); a bigger one through a
 * window of NAMES_WIN bytes, the names of each block of symbols taken in
 * the order of their offsets, so that the window only goes forward:
 * symbols come in hash order, their names in any, and a window moved to
 * each name in turn is read again for nearly every symbol (node's 75,000
 * dynamic symbols cost 81,000 reads that way). The fuzz targets set the
 * three sizes small through chstk__symread_sizes.
 */
#define BLOCK 65536
#define NAMES_WHOLE (16u << 20)
#define NAMES_WIN 65536

struct chstk__symread_sizes chstk__symread_sizes = {
	NAMES_WHOLE, NAMES_WIN, BLOCK
};

/* A named symbol of the block: its name's offset, its index. */
struct pending {
	uint64_t name;
	size_t k;
};

/* A symbol table and its string table being read. */
struct symread {
	uint64_t off, size;	/* the string table in the file */
	bool whole;		/* read whole, else through the window */
	size_t winsz;		/* the window's size */
	uint64_t win;		/* the window's start in the table */
	size_t len;		/* bytes in names, from win */
	char *names;		/* size or winsz bytes */
	unsigned char block[BLOCK];
	struct pending pend[BLOCK / sizeof(Elf32_Sym)];
	char cutname[NAME_MAX_LEN + 1];
};

/*
 * The name at index name; *cut when it runs past NAME_MAX_LEN bytes (the
 * caller keeps that many). NULL for a name outside the table or running
 * past its end, which is passed over (readelf shows it as garbage), or
 * when the read failed (*r then holds the error).
 */
static const char *
name_at(const struct chstk_image *im, struct symread *w, uint64_t name,
    bool *cut, int *r, struct chstk_error *err)
{
	size_t want;
	const char *p;

	if (name >= w->size)
		return NULL;
	want = w->size - name < NAME_MAX_LEN ? (size_t)(w->size - name) :
	    NAME_MAX_LEN;
	if (name < w->win || name - w->win + want > w->len) {
		w->win = w->whole ? 0 : name;
		w->len = w->whole || w->size - w->win < w->winsz ?
		    (size_t)(w->size - w->win) : w->winsz;
		*r = chstk__src_read(im->src, w->off + w->win, w->names, w->len,
		    "symbol string table", err);
		if (*r < 0) {
			w->len = 0;
			return NULL;
		}
	}
	p = w->names + (name - w->win);
	*cut = memchr(p, '\0', want) == NULL;
	return !*cut || want == NAME_MAX_LEN ? p : NULL;
}

/* Hand symbol raw (an Elf32_Sym or Elf64_Sym in the file's byte order)
   to fn; 0 to go on. */
static int
one_symbol(const struct chstk_image *im, struct symread *w,
    const unsigned char *raw, bool dynamic, chstk_sym_fn fn, void *arg,
    struct chstk_error *err)
{
	bool is64 = im->ehdr.e_ident[EI_CLASS] == ELFCLASS64;
	int msb = is_msb(im), r = 0;
	uint64_t name = get(raw, 4, msb);
	unsigned info = raw[is64 ? 4 : 12];
	unsigned shndx = (unsigned)get(raw + (is64 ? 6 : 14), 2, msb);
	struct chstk_sym sym;

	if (name == 0)
		return 0;
	sym.name = name_at(im, w, name, &sym.cut, &r, err);
	if (sym.name == NULL)
		return r;
	if (sym.cut) {
		memcpy(w->cutname, sym.name, NAME_MAX_LEN);
		w->cutname[NAME_MAX_LEN] = '\0';
		sym.name = w->cutname;
	}
	sym.dynamic = dynamic;
	sym.undefined = shndx == SHN_UNDEF;
	sym.type = GELF_ST_TYPE(info);
	sym.bind = GELF_ST_BIND(info);
	/* Any other value than 0 stops the scan. */
	return fn(arg, &sym);
}

static int
by_name(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	return x->name < y->name ? -1 : x->name > y->name;
}

/* Hand the c symbols of the block to fn: in the table's order when the
   string table is read whole, else in the order of their names. */
static int
symbol_block(const struct chstk_image *im, struct symread *w, size_t c,
    bool dynamic, chstk_sym_fn fn, void *arg, struct chstk_error *err)
{
	size_t es = chstk__fsize(im, ELF_T_SYM), k, n = 0;
	int msb = is_msb(im), r = 0;

	if (w->whole) {
		for (k = 0; r == 0 && k < c; k++)
			r = one_symbol(im, w, w->block + k * es, dynamic, fn,
			    arg, err);
		return r;
	}
	for (k = 0; k < c; k++) {
		w->pend[n].name = get(w->block + k * es, 4, msb);
		w->pend[n].k = k;
		n += w->pend[n].name != 0;
	}
	qsort(w->pend, n, sizeof(w->pend[0]), by_name);
	for (k = 0; r == 0 && k < n; k++)
		r = one_symbol(im, w, w->block + w->pend[k].k * es, dynamic,
		    fn, arg, err);
	return r;
}

/* Hand each symbol of one table to fn, a block at a time. */
static int
read_symbols(const struct chstk_image *im, const GElf_Shdr *tab,
    const GElf_Shdr *str, bool dynamic, chstk_sym_fn fn, void *arg,
    struct chstk_error *err)
{
	const struct chstk__symread_sizes *sz = &chstk__symread_sizes;
	size_t es = chstk__fsize(im, ELF_T_SYM), c;
	size_t per = sz->block < es ? 1 : sz->block < BLOCK ?
	    sz->block / es : BLOCK / es;
	struct symread *w;
	uint64_t i, n, size = chstk__src_size(im->src);
	int r = 0;

	if (tab->sh_entsize != es)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "symbol table entry size is %ju, not %zu",
		    (uintmax_t)tab->sh_entsize, es);
	if (tab->sh_type == SHT_NOBITS ||
	    !chstk__in_range(tab->sh_offset, tab->sh_size, size))
		return chstk__error(err, CHSTK_ERR_TRUNCATED,
		    "symbol table runs past the end of the file");
	if (str->sh_type == SHT_NOBITS ||
	    !chstk__in_range(str->sh_offset, str->sh_size, size))
		return chstk__error(err, CHSTK_ERR_TRUNCATED,
		    "symbol string table runs past the end of the file");
	n = tab->sh_size / es;
	if (n > SYM_MAX)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "symbol table of %ju entries, more than the %ju this library reads",
		    (uintmax_t)n, (uintmax_t)SYM_MAX);
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return chstk__syserror(err, "cannot read symbols");
	w->off = str->sh_offset;
	w->size = str->sh_size;
	w->whole = w->size <= sz->names_whole;
	w->winsz = sz->names_win > NAME_MAX_LEN ? sz->names_win : NAME_MAX_LEN;
	if ((w->names = malloc(w->whole && w->size > 0 ? (size_t)w->size :
	    w->winsz)) == NULL) {
		free(w);
		return chstk__syserror(err, "cannot read symbols");
	}
	/* Entry 0 is the undefined symbol, nameless. */
	for (i = 1; r == 0 && i < n; i += c) {
		c = n - i < per ? (size_t)(n - i) : per;
		r = chstk__src_read(im->src, tab->sh_offset + i * es, w->block,
		    c * es, "symbol table", err);
		if (r == 0)
			r = symbol_block(im, w, c, dynamic, fn, arg, err);
	}
	free(w->names);
	free(w);
	return r;
}

/* The PT_GNU_PROPERTY of a program or shared object; for an object, the
   .note.gnu.property section image.c found. */
static int
property_of(const struct chstk_image *im, struct chstk_hardening *h,
    struct chstk_error *err)
{
	size_t i;

	if (im->ehdr.e_type == ET_REL)
		return im->property.sh_type == SHT_NOTE ? read_property(im,
		    im->property.sh_offset, im->property.sh_size, h, err) : 0;
	for (i = 0; i < im->phnum; i++)
		if (im->phdr[i].p_type == PT_GNU_PROPERTY)
			return read_property(im, im->phdr[i].p_offset,
			    im->phdr[i].p_filesz, h, err);
	return 0;
}

/*
 * The stack protector's guard lives in the thread control block, where
 * GCC and Clang read it for glibc (sysdeps/x86_64/nptl/tls.h and
 * sysdeps/i386/nptl/tls.h: tcbhead_t.stack_guard, at %fs:0x28 and
 * %gs:0x14): a protected function loads it in its prologue and checks it
 * before returning. Without symbols, these reads are what shows that a
 * program's functions are protected. Their encodings, the segment prefix,
 * REX.W (x86-64; REX.R too for %r8 to %r15), the opcode of mov, sub, xor
 * or cmp into a register, a ModRM of mod 00 with a 32-bit absolute
 * address (x86-64: through a SIB without base or index), and the offset:
 *
 *   x86-64  64 48|4c 8b|2b|33|3b (reg<<3|4) 25 28 00 00 00
 *   i386    65 8b|2b|33|3b (reg<<3|5) 14 00 00 00, and 65 a1 14 00 00 00
 *           (mov to %eax by its short form)
 *
 * as objdump -d shows them (tests/elfscan/precision.sh counts both).
 */
#define GUARD_CHUNK 65536
#define GUARD_OVERLAP 8		/* the longest encoding, less one byte */
#define GUARD_CODE_MAX (UINT64_C(64) << 20)

static bool
guard_op(unsigned char op)
{
	return op == 0x8b || op == 0x2b || op == 0x33 || op == 0x3b;
}

/* Does an encoding that reads the guard start at p (len bytes there)? */
static bool
guard_read_at(const unsigned char *p, size_t len, bool x86_64)
{
	static const unsigned char off64[] = { 0x25, 0x28, 0, 0, 0 };
	static const unsigned char off32[] = { 0x14, 0, 0, 0 };

	if (x86_64)
		return len >= 9 && p[0] == 0x64 && (p[1] == 0x48 ||
		    p[1] == 0x4c) && guard_op(p[2]) && (p[3] & 0xc7) == 0x04 &&
		    memcmp(p + 4, off64, sizeof(off64)) == 0;
	if (len >= 6 && p[0] == 0x65 && p[1] == 0xa1 &&
	    memcmp(p + 2, off32, sizeof(off32)) == 0)
		return true;
	return len >= 7 && p[0] == 0x65 && guard_op(p[1]) &&
	    (p[2] & 0xc7) == 0x05 && memcmp(p + 3, off32, sizeof(off32)) == 0;
}

/* The guard reads of the executable PT_LOADs, a chunk at a time; -1 past
   GUARD_CODE_MAX bytes of code or when a read fails. */
static int64_t
guard_reads(const struct chstk_image *im, bool x86_64)
{
	unsigned char *buf = malloc(GUARD_CHUNK + GUARD_OVERLAP);
	uint64_t pos, len, total = 0;
	int64_t n = 0;
	size_t i, k, got;

	if (buf == NULL)
		return -1;
	for (i = 0; i < im->phnum && n >= 0; i++) {
		const GElf_Phdr *ph = &im->phdr[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (ph->p_filesz > GUARD_CODE_MAX - total) {
			n = -1;
			break;
		}
		total += ph->p_filesz;
		for (pos = 0; pos < ph->p_filesz && n >= 0; pos += GUARD_CHUNK) {
			len = ph->p_filesz - pos;
			got = len < GUARD_CHUNK + GUARD_OVERLAP ? (size_t)len :
			    GUARD_CHUNK + GUARD_OVERLAP;
			if (chstk__src_read(im->src, ph->p_offset + pos, buf, got,
			    "code", NULL) < 0) {
				n = -1;
				break;
			}
			for (k = 0; k < got && k < GUARD_CHUNK; k++)
				n += guard_read_at(buf + k, got - k, x86_64);
		}
	}
	free(buf);
	return n;
}

/* The guard reads of a stripped static program, or -1 (see struct
   chstk_hardening). */
static int64_t
canary_code(const struct chstk_image *im, const struct chstk_info *info,
    const struct chstk_hardening *h)
{
	if (info->kind != CHSTK_KIND_PROGRAM || info->interp || h->symtab)
		return -1;
	if (info->machine == EM_X86_64 && info->elf_class == ELFCLASS64)
		return guard_reads(im, true);
	if (info->machine == EM_386)
		return guard_reads(im, false);
	return -1;
}

int
chstk__dynsym_read(const struct chstk_image *im,
    const struct chstk_scan_opts *o, void *arg, struct chstk_error *err)
{
	if (im->dynsym.sh_type != SHT_DYNSYM || o->symbol == NULL)
		return 0;
	return read_symbols(im, &im->dynsym, &im->dynsym_str, true, o->symbol,
	    arg, err);
}

int
chstk__hardening_read(const struct chstk_image *im,
    const struct chstk_info *info, const struct chstk_scan_opts *o,
    void *arg, struct chstk_hardening_buf *b, struct chstk_error *err)
{
	struct chstk_hardening *h = &b->h;
	size_t i;
	int r;

	memset(h, 0, sizeof(*h));
	h->guard_reads = -1;
	b->rpath[0] = b->runpath[0] = b->soname[0] = '\0';
	b->needed[0] = b->interp[0] = '\0';
	h->rpath = b->rpath;
	h->runpath = b->runpath;
	h->soname = b->soname;
	h->needed = b->needed;
	h->interp = b->interp;
	r = read_dynamic(im, b, err);
	if (r == 0)
		r = read_interp(im, b, err);
	if (r != 0 || !(o->read & CHSTK_READ_HARDENING))
		return r;
	for (i = 0; i < im->phnum; i++)
		if (im->phdr[i].p_type == PT_GNU_RELRO)
			h->gnu_relro = true;
	h->sections = im->shnum > 0;
	h->symtab = im->symtab.sh_type == SHT_SYMTAB;
	h->dynsym = im->dynsym.sh_type == SHT_DYNSYM;
	h->guard_reads = canary_code(im, info, h);
	r = property_of(im, h, err);
	if (r != 0 || o->symbol == NULL)
		return r;
	if (h->dynsym)
		r = read_symbols(im, &im->dynsym, &im->dynsym_str, true,
		    o->symbol, arg, err);
	if (r == 0 && h->symtab)
		r = read_symbols(im, &im->symtab, &im->symtab_str, false,
		    o->symbol, arg, err);
	return r;
}
