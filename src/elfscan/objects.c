/*
 * objects.c - the programs and libraries of a root, once each, by file
 * identity (see system.h): a library that a thousand programs load, or
 * that two paths name (/lib and /usr/lib on a merged /usr), is read and
 * kept once. What is kept of each is what loading it depends on: its
 * marking and how it links, a few hundred bytes. The walk's workers add
 * to it under the lock; after the walk one thread reads it.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "system.h"
#include "verdict.h"
#include "xalloc.h"

void
objects_init(struct objects *t)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
	t->cap = 1024;
	t->slot = xcalloc(t->cap, sizeof(*t->slot));
}

static void
obj_free(struct obj *o)
{
	free(o->path);
	free(o->error);
	free(o->soname);
	free(o->needed);
	free(o->rpath);
	free(o->runpath);
	free(o->interp);
	free(o->dlopen);
	free(o);
}

void
objects_free(struct objects *t)
{
	struct obj *o, *next;
	size_t i;

	for (i = 0; i < t->cap; i++)
		for (o = t->slot[i]; o != NULL; o = next) {
			next = o->next;
			obj_free(o);
		}
	free(t->slot);
	pthread_mutex_destroy(&t->lock);
}

static size_t
hash(dev_t dev, ino_t ino, size_t cap)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ULL ^ (uint64_t)dev;

	return (size_t)(h ^ h >> 29) & (cap - 1);
}

static struct obj *
find(const struct objects *t, dev_t dev, ino_t ino)
{
	struct obj *o;

	for (o = t->slot[hash(dev, ino, t->cap)]; o != NULL; o = o->next)
		if (o->dev == dev && o->ino == ino)
			return o;
	return NULL;
}

struct obj *
objects_get(struct objects *t, dev_t dev, ino_t ino)
{
	struct obj *o;

	pthread_mutex_lock(&t->lock);
	o = find(t, dev, ino);
	pthread_mutex_unlock(&t->lock);
	return o;
}

/* Twice the slots, when they hold as many objects. */
static void
grow(struct objects *t)
{
	struct obj **slot, *o, *next;
	size_t cap = t->cap * 2, i, h;

	slot = xcalloc(cap, sizeof(*slot));
	for (i = 0; i < t->cap; i++)
		for (o = t->slot[i]; o != NULL; o = next) {
			next = o->next;
			h = hash(o->dev, o->ino, cap);
			o->next = slot[h];
			slot[h] = o;
		}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
}

static void
fill(struct obj *o, const struct chstk_info *info)
{
	const struct chstk_hardening *h = info->hardening;

	o->info = *info;
	o->info.hardening = NULL;
	o->info.sections = NULL;
	o->soname = xstrdup(h != NULL ? h->soname : "");
	o->needed = xlistdup(h != NULL ? h->needed : "");
	o->interp = xstrdup(h != NULL ? h->interp : "");
	if (h == NULL)
		return;
	o->textrel = h->textrel;
	o->nodeflib = (h->flags_1 & DF_1_NODEFLIB) != 0;
	o->rpath = h->has_rpath ? xstrdup(h->rpath) : NULL;
	o->runpath = h->has_runpath ? xstrdup(h->runpath) : NULL;
	o->dlopen = h->dlopen[0] != '\0' ? xlistdup(h->dlopen) : NULL;
}

struct obj *
objects_put(struct objects *t, dev_t dev, ino_t ino, const char *path,
    const struct chstk_info *info, const char *why, bool program)
{
	struct obj *o;
	size_t h;

	pthread_mutex_lock(&t->lock);
	if ((o = find(t, dev, ino)) != NULL) {
		if (o->path == NULL && path != NULL)
			o->path = xstrdup(path);
		o->program |= program;
		goto out;
	}
	o = xcalloc(1, sizeof(*o));
	o->dev = dev;
	o->ino = ino;
	o->path = path != NULL ? xstrdup(path) : NULL;
	if (info != NULL)
		fill(o, info);
	else
		o->error = xstrdup(why != NULL ? why : "not an ELF file");
	o->elf = info != NULL || why != NULL;
	o->program = program;
	if (t->n + 1 > t->cap)
		grow(t);
	h = hash(dev, ino, t->cap);
	o->next = t->slot[h];
	t->slot[h] = o;
	t->n++;
out:
	pthread_mutex_unlock(&t->lock);
	return o;
}

