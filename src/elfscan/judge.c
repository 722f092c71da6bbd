/*
 * judge.c - the third stage: each image a file holds, judged once. The
 * rules (verdict.c) say what stack it gets and what is wrong; with
 * --hardening, hardening.c judges its other defences and what --require
 * asks of them. Only an image with a stack finding is looked up in the
 * allowlist, once, as FILE or FILE!MEMBER (a member is allowed with its
 * container). Then the counters, and the report. What the reading stage hands over is a batch
 * (batch.c): the images of a file, or of one member of a container.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfscan.h"

/* Is the image allowed? FILE, or for a member FILE!MEMBER too. */
static bool
allowed(const struct judge *j, const char *path, const char *member)
{
	char *full;
	bool yes;

	if (allow_match(&j->o->allow, path))
		return true;
	if (member == NULL)
		return false;
	if (asprintf(&full, "%s!%s", path, member) < 0)
		oom();
	yes = allow_match(&j->o->allow, full);
	free(full);
	return yes;
}

/* The findings --require gives the image, by FILE or FILE!MEMBER. */
static unsigned
required(const struct judge *j, const char *path, const char *member,
    const struct hard *h)
{
	char *full;
	unsigned f;

	if (member == NULL)
		return require_check(j->o->require, j->o->nrequire, path, h);
	if (asprintf(&full, "%s!%s", path, member) < 0)
		oom();
	f = require_check(j->o->require, j->o->nrequire, full, h);
	free(full);
	return f;
}

/* The --hardening counts of one image. */
static void
count_hardening(struct stats *st, const struct hard *h)
{
	if (!h->known)
		return;
	if (h->pie != PIE_NA) {
		atomic_fetch_add(&st->programs, 1);
		if (h->pie != PIE_NO)
			atomic_fetch_add(&st->pie, 1);
	}
	if (h->relro != RELRO_NA)
		atomic_fetch_add(&st->linked, 1);
	atomic_fetch_add(&st->relro[h->relro], 1);
	atomic_fetch_add(&st->canary[h->canary], 1);
	atomic_fetch_add(&st->fortify[h->fortify], 1);
	if (h->paths == T_NO)
		atomic_fetch_add(&st->unsafe_paths, 1);
	if (h->ibt != T_NA) {
		atomic_fetch_add(&st->x86, 1);
		if (h->ibt == T_YES && h->shstk == T_YES)
			atomic_fetch_add(&st->cfi_x86, 1);
	}
	if (h->bti != T_NA) {
		atomic_fetch_add(&st->arm, 1);
		if (h->bti == T_YES && h->pac == T_YES)
			atomic_fetch_add(&st->cfi_arm, 1);
	}
	if (h->symbols == T_NO)
		atomic_fetch_add(&st->stripped, 1);
}

/* What the record is about: the batch's file, the found's member. */
static void
where_of(const struct batch *b, const struct found *f, struct where *w)
{
	w->path = b->path;
	w->member = f->member;
	w->image = b->image;
	w->layer = b->layer;
	w->file = b->file;
	w->streamed = b->streamed;
}

/* Returns whether the image has a finding. The allowlist waives the
   stack's findings, not what --require asks. */
static bool
judge_image(struct judge *j, const struct batch *b, const struct found *f)
{
	struct stats *st = j->st;
	struct verdict v;
	struct hard h;
	struct where w;

	verdict_of(&f->info, false, &v);
	if ((v.findings & ~F_WX_SEGMENT) != 0 && j->o->allow.n > 0 &&
	    allowed(j, b->path, f->member))
		verdict_of(&f->info, true, &v);
	hardening_judge(&f->info, &f->syms, &h);
	if (j->o->nrequire > 0)
		v.findings |= required(j, b->path, f->member, &h);
	count_hardening(st, &h);
	atomic_fetch_add(&st->images, 1);
	atomic_fetch_add(&st->state[f->info.state], 1);
	if (v.effective == EFF_EXEC)
		atomic_fetch_add(&st->exec, 1);
	if (v.allowed)
		atomic_fetch_add(&st->allowed, 1);
	if (v.findings)
		atomic_fetch_add(&st->with_findings, 1);
	where_of(b, f, &w);
	report_image(j->r, &w, &f->info, &v, &h);
	return v.findings != 0;
}

bool
judge_batch(struct judge *j, const struct batch *b)
{
	bool findings = false;
	struct where w;
	size_t i;

	for (i = 0; i < b->n; i++) {
		const struct found *f = &b->v[i];

		switch (f->kind) {
		case FOUND_IMAGE:
			findings |= judge_image(j, b, f);
			break;
		case FOUND_MALFORMED:
			atomic_fetch_add(&j->st->images, 1);
			atomic_fetch_add(&j->st->with_findings, 1);
			where_of(b, f, &w);
			report_error(j->r, &w, true, f->msg);
			findings = true;
			break;
		case FOUND_ERROR:
			where_of(b, f, &w);
			report_error(j->r, &w, false, f->msg);
			break;
		}
	}
	return findings;
}

void
judge_file(struct judge *j, const char *path, bool findings)
{
	if (findings && j->o->print0)
		report_path0(j->r, path);
}
