/*
 * readshim.c - an LD_PRELOAD library that makes the open or the reading of
 * one file's head go wrong in elfscan's readers (src/elfscan/heads.c and
 * read.c), in the io_uring one as in the one that makes a system call
 * after another, so that readfaults.sh can check that no file is lost and
 * the one that failed is reported. It acts on the file whose last path
 * component is READSHIM_FILE, never on another. Set in the environment:
 *
 *   READSHIM_FILE   the file's name, its last component
 *   READSHIM_FAULT  what goes wrong:
 *                   open:ERRNO   its open fails (the ring's completion
 *                                says so: the file the kernel opened is
 *                                closed here)
 *                   read:ERRNO   its first read fails
 *                   short:N      its first read gives at most N bytes
 *                   enter:ERRNO  io_uring_submit_and_wait fails without
 *                                submitting (any file)
 *                   with ERRNO one of EIO, EACCES, EINTR, EAGAIN, EBUSY
 *   READSHIM_COUNT  how many times in a row (1 by default)
 *   READSHIM_LOG    a file that gets a line as each fault is made:
 *                   "io_uring open EIO", "libc read short", ...
 *
 * The io_uring reader is reached through liburing's exported functions:
 * before io_uring_submit_and_wait sends the queued requests, it looks at
 * them (the openat of the file, then the read and close of the descriptor
 * the completion gave); io_uring_peek_batch_cqe hands the completions to
 * elfscan, and the shim rewrites the file's result there first. The other
 * reader, and the library, through openat and pread of the C library.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int left = -1;		/* faults still to make; -1: unknown */
static int libc_fd = -1;	/* the file, opened by the C library */

static void *
real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (f == NULL) {
		fprintf(stderr, "readshim: no %s\n", name);
		abort();
	}
	return f;
}

/* Is READSHIM_FAULT of this kind? Then its argument, into *arg. */
static int
fault(const char *kind, const char **arg)
{
	const char *f = getenv("READSHIM_FAULT");
	size_t n = strlen(kind);

	if (f == NULL || strncmp(f, kind, n) != 0 || f[n] != ':')
		return 0;
	*arg = f + n + 1;
	return 1;
}

static int
error_of(const char *name)
{
	static const struct { const char *name; int e; } names[] = {
		{ "EIO", EIO }, { "EACCES", EACCES }, { "EINTR", EINTR },
		{ "EAGAIN", EAGAIN }, { "EBUSY", EBUSY },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i].name) == 0)
			return names[i].e;
	fprintf(stderr, "readshim: %s: not an error it makes\n", name);
	abort();
}

/* One more fault of the kind, logged as "WHERE KIND ARG"? Under lock. */
static int
take(const char *where, const char *kind, const char **arg)
{
	char line[128];
	const char *log = getenv("READSHIM_LOG");
	FILE *f;

	if (!fault(kind, arg))
		return 0;
	if (left == -1)
		left = getenv("READSHIM_COUNT") != NULL ?
		    atoi(getenv("READSHIM_COUNT")) : 1;
	if (left == 0)
		return 0;
	left--;
	snprintf(line, sizeof(line), "%s %s %s\n", where, kind,
	    strcmp(kind, "short") == 0 ? "short" : *arg);
	if (log != NULL && (f = fopen(log, "a")) != NULL) {
		fputs(line, f);
		fclose(f);
	}
	return 1;
}

static int
is_target(const char *path)
{
	const char *want = getenv("READSHIM_FILE");
	const char *base;

	if (want == NULL || path == NULL)
		return 0;
	base = strrchr(path, '/');
	return strcmp(base != NULL ? base + 1 : path, want) == 0;
}

int
openat(int dirfd, const char *path, int flags, ...)
{
	static int (*next)(int, const char *, int, ...);
	const char *arg;
	mode_t mode = 0;
	va_list ap;
	int fd;

	if (next == NULL)
		next = real("openat");
	if (flags & O_CREAT || (flags & O_TMPFILE) == O_TMPFILE) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (is_target(path)) {
		pthread_mutex_lock(&lock);
		if (take("libc", "open", &arg)) {
			pthread_mutex_unlock(&lock);
			errno = error_of(arg);
			return -1;
		}
		pthread_mutex_unlock(&lock);
	}
	fd = next(dirfd, path, flags, mode);
	if (fd != -1 && is_target(path)) {
		pthread_mutex_lock(&lock);
		libc_fd = fd;
		pthread_mutex_unlock(&lock);
	}
	return fd;
}

