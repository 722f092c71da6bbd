/*
 * image.c - opening one ELF image with libelf and checking every count,
 * offset and size the rest of the library relies on.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int
chstk__is_elf(const unsigned char *buf, size_t len)
{
	return len >= SELFMAG && memcmp(buf, ELFMAG, SELFMAG) == 0;
}

static int
check_ident(const struct chstk_src *src, struct chstk_error *err)
{
	unsigned char id[EI_NIDENT];
	size_t ehsize;
	int r;

	if (src->size < SELFMAG)
		return chstk__error(err, CHSTK_ERR_NOT_ELF, "not an ELF file");
	r = chstk__src_read(src, 0, id, src->size < EI_NIDENT ? SELFMAG :
	    EI_NIDENT, "ELF identification", err);
	if (r < 0)
		return r;
	if (!chstk__is_elf(id, SELFMAG))
		return chstk__error(err, CHSTK_ERR_NOT_ELF, "not an ELF file");
	if (src->size < EI_NIDENT)
		return chstk__error(err, CHSTK_ERR_TRUNCATED,
		    "ELF header runs past the end of the file");
	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "invalid ELF class %u", id[EI_CLASS]);
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "invalid ELF byte order %u", id[EI_DATA]);
	if (id[EI_VERSION] != EV_CURRENT)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "unknown ELF version %u", id[EI_VERSION]);
	ehsize = id[EI_CLASS] == ELFCLASS32 ? sizeof(Elf32_Ehdr) :
	    sizeof(Elf64_Ehdr);
	if (src->size < ehsize)
		return chstk__error(err, CHSTK_ERR_TRUNCATED,
		    "ELF header runs past the end of the file");
	return 0;
}

/* An unsigned field of len bytes in the byte order of the image whose
   identification is id. */
static uint64_t
raw_get(const unsigned char *id, const unsigned char *p, size_t len)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < len; i++)
		v |= (uint64_t)p[id[EI_DATA] == ELFDATA2MSB ? len - 1 - i : i] <<
		    (8 * i);
	return v;
}

/*
 * The section and program header counts, read before libelf sees the
 * file: opening a file, libelf allocates some 200 bytes of bookkeeping for
 * every section it claims, and a sparse file can claim millions at no
 * cost. Real files stay far below the limit (a Linux vmlinux.o has a few
 * hundred thousand sections).
 */
#define MAX_ENTRIES (UINT64_C(1) << 20)

static int
check_counts(const struct chstk_src *src, struct chstk_error *err)
{
	unsigned char eh[sizeof(Elf64_Ehdr)], sh0[sizeof(Elf64_Shdr)];
	int r = chstk__src_read(src, 0, eh, sizeof(Elf32_Ehdr), "ELF header",
	    err);
	int is64 = eh[EI_CLASS] == ELFCLASS64;
	size_t shsize = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	uint64_t shoff, shnum, phnum;

	if (r == 0 && is64)
		r = chstk__src_read(src, 0, eh, sizeof(Elf64_Ehdr),
		    "ELF header", err);
	if (r < 0)
		return r;
	shoff = raw_get(eh, eh + (is64 ? 40 : 32), is64 ? 8 : 4);
	phnum = raw_get(eh, eh + (is64 ? 56 : 44), 2);
	shnum = raw_get(eh, eh + (is64 ? 60 : 48), 2);
	if ((shnum == 0 || phnum == PN_XNUM) && shoff != 0 &&
	    chstk__in_range(shoff, shsize, src->size)) {
		r = chstk__src_read(src, shoff, sh0, shsize, "section header 0",
		    err);
		if (r < 0)
			return r;
		if (shnum == 0)
			shnum = raw_get(eh, sh0 + (is64 ? 32 : 20), is64 ? 8 : 4);
		if (phnum == PN_XNUM)
			phnum = raw_get(eh, sh0 + (is64 ? 44 : 28), 4);
	}
	if (shnum > MAX_ENTRIES)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "%ju sections, more than the %ju this library reads",
		    (uintmax_t)shnum, (uintmax_t)MAX_ENTRIES);
	if (phnum > MAX_ENTRIES)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "%ju program headers, more than the %ju this library reads",
		    (uintmax_t)phnum, (uintmax_t)MAX_ENTRIES);
	return 0;
}

/* Is a table of n entries of entsize bytes at off inside the file? */
static int
check_table(const struct chstk_image *im, uint64_t off, uint64_t n,
    uint64_t entsize, Elf_Type type, const char *what,
    struct chstk_error *err)
{
	size_t want = gelf_fsize(im->elf, type, 1, EV_CURRENT);

	if (n == 0)
		return 0;
	if (entsize != want)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "%s entry size is %ju, not %zu", what, (uintmax_t)entsize,
		    want);
	if (off > im->src->size || n > (im->src->size - off) / entsize)
		return chstk__error(err, CHSTK_ERR_TRUNCATED,
		    "%s runs past the end of the file", what);
	return 0;
}

