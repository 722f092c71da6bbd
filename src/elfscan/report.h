/*
 * report.h - elfscan's output (report.c): one writer per format, aligned
 * text for people, JSON Lines for machines, SARIF for code scanning (its
 * document kept by sarif.c), NUL-separated paths for chstk --files-from;
 * and the progress line on a terminal (progress.c). The calls come from
 * every worker; the records never interleave.
 */
#ifndef REPORT_H
#define REPORT_H

#include <pthread.h>
#include <stdbool.h>

#include "chstk.h"
#include "elfscan.h"
#include "verdict.h"
#include "where.h"

struct report {
	const struct opts *o;
	struct stats *st;
	pthread_mutex_t lock;	/* over the records (stdout); taken first */
	pthread_mutex_t err_lock;	/* over stderr: messages and the
					   progress line, which must go on
					   while stdout is blocked */
	bool line;		/* a progress line is on the terminal */
	struct sarif *sarif;	/* --format=sarif: the log being written */
};
void report_header(struct report *r);
/* h: the image's defences judged, used with --hardening */
void report_image(struct report *r, const struct where *w,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h);
/* What could not be read: an error, which is counted, or a finding: an
   ELF image that does not parse, an ar archive damaged part of the way
   (allowed: an --allow pattern waived that finding). */
enum unread { UNREAD_ERROR, UNREAD_ELF, UNREAD_ARCHIVE };
void report_error(struct report *r, const struct where *w, enum unread what,
    bool allowed, const char *msg);
void report_path0(struct report *r, const char *path);
/* The rules of a root whose verdicts follow, in a line for people. */
void report_root(struct report *r, const char *root, const char *rules);
/* A verdict of a root (system.h): what is at fault, and what it breaks. */
struct sys_host {
	const char *path;	/* a program, in the root */
	const char *via;	/* the libraries between, "a b", or "" */
};
struct sys_verdict {
	unsigned finding;	/* its bit index, from F_FIRST_SYSTEM */
	const char *root;	/* the root's directory */
	const char *subject;	/* in the root: the library, program or
				   file at fault, or a library's name */
	const char *why;	/* a sentence, lowercase, no period */
	const struct sys_host *hosts;
	size_t nhosts;
};
void report_verdict(struct report *r, const struct sys_verdict *v);
void report_summary(struct report *r, double seconds);

/* progress.c: a line on the terminal while the scan runs, drawn under the
   report's err_lock, so that a message can clear it first. */
struct progress *progress_start(struct report *r);
void progress_dir(struct progress *p, const char *dir);
void progress_stop(struct progress *p);

#endif
