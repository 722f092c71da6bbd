/*
 * image.c - reading one ELF image: its header, program headers and, for
 * objects, section headers, each range-checked against the file before it
 * is read, and decoded by libelf's translators into GElf structures.
 *
 * The reader reads only what a verdict needs, in bounded pieces: section
 * headers stream through a small buffer and names are looked up through a
 * window on the name table, so that an object with a hundred thousand
 * sections costs a few kilobytes, not megabytes. Rewrites ask for every
 * section header to be kept (CHSTK_IMAGE_SECTIONS).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Entries decoded per read: a bound on the buffers. */
#define CHUNK 64

/*
 * The most sections or program headers read: a sparse file can claim
 * billions at no cost, and reading their headers would take hours. Real
 * files stay far below (a Linux vmlinux.o has a few hundred thousand
 * sections).
 */
#define MAX_ENTRIES (UINT64_C(1) << 20)

int
chstk__is_elf(const unsigned char *buf, size_t len)
{
	return len >= SELFMAG && memcmp(buf, ELFMAG, SELFMAG) == 0;
}

/* A 32-bit word at p, big-endian where msb (the file's byte order). */
static uint32_t
get32(const unsigned char *p, bool msb)
{
	return msb ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3] : (uint32_t)p[3] << 24 |
	    (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

int
chstk__note_next(struct chstk__notes *w, struct chstk__note *n)
{
	size_t pos = w->pos, left, name, desc;

	if (pos > w->len || (left = w->len - pos) < 12)
		return 0;
	n->at = pos;
	n->namesz = get32(w->buf + pos, w->msb);
	n->descsz = get32(w->buf + pos + 4, w->msb);
	n->type = get32(w->buf + pos + 8, w->msb);
	/* Sizes below left first: the padding cannot wrap. */
	if (n->namesz > left - 12)
		return -1;
	name = 12 + (n->namesz + w->name_align - 1) / w->name_align *
	    w->name_align;
	if (name > left || n->descsz > left - name)
		return -1;
	desc = name + (n->descsz + w->desc_align - 1) / w->desc_align *
	    w->desc_align;
	n->name = w->buf + pos + 12;
	n->desc = w->buf + pos + name;
	/* The last note's padding may be cut: the walk ends there. */
	w->pos = desc > left ? w->len : pos + desc;
	return 1;
}

bool
chstk__note_gnu(const struct chstk__note *n)
{
	return n->namesz == 4 && memcmp(n->name, "GNU", 4) == 0;
}

size_t
chstk__fsize(const struct chstk_image *im, Elf_Type type)
{
	return im->ehdr.e_ident[EI_CLASS] == ELFCLASS64 ?
	    elf64_fsize(type, 1, EV_CURRENT) : elf32_fsize(type, 1, EV_CURRENT);
}

/* Decode n entries of type from file bytes into their memory layout. */
static int
decode(const struct chstk_image *im, Elf_Type type, const void *file,
    void *mem, size_t n, struct chstk_error *err)
{
	Elf_Data src, dst;
	int is64 = im->ehdr.e_ident[EI_CLASS] == ELFCLASS64;

	/* The ELF structures read here are laid out alike in the file and
	   in memory: the same size, only the byte order to mend. */
	memset(&src, 0, sizeof(src));
	memset(&dst, 0, sizeof(dst));
	src.d_buf = (void *)file;
	src.d_type = type;
	src.d_version = dst.d_version = EV_CURRENT;
	src.d_size = dst.d_size = n * chstk__fsize(im, type);
	dst.d_buf = mem;
	if ((is64 ? elf64_xlatetom(&dst, &src, im->ehdr.e_ident[EI_DATA]) :
	    elf32_xlatetom(&dst, &src, im->ehdr.e_ident[EI_DATA])) == NULL)
		return chstk__elferror(err, "cannot decode ELF structure");
	return 0;
}

static void
widen_phdr(const struct chstk_image *im, const void *mem, size_t i,
    GElf_Phdr *ph)
{
	if (im->ehdr.e_ident[EI_CLASS] == ELFCLASS64) {
		*ph = ((const Elf64_Phdr *)mem)[i];
	} else {
		const Elf32_Phdr *p = (const Elf32_Phdr *)mem + i;

		ph->p_type = p->p_type;
		ph->p_flags = p->p_flags;
		ph->p_offset = p->p_offset;
		ph->p_vaddr = p->p_vaddr;
		ph->p_paddr = p->p_paddr;
		ph->p_filesz = p->p_filesz;
		ph->p_memsz = p->p_memsz;
		ph->p_align = p->p_align;
	}
}

static void
widen_shdr(const struct chstk_image *im, const void *mem, size_t i,
    GElf_Shdr *sh)
{
	if (im->ehdr.e_ident[EI_CLASS] == ELFCLASS64) {
		*sh = ((const Elf64_Shdr *)mem)[i];
	} else {
		const Elf32_Shdr *s = (const Elf32_Shdr *)mem + i;

		sh->sh_name = s->sh_name;
		sh->sh_type = s->sh_type;
		sh->sh_flags = s->sh_flags;
		sh->sh_addr = s->sh_addr;
		sh->sh_offset = s->sh_offset;
		sh->sh_size = s->sh_size;
		sh->sh_link = s->sh_link;
		sh->sh_info = s->sh_info;
		sh->sh_addralign = s->sh_addralign;
		sh->sh_entsize = s->sh_entsize;
	}
}

static int
read_ehdr(struct chstk_image *im, struct chstk_error *err)
{
	const struct chstk_src *src = im->src;
	unsigned char raw[sizeof(Elf64_Ehdr)];
	union { Elf32_Ehdr e32; Elf64_Ehdr e64; } m;
	size_t have;
	int r;

	r = chstk__src_read_upto(src, 0, raw, sizeof(raw), &have, "ELF header",
	    err);
	if (r < 0)
		return r;
	if (!chstk__is_elf(raw, have))
		return chstk__error(err, CHSTK_ERR_NOT_ELF, "not an ELF file");
	if (have < EI_NIDENT)
		return chstk__error(err, CHSTK_ERR_TRUNCATED,
		    "ELF header runs past the end of the file");
	if (raw[EI_CLASS] != ELFCLASS32 && raw[EI_CLASS] != ELFCLASS64)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "invalid ELF class %u", raw[EI_CLASS]);
	if (raw[EI_DATA] != ELFDATA2LSB && raw[EI_DATA] != ELFDATA2MSB)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "invalid ELF byte order %u", raw[EI_DATA]);
	if (raw[EI_VERSION] != EV_CURRENT)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "unknown ELF version %u", raw[EI_VERSION]);
	memcpy(im->ehdr.e_ident, raw, EI_NIDENT);
	memcpy(im->head, raw, have < CHSTK_HEAD_LEN ? have : CHSTK_HEAD_LEN);
	if (have < chstk__fsize(im, ELF_T_EHDR))
		return chstk__error(err, CHSTK_ERR_TRUNCATED,
		    "ELF header runs past the end of the file");
	r = decode(im, ELF_T_EHDR, raw, &m, 1, err);
	if (r < 0)
		return r;
	if (raw[EI_CLASS] == ELFCLASS64) {
		im->ehdr = m.e64;
		return 0;
	}
	im->ehdr.e_type = m.e32.e_type;
	im->ehdr.e_machine = m.e32.e_machine;
	im->ehdr.e_version = m.e32.e_version;
	im->ehdr.e_entry = m.e32.e_entry;
	im->ehdr.e_phoff = m.e32.e_phoff;
	im->ehdr.e_shoff = m.e32.e_shoff;
	im->ehdr.e_flags = m.e32.e_flags;
	im->ehdr.e_ehsize = m.e32.e_ehsize;
	im->ehdr.e_phentsize = m.e32.e_phentsize;
	im->ehdr.e_phnum = m.e32.e_phnum;
	im->ehdr.e_shentsize = m.e32.e_shentsize;
	im->ehdr.e_shnum = m.e32.e_shnum;
	im->ehdr.e_shstrndx = m.e32.e_shstrndx;
	return 0;
}

