/*
 * rewrite.c - chstk_rewrite_fd(): an ELF file, or every ELF member of an ar
 * archive, rewritten with a new marking to another file, then read back:
 * a result that does not read back as asked is an error, not a file.
 *
 * An archive's ELF members are read whole into memory one at a time and
 * rewritten into a spool (a memfd); archive.c then writes the archive
 * anew, taking the changed members from the spool and the others from the
 * original.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

static int
write_image(struct chstk_image *im, enum chstk_state want, int out_fd,
    struct chstk_error *err)
{
	struct chstk_edit ed = { 0 };
	int r;

	switch (im->ehdr.e_type) {
	case ET_EXEC:
	case ET_DYN:
		r = chstk__phdr_edit(im, want, &ed, err);
		if (r == 0)
			r = chstk__edit_write(&ed, im->src, out_fd, err);
		chstk__edit_free(&ed);
		return r;
	case ET_REL:
		return chstk__object_write(im, want, out_fd, err);
	case ET_CORE:
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "cannot mark a core file");
	default:
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "cannot mark an ELF file of type %#x", im->ehdr.e_type);
	}
}

/* Read back what was written: it must parse and carry the new state. */
static int
verify_image(int out_fd, enum chstk_state want, struct chstk_error *err)
{
	struct chstk_src out;
	struct chstk_image im;
	int r;

	r = chstk__src_file(&out, out_fd, err);
	if (r == 0)
		r = chstk__image_open(&im, &out, CHSTK_IMAGE_SECTIONS, err);
	if (r < 0) {
		char why[sizeof(err->msg)] = "";

		if (err != NULL)
			memcpy(why, err->msg, sizeof(why));
		return chstk__error(err, CHSTK_ERR_CHANGED,
		    "the rewritten file does not read back: %s", why);
	}
	r = im.state == want ? 0 : chstk__error(err, CHSTK_ERR_CHANGED,
	    "the rewritten file reads back as %s, not %s",
	    chstk_state_name(im.state), chstk_state_name(want));
	chstk__image_close(&im);
	return r;
}

static int
rewrite_elf(const struct chstk_src *src, int out_fd, enum chstk_op op,
    struct chstk_result *res, struct chstk_error *err)
{
	struct chstk_image im;
	enum chstk_state want;
	bool change;
	int r;

	r = chstk__image_open(&im, src, CHSTK_IMAGE_SECTIONS, err);
	if (r < 0)
		return r;
	res->images++;
	want = chstk_op_result(op, im.state);
	change = want != im.state;
	if (change)
		r = write_image(&im, want, out_fd, err);
	chstk__image_close(&im);
	if (r < 0 || !change)
		return r;
	r = verify_image(out_fd, want, err);
	if (r < 0)
		return r;
	res->changed++;
	return 1;
}

/* An archive being rewritten: the plan of every member, and the spool. */
struct rewrite {
	struct chstk_ar ar;
	struct chstk_ar_plan *p;
	size_t n, cap;
	int spool;
	uint64_t spool_size;
};

