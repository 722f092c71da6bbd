/*
 * elfgen.c - see elfgen.h. Offsets are those of the ELF specification,
 * written out here rather than taken from <elf.h> structures.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfgen.h"

uint64_t
gen_get(const struct gen *g, const unsigned char *p, int size)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[g->big ? size - 1 - i : i] << (8 * i);
	return v;
}

void
gen_put(const struct gen *g, unsigned char *p, int size, uint64_t v)
{
	int i;

	for (i = 0; i < size; i++)
		p[g->big ? size - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

size_t gen_ehsize(const struct gen *g) { return g->bits == 64 ? 64 : 52; }
size_t gen_phentsize(const struct gen *g) { return g->bits == 64 ? 56 : 32; }
size_t gen_shentsize(const struct gen *g) { return g->bits == 64 ? 64 : 40; }

/* Word size of addresses and offsets. */
static int
aw(const struct gen *g)
{
	return g->bits == 64 ? 8 : 4;
}

static void
put_ehdr(const struct gen *g, unsigned char *b, uint64_t phoff, size_t phnum,
    uint64_t shoff, size_t shnum, size_t shstrndx)
{
	int w = aw(g);

	memcpy(b, "\177ELF", 4);
	b[4] = g->bits == 64 ? 2 : 1;
	b[5] = g->big ? 2 : 1;
	b[6] = 1;
	gen_put(g, b + 16, 2, g->type);
	gen_put(g, b + 18, 2, g->machine);
	gen_put(g, b + 20, 4, 1);
	gen_put(g, b + 24 + w, w, phoff);
	gen_put(g, b + 24 + 2 * w, w, shoff);
	gen_put(g, b + 28 + 3 * w, 2, gen_ehsize(g));
	gen_put(g, b + 30 + 3 * w, 2, phnum ? gen_phentsize(g) : 0);
	gen_put(g, b + 32 + 3 * w, 2, phnum);
	gen_put(g, b + 34 + 3 * w, 2, shnum ? gen_shentsize(g) : 0);
	gen_put(g, b + 36 + 3 * w, 2, shnum);
	gen_put(g, b + 38 + 3 * w, 2, shstrndx);
}

static void
put_phdr(const struct gen *g, unsigned char *p, const struct gen_phdr *ph)
{
	if (g->bits == 64) {
		gen_put(g, p, 4, ph->type);
		gen_put(g, p + 4, 4, ph->flags);
		gen_put(g, p + 8, 8, ph->offset);
		gen_put(g, p + 16, 8, ph->vaddr);
		gen_put(g, p + 24, 8, ph->vaddr);
		gen_put(g, p + 32, 8, ph->filesz);
		gen_put(g, p + 40, 8, ph->memsz);
		gen_put(g, p + 48, 8, ph->align);
	} else {
		gen_put(g, p, 4, ph->type);
		gen_put(g, p + 4, 4, ph->offset);
		gen_put(g, p + 8, 4, ph->vaddr);
		gen_put(g, p + 12, 4, ph->vaddr);
		gen_put(g, p + 16, 4, ph->filesz);
		gen_put(g, p + 20, 4, ph->memsz);
		gen_put(g, p + 24, 4, ph->flags);
		gen_put(g, p + 28, 4, ph->align);
	}
}

static void
get_phdr(const struct gen *g, const unsigned char *p, struct gen_phdr *ph)
{
	if (g->bits == 64) {
		ph->type = (uint32_t)gen_get(g, p, 4);
		ph->flags = (uint32_t)gen_get(g, p + 4, 4);
		ph->offset = gen_get(g, p + 8, 8);
		ph->vaddr = gen_get(g, p + 16, 8);
		ph->filesz = gen_get(g, p + 32, 8);
		ph->memsz = gen_get(g, p + 40, 8);
		ph->align = gen_get(g, p + 48, 8);
	} else {
		ph->type = (uint32_t)gen_get(g, p, 4);
		ph->offset = gen_get(g, p + 4, 4);
		ph->vaddr = gen_get(g, p + 8, 4);
		ph->filesz = gen_get(g, p + 16, 4);
		ph->memsz = gen_get(g, p + 20, 4);
		ph->flags = (uint32_t)gen_get(g, p + 24, 4);
		ph->align = gen_get(g, p + 28, 4);
	}
}

void
gen_program(const struct gen *g, unsigned char *buf, size_t size,
    const struct gen_phdr *ph, size_t n)
{
	size_t i;

	memset(buf, 0, size);
	put_ehdr(g, buf, gen_ehsize(g), n, 0, 0, 0);
	for (i = 0; i < n; i++)
		put_phdr(g, buf + gen_ehsize(g) + i * gen_phentsize(g), &ph[i]);
}