/* Is a table of n entries of entsize bytes at off inside the file? */
static int
check_table(const struct chstk_image *im, uint64_t off, uint64_t n,
    uint64_t entsize, Elf_Type type, const char *what,
    struct chstk_error *err)
{
	size_t want = chstk__fsize(im, type);
	if (n == 0)
		return 0;
	if (entsize != want)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "%s entry size is %ju, not %zu", what, (uintmax_t)entsize,
		    want);
	if (n > MAX_ENTRIES)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "%ju %s, more than the %ju this library reads", (uintmax_t)n,
		    type == ELF_T_PHDR ? "program headers" : "sections",
		    (uintmax_t)MAX_ENTRIES);
	if (!chstk__src_holds(im->src, off, n * entsize))
		return chstk__error(err, CHSTK_ERR_TRUNCATED,
		    "%s runs past the end of the file", what);
	return 0;
}

int
chstk__read_entries(const struct chstk_image *im, Elf_Type type, uint64_t off,
    size_t first, size_t n, void *mem, const char *what,
    struct chstk_error *err)
{
	unsigned char raw[CHUNK * sizeof(Elf64_Shdr)];
	size_t es = chstk__fsize(im, type);
	int r;

	r = chstk__src_read(im->src, off + first * es, raw, n * es, what, err);
	return r < 0 ? r : decode(im, type, raw, mem, n, err);
}

