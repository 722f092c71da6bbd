/*
 * object.c - the .note.GNU-stack section of relocatable objects.
 *
 * Flipping SHF_EXECINSTR rewrites the section header table in place.
 * Adding or removing the section rebuilds the object with libelf: every
 * section is copied byte for byte (the raw data, untranslated) and libelf
 * lays the file out again, as the assembler would have. A new section goes
 * last, so no index changes; removing one renumbers the sections after it
 * in every place an object names a section by index (section links and
 * infos, symbols, SHT_SYMTAB_SHNDX, groups), and is refused when anything
 * refers to the removed section itself.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char sig_magic[] = "~Module signature appended~\n";

/* A signed kernel module carries its signature after the ELF data. */
static int
is_signed_module(const struct chstk_image *im)
{
	unsigned char tail[sizeof(sig_magic) - 1];
	size_t len = sizeof(tail);

	return im->src->size >= len &&
	    chstk__src_read(im->src, im->src->size - len, tail, len,
	    "signature", NULL) == 0 && memcmp(tail, sig_magic, len) == 0;
}

static int
flip_flags(struct chstk_image *im, enum chstk_state want, int out_fd,
    struct chstk_error *err)
{
	size_t es = chstk__fsize(im, ELF_T_SHDR);
	struct chstk_edit ed = { 0 };
	size_t i;
	int r;

	r = chstk__edit_add(&ed, im->ehdr.e_shoff, im->shnum * es, err);
	for (i = 0; r == 0 && i < im->shnum; i++) {
		GElf_Shdr sh = im->shdr[i];

		r = i > 0 && sh.sh_size == 0 ? chstk__name_is(im, sh.sh_name,
		    CHSTK_NOTE_NAME, err) : 0;
		if (r == 1)
			sh.sh_flags = (sh.sh_flags & ~(GElf_Xword)SHF_EXECINSTR)
			    | (want == CHSTK_EXEC ? SHF_EXECINSTR : 0);
		if (r >= 0)
			r = chstk__encode_shdr(im, &sh, ed.patch[0].buf + i * es,
			    err);
	}
	if (r == 0)
		r = chstk__edit_write(&ed, im->src, out_fd, err);
	chstk__edit_free(&ed);
	return r;
}

/* The rebuild's state: libelf's view of the input, the output, the index
   map and buffers to free. */
struct rebuild {
	const struct chstk_image *im;
	Elf *in;
	Elf *out;
	size_t *map;		/* old index -> new, 0 for the removed */
	size_t removed;		/* the removed section, or 0 */
	void **bufs;		/* buffers the output's data points into */
	size_t nbufs;
	struct chstk_error *err;
};

static void *
keep_buf(struct rebuild *rb, size_t size)
{
	void **bufs = realloc(rb->bufs, (rb->nbufs + 1) * sizeof(*bufs));
	void *p;

	if (bufs == NULL)
		return NULL;
	rb->bufs = bufs;
	p = malloc(size ? size : 1);
	if (p != NULL)
		rb->bufs[rb->nbufs++] = p;
	return p;
}

/* Map a section index read from the file; fails on the removed one. */
static int
remap(struct rebuild *rb, uint64_t old, uint64_t *new, const char *who,
    size_t where)
{
	if (old >= rb->im->shnum)
		return chstk__error(rb->err, CHSTK_ERR_CORRUPT,
		    "%s %zu names section %ju, out of range", who, where,
		    (uintmax_t)old);
	if (old != 0 && old == rb->removed)
		return chstk__error(rb->err, CHSTK_ERR_UNSUPPORTED,
		    "cannot remove " CHSTK_NOTE_NAME ": %s %zu refers to it",
		    who, where);
	*new = rb->map[old];
	return 0;
}

/* Copy the data of symbol tables, SHT_SYMTAB_SHNDX and groups with their
   section indices renumbered. */
