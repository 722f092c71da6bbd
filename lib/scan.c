/*
 * scan.c - the library's readers: chstk_scan_fd(), chstk_scan_mem() and
 * chstk_scan_path(). A file is an ELF image or an ar archive of them; an
 * archive's members are read in place, and those that are not ELF files
 * are passed over.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/*
 * Read the image in src and report it to fn as member, with what o asks.
 * An image that cannot be read, its further reads included, is the
 * callback's to judge when it is a member (report_bad); returned
 * otherwise. One that is no ELF file is none of its business.
 */
static int
scan_image(const struct chstk_src *src, const char *member,
    const struct chstk_scan_opts *o, bool report_bad, chstk_scan_fn fn,
    void *arg, struct chstk_error *err)
{
	bool hard = o != NULL && o->read & CHSTK_READ_HARDENING;
	struct chstk_hardening *h = NULL;
	struct chstk_image im;
	struct chstk_info info;
	int r;

	r = chstk__image_open(&im, src, hard ? CHSTK_IMAGE_SYMBOLS : 0, err);
	if (r < 0)
		return report_bad && r != CHSTK_ERR_NOT_ELF ?
		    fn(arg, member, NULL, err) : r;
	chstk__image_info(&im, &info);
	/* Some 8 KiB of search paths: on the heap, not a worker's stack. */
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

static int
scan_member(const struct chstk_ar *ar, const struct chstk_ar_member *m,
    const struct chstk_scan_opts *o, chstk_scan_fn fn, void *arg)
{
	struct chstk_error err;
	struct chstk_src src;
	int r;

	if (m->kind != CHSTK_AR_FILE)
		return 0;
	chstk__clear_error(&err);
	chstk__ar_member_src(ar, m, &src);
	r = scan_image(&src, m->name, o, true, fn, arg, &err);
	return r == CHSTK_ERR_NOT_ELF ? 0 : r;
}

static int
scan_archive(const struct chstk_src *src, const struct chstk_scan_opts *o,
    chstk_scan_fn fn, void *arg, struct chstk_error *err)
{
	struct chstk_ar_member m;
	struct chstk_ar ar;
	int r;

	r = chstk__ar_open(&ar, src, err);
	while (r == 0 && (r = chstk__ar_next(&ar, &m, err)) == 1)
		r = scan_member(&ar, &m, o, fn, arg);
	return r;
}

int
chstk__scan(const struct chstk_src *src, const struct chstk_scan_opts *o,
    chstk_scan_fn fn, void *arg, struct chstk_error *err)
{
	unsigned char magic[8];
	size_t len = src->size < sizeof(magic) ? (size_t)src->size :
	    sizeof(magic);
	int r;

	if (fn == NULL)
		return chstk__error(err, CHSTK_ERR_INVAL, "no function to call");
	r = chstk__src_read(src, 0, magic, len, "file header", err);
	if (r < 0)
		return r;
	if (chstk__is_archive(magic, len))
		return scan_archive(src, o, fn, arg, err);
	return scan_image(src, NULL, o, false, fn, arg, err);
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