/* Section header i (i < shnum, or 0 to read extended counts). */
static int
read_shdr(const struct chstk_image *im, size_t i, GElf_Shdr *sh,
    struct chstk_error *err)
{
	union { Elf32_Shdr s32; Elf64_Shdr s64; } m;
	int r;

	if (im->shdr != NULL) {
		*sh = im->shdr[i];
		return 0;
	}
	r = chstk__read_entries(im, ELF_T_SHDR, im->ehdr.e_shoff, i, 1, &m,
	    "section header", err);
	if (r == 0)
		widen_shdr(im, &m, 0, sh);
	return r;
}

/* The section count and name table index, with extended numbering. */
static int
section_counts(struct chstk_image *im, struct chstk_error *err)
{
	size_t n = im->ehdr.e_shnum, strndx = im->ehdr.e_shstrndx;
	GElf_Shdr sh0;
	int r;

	r = check_table(im, im->ehdr.e_shoff, n ? n : im->ehdr.e_shoff != 0,
	    im->ehdr.e_shentsize, ELF_T_SHDR, "section header table", err);
	if (r < 0 || (n == 0 && im->ehdr.e_shoff == 0))
		return r;
	if (n == 0 || strndx == SHN_XINDEX) {
		r = read_shdr(im, 0, &sh0, err);
		if (r < 0)
			return r;
		if (n == 0)
			n = sh0.sh_size;
		if (strndx == SHN_XINDEX)
			strndx = sh0.sh_link;
		r = check_table(im, im->ehdr.e_shoff, n, im->ehdr.e_shentsize,
		    ELF_T_SHDR, "section header table", err);
		if (r < 0)
			return r;
	}
	if (n > 0 && (strndx == SHN_UNDEF || strndx >= n))
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "section name table index %zu out of range", strndx);
	im->shnum = n;
	im->shstrndx = strndx;
	return 0;
}

/*
 * Does the section name at offset name in the name table start with the
 * len bytes of want? Reads through a window on the table, so that names
 * read in order cost one read per window.
 */
static int
name_starts(struct chstk_image *im, uint64_t name, const char *want,
    size_t len, struct chstk_error *err)
{
	struct chstk_strwin *w = &im->names;
	int r;

	if (name >= w->table_size || len > w->table_size - name)
		return 0;
	if (name < w->off || name + len > w->off + w->len) {
		w->off = name;
		w->len = sizeof(w->buf);
		if (w->len > w->table_size - name)
			w->len = (size_t)(w->table_size - name);
		r = chstk__src_read(im->src, w->table_off + name, w->buf, w->len,
		    "section name table", err);
		if (r < 0) {
			w->len = 0;
			return r;
		}
	}
	return memcmp(w->buf + (name - w->off), want, len) == 0;
}

int
chstk__name_is(struct chstk_image *im, uint64_t name, const char *want,
    struct chstk_error *err)
{
	return name_starts(im, name, want, strlen(want) + 1, err);
}

/*
 * An object's section that is not loaded and holds bytes: is it one of
 * those whose name tells what reads the object (struct chstk_sections)?
 * Few are (.comment, the .debug_* ones, those of GCC's LTO): the names
 * of the rest are not read.
 */
static int
named_section(struct chstk_image *im, const GElf_Shdr *sh,
    struct chstk_error *err)
{
	int r = 0;

	if (im->ehdr.e_type != ET_REL || sh->sh_flags & SHF_ALLOC ||
	    sh->sh_type != SHT_PROGBITS || sh->sh_size == 0)
		return 0;
	if (!im->sect.lto && (r = name_starts(im, sh->sh_name, ".gnu.lto_",
	    9, err)) != 0) {
		im->sect.lto = r > 0;
		return r < 0 ? r : 0;
	}
	if (!im->sect.modname && (r = chstk__name_is(im, sh->sh_name,
	    ".modname", err)) != 0)
		im->sect.modname = r > 0;
	return r < 0 ? r : 0;
}

/* The sums of struct chstk_sections, one section at a time. */
static void
sum_section(struct chstk_sections *t, const GElf_Shdr *sh)
{
	t->count++;
	if (!(sh->sh_flags & SHF_ALLOC))
		return;
	t->alloc++;
	if (sh->sh_size == 0)
		return;
	if (sh->sh_type == SHT_NOBITS)
		t->alloc_nobits++;
	else if (sh->sh_type != SHT_NOTE)
		t->alloc_bytes++;
}

