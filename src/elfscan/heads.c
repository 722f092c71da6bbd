/*
 * heads.c - between the walk and the reader: the files a walker lists,
 * opened and their heads read many at a time, so that a cold scan keeps
 * the disk busy whatever the number of CPUs, and a warm one enters the
 * kernel a few times a directory instead of three times a file.
 *
 * Each walker thread has an io_uring of its own. A file listed takes a
 * slot: its openat is queued; as it completes, the read of its head; as
 * that completes, the head goes to read.c in the walker's thread
 * (read_head: most files are not ELF, and the head decides; the library
 * reads ELF files and archives further, synchronously), then the close
 * is queued, whose completion frees the slot. One request a slot at a
 * time, so a ring of as many entries as slots never runs out. The
 * walker submits every few files and, when the slots are all taken,
 * waits for completions; it empties its ring before it waits for a
 * directory to list, so no file waits behind an idle thread. A listed
 * directory stays open while its files are in flight: they are opened
 * from its descriptor (struct dir), closed with the last of them.
 *
 * A completion that says a call was interrupted or would block (EINTR,
 * EAGAIN) is no answer: that file is finished here with plain system
 * calls. Any other error is the file's, reported as read_file reports it.
 *
 * Where io_uring cannot be used (built without liburing, a kernel
 * before 5.6 or without its openat, read and close, io_uring_disabled, a
 * seccomp filter, a limit on memory) or ELFSCAN_READER=threads asks, each
 * file is read at once, one system call after the other (read_file), by
 * its walker.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

#include "elfscan.h"
#include "xalloc.h"

/* Files in flight a walker: enough to keep a disk busy with the two
   walkers of a small machine; more gained nothing measured here. */
#define HEADS_DEPTH 64
/* The descriptors kept for the rest of the scan (containers, the root's
   files, the directories being listed). */
#define HEADS_SPARE_FDS 128

bool
heads_uring(char *why, size_t len)
{
#ifdef HAVE_LIBURING
	static const int ops[] = { IORING_OP_OPENAT, IORING_OP_READ,
	    IORING_OP_CLOSE };
	struct io_uring_probe *p;
	struct io_uring ring;
	unsigned i;
	int r;

	r = io_uring_queue_init(1, &ring, 0);
	if (r < 0) {
		snprintf(why, len, "io_uring: %s", strerror(-r));
		return false;
	}
	p = io_uring_get_probe_ring(&ring);
	for (i = 0; p != NULL && i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!io_uring_opcode_supported(p, ops[i]))
			break;
	r = p != NULL && i == sizeof(ops) / sizeof(ops[0]);
	if (!r)
		snprintf(why, len, "io_uring: no openat, read and close");
	io_uring_free_probe(p);
	io_uring_queue_exit(&ring);
	return r;
#else
	snprintf(why, len, "built without liburing");
	return false;
#endif
}

#ifdef HAVE_LIBURING

/* A listed directory, open while its files are in flight. */
struct dir {
	int fd;
	unsigned refs;		/* files in flight, and 1 while listed */
};

/* A file in flight: its one request is user_data's op. */
enum op { OP_OPEN, OP_READ, OP_CLOSE };
struct slot {
	struct dir *dir;
	int fd;
	bool follow;
	size_t root;		/* struct met's */
	size_t n;		/* head bytes read */
	char *path;
	size_t cap;
	bool taken;		/* ever: its slot_buf is zeroed */
};
/* A slot's name and head, apart from the slots, left as malloc gives
   them until the slot is first taken: then a page of them is touched, and
   a warm walk takes a few of its slots, the free ones last freed first.
   They are zeroed then, for valgrind's memcheck, which cannot see the
   kernel's writes through the ring. */
struct slot_buf {
	char name[256];		/* NAME_MAX and its NUL */
	unsigned char head[READ_HEAD];
};

struct heads {
	struct judge *j;
	bool ring;		/* false: read_file, at once */
	size_t enough;		/* read_enough() */
	struct io_uring uring;
	unsigned depth, busy, queued;	/* slots, those taken, requests
					   not submitted */
	struct dir *dir;	/* the directory being listed, or NULL */
	unsigned *free;		/* the indexes of the free slots */
	unsigned nfree;
	struct slot *slot;
	struct slot_buf *buf;
};

