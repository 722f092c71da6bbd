/*
 * phdr.c - the PT_GNU_STACK program header of executables and shared
 * objects.
 *
 * Changing the flags of an existing header, or removing it (it becomes a
 * PT_NULL entry), rewrites the table where it is. Adding one takes, in this
 * order of preference:
 *
 *  1. a PT_NULL entry, turned into PT_GNU_STACK;
 *  2. a bigger table placed in the zero padding that follows a loadable
 *     segment in the file (the gap -z separate-code leaves after the first
 *     segment), the segment grown to cover it. The table stays in the
 *     segment that maps offset 0 in usual layouts, so every kernel finds it;
 *  3. a bigger table at the end of the file, covered by a new read-only
 *     PT_LOAD placed above every other segment. Linux before 5.18 computed
 *     AT_PHDR as if the table were in the first segment and needs layout 2.
 *
 * In 2 and 3, PT_PHDR (when there is one) is moved with the table; PT_LOAD
 * entries stay sorted by address and PT_PHDR stays first.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* GNU ld's alignment for PT_GNU_STACK. */
#define STACK_ALIGN 16
/* Linux refuses a program whose header table is bigger than a page. */
#define KERNEL_MAX_PHDR_BYTES 4096

/* Round x up to a multiple of a (a power of two); 0 on overflow. */
static int
align_up(uint64_t x, uint64_t a, uint64_t *out)
{
	if (x > UINT64_MAX - (a - 1))
		return 0;
	*out = (x + a - 1) & ~(a - 1);
	return 1;
}

static int
overlaps(uint64_t lo, uint64_t hi, uint64_t off, uint64_t len)
{
	uint64_t end = len > UINT64_MAX - off ? UINT64_MAX : off + len;

	return len > 0 && off < hi && lo < end;
}

/* The largest PT_LOAD alignment, and at least a 4 KiB page. */
static uint64_t
load_align(const struct chstk_image *im)
{
	uint64_t a = 4096;
	size_t i;

	for (i = 0; i < im->phnum; i++) {
		uint64_t pa = im->phdr[i].p_align;

		if (im->phdr[i].p_type == PT_LOAD && pa > a &&
		    (pa & (pa - 1)) == 0 && pa <= (UINT64_C(1) << 32))
			a = pa;
	}
	return a;
}

/*
 * Is [lo, hi) unused in the file: outside the headers, every segment and
 * every section, and all zeros where it lies inside the file? Returns 1 or
 * 0, or an error when a section is out of range.
 */
static int
region_free(const struct chstk_image *im, uint64_t lo, uint64_t hi,
    struct chstk_error *err)
{
	size_t es = chstk__fsize(im, ELF_T_PHDR);
	size_t i;

	if (overlaps(lo, hi, 0, chstk__fsize(im, ELF_T_EHDR))
	    || overlaps(lo, hi, im->ehdr.e_phoff, im->phnum * es) ||
	    overlaps(lo, hi, im->ehdr.e_shoff, im->shnum *
	    chstk__fsize(im, ELF_T_SHDR)))
		return 0;
	for (i = 0; i < im->phnum; i++) {
		const GElf_Phdr *ph = &im->phdr[i];

		if (ph->p_type != PT_NULL && ph->p_type != PT_GNU_STACK &&
		    ph->p_type != PT_PHDR &&
		    overlaps(lo, hi, ph->p_offset, ph->p_filesz))
			return 0;
	}
	for (i = 1; i < im->shnum; i++) {
		const GElf_Shdr *sh = &im->shdr[i];

		if (sh->sh_type == SHT_NOBITS)
			continue;
		if (!chstk__in_range(sh->sh_offset, sh->sh_size, im->src->size))
			return chstk__error(err, CHSTK_ERR_CORRUPT,
			    "section %zu runs past the end of the file", i);
		if (overlaps(lo, hi, sh->sh_offset, sh->sh_size))
			return 0;
	}
	while (lo < hi && lo < im->src->size) {
		unsigned char buf[512];
		size_t n = sizeof(buf), k;
		int r;

		if (n > hi - lo)
			n = (size_t)(hi - lo);
		if (n > im->src->size - lo)
			n = (size_t)(im->src->size - lo);
		r = chstk__src_read(im->src, lo, buf, n, "padding", err);
		if (r < 0)
			return r;
		for (k = 0; k < n; k++)
			if (buf[k] != 0)
				return 0;
		lo += n;
	}
	return 1;
}