/* The span of a section of relro kind bit, joined to those before. */
static void
relro_span(struct chstk_image *im, unsigned bit, const GElf_Shdr *sh)
{
	unsigned i = (unsigned)__builtin_ctz(bit);
	uint64_t hi = sh->sh_size > UINT64_MAX - sh->sh_addr ? UINT64_MAX :
	    sh->sh_addr + sh->sh_size;

	if (sh->sh_size == 0)
		return;
	if (!(im->relro_sections & bit) || sh->sh_addr < im->relro_span[i].lo)
		im->relro_span[i].lo = sh->sh_addr;
	if (!(im->relro_sections & bit) || hi > im->relro_span[i].hi)
		im->relro_span[i].hi = hi;
	im->relro_sections |= bit;
}

/* Which of the n names of want the name at name is, in *which (-1 for
   none). 0 or an error. */
static int
name_among(struct chstk_image *im, uint64_t name, const char *const *want,
    int n, int *which, struct chstk_error *err)
{
	int r;

	for (*which = 0; *which < n; (*which)++)
		if ((r = chstk__name_is(im, name, want[*which], err)) != 0)
			return r < 0 ? r : 0;
	*which = -1;
	return 0;
}

/*
 * What hardening.c asks of one section (CHSTK_IMAGE_SYMBOLS): its kind
 * by type, and by name for the few types that need one, so that a file's
 * names cost a read or two of its name table.
 */
static int
hardening_section(struct chstk_image *im, const GElf_Shdr *sh,
    struct chstk_error *err)
{
	static const char *const data[] = { ".got", ".got.plt",
	    ".data.rel.ro", ".go.buildinfo" };
	static const char *const relocs[] = { ".rel.got", ".rela.got",
	    ".rel.plt", ".rela.plt" };
	static const unsigned data_kind[] = { CHSTK_RELRO_GOT,
	    CHSTK_RELRO_GOT_PLT, CHSTK_RELRO_DATA_REL_RO, 0 };
	bool alloc = sh->sh_flags & SHF_ALLOC;
	int r, k;

	switch (sh->sh_type) {
	case SHT_DYNAMIC:
		im->dynamic_sections++;
		if (alloc)
			relro_span(im, CHSTK_RELRO_DYNAMIC, sh);
		return 0;
	case SHT_INIT_ARRAY:
	case SHT_FINI_ARRAY:
	case SHT_PREINIT_ARRAY:
		if (alloc)
			relro_span(im, sh->sh_type == SHT_INIT_ARRAY ?
			    CHSTK_RELRO_INIT_ARRAY : sh->sh_type ==
			    SHT_FINI_ARRAY ? CHSTK_RELRO_FINI_ARRAY :
			    CHSTK_RELRO_PREINIT_ARRAY, sh);
		return 0;
	case SHT_PROGBITS:
		if (!alloc)
			return 0;
		if ((r = name_among(im, sh->sh_name, data, 4, &k, err)) < 0)
			return r;
		if (k >= 0 && data_kind[k] != 0)
			relro_span(im, data_kind[k], sh);
		else if (k == 3 && im->go_buildinfo.sh_type == SHT_NULL)
			im->go_buildinfo = *sh;
		return 0;
	case SHT_REL:
	case SHT_RELA:
		if (!(sh->sh_flags & SHF_WRITE))
			return 0;
		if ((r = name_among(im, sh->sh_name, relocs, 4, &k, err)) < 0)
			return r;
		im->writable_relocs |= k >= 0;
		return 0;
	case SHT_NOTE:
		r = chstk__name_is(im, sh->sh_name, ".note.go.buildid", err);
		if (r > 0)
			im->go_buildid = true;
		return r < 0 ? r : 0;
	default:
		return 0;
	}
}

/*
 * Look at one section header: W^X sections, and the note's state. The
 * assemblers write .note.GNU-stack empty, so only empty sections have
 * their name read: an object of many sections costs no more reads.
 */
