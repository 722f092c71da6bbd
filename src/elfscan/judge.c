/*
 * judge.c - the third stage: each image a file holds, judged once. The
 * rules (verdict.c) say what stack it gets and what is wrong; with
 * --hardening, hardening.c judges its other defences and what --require
 * asks of them; an image of a class Linux does not run or link (scope.c)
 * is counted in its class and not judged, but with --all. Only an image
 * with a stack finding, or that does not parse, is looked up in the
 * allowlist, once, by all its names (allow.c: its path, its installed
 * path, its container's). Then the counters, and the report. What the
 * reading stage hands over is a batch (batch.h): the images of a file, or
 * of one member of a container.
 */
#include "batch.h"
#include "debug.h"
#include "diff.h"
#include "elfscan.h"
#include "report.h"
#include "store.h"
#include "system.h"

/* The --hardening counts of one image. */
static void
count_hardening(struct stats *st, const struct hard *h)
{
	if (!h->known)
		return;
	if (h->pie != PIE_NA) {
		stat_add(st, C_PROGRAMS);
		if (h->pie != PIE_NO)
			stat_add(st, C_PIE);
	}
	if (h->relro != RELRO_NA)
		stat_add(st, C_LINKED);
	stat_add(st, C_RELRO + h->relro);
	stat_add(st, C_CANARY + h->canary);
	stat_add(st, C_FORTIFY + h->fortify);
	if (h->paths == T_NO)
		stat_add(st, C_UNSAFE_PATHS);
	if (h->ibt != T_NA) {
		stat_add(st, C_X86);
		if (h->ibt == T_YES && h->shstk == T_YES)
			stat_add(st, C_IBT_SHSTK);
	}
	if (h->bti != T_NA) {
		stat_add(st, C_ARM);
		if (h->bti == T_YES && h->pac == T_YES)
			stat_add(st, C_BTI_PAC);
	}
	if (h->symbols == T_NO)
		stat_add(st, C_STRIPPED);
	if (h->textrel == T_YES)
		stat_add(st, C_TEXTREL);
	if (h->entry_endbr != T_NA) {
		stat_add(st, C_X86_PROGRAMS);
		if (h->entry_endbr == T_YES)
			stat_add(st, C_ENTRY_ENDBR);
	}
	if (h->lang == LANG_GO)
		stat_add(st, C_GO);
	if (h->lang == LANG_RUST)
		stat_add(st, C_RUST);
}

void
judge_count(struct stats *st, enum chstk_state state, const struct verdict *v,
    const struct hard *h, bool judged)
{
	stat_add(st, C_IMAGES);
	stat_add(st, C_STATE + state);
	stat_add(st, C_SCOPE + v->scope);
	if (!judged)
		return;
	count_hardening(st, h);
	if (v->effective == EFF_EXEC)
		stat_add(st, C_EFF_EXEC);
}

void
judge_count_findings(struct stats *st, const struct verdict *v)
{
	unsigned i;

	if (v->allowed)
		stat_add(st, C_ALLOWED);
	if (v->findings)
		stat_add(st, C_FINDINGS);
	for (i = 0; i < F_COUNT; i++)
		if (v->findings & F_BIT(i))
			stat_add(st, C_KIND + i);
}

void
judge_count_unread(struct stats *st, bool malformed, bool waived)
{
	if (malformed)
		stat_add(st, C_IMAGES);
	if (waived) {
		stat_add(st, C_ALLOWED);
	} else {
		stat_add(st, C_FINDINGS);
		stat_add(st, C_KIND + (unsigned)__builtin_ctzll(F_MALFORMED));
	}
}

/* What the record is about: the batch's file, the found's member. */
static struct where
where_of(const struct batch *b, const struct found *f)
{
	struct where w = b->at;

	w.member = f->member;
	return w;
}

/* Does the glibc that would dlopen the image refuse it when it asks for
   an executable stack? In a root, on disk or an image judged as one, the
   root's (system.h) says; in a package or a tarball, which holds no glibc
   of its own, or an image scanned as a container, glibc's since 2.41. */
static unsigned
refusing(const struct judge *j, const struct batch *b,
    const struct chstk_info *info)
{
	if (b->packed || j->sys == NULL)
		return VERDICT_REFUSING;
	return system_refuses_dlopen(j->sys, info->machine, info->elf_class) ?
	    VERDICT_REFUSING : 0;
}

/* The image's evidence, completed by its separate debug file when it has
   no DWARF or notes of its own: the debug packages named, then, for a
   file on disk, the root's .build-id tree. */
static void
evidence_of(const struct judge *j, const struct batch *b,
    const struct found *f, struct evidence *ev)
{
	const struct chstk_hardening *h = f->info.hardening;

	*ev = *found_ev(f);
	if (!ev->looked || ev_has_own(ev) || h == NULL ||
	    h->build_id_len == 0 || (f->info.kind != CHSTK_KIND_PROGRAM &&
	    f->info.kind != CHSTK_KIND_SHARED))
		return;
	debug_find(j->debug, b->packed || j->sys == NULL ? NULL :
	    system_fs(j->sys), h->build_id, h->build_id_len, ev);
}

/* An image Linux's rules do not judge (scope.c): counted in its class,
   reported with why, no finding. */
static void
not_judged(struct judge *j, const struct batch *b, const struct found *f,
    enum scope scope, const char *why)
{
	struct where w = where_of(b, f);
	struct verdict v = { .effective = EFF_NONE, .why = why,
	    .scope = scope };
	struct hard h = { .known = false };
	struct evidence ev;

