/*
 * elfscan.h - what elfscan's parts share. A path goes one way through four
 * stages, each a file:
 *
 *   walk.c     find the files: the roots, then their directories
 *   read.c     read each file's images, through the library (and
 *              container.c for packages), into a batch
 *   judge.c    judge each image once: the rules (verdict.c), with
 *              --hardening the other defences and --require
 *              (hardening.c), and the allowlist (allow.c)
 *   report.c   print it: text, JSON Lines, SARIF (sarif.c) or
 *              NUL-separated paths
 *
 * main.c parses the options and starts the walk; progress.c draws a line
 * on a terminal meanwhile. elfscan knows nothing of the ELF or ar formats:
 * the library reads them.
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

struct archive_entry;

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_SARIF };

/* allow.c: glob patterns of paths allowed an executable stack. */
struct allow {
	char **pat;
	size_t n;
};
int allow_load(struct allow *a, const char *file);
bool allow_match(const struct allow *a, const char *path);
/* The first pattern that matches path, or NULL. */
const char *allow_which(const struct allow *a, const char *path);
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
/* The findings --require gives. */
#define F_HARDENING (F_NO_PIE | F_NO_FULL_RELRO | F_NO_CANARY | F_NO_FORTIFY | \
    F_UNSAFE_RPATH | F_NO_IBT | F_NO_SHSTK | F_NO_BTI | F_NO_PAC | \
    F_NOT_STRIPPED)
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
/* Why an image has the --require finding bit (one of F_HARDENING), in
   one sentence, in buf. */
const char *hard_why(unsigned bit, const struct hard *h, char *buf,
    size_t len);


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

/* What a record is about: a file, and what inside it. */
struct where {
	const char *path;	/* the file, as the walk names it */
	const char *member;	/* a member of a container or archive, a
				   path inside an image; or NULL */
	const char *image;	/* of an image archive holding several
				   images, the one's reference; or NULL */
	const char *layer;	/* in an image, the layer's digest */
	const char *file;	/* the file holding the member when it is
				   not path: a layout's layer blob */
	bool streamed;		/* read out of a container: the image's
				   offsets are in the member, not the file
				   (false for a member of an uncompressed
				   tar or cpio file, whose are the file's) */
};

/* report.c: output, serialized between workers. */
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
/* A file or member that could not be read: malformed, a finding (an ELF
   image that does not parse), or an error, which is counted. */
void report_error(struct report *r, const struct where *w, bool malformed,
    const char *msg);
void report_path0(struct report *r, const char *path);
void report_summary(struct report *r, double seconds);

/* xalloc.c: out of memory, handled one way: said, and exit status 2. */
void oom(void) __attribute__((noreturn));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* progress.c: a line on the terminal while the scan runs, drawn under the
   report's err_lock, so that a message can clear it first. */
struct progress;
struct progress *progress_start(struct report *r);
void progress_dir(struct progress *p, const char *dir);
void progress_stop(struct progress *p);

/* batch.c: what reading one file found, image by image: what read.c (and
   container.c) hand to judge.c. */
enum found_kind {
	FOUND_IMAGE,		/* an ELF image, in info */
	FOUND_MALFORMED,	/* an ELF image that does not parse: a finding */
	FOUND_ERROR,		/* what could not be read: an error */
};
struct found {
	enum found_kind kind;
	char *member;		/* NULL for the file itself; owned */
	struct chstk_info info;	/* info.hardening and its strings owned */
	struct hard_syms syms;	/* with --hardening: what its symbols say */
	char *msg;		/* "what failed: why", but for images; owned */
};
struct batch {
	const char *path;	/* the file, lent */
	/* In a container, and in an image, where the members are: see
	   struct where. All lent. */
	const char *image, *layer, *file;
	bool streamed;
	struct found *v;
	size_t n, cap;
	struct hard_syms syms;	/* of the image being read */
};
/* A symbol of the image being read: the library hands them over before
   the image itself, and keeps none. */
int batch_symbol(void *batch, const struct chstk_sym *sym);
void batch_image(struct batch *b, const char *member,
    const struct chstk_info *info);
/* An image found before (f, of another batch), again under member. */
void batch_copy(struct batch *b, const char *member, const struct found *f);
void batch_add(struct batch *b, enum found_kind kind, const char *member,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void batch_clear(struct batch *b);

/* judge.c: the verdict on every image of a batch, reported. */
struct judge {
	const struct opts *o;
	struct report *r;
	struct stats *st;
	struct progress *prog;
};
/* Returns whether the batch held a finding. */
bool judge_batch(struct judge *j, const struct batch *b);
/* The file is done: -0 prints its path when it had a finding. */
void judge_file(struct judge *j, const char *path, bool findings);

/* container.c: packages, wheels and tarballs, read with libarchive. */
enum container {
	CONTAINER_NONE, CONTAINER_DEB, CONTAINER_RPM, CONTAINER_ZIP,
	CONTAINER_TAR, CONTAINER_CPIO, CONTAINER_COMPRESSED,
};
/* What a file's first n bytes (up to 512) say it is. */
enum container container_kind(const unsigned char *head, size_t n);
/* Where a container's images and errors go: a batch after each member
   (path the container, member names as inside), which found may keep
   only during the call. */
struct container_out {
	void (*found)(void *arg, const struct batch *b);
	void *arg;
	/* NULL, or for container_scan_stream: each entry of the archive
	   (not of archives inside), named, before it is read; returns
	   whether to scan it (a regular file). */
	bool (*entry)(void *arg, const char *name,
	    struct archive_entry *ae);
	bool hardening;		/* read the hardening too */
};
void container_scan(int fd, const char *path, enum container kind,
    const struct container_out *out);
/* An archive read from the stream read(arg, ...) of size bytes (or
   UINT64_MAX), an image layer: its members named prefix and their names,
   in batches for path; containers inside are not opened, the library's
   files are. */
void container_scan_stream(ssize_t (*read)(void *arg, void *buf,
    size_t len), void *arg, uint64_t size, const char *path,
    const char *prefix, const struct container_out *out);

/* oci.c: container images: an OCI image layout (a directory), or an OCI
   archive or docker save tarball (a plain tar). */
/* Is the directory open on dirfd an OCI image layout? */
bool oci_is_layout(int dirfd);
/* Does the plain tar open on fd hold an image? The offset is left at 0. */
bool oci_is_archive(int fd);
/* Scan the image or images of the layout directory (dir) or the tar
   open on fd, named path: out->found for each file's images, and each
   error. */
void oci_scan(int fd, bool dir, const char *path,
    const struct container_out *out);

/* read.c: the images of the file name in dirfd, named path, to j. named:
   it was named on the command line (a container is looked into). */
void read_file(struct judge *j, int dirfd, const char *name,
    const char *path, bool follow, bool named);
/* The images of the OCI image layout open on fd, named path. */
void read_layout(struct judge *j, int fd, const char *path);

/* walk.c: scan the given roots with o->jobs threads. Returns -1 when a
   root could not be read (reported), else 0. */
int walk(struct judge *j, char **roots, size_t n);

#endif