static int
note_section(struct chstk_image *im, size_t i, const GElf_Shdr *sh,
    unsigned how, struct chstk_error *err)
{
	int r;

	sum_section(&im->sect, sh);
	if ((r = named_section(im, sh, err)) < 0)
		return r;
	if (how & CHSTK_IMAGE_SYMBOLS &&
	    (r = hardening_section(im, sh, err)) < 0)
		return r;

	if ((sh->sh_flags & (SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR)) ==
	    (SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR))
		im->wx_sections++;
	if (sh->sh_type == SHT_SYMTAB && im->symtab.sh_type == SHT_NULL)
		im->symtab = *sh;
	if (sh->sh_type == SHT_DYNSYM && im->dynsym.sh_type == SHT_NULL)
		im->dynsym = *sh;
	/* An object's property note: only notes have their name read. */
	if (sh->sh_type == SHT_NOTE && im->ehdr.e_type == ET_REL &&
	    im->property.sh_type == SHT_NULL) {
		r = chstk__name_is(im, sh->sh_name, CHSTK_PROPERTY_NAME, err);
		if (r < 0)
			return r;
		if (r > 0)
			im->property = *sh;
	}
	if (sh->sh_size != 0)
		return 0;
	r = chstk__name_is(im, sh->sh_name, CHSTK_NOTE_NAME, err);
	if (r <= 0)
		return r;
	if (im->notes++ == 0) {
		im->note = i;
		im->note_flags = sh->sh_flags;
		im->state = sh->sh_flags & SHF_EXECINSTR ? CHSTK_EXEC :
		    CHSTK_NOEXEC;
	}
	return 0;
}

/* The string tables of the symbol tables found, by their sh_link. */
static int
linked_strings(struct chstk_image *im, struct chstk_error *err)
{
	struct { const GElf_Shdr *tab; GElf_Shdr *str; } t[] = {
		{ &im->symtab, &im->symtab_str },
		{ &im->dynsym, &im->dynsym_str },
	};
	size_t i;
	int r;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (t[i].tab->sh_type == SHT_NULL)
			continue;
		if (t[i].tab->sh_link == 0 || t[i].tab->sh_link >= im->shnum)
			return chstk__error(err, CHSTK_ERR_CORRUPT,
			    "symbol table links to section %u of %zu",
			    t[i].tab->sh_link, im->shnum);
		r = read_shdr(im, t[i].tab->sh_link, t[i].str, err);
		if (r < 0)
			return r;
	}
	return 0;
}

static int
read_shdrs(struct chstk_image *im, unsigned how, struct chstk_error *err)
{
	union { Elf32_Shdr s32[CHUNK]; Elf64_Shdr s64[CHUNK]; } m;
	GElf_Shdr sh, *keep = NULL;
	size_t i, k, n;
	int r;

	r = section_counts(im, err);
	if (r < 0 || im->shnum == 0)
		return r;
	r = read_shdr(im, im->shstrndx, &sh, err);
	if (r < 0)
		return r;
	if (sh.sh_type != SHT_NOBITS &&
	    chstk__in_range(sh.sh_offset, sh.sh_size,
	    chstk__src_size(im->src))) {
		im->names.table_off = sh.sh_offset;
		im->names.table_size = sh.sh_size;
	}
	if (how & CHSTK_IMAGE_SECTIONS) {
		keep = calloc(im->shnum, sizeof(*keep));
		if (keep == NULL)
			return chstk__syserror(err, "cannot read section headers");
	}
	for (i = 0; r == 0 && i < im->shnum; i += n) {
		n = im->shnum - i < CHUNK ? im->shnum - i : CHUNK;
		r = chstk__read_entries(im, ELF_T_SHDR, im->ehdr.e_shoff, i, n, &m,
		    "section header table", err);
		for (k = 0; r == 0 && k < n; k++) {
			widen_shdr(im, &m, k, &sh);
			if (keep != NULL)
				keep[i + k] = sh;
			if (i + k > 0)
				r = note_section(im, i + k, &sh, how, err);
		}
	}
	if (r == 0)
		r = linked_strings(im, err);
	if (r < 0) {
		free(keep);
		return r;
	}
	im->shdr = keep;
	if (im->symtab.sh_type == SHT_SYMTAB) {
		uint64_t es = chstk__fsize(im, ELF_T_SYM);

		im->sect.symtab = true;
		if (im->symtab.sh_size / es > im->symtab.sh_info)
			im->sect.globals = im->symtab.sh_size / es -
			    im->symtab.sh_info;
	}
	return 0;
}

