/*
 * hardening.c - what an ELF image says of its other defences and of how it
 * links, for the scanners' CHSTK_READ_HARDENING and CHSTK_READ_DYNAMIC:
 * the dynamic section (immediate binding, RPATH and RUNPATH, the needed
 * libraries, the SONAME, text relocations) and the interpreter's path;
 * with CHSTK_READ_HARDENING also the GNU property note (x86 IBT and SHSTK,
 * AArch64 BTI and PAC, and what is wrong with it), what annocheck's tests
 * of the binary alone read in the program headers and the sections image.c
 * noted, and the symbol tables, handed to the caller one symbol at a time;
 * with CHSTK_READ_CODE the first bytes of code at the entry point and at
 * each exported function; for a stripped static program, the stack
 * protector's reads in its code. What they mean is the caller's to judge
 * (elfscan's hardening.c and its system verdicts).
 *
 * Everything is read in bounded pieces, each range-checked against the
 * file before it is read: the dynamic section CHUNK entries at a time, the
 * symbol tables BLOCK bytes at a time, their names from the string table
 * read once whole when it is at most NAMES_WHOLE bytes, else through a
 * window on it, a string of the dynamic section up to CHSTK_PATH_LEN
 * bytes, at most NEEDED_MAX needed libraries, the property note up to
 * NOTE_MAX bytes, a PT_NOTE segment one note header at a time and only when
 * it holds at most NOTES_MAX bytes, .go.buildinfo's first 66, CHSTK_CODE_LEN
 * bytes of code at each address, through a window of CODE_WIN. A count no
 * real file reaches is an error, so that a sparse file claiming billions of
 * entries costs nothing.
 *
 * The dlopen notes are systemd's (docs/ELF_DLOPEN_METADATA.md, systemd
 * 256 and later, src/basic/dlfcn-util.h): in section .note.dlopen, within
 * a PT_NOTE segment, one note per library or set of libraries, of owner
 * "FDO" and type 0x407c0c0a, its descriptor a NUL-terminated JSON text.
 * The loader never reads them, so a note that does not hold is no error of
 * the file: the notes after it are not read.
 */
#include <stddef.h>
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
/* Note segments hold a few notes of tens of bytes (a build ID, an ABI
   tag, a package's metadata); libsystemd-shared's 20 dlopen notes take
   3 KiB. */
#define NOTES_MAX 65536
#define NT_FDO_DLOPEN 0x407c0c0au
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
#ifndef DT_AARCH64_BTI_PLT
#define DT_AARCH64_BTI_PLT 0x70000001
#endif
#ifndef DT_AARCH64_PAC_PLT
#define DT_AARCH64_PAC_PLT 0x70000003
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

/* The file offset of virtual address vaddr, through the PT_LOADs that
   have the p_flags bits flags; the bytes up to the end of that segment's
   file image are left in *room. */
