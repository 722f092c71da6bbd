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
/*
 * An image's record made once in every format, for a store (store.h) to
 * keep: report_render() fills x, as report_image() would say it in each
 * (rendered_free() frees it); report_rendered() says it later in the
 * run's format, as report_image() says a record, findings its F_* bits.
 */
struct rendered_result {	/* one SARIF result (sarif.h) */
	unsigned bit;
	bool region;		/* at offset and length; else the file */
	uint64_t offset, length;
	char *why, *justification;	/* justification: or NULL */
};
struct rendered {
	char *text, *json;	/* the text and JSON Lines records, each
				   newline-ended */
	char *cause, *built;	/* text's lines said after the records,
				   without their "WHERE: "; or NULL */
	char *dwarf;		/* what its DWARF could not say, or "" */
	struct rendered_result *results;	/* SARIF's */
	size_t nresults;
};
void report_render(struct report *r, const struct where *w,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h, const struct evidence *ev, struct rendered *x);
void report_rendered(struct report *r, const struct where *w,
    const struct rendered *x, uint64_t findings);
void rendered_free(struct rendered *x);
/* What could not be read: an error, which is counted, or a finding: an
   ELF image that does not parse, an ar archive damaged part of the way
   (allowed: an --allow pattern waived that finding). */
enum unread { UNREAD_ERROR, UNREAD_ELF, UNREAD_ARCHIVE };
void report_error(struct report *r, const struct where *w, enum unread what,
    bool allowed, const char *msg);
void report_path0(struct report *r, const char *path);
/* At the end: each --allow pattern that allowed nothing, as lintian
   reports unused overrides; not an error. */
void report_unused(struct report *r);
/* What is wrong in a file of a root that is read for its settings, not
   scanned (a unit file): a message on the standard error, not counted as
   an error, as the program that reads the file goes on too. */
void report_note(struct report *r, const char *path, const char *msg);
/* The rules of a root whose verdicts follow, in a line for people: root
   a directory, or an image file (image: of one holding several, the
   one's name; else NULL). */
void report_root(struct report *r, const char *root, const char *image,
    const char *rules);
/* A verdict of a root (system.h): what is at fault, and what it breaks. */
struct sys_host {
	const char *path;	/* a program or library in the root, or a
				   service's unit name (no "/") */
	const char *via;	/* the libraries between, "a b", or "" */
	bool library;		/* path is a library, loaded by a host */
	bool plugin;		/* path is a plugin of a suite, which a
				   host loads with dlopen (suite.h) */
	bool service;		/* path is the unit file of a suite's
				   service (suite.h) */
};
struct sys_verdict {
	unsigned finding;	/* its bit index, from F_FIRST_SYSTEM */
	const char *root;	/* the root's directory, or image file */
	const char *image;	/* of an image file holding several, the
				   one's name; else NULL */
	bool in_image;		/* the root is an image: its files are its
				   members */
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
/* A running process (proc.h): its memory now, and whether what it loaded
   and its environment say so. */
struct proc_cause {
	const char *path;	/* a file it loaded, as it names it; NULL:
				   its environment or personality */
	const char *why;	/* why it asks, or (unread) why not read */
	bool main, threads;	/* for its main stack, for its threads' */
};
struct proc_area {		/* a writable and executable mapping */
	unsigned long start, end;
	const char *what;	/* the file, "[heap]", "[anon:NAME]", or
				   "" for anonymous memory */
	int tid;		/* the thread whose stack pointer is in it,
				   or 0 */
	const char *why;	/* what explains it, or NULL: nothing */
};
enum proc_state { PROC_READ, PROC_KERNEL, PROC_EXITED, PROC_UNREADABLE };
struct proc_verdict {
	int pid;
	enum proc_state state;
	const char *comm;	/* its name, or "" */
	const char *error;	/* unreadable: what failed, and why */
	const char *root;	/* its root directory, as this machine's
				   path ("/" most often) */
	const char *exe;	/* its program in its root, or "" */
	unsigned long long exe_size;	/* the program's size, 0: unknown
					   (it may be in a mount namespace
					   of its own, or deleted) */
	const char *stack;	/* the main stack's permissions ("rwxp"),
				   or NULL when it has none */
	const struct proc_cause *causes;	/* what asks for
						   executable stacks */
	size_t ncauses;
	const struct proc_area *areas;	/* the rest of its writable and
					   executable memory */
	size_t nareas;
	const struct proc_cause *unread;	/* files it loaded that
						   could not be read */
	size_t nunread;
	const char *differs;	/* NULL: as its files say; else what
				   differs, in a sentence */
	uint64_t findings;	/* F_* bits */
};
void report_process(struct report *r, const struct proc_verdict *v);
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
