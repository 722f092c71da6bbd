/*
 * member.c - one ELF image read out of a stream (a member of a package or
 * tarball), keeping only what the verdict needs, in bounded memory.
 *
 * A stream cannot seek back, so what to keep is decided as the bytes go
 * by. The library reads the ELF header and program headers of every
 * image, the dynamic section of an ET_DYN (to tell a PIE from a library)
 * and the section headers and section names of an object (chstk_scan_mem
 * in chstk.h). The header and program headers are at the start, kept in
 * a prefix; the dynamic section may be far in (the data segment of a big
 * library) and is kept as a second piece; an object, whose section headers
 * are at the end and whose name table may be anywhere, is kept whole.
 * Nothing kept may exceed MEMBER_MAX bytes. (An ar archive is read as a
 * container, member by member: container.c.) With --hardening the
 * library reads the symbol tables too, which may lie anywhere: the member
 * is kept whole.
 *
 * The library then reads the member cut where the kept pieces end: it
 * refuses only ranges that run past an image's end, and every range it
 * reads was kept (or lay past the member's end, and is refused either
 * way), so its answers are those it gives on the whole member. When the
 * dynamic section is a piece of its own, the copy is sparse: a read-only
 * anonymous mapping in which only the pages of the pieces are made
 * writable and filled; the gap reads as zeros and costs no memory. Should
 * the library come to read more of an image, this must keep it too:
 * tests/elfscan/containers.sh compares what comes out with readelf on the
 * unpacked files.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "elfscan.h"

/* What is known of the member, and the pieces kept of it. */
struct image {
	const struct stream *s;
	unsigned char *buf;	/* bytes [0, len) of the member */
	size_t len, cap;
	unsigned char *dyn;	/* bytes [dyn_off, dyn_off + dyn_len), when
				   they lie past the prefix */
	uint64_t dyn_off;
	size_t dyn_len;
	uint64_t pos;		/* bytes read from the stream */
	bool end;		/* the stream ended at pos */
	char *msg;		/* why the member could not be read */
	size_t msglen;
};

enum { READ_OK = 0, READ_STREAM = -1, READ_LIMIT = -2 };
#define TO_END UINT64_MAX

/* Read from the stream into p; 0 at its end, READ_STREAM on a failure. */
static ssize_t
pull(struct image *im, void *p, size_t len)
{
	ssize_t n;

	if (im->end || len == 0)
		return 0;
	n = im->s->read(im->s->arg, p, len);
	if (n < 0)
		return READ_STREAM;
	if (n == 0)
		im->end = true;
	im->pos += (uint64_t)n;
	return n;
}

static int
too_big(struct image *im, uint64_t want)
{
	if (want == TO_END)
		snprintf(im->msg, im->msglen, "cannot scan member: more than "
		    "%u bytes to buffer", MEMBER_MAX);
	else
		snprintf(im->msg, im->msglen, "cannot scan member: %ju bytes "
		    "to buffer, more than %u", (uintmax_t)want, MEMBER_MAX);
	return READ_LIMIT;
}

/* Extend the prefix to [0, want), or to the end of the stream. */
static int
prefix_to(struct image *im, uint64_t want)
{
	unsigned char *nb;
	size_t cap;
	ssize_t n;

	if (want > im->s->size)
		want = im->s->size;
	if (want != TO_END && want > MEMBER_MAX)
		return too_big(im, want);
	while (im->len < want && !im->end) {
		if (im->len == im->cap) {
			if (im->cap >= MEMBER_MAX)
				return too_big(im, want);
			/* Known sizes at once: no copies, no slack. */
			cap = want != TO_END ? (size_t)want :
			    im->cap < MEMBER_MAX / 2 ? 2 * im->cap : MEMBER_MAX;
			if ((nb = realloc(im->buf, cap)) == NULL)
				return too_big(im, want);
			im->buf = nb;
			im->cap = cap;
		}
		n = pull(im, im->buf + im->len, want - im->len <
		    im->cap - im->len ? (size_t)(want - im->len) :
		    im->cap - im->len);
		if (n < 0)
			return READ_STREAM;
		im->len += (size_t)n;
	}
	return READ_OK;
}

