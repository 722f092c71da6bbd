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
/* The file at path is read: its package and records kept, at once. */
void store_done(struct store *s, const char *path);

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
/* Whether a package could not be kept, or the store read (said). */
bool store_failed(const struct store *s);

#endif