int
close(int fd)
{
	static int (*next)(int);

	if (next == NULL)
		next = real("close");
	pthread_mutex_lock(&lock);
	if (fd == libc_fd)
		libc_fd = -1;
	pthread_mutex_unlock(&lock);
	return next(fd);
}

static ssize_t
do_pread(const char *name, int fd, void *buf, size_t len, off_t off)
{
	static ssize_t (*next)(int, void *, size_t, off_t);
	const char *arg;

	if (next == NULL)
		next = real(name);
	pthread_mutex_lock(&lock);
	if (fd == libc_fd && take("libc", "read", &arg)) {
		pthread_mutex_unlock(&lock);
		errno = error_of(arg);
		return -1;
	}
	if (fd == libc_fd && take("libc", "short", &arg) &&
	    (size_t)atoi(arg) < len)
		len = (size_t)atoi(arg);
	pthread_mutex_unlock(&lock);
	return next(fd, buf, len, off);
}

ssize_t
pread(int fd, void *buf, size_t len, off_t off)
{
	return do_pread("pread", fd, buf, len, off);
}

ssize_t
pread64(int fd, void *buf, size_t len, off_t off)
{
	return do_pread("pread64", fd, buf, len, off);
}

#ifdef HAVE_LIBURING

/* The file in the rings: the requests that concern it, by ring and
   user_data, while they are in flight; the descriptor its open gave. */
static struct io_uring *open_ring, *read_ring;
static __u64 open_data, read_data;
static int ring_fd = -1;

/* The requests queued on ring and not submitted yet. Under lock. */
static void
look(struct io_uring *ring)
{
	struct io_uring_sq *sq = &ring->sq;
	struct io_uring_sqe *sqe;
	unsigned i;

	for (i = sq->sqe_head; i != sq->sqe_tail; i++) {
		sqe = &sq->sqes[i & sq->ring_mask];
		if (sqe->opcode == IORING_OP_OPENAT &&
		    is_target((const char *)(uintptr_t)sqe->addr)) {
			open_ring = ring;
			open_data = sqe->user_data;
		} else if (sqe->opcode == IORING_OP_READ && ring_fd != -1 &&
		    sqe->fd == ring_fd && read_ring == NULL) {
			read_ring = ring;
			read_data = sqe->user_data;
		} else if (sqe->opcode == IORING_OP_CLOSE &&
		    sqe->fd == ring_fd) {
			ring_fd = -1;
		}
	}
}

int
io_uring_submit_and_wait(struct io_uring *ring, unsigned wait)
{
	static int (*next)(struct io_uring *, unsigned);
	const char *arg;

	if (next == NULL)
		next = real("io_uring_submit_and_wait");
	pthread_mutex_lock(&lock);
	if (take("io_uring", "enter", &arg)) {
		pthread_mutex_unlock(&lock);
		return -error_of(arg);
	}
	look(ring);
	pthread_mutex_unlock(&lock);
	return next(ring, wait);
}

/* A completion of ring, before elfscan sees it. Under lock. */
static void
mend(struct io_uring *ring, struct io_uring_cqe *cqe)
{
	static int (*next_close)(int);
	const char *arg;

	if (next_close == NULL)
		next_close = real("close");
	if (ring == open_ring && cqe->user_data == open_data) {
		open_ring = NULL;
		if (take("io_uring", "open", &arg)) {
			if (cqe->res >= 0)
				next_close(cqe->res);
			cqe->res = -error_of(arg);
		} else if (cqe->res >= 0) {
			ring_fd = cqe->res;
		}
	} else if (ring == read_ring && cqe->user_data == read_data) {
		read_ring = NULL;
		if (take("io_uring", "read", &arg))
			cqe->res = -error_of(arg);
		else if (take("io_uring", "short", &arg) &&
		    cqe->res > atoi(arg))
			cqe->res = atoi(arg);
	}
}

unsigned
io_uring_peek_batch_cqe(struct io_uring *ring, struct io_uring_cqe **cqes,
    unsigned count)
{
	static unsigned (*next)(struct io_uring *, struct io_uring_cqe **,
	    unsigned);
	unsigned n, i;

	if (next == NULL)
		next = real("io_uring_peek_batch_cqe");
	n = next(ring, cqes, count);
	pthread_mutex_lock(&lock);
	for (i = 0; i < n; i++)
		mend(ring, cqes[i]);
	pthread_mutex_unlock(&lock);
	return n;
}

#endif