/* Do the pages of [lo, hi) in memory touch any PT_LOAD other than skip? */
static int
pages_taken(const struct chstk_image *im, size_t skip, uint64_t lo,
    uint64_t hi, uint64_t page)
{
	size_t i;

	lo &= ~(page - 1);
	if (!align_up(hi, page, &hi))
		return 1;
	for (i = 0; i < im->phnum; i++) {
		const GElf_Phdr *ph = &im->phdr[i];
		uint64_t plo, phi;

		if (i == skip || ph->p_type != PT_LOAD)
			continue;
		plo = ph->p_vaddr & ~(page - 1);
		if (ph->p_memsz > UINT64_MAX - ph->p_vaddr ||
		    !align_up(ph->p_vaddr + ph->p_memsz, page, &phi))
			return 1;
		if (plo < hi && lo < phi)
			return 1;
	}
	return 0;
}

/* Addresses and offsets of a 32-bit file must fit in 32 bits. */
static int
fits(const struct chstk_image *im, uint64_t v)
{
	return im->ehdr.e_ident[EI_CLASS] == ELFCLASS64 || v <= UINT32_MAX;
}

/* Layout 2: the table in the padding after PT_LOAD i. 1 if it fits. */
static int
place_after_load(const struct chstk_image *im, size_t i, uint64_t size,
    uint64_t *offset, struct chstk_error *err)
{
	const GElf_Phdr *l = &im->phdr[i];
	uint64_t end, t, v;
	int r;

	/* A segment that claims to end past the end of the file would put
	   the table there, and the file would grow to match. */
	if (l->p_filesz != l->p_memsz ||
	    !chstk__in_range(l->p_offset, l->p_filesz, im->src->size))
		return 0;
	end = l->p_offset + l->p_filesz;
	if (!align_up(end, 8, &t) || size > UINT64_MAX - t ||
	    l->p_vaddr > UINT64_MAX - (t + size - l->p_offset))
		return 0;
	v = l->p_vaddr + (t - l->p_offset);
	if (!fits(im, t + size) || !fits(im, v + size))
		return 0;
	if (pages_taken(im, i, l->p_vaddr + l->p_memsz, v + size,
	    load_align(im)))
		return 0;
	r = region_free(im, end, t + size, err);
	if (r == 1)
		*offset = t;
	return r;
}

/* Point every PT_PHDR at the table's new place. */
static void
move_pt_phdr(GElf_Phdr *ph, size_t n, uint64_t off, uint64_t vaddr,
    uint64_t paddr, uint64_t size)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (ph[i].p_type != PT_PHDR)
			continue;
		ph[i].p_offset = off;
		ph[i].p_vaddr = vaddr;
		ph[i].p_paddr = paddr;
		ph[i].p_filesz = size;
		ph[i].p_memsz = size;
	}
}

/* Layout 3: a new PT_LOAD at the end of the file, above every segment. */
static int
place_at_end(const struct chstk_image *im, GElf_Phdr *ph, size_t *n,
    uint64_t *offset, struct chstk_error *err)
{
	size_t es = chstk__fsize(im, ELF_T_PHDR);
	uint64_t align = load_align(im), top = 0, t, v, size;
	size_t i, last = 0;

	for (i = 0; i < *n; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (ph[i].p_memsz > UINT64_MAX - ph[i].p_vaddr)
			return chstk__error(err, CHSTK_ERR_CORRUPT,
			    "segment %zu wraps around the address space", i);
		if (ph[i].p_vaddr + ph[i].p_memsz > top)
			top = ph[i].p_vaddr + ph[i].p_memsz;
		last = i + 1;
	}
	if (last == 0)
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "no loadable segment to extend");
	size = (*n + 2) * es;	/* this PT_LOAD and the new PT_GNU_STACK */
	if (!align_up(im->src->size, 8, &t) || !align_up(top, align, &v) ||
	    v > UINT64_MAX - align || !fits(im, t + size) ||
	    !fits(im, v + (t & (align - 1)) + size))
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "no room in the address space for the program header table");
	v += t & (align - 1);
	memmove(&ph[last + 1], &ph[last], (*n - last) * sizeof(*ph));
	memset(&ph[last], 0, sizeof(*ph));
	ph[last].p_type = PT_LOAD;
	ph[last].p_flags = PF_R;
	ph[last].p_offset = t;
	ph[last].p_vaddr = ph[last].p_paddr = v;
	ph[last].p_filesz = ph[last].p_memsz = size;
	ph[last].p_align = align;
	(*n)++;
	move_pt_phdr(ph, *n, t, v, v, size);
	*offset = t;
	return 0;
}

/*
 * Make room in ph (n entries, with room for two more) for one more entry at
 * the end, and return in offset where the table will go.
 */
