/*
 * read.c - the second stage: one file's images, read into a batch for the
 * judge. Its first bytes, its head (read here, or many files' at a time by
 * heads.c), say what the file is, and the library says which
 * of those it reads (chstk_format): an ELF file or ar archive goes to the
 * library whole, with the bytes already read; a package, wheel or tarball
 * goes to container.c, and a container image to oci.c, when it was named
 * on the command line or listed, or with -A; anything else is passed over
 * after its head is read, or an error when it was named (elfscan.h, enum
 * named). A file named as an image (oci-archive:FILE...) must be one. An
 * image named as a root (--system IMAGE) is read as one: each image it
 * holds gets a root of its own (system.h), whose verdicts follow its
 * files. With --hardening the library reads each image's other defences
 * too, and hands over its symbols and DWARF units (batch.c); an image
 * that gets an executable stack is read again for why (its DWARF, its
 * code), unless that was read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "container.h"
#include "elfscan.h"
#include "system.h"

/* The library's callback only collects: judging is the next stage's. */
static int
collect(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct batch *b = arg;

	if (info != NULL)
		batch_image(b, member, member != NULL, info);
	else
		batch_add(b, FOUND_MALFORMED, member, "%s", err->msg);
	return 0;
}

/* Does the image get an executable stack, so that the record says why? */
static bool
asks(const struct found *f)
{
	struct verdict v;

	if (f->kind != FOUND_IMAGE)
		return false;
	verdict_of(&f->info, 0, &v);
	return v.effective == EFF_EXEC;
}

/*
 * Every image of the file that gets an executable stack is read again for
 * why, whole: its DWARF, its notes, its code (the trampolines), unless
 * the first read did that. The images come in the same order; one that
 * does not (the file changed meanwhile) keeps what it had.
 */
static void
read_causes(struct batch *b, int fd)
{
	struct chstk_scan_opts so = { .read = CHSTK_READ_HARDENING |
	    CHSTK_READ_EVIDENCE | CHSTK_READ_CODE_SEARCH, .unit = batch_unit,
	    .regular = true };
	struct batch again = { .at = b->at, .evidence = true };
	struct chstk_error err;
	size_t i;
	bool need = false;

	for (i = 0; i < b->n; i++)
		need |= asks(&b->v[i]) && !(found_ev(&b->v[i])->looked &&
		    found_ev(&b->v[i])->code);
	if (!need)
		return;
	chstk_scan_fd_with(fd, &so, collect, &again, &err);
	for (i = 0; i < b->n && i < again.n; i++)
		if (asks(&b->v[i]) && again.v[i].kind == FOUND_IMAGE &&
		    (b->v[i].member == NULL) == (again.v[i].member == NULL) &&
		    (b->v[i].member == NULL ||
		    strcmp(b->v[i].member, again.v[i].member) == 0)) {
			free(b->v[i].ev);
			b->v[i].ev = again.v[i].ev;
			again.v[i].ev = NULL;
		}
	batch_clear(&again);
}

static void
read_library(struct batch *b, int fd, const unsigned char *head, size_t n,
    enum chstk_format format, const struct opts *o)
{
	struct chstk_scan_opts so = {
		.read = (o->hardening ? CHSTK_READ_HARDENING |
		    CHSTK_READ_CODE | CHSTK_READ_EVIDENCE : 0) |
		    (o->hardening && o->code ? CHSTK_READ_CODE_SEARCH : 0) |
		    (o->system ? CHSTK_READ_DYNAMIC : 0) | CHSTK_READ_WANT,
		.symbol = batch_symbol, .unit = batch_unit, .head = head,
		.head_len = n, .regular = true, .want = batch_want,
	};
	struct chstk_error err;
	int r;

	b->evidence = o->hardening;
	r = chstk_scan_fd_with(fd, &so, collect, b, &err);
	if (r >= 0)
		read_causes(b, fd);
	if (r == CHSTK_ERR_SYS || r == CHSTK_ERR_NOMEM)
		batch_add(b, FOUND_ERROR, NULL, "cannot read: %s",
		    r == CHSTK_ERR_SYS ? strerror(err.sys_errno) : err.msg);
	else if (r < 0 && format == CHSTK_FORMAT_AR)
		batch_add(b, FOUND_DAMAGED, NULL, "damaged archive: %s",
		    err.msg);
	else if (r < 0)
		batch_add(b, FOUND_MALFORMED, NULL, "%s", err.msg);
}

/* A container's members are judged one by one, as they are read; an
   image's judged as a root's files, in the root of its own (system.h). */
struct container_ctx {
	struct judge *j;
	const char *path;	/* the container, as the walk names it */
	size_t root;		/* of path, as struct where's */
	struct judge image;	/* j, in the root of the image being read
				   as one; sys NULL: none */
	bool findings;
};

/* The container names its members; where the file lies, the walk knows. */
static void
judge_member(void *arg, const struct batch *b)
{
	struct container_ctx *c = arg;
	struct batch in = *b;

	in.at.root = c->root;
	c->findings |= judge_batch(c->image.sys != NULL ? &c->image : c->j,
	    &in);
}

