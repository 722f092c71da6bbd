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
	/* Text: what is said of images after the records, before the notes
	   (report_notes): why each that gets an executable stack asks for
	   it, and how each whose evidence tells was built; under lock. */
	struct lines {
		char **v;
		size_t n;
	} causes, built;
};
void report_header(struct report *r);
/* h: the image's defences judged, used with --hardening; ev: what its
   evidence says (ev->looked false when none was read) */
struct evidence;
void report_image(struct report *r, const struct where *w,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h, const struct evidence *ev);
/* A file or member that could not be read: malformed, a finding (an ELF
   image that does not parse), or an error, which is counted. */
void report_error(struct report *r, const struct where *w, bool malformed,
    const char *msg);
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
	/* What made the subject ask for an executable stack, and whether
	   'chstk -E' is safe on it (evidence.h): NULL where the verdict is
	   not about such a file. */
	const char *cause;
	const char *exec_safe;	/* "likely", "no" or "unknown" */
	const char *exec_safe_why;	/* its phrase */
	const struct sys_host *hosts;
	size_t nhosts;
};
void report_verdict(struct report *r, const struct sys_verdict *v);
/* --diff: one defence of one image that changed (diff.h). */
struct diff_change;
void report_change(struct report *r, const struct diff_change *c);
/* After the records: in text, unless --no-header, why the images that
   get an executable stack ask for it and how those whose evidence tells
   were built, then each kind of finding met, what it means and how to fix
   it (findings.c's texts), once. */
void report_notes(struct report *r);
void report_summary(struct report *r, double seconds);

/* progress.c: a line on the terminal while the scan runs, drawn under the
   report's err_lock, so that a message can clear it first. */
struct progress *progress_start(struct report *r);
void progress_dir(struct progress *p, const char *dir);
void progress_stop(struct progress *p);

#endif
