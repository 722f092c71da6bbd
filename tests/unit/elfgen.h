/*
 * elfgen.h - ELF images made byte by byte for the unit tests, and a reader
 * of program headers that shares no code with the library, so that the
 * tests check the library's output independently of its own reader.
 */
#ifndef ELFGEN_H
#define ELFGEN_H

#include <stddef.h>
#include <stdint.h>

struct gen_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, filesz, memsz, align;
};

/* The shape of an image: class 32 or 64, big or little endian. */
struct gen {
	int bits;
	int big;
	uint16_t type;		/* e_type */
	uint16_t machine;	/* e_machine */
};

/* Raw field access in the image's byte order. */
uint64_t gen_get(const struct gen *g, const unsigned char *p, int size);
void gen_put(const struct gen *g, unsigned char *p, int size, uint64_t v);

/* Sizes of the headers for the class. */
size_t gen_ehsize(const struct gen *g);
size_t gen_phentsize(const struct gen *g);
size_t gen_shentsize(const struct gen *g);

/*
 * An executable or shared object in buf (size bytes, zeroed here): the ELF
 * header, then n program headers at e_phoff = ehsize, and no sections.
 */
void gen_program(const struct gen *g, unsigned char *buf, size_t size,
    const struct gen_phdr *ph, size_t n);

/*
 * A relocatable object: sections NULL, .text (4 bytes), .note.GNU-stack
 * with note_flags when note is not 0, .symtab (a null symbol and a section
 * symbol: for the note when note is 2, else for .text), and .shstrtab
 * (also the symbol names), then the section header table. Returns its
 * size; buf must hold 1024 bytes.
 */
size_t gen_object(const struct gen *g, unsigned char *buf, int note,
    uint64_t note_flags);

/* The flags of the section named name, or -1 when there is none; *count
   receives the number of sections. */
int64_t gen_section_flags(const struct gen *g, const unsigned char *buf,
    size_t size, const char *name, size_t *count);

/* Read back the program header table of an image. Returns the count. */
size_t gen_read_phdrs(const struct gen *g, const unsigned char *buf,
    size_t size, struct gen_phdr *ph, size_t max, uint64_t *phoff);

/* Whole contents of fd (from offset 0); *size receives the length. */
unsigned char *gen_slurp(int fd, size_t *size);

/* A memfd holding buf. */
int gen_memfd(const unsigned char *buf, size_t size);

/* Run a Check suite in fork mode, verbosely; the exit status for main(). */
struct Suite;
int gen_run(struct Suite *s);

#endif