static void
root_begin(void *arg, const char *image, const struct tree *t)
{
	struct container_ctx *c = arg;

	c->image = *c->j;
	c->image.sys = system_open_image(c->path, image, t, c->j->o, c->j->r);
}

static void
root_done(void *arg)
{
	struct container_ctx *c = arg;

	system_judge(c->image.sys);
	system_close(c->image.sys);
	c->image.sys = NULL;
}

/* Where a container's members go: each image of it a root when it was
   named as one. */
static void
container_to(struct container_ctx *c, struct container_out *out,
    struct judge *j, const struct met *m)
{
	memset(c, 0, sizeof(*c));
	c->j = j;
	c->path = m->path;
	c->root = m->root;
	memset(out, 0, sizeof(*out));
	out->found = judge_member;
	out->arg = c;
	out->hardening = j->o->hardening;
	if (m->named == NAMED_ARG && j->image_root) {
		out->keep = system_keeps;
		out->root = root_begin;
		out->root_done = root_done;
	}
}

size_t
read_enough(const struct judge *j, enum named named)
{
	bool look_into = named != NAMED_NO || j->o->archives;

	return look_into && CONTAINER_HEAD > CHSTK_FORMAT_HEAD ?
	    CONTAINER_HEAD : CHSTK_FORMAT_HEAD;
}

ssize_t
read_on(int fd, unsigned char *head, size_t got, size_t enough)
{
	ssize_t n;

	while (got < READ_HEAD && got < enough) {
		n = pread(fd, head + got, READ_HEAD - got, (off_t)got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

void
read_head(struct judge *j, const struct head *h, const struct met *m)
{
	const char *path = m->path;
	struct batch b = { .at.path = path, .at.root = m->root };
	struct container_ctx c;
	struct container_out out;
	struct oci_select sel = { m->ref, j->o->platform };
	size_t n = h->n;
	enum chstk_format format;
	enum container kind;
	struct stat st;
	bool look_into = m->named != NAMED_NO || j->o->archives;

	container_to(&c, &out, j, m);
	if (h->fd == -1) {
		/* Gone, or replaced by a link, since the listing. */
		if (h->error != ENOENT && h->error != ELOOP) {
			batch_add(&b, FOUND_ERROR, NULL, "cannot open: %s",
			    strerror(h->error));
			judge_batch(j, &b);
			batch_clear(&b);
		}
		return;
	}
	stat_add(j->st, C_FILES);
	if (h->error != 0 && h->error != EISDIR)
		batch_add(&b, FOUND_ERROR, NULL, "cannot read: %s",
		    strerror(h->error));
	format = n > 0 ? chstk_format(h->bytes, n) : CHSTK_FORMAT_OTHER;
	kind = n > 0 ? container_kind(h->bytes, n) : CONTAINER_NONE;
	if (format == CHSTK_FORMAT_ELF && j->o->system &&
	    fstat(h->fd, &st) == 0) {
		b.dev = st.st_dev;
		b.ino = st.st_ino;
	}
	if (m->image && !(kind == CONTAINER_TAR && oci_is_archive(h->fd)))
		batch_add(&b, FOUND_ERROR, NULL, "not an image: neither an OCI archive nor a docker save tarball");
	else if (m->image)
		oci_scan(h->fd, false, path, &sel, &out);
	else if (format == CHSTK_FORMAT_ELF || format == CHSTK_FORMAT_AR)
		read_library(&b, h->fd, h->bytes, n, format, j->o);
	else if (kind == CONTAINER_TAR && look_into && oci_is_archive(h->fd))
		oci_scan(h->fd, false, path, &sel, &out);
	else if (kind != CONTAINER_NONE && look_into)
		container_scan(h->fd, path, kind, &out);
	else if (m->named == NAMED_ARG && h->error == 0)
		batch_add(&b, FOUND_ERROR, NULL, "not an ELF file");
	c.findings |= judge_batch(j, &b);
	batch_clear(&b);
	judge_file(j, path, c.findings);
}

void
read_file(struct judge *j, int dirfd, const char *name, const struct met *m)
{
	unsigned char bytes[READ_HEAD];
	struct head h = { .bytes = bytes };
	ssize_t n;

	do
		h.fd = openat(dirfd, name, READ_OPEN_FLAGS |
		    (m->follow ? 0 : O_NOFOLLOW));
	while (h.fd == -1 && errno == EINTR);
	if (h.fd == -1) {
		h.error = errno;
		read_head(j, &h, m);
		return;
	}
	n = read_on(h.fd, bytes, 0, read_enough(j, m->named));
	if (n == -1)
		h.error = errno;
	else
		h.n = (size_t)n;
	read_head(j, &h, m);
	close(h.fd);
}

void
read_layout(struct judge *j, int fd, const struct met *m)
{
	struct container_ctx c;
	struct container_out out;
	struct oci_select sel = { m->ref, j->o->platform };

	container_to(&c, &out, j, m);
	oci_scan(fd, true, m->path, &sel, &out);
	judge_file(j, m->path, c.findings);
}
