/*
 * store.c - the suite's store (store.h), in SQLite or PostgreSQL, through
 * db.h. The schema, version 1, is the SQL below, in SQLite's words (db.h
 * says what PostgreSQL is given instead); elfscan-suites(7) documents it
 * for sqlite3 and psql users:
 *   meta      key and value: the options the records were made with
 *   packages  one a package read, by the SHA256 its index gives
 *   listing   each repository's index as last read, in its order, each
 *             package with its name's shard bucket (repo.h)
 *   records   each package's records: an image's facts, and its record
 *             made once in each format (report.h), or what could not be
 *             read
 *   results   an image's SARIF results
 *   needed    an image's DT_NEEDED sonames, for verdicts across a suite
 * Several processes write one store, each waiting for the others (60 s,
 * or ELFSCAN_STORE_WAIT_MS): an SQLite file in WAL mode, one writer at a
 * time, or a PostgreSQL database, from many machines at once; each
 * package is kept in one transaction, so a run killed loses at most the
 * packages being read.
 *
 * One connection a process, used under the store's lock: the walk's
 * workers hand records over from any thread.
 */
#include <elf.h>
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "container.h"
#include "db.h"
#include "repo.h"
#include "sha256.h"
#include "store.h"
#include "xalloc.h"

#define SCHEMA_VERSION 2

static const char schema[] =
"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
"CREATE TABLE packages (\n"
"  id INTEGER PRIMARY KEY,\n"
"  sha256 TEXT NOT NULL UNIQUE,\n"
"  name TEXT NOT NULL, version TEXT NOT NULL, arch TEXT NOT NULL,\n"
"  source TEXT NOT NULL, filename TEXT NOT NULL, size INTEGER NOT NULL,\n"
"  depends TEXT NOT NULL, provides TEXT NOT NULL,\n"
"  path TEXT NOT NULL, read_at TEXT NOT NULL);\n"
"CREATE TABLE listing (\n"
"  repo TEXT NOT NULL, arch TEXT NOT NULL, seq INTEGER NOT NULL,\n"
"  name TEXT NOT NULL, bucket INTEGER NOT NULL, sha256 TEXT NOT NULL,\n"
"  PRIMARY KEY (repo, arch, seq));\n"
"CREATE INDEX listing_sha256 ON listing (sha256);\n"
"CREATE TABLE records (\n"
"  id INTEGER PRIMARY KEY,\n"
"  package INTEGER NOT NULL REFERENCES packages (id) ON DELETE CASCADE,\n"
"  member TEXT, streamed INTEGER NOT NULL,\n"
"  error TEXT, unread INTEGER,\n"
"  type INTEGER, kind INTEGER, class INTEGER, machine INTEGER,\n"
"  soname TEXT,\n"
"  stack TEXT, state INTEGER, effective INTEGER, scope INTEGER,\n"
"  judged INTEGER, findings INTEGER NOT NULL DEFAULT 0,\n"
"  allowed INTEGER NOT NULL DEFAULT 0, allowed_by TEXT, wx INTEGER,\n"
"  known INTEGER, pie INTEGER, relro INTEGER, canary INTEGER,\n"
"  fortify INTEGER, paths INTEGER, ibt INTEGER, shstk INTEGER,\n"
"  bti INTEGER, pac INTEGER, symbols INTEGER, textrel INTEGER,\n"
"  entry_endbr INTEGER, lang INTEGER,\n"
"  text TEXT, json TEXT, cause TEXT, built TEXT, dwarf TEXT);\n"
"CREATE INDEX records_package ON records (package);\n"
"CREATE TABLE results (\n"
"  record INTEGER NOT NULL REFERENCES records (id) ON DELETE CASCADE,\n"
"  bit INTEGER NOT NULL, region INTEGER NOT NULL,\n"
"  \"offset\" INTEGER NOT NULL, length INTEGER NOT NULL,\n"
"  why TEXT NOT NULL, justification TEXT);\n"
"CREATE INDEX results_record ON results (record);\n"
"CREATE TABLE needed (\n"
"  record INTEGER NOT NULL REFERENCES records (id) ON DELETE CASCADE,\n"
"  soname TEXT NOT NULL);\n"
"CREATE INDEX needed_record ON needed (record);\n"
"CREATE INDEX needed_soname ON needed (soname);\n"
"CREATE TABLE files (\n"
"  package INTEGER NOT NULL REFERENCES packages (id) ON DELETE CASCADE,\n"
"  path TEXT NOT NULL, type TEXT NOT NULL, data TEXT,\n"
"  hex INTEGER NOT NULL);\n"
"CREATE INDEX files_package ON files (package);\n";

/* A record waiting for its package's transaction. */
struct pending {
	char *member, *error, *allowed_by, *soname;
	char *needed;		/* NUL-separated, ending in an empty name */
	enum unread what;
	bool streamed;
	unsigned type, elf_class, machine;
	enum chstk_kind kind;
	enum chstk_state state;
	unsigned wx;
	struct verdict v;
	bool judged;
	struct hard h;
	struct rendered x;
};