	ev_clear(&ev);
	judge_count(j->st, f->info.state, &v, &h, false);
	/* --diff: what is not judged has no finding on its side. */
	if (j->diff != NULL)
		diff_image(j->diff, j->side, &w, &f->info, &v, &h);
	else if (j->store != NULL)
		store_image(j->store, j->r, &w, &f->info, &v, &h, &ev, false);
	else
		report_image(j->r, &w, &f->info, &v, &h, &ev);
}

/* Returns whether the image has a finding. The allowlist waives the
   stack's findings, not what --require asks. An image of a class Linux
   does not run or link is not judged, but with --all. */
static bool
judge_image(struct judge *j, const struct batch *b, const struct found *f)
{
	const struct allow_pattern *by = NULL;
	struct stats *st = j->st;
	struct where w = where_of(b, f);
	unsigned how = 0;
	struct evidence ev;
	struct verdict v;
	struct hard h;
	const char *why;
	enum scope scope = scope_of(&f->info, f->ar_member, f->scope_syms,
	    j->sys != NULL ? system_runs(j->sys) : NULL, &why);

	if (scope != SCOPE_LINUX && !j->o->all) {
		not_judged(j, b, f, scope, why);
		return false;
	}
	evidence_of(j, b, f, &ev);
	/* Whether dlopen refuses it matters only to a library that asks
	   for an executable stack: only such a one asks the root. */
	verdict_of(&f->info, 0, &v);
	if (v.effective == EFF_EXEC && f->info.kind == CHSTK_KIND_SHARED &&
	    (how = refusing(j, b, &f->info)) != 0)
		verdict_of(&f->info, how, &v);
	if ((v.findings & ~F_WX_SEGMENT) != 0 &&
	    (by = allow_which(&j->o->allow, &w)) != NULL)
		verdict_of(&f->info, how | VERDICT_ALLOWED, &v);
	v.allowed_by = by;
	v.scope = scope;
	/* A file of the root: on disk, or an image's member. */
	if (j->sys != NULL && b->ino != 0 && scope == SCOPE_LINUX)
		system_add(j->sys, f->member != NULL ? f->member :
		    b->at.path, b->dev, b->ino, &f->info);
	hardening_judge(&f->info, found_syms(f), &ev, &h);
	if (j->o->nrequire > 0)
		v.findings |= require_check(j->o->require, j->o->nrequire, &w,
		    &h);
	judge_count(st, f->info.state, &v, &h, true);
	/* --diff reports what changed, not each side's findings. */
	if (j->diff != NULL) {
		diff_image(j->diff, j->side, &w, &f->info, &v, &h);
		return false;
	}
	judge_count_findings(st, &v);
	if (j->store != NULL)
		store_image(j->store, j->r, &w, &f->info, &v, &h, &ev, true);
	else
		report_image(j->r, &w, &f->info, &v, &h, &ev);
	return v.findings != 0;
}

/* A file of the root the library could not read: a search that finds it
   says so. */
static void
unread(struct judge *j, const struct batch *b, const struct found *f)
{
	if (j->sys != NULL && b->ino != 0)
		system_unread(j->sys, f->member != NULL ? f->member :
		    b->at.path, b->dev, b->ino, f->msg);
}

/* An ELF image that does not parse, or an archive damaged part of the
   way: a finding, which --allow waives. Returns whether it is one. */
static bool
judge_unread(struct judge *j, const struct batch *b, const struct found *f)
{
	struct where w = where_of(b, f);
	enum unread what = f->kind == FOUND_MALFORMED ? UNREAD_ELF :
	    UNREAD_ARCHIVE;
	const struct allow_pattern *by;

	if (j->diff != NULL) {
		if (f->kind == FOUND_MALFORMED)
			stat_add(j->st, C_IMAGES);
		diff_malformed(j->diff, j->side, &w);
		return false;
	}
	by = allow_which(&j->o->allow, &w);
	judge_count_unread(j->st, f->kind == FOUND_MALFORMED, by != NULL);
	if (j->store != NULL)
		store_error(j->store, &w, what, by, f->msg);
	else
		report_error(j->r, &w, what, by != NULL, f->msg);
	return by == NULL;
}

bool
judge_batch(struct judge *j, const struct batch *b)
{
	bool findings = false;
	size_t i;

	for (i = 0; i < b->n; i++) {
		const struct found *f = &b->v[i];
		struct where w = where_of(b, f);

		switch (f->kind) {
		case FOUND_IMAGE:
			findings |= judge_image(j, b, f);
			break;
		case FOUND_MALFORMED:
			unread(j, b, f);
			findings |= judge_unread(j, b, f);
			break;
		case FOUND_DAMAGED:
			findings |= judge_unread(j, b, f);
			break;
		case FOUND_ERROR:
			unread(j, b, f);
			if (j->store != NULL)
				store_error(j->store, &w, UNREAD_ERROR, NULL,
				    f->msg);
			else
				report_error(j->r, &w, UNREAD_ERROR, false,
				    f->msg);
			break;
		}
	}
	return findings;
}

void
judge_file(struct judge *j, const char *path, bool findings)
{
	/* A store's package is said when the suite is (store.h). */
	if (j->store != NULL)
		store_done(j->store, path);
	else if (findings && j->o->print0)
		report_path0(j->r, path);
}
