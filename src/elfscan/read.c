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
#include "store.h"
#include "system.h"

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

/* ... and was its why not read with it? */
static bool
asks_again(const struct found *f)
{
	return asks(f) && !(found_ev(f)->looked && found_ev(f)->code);
}

/*
 * A file the library reads is judged image by image as they come, so that
 * an archive's thousands of members never wait for the last one. From the
 * first image that asks for a second read (asks_again) on, they wait, in
 * their order, for it (read_causes). The library's other callbacks
 * (batch_symbol...) take the reading as its batch, its first member.
 */
struct reading {
	struct batch b;
	struct judge *j;
	size_t passed;		/* the library's images (or what of them it
				   could not read) judged and let go */
	bool held;		/* from one that asks again on, they wait */
	bool findings;
};

/* The library's callback only collects: judging is the next stage's. */
static void
collect(struct batch *b, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	if (info != NULL)
		batch_image(b, member, member != NULL, info);
	else
		batch_add(b, FOUND_MALFORMED, member, "%s", err->msg);
}

static int
collect_judging(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct reading *r = arg;

	collect(&r->b, member, info, err);
	r->held |= asks_again(&r->b.v[r->b.n - 1]);
	if (!r->held) {
		r->findings |= judge_batch(r->j, &r->b);
		r->passed += r->b.n;
		batch_drop(&r->b);
	}
	return 0;
}

/* The second read: the file's k-th image is the waiting held->v[k -
   passed], matched as it comes, and let go. */
struct again {
	struct batch b;		/* first, as struct reading's */
	struct batch *held;
	size_t passed, k;
};

static int
collect_again(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct again *a = arg;
	struct found *f, *g;

	collect(&a->b, member, info, err);
	g = &a->b.v[0];
	if (a->k >= a->passed && a->k - a->passed < a->held->n) {
		f = &a->held->v[a->k - a->passed];
		if (asks(f) && g->kind == FOUND_IMAGE &&
		    (f->member == NULL) == (g->member == NULL) &&
		    (f->member == NULL || strcmp(f->member, g->member) == 0)) {
			free(f->ev);
			f->ev = g->ev;
			g->ev = NULL;
		}
	}
	a->k++;
	batch_drop(&a->b);
	return 0;
}

/*
 * Every waiting image of the file that gets an executable stack is read
 * again for why, whole: its DWARF, its notes, its code (the trampolines).
 * The images come in the same order; one that does not (the file changed
 * meanwhile) keeps what it had.
 */
static void
read_causes(struct reading *r, int fd)
{
	struct chstk_scan_opts so = { .read = CHSTK_READ_HARDENING |
	    CHSTK_READ_EVIDENCE | CHSTK_READ_CODE_SEARCH, .unit = batch_unit,
	    .regular = true };
	struct again a = { .b = { .at = r->b.at, .evidence = true },
	    .held = &r->b, .passed = r->passed };
	struct chstk_error err;

	if (!r->held)
		return;
	chstk_scan_fd_with(fd, &so, collect_again, &a, &err);
	batch_clear(&a.b);
}

/* Returns whether an image judged on the way has a finding; the rest
   wait in b, which holds nothing yet (a head that could not be read is
   no ELF file or archive). */
static bool
read_library(struct judge *j, struct batch *b, int fd,
    const unsigned char *head, size_t n, enum chstk_format format)
{
	const struct opts *o = j->o;
	struct chstk_scan_opts so = {
		.read = (o->hardening ? CHSTK_READ_HARDENING |
		    CHSTK_READ_CODE | CHSTK_READ_EVIDENCE : 0) |
		    (o->hardening && o->code ? CHSTK_READ_CODE_SEARCH : 0) |
		    (o->system ? CHSTK_READ_DYNAMIC : 0) | CHSTK_READ_WANT,
		.symbol = batch_symbol, .unit = batch_unit, .head = head,
		.head_len = n, .regular = true, .want = batch_want,
	};
	struct reading r = { .b = *b, .j = j };
	struct chstk_error err;
	int e;

	r.b.evidence = o->hardening;
	e = chstk_scan_fd_with(fd, &so, collect_judging, &r, &err);
	if (e >= 0)
		read_causes(&r, fd);
	*b = r.b;
	if (e == CHSTK_ERR_SYS || e == CHSTK_ERR_NOMEM)
		batch_add(b, FOUND_ERROR, NULL, "cannot read: %s",
		    e == CHSTK_ERR_SYS ? strerror(err.sys_errno) : err.msg);
	else if (e < 0 && format == CHSTK_FORMAT_AR)
		batch_add(b, FOUND_DAMAGED, NULL, "damaged archive: %s",
		    err.msg);
	else if (e < 0)
		batch_add(b, FOUND_MALFORMED, NULL, "%s", err.msg);
	return r.findings;
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

/* A package's file that is no ELF file, kept with its records for the
   suite's services (units.c reads them): but the links of the
   documentation, half a package's, which no program or unit is found
   through. */
static void
package_file(void *arg, const struct container_file *f)
{
	static const char *const docs[] = { "usr/share/doc/",
	    "usr/share/man/", "usr/share/info/", "usr/share/locale/" };
	struct container_ctx *c = arg;
	size_t i;

	for (i = 0; f->type == CFILE_LINK && i < sizeof(docs) /
	    sizeof(docs[0]); i++)
		if (strncmp(f->name, docs[i], strlen(docs[i])) == 0)
			return;
	store_file(c->j->store, c->path, f);
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
	/* A store keeps each image's sonames, for the suite's verdicts. */
	out->dynamic = j->store != NULL;
	if (j->store != NULL) {
		out->file = package_file;
		out->keep = units_keeps;
	}
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
	struct container_digest digest = { .whole = false };
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
		c.findings |= read_library(j, &b, h->fd, h->bytes, n,
		    format);
	else if (kind == CONTAINER_TAR && look_into && oci_is_archive(h->fd))
		oci_scan(h->fd, false, path, &sel, &out);
	/* A store's package is read once: its digest as it goes. */
	else if (kind != CONTAINER_NONE && look_into && j->store != NULL)
		container_scan_hashed(h->fd, path, kind, &out, &digest);
	else if (kind != CONTAINER_NONE && look_into)
		container_scan(h->fd, path, kind, &out);
	else if (m->named == NAMED_ARG && h->error == 0)
		batch_add(&b, FOUND_ERROR, NULL, "not an ELF file");
	c.findings |= judge_batch(j, &b);
	batch_clear(&b);
	judge_file(j, path, c.findings, digest.whole ? &digest : NULL);
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
	judge_file(j, m->path, c.findings, NULL);
}