/* A file of a package being read that is no ELF file (files). */
struct pending_file {
	char *path;
	const char *type;	/* "link", "file" or "script" */
	char *data;		/* NULL: a file larger than is kept */
	size_t len;
};

/* A package being read. */
struct expected {
	char *path, *sha256, *name, *version, *arch, *source, *filename;
	char *depends, *provides;
	uint64_t size;
	struct pending *rec;
	size_t nrec;
	struct pending_file *files;
	size_t nfiles;
	bool findings;
};

struct store {
	char *file;
	struct db *db;
	pthread_mutex_t lock;
	struct expected *exp;
	size_t nexp;
	bool failed;
	char why[512];		/* why the last package was not kept */
};

/* What failed, in one line: the store, what was done, the database's
   words. */
static void
said(struct store *s, const char *what)
{
	warnx("%s: %s: %s", s->file, what, db_errmsg(s->db));
	s->failed = true;
}

static int
exec(struct store *s, const char *sql)
{
	return db_exec(s->db, sql);
}

static struct db_stmt *
prepare(struct store *s, const char *sql)
{
	struct db_stmt *st;

	if ((st = db_prepare(s->db, sql)) == NULL) {
		said(s, "cannot read the store");
		return NULL;
	}
	return st;
}

/* An insert of a row whose id db_insert() gives. */
static struct db_stmt *
prepare_insert(struct store *s, const char *sql)
{
	struct db_stmt *st;

	if ((st = db_prepare_insert(s->db, sql)) == NULL) {
		said(s, "cannot read the store");
		return NULL;
	}
	return st;
}

/* The version of the store's schema: made now when it has none. Returns
   -1 when it is another (said). */
static int
schema_check(struct store *s, const char *options)
{
	struct db_stmt *st;
	int version, r = -1;
	const char *was;

	if (db_begin(s->db, DB_ALONE) < 0) {
		said(s, "cannot open the store");
		return -1;
	}
	version = db_version(s->db);
	if (version == 0) {
		if (db_create(s->db, schema, SCHEMA_VERSION) < 0 ||
		    (st = prepare(s, "INSERT INTO meta VALUES ('options', ?1)")) ==
		    NULL) {
			said(s, "cannot make the store");
			goto out;
		}
		db_bind_text(st, 1, options);
		if (db_step(st) != DB_DONE)
			said(s, "cannot make the store");
		else
			r = 0;
		db_finalize(st);
		goto out;
	}
	if (version != SCHEMA_VERSION) {
		if (version > 0)
			warnx("%s: a store of schema version %d, not %d: name another file",
			    s->file, version, SCHEMA_VERSION);
		else
			said(s, "cannot open the store");
		s->failed = true;
		goto out;
	}
	if ((st = prepare(s, "SELECT value FROM meta WHERE key = 'options'")) ==
	    NULL)
		goto out;
	if (db_step(st) != DB_ROW || (was = db_column_text(st, 0)) == NULL)
		warnx("%s: not an elfscan store: it keeps no options", s->file);
	else if (strcmp(was, options) != 0)
		warnx("%s: a store of records made with other options (%s; now %s): name another file",
		    s->file, *was != '\0' ? was : "none", *options != '\0' ?
		    options : "none");
	else
		r = 0;
	db_finalize(st);
out:
	if (exec(s, r == 0 ? "COMMIT" : "ROLLBACK") < 0 && r == 0) {
		said(s, "cannot make the store");
		r = -1;
	}
	return r;
}

struct store *
store_open(const char *file, const char *options)
{
	struct store *s;
	const char *env = getenv("ELFSCAN_STORE_WAIT_MS");
	int wait = env != NULL && *env != '\0' ? atoi(env) : 60000;
	struct db *db;
	char *why;

	if ((db = db_open(file, wait, &why)) == NULL) {
		warnx("%s: cannot open the store: %s", file, why);
		free(why);
		return NULL;
	}
	s = xcalloc(1, sizeof(*s));
	s->file = xstrdup(file);
	s->db = db;
	pthread_mutex_init(&s->lock, NULL);
	if (schema_check(s, options) < 0) {
		db_close(s->db);
		pthread_mutex_destroy(&s->lock);
		free(s->file);
		free(s);
		return NULL;
	}
	return s;
}

static void
pending_free(struct pending *p)
{
	free(p->member);
	free(p->error);
	free(p->allowed_by);
	free(p->soname);
	free(p->needed);
	rendered_free(&p->x);
}

/* What waits for the package's transaction. */
static void
pending_clear(struct expected *e)
{
	size_t i;

	for (i = 0; i < e->nrec; i++)
		pending_free(&e->rec[i]);
	free(e->rec);
	e->rec = NULL;
	e->nrec = 0;
	for (i = 0; i < e->nfiles; i++) {
		free(e->files[i].path);
		free(e->files[i].data);
	}
	free(e->files);
	e->files = NULL;
	e->nfiles = 0;
}

static void
expected_free(struct expected *e)
{
	pending_clear(e);
	free(e->path);
	free(e->sha256);
	free(e->name);
	free(e->version);
	free(e->arch);
	free(e->source);
	free(e->filename);
	free(e->depends);
	free(e->provides);
}

