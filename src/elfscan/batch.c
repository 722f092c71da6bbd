/*
 * batch.c - what the reading stage hands to the judge: the images of a
 * file, or of one member of a container, collected while the library read
 * them, with what could not be read. With --hardening the library hands
 * over an image's symbols one at a time, before the image, and keeps
 * none: what the rules will ask of them (hard_syms_add) is noted as they
 * go by, for the judge.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "xalloc.h"

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

int
batch_unit(void *batch, const struct chstk_unit *unit)
{
	struct batch *b = batch;

	ev_unit(&b->ev, unit);
	return 0;
}

int
batch_symbol(void *batch, const struct chstk_sym *sym)
{
	struct batch *b = batch;

	hard_syms_add(&b->syms, sym);
	scope_symbol(&b->scope_syms, sym);
	return 0;
}

unsigned
batch_want(void *batch, const struct chstk_info *info)
{
	(void)batch;
	return scope_want(info);
}

/* The image, with a copy of what the library lent of its sections and
   hardening. */
void
batch_image(struct batch *b, const char *member, bool ar_member,
    const struct chstk_info *info)
{
	struct found *f = next(b, FOUND_IMAGE, member);
	struct chstk_sections *t;
	struct chstk_hardening *h;

	f->ar_member = ar_member;
	f->info = *info;
	if (info->hardening != NULL) {
		f->syms = xmalloc(sizeof(*f->syms));
		*f->syms = b->syms;
	}
	f->scope_syms = b->scope_syms;
	hard_syms_clear(&b->syms);
	if (b->evidence || b->ev.units != 0) {
		f->ev = xmalloc(sizeof(*f->ev));
		*f->ev = b->ev;
	}
	ev_clear(&b->ev);
	b->scope_syms = 0;
	if (info->sections != NULL) {
		t = xmalloc(sizeof(*t));
		*t = *info->sections;
		f->info.sections = t;
	}
	if (info->hardening == NULL)
		return;
	if (b->evidence)
		ev_image(f->ev, info->hardening);
	h = xmalloc(sizeof(*h));
	*h = *info->hardening;
	h->rpath = xstrdup(h->rpath);
	h->runpath = xstrdup(h->runpath);
	h->soname = xstrdup(h->soname);
	h->interp = xstrdup(h->interp);
	h->needed = xlistdup(h->needed);
	h->evidence_error = NULL;
	h->dlopen = xlistdup(h->dlopen);
	f->info.hardening = h;
}

void
batch_copy(struct batch *b, const char *member, const struct found *f)
{
	bool evidence = b->evidence;

	b->syms = *found_syms(f);
	b->scope_syms = f->scope_syms;
	b->evidence = false;
	batch_image(b, member, f->ar_member, &f->info);
	b->evidence = evidence;
	if (f->ev != NULL) {
		b->v[b->n - 1].ev = xmalloc(sizeof(*f->ev));
		*b->v[b->n - 1].ev = *f->ev;
	}
}

static void
free_lent(const struct chstk_info *info)
{
	struct chstk_hardening *h = (struct chstk_hardening *)info->hardening;

	free((struct chstk_sections *)info->sections);
	if (h == NULL)
		return;
	free((char *)h->rpath);
	free((char *)h->runpath);
	free((char *)h->soname);
	free((char *)h->interp);
	free((char *)h->needed);
	free((char *)h->dlopen);
	free(h);
}

void
batch_add(struct batch *b, enum found_kind kind, const char *member,
    const char *fmt, ...)
{
	struct found *f = next(b, kind, member);
	va_list ap;
	char *p;
	int n;

	/* The symbols read belonged to an image that could not be read. */
	hard_syms_clear(&b->syms);
	ev_clear(&b->ev);
	b->scope_syms = 0;

	va_start(ap, fmt);
	n = vasprintf(&f->msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	/* A message is one line, whatever libarchive's strings hold (some
	   end in a newline). */
	while (n > 0 && (f->msg[n - 1] == '\n' || f->msg[n - 1] == ' '))
		f->msg[--n] = '\0';
	for (p = f->msg; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

void
batch_drop(struct batch *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		free(b->v[i].member);
		free(b->v[i].msg);
		free(b->v[i].ev);
		free(b->v[i].syms);
		free_lent(&b->v[i].info);
	}
	b->n = 0;
}

void
batch_clear(struct batch *b)
{
	batch_drop(b);
	free(b->v);
	b->v = NULL;
	b->cap = 0;
	hard_syms_clear(&b->syms);
	ev_clear(&b->ev);
	b->scope_syms = 0;
}
