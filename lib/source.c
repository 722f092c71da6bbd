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
chstk__src_regular(struct chstk_src *src, int fd)
{
	memset(src, 0, sizeof(*src));
	src->fd = fd;
	src->size = UINT64_MAX;
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

/* A file's size not asked yet, asked now: UINT64_MAX if fstat fails,
   which leaves the reads to find the end. */
static uint64_t
file_size(const struct chstk_src *src)
{
	struct chstk_cache *c = src->cache;
	struct stat st;

	if (c != NULL && c->file_size != UINT64_MAX)
		return c->file_size;
	if (fstat(src->fd, &st) == -1)
		return UINT64_MAX;
	if (c != NULL)
		c->file_size = (uint64_t)st.st_size;
	return (uint64_t)st.st_size;
}

/* Is the size of src not known yet? Only a file's whose size the library
   was told not to ask (chstk__src_regular) can be. */
static bool
size_unknown(const struct chstk_src *src)
{
	return src->fd >= 0 && src->size == UINT64_MAX &&
	    (src->cache == NULL || src->cache->file_size == UINT64_MAX);
}

uint64_t
chstk__src_size(const struct chstk_src *src)
{
	if (src->stream != NULL && src->size == UINT64_MAX)
		return chstk__stream_size(src->stream);
	if (src->fd >= 0 && src->size == UINT64_MAX)
		return file_size(src);
	return src->size;
}

void
chstk__src_cache(struct chstk_src *src, struct chstk_cache *cache,
    const void *head, size_t n)
{
	unsigned i;

	for (i = 0; i < CHSTK_CACHE_BLOCKS; i++)
		cache->block[i].len = 0;
	cache->next = 0;
	cache->file_size = src->base + src->size;
	if (n > CHSTK_CACHE_BLOCK)
		n = CHSTK_CACHE_BLOCK;
	if (n > src->size)
		n = (size_t)src->size;
	if (head != NULL && n > 0 && src->base == 0) {
		memcpy(cache->mem, head, n);
		cache->block[0].off = 0;
		cache->block[0].len = n;
		cache->next = 1;
	}
	src->cache = cache;
}

/* The cached bytes [at, at + len) of the file, or NULL. */
static const unsigned char *
cached(const struct chstk_cache *c, uint64_t at, size_t len)
{
	unsigned i;

	for (i = 0; i < CHSTK_CACHE_BLOCKS; i++) {
		uint64_t off = c->block[i].off;
		size_t have = c->block[i].len;

		if (have > 0 && at >= off && at - off <= have &&
		    len <= have - (at - off))
			return c->mem + i * CHSTK_CACHE_BLOCK + (at - off);
	}
	return NULL;
}

/* Read up to len bytes of the file fd at off: *got is fewer only at its
   end, or when a read returned fewer and enough were read. */
static int
read_fd_upto(int fd, unsigned char *p, size_t len, uint64_t off,
    size_t enough, size_t *got, const char *what, struct chstk_error *err)
{
	*got = 0;
	while (*got < len) {
		ssize_t n = pread(fd, p + *got, len - *got, (off_t)(off + *got));

		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return chstk__syserror(err, "cannot read %s", what);
		if (n == 0)
			break;
		*got += (size_t)n;
		if (*got < len && *got >= enough)
			break;
	}
	return 0;
}

static int
read_fd(int fd, unsigned char *p, size_t len, uint64_t off, size_t *got,
    const char *what, struct chstk_error *err)
{
	return read_fd_upto(fd, p, len, off, len, got, what, err);
}

static int
past_end(const char *what, struct chstk_error *err)
{
	return chstk__error(err, CHSTK_ERR_TRUNCATED,
	    "%s runs past the end of the file", what);
}

/* Fewer bytes than the file's size promised; past its end when its size
   was not known. */
static int
shrank(bool unknown, const char *what, struct chstk_error *err)
{
	if (unknown)
		return past_end(what, err);
	return chstk__error(err, CHSTK_ERR_TRUNCATED,
	    "cannot read %s: the file shrank while it was read", what);
}

/*
 * [at, at + len) of the file, len at most a block, from a block read now:
 * the aligned one, unless the bytes straddle its end. Never past the
 * file's size as it was opened, so that a small file costs one read, not
 * a second that finds its end.
 */
static int
read_block(const struct chstk_src *src, uint64_t at, unsigned char *buf,
    size_t len, const char *what, struct chstk_error *err)
{
	struct chstk_cache *c = src->cache;
	unsigned char *p;
	uint64_t start, want;
	unsigned i;
	int r;

	/* A run held in block 0 gives the other blocks their memory back. */
	if (c->block[0].len > CHSTK_CACHE_BLOCK)
		c->block[0].len = CHSTK_CACHE_BLOCK;
	start = at & ~(uint64_t)(CHSTK_CACHE_BLOCK - 1);
	if (at - start + len > CHSTK_CACHE_BLOCK)
		start = at;
	want = c->file_size > start ? c->file_size - start : 0;
	if (want > CHSTK_CACHE_BLOCK)
		want = CHSTK_CACHE_BLOCK;
	if (want < at - start + len)
		want = at - start + len;
	i = c->next;
	c->next = (i + 1) % CHSTK_CACHE_BLOCKS;
	p = c->mem + i * CHSTK_CACHE_BLOCK;
	/* Enough once the bytes asked for are in: a short read is most
	   likely the file's end (whose size may not be known yet), which
	   another read would only find. */
	r = read_fd_upto(src->fd, p, (size_t)want, start,
	    (size_t)(at - start + len), &c->block[i].len, what, err);
	if (r < 0) {
		c->block[i].len = 0;
		return r;
	}
	c->block[i].off = start;
	if (c->block[i].len < at - start + len)
		return shrank(size_unknown(src), what, err);
	memcpy(buf, p + (at - start), len);
	return 0;
}

void
chstk__src_ahead(const struct chstk_src *src, uint64_t off, uint64_t len)
{
	struct chstk_cache *c = src->cache;
	uint64_t at = src->base + off, want;
	struct chstk_error err;
	unsigned i;

	if (c == NULL || src->fd < 0 || len > sizeof(c->mem) ||
	    cached(c, at, (size_t)len) != NULL)
		return;
	want = c->file_size > at ? c->file_size - at : 0;
	if (want > sizeof(c->mem))
		want = sizeof(c->mem);
	if (want < len)
		return;
	for (i = 1; i < CHSTK_CACHE_BLOCKS; i++)
		c->block[i].len = 0;
	c->next = 1;
	c->block[0].off = at;
	if (read_fd_upto(src->fd, c->mem, (size_t)want, at, (size_t)len,
	    &c->block[0].len, "archive member", &err) < 0)
		c->block[0].len = 0;
}

int
chstk__src_read(const struct chstk_src *src, uint64_t off, void *buf,
    size_t len, const char *what, struct chstk_error *err)
{
	bool unknown = size_unknown(src);
	size_t got;
	int r;

	/* A file of unknown size: the read finds its end. */
	if (!chstk__in_range(off, len,
	    unknown ? UINT64_MAX : chstk__src_size(src)))
		return past_end(what, err);
	if (src->stream != NULL) {
		r = chstk__stream_read(src->stream, src->base + off, buf, len,
		    &got, err);
		return r == 0 && got < len ? past_end(what, err) : r;
	}
	if (src->fd < 0) {
		memcpy(buf, src->mem + src->base + off, len);
		return 0;
	}
	if (src->cache != NULL) {
		const unsigned char *p = cached(src->cache, src->base + off,
		    len);

		if (p != NULL) {
			memcpy(buf, p, len);
			return 0;
		}
		if (len <= CHSTK_CACHE_BLOCK)
			return read_block(src, src->base + off, buf, len, what,
			    err);
	}
	r = read_fd(src->fd, buf, len, src->base + off, &got, what, err);
	return r == 0 && got < len ? shrank(unknown, what, err) : r;
}

bool
chstk__src_holds(const struct chstk_src *src, uint64_t off, uint64_t len)
{
	if (!chstk__in_range(off, len, UINT64_MAX))
		return false;
	if (size_unknown(src) && src->cache != NULL && len <= SIZE_MAX &&
	    cached(src->cache, src->base + off, (size_t)len) != NULL)
		return true;
	return chstk__in_range(off, len, chstk__src_size(src));
}

int
chstk__src_read_upto(const struct chstk_src *src, uint64_t off, void *buf,
    size_t len, size_t *got, const char *what, struct chstk_error *err)
{
	const unsigned char *p;
	uint64_t size;

	*got = 0;
	/* The head lent, without asking the size of the file it starts. */
	if (size_unknown(src) && src->cache != NULL &&
	    (p = cached(src->cache, src->base + off, len)) != NULL) {
		memcpy(buf, p, len);
		*got = len;
		return 0;
	}
	size = chstk__src_size(src);
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
