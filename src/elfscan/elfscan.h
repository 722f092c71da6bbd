/*
 * elfscan.h - the options, the counters and the four stages a path goes
 * through, top to bottom; each stage calls only those below it:
 *
 *   walk.c     find the files: the roots, then their directories
 *   heads.c    open them and read their heads, many at a time
 *   read.c     read each file's images, through the library, or through
 *              container.c and oci.c for packages and images
 *              (container.h), into a batch (batch.h)
 *   judge.c    judge each image of a batch once, by the rules
 *              (verdict.h), count it, and report it (report.h)
 *
 * main.c parses the options and starts the walk, then, with --proc, the
 * judgement of the running processes (proc.h). Every file but main.c is
 * in libelfscan.a, which the program, its unit tests and the fuzz targets
 * link; the order of the files, which tests/elfscan/layers.sh enforces,
 * is in src/elfscan/local.mk. elfscan knows nothing of the ELF or ar formats:
 * the library reads them.
 */
#ifndef ELFSCAN_H
#define ELFSCAN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/types.h>

#include "chstk.h"
#include "verdict.h"

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_SARIF };

struct opts {
	enum format format;
	bool quiet;		/* -q: only files with findings */
	bool print0;		/* -0: NUL-separated paths with findings */
	bool no_header;		/* text: no column header, no notes */
	const char *files_from;	/* --files-from LIST, or NULL */
	bool null;		/* LIST is NUL-separated (--null, or -0) */
	bool summary;
	bool follow;		/* -L: follow symbolic links */
	bool one_fs;		/* -x */
	bool archives;		/* -A: open containers met in the walk */
	const char *platform;	/* --platform: OS/ARCH[/VARIANT], or NULL */
	const char *arch;	/* --arch: a repository's, as dpkg names it,
				   or NULL (repo.h) */
	const char *store;	/* --store FILE: a suite's records kept
				   (store.h), or NULL */
	unsigned shard_k, shard_n;	/* --shard K/N; N 0: none */
	char *shape;		/* the options that shape the records, as
				   given: a store keeps records of one */
	bool progress;		/* on a terminal, unless --no-progress */
	unsigned jobs;		/* walker threads */
	unsigned jobs_most;	/* and while the walk reads the disk */
	bool uring;		/* read heads with io_uring (heads.c) */
	struct allow allow;
	bool hardening;		/* --hardening, any --require or --profile */
	bool code;		/* --code (or --require stack-clash):
				   every image's code searched too */
	struct require *require;	/* --require's, then --profile's */
	size_t nrequire;
	const char **profiles;	/* --profile NAME, each */
	size_t nprofiles;
	bool list;		/* --list: print the profiles' promises */
	bool system;		/* the verdicts of roots (system.h) */
	bool all;		/* --all: judge what Linux does not run too
				   (scope.c) */
	bool diff;		/* --diff OLD NEW (diff.h) */
	bool files;		/* files are scanned: not --proc alone */
	bool proc;		/* --proc: the running processes (proc.h) */
	int *pids;		/* --proc=PID,...: those; else all */
	size_t npids;
};

/* The counters, updated by every worker; report.c's table names each for
   the summaries. Some are runs, indexed by an enum. */
enum counter {
	C_FILES,		/* regular files looked at */
	C_DIRS,
	C_IMAGES,		/* ELF images (files and members) */
	C_STATE,		/* three, by enum chstk_state */
	C_EFF_EXEC = C_STATE + CHSTK_NOEXEC + 1,	/* effective exec */
	C_FINDINGS,		/* images with findings */
	C_ALLOWED,
	C_ERRORS,		/* files or directories not read */
	/* --hardening: programs, and images by each defence. */
	C_PROGRAMS, C_PIE, C_LINKED,
	C_RELRO,		/* four, by enum relro */
	C_CANARY = C_RELRO + RELRO_FULL + 1,	/* four, by enum tri */
	C_FORTIFY = C_CANARY + T_YES + 1,	/* four, by enum tri */
	C_UNSAFE_PATHS = C_FORTIFY + T_YES + 1,
	C_X86, C_IBT_SHSTK, C_ARM, C_BTI_PAC, C_STRIPPED,
	C_TEXTREL, C_X86_PROGRAMS, C_ENTRY_ENDBR, C_GO, C_RUST,
	/* The verdicts of roots (system.h): programs judged, verdicts, and
	   the programs each kind breaks, by finding from F_FIRST_SYSTEM. */
	C_SYS_PROGRAMS, C_VERDICTS,
	C_V_STACK, C_V_STARTUP, C_V_PLUGIN_REFUSED, C_V_PLUGIN_EXEC,
	C_V_UNRESOLVED, C_V_TUNABLE, C_V_MDWE,
	/* --diff: what got worse and better, images only on one side. */
	C_REGRESSIONS, C_IMPROVEMENTS, C_ADDED, C_REMOVED,
	/* Running processes (proc.h): those read and their findings, and
	   those not read, by why. */
	C_P_READ, C_P_FINDINGS, C_P_EXEC, C_P_UNASKED, C_P_RWX, C_P_DIFFERS,
	C_P_KERNEL, C_P_EXITED, C_P_UNREADABLE,
	C_KIND,			/* F_COUNT, by finding bit index: images
				   (or processes) with that finding (text's
				   notes) */
	/* Images by their class (scope.c), by enum scope. */
	C_SCOPE = C_KIND + F_COUNT,
	C_COUNT = C_SCOPE + SCOPE_COUNT
};
struct stats {
	atomic_ulong c[C_COUNT];
};
static inline void
stat_add(struct stats *st, unsigned c)
{
	atomic_fetch_add_explicit(&st->c[c], 1, memory_order_relaxed);
}

