/*
 * store.c - the suite's store in SQLite (store.h). The schema, version 1,
 * is the SQL below; elfscan-suites(7) documents it for sqlite3 users:
 *   meta      key and value: the options the records were made with
 *   packages  one a package read, by the SHA256 its index gives
 *   listing   each repository's index as last read, in its order, each
 *             package with its name's shard bucket (repo.h)
 *   records   each package's records: an image's facts, and its record
 *             made once in each format (report.h), or what could not be
 *             read
 *   results   an image's SARIF results
 *   needed    an image's DT_NEEDED sonames, for verdicts across a suite
 * The database is in WAL mode, so that several processes write one file,
 * one at a time, each waiting for the others (busy timeout, 60 s, or
 * ELFSCAN_STORE_WAIT_MS); each package is kept in one transaction, so a
 * run killed loses at most the packages being read.
 *
 * One connection a process, used under the store's lock: the walk's
 * workers hand records over from any thread.
 */
#include <elf.h>
#include <err.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "repo.h"
#include "store.h"
#include "xalloc.h"

#define SCHEMA_VERSION 1

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
"  type INTEGER, class INTEGER, machine INTEGER, soname TEXT,\n"
"  stack TEXT, state INTEGER, effective INTEGER, scope INTEGER,\n"
"  judged INTEGER, findings INTEGER NOT NULL DEFAULT 0,\n"
"  allowed INTEGER NOT NULL DEFAULT 0, allowed_by TEXT,\n"
"  known INTEGER, pie INTEGER, relro INTEGER, canary INTEGER,\n"
"  fortify INTEGER, paths INTEGER, ibt INTEGER, shstk INTEGER,\n"
"  bti INTEGER, pac INTEGER, symbols INTEGER, textrel INTEGER,\n"
"  entry_endbr INTEGER, lang INTEGER,\n"
"  text TEXT, json TEXT, cause TEXT, built TEXT, dwarf TEXT);\n"
"CREATE INDEX records_package ON records (package);\n"
"CREATE TABLE results (\n"
"  record INTEGER NOT NULL REFERENCES records (id) ON DELETE CASCADE,\n"
"  bit INTEGER NOT NULL, region INTEGER NOT NULL,\n"
"  offset INTEGER NOT NULL, length INTEGER NOT NULL,\n"
"  why TEXT NOT NULL, justification TEXT);\n"
"CREATE INDEX results_record ON results (record);\n"
"CREATE TABLE needed (\n"
"  record INTEGER NOT NULL REFERENCES records (id) ON DELETE CASCADE,\n"
"  soname TEXT NOT NULL);\n"
"CREATE INDEX needed_record ON needed (record);\n"
"CREATE INDEX needed_soname ON needed (soname);\n";

/* A record waiting for its package's transaction. */
struct pending {
	char *member, *error, *allowed_by, *soname;
	char *needed;		/* NUL-separated, ending in an empty name */
	enum unread what;
	bool streamed;
	unsigned type, elf_class, machine;
	enum chstk_state state;
	struct verdict v;
	bool judged;
	struct hard h;
	struct rendered x;
};

/* A package being read. */
struct expected {
	char *path, *sha256, *name, *version, *arch, *source, *filename;
	char *depends, *provides;
	uint64_t size;
	struct pending *rec;
	size_t nrec;
	bool findings;
};

struct store {
	char *file;
	sqlite3 *db;
	pthread_mutex_t lock;
	struct expected *exp;
	size_t nexp;
	bool failed;
};

/* What failed, in one line: the file, what was done, SQLite's words. */
static void
said(struct store *s, const char *what)
{
	warnx("%s: %s: %s", s->file, what, sqlite3_errmsg(s->db));
	s->failed = true;
}

static int
exec(struct store *s, const char *sql)
{
	return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static sqlite3_stmt *
prepare(struct store *s, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		said(s, "cannot read the store");
		return NULL;
	}
	return st;
}

/* The text of column i, or NULL. */
static const char *
text_of(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

static void
bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v == NULL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
}

/* The version of the file's schema: made now when it has none. Returns
   -1 when it is another (said). */