void
store_close(struct store *s)
{
	size_t i;

	if (s == NULL)
		return;
	/* What no index lists is dropped, with its records. */
	if (exec(s, "DELETE FROM packages WHERE NOT EXISTS (SELECT 1 FROM listing l WHERE l.sha256 = packages.sha256)") <
	    0)
		said(s, "cannot drop the packages no index holds");
	for (i = 0; i < s->nexp; i++)
		expected_free(&s->exp[i]);
	free(s->exp);
	db_close(s->db);
	pthread_mutex_destroy(&s->lock);
	free(s->file);
	free(s);
}

bool
store_failed(const struct store *s)
{
	return s->failed;
}

bool
store_has(struct store *s, const char *sha256)
{
	struct db_stmt *st;
	bool has = false;

	pthread_mutex_lock(&s->lock);
	if ((st = prepare(s, "SELECT 1 FROM packages WHERE sha256 = ?1")) !=
	    NULL) {
		db_bind_text(st, 1, sha256);
		has = db_step(st) == DB_ROW;
		db_finalize(st);
	}
	pthread_mutex_unlock(&s->lock);
	return has;
}

void
store_expect(struct store *s, const struct repo_package *p)
{
	struct expected *e;

	s->exp = xrealloc(s->exp, (s->nexp + 1) * sizeof(*s->exp));
	e = &s->exp[s->nexp++];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(p->path);
	e->sha256 = xstrdup(p->sha256);
	e->name = xstrdup(p->name);
	e->version = xstrdup(p->version);
	e->arch = xstrdup(p->arch != NULL ? p->arch : "");
	e->source = xstrdup(p->source != NULL ? p->source : p->name);
	e->filename = xstrdup(p->filename);
	e->depends = xstrdup(p->depends != NULL ? p->depends : "");
	e->provides = xstrdup(p->provides != NULL ? p->provides : "");
	e->size = p->size;
}

static int
by_path(const void *a, const void *b)
{
	return strcmp(((const struct expected *)a)->path,
	    ((const struct expected *)b)->path);
}

void
store_ready(struct store *s)
{
	if (s->nexp > 0)
		qsort(s->exp, s->nexp, sizeof(*s->exp), by_path);
}

/* The package expected at path, or NULL; under the lock. */
static struct expected *
find(struct store *s, const char *path)
{
	struct expected key = { .path = (char *)path };

	return s->nexp == 0 ? NULL : bsearch(&key, s->exp, s->nexp,
	    sizeof(*s->exp), by_path);
}

/* A new record of the package at path, or NULL when none is expected
   there; under the lock. */