static int
renumber_data(struct rebuild *rb, Elf_Scn *in, const GElf_Shdr *sh,
    Elf_Data *out)
{
	Elf_Data *d = elf_getdata(in, NULL);
	size_t i, n;
	uint64_t v;

	if (d == NULL)
		return chstk__elferror(rb->err, "cannot read section data");
	if (d->d_buf == NULL && d->d_size > 0)
		return chstk__error(rb->err, CHSTK_ERR_CORRUPT,
		    "section %zu has no data", elf_ndxscn(in));
	out->d_type = d->d_type;
	out->d_size = d->d_size;
	out->d_align = d->d_align;
	out->d_buf = keep_buf(rb, d->d_size);
	if (out->d_buf == NULL)
		return chstk__syserror(rb->err, "cannot rebuild the object");
	if (d->d_size > 0)
		memcpy(out->d_buf, d->d_buf, d->d_size);
	if (sh->sh_type == SHT_SYMTAB || sh->sh_type == SHT_DYNSYM) {
		n = d->d_size / gelf_fsize(rb->out, ELF_T_SYM, 1, EV_CURRENT);
		for (i = 0; i < n; i++) {
			GElf_Sym sym;

			if (gelf_getsym(out, (int)i, &sym) == NULL)
				return chstk__elferror(rb->err,
				    "cannot read symbol");
			if (sym.st_shndx == SHN_UNDEF ||
			    sym.st_shndx >= SHN_LORESERVE)
				continue;
			if (remap(rb, sym.st_shndx, &v, "symbol", i) < 0)
				return rb->err->code;
			sym.st_shndx = (Elf64_Half)v;
			gelf_update_sym(out, (int)i, &sym);
		}
		return 0;
	}
	/* SHT_GROUP (after its flag word) and SHT_SYMTAB_SHNDX: words. */
	n = d->d_size / sizeof(Elf32_Word);
	for (i = sh->sh_type == SHT_GROUP ? 1 : 0; i < n; i++) {
		Elf32_Word *w = (Elf32_Word *)out->d_buf + i;

		if (*w == 0 && sh->sh_type != SHT_GROUP)
			continue;
		if (remap(rb, *w, &v, "section group or index entry", i) < 0)
			return rb->err->code;
		*w = (Elf32_Word)v;
	}
	return 0;
}

static int
copy_section(struct rebuild *rb, size_t i)
{
	Elf_Scn *in = elf_getscn(rb->in, i), *out;
	Elf_Data *d, *nd;
	GElf_Shdr sh;
	uint64_t v;

	if (gelf_getshdr(in, &sh) == NULL)
		return chstk__elferror(rb->err, "cannot read section header");
	if ((out = elf_newscn(rb->out)) == NULL ||
	    (nd = elf_newdata(out)) == NULL)
		return chstk__elferror(rb->err, "cannot add section");
	if (rb->removed != 0) {
		if (remap(rb, sh.sh_link, &v, "section", i) < 0)
			return rb->err->code;
		sh.sh_link = (Elf64_Word)v;
		if ((sh.sh_type == SHT_REL || sh.sh_type == SHT_RELA ||
		    sh.sh_flags & SHF_INFO_LINK)) {
			if (remap(rb, sh.sh_info, &v, "section", i) < 0)
				return rb->err->code;
			sh.sh_info = (Elf64_Word)v;
		}
	}
	if (rb->removed != 0 && (sh.sh_type == SHT_SYMTAB ||
	    sh.sh_type == SHT_DYNSYM || sh.sh_type == SHT_GROUP ||
	    sh.sh_type == SHT_SYMTAB_SHNDX)) {
		if (renumber_data(rb, in, &sh, nd) < 0)
			return rb->err->code;
	} else {
		d = elf_rawdata(in, NULL);
		if (d == NULL && sh.sh_type != SHT_NOBITS && sh.sh_size > 0)
			return chstk__elferror(rb->err,
			    "cannot read section data");
		nd->d_type = ELF_T_BYTE;
		nd->d_buf = d ? d->d_buf : NULL;
		nd->d_size = d ? d->d_size : sh.sh_size;
		nd->d_align = sh.sh_addralign ? sh.sh_addralign : 1;
	}
	if (gelf_update_shdr(out, &sh) == 0)
		return chstk__elferror(rb->err, "cannot add section");
	return 0;
}

