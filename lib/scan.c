/*
 * scan.c - the library's readers: chstk_scan_fd() and
 * chstk_scan_fd_with(), chstk_scan_mem(), chstk_scan_path() and
 * chstk_scan_stream(), and chstk_format(), which
 * tells a caller which files they read. A file is an ELF image or an ar
 * archive of them; an archive's members are read in place, and those that
 * are not ELF files are passed over.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* With CHSTK_READ_EVIDENCE: the DWARF and annobin's notes; with
   CHSTK_READ_CODE_SEARCH: the code. */
static int
read_evidence(const struct chstk_image *im, const struct chstk_scan_opts *o,
    void *arg, struct chstk_hardening_buf *h, struct chstk_error *err)
{
	struct chstk_annobin_value none = { -1, -1 };
	int r = 0;

	h->evidence_error[0] = '\0';
	h->h.evidence_error = h->evidence_error;
	if (!(o->read & CHSTK_READ_HARDENING))
		return 0;
	if (o->read & CHSTK_READ_EVIDENCE) {
		h->h.an_stack_prot = h->h.an_stack_clash = none;
		h->h.an_cf_full = h->h.an_fortify = none;
		h->h.an_glibcxx_assertions = h->h.an_optimize = none;
		h->h.an_lto = h->h.an_auto_var_init = none;
		r = chstk__dwarf_read(im, o, arg, h, err);
	}
	if (r == 0 && o->read & CHSTK_READ_CODE_SEARCH)
		r = chstk__code_scan(im, h, err);
	return r;
}

/* What the library keeps of an image until its callback has seen it. */
struct kept {
	struct chstk_hardening_buf *h;	/* NULL: the hardening not asked */
	struct chstk_sections sect;
};

/* What o asks of every image, and what its want asks of this one. */
static unsigned
reads_of(const struct chstk_scan_opts *o, void *arg,
    const struct chstk_info *info)
{
	unsigned read;

	if (o == NULL)
		return 0;
	read = o->read;
	if (read & CHSTK_READ_WANT && o->want != NULL)
		read |= o->want(arg, info);
	return read;
}

/*
 * The reads beyond the headers that read asks of im, whose info is read
 * but its kind. Only the hardening's errors count: what a want asked
 * for and cannot be read is left out.
 */
static int
read_more(struct chstk_image *im, const struct chstk_scan_opts *o,
    void *arg, unsigned read, struct chstk_info *info, struct kept *k,
    struct chstk_error *err)
{
	bool more = read & (CHSTK_READ_SECTIONS | CHSTK_READ_DYNSYM);
	int r = 0;

	if (more)
		chstk__image_sections(im, NULL);
	chstk__image_kind(im, info);
	if (k->h != NULL)
		r = chstk__hardening_read(im, info, o, arg, k->h, err);
	if (r == 0 && k->h != NULL)
		r = chstk__build_id(im, &k->h->h, err);
	if (r == 0 && k->h != NULL)
		r = read_evidence(im, o, arg, k->h, err);
	/* With the hardening, every symbol is handed over. */
	if (r == 0 && read & CHSTK_READ_DYNSYM &&
	    !(read & CHSTK_READ_HARDENING) &&
	    (r = chstk__dynsym_read(im, o, arg, NULL)) < 0)
		r = 0;
	if (im->shdrs_read) {
		k->sect = im->sect;
		info->sections = &k->sect;
	}
	return r;
}

/*
 * Read the image in src, with what o asks, into info (and what k keeps
 * until fn has seen it). 0, what o->symbol returned to stop, or an error.
 */
static int
read_image(const struct chstk_src *src, const struct chstk_scan_opts *o,
    void *arg, struct chstk_info *info, struct kept *k,
    struct chstk_error *err)
{
	struct chstk_image im;
	unsigned read;
	int r;

	r = chstk__image_open(&im, src, k->h == NULL ? 0 :
	    o->read & CHSTK_READ_HARDENING ? CHSTK_IMAGE_SYMBOLS :
	    CHSTK_IMAGE_DYNAMIC, err);
	if (r < 0)
		return r;
	chstk__image_info(&im, info);
	read = reads_of(o, arg, info);
	/* A program's sections with the hardening are read already. */
	r = read_more(&im, o, arg, read, info, k, err);
	chstk__image_close(&im);
	info->hardening = r == 0 && k->h != NULL ? &k->h->h : NULL;
	/* The linking read alone never makes an image unreadable, nor what
	   lies past the end of a file cut short: the image is reported, its
	   marking standing, without what could not be read. */
	if (r < 0 && r != CHSTK_ERR_SYS && r != CHSTK_ERR_NOMEM &&
	    (!(o->read & CHSTK_READ_HARDENING) ||
	    (r == CHSTK_ERR_TRUNCATED && info->cut))) {
		chstk__clear_error(err);
		r = 0;
	}
	/* The reading of the dynamic section forgives errors; a stream that
	   failed under it has not been read. */
	if (chstk__src_failed(src))
		return chstk__error(err, CHSTK_ERR_SYS, "the stream failed");
	return r;
}

/* What a scan reads, and what it keeps of each image. */
struct scan {
	const struct chstk_scan_opts *o;
	struct kept k;
	chstk_scan_fn fn;
	void *arg;
};

/* A member that cannot be read is the callback's to judge; one that is no
   ELF file is none of its business. */