/* The member's data in memory, when it is an ELF file; NULL otherwise. */
static unsigned char *
load_elf_member(const struct rewrite *rw, const struct chstk_ar_member *m,
    int *r, struct chstk_error *err)
{
	unsigned char magic[SELFMAG], *buf;

	*r = 0;
	if (m->kind != CHSTK_AR_FILE || m->size < SELFMAG)
		return NULL;
	*r = chstk__src_read(rw->ar.src, m->data, magic, SELFMAG, "member",
	    err);
	if (*r < 0 || !chstk__is_elf(magic, SELFMAG))
		return NULL;
	*r = chstk__ar_fits_memory(m, err);
	if (*r < 0)
		return NULL;
	buf = malloc((size_t)m->size);
	if (buf == NULL) {
		*r = chstk__syserror(err, "member %s: cannot read", m->name);
		return NULL;
	}
	*r = chstk__src_read(rw->ar.src, m->data, buf, (size_t)m->size,
	    "member", err);
	if (*r < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Prefix err's message with the member's name. */
static int
member_error(const struct chstk_ar_member *m, int r, struct chstk_error *err)
{
	char msg[sizeof(err->msg)];

	if (err == NULL)
		return r;
	memcpy(msg, err->msg, sizeof(msg));
	snprintf(err->msg, sizeof(err->msg), "member %.200s: %.260s", m->name,
	    msg);
	return r;
}

/* Rewrite one ELF member into the spool. */
static int
rewrite_member(struct rewrite *rw, struct chstk_ar_plan *p, enum chstk_op op,
    struct chstk_result *res, struct chstk_error *err)
{
	struct chstk_result mres = { 0 };
	struct chstk_src msrc, out;
	unsigned char *buf;
	int r, fd;

	buf = load_elf_member(rw, &p->m, &r, err);
	if (buf == NULL)
		return r;
	fd = memfd_create("chstk-member", MFD_CLOEXEC);
	if (fd == -1) {
		free(buf);
		return chstk__syserror(err, "cannot create temporary file");
	}
	chstk__src_mem(&msrc, buf, (size_t)p->m.size);
	r = rewrite_elf(&msrc, fd, op, &mres, err);
	res->images += mres.images;
	if (r == 1) {
		res->changed += mres.changed;
		r = chstk__src_file(&out, fd, err);
		if (r == 0)
			r = chstk__src_copy_range(&out, 0, out.size, rw->spool,
			    rw->spool_size, err);
		if (r == 0) {
			p->changed = true;
			p->new_size = out.size;
			p->spool_off = rw->spool_size;
			rw->spool_size += out.size;
		}
	}
	close(fd);
	free(buf);
	return r < 0 ? member_error(&p->m, r, err) : 0;
}

/* Read every member, rewriting the ELF ones into the spool. */
static int
plan_members(struct rewrite *rw, enum chstk_op op, struct chstk_result *res,
    struct chstk_error *err)
{
	struct chstk_ar_member m;
	int r;

	while ((r = chstk__ar_next(&rw->ar, &m, err)) == 1) {
		struct chstk_ar_plan *p;

		if (rw->n == rw->cap) {
			size_t cap = rw->cap ? rw->cap * 2 : 64;
			struct chstk_ar_plan *np = realloc(rw->p,
			    cap * sizeof(*np));

			if (np == NULL)
				return chstk__syserror(err,
				    "cannot read the archive");
			rw->p = np;
			rw->cap = cap;
		}
		p = &rw->p[rw->n++];
		memset(p, 0, sizeof(*p));
		p->m = m;
		p->new_size = m.size;
		r = rewrite_member(rw, p, op, res, err);
		if (r < 0)
			return r;
	}
	return r;
}

/* A rewritten archive must read back with every ELF member readable. */
struct count {
	unsigned images, bad;
};

static int
count_image(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct count *c = arg;

	(void)member, (void)err;
	c->images++;
	c->bad += info == NULL;
	return 0;
}

static int
verify_archive(int out_fd, unsigned images, struct chstk_error *err)
{
	struct count c = { 0, 0 };
	struct chstk_src out;
	int r;

	r = chstk__src_file(&out, out_fd, err);
	if (r == 0)
		r = chstk__scan(&out, NULL, count_image, &c, err);
	if (r < 0 || c.images != images || c.bad > 0)
		return chstk__error(err, CHSTK_ERR_CHANGED,
		    "the rewritten archive does not read back");
	return 0;
}

static int
rewrite_archive(const struct chstk_src *src, int out_fd, enum chstk_op op,
    struct chstk_result *res, struct chstk_error *err)
{
	struct rewrite rw = { .spool = -1 };
	int r;

	r = chstk__ar_open(&rw.ar, src, err);
	if (r < 0)
		return r;
	rw.spool = memfd_create("chstk-spool", MFD_CLOEXEC);
	if (rw.spool == -1)
		r = chstk__syserror(err, "cannot create temporary file");
	if (r == 0)
		r = plan_members(&rw, op, res, err);
	if (r == 0 && res->changed > 0) {
		struct chstk_src spool = { .fd = rw.spool,
		    .size = rw.spool_size };

		r = chstk__ar_write(&rw.ar, rw.p, rw.n, &spool, out_fd, err);
		if (r == 0)
			r = verify_archive(out_fd, res->images, err);
		if (r == 0)
			r = 1;
	}
	if (rw.spool != -1)
		close(rw.spool);
	free(rw.p);
	return r;
}

int
chstk__rewrite(const struct chstk_src *src, int out_fd, enum chstk_op op,
    struct chstk_result *res, struct chstk_error *err)
{
	unsigned char magic[8];
	size_t len = src->size < sizeof(magic) ? (size_t)src->size :
	    sizeof(magic);
	int r;

	if (!chstk__valid_op(op))
		return chstk__error(err, CHSTK_ERR_INVAL, "unknown operation");
	r = chstk__src_read(src, 0, magic, len, "file header", err);
	if (r < 0)
		return r;
	if (chstk__ar_magic(magic, len) != CHSTK_AR_NONE)
		return rewrite_archive(src, out_fd, op, res, err);
	return rewrite_elf(src, out_fd, op, res, err);
}

int
chstk_rewrite_fd(int in_fd, int out_fd, enum chstk_op op,
    struct chstk_result *res, struct chstk_error *err)
{
	struct chstk_result local;
	struct chstk_src src;
	int r;

	if (res == NULL)
		res = &local;
	memset(res, 0, sizeof(*res));
	chstk__clear_error(err);
	r = chstk__src_file(&src, in_fd, err);
	if (r < 0)
		return r;
	r = chstk__rewrite(&src, out_fd, op, res, err);
	res->written = r == 1;
	return r;
}
