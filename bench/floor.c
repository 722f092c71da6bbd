/*
 * floor.c - the least any scanner of a tree could do, to time elfscan
 * against: N threads (elfscan's default, the online CPUs; -j N) that list
 * every directory with getdents64 and read the first 64 bytes of every
 * regular file, and nothing else: no stat, no loop check, no output but a
 * count. A scanner that tells an ELF file from others by its first bytes
 * cannot do less, so elfscan's time over this one is what its own work
 * costs.
 *
 *   floor [-j N] DIR
 *
 * Prints "FILES files in DIRS directories" on standard output. Exit status
 * 0, or 2 when DIR cannot be opened or a thread cannot be started.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
	bool done;
	atomic_ulong files, dirs;
};

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

static void
list(struct floor *f, const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	unsigned char head[64];
	ssize_t n, off;
	int file;

	if (fd == -1)
		return;
	atomic_fetch_add(&f->dirs, 1);
	while ((n = getdents64(fd, buf, len)) > 0)
		for (off = 0; off < n;) {
			struct dirent64 *e = (struct dirent64 *)(buf + off);

			off += e->d_reclen;
			if (e->d_type == DT_DIR && strcmp(e->d_name, ".") != 0 &&
			    strcmp(e->d_name, "..") != 0) {
				push(f, path, e->d_name);
			} else if (e->d_type == DT_REG) {
				file = openat(fd, e->d_name, O_RDONLY |
				    O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
				if (file == -1)
					continue;
				if (read(file, head, sizeof(head)) >= 0)
					atomic_fetch_add(&f->files, 1);
				close(file);
			}
		}
	close(fd);
}

static void *
worker(void *arg)
{
	struct floor *f = arg;
	static __thread char buf[32768];
	struct dir *d;

	while ((d = pop(f)) != NULL) {
		list(f, d->path, buf, sizeof(buf));
		free(d);
	}
	return NULL;
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

	while ((c = getopt(argc, argv, "j:")) != -1) {
		if (c != 'j' || atoi(optarg) < 1) {
			fprintf(stderr, "usage: floor [-j N] DIR\n");
			return 2;
		}
		jobs = (unsigned)atoi(optarg);
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: floor [-j N] DIR\n");
		return 2;
	}
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