/* The new section goes last; its name is appended to the name table. */
static int
add_note(struct rebuild *rb, enum chstk_state want)
{
	Elf_Scn *strscn = elf_getscn(rb->out, rb->map[rb->im->shstrndx]);
	Elf_Data *names = elf_getdata(strscn, NULL), *nd;
	size_t len = sizeof(CHSTK_NOTE_NAME);
	Elf_Scn *scn;
	GElf_Shdr sh;
	char *buf;

	/* A name table without data (SHT_NOBITS) has nothing to append to. */
	if (names == NULL || names->d_type != ELF_T_BYTE ||
	    (names->d_buf == NULL && names->d_size > 0))
		return chstk__error(rb->err, CHSTK_ERR_CORRUPT,
		    "cannot read section name table");
	buf = keep_buf(rb, names->d_size + len);
	if (buf == NULL)
		return chstk__syserror(rb->err, "cannot rebuild the object");
	if (names->d_size > 0)
		memcpy(buf, names->d_buf, names->d_size);
	memcpy(buf + names->d_size, CHSTK_NOTE_NAME, len);
	memset(&sh, 0, sizeof(sh));
	sh.sh_name = (Elf64_Word)names->d_size;
	names->d_buf = buf;
	names->d_size += len;
	sh.sh_type = SHT_PROGBITS;
	sh.sh_flags = want == CHSTK_EXEC ? SHF_EXECINSTR : 0;
	sh.sh_addralign = 1;
	if ((scn = elf_newscn(rb->out)) == NULL ||
	    (nd = elf_newdata(scn)) == NULL ||
	    gelf_update_shdr(scn, &sh) == 0)
		return chstk__elferror(rb->err, "cannot add section");
	nd->d_type = ELF_T_BYTE;
	nd->d_size = 0;
	nd->d_align = 1;
	return 0;
}

static int
set_ehdr(struct rebuild *rb)
{
	GElf_Ehdr eh = rb->im->ehdr;
	size_t strndx = rb->map[rb->im->shstrndx];
	GElf_Shdr sh0;
	Elf_Scn *scn0 = elf_getscn(rb->out, 0);

	eh.e_shstrndx = strndx < SHN_LORESERVE ? (Elf64_Half)strndx :
	    SHN_XINDEX;
	if (gelf_update_ehdr(rb->out, &eh) == 0)
		return chstk__elferror(rb->err, "cannot write ELF header");
	if (scn0 == NULL || gelf_getshdr(scn0, &sh0) == NULL)
		return chstk__elferror(rb->err, "cannot write section 0");
	sh0.sh_link = strndx < SHN_LORESERVE ? 0 : (Elf64_Word)strndx;
	if (gelf_update_shdr(scn0, &sh0) == 0)
		return chstk__elferror(rb->err, "cannot write section 0");
	return 0;
}

/*
 * Lay the object out before writing it: a hostile section alignment would
 * have libelf write gigabytes of padding. A real object only gains a name
 * and a section header, and a section moves by at most its alignment,
 * which its offset in the original already honours: far less than the
 * original's size again.
 */
/*
 * The end of the object as libelf laid it out, from the 64-bit offsets it
 * set: on a 32-bit host the size elf_update returns wraps past 4 GiB (a
 * hostile alignment then passed the check below, and 4 GiB were written),
 * and the offset of the section headers may too, so the message names the
 * limit, the same on every host, not the end.
 */
static uint64_t
laid_out_end(Elf *e, int64_t size)
{
	uint64_t end = (uint64_t)size, v;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;

	if (gelf_getehdr(e, &eh) != NULL) {
		v = eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize;
		end = v > end ? v : end;
	}
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type == SHT_NOBITS)
			continue;
		v = sh.sh_size > UINT64_MAX - sh.sh_offset ? UINT64_MAX :
		    sh.sh_offset + sh.sh_size;
		end = v > end ? v : end;
	}
	return end;
}