static int
schema_check(struct store *s, const char *options)
{
	sqlite3_stmt *st;
	int version = -1, r = -1;
	const char *was;

	if (exec(s, "BEGIN IMMEDIATE") < 0) {
		said(s, "cannot open the store");
		return -1;
	}
	if ((st = prepare(s, "PRAGMA user_version")) != NULL &&
	    sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version == 0) {
		if (exec(s, schema) < 0 ||
		    exec(s, "PRAGMA user_version = 1") < 0 ||
		    (st = prepare(s, "INSERT INTO meta VALUES ('options', ?1)")) ==
		    NULL) {
			said(s, "cannot make the store");
			goto out;
		}
		bind_text(st, 1, options);
		if (sqlite3_step(st) != SQLITE_DONE)
			said(s, "cannot make the store");
		else
			r = 0;
		sqlite3_finalize(st);
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
	if (sqlite3_step(st) != SQLITE_ROW || (was = text_of(st, 0)) == NULL)
		warnx("%s: not an elfscan store: it keeps no options", s->file);
	else if (strcmp(was, options) != 0)
		warnx("%s: a store of records made with other options (%s; now %s): name another file",
		    s->file, *was != '\0' ? was : "none", *options != '\0' ?
		    options : "none");
	else
		r = 0;
	sqlite3_finalize(st);
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
	struct store *s = xcalloc(1, sizeof(*s));
	const char *env = getenv("ELFSCAN_STORE_WAIT_MS");
	int wait = env != NULL && *env != '\0' ? atoi(env) : 60000;

	s->file = xstrdup(file);
	pthread_mutex_init(&s->lock, NULL);
	if (sqlite3_open_v2(file, &s->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		said(s, "cannot open the store");
		goto fail;
	}
	sqlite3_busy_timeout(s->db, wait);
	sqlite3_extended_result_codes(s->db, 1);
	if (exec(s, "PRAGMA journal_mode = WAL") < 0 ||
	    exec(s, "PRAGMA foreign_keys = ON") < 0 ||
	    exec(s, "PRAGMA synchronous = NORMAL") < 0) {
		said(s, "cannot open the store");
		goto fail;
	}
	if (schema_check(s, options) < 0)
		goto fail;
	return s;
fail:
	sqlite3_close(s->db);
	free(s->file);
	free(s);
	return NULL;
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

static void
expected_free(struct expected *e)
{
	size_t i;

	for (i = 0; i < e->nrec; i++)
		pending_free(&e->rec[i]);
	free(e->rec);
	e->rec = NULL;
	e->nrec = 0;
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
	sqlite3_close(s->db);
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
	sqlite3_stmt *st;
	bool has = false;

	pthread_mutex_lock(&s->lock);
	if ((st = prepare(s, "SELECT 1 FROM packages WHERE sha256 = ?1")) !=
	    NULL) {
		bind_text(st, 1, sha256);
		has = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
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

static const char *
stack_name(enum chstk_state state)
{
	return state == CHSTK_EXEC ? "exec" : state == CHSTK_NOEXEC ?
	    "noexec" : "unknown";
}

/* The record p of the package id, with its results and sonames. */
static int
keep_record(struct store *s, sqlite3_int64 id, const struct pending *p)
{
	sqlite3_stmt *st, *res = NULL, *need = NULL;
	sqlite3_int64 rec;
	const char *n;
	size_t i;
	int ok;

	st = prepare(s, "INSERT INTO records (package, member, error, unread, type, class, machine, soname, stack, state, effective, scope, judged, findings, allowed, allowed_by, known, pie, relro, canary, fortify, paths, ibt, shstk, bti, pac, symbols, textrel, entry_endbr, lang, text, json, cause, built, dwarf, streamed) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35, ?36)");
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	bind_text(st, 2, p->member);
	sqlite3_bind_int(st, 36, p->streamed);
	if (p->error != NULL) {
		bind_text(st, 3, p->error);
		sqlite3_bind_int(st, 4, (int)p->what);
		sqlite3_bind_int(st, 15, p->v.allowed);
		bind_text(st, 16, p->allowed_by);
	} else {
		const struct hard *h = &p->h;
		const int hv[] = { h->known, (int)h->pie, (int)h->relro,
		    (int)h->canary, (int)h->fortify, (int)h->paths,
		    (int)h->ibt, (int)h->shstk, (int)h->bti, (int)h->pac,
		    (int)h->symbols, (int)h->textrel, (int)h->entry_endbr,
		    (int)h->lang };

		sqlite3_bind_int(st, 5, (int)p->type);
		sqlite3_bind_int(st, 6, p->elf_class == ELFCLASS64 ? 64 : 32);
		sqlite3_bind_int(st, 7, (int)p->machine);
		bind_text(st, 8, p->soname);
		bind_text(st, 9, stack_name(p->state));
		sqlite3_bind_int(st, 10, (int)p->state);
		sqlite3_bind_int(st, 11, (int)p->v.effective);
		sqlite3_bind_int(st, 12, (int)p->v.scope);
		sqlite3_bind_int(st, 13, p->judged);
		sqlite3_bind_int64(st, 14, (sqlite3_int64)p->v.findings);
		sqlite3_bind_int(st, 15, p->v.allowed);
		bind_text(st, 16, p->allowed_by);
		for (i = 0; i < sizeof(hv) / sizeof(hv[0]); i++)
			sqlite3_bind_int(st, 17 + (int)i, hv[i]);
		bind_text(st, 31, p->x.text);
		bind_text(st, 32, p->x.json);
		bind_text(st, 33, p->x.cause);
		bind_text(st, 34, p->x.built);
		bind_text(st, 35, p->x.dwarf);
	}
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	if (!ok)
		return -1;
	rec = sqlite3_last_insert_rowid(s->db);
	if (p->x.nresults > 0 && (res = prepare(s, "INSERT INTO results VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")) ==
	    NULL)
		return -1;
	for (i = 0; ok && i < p->x.nresults; i++) {
		const struct rendered_result *x = &p->x.results[i];

		sqlite3_reset(res);
		sqlite3_bind_int64(res, 1, rec);
		sqlite3_bind_int(res, 2, (int)x->bit);
		sqlite3_bind_int(res, 3, x->region);
		sqlite3_bind_int64(res, 4, (sqlite3_int64)x->offset);
		sqlite3_bind_int64(res, 5, (sqlite3_int64)x->length);
		bind_text(res, 6, x->why);
		bind_text(res, 7, x->justification);
		ok = sqlite3_step(res) == SQLITE_DONE;
	}
	sqlite3_finalize(res);
	if (ok && p->needed != NULL && (need = prepare(s, "INSERT INTO needed VALUES (?1, ?2)")) ==
	    NULL)
		return -1;
	for (n = p->needed; ok && n != NULL && *n != '\0'; n += strlen(n) + 1) {
		sqlite3_reset(need);
		sqlite3_bind_int64(need, 1, rec);
		bind_text(need, 2, n);
		ok = sqlite3_step(need) == SQLITE_DONE;
	}
	sqlite3_finalize(need);
	return ok ? 0 : -1;
}

/* The package e and its records, in one transaction. */
static int
keep(struct store *s, const struct expected *e)
{
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	sqlite3_stmt *st;
	sqlite3_int64 id;
	size_t i;
	int step;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ",
	    gmtime_r(&now, &tm));
	if (exec(s, "BEGIN IMMEDIATE") < 0)
		return -1;
	st = prepare(s, "INSERT INTO packages (sha256, name, version, arch, source, filename, size, depends, provides, path, read_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT (sha256) DO NOTHING");
	if (st == NULL)
		goto fail;
	bind_text(st, 1, e->sha256);
	bind_text(st, 2, e->name);
	bind_text(st, 3, e->version);
	bind_text(st, 4, e->arch);
	bind_text(st, 5, e->source);
	bind_text(st, 6, e->filename);
	sqlite3_bind_int64(st, 7, (sqlite3_int64)e->size);
	bind_text(st, 8, e->depends);
	bind_text(st, 9, e->provides);
	bind_text(st, 10, e->path);
	bind_text(st, 11, when);
	step = sqlite3_step(st);
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		goto fail;
	/* Kept already, by another writer of the store (a shard) that read
	   the same bytes: nothing to add. */
	if (sqlite3_changes(s->db) == 0)
		return exec(s, "COMMIT");
	id = sqlite3_last_insert_rowid(s->db);
	for (i = 0; i < e->nrec; i++)
		if (keep_record(s, id, &e->rec[i]) < 0)
			goto fail;
	if (exec(s, "COMMIT") < 0)
		goto fail;
	return 0;
fail:
	exec(s, "ROLLBACK");
	return -1;
}

void
store_done(struct store *s, const char *path)
{
	struct expected *e;
	char what[4200];
	size_t i;

	pthread_mutex_lock(&s->lock);
	if ((e = find(s, path)) != NULL) {
		if (keep(s, e) < 0) {
			snprintf(what, sizeof(what),
			    "cannot keep package %s %s", e->name, e->version);
			said(s, what);
		}
		for (i = 0; i < e->nrec; i++)
			pending_free(&e->rec[i]);
		free(e->rec);
		e->rec = NULL;
		e->nrec = 0;
	}
	pthread_mutex_unlock(&s->lock);
}

int
store_list(struct store *s, const char *repo, const char *arch, unsigned k,
    unsigned n, const struct store_entry *v, size_t count)
{
	sqlite3_stmt *del = NULL, *ins = NULL;
	size_t i;
	bool ok;

	pthread_mutex_lock(&s->lock);
	ok = exec(s, "BEGIN IMMEDIATE") == 0 &&
	    (del = prepare(s, "DELETE FROM listing WHERE repo = ?1 AND arch = ?2 AND (?4 <= 1 OR bucket % ?4 = ?3)")) !=
	    NULL &&
	    (ins = prepare(s, "INSERT INTO listing VALUES (?1, ?2, ?3, ?4, ?5, ?6)")) !=
	    NULL;
	if (ok) {
		bind_text(del, 1, repo);
		bind_text(del, 2, arch);
		sqlite3_bind_int(del, 3, (int)k);
		sqlite3_bind_int(del, 4, (int)n);
		ok = sqlite3_step(del) == SQLITE_DONE;
	}
	for (i = 0; ok && i < count; i++) {
		sqlite3_reset(ins);
		bind_text(ins, 1, repo);
		bind_text(ins, 2, arch);
		sqlite3_bind_int64(ins, 3, (sqlite3_int64)v[i].seq);
		bind_text(ins, 4, v[i].name);
		sqlite3_bind_int64(ins, 5, v[i].bucket);
		bind_text(ins, 6, v[i].sha256);
		ok = sqlite3_step(ins) == SQLITE_DONE;
	}
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
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
record_of(sqlite3_stmt *st, struct stored *r)
{
	struct hard *h = &r->h;

	r->member = text_of(st, 1);
	r->error = text_of(st, 2);
	r->what = (enum unread)sqlite3_column_int(st, 3);
	r->state = (enum chstk_state)sqlite3_column_int(st, 4);
	r->v.effective = (enum effective)sqlite3_column_int(st, 5);
	r->v.scope = (enum scope)sqlite3_column_int(st, 6);
	r->judged = sqlite3_column_int(st, 7);
	r->v.findings = (uint64_t)sqlite3_column_int64(st, 8);
	r->v.allowed = sqlite3_column_int(st, 9);
	r->allowed_by = text_of(st, 10);
	h->known = sqlite3_column_int(st, 11);
	h->pie = (enum pie)sqlite3_column_int(st, 12);
	h->relro = (enum relro)sqlite3_column_int(st, 13);
	h->canary = (enum tri)sqlite3_column_int(st, 14);
	h->fortify = (enum tri)sqlite3_column_int(st, 15);
	h->paths = (enum tri)sqlite3_column_int(st, 16);
	h->ibt = (enum tri)sqlite3_column_int(st, 17);
	h->shstk = (enum tri)sqlite3_column_int(st, 18);
	h->bti = (enum tri)sqlite3_column_int(st, 19);
	h->pac = (enum tri)sqlite3_column_int(st, 20);
	h->symbols = (enum tri)sqlite3_column_int(st, 21);
	h->textrel = (enum tri)sqlite3_column_int(st, 22);
	h->entry_endbr = (enum tri)sqlite3_column_int(st, 23);
	h->lang = (enum lang)sqlite3_column_int(st, 24);
	r->x.text = (char *)text_of(st, 25);
	r->x.json = (char *)text_of(st, 26);
	r->x.cause = (char *)text_of(st, 27);
	r->x.built = (char *)text_of(st, 28);
	r->x.dwarf = (char *)text_of(st, 29);
	r->streamed = sqlite3_column_int(st, 30);
}

/* The SARIF results of the record rec into r->x; free with
   results_free(). */
static int
results_of(struct store *s, sqlite3_stmt *st, sqlite3_int64 rec,
    struct stored *r)
{
	struct rendered_result *x;
	int step;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, rec);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		r->x.results = xrealloc(r->x.results, (r->x.nresults + 1) *
		    sizeof(*r->x.results));
		x = &r->x.results[r->x.nresults++];
		x->bit = (unsigned)sqlite3_column_int(st, 0);
		x->region = sqlite3_column_int(st, 1);
		x->offset = (uint64_t)sqlite3_column_int64(st, 2);
		x->length = (uint64_t)sqlite3_column_int64(st, 3);
		x->why = xstrdup(text_of(st, 4));
		x->justification = dup_or_null(text_of(st, 5));
	}
	if (step != SQLITE_DONE) {
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
	sqlite3_stmt *pk, *rec = NULL, *res = NULL;
	int step = SQLITE_DONE, rstep = SQLITE_DONE, r = -1;

	pthread_mutex_lock(&s->lock);
	/* One snapshot for all: a writer's package is all or nothing. */
	if (exec(s, "BEGIN") < 0 ||
	    (pk = prepare(s, "SELECT p.id, p.path, p.size FROM listing l JOIN packages p ON p.sha256 = l.sha256 WHERE l.repo = ?1 AND l.arch = ?2 AND (?4 <= 1 OR l.bucket % ?4 = ?3) ORDER BY l.seq")) ==
	    NULL) {
		said(s, "cannot read the store");
		pthread_mutex_unlock(&s->lock);
		return -1;
	}
	if ((rec = prepare(s, "SELECT id, member, error, unread, state, effective, scope, judged, findings, allowed, allowed_by, known, pie, relro, canary, fortify, paths, ibt, shstk, bti, pac, symbols, textrel, entry_endbr, lang, text, json, cause, built, dwarf, streamed FROM records WHERE package = ?1 ORDER BY id")) ==
	    NULL || (res = prepare(s, "SELECT bit, region, offset, length, why, justification FROM results WHERE record = ?1 ORDER BY rowid")) ==
	    NULL)
		goto out;
	bind_text(pk, 1, repo);
	bind_text(pk, 2, arch);
	sqlite3_bind_int(pk, 3, (int)k);
	sqlite3_bind_int(pk, 4, (int)n);
	while ((step = sqlite3_step(pk)) == SQLITE_ROW) {
		const char *path = text_of(pk, 1);
		bool findings = false;

		sqlite3_reset(rec);
		sqlite3_bind_int64(rec, 1, sqlite3_column_int64(pk, 0));
		while ((rstep = sqlite3_step(rec)) == SQLITE_ROW) {
			struct stored one;

			memset(&one, 0, sizeof(one));
			one.path = path;
			one.size = (unsigned long long)sqlite3_column_int64(pk,
			    2);
			record_of(rec, &one);
			if (one.error == NULL && results_of(s, res,
			    sqlite3_column_int64(rec, 0), &one) < 0)
				goto out;
			findings |= one.v.findings != 0 || (one.error != NULL &&
			    one.what != UNREAD_ERROR && !one.v.allowed);
			say->record(say->ctx, &one);
			results_free(&one);
		}
		if (rstep != SQLITE_DONE)
			break;
		say->package(say->ctx, path, findings);
	}
	if (step == SQLITE_DONE && rstep == SQLITE_DONE)
		r = 0;
	else
		said(s, "cannot read the store");
out:
	sqlite3_finalize(pk);
	sqlite3_finalize(rec);
	sqlite3_finalize(res);
	exec(s, "COMMIT");
	pthread_mutex_unlock(&s->lock);
	return r;
}