static struct pending *
add_pending(struct store *s, const char *path)
{
	struct expected *e = find(s, path);
	struct pending *p;

	if (e == NULL)
		return NULL;
	e->rec = xrealloc(e->rec, (e->nrec + 1) * sizeof(*e->rec));
	p = &e->rec[e->nrec++];
	memset(p, 0, sizeof(*p));
	return p;
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

/* A copy of a NUL-separated list that ends in an empty name. */
static char *
dup_list(const char *l)
{
	const char *p = l;
	char *d;

	if (l == NULL)
		return NULL;
	while (*p != '\0')
		p += strlen(p) + 1;
	d = xmalloc((size_t)(p - l) + 1);
	memcpy(d, l, (size_t)(p - l) + 1);
	return d;
}

void
store_image(struct store *s, struct report *r, const struct where *w,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h, const struct evidence *ev, bool judged)
{
	const struct chstk_hardening *dyn = info->hardening;
	struct rendered x;
	struct pending *p;

	report_render(r, w, info, v, h, ev, &x);
	pthread_mutex_lock(&s->lock);
	if ((p = add_pending(s, w->path)) == NULL) {
		pthread_mutex_unlock(&s->lock);
		rendered_free(&x);
		return;
	}
	p->member = dup_or_null(w->member);
	p->streamed = w->streamed;
	p->allowed_by = v->allowed_by != NULL ? xstrdup(v->allowed_by->text) :
	    NULL;
	p->type = info->type;
	p->kind = info->kind;
	p->wx = info->wx;
	p->elf_class = info->elf_class;
	p->machine = info->machine;
	p->state = info->state;
	p->v = *v;
	p->judged = judged;
	p->h = *h;
	p->x = x;
	if (dyn != NULL && dyn->has_soname)
		p->soname = xstrdup(dyn->soname);
	if (dyn != NULL && dyn->nneeded > 0)
		p->needed = dup_list(dyn->needed);
	if (v->findings != 0)
		find(s, w->path)->findings = true;
	pthread_mutex_unlock(&s->lock);
}

void
store_error(struct store *s, const struct where *w, enum unread what,
    const struct allow_pattern *by, const char *msg)
{
	struct pending *p;

	pthread_mutex_lock(&s->lock);
	if ((p = add_pending(s, w->path)) != NULL) {
		p->member = dup_or_null(w->member);
		p->streamed = w->streamed;
		p->error = xstrdup(msg);
		p->what = what;
		p->v.allowed = by != NULL;
		p->allowed_by = by != NULL ? xstrdup(by->text) : NULL;
		if (what != UNREAD_ERROR && by == NULL)
			find(s, w->path)->findings = true;
	}
	pthread_mutex_unlock(&s->lock);
}

void
store_file(struct store *s, const char *path, const struct container_file *f)
{
	static const char *const types[] = { [CFILE_LINK] = "link",
	    [CFILE_KEPT] = "file", [CFILE_SCRIPT] = "script" };
	struct pending_file *p;
	struct expected *e;

	pthread_mutex_lock(&s->lock);
	if ((e = find(s, path)) != NULL) {
		e->files = xrealloc(e->files, (e->nfiles + 1) *
		    sizeof(*e->files));
		p = &e->files[e->nfiles++];
		p->path = xstrdup(f->name);
		p->type = types[f->type];
		p->len = f->len;
		p->data = NULL;
		if (f->data != NULL) {
			p->data = xmalloc(f->len + 1);
			memcpy(p->data, f->data, f->len);
			p->data[f->len] = '\0';
		}
	}
	pthread_mutex_unlock(&s->lock);
}

/* The bytes of a file as the files table keeps them: text, or (*hex)
   their hexadecimal digits when they are not UTF-8 or hold a NUL. The
   caller frees it. */
static char *
encoded(const struct pending_file *f, bool *hex)
{
	char *t;
	size_t i;

	*hex = memchr(f->data, '\0', f->len) != NULL ||
	    !utf8_valid((const unsigned char *)f->data, f->len);
	if (!*hex)
		return xstrdup(f->data);
	t = xmalloc(2 * f->len + 1);
	for (i = 0; i < f->len; i++)
		snprintf(t + 2 * i, 3, "%02x", (unsigned char)f->data[i]);
	t[2 * f->len] = '\0';
	return t;
}

/* The files of the package id. */
static int
keep_files(struct store *s, int64_t id, const struct expected *e)
{
	struct db_stmt *st;
	size_t i;
	bool hex, ok = true;
	char *data;

	if (e->nfiles == 0)
		return 0;
	if ((st = prepare(s, "INSERT INTO files VALUES (?1, ?2, ?3, ?4, ?5)")) ==
	    NULL)
		return -1;
	for (i = 0; ok && i < e->nfiles; i++) {
		const struct pending_file *f = &e->files[i];

		data = f->data != NULL ? encoded(f, &hex) : NULL;
		db_reset(st);
		db_bind_int64(st, 1, id);
		db_bind_text(st, 2, f->path);
		db_bind_text(st, 3, f->type);
		db_bind_text(st, 4, data);
		db_bind_int64(st, 5, data != NULL && hex);
		ok = db_step(st) == DB_DONE;
		free(data);
	}
	db_finalize(st);
	return ok ? 0 : -1;
}

static const char *
stack_name(enum chstk_state state)
{
	return state == CHSTK_EXEC ? "exec" : state == CHSTK_NOEXEC ?
	    "noexec" : "unknown";
}

/* The record p of the package id, with its results and sonames. */
static int
keep_record(struct store *s, int64_t id, const struct pending *p)
{
	struct db_stmt *st, *res = NULL, *need = NULL;
	int64_t rec;
	const char *n;
	size_t i;
	int ok;

	st = prepare_insert(s, "INSERT INTO records (package, member, error, unread, type, class, machine, soname, stack, state, effective, scope, judged, findings, allowed, allowed_by, known, pie, relro, canary, fortify, paths, ibt, shstk, bti, pac, symbols, textrel, entry_endbr, lang, text, json, cause, built, dwarf, streamed, kind, wx) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35, ?36, ?37, ?38)");
	if (st == NULL)
		return -1;
	db_bind_int64(st, 1, id);
	db_bind_text(st, 2, p->member);
	db_bind_int64(st, 36, p->streamed);
	if (p->error != NULL) {
		db_bind_text(st, 3, p->error);
		db_bind_int64(st, 4, (int)p->what);
		db_bind_int64(st, 14, 0);
		db_bind_int64(st, 15, p->v.allowed);
		db_bind_text(st, 16, p->allowed_by);
	} else {
		const struct hard *h = &p->h;
		const int hv[] = { h->known, (int)h->pie, (int)h->relro,
		    (int)h->canary, (int)h->fortify, (int)h->paths,
		    (int)h->ibt, (int)h->shstk, (int)h->bti, (int)h->pac,
		    (int)h->symbols, (int)h->textrel, (int)h->entry_endbr,
		    (int)h->lang };

		db_bind_int64(st, 5, (int)p->type);
		db_bind_int64(st, 37, (int)p->kind);
		db_bind_int64(st, 38, (int)p->wx);
		db_bind_int64(st, 6, p->elf_class == ELFCLASS64 ? 64 : 32);
		db_bind_int64(st, 7, (int)p->machine);
		db_bind_text(st, 8, p->soname);
		db_bind_text(st, 9, stack_name(p->state));
		db_bind_int64(st, 10, (int)p->state);
		db_bind_int64(st, 11, (int)p->v.effective);
		db_bind_int64(st, 12, (int)p->v.scope);
		db_bind_int64(st, 13, p->judged);
		db_bind_int64(st, 14, (int64_t)p->v.findings);
		db_bind_int64(st, 15, p->v.allowed);
		db_bind_text(st, 16, p->allowed_by);
		for (i = 0; i < sizeof(hv) / sizeof(hv[0]); i++)
			db_bind_int64(st, 17 + (int)i, hv[i]);
		db_bind_text(st, 31, p->x.text);
		db_bind_text(st, 32, p->x.json);
		db_bind_text(st, 33, p->x.cause);
		db_bind_text(st, 34, p->x.built);
		db_bind_text(st, 35, p->x.dwarf);
	}
	ok = db_insert(st, &rec) == 1;
	db_finalize(st);
	if (!ok)
		return -1;
	if (p->x.nresults > 0 && (res = prepare(s, "INSERT INTO results VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")) ==
	    NULL)
		return -1;
	for (i = 0; ok && i < p->x.nresults; i++) {
		const struct rendered_result *x = &p->x.results[i];

		db_reset(res);
		db_bind_int64(res, 1, rec);
		db_bind_int64(res, 2, (int)x->bit);
		db_bind_int64(res, 3, x->region);
		db_bind_int64(res, 4, (int64_t)x->offset);
		db_bind_int64(res, 5, (int64_t)x->length);
		db_bind_text(res, 6, x->why);
		db_bind_text(res, 7, x->justification);
		ok = db_step(res) == DB_DONE;
	}
	db_finalize(res);
	if (ok && p->needed != NULL && (need = prepare(s, "INSERT INTO needed VALUES (?1, ?2)")) ==
	    NULL)
		return -1;
	for (n = p->needed; ok && n != NULL && *n != '\0'; n += strlen(n) + 1) {
		db_reset(need);
		db_bind_int64(need, 1, rec);
		db_bind_text(need, 2, n);
		ok = db_step(need) == DB_DONE;
	}
	db_finalize(need);
	return ok ? 0 : -1;
}

/* The package e and its records, in one transaction. */
static int
keep(struct store *s, const struct expected *e)
{
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	struct db_stmt *st;
	int64_t id;
	size_t i;
	int added;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ",
	    gmtime_r(&now, &tm));
	if (db_begin(s->db, DB_WRITE) < 0)
		return -1;
	st = prepare_insert(s, "INSERT INTO packages (sha256, name, version, arch, source, filename, size, depends, provides, path, read_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT (sha256) DO NOTHING");
	if (st == NULL)
		goto fail;
	db_bind_text(st, 1, e->sha256);
	db_bind_text(st, 2, e->name);
	db_bind_text(st, 3, e->version);
	db_bind_text(st, 4, e->arch);
	db_bind_text(st, 5, e->source);
	db_bind_text(st, 6, e->filename);
	db_bind_int64(st, 7, (int64_t)e->size);
	db_bind_text(st, 8, e->depends);
	db_bind_text(st, 9, e->provides);
	db_bind_text(st, 10, e->path);
	db_bind_text(st, 11, when);
	added = db_insert(st, &id);
	db_finalize(st);
	if (added < 0)
		goto fail;
	/* Kept already, by another writer of the store (a shard) that read
	   the same bytes: nothing to add. */
	if (added == 0)
		return exec(s, "COMMIT");
	for (i = 0; i < e->nrec; i++)
		if (keep_record(s, id, &e->rec[i]) < 0)
			goto fail;
	if (keep_files(s, id, e) < 0 || exec(s, "COMMIT") < 0)
		goto fail;
	return 0;
fail:
	/* Why, before the rollback makes it "not an error". */
	snprintf(s->why, sizeof(s->why), "%s", db_errmsg(s->db));
	exec(s, "ROLLBACK");
	return -1;
}

