/*
 * floor.c - the least any scanner of a tree could do, to time elfscan
 * against: N threads (elfscan's default, the online CPUs; -j N) that list
 * every directory with getdents64 and read the first 64 bytes of every
 * regular file, and nothing else: no stat, no loop check, no output but a
 * count. A scanner that tells an ELF file from others by its first bytes
 * cannot do less, so elfscan's time over this one is what its own work
 * costs.
 *
 * With a cold cache that time is the disk's: what counts is how many reads
 * are in flight, and two threads keep two. The deep-queue floors keep many:
 * more threads (-j 64), or, with -q DEPTH, each thread hands the opens,
 * reads and closes of the files it lists to an io_uring of its own, DEPTH
 * files in flight at once (the listing stays with the threads: io_uring
 * has no getdents).
 *
 *   floor [-j N] [-q DEPTH] DIR
 *
 * Prints "FILES files in DIRS directories" on standard output. Exit status
 * 0, or 2 when DIR cannot be opened, a thread cannot be started or an
 * io_uring cannot be set up.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A directory to list, by its full path. */
struct dir {
	struct dir *next;
	char path[];
};

struct floor {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct dir *stack;
	unsigned idle, threads;
	unsigned depth;		/* files in flight a thread with -q, else 0 */
	bool done;
	atomic_ulong files, dirs;
};

/* A listed directory whose descriptor the files in flight open from. */
struct open_dir {
	int fd;
	unsigned refs;		/* files in flight, and 1 while it is listed */
};

/*
 * A file in flight in a thread's ring: three linked requests, an open into
 * the fixed-file slot of the same index, a read of 64 bytes from it and
 * its close, each with its own completion. Hard links, so that a short
 * read does not cancel the close.
 */
struct slot {
	struct open_dir *dir;
	unsigned pending;	/* completions still to come */
	unsigned char head[64];
	char name[256];
};

struct uring {
	struct io_uring ring;
	struct slot *slots;
	unsigned *free;		/* indexes of the free slots */
	unsigned nfree;
};

enum { OP_OPEN, OP_READ, OP_CLOSE };

static void
push(struct floor *f, const char *parent, const char *name)
{
	size_t plen = strlen(parent), nlen = strlen(name);
	struct dir *d = malloc(sizeof(*d) + plen + nlen + 2);

	if (d == NULL) {
		fprintf(stderr, "floor: out of memory\n");
		exit(2);
	}
	memcpy(d->path, parent, plen);
	d->path[plen] = '/';
	memcpy(d->path + plen + 1, name, nlen + 1);
	pthread_mutex_lock(&f->lock);
	d->next = f->stack;
	f->stack = d;
	if (f->idle > 0)
		pthread_cond_signal(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

/* The next directory; NULL once every thread waits and none is left. */
static struct dir *
pop(struct floor *f)
{
	struct dir *d;

	pthread_mutex_lock(&f->lock);
	while (f->stack == NULL && !f->done) {
		if (++f->idle == f->threads) {
			f->done = true;
			pthread_cond_broadcast(&f->cond);
			break;
		}
		pthread_cond_wait(&f->cond, &f->lock);
		f->idle--;
	}
	d = f->stack;
	if (d != NULL)
		f->stack = d->next;
	pthread_mutex_unlock(&f->lock);
	return d;
}

static void *
xmalloc(size_t size)
{
	void *p = malloc(size);

	if (p == NULL) {
		fprintf(stderr, "floor: out of memory\n");
		exit(2);
	}
	return p;
}

static void
release(struct open_dir *d)
{
	if (--d->refs == 0) {
		close(d->fd);
		free(d);
	}
}

static void
uring_open(struct uring *u, unsigned depth)
{
	unsigned i;
	int ret;

	/* Room for every slot's three requests, so no request waits for one. */
	ret = io_uring_queue_init(3 * depth, &u->ring, 0);
	if (ret == 0)
		ret = io_uring_register_files_sparse(&u->ring, depth);
	if (ret < 0) {
		fprintf(stderr, "floor: io_uring: %s\n", strerror(-ret));
		exit(2);
	}
	u->slots = xmalloc(depth * sizeof(*u->slots));
	u->free = xmalloc(depth * sizeof(*u->free));
	for (i = 0; i < depth; i++)
		u->free[i] = depth - 1 - i;
	u->nfree = depth;
}

/* Submits what is queued, waits for WAIT completions, takes all there are. */
static void
reap(struct floor *f, struct uring *u, unsigned wait)
{
	struct io_uring_cqe *cqe;
	struct slot *s;
	unsigned head, i, n = 0;
	int ret;

	ret = io_uring_submit_and_wait(&u->ring, wait);
	if (ret < 0 && ret != -EINTR) {
		fprintf(stderr, "floor: io_uring: %s\n", strerror(-ret));
		exit(2);
	}
	io_uring_for_each_cqe(&u->ring, head, cqe) {
		i = (unsigned)(cqe->user_data >> 2);
		s = &u->slots[i];
		n++;
		if ((cqe->user_data & 3) == OP_READ && cqe->res >= 0)
			atomic_fetch_add(&f->files, 1);
		if (--s->pending == 0) {
			release(s->dir);
			u->free[u->nfree++] = i;
		}
	}
	io_uring_cq_advance(&u->ring, n);
}

static struct io_uring_sqe *
sqe_for(struct uring *u, unsigned i, unsigned op)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	io_uring_sqe_set_data64(sqe, (uint64_t)i << 2 | op);
	return sqe;
}

/* Queues the open, read and close of NAME in D (a direct descriptor may
 * not be O_CLOEXEC). */
static void
queue(struct floor *f, struct uring *u, struct open_dir *d, const char *name)
{
	struct io_uring_sqe *sqe;
	struct slot *s;
	unsigned i;

	while (u->nfree == 0)
		reap(f, u, 1);
	i = u->free[--u->nfree];
	s = &u->slots[i];
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->dir = d;
	d->refs++;
	s->pending = 3;
	sqe = sqe_for(u, i, OP_OPEN);
	io_uring_prep_openat_direct(sqe, d->fd, s->name,
	    O_RDONLY | O_NOFOLLOW | O_NONBLOCK, 0, i);
	sqe->flags |= IOSQE_IO_HARDLINK;
	sqe = sqe_for(u, i, OP_READ);
	io_uring_prep_read(sqe, (int)i, s->head, sizeof(s->head), 0);
	sqe->flags |= IOSQE_FIXED_FILE | IOSQE_IO_HARDLINK;
	sqe = sqe_for(u, i, OP_CLOSE);
	io_uring_prep_close_direct(sqe, i);
}

/* Reads the head of NAME in D now, or queues it in U. */
static void
read_head(struct floor *f, struct uring *u, struct open_dir *d,
    const char *name)
{
	unsigned char buf[64];
	int file;

	if (u != NULL) {
		queue(f, u, d, name);
		return;
	}
	file = openat(d->fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC);
	if (file == -1)
		return;
	if (read(file, buf, sizeof(buf)) >= 0)
		atomic_fetch_add(&f->files, 1);
	close(file);
}

static void
list(struct floor *f, struct uring *u, const char *path, char *buf,
    size_t len)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct open_dir *d;
	ssize_t n, off;

	if (fd == -1)
		return;
	d = xmalloc(sizeof(*d));
	d->fd = fd;
	d->refs = 1;
	atomic_fetch_add(&f->dirs, 1);
	while ((n = getdents64(fd, buf, len)) > 0) {
		for (off = 0; off < n;) {
			struct dirent64 *e = (struct dirent64 *)(buf + off);

			off += e->d_reclen;
			if (e->d_type == DT_DIR && strcmp(e->d_name, ".") != 0 &&
			    strcmp(e->d_name, "..") != 0)
				push(f, path, e->d_name);
			else if (e->d_type == DT_REG)
				read_head(f, u, d, e->d_name);
		}
		/* The next getdents64 reuses buf, but each slot has
		 * its own copy of the name. */
		if (u != NULL)
			io_uring_submit(&u->ring);
	}
	release(d);
}

