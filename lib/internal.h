/*
 * internal.h - what the library's files share; not installed.
 *
 * The library is a stack of layers, and every call points down it. A file
 * may call the files listed below it, never one listed above it, so no two
 * files depend on each other (tests/lib-layers.sh checks it):
 *
 *   public entry points
 *     update.c    chstk_update(): the safe replacement of a file
 *     rewrite.c   chstk_rewrite_fd(): an ELF file or archive rewritten,
 *                 and read back (through scan.c) before it counts
 *     scan.c      chstk_scan_*(): an ELF file or archive read;
 *                 chstk_format(): what a file's first bytes say it is
 *   ELF and archive formats
 *     hardening.c the dynamic section, PT_INTERP, property note and
 *                 symbol tables (CHSTK_READ_HARDENING, CHSTK_READ_DYNAMIC)
 *     buildid.c   the build-id note
 *     dwarf.c     the compilation units of the DWARF, through libdw, and
 *                 the sections of annobin's notes (CHSTK_READ_EVIDENCE)
 *     annobin.c   annobin's notes read
 *     code.c      x86-64 code searched for trampolines and stack probes
 *     archive.c   the ar format: members read, an archive written anew
 *     object.c    .note.GNU-stack in relocatable objects
 *     phdr.c      PT_GNU_STACK in executables and shared objects
 *     encode.c    GElf structures back to bytes
 *     image.c     one ELF image read and range-checked
 *   byte-level helpers
 *     edit.c      patches over a copy of a source
 *     source.c    bytes read from a file, memory or a stream, copies
 *                 written
 *     stream.c    what is kept of a stream read once, front to back
 *     state.c     the markings and the operations on them
 *                 (chstk_state_name(), chstk_op_result())
 *     version.c   chstk_version()
 *     error.c     filling the caller's struct chstk_error
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

/* state.c: is op one of enum chstk_op? */
int chstk__valid_op(enum chstk_op op);

/*
 * stream.c: an image read once from the caller's read function. Offsets
 * are the stream's; reads behind what was kept fail. Used by source.c.
 */
struct chstk_stream;
int chstk__stream_open(struct chstk_stream **st, chstk_read_fn read,
    void *arg, uint64_t size, struct chstk_error *err);
void chstk__stream_close(struct chstk_stream *st);
/* The size declared, or learned at the end; UINT64_MAX while unknown. */
uint64_t chstk__stream_size(const struct chstk_stream *st);
bool chstk__stream_failed(const struct chstk_stream *st);
/* Up to len bytes at off; *got is fewer only at the end of the stream. */
int chstk__stream_read(struct chstk_stream *st, uint64_t off, void *buf,
    size_t len, size_t *got, struct chstk_error *err);
/* Keep [off, off + len) (len UINT64_MAX: to the end) from now on. */
int chstk__stream_keep(struct chstk_stream *st, uint64_t off, uint64_t len,
    struct chstk_error *err);
/* From now on reads only go forward: gaps may be dropped. */
void chstk__stream_forward(struct chstk_stream *st);
/* Keep [off, off + len) until the end, whatever is forgotten. */
int chstk__stream_pin(struct chstk_stream *st, uint64_t off, uint64_t len,
    struct chstk_error *err);
/* Drop what is kept, but the pin; reads start at below or after. */
void chstk__stream_forget(struct chstk_stream *st, uint64_t below);

/*
 * source.c: a read-only source of bytes: an open file (fd >= 0), a buffer
 * in memory (mem), or a stream. size is the file's size when it was
 * opened, or a stream's as declared (UINT64_MAX when it does not say). A
 * member of an archive read in place starts at base in the file or stream.
 */
struct chstk_src {
	int fd;
	const unsigned char *mem;
	struct chstk_stream *stream;
	uint64_t size;
	uint64_t base;	/* where this source starts in the file, buffer or
			   stream: an archive member's data */
	struct chstk_cache *cache;	/* a file's, or NULL */
};

