/*
 * progress.c - on a terminal, one line on standard error while a long scan
 * runs: files seen, their rate, and a directory being read. Redrawn four
 * times a second by its own thread, erased at the end. It is drawn under
 * the report's err_lock and marked drawn there, so that report.c erases it
 * before it prints a message; the next redraw puts it back. It never waits
 * for the standard output, which a reader may hold up.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report.h"
#include "xalloc.h"

struct progress {
	struct report *r;
	struct stats *st;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop;
	char dir[256];
	struct timespec start;
};

static double
since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	    (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void *
draw(void *arg)
{
	struct progress *p = arg;
	struct timespec until;

	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		unsigned long files, images;
		double s;
		size_t len;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 250000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		if (pthread_cond_timedwait(&p->cond, &p->lock, &until) == 0 ||
		    p->stop)
			break;
		/* Counted when drawn, the images first: a file is counted
		   before its images, so no line shows more ELF than files. */
		images = atomic_load(&p->st->c[C_IMAGES]);
		files = atomic_load(&p->st->c[C_FILES]);
		s = since(&p->start);
		len = strlen(p->dir);
		pthread_mutex_lock(&p->r->err_lock);
		fprintf(stderr, "\r\033[K%lu %s, %lu ELF, %.0f files/s  %s%s",
		    files, files == 1 ? "file" : "files", images,
		    s > 0 ? (double)files / s : 0.0, len > 40 ? "..." : "",
		    p->dir + (len > 40 ? len - 40 : 0));
		fflush(stderr);
		p->r->line = true;
		pthread_mutex_unlock(&p->r->err_lock);
	}
	pthread_mutex_unlock(&p->lock);
	pthread_mutex_lock(&p->r->err_lock);
	if (p->r->line)
		fputs("\r\033[K", stderr);
	p->r->line = false;
	pthread_mutex_unlock(&p->r->err_lock);
	return NULL;
}

struct progress *
progress_start(struct report *r)
{
	struct progress *p = xcalloc(1, sizeof(*p));

	p->r = r;
	p->st = r->st;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	if (pthread_create(&p->thread, NULL, draw, p) != 0) {
		free(p);
		return NULL;
	}
	return p;
}

/* Cheap enough for every directory: skipped while the line is drawn. */
void
progress_dir(struct progress *p, const char *dir)
{
	size_t len = strlen(dir);

	if (pthread_mutex_trylock(&p->lock) != 0)
		return;
	if (len >= sizeof(p->dir))
		dir += len - (sizeof(p->dir) - 1);
	snprintf(p->dir, sizeof(p->dir), "%s", dir);
	pthread_mutex_unlock(&p->lock);
}

void
progress_stop(struct progress *p)
{
	if (p == NULL)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p);
}