static int
grow_table(const struct chstk_image *im, GElf_Phdr *ph, size_t *n,
    uint64_t *offset, struct chstk_error *err)
{
	size_t es = chstk__fsize(im, ELF_T_PHDR);
	uint64_t size = (*n + 1) * es;
	size_t i;
	int r;

	if (*n + 2 >= PN_XNUM)
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "too many program headers");
	for (i = 0; i < im->phnum; i++) {
		const GElf_Phdr *l = &im->phdr[i];

		if (l->p_type != PT_LOAD)
			continue;
		r = place_after_load(im, i, size, offset, err);
		if (r < 0)
			return r;
		if (r == 1) {
			ph[i].p_filesz = ph[i].p_memsz = *offset + size -
			    l->p_offset;
			move_pt_phdr(ph, *n, *offset,
			    l->p_vaddr + (*offset - l->p_offset),
			    l->p_paddr + (*offset - l->p_offset), size);
			return 0;
		}
	}
	return place_at_end(im, ph, n, offset, err);
}

static int
is_program(const struct chstk_image *im)
{
	size_t i;

	if (im->ehdr.e_type == ET_EXEC)
		return 1;
	for (i = 0; i < im->phnum; i++)
		if (im->phdr[i].p_type == PT_INTERP)
			return 1;
	return 0;
}

/* Add a PT_GNU_STACK entry with flags to the table ph of n entries. */
static int
add_entry(const struct chstk_image *im, GElf_Phdr *ph, size_t *n,
    uint64_t *offset, uint32_t flags, struct chstk_error *err)
{
	size_t es = chstk__fsize(im, ELF_T_PHDR);
	GElf_Phdr *slot = NULL;
	size_t i;
	int r;

	for (i = 0; i < *n && slot == NULL; i++)
		if (ph[i].p_type == PT_NULL)
			slot = &ph[i];
	if (slot == NULL) {
		r = grow_table(im, ph, n, offset, err);
		if (r < 0)
			return r;
		if (is_program(im) && (*n + 1) * es > KERNEL_MAX_PHDR_BYTES)
			return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
			    "program header table would exceed %d bytes, more than the kernel loads", KERNEL_MAX_PHDR_BYTES);
		slot = &ph[(*n)++];
	}
	memset(slot, 0, sizeof(*slot));
	slot->p_type = PT_GNU_STACK;
	slot->p_flags = flags;
	slot->p_align = STACK_ALIGN;
	return 0;
}

static int
encode_edit(const struct chstk_image *im, const GElf_Phdr *ph, size_t n,
    uint64_t offset, struct chstk_edit *ed, struct chstk_error *err)
{
	size_t es = chstk__fsize(im, ELF_T_PHDR);
	GElf_Ehdr eh = im->ehdr;
	int r;

	r = chstk__edit_add(ed, offset, n * es, err);
	if (r == 0)
		r = chstk__encode_phdrs(im, ph, n, ed->patch[ed->npatch - 1].buf,
		    err);
	if (r < 0 || (offset == im->ehdr.e_phoff && n == im->phnum))
		return r;
	eh.e_phoff = offset;
	eh.e_phnum = (Elf64_Half)n;
	r = chstk__edit_add(ed, 0, chstk__fsize(im, ELF_T_EHDR), err);
	if (r == 0)
		r = chstk__encode_ehdr(im, &eh, ed->patch[ed->npatch - 1].buf,
		    err);
	return r;
}

int
chstk__phdr_edit(const struct chstk_image *im, enum chstk_state want,
    struct chstk_edit *ed, struct chstk_error *err)
{
	uint64_t offset = im->ehdr.e_phoff;
	size_t i, n = im->phnum;
	bool found = false;
	GElf_Phdr *ph;
	int r = 0;

	if (n == 0)
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "no program headers");
	ph = calloc(n + 2, sizeof(*ph));
	if (ph == NULL)
		return chstk__syserror(err, "cannot plan the change");
	memcpy(ph, im->phdr, n * sizeof(*ph));
	for (i = 0; i < n; i++) {
		if (ph[i].p_type != PT_GNU_STACK)
			continue;
		found = true;
		if (want == CHSTK_DEFAULT)
			memset(&ph[i], 0, sizeof(ph[i]));
		else
			ph[i].p_flags = (ph[i].p_flags & ~(uint32_t)PF_X) |
			    (want == CHSTK_EXEC ? PF_X : 0);
	}
	if (!found && want != CHSTK_DEFAULT)
		r = add_entry(im, ph, &n, &offset, PF_R | PF_W |
		    (want == CHSTK_EXEC ? PF_X : 0), err);
	if (r == 0)
		r = encode_edit(im, ph, n, offset, ed, err);
	free(ph);
	return r;
}