/* Read and drop bytes up to offset off (or the end); scratch is lent. */
static int
skip_to(struct image *im, uint64_t off, unsigned char *scratch, size_t len)
{
	ssize_t n = 1;

	while (im->pos < off && n > 0)
		n = pull(im, scratch, off - im->pos < len ?
		    (size_t)(off - im->pos) : len);
	return n < 0 ? READ_STREAM : READ_OK;
}

/* The ELF header fields that say what else to keep. */
struct ehdr {
	bool is64, msb;
	unsigned type, phentsize, phnum;
	uint64_t phoff;
};

static uint64_t
get(const unsigned char *p, unsigned n, bool msb)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[msb ? i : n - 1 - i];
	return v;
}

/* 0, or -1 when the header is not one the library would read further. */
static int
parse_ehdr(const unsigned char *b, size_t n, struct ehdr *h)
{
	if (n < EI_NIDENT || (b[EI_CLASS] != ELFCLASS32 &&
	    b[EI_CLASS] != ELFCLASS64) || (b[EI_DATA] != ELFDATA2LSB &&
	    b[EI_DATA] != ELFDATA2MSB))
		return -1;
	h->is64 = b[EI_CLASS] == ELFCLASS64;
	h->msb = b[EI_DATA] == ELFDATA2MSB;
	if (n < (h->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return -1;
	h->type = (unsigned)get(b + 16, 2, h->msb);
	h->phoff = h->is64 ? get(b + 32, 8, h->msb) : get(b + 28, 4, h->msb);
	h->phentsize = (unsigned)get(b + (h->is64 ? 54 : 42), 2, h->msb);
	h->phnum = (unsigned)get(b + (h->is64 ? 56 : 44), 2, h->msb);
	return 0;
}

/* The first PT_DYNAMIC (the one the library reads): offset and size. */
static bool
find_dynamic(const struct image *im, const struct ehdr *h, uint64_t *off,
    uint64_t *size)
{
	size_t es = h->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	unsigned i;

	for (i = 0; i < h->phnum; i++) {
		const unsigned char *p = im->buf + h->phoff + (uint64_t)i * es;

		if (get(p, 4, h->msb) != PT_DYNAMIC)
			continue;
		*off = h->is64 ? get(p + 8, 8, h->msb) : get(p + 4, 4, h->msb);
		*size = h->is64 ? get(p + 32, 8, h->msb) :
		    get(p + 16, 4, h->msb);
		return true;
	}
	return false;
}

/* Keep the dynamic section: in the prefix when it starts there, else as
   a piece of its own. One running past the member's end is the library's
   to refuse, as in a truncated file. */
static int
keep_dynamic(struct image *im, const struct ehdr *h, unsigned char *scratch,
    size_t scratch_len)
{
	uint64_t off, size;
	ssize_t n = 1;
	int r;

	if (!find_dynamic(im, h, &off, &size) || size == 0 ||
	    off >= im->s->size || size > im->s->size - off)
		return READ_OK;
	if (off <= im->len)
		return prefix_to(im, off + size);
	if (size > MEMBER_MAX - im->len || off > SIZE_MAX - size)
		return too_big(im, im->len + size);
	r = skip_to(im, off, scratch, scratch_len);
	if (r < 0 || im->pos < off)
		return r;
	if ((im->dyn = malloc((size_t)size)) == NULL)
		return too_big(im, im->len + size);
	im->dyn_off = off;
	while (im->dyn_len < size && (n = pull(im, im->dyn + im->dyn_len,
	    (size_t)size - im->dyn_len)) > 0)
		im->dyn_len += (size_t)n;
	return n < 0 ? READ_STREAM : READ_OK;
}

/* Read what the library will read of an ELF image, as its header says. */
static int
gather(struct image *im, unsigned char *scratch, size_t scratch_len)
{
	struct ehdr h;
	uint64_t end;
	size_t es;
	int r;

	r = prefix_to(im, sizeof(Elf64_Ehdr));
	if (r < 0 || parse_ehdr(im->buf, im->len, &h) < 0)
		return r;
	/* Objects, and programs counting their headers in section 0. */
	if (h.type == ET_REL || h.phnum == PN_XNUM)
		return prefix_to(im, TO_END);
	es = h.is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	if (h.phnum == 0 || h.phentsize != es || h.phoff >= im->s->size ||
	    (uint64_t)h.phnum * es > im->s->size - h.phoff)
		return READ_OK;
	end = h.phoff + (uint64_t)h.phnum * es;
	r = prefix_to(im, end);
	if (r < 0 || im->len < end || h.type != ET_DYN)
		return r;
	return keep_dynamic(im, &h, scratch, scratch_len);
}

/* Make [off, off + len) of the mapping writable and copy p there. */
static int
place(unsigned char *map, uint64_t off, const void *p, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)map + (uintptr_t)off) & ~(page - 1);
	uintptr_t end = ((uintptr_t)map + (uintptr_t)off + len + page - 1) &
	    ~(page - 1);

	if (len == 0)
		return 0;
	if (mprotect((void *)start, end - start, PROT_READ | PROT_WRITE) == -1)
		return -1;
	memcpy(map + off, p, len);
	return 0;
}

