/*
 * source.c - bytes read from a file, from memory or from a stream
 * (stream.c), and copies of them written to a file.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

int
chstk__src_file(struct chstk_src *src, int fd, struct chstk_error *err)
{
	struct stat st;

	if (fstat(fd, &st) == -1)
		return chstk__syserror(err, "cannot stat");
	if (!S_ISREG(st.st_mode))
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "not a regular file");
	memset(src, 0, sizeof(*src));
	src->fd = fd;
	src->size = (uint64_t)st.st_size;
	return 0;
}

void
chstk__src_mem(struct chstk_src *src, const void *buf, size_t size)
{
	memset(src, 0, sizeof(*src));
	src->fd = -1;
	src->mem = buf;
	src->size = size;
}

void
chstk__src_stream(struct chstk_src *src, struct chstk_stream *st,
    uint64_t size)
{
	memset(src, 0, sizeof(*src));
	src->fd = -1;
	src->stream = st;
	src->size = size;
}

uint64_t
chstk__src_size(const struct chstk_src *src)
{
	if (src->stream != NULL && src->size == UINT64_MAX)
		return chstk__stream_size(src->stream);
	return src->size;
}

int
chstk__src_read(const struct chstk_src *src, uint64_t off, void *buf,
    size_t len, const char *what, struct chstk_error *err)
{
	unsigned char *p = buf;
	size_t got;
	int r;

	if (!chstk__in_range(off, len, chstk__src_size(src)))
		return chstk__error(err, CHSTK_ERR_TRUNCATED,
		    "%s runs past the end of the file", what);
	if (src->stream != NULL) {
		r = chstk__stream_read(src->stream, src->base + off, buf, len,
		    &got, err);
		if (r == 0 && got < len)
			r = chstk__error(err, CHSTK_ERR_TRUNCATED,
			    "%s runs past the end of the file", what);
		return r;
	}
	if (src->fd < 0) {
		memcpy(buf, src->mem + src->base + off, len);
		return 0;
	}
	while (len > 0) {
		ssize_t n = pread(src->fd, p, len, (off_t)(src->base + off));

		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return chstk__syserror(err, "cannot read %s", what);
		if (n == 0)
			return chstk__error(err, CHSTK_ERR_TRUNCATED,
			    "cannot read %s: the file shrank while it was read",
			    what);
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int
chstk__src_read_upto(const struct chstk_src *src, uint64_t off, void *buf,
    size_t len, size_t *got, const char *what, struct chstk_error *err)
{
	uint64_t size = chstk__src_size(src);

	*got = 0;
	if (off >= size)
		return 0;
	if (len > size - off)
		len = (size_t)(size - off);
	if (src->stream != NULL)
		return chstk__stream_read(src->stream, src->base + off, buf, len,
		    got, err);
	*got = len;
	return chstk__src_read(src, off, buf, len, what, err);
}

int
chstk__src_keep_all(const struct chstk_src *src, struct chstk_error *err)
{
	if (src->stream == NULL)
		return 0;
	return chstk__stream_keep(src->stream, src->base, src->size, err);
}

void
chstk__src_forward(const struct chstk_src *src)
{
	if (src->stream != NULL)
		chstk__stream_forward(src->stream);
}

int
chstk__src_pin(const struct chstk_src *src, uint64_t off, uint64_t len,
    struct chstk_error *err)
{
	if (src->stream == NULL)
		return 0;
	return chstk__stream_pin(src->stream, src->base + off, len, err);
}

void
chstk__src_forget(const struct chstk_src *src, uint64_t below)
{
	if (src->stream != NULL)
		chstk__stream_forget(src->stream, src->base + below);
}

bool
chstk__src_failed(const struct chstk_src *src)
{
	return src->stream != NULL && chstk__stream_failed(src->stream);
}

int
chstk__pwrite_all(int fd, const void *buf, size_t len, uint64_t off,
    struct chstk_error *err)
{
	const unsigned char *p = buf;

	while (len > 0) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return chstk__syserror(err, "cannot write temporary file");
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The kernel's copy, which reflinks where the file system can. Returns 0
 * when all is copied, 1 when the rest must be copied by hand (the kernel or
 * the file system cannot, or the source ended early), or -errno. done
 * counts the bytes copied.
 */
static int
kernel_copy(int in, uint64_t off, uint64_t len, int out, uint64_t out_off,
    uint64_t *done)
{
#ifdef HAVE_COPY_FILE_RANGE
	while (*done < len) {
		loff_t ioff = (loff_t)(off + *done);
		loff_t ooff = (loff_t)(out_off + *done);
		ssize_t n = copy_file_range(in, &ioff, out, &ooff, len - *done,
		    0);

		if (n == -1 && errno == EINTR)
			continue;
		if (n == 0 || (n == -1 && (errno == EXDEV ||
		    errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP)))
			return 1;
		if (n == -1)
			return -errno;
		*done += (uint64_t)n;
	}
	return 0;
#else
	(void)in, (void)off, (void)len, (void)out, (void)out_off, (void)done;
	return 1;
#endif
}

int
chstk__src_copy_range(const struct chstk_src *src, uint64_t off, uint64_t len,
    int out_fd, uint64_t out_off, struct chstk_error *err)
{
	unsigned char buf[65536];
	uint64_t done = 0;
	int r;

	if (src->stream != NULL)
		return chstk__error(err, CHSTK_ERR_INVAL,
		    "cannot copy a stream");
	if (!chstk__in_range(off, len, src->size))
		return chstk__error(err, CHSTK_ERR_TRUNCATED,
		    "data runs past the end of the file");
	if (src->fd < 0)
		return chstk__pwrite_all(out_fd, src->mem + src->base + off,
		    (size_t)len, out_off, err);
	r = kernel_copy(src->fd, src->base + off, len, out_fd, out_off, &done);
	if (r < 0) {
		errno = -r;
		return chstk__syserror(err, "cannot write temporary file");
	}
	while (done < len) {
		size_t n = sizeof(buf);

		if (len - done < n)
			n = (size_t)(len - done);
		r = chstk__src_read(src, off + done, buf, n, "the file", err);
		if (r == 0)
			r = chstk__pwrite_all(out_fd, buf, n, out_off + done,
			    err);
		if (r < 0)
			return r;
		done += n;
	}
	return 0;
}

int
chstk__src_copy(const struct chstk_src *src, int out_fd,
    struct chstk_error *err)
{
	return chstk__src_copy_range(src, 0, src->size, out_fd, 0, err);
}
