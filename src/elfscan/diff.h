/*
 * diff.h - two builds compared (--diff OLD NEW, diff.c): what got worse and
 * what got better, image by image, paired by their path inside each side.
 * The judge hands over the images of side 0 (OLD) while it walks OLD, then
 * those of side 1; diff_report() pairs and compares them and reports each
 * change (report_change).
 */
#ifndef DIFF_H
#define DIFF_H

#include <pthread.h>
#include <stdbool.h>

#include "chstk.h"
#include "verdict.h"
#include "where.h"

struct report;
struct drec;

/* The defences compared, each ranked, higher better. */
enum defence {
	P_STACK, P_WX, P_RELRO, P_PIE, P_CANARY, P_FORTIFY, P_RPATH, P_IBT,
	P_SHSTK, P_BTI, P_PAC, P_PARSES, P_COUNT
};

struct diff {
	struct report *r;
	const char *root[2];	/* each side as named */
	bool dir[2];		/* a directory: its images' paths are
				   relative to it */
	pthread_mutex_t lock;
	struct drec *side[2];
	size_t n[2];
};

/* What changed in one pair: a defence, its word before and after. */
struct diff_change {
	const char *path;	/* inside the sides */
	const char *old, *new;	/* the files as named; NULL: none */
	const char *old_member, *new_member;	/* or NULL */
	const char *key;	/* the defence, for JSON: "relro" */
	unsigned prop;		/* enum defence */
	const char *was, *now;	/* its words: "full", "partial" */
	bool worse;		/* a regression, else an improvement */
	const char *why;	/* in a sentence: "lost RELRO" */
};

void diff_init(struct diff *d);
/* An image of side 0 or 1, judged. Any thread. */
void diff_image(struct diff *d, int side, const struct where *w,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h);
/* An image of the side that does not parse. */
void diff_malformed(struct diff *d, int side, const struct where *w);
/* Both sides are in: pair, compare and report. */
void diff_report(struct diff *d);
void diff_free(struct diff *d);

#endif