/* Slots a walker, within the open files allowed (1024 by default: 56
   slots for each of 8 walkers): each slot may hold a file and its
   directory open. 0: too few for a ring to be worth it. */
static unsigned
depth(const struct opts *o)
{
	struct rlimit rl;
	rlim_t room;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
		return 0;
	if (rl.rlim_cur == RLIM_INFINITY)
		return HEADS_DEPTH;
	room = rl.rlim_cur > HEADS_SPARE_FDS ? rl.rlim_cur - HEADS_SPARE_FDS :
	    0;
	room /= 2 * (rlim_t)o->jobs_most;
	if (room < 4)
		return 0;
	return room < HEADS_DEPTH ? (unsigned)room : HEADS_DEPTH;
}

struct heads *
heads_new(struct judge *j)
{
	struct heads *h = xcalloc(1, sizeof(*h));
	unsigned i;

	h->j = j;
	h->enough = read_enough(j, NAMED_NO);
	h->depth = j->o->uring ? depth(j->o) : 0;
	if (h->depth == 0 || io_uring_queue_init(h->depth, &h->uring, 0) < 0)
		return h;
	h->ring = true;
	h->slot = xcalloc(h->depth, sizeof(*h->slot));
	h->buf = xmalloc(h->depth * sizeof(*h->buf));
	h->free = xmalloc(h->depth * sizeof(*h->free));
	for (i = 0; i < h->depth; i++)
		h->free[i] = h->depth - 1 - i;
	h->nfree = h->depth;
	return h;
}

static void
release(struct dir *d)
{
	if (--d->refs == 0) {
		close(d->fd);
		free(d);
	}
}

static void
queue(struct heads *h, unsigned i, enum op op)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&h->uring);
	struct slot *s = &h->slot[i];
	struct slot_buf *b = &h->buf[i];

	switch (op) {
	case OP_OPEN:
		io_uring_prep_openat(sqe, s->dir->fd, b->name, READ_OPEN_FLAGS |
		    (s->follow ? 0 : O_NOFOLLOW), 0);
		break;
	case OP_READ:
		io_uring_prep_read(sqe, s->fd, b->head + s->n,
		    (unsigned)(READ_HEAD - s->n), s->n);
		break;
	case OP_CLOSE:
		io_uring_prep_close(sqe, s->fd);
		break;
	}
	io_uring_sqe_set_data64(sqe, (uint64_t)i << 2 | op);
	h->queued++;
}

static void
done(struct heads *h, unsigned i)
{
	release(h->slot[i].dir);
	h->free[h->nfree++] = i;
	h->busy--;
}

/* How the walk met the file in slot s. */
static struct met
met(const struct slot *s)
{
	struct met m = { .path = s->path, .root = s->root,
	    .follow = s->follow, .named = NAMED_NO };

	return m;
}

/* The head is in, or a read failed (error): to read.c, then close. */
static void
finish(struct heads *h, unsigned i, int error)
{
	struct slot *s = &h->slot[i];
	struct head hd = { .fd = s->fd, .error = error,
	    .bytes = h->buf[i].head, .n = error == 0 ? s->n : 0 };
	struct met m = met(s);

	read_head(h->j, &hd, &m);
	queue(h, i, OP_CLOSE);
}

static void
opened(struct heads *h, unsigned i, int res)
{
	struct slot *s = &h->slot[i];
	struct head hd = { .fd = -1, .error = -res };
	struct met m = met(s);

	if (res == -EINTR || res == -EAGAIN) {
		read_file(h->j, s->dir->fd, h->buf[i].name, &m);
		done(h, i);
	} else if (res < 0) {
		read_head(h->j, &hd, &m);
		done(h, i);
	} else {
		s->fd = res;
		queue(h, i, OP_READ);
	}
}

static void
got(struct heads *h, unsigned i, int res)
{
	struct slot *s = &h->slot[i];
	ssize_t n;

	if (res == -EINTR || res == -EAGAIN) {
		n = read_on(s->fd, h->buf[i].head, s->n, h->enough);
		if (n >= 0)
			s->n = (size_t)n;
		finish(h, i, n >= 0 ? 0 : errno);
	} else if (res < 0) {
		finish(h, i, -res);
	} else {
		s->n += (size_t)res;
		if (res > 0 && s->n < READ_HEAD && s->n < h->enough)
			queue(h, i, OP_READ);
		else
			finish(h, i, 0);
	}
}

