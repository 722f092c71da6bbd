/*
 * db-sqlite.c - db.h's SQLite side: the store in a file, in WAL mode, so
 * that the processes of one machine write it, one writer at a time, each
 * waiting for the others (busy timeout); foreign keys on, so that a
 * package's records go with it.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "db.h"
#include "xalloc.h"

struct sdb {
	struct db db;
	sqlite3 *h;
};

struct sstmt {
	struct db_stmt st;
	sqlite3_stmt *h;
};

static sqlite3 *
h_of(struct db *db)
{
	return ((struct sdb *)db)->h;
}

static sqlite3_stmt *
sh_of(struct db_stmt *st)
{
	return ((struct sstmt *)st)->h;
}

static void
sq_close(struct db *db)
{
	sqlite3_close(h_of(db));
	free(db);
}

static const char *
sq_errmsg(struct db *db)
{
	return sqlite3_errmsg(h_of(db));
}

static int
sq_exec(struct db *db, const char *sql)
{
	return sqlite3_exec(h_of(db), sql, NULL, NULL, NULL) == SQLITE_OK ? 0 :
	    -1;
}

/* A writer takes the file's write lock at once, not at its first write:
   two writers that both read first could not both go on. */
static int
sq_begin(struct db *db, enum db_txn how)
{
	return sq_exec(db, how == DB_READ ? "BEGIN" : "BEGIN IMMEDIATE");
}

static int
sq_version(struct db *db)
{
	sqlite3_stmt *st;
	int version = -1;

	if (sqlite3_prepare_v2(h_of(db), "PRAGMA user_version", -1, &st,
	    NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return version;
}

static int
sq_create(struct db *db, const char *ddl, int version)
{
	char sql[64];

	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", version);
	return sq_exec(db, ddl) < 0 || sq_exec(db, sql) < 0 ? -1 : 0;
}

static struct db_stmt *
sq_prepare(struct db *db, const char *sql, bool insert)
{
	struct sstmt *st;
	sqlite3_stmt *h;

	(void)insert;
	if (sqlite3_prepare_v2(h_of(db), sql, -1, &h, NULL) != SQLITE_OK)
		return NULL;
	st = xcalloc(1, sizeof(*st));
	st->st.db = db;
	st->h = h;
	return &st->st;
}

static void
sq_bind_text(struct db_stmt *st, int i, const char *v)
{
	if (v == NULL)
		sqlite3_bind_null(sh_of(st), i);
	else
		sqlite3_bind_text(sh_of(st), i, v, -1, SQLITE_TRANSIENT);
}

static void
sq_bind_int64(struct db_stmt *st, int i, int64_t v)
{
	sqlite3_bind_int64(sh_of(st), i, (sqlite3_int64)v);
}

static int
sq_step(struct db_stmt *st)
{
	switch (sqlite3_step(sh_of(st))) {
	case SQLITE_ROW:
		return DB_ROW;
	case SQLITE_DONE:
		return DB_DONE;
	default:
		return DB_ERROR;
	}
}

static const char *
sq_column_text(struct db_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(sh_of(st), i);
}

static int64_t
sq_column_int64(struct db_stmt *st, int i)
{
	return (int64_t)sqlite3_column_int64(sh_of(st), i);
}

static int
sq_insert(struct db_stmt *st, int64_t *id)
{
	sqlite3 *h = h_of(st->db);

	if (sqlite3_step(sh_of(st)) != SQLITE_DONE)
		return -1;
	if (sqlite3_changes(h) == 0)
		return 0;
	*id = (int64_t)sqlite3_last_insert_rowid(h);
	return 1;
}

static void
sq_reset(struct db_stmt *st)
{
	sqlite3_reset(sh_of(st));
}

static void
sq_finalize(struct db_stmt *st)
{
	sqlite3_finalize(sh_of(st));
	free(st);
}

static const struct db_ops sqlite_ops = {
	.close = sq_close, .errmsg = sq_errmsg, .exec = sq_exec,
	.begin = sq_begin, .version = sq_version, .create = sq_create,
	.prepare = sq_prepare, .bind_text = sq_bind_text,
	.bind_int64 = sq_bind_int64, .step = sq_step,
	.column_text = sq_column_text, .column_int64 = sq_column_int64,
	.insert = sq_insert, .reset = sq_reset, .finalize = sq_finalize,
};

struct db *
db_open_sqlite(const char *file, int wait_ms, char **why)
{
	struct sdb *db = xcalloc(1, sizeof(*db));

	db->db.ops = &sqlite_ops;
	if (sqlite3_open_v2(file, &db->h, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		goto fail;
	sqlite3_busy_timeout(db->h, wait_ms);
	sqlite3_extended_result_codes(db->h, 1);
	if (sq_exec(&db->db, "PRAGMA journal_mode = WAL") < 0 ||
	    sq_exec(&db->db, "PRAGMA foreign_keys = ON") < 0 ||
	    sq_exec(&db->db, "PRAGMA synchronous = NORMAL") < 0)
		goto fail;
	return &db->db;
fail:
	*why = xstrdup(sqlite3_errmsg(db->h));
	sq_close(&db->db);
	return NULL;
}