static int
read_phdrs(struct chstk_image *im, struct chstk_error *err)
{
	union { Elf32_Phdr p32[CHUNK]; Elf64_Phdr p64[CHUNK]; } m;
	GElf_Shdr sh0;
	size_t i, k, n = im->ehdr.e_phnum, c;
	int r;

	if (n == PN_XNUM) {
		r = check_table(im, im->ehdr.e_shoff, 1, im->ehdr.e_shentsize,
		    ELF_T_SHDR, "section header table", err);
		if (r == 0)
			r = read_shdr(im, 0, &sh0, err);
		if (r < 0)
			return r;
		n = sh0.sh_info;
	}
	r = check_table(im, im->ehdr.e_phoff, n, im->ehdr.e_phentsize,
	    ELF_T_PHDR, "program header table", err);
	if (r < 0 || n == 0)
		return r;
	im->phdr = calloc(n, sizeof(*im->phdr));
	if (im->phdr == NULL)
		return chstk__syserror(err, "cannot read program headers");
	for (i = 0; r == 0 && i < n; i += c) {
		c = n - i < CHUNK ? n - i : CHUNK;
		r = chstk__read_entries(im, ELF_T_PHDR, im->ehdr.e_phoff, i, c, &m,
		    "program header table", err);
		for (k = 0; r == 0 && k < c; k++)
			widen_phdr(im, &m, k, &im->phdr[i + k]);
	}
	im->phnum = n;
	return r;
}

/* The kernel and glibc both let the last PT_GNU_STACK win. */
static enum chstk_state
phdr_state(const struct chstk_image *im)
{
	enum chstk_state state = CHSTK_DEFAULT;
	size_t i;

	for (i = 0; i < im->phnum; i++)
		if (im->phdr[i].p_type == PT_GNU_STACK)
			state = im->phdr[i].p_flags & PF_X ? CHSTK_EXEC :
			    CHSTK_NOEXEC;
	return state;
}

int
chstk__image_open(struct chstk_image *im, const struct chstk_src *src,
    unsigned how, struct chstk_error *err)
{
	int r;

	memset(im, 0, sizeof(*im));
	im->src = src;
	elf_version(EV_CURRENT);
	r = read_ehdr(im, err);
	/* Section headers lie at the end, their names anywhere: an object is
	   read in no particular order, and so is a program that counts its
	   program headers in section 0, or whose symbol tables are read, or
	   its dynamic strings, which lie before the dynamic section. */
	if (r == 0 && (im->ehdr.e_type == ET_REL ||
	    im->ehdr.e_phnum == PN_XNUM || how & (CHSTK_IMAGE_SECTIONS |
	    CHSTK_IMAGE_SYMBOLS | CHSTK_IMAGE_DYNAMIC)))
		r = chstk__src_keep_all(src, err);
	if (r == 0)
		r = read_phdrs(im, err);
	if (r == 0 && (im->ehdr.e_type == ET_REL ||
	    how & (CHSTK_IMAGE_SECTIONS | CHSTK_IMAGE_SYMBOLS))) {
		r = read_shdrs(im, how, err);
		im->shdrs_read = true;
	}
	if (r < 0) {
		chstk__image_close(im);
		return r;
	}
	if (im->ehdr.e_type != ET_REL)
		im->state = phdr_state(im);
	return 0;
}

int
chstk__image_sections(struct chstk_image *im, struct chstk_error *err)
{
	const struct chstk_src *src = im->src;
	enum chstk_state state = im->state;
	int r;

	if (im->shdrs_read)
		return 0;
	im->shdrs_read = true;
	/* A stream keeps the whole image, or nothing more. */
	if (src->stream != NULL && (src->size == UINT64_MAX ||
	    src->size > CHSTK_STREAM_KEEP))
		return chstk__error(err, CHSTK_ERR_NOMEM,
		    "section headers: the image is too big to keep");
	r = chstk__src_keep_all(src, err);
	if (r == 0)
		r = read_shdrs(im, 0, err);
	/* A program's marking is its program headers', whatever sections
	   it keeps. */
	im->state = state;
	if (r < 0) {
		/* What the headers read said goes with them. */
		im->shnum = 0;
		im->notes = 0;
		im->wx_sections = 0;
		im->symtab.sh_type = im->dynsym.sh_type = SHT_NULL;
		im->property.sh_type = SHT_NULL;
		memset(&im->sect, 0, sizeof(im->sect));
	}
	return r;
}

void
chstk__image_close(struct chstk_image *im)
{
	free(im->phdr);
	im->phdr = NULL;
	free(im->shdr);
	im->shdr = NULL;
}

/* Walk the dynamic section for DT_FLAGS_1 and DT_SONAME: DF_1_PIE marks
   a position-independent executable; older linkers did not set it, so a
   PT_INTERP without a DT_SONAME also counts as a program. */
