/*
 * stream.c - an image read once, front to back, from the caller's read
 * function (a member of a compressed package): what is kept of it.
 *
 * A stream cannot go back, so what the readers above will read again must
 * be kept as it goes by, in bounded memory. Three pieces are kept:
 *
 *   the window  every byte from its start up to the furthest read, gaps
 *               included: the headers of an image, or an object whole;
 *   the far     once a reader says it only goes forward from here
 *   piece       (chstk__src_forward), a gap is dropped instead, and what
 *               follows it is kept here: the dynamic section of a big
 *               library, megabytes past its headers;
 *   the pin     a range kept until the end: an archive's long names.
 *
 * Between two members of an archive everything but the pin is forgotten
 * (chstk__src_forget). Together the pieces never hold more than
 * CHSTK_STREAM_KEEP bytes. A read behind what was kept cannot be served
 * and is an error; the readers above are written never to need one.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Bytes [off, off + len) of the stream, in buf (cap bytes allocated). */
struct piece {
	unsigned char *buf;
	uint64_t off;
	size_t len, cap;
};

struct chstk_stream {
	chstk_read_fn read;
	void *arg;
	uint64_t size;		/* declared, or learned at the end */
	uint64_t pos;		/* bytes taken from the stream */
	bool ended;
	bool failed;		/* the read function failed */
	bool forward;		/* gaps may be dropped */
	struct piece win, far, pin;
	unsigned char scratch[16384];	/* for what is dropped */
};

int
chstk__stream_open(struct chstk_stream **out, chstk_read_fn read, void *arg,
    uint64_t size, struct chstk_error *err)
{
	struct chstk_stream *st = calloc(1, sizeof(*st));

	*out = st;
	if (st == NULL)
		return chstk__syserror(err, "cannot read the stream");
	st->read = read;
	st->arg = arg;
	st->size = size;
	return 0;
}

void
chstk__stream_close(struct chstk_stream *st)
{
	if (st == NULL)
		return;
	free(st->win.buf);
	free(st->far.buf);
	free(st->pin.buf);
	free(st);
}

uint64_t
chstk__stream_size(const struct chstk_stream *st)
{
	return st->size;
}

bool
chstk__stream_failed(const struct chstk_stream *st)
{
	return st->failed;
}

void
chstk__stream_forward(struct chstk_stream *st)
{
	st->forward = true;
}

/* Up to len bytes from the stream: the count, 0 at its end, or an error. */
static ssize_t
pull(struct chstk_stream *st, void *buf, size_t len, struct chstk_error *err)
{
	ssize_t n;

	if (st->ended || len == 0)
		return 0;
	n = st->failed ? -1 : st->read(st->arg, buf, len);
	if (n < 0 || (size_t)n > len) {
		st->failed = true;
		return chstk__error(err, CHSTK_ERR_SYS, "the stream failed");
	}
	if (n == 0) {
		st->ended = true;
		st->size = st->pos;
	}
	st->pos += (uint64_t)n;
	return n;
}

/* Read and drop what lies before off. */
static int
drop_to(struct chstk_stream *st, uint64_t off, struct chstk_error *err)
{
	ssize_t n = 1;

	while (st->pos < off && n > 0) {
		n = pull(st, st->scratch, off - st->pos < sizeof(st->scratch) ?
		    (size_t)(off - st->pos) : sizeof(st->scratch), err);
		if (n < 0)
			return (int)n;
	}
	return 0;
}

static size_t
kept(const struct chstk_stream *st)
{
	return st->win.len + st->far.len + st->pin.len;
}

static int
too_much(uint64_t want, struct chstk_error *err)
{
	if (want == UINT64_MAX)
		return chstk__error(err, CHSTK_ERR_NOMEM,
		    "more than %u bytes to buffer", CHSTK_STREAM_KEEP);
	return chstk__error(err, CHSTK_ERR_NOMEM,
	    "%ju bytes to buffer, more than %u", (uintmax_t)want,
	    CHSTK_STREAM_KEEP);
}

/* Make room in p for its bytes up to end; the kept total stays bounded
   (past it, say is the size the message gives). */
static int
room(struct chstk_stream *st, struct piece *p, uint64_t end, uint64_t say,
    struct chstk_error *err)
{
	size_t others = kept(st) - p->len, cap;
	unsigned char *nb;

	if (end - p->off > CHSTK_STREAM_KEEP - others)
		return too_much(say, err);
	if (end - p->off <= p->cap)
		return 0;
	cap = p->cap < 4096 ? 4096 : p->cap;
	while (cap < end - p->off)
		cap = cap < (CHSTK_STREAM_KEEP - others) / 2 ? 2 * cap :
		    CHSTK_STREAM_KEEP - others;
	nb = realloc(p->buf, cap);
	if (nb == NULL)
		return chstk__syserror(err, "cannot buffer the stream");
	p->buf = nb;
	p->cap = cap;
	return 0;
}