/*
 * A few blocks of a file kept while it is read, so that the headers a
 * reader asks for piece by piece cost one read of the block that holds
 * them: the ELF header and program headers nearly always lie in the first
 * block. Block i's bytes are mem[i * CHSTK_CACHE_BLOCK...]. An archive's
 * small members, one after another, are read as a run instead: block 0
 * then holds up to all of mem, and the other blocks are empty until a
 * read misses, which cuts the run back to its first block. Reads longer
 * than a block that the cache does not hold go to the file. mem is the
 * cache's whole memory, whatever the size of the file.
 */
#define CHSTK_CACHE_BLOCK 4096
#define CHSTK_CACHE_BLOCKS 4
struct chstk_cache {
	uint64_t file_size;	/* blocks are not read past it */
	unsigned next;		/* the block to reuse next */
	struct {
		uint64_t off;
		size_t len;	/* 0: empty */
	} block[CHSTK_CACHE_BLOCKS];
	unsigned char mem[CHSTK_CACHE_BLOCKS * CHSTK_CACHE_BLOCK];
};

int chstk__src_file(struct chstk_src *src, int fd, struct chstk_error *err);
/*
 * Read the file src through cache from now on (its members too, which copy
 * src); head, when n > 0, holds the file's first n bytes as the caller read
 * them, which are not read again. cache must outlive every read of src.
 */
void chstk__src_cache(struct chstk_src *src, struct chstk_cache *cache,
    const void *head, size_t n);
/* The file fd, which the caller vouches is a regular file: its size is
   asked (fstat) only when a check needs it, and a read past its end
   fails as one. */
void chstk__src_regular(struct chstk_src *src, int fd);
void chstk__src_mem(struct chstk_src *src, const void *buf, size_t size);
void chstk__src_stream(struct chstk_src *src, struct chstk_stream *st,
    uint64_t size);
/* The size as far as known: UINT64_MAX for a stream that has not said. */
uint64_t chstk__src_size(const struct chstk_src *src);
/*
 * The len bytes at off will be read piece by piece (an archive member):
 * when the cache does not hold them and they fit it, read them and what
 * follows, as much as the cache holds, in one read. Does nothing for a
 * source without a cache. A failed read is left to the read that needs
 * the bytes to report.
 */
void chstk__src_ahead(const struct chstk_src *src, uint64_t off,
    uint64_t len);
/* Does src hold the len bytes at off? Asks a file's size only when the
   cache does not hold them. */
bool chstk__src_holds(const struct chstk_src *src, uint64_t off,
    uint64_t len);
/* Read exactly len bytes at off; what names them in the error message. */
int chstk__src_read(const struct chstk_src *src, uint64_t off, void *buf,
    size_t len, const char *what, struct chstk_error *err);
/* Read up to len bytes at off; *got is fewer only at the end. */
int chstk__src_read_upto(const struct chstk_src *src, uint64_t off,
    void *buf, size_t len, size_t *got, const char *what,
    struct chstk_error *err);
/*
 * What a reader tells a stream, and files and memory ignore: the whole
 * source will be read in no particular order (keep_all); from now on reads
 * go only forward (forward); [off, off + len) will be read again after
 * what follows it is forgotten (pin); nothing before below will be read
 * again (forget). failed: did the stream's read function fail?
 */
int chstk__src_keep_all(const struct chstk_src *src, struct chstk_error *err);
void chstk__src_forward(const struct chstk_src *src);
int chstk__src_pin(const struct chstk_src *src, uint64_t off, uint64_t len,
    struct chstk_error *err);
void chstk__src_forget(const struct chstk_src *src, uint64_t below);
bool chstk__src_failed(const struct chstk_src *src);
/* Write the whole of src to out_fd from offset 0. */
int chstk__src_copy(const struct chstk_src *src, int out_fd,
    struct chstk_error *err);
/* Write len bytes of src from off to out_fd at out_off. */
int chstk__src_copy_range(const struct chstk_src *src, uint64_t off,
    uint64_t len, int out_fd, uint64_t out_off, struct chstk_error *err);
/* Write all of buf at off, retrying short writes. */
int chstk__pwrite_all(int fd, const void *buf, size_t len, uint64_t off,
    struct chstk_error *err);

/*
 * edit.c: an edit of a source: bytes to write at offsets of a copy of it.
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
/* A new patch of len zero bytes at off, last in ed->patch. */
int chstk__edit_add(struct chstk_edit *ed, uint64_t off, size_t len,
    struct chstk_error *err);