/* The member up to the end of the kept pieces: the prefix, or a sparse
   mapping of size bytes. NULL with msg set when it cannot be made. */
static unsigned char *
copy_of(struct image *im, size_t size)
{
	unsigned char *map;

	if (im->dyn == NULL)
		return im->buf;
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
	    MAP_NORESERVE, -1, 0);
	if (map != MAP_FAILED && place(map, 0, im->buf, im->len) == 0 &&
	    place(map, im->dyn_off, im->dyn, im->dyn_len) == 0)
		return map;
	snprintf(im->msg, im->msglen, "cannot scan member: cannot map %zu "
	    "bytes: %s", size, strerror(errno));
	if (map != MAP_FAILED)
		munmap(map, size);
	return NULL;
}

/*
 * Scan the ELF image whose first n bytes are head (ended: the stream holds
 * no more) and whose rest comes from s; fn is called once, with info NULL
 * when the image is malformed. Returns 0; -1 when the stream failed (its
 * owner says why); -2 when the member cannot be scanned within the limits,
 * msg saying why. The stream is left anywhere in the member.
 */
int
member_scan(const struct stream *s, const unsigned char *head, size_t n,
    bool ended, const struct chstk_scan_opts *o, chstk_scan_fn fn, void *arg,
    char *msg, size_t msglen)
{
	struct image im = { .s = s, .pos = n, .end = ended, .msg = msg,
	    .msglen = msglen, .cap = n > 4096 ? n : 4096 };
	unsigned char scratch[16384], *copy;
	struct chstk_error err;
	size_t size;
	int r, rc;

	if ((im.buf = malloc(im.cap)) == NULL)
		return too_big(&im, n);
	memcpy(im.buf, head, n);
	im.len = n;
	/* The symbol tables and their names may lie anywhere. */
	r = o->read & CHSTK_READ_HARDENING ? prefix_to(&im, TO_END) :
	    gather(&im, scratch, sizeof(scratch));
	/* The dynamic piece lies within the bytes read: its end fits. */
	size = im.dyn != NULL ? (size_t)(im.dyn_off + im.dyn_len) : im.len;
	if (r == READ_OK && (copy = copy_of(&im, size)) == NULL)
		r = READ_LIMIT;
	if (r == READ_OK) {
		rc = chstk_scan_mem_with(copy, size, o, fn, arg, &err);
		if (copy != im.buf)
			munmap(copy, size);
		if (rc == CHSTK_ERR_NOMEM || rc == CHSTK_ERR_SYS) {
			snprintf(msg, msglen, "cannot scan member: %s",
			    err.msg);
			r = READ_LIMIT;
		} else if (rc < 0 && rc != CHSTK_ERR_UNSUPPORTED) {
			fn(arg, NULL, NULL, &err);
		}
	}
	free(im.buf);
	free(im.dyn);
	return r;
}