/* Are the bytes of e's file its index's: d's, or else the file's read
   again? Said when they are not. */
static bool
vouched(const struct expected *e, const struct container_digest *d)
{
	struct sha256 c;
	char hex[SHA256_HEX];
	uint64_t size;

	if (d == NULL && sha256_file(e->path, hex, &size) < 0) {
		warnx("%s: package %s %s: cannot read: %s: not kept", e->path,
		    e->name, e->version, strerror(errno));
		return false;
	} else if (d != NULL) {
		c = d->sha;
		sha256_hex(&c, hex);
		size = d->size;
	}
	if (size != e->size)
		warnx("%s: package %s %s: %" PRIu64 " bytes, not the index's %" PRIu64 ": not kept",
		    e->path, e->name, e->version, size, e->size);
	else if (strcmp(hex, e->sha256) != 0)
		warnx("%s: package %s %s: its SHA256 is not the index's: not kept",
		    e->path, e->name, e->version);
	return size == e->size && strcmp(hex, e->sha256) == 0;
}

void
store_done(struct store *s, const char *path,
    const struct container_digest *d)
{
	struct expected *e;

	pthread_mutex_lock(&s->lock);
	if ((e = find(s, path)) == NULL) {
		pthread_mutex_unlock(&s->lock);
		return;
	}
	if (!vouched(e, d)) {
		s->failed = true;
	} else if (keep(s, e) < 0) {
		warnx("%s: cannot keep package %s %s: %s", s->file, e->name,
		    e->version, s->why);
		s->failed = true;
	}
	pending_clear(e);
	pthread_mutex_unlock(&s->lock);
}