/* Write src with the edit applied to out_fd. */
int chstk__edit_write(const struct chstk_edit *ed, const struct chstk_src *src,
    int out_fd, struct chstk_error *err);

/* image.c: one ELF image, parsed and range-checked. */

/* A window on a section name table, for name lookups. */
struct chstk_strwin {
	uint64_t table_off, table_size;	/* the table in the file */
	uint64_t off;			/* the window's start in the table */
	size_t len;
	unsigned char buf[512];
};

struct chstk_image {
	const struct chstk_src *src;
	GElf_Ehdr ehdr;
	unsigned char head[CHSTK_HEAD_LEN];	/* the first bytes, as read */
	size_t phnum;
	GElf_Phdr *phdr;	/* phnum entries, owned */
	bool shdrs_read;	/* the section headers were read */
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
	struct chstk_sections sect;	/* when shnum > 0 */
	/* With CHSTK_IMAGE_SYMBOLS, what the sections say for hardening.c:
	   the span of the sections of each CHSTK_RELRO_* kind (by bit
	   index; relro_sections says which were met), the SHT_DYNAMIC
	   sections, writable GOT or PLT relocation sections, Go's notes. */
	struct { uint64_t lo, hi; } relro_span[CHSTK_RELRO_KINDS];
	unsigned relro_sections;
	unsigned dynamic_sections;
	bool writable_relocs;
	bool go_buildid;
	GElf_Shdr go_buildinfo;	/* sh_type SHT_NULL when absent */
};

enum {
	CHSTK_IMAGE_SECTIONS = 1,	/* read and keep every section header,
					   whatever the type of file */
	CHSTK_IMAGE_SYMBOLS = 2,	/* read the section headers, whatever
					   the type of file, for the symbol
					   tables (not kept) */
	CHSTK_IMAGE_DYNAMIC = 4,	/* the dynamic section's strings will
					   be read, wherever they lie: a
					   stream is kept whole */
};

int chstk__image_open(struct chstk_image *im, const struct chstk_src *src,
    unsigned how, struct chstk_error *err);
/* The section headers of an image opened without them, read now (a
   stream keeps the whole image for them, when its size is known and
   fits); 0, or an error, which leaves the image without sections. */
int chstk__image_sections(struct chstk_image *im, struct chstk_error *err);
void chstk__image_close(struct chstk_image *im);
/* What the headers say, but an ET_DYN's kind and pie (see
   chstk__image_kind); the notes and the file's size are asked, never
   failing: what cannot be read is not there. */
void chstk__image_info(const struct chstk_image *im, struct chstk_info *info);
/* An ET_DYN's kind and pie, from its dynamic section: the last read of
   an image, after which a stream only goes forward. */
void chstk__image_kind(const struct chstk_image *im, struct chstk_info *info);
/* The size in the file of one entry of type, in the image's class. */
size_t chstk__fsize(const struct chstk_image *im, Elf_Type type);
/* Decode entries [first, first + n) of a table of type at off, n <= 64,
   into mem, their memory layout in the image's class. */
int chstk__read_entries(const struct chstk_image *im, Elf_Type type,
    uint64_t off, size_t first, size_t n, void *mem, const char *what,
    struct chstk_error *err);
/* Is the section name at name in the name table want? 1, 0 or an error. */
int chstk__name_is(struct chstk_image *im, uint64_t name, const char *want,
    struct chstk_error *err);
/* Does the file start with the ELF magic? */
int chstk__is_elf(const unsigned char *buf, size_t len);
/*
 * The ELF notes in buf[0, len), one at a time (chstk__note_next): each
 * a 12-byte header (name size, descriptor size, type), the name padded
 * to name_align, the descriptor padded to desc_align (4, or 8 where a
 * 64-bit file's segment says so). Set buf, len, msb and the alignments,
 * pos 0.
 */
struct chstk__notes {
	const unsigned char *buf;
	size_t len, pos;
	size_t name_align, desc_align;
	bool msb;
};
struct chstk__note {
	size_t at;		/* its offset in buf */
	uint32_t type;
	const unsigned char *name, *desc;
	size_t namesz, descsz;
};
/* The note at w->pos into n, and w->pos past it: 1; 0 when no note is
   left (fewer than 12 bytes); -1 when its name or descriptor runs past
   len, which ends the walk, as the loaders' walks end. */
