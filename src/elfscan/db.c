/*
 * db.c - the seam of db.h: the database named picks its side (a
 * postgresql:// URL, as libpq takes it, or else a file), and each call
 * goes to that side's function.
 */
#include <stddef.h>
#include <string.h>

#include "db.h"

struct db *
db_open(const char *where, int wait_ms, char **why)
{
	if (strncmp(where, "postgresql://", 13) == 0 ||
	    strncmp(where, "postgres://", 11) == 0)
		return db_open_pg(where, wait_ms, why);
	return db_open_sqlite(where, wait_ms, why);
}

void
db_close(struct db *db)
{
	if (db != NULL)
		db->ops->close(db);
}

const char *
db_errmsg(struct db *db)
{
	return db->ops->errmsg(db);
}

int
db_exec(struct db *db, const char *sql)
{
	return db->ops->exec(db, sql);
}

int
db_begin(struct db *db, enum db_txn how)
{
	return db->ops->begin(db, how);
}

int
db_version(struct db *db)
{
	return db->ops->version(db);
}

int
db_create(struct db *db, const char *ddl, int version)
{
	return db->ops->create(db, ddl, version);
}

struct db_stmt *
db_prepare(struct db *db, const char *sql)
{
	return db->ops->prepare(db, sql, false);
}

struct db_stmt *
db_prepare_insert(struct db *db, const char *sql)
{
	return db->ops->prepare(db, sql, true);
}

void
db_bind_text(struct db_stmt *st, int i, const char *v)
{
	st->db->ops->bind_text(st, i, v);
}

void
db_bind_int64(struct db_stmt *st, int i, int64_t v)
{
	st->db->ops->bind_int64(st, i, v);
}

int
db_step(struct db_stmt *st)
{
	return st->db->ops->step(st);
}

const char *
db_column_text(struct db_stmt *st, int i)
{
	return st->db->ops->column_text(st, i);
}

int64_t
db_column_int64(struct db_stmt *st, int i)
{
	return st->db->ops->column_int64(st, i);
}

int
db_insert(struct db_stmt *st, int64_t *id)
{
	return st->db->ops->insert(st, id);
}

void
db_reset(struct db_stmt *st)
{
	st->db->ops->reset(st);
}

void
db_finalize(struct db_stmt *st)
{
	if (st != NULL)
		st->db->ops->finalize(st);
}