/* judge.c: the verdict on every image of a batch, reported. */
struct report;
struct progress;
struct batch;
struct system;
struct diff;
struct debugset;
struct store;
struct judge {
	const struct opts *o;
	struct report *r;
	struct stats *st;
	struct progress *prog;
	/* The root the files on disk are judged in: the one --system
	   judges, or this machine's "/". NULL: none could be read. */
	struct system *sys;
	/* The path named is a container image judged as a root (--system
	   IMAGE): sys is NULL, each image its own root (read.c). */
	bool image_root;
	/* --diff: where the images go instead of the report, and which
	   side they are of. */
	struct diff *diff;
	int side;
	/* The debug files of the debug packages named (debug.h), or
	   NULL. */
	const struct debugset *debug;
	/* --store: where the records of a suite's packages go instead of
	   the report, to be said from there (store.h); or NULL. */
	struct store *store;
};
/* Returns whether the batch held a finding. */
bool judge_batch(struct judge *j, const struct batch *b);
/* The file is done: -0 prints its path when it had a finding. */
void judge_file(struct judge *j, const char *path, bool findings);
/* The counts of one image, as the judge makes them: of its class and
   marking, and, judged, its defences; then those of its findings, said
   in the report. And those of what did not parse (malformed: an ELF
   image; else an archive), waived or not. A store (store.h) counts what
   it says again with these. */
void judge_count(struct stats *st, enum chstk_state state,
    const struct verdict *v, const struct hard *h, bool judged);
void judge_count_findings(struct stats *st, const struct verdict *v);
void judge_count_unread(struct stats *st, bool malformed, bool waived);

/* How a file came to be read: met in the walk, read from a --files-from
   list, or named as an argument. A named or listed container is looked
   into; a named file that is neither ELF, an ar archive nor a container
   is an error, a listed one is passed over, as in the walk. */
enum named { NAMED_NO, NAMED_LISTED, NAMED_ARG };

/* read.c: how the walk met a file. */
struct met {
	const char *path;	/* as the walk names it */
	size_t root;		/* what of path is the directory that stands
				   for / in its installed path (struct where) */
	bool follow;		/* a symbolic link: follow it */
	enum named named;
	bool image;		/* named as an image reference: it must be an
				   image */
	const char *ref;	/* and the image it selects, or NULL: all */
};

/*
 * A file's images, from its head: the first READ_HEAD bytes (or
 * all of a smaller file), enough for the ELF header and program headers
 * of nearly every ELF file (all of /usr's here), which the library then
 * does not read again: one read tells what a file is and, most often,
 * all the library needs but the dynamic section. Not more: the other
 * files, most of a tree, would have it copied for nothing. Files are
 * opened READ_OPEN_FLAGS, and O_NOFOLLOW unless followed: a FIFO put in a
 * file's place since the listing does not block the open.
 */
#define READ_HEAD 1024
#define READ_OPEN_FLAGS (O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
struct head {
	int fd;			/* -1: the open failed */
	int error;		/* why the open or a read failed, or 0 */
	const unsigned char *bytes;
	size_t n;		/* bytes of the head read */
};
/* The images of the file whose head is h, met as m, to j. The caller
   closes h->fd. */
void read_head(struct judge *j, const struct head *h, const struct met *m);
/* Open the file name in dirfd, met as m, read its head and its images
   to j, one system call after the other. */
void read_file(struct judge *j, int dirfd, const char *name,
    const struct met *m);
/* A read shorter than asked is most likely the file's end; the head is
   read on only while it is shorter than the bytes that tell what the
   file is, to the walk (chstk_format's) or, when containers are looked
   into, to container_kind. Returns how many. */
size_t read_enough(const struct judge *j, enum named named);
/* Read on into head[got, READ_HEAD) from fd, until enough bytes are in or
   the file ends. Returns the bytes in head, or -1 with errno set. */
ssize_t read_on(int fd, unsigned char *head, size_t got, size_t enough);
/* The images of the OCI image layout open on fd, met as m. */
void read_layout(struct judge *j, int fd, const struct met *m);

/*
 * heads.c: the regular files a walker lists, opened and their heads read
 * many at a time with io_uring, then to read_head; or, where io_uring
 * cannot be used, each read at once with read_file. One struct heads a
 * walker thread.
 */
/* Can io_uring read the heads? If not, why, in a few words, into why. */
bool heads_uring(char *why, size_t len);
/* A walker's, reading with io_uring if j->o->uring and a ring can be set
   up, else one file at a time. Freed by heads_free, which waits for the
   files in flight. */
struct heads *heads_new(struct judge *j);
void heads_free(struct heads *h);
/* The regular file name in the directory open on dirfd, met as m (not
   named, not an image). name and m's path are copied. */
void heads_file(struct heads *h, int dirfd, const char *name,
    const struct met *m);
/* The directory open on dirfd is listed: closed once its files are
   read. */
void heads_dir_done(struct heads *h, int dirfd);
/* Are files in flight? heads_drain waits until none are. */
bool heads_busy(const struct heads *h);
void heads_drain(struct heads *h);

/* walk.c: scan the paths named as arguments, args[0, nargs), then the
   files listed in --files-from, listed[0, nlisted) (a directory there is
   passed over), with o->jobs threads; a file named twice under one real
   path is read once. A path may name an image as skopeo does (ref.c). A
   file's installed path (struct where) is its in-root path under a system
   root (o->system, j->sys), else its path below the directory named.
   Returns -1 when one could not be read (reported), else 0. */
int walk(struct judge *j, char **args, size_t nargs, char **listed,
    size_t nlisted);

#endif