static int
write_out(struct rebuild *rb)
{
	uint64_t was = rb->im->src->size, end;
	int64_t size = elf_update(rb->out, ELF_C_NULL);

	if (size < 0)
		return chstk__elferror(rb->err, "cannot write the object");
	end = laid_out_end(rb->out, size);
	if (end > 2 * was + 65536)
		return chstk__error(rb->err, CHSTK_ERR_CORRUPT,
		    "section alignments would grow the object from %ju to more than %ju bytes", (uintmax_t)was, (uintmax_t)(2 * was + 65536));
	/* libelf says only "cannot write data to file"; the reason (a full
	   disk, a quota) is in errno, which nothing else in the write sets. */
	errno = 0;
	if (elf_update(rb->out, ELF_C_WRITE) < 0)
		return errno != 0 ?
		    chstk__syserror(rb->err, "cannot write temporary file") :
		    chstk__elferror(rb->err, "cannot write the object");
	return 0;
}

static int
rebuild(struct rebuild *rb, enum chstk_state want)
{
	const struct chstk_image *im = rb->im;
	size_t i, next = 1;

	for (i = 1; i < im->shnum; i++)
		rb->map[i] = i == rb->removed ? 0 : next++;
	if (im->shstrndx == rb->removed)
		return chstk__error(rb->err, CHSTK_ERR_CORRUPT,
		    CHSTK_NOTE_NAME " is the section name table");
	if (gelf_newehdr(rb->out, im->ehdr.e_ident[EI_CLASS]) == NULL)
		return chstk__elferror(rb->err, "cannot write ELF header");
	for (i = 1; i < im->shnum; i++)
		if (i != rb->removed && copy_section(rb, i) < 0)
			return rb->err->code;
	if (want != CHSTK_DEFAULT && add_note(rb, want) < 0)
		return rb->err->code;
	if (set_ehdr(rb) < 0)
		return rb->err->code;
	return write_out(rb);
}

static int
rebuild_to(const struct chstk_image *im, enum chstk_state want, int out_fd,
    struct chstk_error *err)
{
	struct chstk_error local;
	struct rebuild rb = {
		.im = im,
		.removed = want == CHSTK_DEFAULT ? im->note : 0,
		.err = err ? err : &local,
	};
	size_t i;
	int r;

	if (im->shnum == 0)
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "object has no section headers");
	/* Rewrites read members into memory: a source is a whole file. */
	if (im->src->base != 0)
		return chstk__error(err, CHSTK_ERR_INVAL,
		    "cannot rebuild an object read in place");
	elf_version(EV_CURRENT);
	rb.in = im->src->fd >= 0 ? elf_begin(im->src->fd, ELF_C_READ, NULL) :
	    elf_memory((char *)im->src->mem, im->src->size);
	rb.map = calloc(im->shnum, sizeof(*rb.map));
	rb.out = elf_begin(out_fd, ELF_C_WRITE, NULL);
	if (rb.map == NULL)
		r = chstk__syserror(rb.err, "cannot rebuild the object");
	else if (rb.in == NULL || rb.out == NULL)
		r = chstk__elferror(rb.err, "cannot rebuild the object");
	else
		r = rebuild(&rb, want);
	elf_end(rb.out);
	elf_end(rb.in);
	for (i = 0; i < rb.nbufs; i++)
		free(rb.bufs[i]);
	free(rb.bufs);
	free(rb.map);
	return r;
}

int
chstk__object_write(struct chstk_image *im, enum chstk_state want,
    int out_fd, struct chstk_error *err)
{
	if (is_signed_module(im))
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "signed kernel module: a change would void the signature");
	if (im->notes > 0 && want != CHSTK_DEFAULT)
		return flip_flags(im, want, out_fd, err);
	if (im->notes > 1)
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "cannot remove %u " CHSTK_NOTE_NAME " sections", im->notes);
	return rebuild_to(im, want, out_fd, err);
}