static int
read_phdrs(struct chstk_image *im, struct chstk_error *err)
{
	size_t i, n;
	int r;

	n = im->ehdr.e_phnum;
	if (n == PN_XNUM && elf_getphdrnum(im->elf, &n) != 0)
		return chstk__elferror(err, "cannot read program header count");
	r = check_table(im, im->ehdr.e_phoff, n, im->ehdr.e_phentsize,
	    ELF_T_PHDR, "program header table", err);
	if (r < 0 || n == 0)
		return r;
	im->phdr = calloc(n, sizeof(*im->phdr));
	if (im->phdr == NULL)
		return chstk__syserror(err, "cannot read program headers");
	for (i = 0; i < n; i++)
		if (gelf_getphdr(im->elf, (int)i, &im->phdr[i]) == NULL)
			return chstk__elferror(err,
			    "cannot read program headers");
	im->phnum = n;
	return 0;
}

/* Where the section names are: a string table inside the file, or none
   (then no section has a name, as elf_strptr() would say). */
static int
find_names(struct chstk_image *im, size_t strndx, struct chstk_error *err)
{
	GElf_Shdr sh;

	if (gelf_getshdr(elf_getscn(im->elf, strndx), &sh) == NULL)
		return chstk__elferror(err, "cannot read section header");
	if (sh.sh_type == SHT_STRTAB &&
	    chstk__in_range(sh.sh_offset, sh.sh_size, im->src->size)) {
		im->names_off = sh.sh_offset;
		im->names_size = sh.sh_size;
	}
	return 0;
}

/* Is name (an offset in the section names) .note.GNU-stack? Only those
   bytes are read: elf_strptr() reads the whole table, which a sparse file
   can make gigabytes. */
int
chstk__is_note(const struct chstk_image *im, uint64_t name)
{
	char buf[sizeof(CHSTK_NOTE_NAME)];

	return chstk__in_range(name, sizeof(buf), im->names_size) &&
	    chstk__src_read(im->src, im->names_off + name, buf, sizeof(buf),
	    "section name", NULL) == 0 &&
	    memcmp(buf, CHSTK_NOTE_NAME, sizeof(buf)) == 0;
}

static int
read_shdrs(struct chstk_image *im, struct chstk_error *err)
{
	size_t i, n = im->ehdr.e_shnum, strndx = im->ehdr.e_shstrndx;
	int r;

	/* The header's own numbers first: libelf quietly ignores a table
	   that lies outside the file. Zero sections with a table means the
	   count is in section 0 (extended numbering). */
	r = check_table(im, im->ehdr.e_shoff, n ? n : im->ehdr.e_shoff != 0,
	    im->ehdr.e_shentsize, ELF_T_SHDR, "section header table", err);
	if (r < 0)
		return r;
	if (n == 0 && im->ehdr.e_shoff != 0 &&
	    elf_getshdrnum(im->elf, &n) != 0)
		return chstk__elferror(err, "cannot read section count");
	r = check_table(im, im->ehdr.e_shoff, n, im->ehdr.e_shentsize,
	    ELF_T_SHDR, "section header table", err);
	if (r < 0 || n == 0)
		return r;
	/* The real index is in section 0. Not elf_getshdrstrndx(): on an
	   image in memory of the other byte order it wants a file to read. */
	if (strndx == SHN_XINDEX) {
		GElf_Shdr sh0;

		if (gelf_getshdr(elf_getscn(im->elf, 0), &sh0) == NULL)
			return chstk__elferror(err,
			    "cannot read section name table index");
		strndx = sh0.sh_link;
	}
	if (strndx == SHN_UNDEF || strndx >= n)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "section name table index %zu out of range", strndx);
	r = find_names(im, strndx, err);
	for (i = 1; r == 0 && i < n; i++) {
		GElf_Shdr sh;

		if (gelf_getshdr(elf_getscn(im->elf, i), &sh) == NULL)
			return chstk__elferror(err,
			    "cannot read section header");
		if (!chstk__is_note(im, sh.sh_name))
			continue;
		if (im->notes++ == 0) {
			im->note = i;
			im->state = sh.sh_flags & SHF_EXECINSTR ? CHSTK_EXEC :
			    CHSTK_NOEXEC;
		}
	}
	im->shnum = n;
	im->shstrndx = strndx;
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
	r = check_ident(src, err);
	if (r == 0)
		r = check_counts(src, err);
	if (r < 0)
		return r;
	elf_version(EV_CURRENT);
	if (src->ar != NULL) {
		if (elf_rand(src->ar, src->ar_hdr) != src->ar_hdr)
			return chstk__elferror(err, "cannot read member");
		im->elf = elf_begin(src->fd, ELF_C_READ, src->ar);
	} else if (src->fd >= 0)
		im->elf = elf_begin(src->fd, ELF_C_READ, NULL);
	else
		im->elf = elf_memory((char *)src->mem, src->size);
	if (im->elf == NULL)
		return chstk__elferror(err, "cannot read ELF header");
	if (gelf_getehdr(im->elf, &im->ehdr) == NULL) {
		r = chstk__elferror(err, "cannot read ELF header");
		goto fail;
	}
	r = read_phdrs(im, err);
	if (r == 0 && (im->ehdr.e_type == ET_REL || how & CHSTK_IMAGE_SECTIONS))
		r = read_shdrs(im, err);
	if (r < 0)
		goto fail;
	if (im->ehdr.e_type != ET_REL)
		im->state = phdr_state(im);
	return 0;