/* The library's report of the file: its one image, kept until it is
   recorded, or why not. */
struct one {
	struct chstk_info info;
	struct chstk_hardening h;
	bool image;
	char why[512];
};

static int
take(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct one *one = arg;

	if (member != NULL || info == NULL) {
		snprintf(one->why, sizeof(one->why), "%s", member != NULL ?
		    "an ar archive, no shared object" : err->msg);
		return 1;
	}
	one->info = *info;
	one->info.sections = NULL;	/* lent for the call only */
	one->h = *info->hardening;
	one->h.needed = xlistdup(info->hardening->needed);
	one->h.rpath = xstrdup(info->hardening->rpath);
	one->h.runpath = xstrdup(info->hardening->runpath);
	one->h.soname = xstrdup(info->hardening->soname);
	one->h.interp = xstrdup(info->hardening->interp);
	one->h.dlopen = xlistdup(info->hardening->dlopen);
	one->info.hardening = &one->h;
	one->image = true;
	return 0;
}

/* Read the file open on fd (at the in-root path) and record it. */
static struct obj *
objects_read(struct objects *t, int fd, const char *path)
{
	struct stat st;

	if (fstat(fd, &st) == -1)
		return NULL;
	return objects_read_as(t, fd, path, st.st_dev, st.st_ino);
}

struct obj *
objects_read_as(struct objects *t, int fd, const char *path, dev_t dev,
    ino_t ino)
{
	struct chstk_scan_opts so = { .read = CHSTK_READ_DYNAMIC };
	struct one one = { .image = false };
	struct chstk_error err;
	struct obj *o;

	if ((o = objects_get(t, dev, ino)) != NULL)
		return o;
	if (chstk_scan_fd_with(fd, &so, take, &one, &err) < 0)
		snprintf(one.why, sizeof(one.why), "%s", err.code ==
		    CHSTK_ERR_SYS ? strerror(err.sys_errno) : err.msg);
	if (!one.image)
		return objects_put(t, dev, ino, path, NULL,
		    one.why[0] != '\0' ? one.why : NULL, false);
	o = objects_put(t, dev, ino, path, &one.info, NULL, false);
	free((char *)one.h.needed);
	free((char *)one.h.rpath);
	free((char *)one.h.runpath);
	free((char *)one.h.soname);
	free((char *)one.h.interp);
	free((char *)one.h.dlopen);
	return o;
}

struct obj *
objects_at(struct objects *t, const struct rootfs *fs, const char *path)
{
	struct rootfs_stat st;
	struct obj *o;
	int fd;

	if (rootfs_stat(fs, path, &st, NULL, 0) < 0 || st.type != S_IFREG)
		return NULL;
	if ((o = objects_get(t, st.dev, st.ino)) != NULL) {
		if (o->path == NULL)
			o->path = xstrdup(path);
		return o;
	}
	if ((fd = rootfs_open(fs, path)) == -1)
		return NULL;
	o = objects_read(t, fd, path);
	close(fd);
	return o;
}

bool
obj_asks(const struct obj *o)
{
	struct verdict v;

	verdict_of(&o->info, 0, &v);
	return v.effective == EFF_EXEC;
}

void
objects_each(struct objects *t, void (*fn)(void *arg, struct obj *o),
    void *arg)
{
	struct obj *o;
	size_t i;

	for (i = 0; i < t->cap; i++)
		for (o = t->slot[i]; o != NULL; o = o->next)
			fn(arg, o);
}