int chstk__note_next(struct chstk__notes *w, struct chstk__note *n);
/* Is n of owner "GNU"? */
bool chstk__note_gnu(const struct chstk__note *n);

/* encode.c: GElf structures to their file representation in the image's
   class and byte order. out must hold gelf_fsize() bytes per entry. */
int chstk__encode_ehdr(const struct chstk_image *im, const GElf_Ehdr *ehdr,
    unsigned char *out, struct chstk_error *err);
int chstk__encode_phdrs(const struct chstk_image *im, const GElf_Phdr *phdr,
    size_t n, unsigned char *out, struct chstk_error *err);
int chstk__encode_shdr(const struct chstk_image *im, const GElf_Shdr *shdr,
    unsigned char *out, struct chstk_error *err);

/* hardening.c: the image's other defences (CHSTK_READ_HARDENING), with
   the dynamic section's strings kept, its symbols handed to o->symbol
   when set; im opened with CHSTK_IMAGE_SYMBOLS. With CHSTK_READ_DYNAMIC
   alone, only the dynamic section and PT_INTERP; im opened with
   CHSTK_IMAGE_DYNAMIC. 0, what o->symbol
   returned to stop, or an error. */
struct chstk_hardening_buf {
	struct chstk_hardening h;
	char rpath[CHSTK_PATH_LEN], runpath[CHSTK_PATH_LEN];
	char soname[CHSTK_PATH_LEN], needed[CHSTK_PATH_LEN];
	char interp[CHSTK_PATH_LEN];
	char evidence_error[256];
	char unit_name[CHSTK_PATH_LEN], unit_producer[CHSTK_PATH_LEN];
	char dlopen[CHSTK_DLOPEN_LEN];
};
int chstk__hardening_read(const struct chstk_image *im,
    const struct chstk_info *info, const struct chstk_scan_opts *o,
    void *arg, struct chstk_hardening_buf *b, struct chstk_error *err);
/* The dynamic symbols alone, handed to o->symbol (CHSTK_READ_DYNSYM);
   im has its sections. 0, what o->symbol returned to stop, or an
   error. */
int chstk__dynsym_read(const struct chstk_image *im,
    const struct chstk_scan_opts *o, void *arg, struct chstk_error *err);
/* The sizes hardening.c reads a symbol table by (see there). A variable
   only so that the fuzz targets can make them small between two scans,
   and small inputs take the paths of big tables; the library never
   writes it. */
struct chstk__symread_sizes {
	size_t names_whole;	/* a string table read whole up to this */
	size_t names_win;	/* else a window of this (at least 1024) */
	size_t block;		/* symbols read this many bytes at a time
				   (at most 65536, at least one symbol) */
	size_t code_win;	/* exported functions' code read through a
				   window of this (at least CHSTK_CODE_LEN,
				   at most 65536) */
};
extern struct chstk__symread_sizes chstk__symread_sizes;

/* buildid.c: h->build_id and build_id_len, from the PT_NOTE segments. */
int chstk__build_id(const struct chstk_image *im, struct chstk_hardening *h,
    struct chstk_error *err);

/* dwarf.c: the units of the image's DWARF to o->unit, and annobin's
   notes, into b (its evidence fields, evidence_error where they cannot
   be read); im opened with CHSTK_IMAGE_SYMBOLS. 0, what o->unit
   returned to stop, or an error (a read that failed). */
int chstk__dwarf_read(const struct chstk_image *im,
    const struct chstk_scan_opts *o, void *arg, struct chstk_hardening_buf *b,
    struct chstk_error *err);

/* annobin.c: annobin's notes in the bytes of .gnu.build.attributes (ELF
   notes of the image's byte order) or .annobin.notes (strings), into h's
   an_* fields. */
void chstk__annobin_notes(const unsigned char *buf, size_t len, bool msb,
    struct chstk_hardening *h);
void chstk__annobin_strings(const unsigned char *buf, size_t len,
    struct chstk_hardening *h);

