/*
 * elfscan.h - what elfscan's parts share: the options, the verdict on one
 * ELF image, the counters, and each part's entry points.
 */
#ifndef ELFSCAN_H
#define ELFSCAN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "chstk.h"

enum format { FORMAT_TEXT, FORMAT_JSON };

/* allow.c: glob patterns of paths allowed an executable stack. */
struct allow {
	char **pat;
	size_t n;
};
int allow_load(struct allow *a, const char *file);
bool allow_match(const struct allow *a, const char *path);
void allow_free(struct allow *a);

/* hardening.c: --require: a glob (NULL: every path) and the findings a
   missing property gives there. */
struct require {
	char *glob;
	unsigned findings;
};

struct opts {
	enum format format;
	bool quiet;		/* -q: only files with findings */
	bool print0;		/* -0: NUL-separated paths with findings */
	bool summary;
	bool follow;		/* -L: follow symbolic links */
	bool one_fs;		/* -x */
	bool archives;		/* -A: open containers met in the walk */
	bool progress;		/* on a terminal, unless --no-progress */
	unsigned jobs;
	struct allow allow;
	bool hardening;		/* --hardening, or any --require */
	struct require *require;
	size_t nrequire;
};

/* What a finding is: each a bit, each with a name (verdict.c). */
enum finding {
	F_EXEC_STACK = 1 << 0,		/* the stack will be executable */
	F_READ_IMPLIES_EXEC = 1 << 1,	/* and every readable mapping too */
	F_DLOPEN_REFUSED = 1 << 2,	/* glibc >= 2.41 refuses to dlopen it */
	F_UNKNOWN_DEFAULT = 1 << 3,	/* unmarked, default not known here */
	F_NO_NOTE = 1 << 4,		/* object without .note.GNU-stack */
	F_WX_SEGMENT = 1 << 5,		/* writable and executable memory */
	F_MALFORMED = 1 << 6,		/* an ELF file that does not parse */
	/* --require'd hardening found missing (hardening.c). */
	F_NO_PIE = 1 << 7,
	F_NO_FULL_RELRO = 1 << 8,
	F_NO_CANARY = 1 << 9,
	F_NO_FORTIFY = 1 << 10,
	F_UNSAFE_RPATH = 1 << 11,
	F_NO_IBT = 1 << 12,
	F_NO_SHSTK = 1 << 13,
	F_NO_BTI = 1 << 14,
	F_NO_PAC = 1 << 15,
	F_NOT_STRIPPED = 1 << 16,
};
#define F_COUNT 17
const char *finding_name(unsigned bit_index);

enum effective { EFF_NOEXEC, EFF_EXEC, EFF_UNKNOWN, EFF_NONE };

/* The verdict on one ELF image (verdict.c). */
struct verdict {
	enum effective effective;
	unsigned findings;	/* enum finding bits */
	bool allowed;		/* matched --allow: stack findings waived */
	const char *why;	/* a sentence, static */
};
void verdict_of(const struct chstk_info *info, bool allowed,
    struct verdict *v);
const char *machine_name(unsigned machine, char *buf, size_t len);
const char *type_name(const struct chstk_info *info);
const char *effective_name(enum effective e);
/* Print the rules table (for the man page and --rules). */
void rules_print(FILE *f);

/* hardening.c: the symbols of one image as they go by, then the judged
   defences. */
#define HARD_NFORT 79	/* the fortifiable functions' table */
struct hard_syms {
	bool canary;
	/* Per fortifiable function: 1 referenced, 2 its __*_chk referenced,
	   in the dynamic table; 4 and 8 the same in the static one. */
	unsigned char fort[HARD_NFORT];
};
void hard_syms_clear(struct hard_syms *s);
void hard_syms_add(struct hard_syms *s, const struct chstk_sym *sym);

enum tri { T_NA, T_UNKNOWN, T_NO, T_YES };
enum relro { RELRO_NA, RELRO_NONE, RELRO_PARTIAL, RELRO_FULL };
enum pie { PIE_NA, PIE_NO, PIE_YES, PIE_STATIC };