static void
put_shdr(const struct gen *g, unsigned char *p, uint32_t name, uint32_t type,
    uint64_t flags, uint64_t off, uint64_t size, uint32_t link)
{
	int w = aw(g);

	gen_put(g, p, 4, name);
	gen_put(g, p + 4, 4, type);
	gen_put(g, p + 8, w, flags);
	gen_put(g, p + 8 + 2 * w, w, off);
	gen_put(g, p + 8 + 3 * w, w, size);
	gen_put(g, p + 8 + 4 * w, 4, link);
	gen_put(g, p + 12 + 4 * w, 4, type == 2);	/* symtab: 1 local */
	gen_put(g, p + 16 + 4 * w, w, 1);		/* sh_addralign */
	gen_put(g, p + 16 + 5 * w, w, type == 2 ? (w == 8 ? 24 : 16) : 0);
}

/* A local section symbol for section shndx. */
static void
put_section_sym(const struct gen *g, unsigned char *p, unsigned shndx)
{
	if (g->bits == 64) {
		p[4] = 3;				/* STB_LOCAL, STT_SECTION */
		gen_put(g, p + 6, 2, shndx);
	} else {
		p[12] = 3;
		gen_put(g, p + 14, 2, shndx);
	}
}

size_t
gen_object(const struct gen *g, unsigned char *buf, int note,
    uint64_t note_flags)
{
	static const char names[] =
	    "\0.text\0.shstrtab\0.note.GNU-stack\0.symtab";
	size_t eh = gen_ehsize(g), es = gen_shentsize(g);
	size_t symsize = g->bits == 64 ? 24 : 16;
	size_t text = eh, sym = (text + 4 + 7) & ~(size_t)7;
	size_t str = sym + 2 * symsize;
	size_t shoff = (str + sizeof(names) + 7) & ~(size_t)7;
	size_t n = note ? 5 : 4, k = 1;

	memset(buf, 0, 1024);
	memcpy(buf + text, "\x90\x90\x90\xc3", 4);
	put_section_sym(g, buf + sym + symsize, note == 2 ? 2 : 1);
	memcpy(buf + str, names, sizeof(names));
	put_ehdr(g, buf, 0, 0, shoff, n, n - 1);
	put_shdr(g, buf + shoff + es * k++, 1, 1, 6, text, 4, 0);
	if (note)
		put_shdr(g, buf + shoff + es * k++, 17, 1, note_flags, str, 0,
		    0);
	put_shdr(g, buf + shoff + es * k, 33, 2, 0, sym, 2 * symsize,
	    (uint32_t)(k + 1));
	k++;
	put_shdr(g, buf + shoff + es * k, 7, 3, 0, str, sizeof(names), 0);
	return shoff + n * es;
}

int64_t
gen_section_flags(const struct gen *g, const unsigned char *buf, size_t size,
    const char *name, size_t *count)
{
	int w = aw(g);
	uint64_t shoff = gen_get(g, buf + 24 + 2 * w, w);
	size_t es = gen_shentsize(g), i;
	size_t n = (size_t)gen_get(g, buf + 36 + 3 * w, 2);
	size_t strndx = (size_t)gen_get(g, buf + 38 + 3 * w, 2);
	uint64_t stroff;
	int64_t found = -1;

	*count = n;
	if (shoff + n * es > size || strndx >= n)
		return -2;
	stroff = gen_get(g, buf + shoff + strndx * es + 8 + 2 * w, w);
	for (i = 1; i < n; i++) {
		const unsigned char *sh = buf + shoff + i * es;
		uint64_t at = stroff + gen_get(g, sh, 4);

		if (at < size && strncmp((const char *)buf + at, name,
		    size - at) == 0)
			found = (int64_t)gen_get(g, sh + 8, w);
	}
	return found;
}

size_t
gen_read_phdrs(const struct gen *g, const unsigned char *buf, size_t size,
    struct gen_phdr *ph, size_t max, uint64_t *phoff)
{
	int w = aw(g);
	size_t n, i, es = gen_phentsize(g);

	*phoff = gen_get(g, buf + 24 + w, w);
	n = (size_t)gen_get(g, buf + 32 + 3 * w, 2);
	for (i = 0; i < n && i < max; i++) {
		if (*phoff + (i + 1) * es > size)
			break;
		get_phdr(g, buf + *phoff + i * es, &ph[i]);
	}
	return i;
}

unsigned char *
gen_slurp(int fd, size_t *size)
{
	struct stat st;
	unsigned char *buf;

	if (fstat(fd, &st) == -1)
		return NULL;
	*size = (size_t)st.st_size;
	buf = malloc(*size ? *size : 1);
	if (buf != NULL && pread(fd, buf, *size, 0) != (ssize_t)*size) {
		free(buf);
		return NULL;
	}
	return buf;
}

int
gen_memfd(const unsigned char *buf, size_t size)
{
	int fd = memfd_create("elfgen", MFD_CLOEXEC);

	if (fd != -1 && pwrite(fd, buf, size, 0) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	return fd;
}