static enum chstk_kind
dyn_kind(const struct chstk_image *im, const struct chstk_info *info)
{
	union { Elf32_Dyn d32[CHUNK]; Elf64_Dyn d64[CHUNK]; } m;
	size_t es = chstk__fsize(im, ELF_T_DYN), i, k, n, c;
	const GElf_Phdr *ph = NULL;
	bool soname = false;

	for (i = 0; i < im->phnum && ph == NULL; i++)
		if (im->phdr[i].p_type == PT_DYNAMIC)
			ph = &im->phdr[i];
	/* A section read at once is range-checked by that read, which
	   fails whole: the file's size need not be asked first. */
	n = ph != NULL && (ph->p_filesz <= CHUNK * es ||
	    chstk__src_holds(im->src, ph->p_offset, ph->p_filesz)) ?
	    (size_t)(ph->p_filesz / es) : 0;
	/* The last thing read of an image: a stream may skip to it. */
	chstk__src_forward(im->src);
	for (i = 0; i < n; i += c) {
		c = n - i < CHUNK ? n - i : CHUNK;
		if (chstk__read_entries(im, ELF_T_DYN, ph->p_offset, i, c, &m,
		    "dynamic section", NULL) < 0)
			break;
		for (k = 0; k < c; k++) {
			bool is64 = im->ehdr.e_ident[EI_CLASS] == ELFCLASS64;
			int64_t tag = is64 ? m.d64[k].d_tag : m.d32[k].d_tag;
			uint64_t val = is64 ? m.d64[k].d_un.d_val :
			    m.d32[k].d_un.d_val;

			if (tag == DT_NULL)
				goto done;
			if (tag == DT_FLAGS_1 && val & DF_1_PIE)
				return CHSTK_KIND_PROGRAM;
			if (tag == DT_SONAME)
				soname = true;
		}
	}
done:
	return info->interp && !soname ? CHSTK_KIND_PROGRAM : CHSTK_KIND_SHARED;
}