struct hard {
	bool known;		/* read (--hardening) and a kind judged */
	enum relro relro;
	enum tri bind_now;
	enum pie pie;
	enum tri canary;
	enum tri fortify;	/* T_NA: nothing fortifiable used */
	unsigned char fortified[HARD_NFORT], unfortified[HARD_NFORT];
	unsigned nfortified, nunfortified;
	enum tri paths;		/* T_NA: none; T_NO: unsafe entries */
	unsigned nunsafe;
	char unsafe[512];	/* the unsafe entries, ':'-separated */
	enum tri ibt, shstk, bti, pac;
	enum tri symbols;	/* .symtab present */
};
void hardening_judge(const struct chstk_info *info, const struct hard_syms *s,
    struct hard *out);
const char *fortify_name(unsigned i);
int require_parse(struct require *r, const char *arg, const char **bad);
unsigned require_check(const struct require *req, size_t n, const char *path,
    const struct hard *h);
void require_free(struct require *r, size_t n);

/* The counters, updated by every worker. */
struct stats {
	atomic_ulong files;	/* regular files looked at */
	atomic_ulong dirs;
	atomic_ulong images;	/* ELF images (files and members) */
	atomic_ulong state[3];	/* by enum chstk_state */
	atomic_ulong exec;	/* effective exec */
	atomic_ulong with_findings;
	atomic_ulong allowed;
	atomic_ulong errors;	/* files or directories not read */
	/* --hardening: programs, and images by each defence. */
	atomic_ulong programs, pie, relro[4], canary[4], fortify[4],
	    unsafe_paths, cfi_x86, x86, cfi_arm, arm, stripped, linked;
};

/* report.c: output, serialized between workers. */
struct report {
	const struct opts *o;
	struct stats *st;
	pthread_mutex_t lock;
};
void report_header(struct report *r);
void report_image(struct report *r, const char *path, const char *member,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h);
void report_error(struct report *r, const char *path, const char *member,
    const char *what, const char *msg);
void report_path0(struct report *r, const char *path);
void report_summary(struct report *r, double seconds);

/* progress.c: a line on the terminal while the scan runs. */
struct progress;
struct progress *progress_start(struct stats *st);
void progress_dir(struct progress *p, const char *dir);
void progress_stop(struct progress *p);

/* member.c: one ELF member of a container, read from a stream. */
struct stream {
	/* Up to len bytes into buf: the count, 0 at the end, -1 when the
	   container failed (its reader reports it). */
	ssize_t (*read)(void *arg, void *buf, size_t len);
	void *arg;
	uint64_t size;		/* as the container declares it, or
				   UINT64_MAX when it does not */
};
#define MEMBER_MAX (64u << 20)	/* bytes buffered for one member */
int member_scan(const struct stream *s, const unsigned char *head, size_t n,
    bool ended, const struct chstk_scan_opts *o, chstk_scan_fn fn, void *arg,
    char *msg, size_t msglen);

/* container.c: packages, wheels and tarballs, read with libarchive. */
enum container {
	CONTAINER_NONE, CONTAINER_DEB, CONTAINER_RPM, CONTAINER_ZIP,
	CONTAINER_TAR, CONTAINER_CPIO, CONTAINER_COMPRESSED,
	CONTAINER_AR,	/* an .a inside a container; never returned by
			   container_kind: a plain .a goes to the library */
};
/* What a file's first n bytes (up to 512) say it is. */
enum container container_kind(const unsigned char *head, size_t n);
/* Where a container's images and errors go. */
struct container_out {
	/* Each ELF image of each member, member named as inside. */
	chstk_scan_fn image;
	/* What to read of them; symbols go to opts->symbol with arg. */
	const struct chstk_scan_opts *opts;
	/* A member that could not be scanned, or (member NULL) the whole. */
	void (*error)(void *arg, const char *member, const char *msg);
	void *arg;
};
void container_scan(int fd, const char *path, enum container kind,
    const struct container_out *out);

/* walk.c: scan the given roots with o->jobs threads. Returns -1 when a
   root could not be read, else 0. */
int walk(const struct opts *o, struct report *r, struct progress *prog,
    char **roots, size_t n);

#endif