/* Submit what is queued, wait for wait completions, and act on those
   there are. */
static void
reap(struct heads *h, unsigned wait)
{
	struct io_uring_cqe *cqe[32];
	unsigned n, k, i;
	int r;

	do
		r = io_uring_submit_and_wait(&h->uring, wait);
	while (r == -EINTR);
	/* EAGAIN, EBUSY: the kernel is short of memory, or of room for
	   completions: take those there are and come back. */
	if (r < 0 && r != -EAGAIN && r != -EBUSY) {
		fprintf(stderr, "elfscan: io_uring: %s\n", strerror(-r));
		exit(2);
	}
	h->queued = 0;
	do {
		n = io_uring_peek_batch_cqe(&h->uring, cqe,
		    sizeof(cqe) / sizeof(cqe[0]));
		for (k = 0; k < n; k++) {
			uint64_t data = io_uring_cqe_get_data64(cqe[k]);
			int res = cqe[k]->res;

			i = (unsigned)(data >> 2);
			switch ((enum op)(data & 3)) {
			case OP_OPEN:
				opened(h, i, res);
				break;
			case OP_READ:
				got(h, i, res);
				break;
			case OP_CLOSE:
				done(h, i);
				break;
			}
		}
		io_uring_cq_advance(&h->uring, n);
	} while (n == sizeof(cqe) / sizeof(cqe[0]));
}

void
heads_file(struct heads *h, int dirfd, const char *name, const struct met *m)
{
	size_t len = strlen(m->path) + 1;
	struct slot *s;
	unsigned i;

	if (!h->ring) {
		read_file(h->j, dirfd, name, m);
		return;
	}
	if (h->dir == NULL) {
		h->dir = xmalloc(sizeof(*h->dir));
		h->dir->fd = dirfd;
		h->dir->refs = 1;
	}
	while (h->nfree == 0)
		reap(h, 1);
	i = h->free[--h->nfree];
	h->busy++;
	s = &h->slot[i];
	if (!s->taken) {
		memset(&h->buf[i], 0, sizeof(h->buf[i]));
		s->taken = true;
	}
	s->dir = h->dir;
	s->dir->refs++;
	s->fd = -1;
	s->follow = m->follow;
	s->root = m->root;
	s->n = 0;
	strcpy(h->buf[i].name, name);
	if (len > s->cap) {
		free(s->path);
		s->cap = len < 256 ? 256 : len;
		s->path = xmalloc(s->cap);
	}
	memcpy(s->path, m->path, len);
	queue(h, i, OP_OPEN);
	/* A few at a time: each submission enters the kernel. */
	if (h->queued >= h->depth / 4)
		reap(h, 0);
}

void
heads_dir_done(struct heads *h, int dirfd)
{
	if (h->dir == NULL) {
		close(dirfd);
		return;
	}
	release(h->dir);
	h->dir = NULL;
	if (h->queued > 0)
		reap(h, 0);
}

bool
heads_busy(const struct heads *h)
{
	return h->busy > 0;
}

void
heads_drain(struct heads *h)
{
	while (h->busy > 0)
		reap(h, 1);
}

void
heads_free(struct heads *h)
{
	unsigned i;

	if (h->ring) {
		heads_drain(h);
		io_uring_queue_exit(&h->uring);
		for (i = 0; i < h->depth; i++)
			free(h->slot[i].path);
		free(h->slot);
		free(h->buf);
		free(h->free);
	}
	free(h);
}

#else

struct heads {
	struct judge *j;
};

struct heads *
heads_new(struct judge *j)
{
	struct heads *h = xmalloc(sizeof(*h));

	h->j = j;
	return h;
}

void
heads_file(struct heads *h, int dirfd, const char *name, const struct met *m)
{
	read_file(h->j, dirfd, name, m);
}

void
heads_dir_done(struct heads *h, int dirfd)
{
	(void)h;
	close(dirfd);
}

bool
heads_busy(const struct heads *h)
{
	(void)h;
	return false;
}

void
heads_drain(struct heads *h)
{
	(void)h;
}

void
heads_free(struct heads *h)
{
	free(h);
}

#endif