/* code.c: an x86-64 image's code searched, into b's code fields (its
   evidence_error when the image does not hold it); other machines are
   left alone. 0 or an error (a read that failed). */
int chstk__code_scan(const struct chstk_image *im, struct chstk_hardening_buf *b,
    struct chstk_error *err);

/* phdr.c: the edit that gives an executable or shared object state want. */
int chstk__phdr_edit(const struct chstk_image *im, enum chstk_state want,
    struct chstk_edit *ed, struct chstk_error *err);

/* object.c: write the object with state want to out_fd. */
int chstk__object_write(struct chstk_image *im, enum chstk_state want,
    int out_fd, struct chstk_error *err);

/* archive.c: the ar format, which knows nothing of what members hold. */
enum chstk_ar_kind {
	CHSTK_AR_FILE,		/* a member proper */
	CHSTK_AR_INDEX32,	/* "/": the symbol index */
	CHSTK_AR_INDEX64,	/* "/SYM64/" */
	CHSTK_AR_NAMES,		/* "//": the long names */
	CHSTK_AR_BSD_INDEX,	/* "__.SYMDEF" */
};

struct chstk_ar_member {
	uint64_t hdr;		/* offset of the header */
	uint64_t data;		/* offset of the data, after a BSD name */
	uint64_t size;		/* bytes of data */
	uint64_t namelen;	/* bytes of BSD name between header and data */
	enum chstk_ar_kind kind;
	const char *name;	/* control characters made '?'; in the
				   struct chstk_ar, until its next member */
};

/* An archive being read. */
struct chstk_ar {
	const struct chstk_src *src;
	uint64_t next;		/* offset of the next header */
	uint64_t names;		/* the long-name table: where it is, */
	uint64_t names_size;	/* and how long */
	bool names_read;	/* a small table: in names_buf */
	char names_buf[4096];
	char name[4097];	/* the member's name, cut at 4096 bytes */
};

/* What the first len bytes say: an ar archive, a thin one, a Debian
   package, or none. */
enum chstk_ar_magic {
	CHSTK_AR_NONE, CHSTK_AR_ARCHIVE, CHSTK_AR_THIN, CHSTK_AR_DEB,
};
enum chstk_ar_magic chstk__ar_magic(const unsigned char *buf, size_t len);
/* Refuses thin archives and Debian packages. */
int chstk__ar_open(struct chstk_ar *ar, const struct chstk_src *src,
    struct chstk_error *err);
/* The next member's header: 1 for a member, 0 at the end, or an error. */
int chstk__ar_next(struct chstk_ar *ar, struct chstk_ar_member *m,
    struct chstk_error *err);
/* A member's data as a source of its own, read in place. */
void chstk__ar_member_src(const struct chstk_ar *ar,
    const struct chstk_ar_member *m, struct chstk_src *out);
/* 0 when the member can be read whole into memory, or an error when its
   size does not fit in a size_t (a 32-bit host). */
int chstk__ar_fits_memory(const struct chstk_ar_member *m,
    struct chstk_error *err);

/* What a rewrite makes of one member. */
struct chstk_ar_plan {
	struct chstk_ar_member m;
	bool changed;		/* the new data is in the spool, */
	uint64_t spool_off;	/* here, */
	uint64_t new_size;	/* this long (BSD name excluded) */
	uint64_t new_hdr;	/* offset of the header in the output */
};
/* Write to out_fd the archive of ar's n members as planned, the symbol
   index moved with them. */
int chstk__ar_write(const struct chstk_ar *ar, struct chstk_ar_plan *p,
    size_t n, const struct chstk_src *spool, int out_fd,
    struct chstk_error *err);

/* scan.c: call fn for each image of src, an ELF file or archive, reading
   what o asks (o may be NULL). */
int chstk__scan(const struct chstk_src *src, const struct chstk_scan_opts *o,
    chstk_scan_fn fn, void *arg, struct chstk_error *err);

/* rewrite.c: apply op to the ELF file or archive src, writing the result
   to out_fd; 1 written, 0 nothing to change, or an error. */
int chstk__rewrite(const struct chstk_src *src, int out_fd, enum chstk_op op,
    struct chstk_result *res, struct chstk_error *err);

#endif /* CHSTK_INTERNAL_H */