int
store_list(struct store *s, const char *repo, const char *arch, unsigned k,
    unsigned n, const struct store_entry *v, size_t count)
{
	struct db_stmt *del = NULL, *ins = NULL;
	size_t i;
	bool ok;

	pthread_mutex_lock(&s->lock);
	ok = db_begin(s->db, DB_ALONE) == 0 &&
	    (del = prepare(s, "DELETE FROM listing WHERE repo = ?1 AND arch = ?2 AND (?4 <= 1 OR bucket % ?4 = ?3)")) !=
	    NULL &&
	    (ins = prepare(s, "INSERT INTO listing VALUES (?1, ?2, ?3, ?4, ?5, ?6)")) !=
	    NULL;
	if (ok) {
		db_bind_text(del, 1, repo);
		db_bind_text(del, 2, arch);
		db_bind_int64(del, 3, (int)k);
		db_bind_int64(del, 4, (int)n);
		ok = db_step(del) == DB_DONE;
	}
	for (i = 0; ok && i < count; i++) {
		db_reset(ins);
		db_bind_text(ins, 1, repo);
		db_bind_text(ins, 2, arch);
		db_bind_int64(ins, 3, (int64_t)v[i].seq);
		db_bind_text(ins, 4, v[i].name);
		db_bind_int64(ins, 5, v[i].bucket);
		db_bind_text(ins, 6, v[i].sha256);
		ok = db_step(ins) == DB_DONE;
	}
	db_finalize(del);
	db_finalize(ins);
	if (ok && exec(s, "COMMIT") < 0)
		ok = false;
	if (!ok) {
		said(s, "cannot keep the index");
		exec(s, "ROLLBACK");
	}
	pthread_mutex_unlock(&s->lock);
	return ok ? 0 : -1;
}

/* The record at the row of st (records' columns from 1), into r. */
static void
record_of(struct db_stmt *st, struct stored *r)
{
	struct hard *h = &r->h;

	r->member = db_column_text(st, 1);
	r->error = db_column_text(st, 2);
	r->what = (enum unread)db_column_int64(st, 3);
	r->state = (enum chstk_state)db_column_int64(st, 4);
	r->v.effective = (enum effective)db_column_int64(st, 5);
	r->v.scope = (enum scope)db_column_int64(st, 6);
	r->judged = (int)db_column_int64(st, 7);
	r->v.findings = (uint64_t)db_column_int64(st, 8);
	r->v.allowed = (int)db_column_int64(st, 9);
	r->allowed_by = db_column_text(st, 10);
	h->known = (int)db_column_int64(st, 11);
	h->pie = (enum pie)db_column_int64(st, 12);
	h->relro = (enum relro)db_column_int64(st, 13);
	h->canary = (enum tri)db_column_int64(st, 14);
	h->fortify = (enum tri)db_column_int64(st, 15);
	h->paths = (enum tri)db_column_int64(st, 16);
	h->ibt = (enum tri)db_column_int64(st, 17);
	h->shstk = (enum tri)db_column_int64(st, 18);
	h->bti = (enum tri)db_column_int64(st, 19);
	h->pac = (enum tri)db_column_int64(st, 20);
	h->symbols = (enum tri)db_column_int64(st, 21);
	h->textrel = (enum tri)db_column_int64(st, 22);
	h->entry_endbr = (enum tri)db_column_int64(st, 23);
	h->lang = (enum lang)db_column_int64(st, 24);
	r->x.text = (char *)db_column_text(st, 25);
	r->x.json = (char *)db_column_text(st, 26);
	r->x.cause = (char *)db_column_text(st, 27);
	r->x.built = (char *)db_column_text(st, 28);
	r->x.dwarf = (char *)db_column_text(st, 29);
	r->streamed = (int)db_column_int64(st, 30);
}

/* The SARIF results of the record rec into r->x; free with
   results_free(). */
static int
results_of(struct store *s, struct db_stmt *st, int64_t rec,
    struct stored *r)
{
	struct rendered_result *x;
	int step;

	db_reset(st);
	db_bind_int64(st, 1, rec);
	while ((step = db_step(st)) == DB_ROW) {
		r->x.results = xrealloc(r->x.results, (r->x.nresults + 1) *
		    sizeof(*r->x.results));
		x = &r->x.results[r->x.nresults++];
		x->bit = (unsigned)db_column_int64(st, 0);
		x->region = (int)db_column_int64(st, 1);
		x->offset = (uint64_t)db_column_int64(st, 2);
		x->length = (uint64_t)db_column_int64(st, 3);
		x->why = xstrdup(db_column_text(st, 4));
		x->justification = dup_or_null(db_column_text(st, 5));
	}
	if (step != DB_DONE) {
		said(s, "cannot read the store");
		return -1;
	}
	return 0;
}

