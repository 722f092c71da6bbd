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
};
#define F_COUNT 7
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
				   offsets are in the member, not the file */
};

/* report.c: output, serialized between workers. */
struct report {
	const struct opts *o;
	struct stats *st;
	pthread_mutex_t lock;
	struct sarif *sarif;	/* --format=sarif: the log being written */
};
void report_header(struct report *r);
void report_image(struct report *r, const struct where *w,
    const struct chstk_info *info, const struct verdict *v);
void report_error(struct report *r, const struct where *w, const char *what,
    const char *msg);
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
    bool ended, chstk_scan_fn fn, void *arg, char *msg, size_t msglen);

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
	/* A member that could not be scanned, or (member NULL) the whole. */
	void (*error)(void *arg, const char *member, const char *msg);
	void *arg;
	/* NULL, or for container_scan_stream: each entry of the archive
	   (not of archives inside), named, before it is read; returns
	   whether to scan it (a regular file). */
	bool (*entry)(void *arg, const char *name,
	    struct archive_entry *ae);
};
void container_scan(int fd, const char *path, enum container kind,
    const struct container_out *out);
/* An archive read from src (an image layer), its members named prefix
   and their names; containers inside are not opened, ar archives are. */
void container_scan_stream(const struct stream *src, const char *prefix,
    const struct container_out *out);

/* oci.c: container images: an OCI image layout (a directory), or an OCI
   archive or docker save tarball (a plain tar). */
struct image_out {
	/* Each ELF image of each file of the image's file system. */
	int (*image)(void *arg, const struct where *w,
	    const struct chstk_info *info, const struct chstk_error *err);
	/* A file, a layer, or (w->member NULL) the whole that could not be
	   read. */
	void (*error)(void *arg, const struct where *w, const char *msg);
	void *arg;
};
/* Is the directory open on dirfd an OCI image layout? */
bool oci_is_layout(int dirfd);
/* Does the plain tar open on fd hold an image? The offset is left at 0. */
bool oci_is_archive(int fd);
/* Scan the image or images of the layout directory (dir) or the tar
   open on fd, named path. */
void oci_scan(int fd, bool dir, const char *path, const struct image_out *out);

/* walk.c: scan the given roots with o->jobs threads. Returns -1 when a
   root could not be read, else 0. */
int walk(const struct opts *o, struct report *r, struct progress *prog,
    char **roots, size_t n);

#endif