fail:
	chstk__image_close(im);
	return r;
}

void
chstk__image_close(struct chstk_image *im)
{
	free(im->phdr);
	im->phdr = NULL;
	elf_end(im->elf);
	im->elf = NULL;
}

/*
 * DF_1_PIE marks a position-independent executable; older linkers did not
 * set it, so a PT_INTERP without a DT_SONAME also counts as a program. The
 * dynamic array is read a piece at a time up to its DT_NULL: libelf would
 * read all of p_filesz at once, which a sparse file can make gigabytes.
 */
static enum chstk_kind
dyn_kind(const struct chstk_image *im, const struct chstk_info *info)
{
	const unsigned char *id = im->ehdr.e_ident;
	size_t w = id[EI_CLASS] == ELFCLASS64 ? 8 : 4, n, j;
	unsigned char buf[4096];
	const GElf_Phdr *ph = NULL;
	bool soname = false;
	uint64_t off, tag;
	size_t i;

	for (i = 0; i < im->phnum && ph == NULL; i++)
		if (im->phdr[i].p_type == PT_DYNAMIC)
			ph = &im->phdr[i];
	if (ph == NULL ||
	    !chstk__in_range(ph->p_offset, ph->p_filesz, im->src->size))
		goto out;
	for (off = 0; ph->p_filesz - off >= 2 * w; off += n) {
		n = sizeof(buf) < ph->p_filesz - off ? sizeof(buf) :
		    (size_t)(ph->p_filesz - off) / (2 * w) * (2 * w);
		if (chstk__src_read(im->src, ph->p_offset + off, buf, n,
		    "dynamic section", NULL) < 0)
			goto out;
		for (j = 0; j < n; j += 2 * w) {
			tag = raw_get(id, buf + j, w);
			if (tag == DT_NULL)
				goto out;
			if (tag == DT_FLAGS_1 && raw_get(id, buf + j + w, w) &
			    DF_1_PIE)
				return CHSTK_KIND_PROGRAM;
			if (tag == DT_SONAME)
				soname = true;
		}
	}
out:
	return info->interp && !soname ? CHSTK_KIND_PROGRAM : CHSTK_KIND_SHARED;
}

static void
object_info(const struct chstk_image *im, struct chstk_info *info)
{
	size_t i;

	/* An object's marking is its note; a PT_GNU_STACK it may carry is
	   not what the linker reads. */
	info->stack_flags = 0;
	for (i = 1; i < im->shnum; i++) {
		GElf_Shdr sh;

		if (gelf_getshdr(elf_getscn(im->elf, i), &sh) != NULL &&
		    sh.sh_flags & SHF_ALLOC && sh.sh_flags & SHF_WRITE &&
		    sh.sh_flags & SHF_EXECINSTR)
			info->wx++;
		if (i == im->note)
			info->stack_flags = (uint32_t)sh.sh_flags;
	}
}

void
chstk__image_info(const struct chstk_image *im, struct chstk_info *info)
{
	size_t i;

	memset(info, 0, sizeof(*info));
	info->state = im->state;
	info->elf_class = im->ehdr.e_ident[EI_CLASS];
	info->data = im->ehdr.e_ident[EI_DATA];
	info->osabi = im->ehdr.e_ident[EI_OSABI];
	info->type = im->ehdr.e_type;
	info->machine = im->ehdr.e_machine;
	info->flags = im->ehdr.e_flags;
	for (i = 0; i < im->phnum; i++) {
		const GElf_Phdr *ph = &im->phdr[i];

		if (ph->p_type == PT_INTERP)
			info->interp = true;
		if (ph->p_type == PT_GNU_STACK)
			info->stack_flags = ph->p_flags;
		if (ph->p_type != PT_LOAD)
			continue;
		info->loads++;
		if ((ph->p_flags & (PF_W | PF_X)) == (PF_W | PF_X))
			info->wx++;
		if (ph->p_flags & PF_X && ph->p_memsz > 0) {
			uint64_t last = ph->p_memsz - 1 > UINT64_MAX - ph->p_vaddr ?
			    UINT64_MAX : ph->p_vaddr + ph->p_memsz - 1;

			info->has_exec_code = true;
			if (last > info->exec_limit)
				info->exec_limit = last;
		}
	}
	switch (im->ehdr.e_type) {
	case ET_EXEC:
		info->kind = CHSTK_KIND_PROGRAM;
		break;
	case ET_DYN:
		info->kind = dyn_kind(im, info);
		info->pie = info->kind == CHSTK_KIND_PROGRAM;
		break;
	case ET_REL:
		info->kind = CHSTK_KIND_OBJECT;
		object_info(im, info);
		break;
	default:
		info->kind = CHSTK_KIND_OTHER;
		break;
	}
}