static void
results_free(struct stored *r)
{
	size_t i;

	for (i = 0; i < r->x.nresults; i++) {
		free(r->x.results[i].why);
		free(r->x.results[i].justification);
	}
	free(r->x.results);
	r->x.results = NULL;
	r->x.nresults = 0;
}

int
store_say(struct store *s, const char *repo, const char *arch, unsigned k,
    unsigned n, const struct store_say *say)
{
	struct db_stmt *pk, *rec = NULL, *res = NULL;
	int step = DB_DONE, rstep = DB_DONE, r = -1;

	pthread_mutex_lock(&s->lock);
	/* One snapshot for all: a writer's package is all or nothing. */
	if (db_begin(s->db, DB_READ) < 0 ||
	    (pk = prepare(s, "SELECT p.id, p.path, p.size FROM listing l JOIN packages p ON p.sha256 = l.sha256 WHERE l.repo = ?1 AND l.arch = ?2 AND (?4 <= 1 OR l.bucket % ?4 = ?3) ORDER BY l.seq")) ==
	    NULL) {
		said(s, "cannot read the store");
		pthread_mutex_unlock(&s->lock);
		return -1;
	}
	if ((rec = prepare(s, "SELECT id, member, error, unread, state, effective, scope, judged, findings, allowed, allowed_by, known, pie, relro, canary, fortify, paths, ibt, shstk, bti, pac, symbols, textrel, entry_endbr, lang, text, json, cause, built, dwarf, streamed FROM records WHERE package = ?1 ORDER BY id")) ==
	    NULL || (res = prepare(s, "SELECT bit, region, \"offset\", length, why, justification FROM results WHERE record = ?1 ORDER BY rowid")) ==
	    NULL)
		goto out;
	db_bind_text(pk, 1, repo);
	db_bind_text(pk, 2, arch);
	db_bind_int64(pk, 3, (int)k);
	db_bind_int64(pk, 4, (int)n);
	while ((step = db_step(pk)) == DB_ROW) {
		const char *path = db_column_text(pk, 1);
		bool findings = false;

		db_reset(rec);
		db_bind_int64(rec, 1, db_column_int64(pk, 0));
		while ((rstep = db_step(rec)) == DB_ROW) {
			struct stored one;

			memset(&one, 0, sizeof(one));
			one.path = path;
			one.size = (unsigned long long)db_column_int64(pk,
			    2);
			record_of(rec, &one);
			if (one.error == NULL && results_of(s, res,
			    db_column_int64(rec, 0), &one) < 0)
				goto out;
			findings |= one.v.findings != 0 || (one.error != NULL &&
			    one.what != UNREAD_ERROR && !one.v.allowed);
			say->record(say->ctx, &one);
			results_free(&one);
		}
		if (rstep != DB_DONE)
			break;
		say->package(say->ctx, path, findings);
	}
	if (step == DB_DONE && rstep == DB_DONE)
		r = 0;
	else
		said(s, "cannot read the store");
out:
	db_finalize(pk);
	db_finalize(rec);
	db_finalize(res);
	exec(s, "COMMIT");
	pthread_mutex_unlock(&s->lock);
	return r;
}

static int
hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	    c - 'a' + 10 : -1;
}

/* The files of the listed packages, for walk->file: DB_DONE, or
   DB_ERROR. */
static int
walk_files(struct store *s, const char *repo, const char *arch,
    const struct store_walk *walk)
{
	struct db_stmt *st;
	char *bytes = NULL;
	int step;

	if ((st = prepare(s, "SELECT p.path, f.path, f.type, f.data, f.hex FROM listing l JOIN packages p ON p.sha256 = l.sha256 JOIN files f ON f.package = p.id WHERE l.repo = ?1 AND l.arch = ?2 ORDER BY l.seq, f.rowid")) ==
	    NULL)
		return DB_ERROR;
	db_bind_text(st, 1, repo);
	db_bind_text(st, 2, arch);
	while ((step = db_step(st)) == DB_ROW) {
		const char *type = db_column_text(st, 2),
		    *data = db_column_text(st, 3);
		struct stored_file f = { .package = db_column_text(st, 0),
		    .path = db_column_text(st, 1), .data = data,
		    .len = data != NULL ? strlen(data) : 0 };
		size_t i;

		f.type = strcmp(type, "link") == 0 ? CFILE_LINK :
		    strcmp(type, "script") == 0 ? CFILE_SCRIPT : CFILE_KEPT;
		if (data != NULL && db_column_int64(st, 4) != 0) {
			f.len /= 2;
			bytes = xrealloc(bytes, f.len + 1);
			for (i = 0; i < f.len; i++)
				bytes[i] = (char)(hex_digit(data[2 * i]) << 4 |
				    hex_digit(data[2 * i + 1]));
			bytes[f.len] = '\0';
			f.data = bytes;
		}
		walk->file(walk->ctx, &f);
	}
	free(bytes);
	db_finalize(st);
	return step == DB_DONE ? DB_DONE : DB_ERROR;
}

