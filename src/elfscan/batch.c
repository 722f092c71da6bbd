/*
 * batch.c - what the reading stage hands to the judge: the images of a
 * file, or of one member of a container, collected while the library read
 * them, with what could not be read.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfscan.h"

static struct found *
next(struct batch *b, enum found_kind kind, const char *member)
{
	struct found *f;

	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 8;
		b->v = xrealloc(b->v, b->cap * sizeof(*b->v));
	}
	f = &b->v[b->n++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->member = member != NULL ? xstrdup(member) : NULL;
	return f;
}

void
batch_image(struct batch *b, const char *member,
    const struct chstk_info *info)
{
	next(b, FOUND_IMAGE, member)->info = *info;
}

void
batch_add(struct batch *b, enum found_kind kind, const char *member,
    const char *fmt, ...)
{
	struct found *f = next(b, kind, member);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&f->msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		f->msg = xstrdup("");
}

void
batch_clear(struct batch *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		free(b->v[i].member);
		free(b->v[i].msg);
	}
	free(b->v);
	b->v = NULL;
	b->n = b->cap = 0;
}
