/*
 * db.h - the store's database (store.c), one seam over two: an SQLite
 * file (db-sqlite.c) or a PostgreSQL database named by its URL,
 * postgresql://... (db-pg.c, through libpq). The store's SQL is written
 * once, in the words both understand; what differs between them is said
 * here, once, and done by each side:
 *   - placeholders are ?N; PostgreSQL is given $N;
 *   - the schema is SQLite's DDL (db_create): PostgreSQL is given 64-bit
 *     integers, an identity for INTEGER PRIMARY KEY, and a rowid column
 *     (SQLite's implicit one, made explicit) in every other table;
 *   - the schema's version is PRAGMA user_version, or the meta row
 *     schema_version;
 *   - transactions (db_begin): SQLite has one writer at a time; in
 *     PostgreSQL writers run at once, conflicting rows wait for each
 *     other, and DB_ALONE takes the store's lock;
 *   - a writer waits for another wait_ms: SQLite's busy timeout, or
 *     PostgreSQL's lock_timeout.
 *
 * A connection is used by one thread at a time (store.c holds its lock).
 * Errors: a function returns -1 or NULL, and db_errmsg() says why, in one
 * line, until the next call.
 */
#ifndef DB_H
#define DB_H

#include <stdbool.h>
#include <stdint.h>

struct db;
struct db_stmt;

/* The database at where, a file (made when there is none) or a
   postgresql:// URL, its writers waiting wait_ms for each other. NULL
   when it cannot be opened: *why is then the reason, freed by the
   caller. */
struct db *db_open(const char *where, int wait_ms, char **why);
void db_close(struct db *db);

/* The last error, one line, owned by db. */
const char *db_errmsg(struct db *db);

/* Runs sql, one statement or more, with no parameters. 0 or -1. */
int db_exec(struct db *db, const char *sql);

enum db_txn {
	DB_READ,	/* one snapshot for all its statements */
	DB_WRITE,	/* it writes; rows another writer holds are waited
			   for */
	DB_ALONE	/* it writes, no other DB_ALONE or SQLite writer
			   at once */
};
/* A transaction, ended by db_exec(db, "COMMIT" or "ROLLBACK"). 0 or -1. */
int db_begin(struct db *db, enum db_txn how);

/* The schema's version: 0 when there is none, -1 on error. */
int db_version(struct db *db);
/* Makes the schema ddl (SQLite's words) of version, in the transaction
   begun. 0 or -1. */
int db_create(struct db *db, const char *ddl, int version);

/* A statement of sql, placeholders ?1, ?2, ...; NULL on error. */
struct db_stmt *db_prepare(struct db *db, const char *sql);
/* An INSERT into a table whose key is its INTEGER PRIMARY KEY id, to be
   run by db_insert; NULL on error. */
struct db_stmt *db_prepare_insert(struct db *db, const char *sql);
/* Parameter i (from 1): text, copied (NULL: SQL NULL), or a number. */
void db_bind_text(struct db_stmt *st, int i, const char *v);
void db_bind_int64(struct db_stmt *st, int i, int64_t v);

enum { DB_ERROR = -1, DB_DONE = 0, DB_ROW = 1 };
/* The next row of st (run at the first step): DB_ROW, DB_DONE or
   DB_ERROR. */
int db_step(struct db_stmt *st);
/* Column i (from 0) of the row: its text, owned by st until the next
   db_step, db_reset or db_finalize (NULL: SQL NULL), or its number (0:
   NULL). */
const char *db_column_text(struct db_stmt *st, int i);
int64_t db_column_int64(struct db_stmt *st, int i);
/* Runs the insert of db_prepare_insert: 1, and *id the row's id, or 0
   when it inserted no row (ON CONFLICT DO NOTHING); -1 on error. */
int db_insert(struct db_stmt *st, int64_t *id);
/* st, to be run again; its parameters kept. */
void db_reset(struct db_stmt *st);
/* Frees st; NULL is fine. */
void db_finalize(struct db_stmt *st);

/*
 * The implementations' side: each embeds struct db and struct db_stmt
 * first in its own, and db.c calls through ops.
 */
struct db_ops {
	void (*close)(struct db *db);
	const char *(*errmsg)(struct db *db);
	int (*exec)(struct db *db, const char *sql);
	int (*begin)(struct db *db, enum db_txn how);
	int (*version)(struct db *db);
	int (*create)(struct db *db, const char *ddl, int version);
	struct db_stmt *(*prepare)(struct db *db, const char *sql,
	    bool insert);
	void (*bind_text)(struct db_stmt *st, int i, const char *v);
	void (*bind_int64)(struct db_stmt *st, int i, int64_t v);
	int (*step)(struct db_stmt *st);
	const char *(*column_text)(struct db_stmt *st, int i);
	int64_t (*column_int64)(struct db_stmt *st, int i);
	int (*insert)(struct db_stmt *st, int64_t *id);
	void (*reset)(struct db_stmt *st);
	void (*finalize)(struct db_stmt *st);
};
struct db {
	const struct db_ops *ops;
};
struct db_stmt {
	struct db *db;
};
/* db-sqlite.c and db-pg.c: what db_open returns. */
struct db *db_open_sqlite(const char *file, int wait_ms, char **why);
struct db *db_open_pg(const char *url, int wait_ms, char **why);

#endif
