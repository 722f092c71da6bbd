/*
 * scan.c - the library's readers: chstk_scan_fd() and
 * chstk_scan_fd_head(), chstk_scan_mem(), chstk_scan_path() and
 * chstk_scan_stream(), and chstk_format(), which
 * tells a caller which files they read. A file is an ELF image or an ar
 * archive of them; an archive's members are read in place, and those that
 * are not ELF files are passed over.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

static int
read_info(const struct chstk_src *src, struct chstk_info *info,
    struct chstk_error *err)
{
	struct chstk_image im;
	int r;

	r = chstk__image_open(&im, src, 0, err);
	if (r < 0)
		return r;
	chstk__image_info(&im, info);
	chstk__image_close(&im);
	/* The reading of the dynamic section forgives errors; a stream that
	   failed under it has not been read. */
	if (chstk__src_failed(src))
		return chstk__error(err, CHSTK_ERR_SYS, "the stream failed");
	return 0;
}

/* A member that cannot be read is the callback's to judge; one that is no
   ELF file is none of its business. */
static int
scan_member(const struct chstk_ar *ar, const struct chstk_ar_member *m,
    chstk_scan_fn fn, void *arg, struct chstk_error *err)
{
	struct chstk_info info;
	struct chstk_error merr;
	struct chstk_src src;

	if (m->kind != CHSTK_AR_FILE)
		return 0;
	chstk__clear_error(&merr);
	chstk__ar_member_src(ar, m, &src);
	chstk__src_forget(ar->src, m->data);
	if (read_info(&src, &info, &merr) == 0)
		return fn(arg, m->name, &info, NULL);
	if (chstk__src_failed(ar->src))
		return chstk__error(err, merr.code, "%s", merr.msg);
	return merr.code == CHSTK_ERR_NOT_ELF ? 0 :
	    fn(arg, m->name, NULL, &merr);
}

static int
scan_archive(const struct chstk_src *src, chstk_scan_fn fn, void *arg,
    struct chstk_error *err)
{
	struct chstk_ar_member m;
	struct chstk_ar ar;
	int r;

	r = chstk__ar_open(&ar, src, err);
	while (r == 0 && (r = chstk__ar_next(&ar, &m, err)) == 1) {
		r = scan_member(&ar, &m, fn, arg, err);
		chstk__src_forget(src, ar.next);
	}
	return r;
}

int
chstk__scan(const struct chstk_src *src, chstk_scan_fn fn, void *arg,
    struct chstk_error *err)
{
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
	if (chstk__ar_magic(magic, len) != CHSTK_AR_NONE)
		return scan_archive(src, fn, arg, err);
	r = read_info(src, &info, err);
	return r < 0 ? r : fn(arg, NULL, &info, NULL);
}

int
chstk_scan_fd_head(int fd, const void *head, size_t n, chstk_scan_fn fn,
    void *arg, struct chstk_error *err)
{
	struct chstk_cache cache;
	struct chstk_src src;
	int r;

	chstk__clear_error(err);
	if (head == NULL && n > 0)
		return chstk__error(err, CHSTK_ERR_INVAL, "no head to read");
	r = chstk__src_file(&src, fd, err);
	if (r < 0)
		return r;
	chstk__src_cache(&src, &cache, head, n);
	return chstk__scan(&src, fn, arg, err);
}

int
chstk_scan_fd(int fd, chstk_scan_fn fn, void *arg, struct chstk_error *err)
{
	return chstk_scan_fd_head(fd, NULL, 0, fn, arg, err);
}

int
chstk_scan_mem(const void *buf, size_t size, chstk_scan_fn fn, void *arg,
    struct chstk_error *err)
{
	struct chstk_src src;

	chstk__clear_error(err);
	chstk__src_mem(&src, buf, size);
	return chstk__scan(&src, fn, arg, err);
}

int
chstk_scan_stream(chstk_read_fn read, void *read_arg, uint64_t size,
    chstk_scan_fn fn, void *arg, struct chstk_error *err)
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
	r = chstk__scan(&src, fn, arg, err);
	chstk__stream_close(st);
	return r;
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
