/*
 * rewrite.c - the library's entry points for reading and rewriting, and the
 * dispatch between ELF images and archives.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

const char *
chstk_version(void)
{
	return PACKAGE_VERSION;
}

const char *
chstk_state_name(enum chstk_state state)
{
	switch (state) {
	case CHSTK_EXEC:
		return "exec";
	case CHSTK_NOEXEC:
		return "noexec";
	default:
		return "default";
	}
}

enum chstk_state
chstk_op_result(enum chstk_op op, enum chstk_state now)
{
	switch (op) {
	case CHSTK_OP_SET_EXEC:
		return CHSTK_EXEC;
	case CHSTK_OP_SET_NOEXEC:
		return CHSTK_NOEXEC;
	case CHSTK_OP_CLEAR_EXEC:
		return now == CHSTK_EXEC ? CHSTK_DEFAULT : now;
	case CHSTK_OP_CLEAR_NOEXEC:
		return now == CHSTK_NOEXEC ? CHSTK_DEFAULT : now;
	case CHSTK_OP_SET_DEFAULT:
		return CHSTK_DEFAULT;
	}
	return now;
}

int
chstk__valid_op(enum chstk_op op)
{
	return op >= CHSTK_OP_SET_EXEC && op <= CHSTK_OP_SET_DEFAULT;
}

void
chstk__edit_free(struct chstk_edit *ed)
{
	unsigned i;

	for (i = 0; i < ed->npatch; i++)
		free(ed->patch[i].buf);
	ed->npatch = 0;
}

int
chstk__edit_add(struct chstk_edit *ed, uint64_t off, size_t len,
    struct chstk_error *err)
{
	unsigned char *buf;

	if (ed->npatch == CHSTK_MAX_PATCHES)
		return chstk__error(err, CHSTK_ERR_INVAL, "too many patches");
	buf = calloc(1, len ? len : 1);
	if (buf == NULL)
		return chstk__syserror(err, "cannot plan the change");
	ed->patch[ed->npatch].off = off;
	ed->patch[ed->npatch].len = len;
	ed->patch[ed->npatch].buf = buf;
	ed->npatch++;
	return 0;
}

int
chstk__edit_write(const struct chstk_edit *ed, const struct chstk_src *src,
    int out_fd, struct chstk_error *err)
{
	unsigned i;
	int r;

	r = chstk__src_copy(src, out_fd, err);
	for (i = 0; r == 0 && i < ed->npatch; i++)
		r = chstk__pwrite_all(out_fd, ed->patch[i].buf,
		    ed->patch[i].len, ed->patch[i].off, err);
	return r;
}

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
verify(int out_fd, enum chstk_state want, struct chstk_error *err)
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

int
chstk__rewrite_elf(const struct chstk_src *src, int out_fd, enum chstk_op op,
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
	r = verify(out_fd, want, err);
	if (r < 0)
		return r;
	res->changed++;
	return 1;
}

static int
read_magic(const struct chstk_src *src, unsigned char *magic, size_t *len,
    struct chstk_error *err)
{
	*len = src->size < 8 ? (size_t)src->size : 8;
	return chstk__src_read(src, 0, magic, *len, "file header", err);
}

/*
 * Read the image in src and report it to fn as member: its info, with what
 * o asks; an image that cannot be read is reported when report_bad, else
 * its error returned.
 */
int
chstk__scan_image(const struct chstk_src *src, const char *member,
    const struct chstk_scan_opts *o, bool report_bad, chstk_scan_fn fn,
    void *arg, struct chstk_error *err)
{
	struct chstk_hardening *h = NULL;
	struct chstk_image im;
	struct chstk_info info;
	bool hard = o != NULL && o->read & CHSTK_READ_HARDENING;
	int r;

	r = chstk__image_open(&im, src, hard ? CHSTK_IMAGE_SYMBOLS : 0, err);
	if (r < 0)
		return report_bad && r != CHSTK_ERR_NOT_ELF ?
		    fn(arg, member, NULL, err) : r;
	chstk__image_info(&im, &info);
	if (hard && (h = malloc(sizeof(*h))) == NULL)
		r = chstk__syserror(err, "cannot read hardening");
	if (r == 0 && hard)
		r = chstk__hardening_read(&im, o, arg, h, err);
	chstk__image_close(&im);
	info.hardening = h;
	if (r == 0)
		r = fn(arg, member, &info, NULL);
	else if (r < 0 && report_bad)
		r = fn(arg, member, NULL, err);
	free(h);
	return r;
}

int
chstk__scan(const struct chstk_src *src, const struct chstk_scan_opts *o,
    chstk_scan_fn fn, void *arg, struct chstk_error *err)
{
	unsigned char magic[8];
	size_t len;
	int r;

	if (fn == NULL)
		return chstk__error(err, CHSTK_ERR_INVAL, "no function to call");
	r = read_magic(src, magic, &len, err);
	if (r < 0)
		return r;
	if (chstk__is_archive(magic, len))
		return chstk__archive_scan(src, o, fn, arg, err);
	return chstk__scan_image(src, NULL, o, false, fn, arg, err);
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
		r = chstk__archive_scan(&out, NULL, count_image, &c, err);
	if (r < 0 || c.images != images || c.bad > 0)
		return chstk__error(err, CHSTK_ERR_CHANGED,
		    "the rewritten archive does not read back");
	return 0;
}

int
chstk__rewrite(const struct chstk_src *src, int out_fd, enum chstk_op op,
    struct chstk_result *res, struct chstk_error *err)
{
	unsigned char magic[8];
	size_t len;
	int r;

	if (!chstk__valid_op(op))
		return chstk__error(err, CHSTK_ERR_INVAL, "unknown operation");
	r = read_magic(src, magic, &len, err);
	if (r < 0)
		return r;
	if (!chstk__is_archive(magic, len))
		return chstk__rewrite_elf(src, out_fd, op, res, err);
	r = chstk__archive_rewrite(src, out_fd, op, res, err);
	if (r == 1 && verify_archive(out_fd, res->images, err) < 0)
		return CHSTK_ERR_CHANGED;
	return r;
}

int
chstk_scan_fd(int fd, chstk_scan_fn fn, void *arg, struct chstk_error *err)
{
	struct chstk_src src;
	int r;

	chstk__clear_error(err);
	r = chstk__src_file(&src, fd, err);
	return r < 0 ? r : chstk__scan(&src, NULL, fn, arg, err);
}

int
chstk_scan_fd_with(int fd, const struct chstk_scan_opts *o, chstk_scan_fn fn,
    void *arg, struct chstk_error *err)
{
	struct chstk_src src;
	int r;

	chstk__clear_error(err);
	r = chstk__src_file(&src, fd, err);
	return r < 0 ? r : chstk__scan(&src, o, fn, arg, err);
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
chstk_scan_mem(const void *buf, size_t size, chstk_scan_fn fn, void *arg,
    struct chstk_error *err)
{
	struct chstk_src src;

	chstk__clear_error(err);
	chstk__src_mem(&src, buf, size);
	return chstk__scan(&src, NULL, fn, arg, err);
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
		return chstk__syserror(err, "cannot stat");
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
