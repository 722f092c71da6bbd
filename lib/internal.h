/*
 * internal.h - what the library's modules share; not installed.
 *
 * Naming: chstk__ (two underscores) for functions private to the library,
 * which the version script keeps out of the shared object's exports.
 */
#ifndef CHSTK_INTERNAL_H
#define CHSTK_INTERNAL_H

#include <stdint.h>
#include <sys/types.h>

#include <gelf.h>

#include "chstk.h"

#define CHSTK_NOTE_NAME ".note.GNU-stack"
#define CHSTK_PROPERTY_NAME ".note.gnu.property"

/* Overflow-safe: does [off, off + len) lie within [0, size)? */
static inline int
chstk__in_range(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

/* error.c: each returns the code it recorded, so callers can return it. */
int chstk__error(struct chstk_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int chstk__syserror(struct chstk_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int chstk__elferror(struct chstk_error *err, const char *what);
void chstk__clear_error(struct chstk_error *err);

/*
 * A read-only source of bytes: an open file (fd >= 0) or a buffer in memory
 * (fd == -1). size is the file's size when it was opened. A member of an
 * archive read in place starts at base in the file.
 */
struct chstk_src {
	int fd;
	const unsigned char *mem;
	uint64_t size;
	uint64_t base;
};

/* src.c */
int chstk__src_file(struct chstk_src *src, int fd, struct chstk_error *err);
void chstk__src_mem(struct chstk_src *src, const void *buf, size_t size);
/* Read exactly len bytes at off; what names them in the error message. */
int chstk__src_read(const struct chstk_src *src, uint64_t off, void *buf,
    size_t len, const char *what, struct chstk_error *err);
/* Write the whole of src to out_fd from offset 0. */
int chstk__src_copy(const struct chstk_src *src, int out_fd,
    struct chstk_error *err);
/* Write len bytes of src from off to out_fd at out_off. */
int chstk__src_copy_range(const struct chstk_src *src, uint64_t off,
    uint64_t len, int out_fd, uint64_t out_off, struct chstk_error *err);
/* Write all of buf at off, retrying short writes. */
int chstk__pwrite_all(int fd, const void *buf, size_t len, uint64_t off,
    struct chstk_error *err);

/* A window on a section name table, for name lookups. */
struct chstk_strwin {
	uint64_t table_off, table_size;	/* the table in the file */
	uint64_t off;			/* the window's start in the table */
	size_t len;
	unsigned char buf[512];
};

/* One ELF image, parsed and range-checked. */
struct chstk_image {
	const struct chstk_src *src;
	GElf_Ehdr ehdr;
	size_t phnum;
	GElf_Phdr *phdr;	/* phnum entries, owned */
	size_t shnum;		/* 0 when sections were not read */
	size_t shstrndx;
	GElf_Shdr *shdr;	/* shnum entries with CHSTK_IMAGE_SECTIONS */
	size_t note;		/* index of the first .note.GNU-stack, or 0 */
	unsigned notes;		/* how many .note.GNU-stack sections */
	uint64_t note_flags;
	unsigned wx_sections;	/* SHF_ALLOC sections writable and executable */
	struct chstk_strwin names;
	enum chstk_state state;
	/* With CHSTK_IMAGE_SYMBOLS (and always for objects): the first
	   SHT_SYMTAB and SHT_DYNSYM and their string tables, and an
	   object's .note.gnu.property; sh_type SHT_NULL when absent. */
	GElf_Shdr symtab, symtab_str, dynsym, dynsym_str, property;
};

enum {
	CHSTK_IMAGE_SECTIONS = 1,	/* read and keep every section header,
					   whatever the type of file */
	CHSTK_IMAGE_SYMBOLS = 2,	/* read the section headers, whatever
					   the type of file, for the symbol
					   tables (not kept) */
};

/* image.c */
int chstk__image_open(struct chstk_image *im, const struct chstk_src *src,
    unsigned how, struct chstk_error *err);
void chstk__image_close(struct chstk_image *im);
void chstk__image_info(const struct chstk_image *im, struct chstk_info *info);
/* The size in the file of one entry of type, in the image's class. */
size_t chstk__fsize(const struct chstk_image *im, Elf_Type type);
/* Decode entries [first, first + n) of a table of type at off, n <= 64,
   into mem, their memory layout in the image's class. */
int chstk__read_entries(const struct chstk_image *im, Elf_Type type,
    uint64_t off, size_t first, size_t n, void *mem, const char *what,
    struct chstk_error *err);
/* Section header i (i < shnum, or 0 to read extended counts). */
int chstk__read_shdr(const struct chstk_image *im, size_t i, GElf_Shdr *sh,
    struct chstk_error *err);
/* Is the section name at name in the name table want? 1, 0 or an error. */
int chstk__name_is(struct chstk_image *im, uint64_t name, const char *want,
    struct chstk_error *err);
/* Does the file start with the ELF magic? */
int chstk__is_elf(const unsigned char *buf, size_t len);

/*
 * An edit of an image: bytes to write at offsets of a copy of the original.
 * Writes past the original's end grow the file; the gap reads as zeros.
 */
#define CHSTK_MAX_PATCHES 2
struct chstk_edit {
	unsigned npatch;
	struct {
		uint64_t off;
		size_t len;
		unsigned char *buf;	/* owned */
	} patch[CHSTK_MAX_PATCHES];
};
void chstk__edit_free(struct chstk_edit *ed);
int chstk__edit_add(struct chstk_edit *ed, uint64_t off, size_t len,
    struct chstk_error *err);
/* Write src with the edit applied to out_fd. */
int chstk__edit_write(const struct chstk_edit *ed, const struct chstk_src *src,
    int out_fd, struct chstk_error *err);

/* encode.c: GElf structures to their file representation in the image's
   class and byte order. out must hold gelf_fsize() bytes per entry. */
int chstk__encode_ehdr(const struct chstk_image *im, const GElf_Ehdr *ehdr,
    unsigned char *out, struct chstk_error *err);
int chstk__encode_phdrs(const struct chstk_image *im, const GElf_Phdr *phdr,
    size_t n, unsigned char *out, struct chstk_error *err);
int chstk__encode_shdr(const struct chstk_image *im, const GElf_Shdr *shdr,
    unsigned char *out, struct chstk_error *err);

/* hardening.c: the image's other defences (CHSTK_READ_HARDENING), its
   symbols handed to o->symbol when set; im opened with
   CHSTK_IMAGE_SYMBOLS. 0, what o->symbol returned to stop, or an error. */
int chstk__hardening_read(const struct chstk_image *im,
    const struct chstk_scan_opts *o, void *arg, struct chstk_hardening *h,
    struct chstk_error *err);

/* phdr.c: the edit that gives an executable or shared object state want. */
int chstk__phdr_edit(const struct chstk_image *im, enum chstk_state want,
    struct chstk_edit *ed, struct chstk_error *err);

/* object.c: write the object with state want to out_fd. */
int chstk__object_write(struct chstk_image *im, enum chstk_state want,
    int out_fd, struct chstk_error *err);

/* rewrite.c: apply op to the ELF file or archive src, writing the result
   to out_fd; 1 written, 0 nothing to change, or an error. */
int chstk__valid_op(enum chstk_op op);
int chstk__rewrite(const struct chstk_src *src, int out_fd, enum chstk_op op,
    struct chstk_result *res, struct chstk_error *err);
int chstk__rewrite_elf(const struct chstk_src *src, int out_fd,
    enum chstk_op op, struct chstk_result *res, struct chstk_error *err);
/* Scan src, which must be an ELF file or archive; o may be NULL. */
int chstk__scan(const struct chstk_src *src, const struct chstk_scan_opts *o,
    chstk_scan_fn fn, void *arg, struct chstk_error *err);
int chstk__scan_image(const struct chstk_src *src, const char *member,
    const struct chstk_scan_opts *o, bool report_bad, chstk_scan_fn fn,
    void *arg, struct chstk_error *err);

/* archive.c */
int chstk__is_archive(const unsigned char *buf, size_t len);
int chstk__archive_scan(const struct chstk_src *src,
    const struct chstk_scan_opts *o, chstk_scan_fn fn, void *arg,
    struct chstk_error *err);
int chstk__archive_rewrite(const struct chstk_src *src, int out_fd,
    enum chstk_op op, struct chstk_result *res, struct chstk_error *err);

/* replace.c: the safe replacement of a file by a rewritten copy. */
int chstk__replace(const char *path, enum chstk_op op, struct chstk_result *res,
    struct chstk_error *err);

#endif /* CHSTK_INTERNAL_H */