/*
 * Take bytes from the stream into p until it reaches end or the stream
 * ends; p must end where the stream is. Known sizes are allocated at once:
 * no copies, no slack. want is what the reader asked for, for the message
 * (UINT64_MAX: all there is).
 */
static int
fill(struct chstk_stream *st, struct piece *p, uint64_t end, uint64_t want,
    struct chstk_error *err)
{
	ssize_t n;
	int r;

	if (end > st->size)
		end = st->size;
	if (end != UINT64_MAX && p->off + p->len < end) {
		r = room(st, p, end, want == UINT64_MAX ? UINT64_MAX :
		    end - p->off, err);
		if (r < 0)
			return r;
	}
	while (p->off + p->len < end && !st->ended) {
		if (p->len == p->cap) {
			r = room(st, p, p->off + p->cap + 1, want, err);
			if (r < 0)
				return r;
		}
		n = pull(st, p->buf + p->len, end - (p->off + p->len) <
		    p->cap - p->len ? (size_t)(end - (p->off + p->len)) :
		    p->cap - p->len, err);
		if (n < 0)
			return (int)n;
		p->len += (size_t)n;
	}
	return 0;
}

/* Copy what p holds of [*off, *off + *len) from its start; advance. */
static void
take(const struct piece *p, uint64_t *off, unsigned char **buf, size_t *len,
    size_t *got)
{
	size_t n;

	if (p->len == 0 || *off < p->off || *off >= p->off + p->len)
		return;
	n = p->off + p->len - *off < *len ? (size_t)(p->off + p->len - *off) :
	    *len;
	memcpy(*buf, p->buf + (*off - p->off), n);
	*off += n;
	*buf += n;
	*len -= n;
	*got += n;
}

/*
 * Bring [off, off + len) into the window, or into the far piece, which
 * holds only the last such read: a reader going forward never reads the
 * same bytes twice, and a dynamic section of any size costs one chunk.
 */
static int
fetch(struct chstk_stream *st, uint64_t off, size_t len,
    struct chstk_error *err)
{
	struct piece *p = &st->win;
	int r;

	if (st->forward && off > st->win.off + st->win.len) {
		p = &st->far;
		p->len = 0;
		p->off = off;
	} else if (p->len == 0 && p->off < st->pos) {
		p->off = st->pos;
	}
	/* p goes on from where the stream is, or starts ahead of it. */
	if (off < p->off || p->off + p->len < st->pos)
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "cannot read back in a stream");
	if (p->len == 0 && (r = drop_to(st, p->off, err)) < 0)
		return r;
	return fill(st, p, off + len, len, err);
}

int
chstk__stream_read(struct chstk_stream *st, uint64_t off, void *buf,
    size_t len, size_t *got, struct chstk_error *err)
{
	unsigned char *p = buf;
	size_t before;
	int r;

	*got = 0;
	if (off >= st->size)
		return 0;
	if (len > st->size - off)
		len = (size_t)(st->size - off);
	while (len > 0) {
		before = *got;
		take(&st->pin, &off, &p, &len, got);
		take(&st->win, &off, &p, &len, got);
		take(&st->far, &off, &p, &len, got);
		if (*got != before)
			continue;
		if (st->ended && off >= st->pos)
			return 0;
		r = fetch(st, off, len, err);
		if (r < 0)
			return r;
		if (st->ended && off >= st->pos)
			return 0;
	}
	return 0;
}

int
chstk__stream_keep(struct chstk_stream *st, uint64_t off, uint64_t len,
    struct chstk_error *err)
{
	int r;

	if (len != UINT64_MAX && len > CHSTK_STREAM_KEEP)
		return too_much(len, err);
	r = fetch(st, off, 0, err);
	if (r == 0)
		r = fill(st, &st->win, len == UINT64_MAX ||
		    len > UINT64_MAX - off ? UINT64_MAX : off + len, len, err);
	return r;
}

int
chstk__stream_pin(struct chstk_stream *st, uint64_t off, uint64_t len,
    struct chstk_error *err)
{
	size_t got;
	int r;

	free(st->pin.buf);
	memset(&st->pin, 0, sizeof(st->pin));
	if (len > CHSTK_STREAM_KEEP - kept(st))
		return too_much(len, err);
	st->pin.buf = malloc(len ? (size_t)len : 1);
	if (st->pin.buf == NULL)
		return chstk__syserror(err, "cannot buffer the stream");
	r = chstk__stream_read(st, off, st->pin.buf, (size_t)len, &got, err);
	if (r < 0)
		return r;
	st->pin.off = off;
	st->pin.len = got;
	st->pin.cap = (size_t)len;
	return 0;
}

/* Big buffers are given back: one large member must not keep its memory
   for the rest of the archive. */
static void
empty(struct piece *p, uint64_t off)
{
	if (p->cap > (1u << 20)) {
		free(p->buf);
		p->buf = NULL;
		p->cap = 0;
	}
	p->len = 0;
	p->off = off;
}

void
chstk__stream_forget(struct chstk_stream *st, uint64_t below)
{
	empty(&st->win, below);
	empty(&st->far, below);
	st->forward = false;
}