static int
scan_member(struct scan *s, const struct chstk_ar *ar,
    const struct chstk_ar_member *m, struct chstk_error *err)
{
	struct chstk_info info;
	struct chstk_error merr;
	struct chstk_src src;
	int r;

	if (m->kind != CHSTK_AR_FILE)
		return 0;
	chstk__clear_error(&merr);
	chstk__ar_member_src(ar, m, &src);
	chstk__src_forget(ar->src, m->data);
	r = read_image(&src, s->o, s->arg, &info, &s->k, &merr);
	if (r == 0)
		return s->fn(s->arg, m->name, &info, NULL);
	if (r > 0)
		return r;
	if (chstk__src_failed(ar->src))
		return chstk__error(err, merr.code, "%s", merr.msg);
	return merr.code == CHSTK_ERR_NOT_ELF ? 0 :
	    s->fn(s->arg, m->name, NULL, &merr);
}

static int
scan_archive(struct scan *s, const struct chstk_src *src,
    struct chstk_error *err)
{
	struct chstk_ar_member m;
	struct chstk_ar ar;
	int r;

	r = chstk__ar_open(&ar, src, err);
	while (r == 0 && (r = chstk__ar_next(&ar, &m, err)) == 1) {
		r = scan_member(s, &ar, &m, err);
		chstk__src_forget(src, ar.next);
	}
	return r;
}

int
chstk__scan(const struct chstk_src *src, const struct chstk_scan_opts *o,
    chstk_scan_fn fn, void *arg, struct chstk_error *err)
{
	struct scan s = { .o = o, .fn = fn, .arg = arg };
	unsigned char magic[8];
	struct chstk_info info;
	size_t len;
	int r;

	if (fn == NULL)
		return chstk__error(err, CHSTK_ERR_INVAL, "no function to call");
	r = chstk__src_read_upto(src, 0, magic, sizeof(magic), &len,
	    "file header", err);
	if (r < 0)
		return r;
	/* Some 20 KiB of strings: on the heap, not a worker's stack. */
	if (o != NULL && o->read & (CHSTK_READ_HARDENING | CHSTK_READ_DYNAMIC) &&
	    (s.k.h = malloc(sizeof(*s.k.h))) == NULL)
		return chstk__syserror(err, "cannot read hardening");
	if (chstk__ar_magic(magic, len) != CHSTK_AR_NONE)
		r = scan_archive(&s, src, err);
	else if ((r = read_image(src, o, arg, &info, &s.k, err)) == 0)
		r = fn(arg, NULL, &info, NULL);
	free(s.k.h);
	return r;
}

int
chstk_scan_fd_with(int fd, const struct chstk_scan_opts *o, chstk_scan_fn fn,
    void *arg, struct chstk_error *err)
{
	struct chstk_cache cache;
	struct chstk_src src;
	int r;

	chstk__clear_error(err);
	if (o != NULL && o->head == NULL && o->head_len > 0)
		return chstk__error(err, CHSTK_ERR_INVAL, "no head to read");
	if (o != NULL && o->regular)
		chstk__src_regular(&src, fd);
	else if ((r = chstk__src_file(&src, fd, err)) < 0)
		return r;
	chstk__src_cache(&src, &cache, o != NULL ? o->head : NULL,
	    o != NULL ? o->head_len : 0);
	return chstk__scan(&src, o, fn, arg, err);
}

int
chstk_scan_mem_with(const void *buf, size_t size,
    const struct chstk_scan_opts *o, chstk_scan_fn fn, void *arg,
    struct chstk_error *err)
{
	struct chstk_src src;

	chstk__clear_error(err);
	chstk__src_mem(&src, buf, size);
	return chstk__scan(&src, o, fn, arg, err);
}

int
chstk_scan_fd(int fd, chstk_scan_fn fn, void *arg, struct chstk_error *err)
{
	return chstk_scan_fd_with(fd, NULL, fn, arg, err);
}

int
chstk_scan_mem(const void *buf, size_t size, chstk_scan_fn fn, void *arg,
    struct chstk_error *err)
{
	return chstk_scan_mem_with(buf, size, NULL, fn, arg, err);
}

int
chstk_scan_stream_with(chstk_read_fn read, void *read_arg, uint64_t size,
    const struct chstk_scan_opts *o, chstk_scan_fn fn, void *arg,
    struct chstk_error *err)
{
	struct chstk_stream *st;
	struct chstk_src src;
	int r;

	chstk__clear_error(err);
	if (read == NULL)
		return chstk__error(err, CHSTK_ERR_INVAL, "no function to read");
	r = chstk__stream_open(&st, read, read_arg, size, err);
	if (r < 0)
		return r;
	chstk__src_stream(&src, st, size);
	r = chstk__scan(&src, o, fn, arg, err);
	chstk__stream_close(st);
	return r;
}

int
chstk_scan_stream(chstk_read_fn read, void *read_arg, uint64_t size,
    chstk_scan_fn fn, void *arg, struct chstk_error *err)
{
	return chstk_scan_stream_with(read, read_arg, size, NULL, fn, arg,
	    err);
}

enum chstk_format
chstk_format(const void *head, size_t n)
{
	if (chstk__is_elf(head, n))
		return CHSTK_FORMAT_ELF;
	switch (chstk__ar_magic(head, n)) {
	case CHSTK_AR_ARCHIVE:
		return CHSTK_FORMAT_AR;
	case CHSTK_AR_DEB:
		return CHSTK_FORMAT_DEB;
	default:
		return CHSTK_FORMAT_OTHER;
	}
}

int
chstk_scan_path(const char *path, chstk_scan_fn fn, void *arg,
    struct chstk_error *err)
{
	struct stat st;
	int fd, r;

	chstk__clear_error(err);
	/* Look before opening: opening a device can have effects. */
	if (stat(path, &st) == -1)
		return chstk__syserror(err, "cannot open");
	if (!S_ISREG(st.st_mode))
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "not a regular file");
	/* O_NONBLOCK: if it became a FIFO meanwhile, do not wait. */
	fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd == -1)
		return chstk__syserror(err, "cannot open");
	r = chstk_scan_fd(fd, fn, arg, err);
	close(fd);
	return r;
}