static int
vaddr_to_off(const struct chstk_image *im, uint64_t vaddr, unsigned flags,
    uint64_t *off, uint64_t *room)
{
	size_t i;

	for (i = 0; i < im->phnum; i++) {
		const GElf_Phdr *ph = &im->phdr[i];

		if (ph->p_type != PT_LOAD || (ph->p_flags & flags) != flags ||
		    vaddr < ph->p_vaddr || vaddr - ph->p_vaddr >= ph->p_filesz)
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

	if (str >= strsz || vaddr_to_off(im, strtab, 0, &off, &room) < 0 ||
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
dyn_entry(const struct chstk_image *im, struct chstk_hardening *h,
    struct dyn_walk *w, int64_t tag, uint64_t val)
{
	/* Tags of the processor's range mean something else elsewhere. */
	if (im->ehdr.e_machine == EM_AARCH64 && tag == DT_AARCH64_BTI_PLT)
		h->aarch64_bti_plt = true;
	if (im->ehdr.e_machine == EM_AARCH64 && tag == DT_AARCH64_PAC_PLT)
		h->aarch64_pac_plt = true;
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
			dyn_entry(im, h, &w, tag, is64 ? m.d64[k].d_un.d_val :
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

/* The descriptor of the dlopen note at off (dsz bytes) after the *used
   bytes of b->dlopen, up to its first NUL: 0; 1 when it does not fit, and
   the list is cut there; or an error. */
static int
dlopen_note(const struct chstk_image *im, uint64_t off, uint64_t dsz,
    struct chstk_hardening_buf *b, size_t *used, struct chstk_error *err)
{
	/* Room for the text, its NUL and the list's. */
	size_t room = sizeof(b->dlopen) - *used - 2, take, len;
	char *p = b->dlopen + *used;
	int r;

	take = dsz < room ? (size_t)dsz : room;
	r = chstk__src_read(im->src, off, p, take, "dlopen note", err);
	if (r < 0)
		return r;
	len = strnlen(p, take);
	if (len == take && take < dsz) {
		b->h.dlopen_cut = true;
		return 1;
	}
	p[len] = '\0';
	if (len > 0)
		*used += len + 1;
	return 0;
}

/* The dlopen notes of one PT_NOTE segment, after the *used bytes of
   b->dlopen. */
static int
dlopen_notes(const struct chstk_image *im, const GElf_Phdr *ph,
    struct chstk_hardening_buf *b, size_t *used, struct chstk_error *err)
{
	uint64_t size = ph->p_filesz, pos = 0, nsz, dsz, dpos;
	uint64_t align = ph->p_align == 8 ? 8 : 4;
	unsigned char head[16];
	int msb = is_msb(im), r;
	size_t n;

	if (size > NOTES_MAX || !chstk__in_range(ph->p_offset, size,
	    chstk__src_size(im->src))) {
		b->h.dlopen_cut = true;
		return 0;
	}
	while (pos < size && size - pos >= 12) {
		n = size - pos >= 16 ? 16 : 12;
		r = chstk__src_read(im->src, ph->p_offset + pos, head, n,
		    "note header", err);
		if (r < 0)
			return r;
		nsz = get(head, 4, msb);
		dsz = get(head + 4, 4, msb);
		dpos = pos + 12 + (nsz + align - 1) / align * align;
		if (dpos > size || dsz > size - dpos)
			return 0;
		if (n == 16 && nsz == 4 && memcmp(head + 12, "FDO", 4) == 0 &&
		    get(head + 8, 4, msb) == NT_FDO_DLOPEN && dsz > 0) {
			r = dlopen_note(im, ph->p_offset + dpos, dsz, b, used,
			    err);
			if (r != 0)
				return r < 0 ? r : 0;
		}
		pos = dpos + (dsz + align - 1) / align * align;
	}
	return 0;
}

/* Every PT_NOTE segment's dlopen notes. */
static int
read_dlopen(const struct chstk_image *im, struct chstk_hardening_buf *b,
    struct chstk_error *err)
{
	size_t i, used = 0;
	int r = 0;

	for (i = 0; i < im->phnum && r == 0 && !b->h.dlopen_cut; i++)
		if (im->phdr[i].p_type == PT_NOTE)
			r = dlopen_notes(im, &im->phdr[i], b, &used, err);
	b->dlopen[used] = '\0';
	return r;
}

/* The first fault of the property note stays. */
static void
fault(struct chstk_hardening *h, enum chstk_property_fault f)
{
	if (h->property_fault == CHSTK_PROPERTY_OK)
		h->property_fault = f;
}

/* The properties of one NT_GNU_PROPERTY_TYPE_0 descriptor, and what is
   wrong with them (chstk.h, enum chstk_property_fault). */
static void
properties(const struct chstk_image *im, const unsigned char *p, size_t len,
    struct chstk_hardening *h)
{
	size_t align = im->ehdr.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4;
	bool x86 = im->ehdr.e_machine == EM_X86_64 ||
	    im->ehdr.e_machine == EM_386;
	bool arm = im->ehdr.e_machine == EM_AARCH64;
	int msb = is_msb(im);
	uint32_t last = 0;
	bool first = true;

	if (len < 8 || len % align != 0)
		fault(h, CHSTK_PROPERTY_SIZE);
	while (len >= 8) {
		uint32_t type = (uint32_t)get(p, 4, msb);
		uint32_t size = (uint32_t)get(p + 4, 4, msb);
		size_t step;

		if (!first && type <= last)
			fault(h, CHSTK_PROPERTY_ORDER);
		first = false;
		last = type;
		if (size > len - 8) {
			fault(h, CHSTK_PROPERTY_OVERRUN);
			return;
		}
		if ((x86 && type == GNU_PROPERTY_X86_FEATURE_1_AND) ||
		    (arm && type == GNU_PROPERTY_AARCH64_FEATURE_1_AND))
			if (size != 4)
				fault(h, CHSTK_PROPERTY_FEATURE);
		if (size == 4 && type == GNU_PROPERTY_X86_FEATURE_1_AND)
			h->x86_feature_1 = (uint32_t)get(p + 8, 4, msb);
		if (size == 4 && type == GNU_PROPERTY_AARCH64_FEATURE_1_AND)
			h->aarch64_feature_1 = (uint32_t)get(p + 8, 4, msb);
		step = 8 + (size + align - 1) / align * align;
		if (step > len) {
			fault(h, CHSTK_PROPERTY_OVERRUN);
			return;
		}
		p += step;
		len -= step;
	}
}

/*
 * The notes at [off, off + size), a segment or a section aligned to
 * align: the first "GNU" NT_GNU_PROPERTY_TYPE_0 note's properties, and
 * what is wrong with the notes (chstk.h, enum chstk_property_fault).
 */
static int
read_property(const struct chstk_image *im, uint64_t off, uint64_t size,
    uint64_t align, struct chstk_hardening *h, struct chstk_error *err)
{
	unsigned char buf[NOTE_MAX];
	size_t want = im->ehdr.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4;
	struct chstk__notes w = { .name_align = 4 };
	struct chstk__note n;
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
	if (align != want)
		fault(h, CHSTK_PROPERTY_ALIGN);
	/* The descriptor is 8-aligned in 64-bit files, but the "GNU"
	   name's 4 bytes after the 12 of the header keep it so. */
	w.buf = buf;
	w.len = (size_t)size;
	w.desc_align = align == 8 ? 8 : 4;
	w.msb = is_msb(im);
	while ((r = chstk__note_next(&w, &n)) > 0)
		if (n.type != NT_GNU_PROPERTY_TYPE_0 || !chstk__note_gnu(&n)) {
			/* The arm64 kernel reads the first note only. */
			if (n.at == 0)
				fault(h, CHSTK_PROPERTY_NOT_FIRST);
		} else if (h->property_notes++ > 0) {
			fault(h, CHSTK_PROPERTY_MANY);
		} else {
			h->property = true;
			properties(im, n.desc, n.descsz, h);
		}
	return r < 0 ? chstk__error(err, CHSTK_ERR_CORRUPT,
	    "property note entry runs past its note") : 0;
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
/*
 * The code of a table's exported functions is read before its symbols are
 * handed over, all of them in the order of their offsets, each read
 * running on to the functions that start within CODE_GAP bytes of its end
 * (a read costs about what copying a few KiB does), up to CODE_WIN bytes:
 * node, which exports 67,000 functions, costs a read per stretch of its
 * code, not one per function or per block of symbols. A table may export
 * at most FUNCS_MAX functions (node's is the most in Debian's /usr/bin).
 */
#define CODE_WIN 65536
#define CODE_GAP 4096
#define FUNCS_MAX (UINT64_C(1) << 20)

struct chstk__symread_sizes chstk__symread_sizes = {
	NAMES_WHOLE, NAMES_WIN, BLOCK, CODE_WIN
};

/* A named symbol of the block: its name's offset, its index. */
struct pending {
	uint64_t key;
	size_t k;
};

/* An exported function of the table: where its code lies in the file, its
   index in the table, how many of its first bytes the file holds, those
   bytes (zeros after). */
struct func {
	uint64_t off, index;
	unsigned char len;
	unsigned char code[CHSTK_CODE_LEN];
};

/* A symbol table and its string table being read. */
struct symread {
	uint64_t off, size;	/* the string table in the file */
	bool whole;		/* read whole, else through the window */
	size_t winsz;		/* the window's size */
	uint64_t win;		/* the window's start in the table */
	size_t len;		/* bytes in names, from win */
	char *names;		/* size or winsz bytes */
	/* CHSTK_READ_CODE, in the dynamic table: the table's exported
	   functions, by index once their code is read; the next of them to
	   hand over; the code of the block's symbols (has[k]: whether the
	   file holds any of symbol k's). */
	bool code;
	struct func *funcs;
	size_t nfuncs, cur;
	/* The buffers, from here on, are written before they are read: left
	   as malloc gives them, their pages are touched only as far as a
	   table fills them, not a quarter MiB for every small table. */
	unsigned char block[BLOCK];
	struct pending pend[BLOCK / sizeof(Elf32_Sym)];
	char cutname[NAME_MAX_LEN + 1];
	unsigned char has[BLOCK / sizeof(Elf32_Sym)];
	const unsigned char *fcode[BLOCK / sizeof(Elf32_Sym)];
	unsigned char cbuf[CODE_WIN];
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
   to fn, with its code or NULL; 0 to go on. */
static int
one_symbol(const struct chstk_image *im, struct symread *w,
    const unsigned char *raw, const unsigned char *code, bool dynamic,
    chstk_sym_fn fn, void *arg, struct chstk_error *err)
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
	sym.code = code;
	/* Any other value than 0 stops the scan. */
	return fn(arg, &sym);
}

static int
by_key(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* Where the code of the exported function raw lies in the file, and how
   many of its first CHSTK_CODE_LEN bytes the file holds: 0, or -1 when it
   is no exported function or its code is not in the file. */
static int
code_off(const struct chstk_image *im, const unsigned char *raw,
    uint64_t *off, size_t *n)
{
	bool is64 = im->ehdr.e_ident[EI_CLASS] == ELFCLASS64;
	int msb = is_msb(im);
	unsigned info = raw[is64 ? 4 : 12], other = raw[is64 ? 5 : 13];
	unsigned shndx = (unsigned)get(raw + (is64 ? 6 : 14), 2, msb);
	uint64_t value = get(raw + (is64 ? 8 : 4), is64 ? 8 : 4, msb), room;

	if (shndx == SHN_UNDEF || shndx >= SHN_LORESERVE ||
	    GELF_ST_TYPE(info) != STT_FUNC ||
	    (GELF_ST_BIND(info) != STB_GLOBAL &&
	    GELF_ST_BIND(info) != STB_WEAK) ||
	    GELF_ST_VISIBILITY(other) == STV_HIDDEN ||
	    GELF_ST_VISIBILITY(other) == STV_INTERNAL)
		return -1;
	if (vaddr_to_off(im, value, PF_X, off, &room) < 0)
		return -1;
	*n = room < CHSTK_CODE_LEN ? (size_t)room : CHSTK_CODE_LEN;
	return 0;
}

/* A function of the table by the offset of its code: its place in
   w->funcs. */
struct by_off {
	uint64_t off;
	size_t at;
};

/*
 * Sort the n entries of v by offset, tmp as large: a radix sort, a byte
 * at a time from the lowest, the bytes all functions share passed over.
 * Tens of thousands of functions (node's) sort in a few passes, without
 * a call per comparison.
 */
static void
sort_by_off(struct by_off *v, struct by_off *tmp, size_t n)
{
	size_t count[256], i, sum, t;
	unsigned shift, b;

	for (shift = 0; shift < 64; shift += 8) {
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[v[i].off >> shift & 0xff]++;
		if (n == 0 || count[v[0].off >> shift & 0xff] == n)
			continue;
		for (b = 0, sum = 0; b < 256; b++) {
			t = count[b];
			count[b] = sum;
			sum += t;
		}
		for (i = 0; i < n; i++)
			tmp[count[v[i].off >> shift & 0xff]++] = v[i];
		memcpy(v, tmp, n * sizeof(*v));
	}
}

/* Note the exported functions of the block of c symbols from index base. */
static int
block_funcs(const struct chstk_image *im, struct symread *w, uint64_t base,
    size_t c, size_t *cap, struct chstk_error *err)
{
	size_t es = chstk__fsize(im, ELF_T_SYM), k, have;
	struct func *f;
	uint64_t off;

	for (k = 0; k < c; k++) {
		if (code_off(im, w->block + k * es, &off, &have) < 0)
			continue;
		/* No file reaches there; spans are summed below. */
		if (off > UINT64_MAX - CODE_WIN - CODE_GAP)
			return chstk__error(err, CHSTK_ERR_TRUNCATED,
			    "exported function runs past the end of the file");
		if (w->nfuncs == *cap) {
			if (*cap >= FUNCS_MAX)
				return chstk__error(err, CHSTK_ERR_CORRUPT,
				    "more than %ju exported functions, more than this library reads",
				    (uintmax_t)FUNCS_MAX);
			*cap = *cap ? 2 * *cap : 64;
			if ((f = realloc(w->funcs, *cap * sizeof(*f))) == NULL)
				return chstk__syserror(err,
				    "cannot read exported functions");
			w->funcs = f;
		}
		f = &w->funcs[w->nfuncs++];
		memset(f, 0, sizeof(*f));
		f->off = off;
		f->index = base + k;
		f->len = (unsigned char)have;
	}
	return 0;
}

/* The first bytes of each exported function, the functions in the order of
   their offsets, a read for each stretch of them (CODE_GAP). */
static int
funcs_code(const struct chstk_image *im, struct symread *w,
    struct chstk_error *err)
{
	struct func *f = w->funcs;
	struct by_off *v;
	size_t i, j, k, win = chstk__symread_sizes.code_win;
	uint64_t end;
	int r = 0;

	if (w->nfuncs == 0)
		return 0;
	win = win < CHSTK_CODE_LEN ? CHSTK_CODE_LEN : win < CODE_WIN ? win :
	    CODE_WIN;
	if ((v = malloc(2 * w->nfuncs * sizeof(*v))) == NULL)
		return chstk__syserror(err, "cannot read exported functions");
	for (i = 0; i < w->nfuncs; i++) {
		v[i].off = f[i].off;
		v[i].at = i;
	}
	sort_by_off(v, v + w->nfuncs, w->nfuncs);
	for (i = 0; r == 0 && i < w->nfuncs; i = j) {
		end = v[i].off + f[v[i].at].len;
		for (j = i + 1; j < w->nfuncs && v[j].off <= end + CODE_GAP &&
		    v[j].off + f[v[j].at].len - v[i].off <= win; j++)
			if (v[j].off + f[v[j].at].len > end)
				end = v[j].off + f[v[j].at].len;
		r = chstk__src_read(im->src, v[i].off, w->cbuf,
		    (size_t)(end - v[i].off), "exported function", err);
		for (k = i; r == 0 && k < j; k++)
			memcpy(f[v[k].at].code, w->cbuf + (v[k].off - v[i].off),
			    f[v[k].at].len);
	}
	free(v);
	return r;
}

/* The table's exported functions and their code, before its symbols are
   handed over: a first reading of the table, per symbols at a time. */
static int
table_code(const struct chstk_image *im, const GElf_Shdr *tab, uint64_t n,
    size_t per, struct symread *w, struct chstk_error *err)
{
	size_t es = chstk__fsize(im, ELF_T_SYM), c, cap = 0;
	uint64_t i;
	int r = 0;

	for (i = 1; r == 0 && i < n; i += c) {
		c = n - i < per ? (size_t)(n - i) : per;
		r = chstk__src_read(im->src, tab->sh_offset + i * es, w->block,
		    c * es, "symbol table", err);
		if (r == 0)
			r = block_funcs(im, w, i, c, &cap, err);
	}
	return r == 0 ? funcs_code(im, w, err) : r;
}

/* The code of the block of c symbols from index base, in w->has and
   w->fcode. */
static void
block_code(struct symread *w, uint64_t base, size_t c)
{
	size_t k;

	memset(w->has, 0, c);
	for (; w->cur < w->nfuncs && w->funcs[w->cur].index < base + c;
	    w->cur++) {
		k = (size_t)(w->funcs[w->cur].index - base);
		w->has[k] = w->funcs[w->cur].len != 0;
		w->fcode[k] = w->funcs[w->cur].code;
	}
}

/* The code of symbol k of the block, or NULL. */
static const unsigned char *
code_of(const struct symread *w, size_t k)
{
	return w->code && w->has[k] ? w->fcode[k] : NULL;
}

/* Hand the c symbols of the block to fn: in the table's order when the
   string table is read whole, else in the order of their names. */
static int
symbol_block(const struct chstk_image *im, struct symread *w, uint64_t base,
    size_t c, bool dynamic, chstk_sym_fn fn, void *arg,
    struct chstk_error *err)
{
	size_t es = chstk__fsize(im, ELF_T_SYM), k, n = 0;
	int msb = is_msb(im), r = 0;

	if (w->code)
		block_code(w, base, c);
	if (w->whole) {
		for (k = 0; r == 0 && k < c; k++)
			r = one_symbol(im, w, w->block + k * es, code_of(w, k),
			    dynamic, fn, arg, err);
		return r;
	}
	for (k = 0; k < c; k++) {
		w->pend[n].key = get(w->block + k * es, 4, msb);
		w->pend[n].k = k;
		n += w->pend[n].key != 0;
	}
	qsort(w->pend, n, sizeof(w->pend[0]), by_key);
	for (k = 0; r == 0 && k < n; k++)
		r = one_symbol(im, w, w->block + w->pend[k].k * es,
		    code_of(w, w->pend[k].k), dynamic, fn, arg, err);
	return r;
}

/* Hand each symbol of one table to fn, a block at a time. */
static int
read_symbols(const struct chstk_image *im, const GElf_Shdr *tab,
    const GElf_Shdr *str, bool dynamic, bool code, chstk_sym_fn fn,
    void *arg, struct chstk_error *err)
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
	if ((w = malloc(sizeof(*w))) == NULL)
		return chstk__syserror(err, "cannot read symbols");
	memset(w, 0, offsetof(struct symread, block));
	w->off = str->sh_offset;
	w->size = str->sh_size;
	w->code = dynamic && code;
	w->whole = w->size <= sz->names_whole;
	w->winsz = sz->names_win > NAME_MAX_LEN ? sz->names_win : NAME_MAX_LEN;
	if ((w->names = malloc(w->whole && w->size > 0 ? (size_t)w->size :
	    w->winsz)) == NULL) {
		free(w);
		return chstk__syserror(err, "cannot read symbols");
	}
	if (w->code)
		r = table_code(im, tab, n, per, w, err);
	/* Entry 0 is the undefined symbol, nameless. */
	for (i = 1; r == 0 && i < n; i += c) {
		c = n - i < per ? (size_t)(n - i) : per;
		r = chstk__src_read(im->src, tab->sh_offset + i * es, w->block,
		    c * es, "symbol table", err);
		if (r == 0)
			r = symbol_block(im, w, i, c, dynamic, fn, arg, err);
	}
	free(w->funcs);
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
		    im->property.sh_offset, im->property.sh_size,
		    im->property.sh_addralign, h, err) : 0;
	for (i = 0; i < im->phnum; i++)
		if (im->phdr[i].p_type == PT_GNU_PROPERTY)
			return read_property(im, im->phdr[i].p_offset,
			    im->phdr[i].p_filesz, im->phdr[i].p_align, h, err);
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
	return read_symbols(im, &im->dynsym, &im->dynsym_str, true, false,
	    o->symbol, arg, err);
}

/* The first bytes at the entry point of a program (or of a shared object
   that has one), when it lies in an executable segment's file image. */
static int
read_entry(const struct chstk_image *im, struct chstk_hardening *h,
    struct chstk_error *err)
{
	uint64_t off, room;
	int r;

	if ((im->ehdr.e_type != ET_EXEC && im->ehdr.e_type != ET_DYN) ||
	    vaddr_to_off(im, im->ehdr.e_entry, PF_X, &off, &room) < 0 ||
	    room < CHSTK_CODE_LEN)
		return 0;
	r = chstk__src_read(im->src, off, h->entry_code, CHSTK_CODE_LEN,
	    "entry point", err);
	h->has_entry_code = r == 0;
	return r;
}

/*
 * The Go version that Go 1.18 and later write inline in .go.buildinfo
 * (src/debug/buildinfo/buildinfo.go): the 14 bytes "\xff Go buildinf:",
 * the pointer size, flags (2: strings inline), padding to 32 bytes, then
 * the version as a length (an unsigned LEB128) and its bytes. Earlier
 * versions point at it instead: left unsaid.
 */
static int
read_go_version(const struct chstk_image *im, struct chstk_hardening *h,
    struct chstk_error *err)
{
	const GElf_Shdr *sh = &im->go_buildinfo;
	unsigned char buf[32 + 2 + sizeof(h->go_version)];
	size_t n, len, at;
	int r;

	if (sh->sh_type != SHT_PROGBITS)
		return 0;
	n = sh->sh_size < sizeof(buf) ? (size_t)sh->sh_size : sizeof(buf);
	if (!chstk__in_range(sh->sh_offset, n, chstk__src_size(im->src)))
		return chstk__error(err, CHSTK_ERR_TRUNCATED,
		    "Go build information runs past the end of the file");
	if (n < 33)
		return 0;
	if ((r = chstk__src_read(im->src, sh->sh_offset, buf, n,
	    "Go build information", err)) < 0)
		return r;
	if (memcmp(buf, "\xff Go buildinf:", 14) != 0 || !(buf[15] & 2))
		return 0;
	len = buf[32] & 0x7f;
	at = 33;
	if (buf[32] & 0x80) {
		if (n < 34 || buf[33] & 0x80)
			return 0;
		len |= (size_t)buf[33] << 7;
		at = 34;
	}
	if (len >= sizeof(h->go_version) || len > n - at)
		return 0;
	for (n = 0; n < len; n++)
		if (buf[at + n] < 0x20 || buf[at + n] > 0x7e)
			return 0;
	memcpy(h->go_version, buf + at, len);
	h->go_version[len] = '\0';
	return 0;
}

/* What the program headers and the sections say to annocheck's tests:
   the dynamic segments, an executable PT_TLS, the sections reaching out
   of the last PT_GNU_RELRO (as glibc, which keeps the last). */
static void
layout(const struct chstk_image *im, struct chstk_hardening *h)
{
	const GElf_Phdr *relro = NULL;
	uint64_t end = 0;
	unsigned i;

	for (i = 0; i < im->phnum; i++) {
		const GElf_Phdr *ph = &im->phdr[i];

		if (ph->p_type == PT_GNU_RELRO) {
			h->gnu_relro = true;
			relro = ph;
		}
		if (ph->p_type == PT_DYNAMIC)
			h->dynamic_segments++;
		if (ph->p_type == PT_TLS && ph->p_flags & PF_X &&
		    ph->p_memsz > 0)
			h->tls_exec = true;
	}
	if (relro != NULL)
		end = relro->p_memsz > UINT64_MAX - relro->p_vaddr ?
		    UINT64_MAX : relro->p_vaddr + relro->p_memsz;
	h->relro_sections = im->relro_sections;
	for (i = 0; i < CHSTK_RELRO_KINDS; i++)
		if (im->relro_sections & 1u << i && (relro == NULL ||
		    im->relro_span[i].lo < relro->p_vaddr ||
		    im->relro_span[i].hi > end))
			h->relro_outside |= 1u << i;
	h->dynamic_sections = im->dynamic_sections;
	h->writable_relocs = im->writable_relocs;
	h->go_buildid = im->go_buildid;
}

int
chstk__hardening_read(const struct chstk_image *im,
    const struct chstk_info *info, const struct chstk_scan_opts *o,
    void *arg, struct chstk_hardening_buf *b, struct chstk_error *err)
{
	struct chstk_hardening *h = &b->h;
	bool code = o->read & CHSTK_READ_CODE;
	int r;

	memset(h, 0, sizeof(*h));
	h->guard_reads = -1;
	b->rpath[0] = b->runpath[0] = b->soname[0] = '\0';
	b->needed[0] = b->interp[0] = b->dlopen[0] = '\0';
	h->rpath = b->rpath;
	h->runpath = b->runpath;
	h->soname = b->soname;
	h->needed = b->needed;
	h->interp = b->interp;
	h->dlopen = b->dlopen;
	r = read_dynamic(im, b, err);
	if (r == 0)
		r = read_interp(im, b, err);
	if (r == 0)
		r = read_dlopen(im, b, err);
	if (r != 0 || !(o->read & CHSTK_READ_HARDENING))
		return r;
	layout(im, h);
	h->sections = im->shnum > 0;
	h->symtab = im->symtab.sh_type == SHT_SYMTAB;
	h->dynsym = im->dynsym.sh_type == SHT_DYNSYM;
	h->guard_reads = canary_code(im, info, h);
	r = property_of(im, h, err);
	if (r == 0)
		r = read_go_version(im, h, err);
	if (r == 0 && code)
		r = read_entry(im, h, err);
	if (r != 0 || o->symbol == NULL)
		return r;
	if (h->dynsym)
		r = read_symbols(im, &im->dynsym, &im->dynsym_str, true, code,
		    o->symbol, arg, err);
	if (r == 0 && h->symtab)
		r = read_symbols(im, &im->symtab, &im->symtab_str, false,
		    false, o->symbol, arg, err);
	return r;
}