int
store_images(struct store *s, const char *repo, const char *arch,
    const struct store_walk *walk)
{
	static const char from[] = " FROM listing l JOIN packages p ON p.sha256 = l.sha256 JOIN records r ON r.package = p.id",
	    where[] = " WHERE l.repo = ?1 AND l.arch = ?2 AND (r.error IS NULL OR r.unread = 1)";
	struct db_stmt *st = NULL, *need = NULL;
	char *sql;
	int step = DB_DONE, r = -1;

	pthread_mutex_lock(&s->lock);
	if (db_begin(s->db, DB_READ) < 0)
		goto out;
	if (asprintf(&sql, "SELECT r.id, p.name, p.version, p.depends, p.path, r.member, r.kind, r.class, r.machine, r.soname, r.effective, r.state, CASE WHEN r.error IS NULL THEN 0 ELSE 1 END, r.allowed, r.wx, r.known, r.pie, r.relro, r.canary, r.fortify, r.paths, r.ibt, r.shstk, r.bti, r.pac, r.textrel, r.findings%s%s ORDER BY l.seq, r.id",
	    from, where) < 0)
		oom();
	st = prepare(s, sql);
	free(sql);
	if (asprintf(&sql, "SELECT n.record, n.soname%s JOIN needed n ON n.record = r.id%s ORDER BY n.record, n.rowid",
	    from, where) < 0)
		oom();
	need = prepare(s, sql);
	free(sql);
	if (st == NULL || need == NULL)
		goto out;
	db_bind_text(st, 1, repo);
	db_bind_text(st, 2, arch);
	while ((step = db_step(st)) == DB_ROW) {
		struct store_image im = {
			.id = db_column_int64(st, 0),
			.package = db_column_text(st, 1), .version = db_column_text(st, 2),
			.depends = db_column_text(st, 3), .path = db_column_text(st, 4),
			.member = db_column_text(st, 5),
			.kind = (enum chstk_kind)(int)db_column_int64(st, 6),
			.elf_class = (unsigned)(int)db_column_int64(st, 7),
			.machine = (unsigned)(int)db_column_int64(st, 8),
			.soname = db_column_text(st, 9),
			.effective = (enum effective)(int)db_column_int64(st, 10),
			.state = (enum chstk_state)(int)db_column_int64(st, 11),
			.malformed = (int)db_column_int64(st, 12),
			.allowed = (int)db_column_int64(st, 13),
			.wx = (unsigned)(int)db_column_int64(st, 14),
		};
		struct hard *h = &im.h;

		h->known = (int)db_column_int64(st, 15);
		h->pie = (enum pie)(int)db_column_int64(st, 16);
		h->relro = (enum relro)(int)db_column_int64(st, 17);
		h->canary = (enum tri)(int)db_column_int64(st, 18);
		h->fortify = (enum tri)(int)db_column_int64(st, 19);
		h->paths = (enum tri)(int)db_column_int64(st, 20);
		h->ibt = (enum tri)(int)db_column_int64(st, 21);
		h->shstk = (enum tri)(int)db_column_int64(st, 22);
		h->bti = (enum tri)(int)db_column_int64(st, 23);
		h->pac = (enum tri)(int)db_column_int64(st, 24);
		h->textrel = (enum tri)(int)db_column_int64(st, 25);
		im.findings = (uint64_t)db_column_int64(st, 26);

		walk->image(walk->ctx, &im);
	}
	if (step != DB_DONE)
		goto out;
	db_bind_text(need, 1, repo);
	db_bind_text(need, 2, arch);
	while ((step = db_step(need)) == DB_ROW)
		walk->needed(walk->ctx, db_column_int64(need, 0),
		    db_column_text(need, 1));
	if (step == DB_DONE && walk->file != NULL)
		step = walk_files(s, repo, arch, walk);
	if (step == DB_DONE)
		r = 0;
out:
	if (r < 0)
		said(s, "cannot read the store");
	db_finalize(st);
	db_finalize(need);
	exec(s, "COMMIT");
	pthread_mutex_unlock(&s->lock);
	return r;
}

int
store_version(struct store *s, const char *repo, const char *arch,
    const char *name, char *out, size_t len)
{
	struct db_stmt *st;
	int step, r = -1;

	pthread_mutex_lock(&s->lock);
	if ((st = prepare(s, "SELECT p.version FROM listing l JOIN packages p ON p.sha256 = l.sha256 WHERE l.repo = ?1 AND l.arch = ?2 AND p.name = ?3 ORDER BY l.seq LIMIT 1")) !=
	    NULL) {
		db_bind_text(st, 1, repo);
		db_bind_text(st, 2, arch);
		db_bind_text(st, 3, name);
		if ((step = db_step(st)) == DB_ROW) {
			snprintf(out, len, "%s", db_column_text(st, 0));
			r = 1;
		} else if (step == DB_DONE) {
			r = 0;
		} else {
			said(s, "cannot read the store");
		}
		db_finalize(st);
	}
	pthread_mutex_unlock(&s->lock);
	return r;
}
