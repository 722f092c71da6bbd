/*
 * store.h - a suite's results kept (--store FILE, store.c): every package
 * of a repository read once, its records kept in SQLite keyed by the
 * SHA256 its index gives, and the suite said from there. A rerun against
 * an unchanged index reads no package; after the index changes, only the
 * packages that are new are read, and those that left are dropped. The
 * schema is elfscan-suites(7)'s; several processes (the shards of one
 * suite) may write one file, each package in a transaction of its own.
 *
 * The judge hands over the records of a package being read instead of
 * reporting them (store_image, store_error: any thread); store_done keeps
 * the package and its records. The suite stage (suite.h) lists what each
 * repository's index holds (store_list), asks which packages are kept
 * (store_has) and says them all in the index's order (store_say).
 */
#ifndef STORE_H
#define STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chstk.h"
#include "report.h"
#include "verdict.h"
#include "where.h"

struct store;
struct repo_package;

/* The store in file, made when there is none, for records made with
   options (the options that shape them, in one string); NULL, said in
   one line, when it cannot be opened or is another schema's or options'. */
struct store *store_open(const char *file, const char *options);
/* Drops the packages no repository's index holds any more; closes. */
void store_close(struct store *s);

/* Is the package of that SHA256 kept? */
bool store_has(struct store *s, const char *sha256);
/* The package p is read at p->path: its records wait for store_done(). */
void store_expect(struct store *s, const struct repo_package *p);
/* Every package is expected: the walk may start. */
void store_ready(struct store *s);
/* A record of a file expected (w->path), made as report_image() or
   report_error() (by: the --allow pattern that waived it, or NULL) would
   say it. judged: the image is of a class the rules judge. */
void store_image(struct store *s, struct report *r, const struct where *w,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h, const struct evidence *ev, bool judged);
void store_error(struct store *s, const struct where *w, enum unread what,
    const struct allow_pattern *by, const char *msg);
/* A file of the package expected at path that is no ELF file
   (container.h), kept with its records: for the suite's services. Any
   thread. */
struct container_file;
void store_file(struct store *s, const char *path,
    const struct container_file *f);
/* The file at path is read: its package and records kept at once, when
   its size and SHA256 are its index's, by d (container.h: its bytes as
   they were read) or else read again; if not, said, and nothing kept. */
struct container_digest;
void store_done(struct store *s, const char *path,
    const struct container_digest *d);

/* A package of an index, in its order: a listing's entry. */
struct store_entry {
	const char *name;
	const char *sha256;
	uint32_t bucket;	/* its name's shard number (repo.h) */
	uint64_t seq;		/* its place in the index, of all shards */
};
/* What the index of repo (as named) for arch (as asked) holds now, of
   shard k of n (n 0 or 1: all of it): it replaces what was listed of
   that share before. */
int store_list(struct store *s, const char *repo, const char *arch,
    unsigned k, unsigned n, const struct store_entry *v, size_t count);

/* A record kept, handed back. */
struct stored {
	const char *path;	/* the package's file, as it was read */
	unsigned long long size;	/* its size */
	const char *member;	/* or NULL */
	bool streamed;		/* as struct where says */
	const char *error;	/* NULL: an image; else what could not be
				   read, as report_error() takes it */
	enum unread what;
	const char *allowed_by;	/* the --allow pattern's text, or NULL */
	enum chstk_state state;
	struct verdict v;	/* effective, findings, allowed, scope */
	bool judged;
	struct hard h;		/* what judge_count() counts of it */
	struct rendered x;	/* an image's record in each format */
};
struct store_say {
	void (*record)(void *ctx, const struct stored *r);
	/* After a package's records: its path, and whether a record had
	   a finding. */
	void (*package)(void *ctx, const char *path, bool findings);
	void *ctx;
};
/* The records of the packages repo's index for arch holds, of shard k
   of n, in the index's order. Returns -1 when the store cannot be read
   (said). */
int store_say(struct store *s, const char *repo, const char *arch,
    unsigned k, unsigned n, const struct store_say *say);
/* An image of a listed package, as the suite's verdicts see it. */
struct store_image {
	long long id;		/* the record's: its needed() calls name it */
	const char *package, *version, *depends;	/* its package's */
	const char *path, *member;	/* the package's file, and where */
	enum chstk_kind kind;
	unsigned elf_class, machine;	/* 32 or 64; e_machine */
	const char *soname;	/* or NULL */
	enum effective effective;
	enum chstk_state state;
	bool malformed;		/* an ELF image that does not parse: none
				   of the above is known */
	bool allowed;		/* --allow waived its stack's findings */
	unsigned wx;		/* its writable and executable segments */
	uint64_t findings;	/* its verdict's (verdict.h) */
	struct hard h;		/* the defences --diff compares, and
				   textrel */
};
/* A file of a listed package that is no ELF file, as store_file() kept
   it. */
struct stored_file {
	const char *package;	/* the package's file, as its images' path */
	const char *path;	/* the member */
	int type;		/* CFILE_LINK, CFILE_KEPT, CFILE_SCRIPT */
	const char *data;	/* as struct container_file's */
	size_t len;
};
struct store_walk {
	void (*image)(void *ctx, const struct store_image *im);
	/* After every image: each soname an image needs, in order. */
	void (*needed)(void *ctx, long long id, const char *soname);
	/* NULL, or after them: each file of the packages (in the index's
	   order). */
	void (*file)(void *ctx, const struct stored_file *f);
	void *ctx;
};
/* The images the index of repo for arch lists (and those that do not
   parse), in its order, and what they need; the strings lent for the
   call. Returns -1 when the store
   cannot be read (said). */
int store_images(struct store *s, const char *repo, const char *arch,
    const struct store_walk *walk);
/* The version of the first package named name the index lists, into
   out: 1, or 0 when it lists none, or -1 (said). */
int store_version(struct store *s, const char *repo, const char *arch,
    const char *name, char *out, size_t len);
/* Whether a package could not be kept, or the store read (said). */
bool store_failed(const struct store *s);

#endif