static void *
worker(void *arg)
{
	struct floor *f = arg;
	static __thread char buf[32768];
	struct uring ring, *u = NULL;
	struct dir *d;

	if (f->depth > 0) {
		uring_open(&ring, f->depth);
		u = &ring;
	}
	while ((d = pop(f)) != NULL) {
		list(f, u, d->path, buf, sizeof(buf));
		free(d);
	}
	if (u != NULL) {
		while (u->nfree < f->depth)
			reap(f, u, 1);
		io_uring_queue_exit(&u->ring);
		free(u->slots);
		free(u->free);
	}
	return NULL;
}

static void
usage(void)
{
	fprintf(stderr, "usage: floor [-j N] [-q DEPTH] DIR\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct floor f = { .lock = PTHREAD_MUTEX_INITIALIZER,
	    .cond = PTHREAD_COND_INITIALIZER };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned jobs = cpus > 0 ? (unsigned)cpus : 1, i, started = 0;
	pthread_t *t;
	char *root;
	int c;

	while ((c = getopt(argc, argv, "j:q:")) != -1) {
		if ((c != 'j' && c != 'q') || atoi(optarg) < 1)
			usage();
		if (c == 'j')
			jobs = (unsigned)atoi(optarg);
		else
			f.depth = (unsigned)atoi(optarg);
	}
	if (optind + 1 != argc)
		usage();
	root = argv[optind];
	if (access(root, R_OK | X_OK) == -1) {
		fprintf(stderr, "floor: %s: %s\n", root, strerror(errno));
		return 2;
	}
	f.stack = malloc(sizeof(*f.stack) + strlen(root) + 1);
	if (f.stack == NULL || (t = calloc(jobs, sizeof(*t))) == NULL) {
		fprintf(stderr, "floor: out of memory\n");
		return 2;
	}
	f.stack->next = NULL;
	strcpy(f.stack->path, root);
	/* The main thread is one of the jobs, as in elfscan. */
	f.threads = jobs;
	for (i = 0; i + 1 < jobs; i++) {
		if (pthread_create(&t[i], NULL, worker, &f) != 0) {
			fprintf(stderr, "floor: cannot start a thread\n");
			return 2;
		}
		started++;
	}
	worker(&f);
	for (i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	printf("%lu files in %lu directories\n", atomic_load(&f.files),
	    atomic_load(&f.dirs));
	free(t);
	return 0;
}