/* a + b, or UINT64_MAX where it overflows. */
static uint64_t
end_of(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/*
 * Do the PT_LOADs' bytes or the section header table run past the end of
 * the file? The program header table was checked when it was read; the
 * section header table of a program or shared object, which the kernel
 * and the loader never read, was not. One question of the file's size
 * answers them all, at the furthest end.
 */
static bool
cut_short(const struct chstk_image *im)
{
	const GElf_Ehdr *e = &im->ehdr;
	uint64_t end = 0, n = e->e_shnum ? e->e_shnum : e->e_shoff != 0;
	size_t i;

	for (i = 0; i < im->phnum; i++)
		if (im->phdr[i].p_type == PT_LOAD && im->phdr[i].p_filesz > 0 &&
		    end_of(im->phdr[i].p_offset, im->phdr[i].p_filesz) > end)
			end = end_of(im->phdr[i].p_offset,
			    im->phdr[i].p_filesz);
	if (im->shnum > 0)
		n = im->shnum;
	/* n < 2^21 entries (MAX_ENTRIES) of at most 65535 bytes */
	if (e->e_shoff != 0 && end_of(e->e_shoff, n * e->e_shentsize) > end)
		end = end_of(e->e_shoff, n * e->e_shentsize);
	return end == UINT64_MAX || !chstk__src_holds(im->src, 0, end);
}

/* Find the first note of type owned by "GNU" in the notes buf holds:
   1 with its descriptor in *desc and *dsz, 0 when there is none, -1
   when an entry runs past the end. */
static int
gnu_note(const unsigned char *buf, size_t size, int msb,
    uint32_t type, const unsigned char **desc, size_t *dsz)
{
	struct chstk__notes w = { buf, size, 0, 4, 4, msb };
	struct chstk__note n;
	int r;

	while ((r = chstk__note_next(&w, &n)) > 0)
		if (n.type == type && chstk__note_gnu(&n)) {
			*desc = n.desc;
			*dsz = n.descsz;
			return 1;
		}
	return r;
}

/*
 * The OS of the NT_GNU_ABI_TAG note (glibc's csu/abi-note.S: OS, then the
 * kernel version it was built for), from the PT_NOTEs where linkers put
 * them: in the first page or so. Those further, or bigger than a few
 * notes, or that cannot be read, are not looked at: no stream is kept
 * longer for them.
 */
#define NOTE_AREA 65536
#define NOTE_MAX 4096
static int
abi_tag(const struct chstk_image *im)
{
	int msb = im->ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
	unsigned char buf[NOTE_MAX];
	const unsigned char *desc;
	size_t i, dsz;

	for (i = 0; i < im->phnum; i++) {
		const GElf_Phdr *ph = &im->phdr[i];

		if (ph->p_type != PT_NOTE || ph->p_filesz == 0 ||
		    ph->p_filesz > NOTE_MAX || ph->p_offset > NOTE_AREA ||
		    ph->p_filesz > NOTE_AREA - ph->p_offset ||
		    chstk__src_read(im->src, ph->p_offset, buf,
		    (size_t)ph->p_filesz, "note", NULL) < 0)
			continue;
		if (gnu_note(buf, (size_t)ph->p_filesz, msb,
		    NT_GNU_ABI_TAG, &desc, &dsz) > 0 && dsz >= 4)
			return get32(desc, msb) > INT_MAX ? INT_MAX :
			    (int)get32(desc, msb);
	}
	return -1;
}

/* Where the marking is, or would be (see struct chstk_info). */
static void
mark_range(const struct chstk_image *im, size_t stack, struct chstk_info *info)
{
	const GElf_Ehdr *e = &im->ehdr;
	uint64_t base = im->src->base;

	if (e->e_type == ET_REL && im->notes > 0) {
		info->mark_offset = e->e_shoff + im->note * e->e_shentsize;
		info->mark_size = e->e_shentsize;
	} else if (e->e_type == ET_REL && im->shnum > 0) {
		info->mark_offset = e->e_shoff;
		info->mark_size = (uint64_t)im->shnum * e->e_shentsize;
	} else if (e->e_type != ET_REL && stack < im->phnum) {
		info->mark_offset = e->e_phoff + stack * e->e_phentsize;
		info->mark_size = e->e_phentsize;
	} else if (e->e_type != ET_REL && im->phnum > 0) {
		info->mark_offset = e->e_phoff;
		info->mark_size = (uint64_t)im->phnum * e->e_phentsize;
	} else {
		info->mark_offset = 0;
		info->mark_size = e->e_ehsize;
	}
	info->mark_offset += base;
	if (e->e_type == ET_REL && info->wx > 0) {
		info->wx_offset = base + e->e_shoff;
		info->wx_size = (uint64_t)im->shnum * e->e_shentsize;
	}
}

void
chstk__image_info(const struct chstk_image *im, struct chstk_info *info)
{
	size_t i, stack = im->phnum;

	memset(info, 0, sizeof(*info));
	info->state = im->state;
	info->elf_class = im->ehdr.e_ident[EI_CLASS];
	info->data = im->ehdr.e_ident[EI_DATA];
	info->osabi = im->ehdr.e_ident[EI_OSABI];
	info->type = im->ehdr.e_type;
	info->machine = im->ehdr.e_machine;
	info->flags = im->ehdr.e_flags;
	memcpy(info->head, im->head, sizeof(info->head));
	for (i = 0; i < im->phnum; i++) {
		const GElf_Phdr *ph = &im->phdr[i];

		if (ph->p_type == PT_INTERP)
			info->interp = true;
		/* An object's marking is its note, whatever else it holds. */
		if (ph->p_type == PT_GNU_STACK && im->ehdr.e_type != ET_REL) {
			info->stack_flags = ph->p_flags;
			stack = i;
		}
		if (ph->p_type != PT_LOAD)
			continue;
		info->loads++;
		if ((ph->p_flags & (PF_W | PF_X)) == (PF_W | PF_X) &&
		    info->wx++ == 0) {
			info->wx_offset = im->src->base + im->ehdr.e_phoff +
			    i * im->ehdr.e_phentsize;
			info->wx_size = im->ehdr.e_phentsize;
		}
		/* Bytes in the file, and mapped: a p_memsz of 0 maps none. */
		if (ph->p_flags & PF_X && ph->p_filesz > 0 && ph->p_memsz > 0)
			info->exec_in_file = true;
		if (ph->p_flags & PF_X && ph->p_memsz > 0) {
			uint64_t last = ph->p_memsz - 1 > UINT64_MAX - ph->p_vaddr ?
			    UINT64_MAX : ph->p_vaddr + ph->p_memsz - 1;

			info->has_exec_code = true;
			if (last > info->exec_limit)
				info->exec_limit = last;
		}
	}
	info->cut = cut_short(im);
	info->abi_tag = abi_tag(im);
	switch (im->ehdr.e_type) {
	case ET_EXEC:
		info->kind = CHSTK_KIND_PROGRAM;
		break;
	case ET_DYN:
		info->kind = CHSTK_KIND_SHARED;	/* until chstk__image_kind() */
		break;
	case ET_REL:
		info->kind = CHSTK_KIND_OBJECT;
		info->wx += im->wx_sections;
		if (im->notes > 0)
			info->stack_flags = (uint32_t)im->note_flags;
		break;
	default:
		info->kind = CHSTK_KIND_OTHER;
		break;
	}
	mark_range(im, stack, info);
}

void
chstk__image_kind(const struct chstk_image *im, struct chstk_info *info)
{
	if (im->ehdr.e_type != ET_DYN)
		return;
	info->kind = dyn_kind(im, info);
	info->pie = info->kind == CHSTK_KIND_PROGRAM;
}
