/*
 * db-pg.c - db.h's PostgreSQL side, through libpq: the store in the
 * database a postgresql:// URL names, for the machines of a cluster to
 * write one store at once. What it does that SQLite does not need:
 *   - the schema: SQLite's DDL, translated where the two differ (pg_ddl);
 *   - its version: the meta row schema_version, PostgreSQL having no
 *     user_version;
 *   - the statements: ?N made $N, prepared once a connection (by their
 *     text) and run with text parameters; an insert's id comes back by
 *     RETURNING id, the rows of a query all at once;
 *   - the writers: each package's transaction runs beside the others',
 *     two writers of one package meeting at its sha256 (ON CONFLICT);
 *     DB_ALONE (making the schema, listing an index) takes an advisory
 *     lock, so that those are one at a time, as in SQLite;
 *   - the wait: lock_timeout. No statement_timeout: dropping the
 *     packages that left a large suite may take long, and is no wait.
 * Messages are the server's primary message, or libpq's first line.
 * Built without libpq, opening one says so.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "xalloc.h"

#ifndef HAVE_LIBPQ
struct db *
db_open_pg(const char *url, int wait_ms, char **why)
{
	(void)url;
	(void)wait_ms;
	*why = xstrdup("built without libpq");
	return NULL;
}
#else
#include <ctype.h>
#include <libpq-fe.h>

#include "buf.h"

/* The advisory lock of DB_ALONE: "elfs". */
#define ALONE_KEY 0x656c6673

/* A statement prepared on the connection, by its text. */
struct prepared {
	char *sql;		/* PostgreSQL's text */
	char name[16];
	int nparams;
};

struct pdb {
	struct db db;
	PGconn *c;
	struct prepared **p;	/* each its own, for statements point at it */
	size_t np;
	char err[512];
};

struct pstmt {
	struct db_stmt st;
	const struct prepared *p;
	char **params;		/* nparams texts, NULL for SQL NULL */
	PGresult *res;
	int row;		/* the next row of res */
	bool ran, failed;
};

static struct pdb *
pdb_of(struct db *db)
{
	return (struct pdb *)db;
}

static struct pstmt *
ps_of(struct db_stmt *st)
{
	return (struct pstmt *)st;
}

/* The first line of msg, as the error. */
static void
set_err(struct pdb *db, const char *msg)
{
	size_t n = strcspn(msg, "\n");

	if (n >= sizeof(db->err))
		n = sizeof(db->err) - 1;
	memcpy(db->err, msg, n);
	db->err[n] = '\0';
}

/* Whether res is a success; else its message is the error. Clears res
   unless keep. */
static bool
ok_res(struct pdb *db, PGresult *res, bool keep)
{
	ExecStatusType t = PQresultStatus(res);
	const char *m;
	bool ok = t == PGRES_COMMAND_OK || t == PGRES_TUPLES_OK;

	if (!ok) {
		m = res != NULL ? PQresultErrorField(res,
		    PG_DIAG_MESSAGE_PRIMARY) : NULL;
		set_err(db, m != NULL ? m : PQerrorMessage(db->c));
	}
	if (!keep || !ok)
		PQclear(res);
	return ok;
}

static void
pg_close(struct db *db)
{
	struct pdb *d = pdb_of(db);
	size_t i;

	PQfinish(d->c);
	for (i = 0; i < d->np; i++) {
		free(d->p[i]->sql);
		free(d->p[i]);
	}
	free(d->p);
	free(d);
}

static const char *
pg_errmsg(struct db *db)
{
	return pdb_of(db)->err;
}

static int
pg_exec(struct db *db, const char *sql)
{
	struct pdb *d = pdb_of(db);

	return ok_res(d, PQexec(d->c, sql), false) ? 0 : -1;
}

/* A reader sees one snapshot (READ COMMITTED would take one a
   statement, and a package dropped between two would lose its records). */
static int
pg_begin(struct db *db, enum db_txn how)
{
	char sql[64];

	if (how == DB_READ)
		return pg_exec(db, "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
	if (pg_exec(db, "BEGIN") < 0)
		return -1;
	if (how == DB_WRITE)
		return 0;
	snprintf(sql, sizeof(sql), "SELECT pg_advisory_xact_lock(%d)",
	    ALONE_KEY);
	return pg_exec(db, sql);
}

/* The one value of the query sql, into v (NULL: none); 0 or -1. */
static int
one_value(struct pdb *d, const char *sql, char *v, size_t size)
{
	PGresult *res = PQexec(d->c, sql);

	if (!ok_res(d, res, true))
		return -1;
	if (PQntuples(res) > 0 && !PQgetisnull(res, 0, 0))
		snprintf(v, size, "%s", PQgetvalue(res, 0, 0));
	else
		*v = '\0';
	PQclear(res);
	return 0;
}

static int
pg_version(struct db *db)
{
	struct pdb *d = pdb_of(db);
	char v[32];

	if (one_value(d, "SELECT to_regclass('meta') IS NOT NULL", v,
	    sizeof(v)) < 0)
		return -1;
	if (strcmp(v, "t") != 0)
		return 0;
	if (one_value(d, "SELECT value FROM meta WHERE key = 'schema_version'",
	    v, sizeof(v)) < 0)
		return -1;
	return atoi(v);
}

static bool
is_word(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Whether the word w starts at p (in ddl), a word of its own. */
static bool
word_at(const char *ddl, const char *p, const char *w)
{
	size_t n = strlen(w);

	return strncmp(p, w, n) == 0 && (p == ddl || !is_word(p[-1])) &&
	    !is_word(p[n]);
}

/*
 * SQLite's DDL for PostgreSQL, into b: its integers are 64 bits, so
 * INTEGER is BIGINT; INTEGER PRIMARY KEY is SQLite's rowid, made on
 * insert, so an identity; and every other table has a rowid column of
 * its own, SQLite's implicit one, in which the store's queries find the
 * order rows were inserted in.
 */
static void
pg_ddl(const char *ddl, struct buf *b)
{
	static const char id[] = "INTEGER PRIMARY KEY";
	const char *p = ddl, *end, *close, *q;
	bool table, has_id;

	while (*p != '\0') {
		end = p + strcspn(p, ";");
		table = strncmp(p + strspn(p, " \n"), "CREATE TABLE", 12) == 0;
		has_id = false;
		close = NULL;
		for (q = p; q < end; q++)
			if (*q == ')')
				close = q;
		for (q = p; q < end;) {
			if (table && !has_id && q == close)
				buf_puts(b, ",\n  rowid BIGINT GENERATED ALWAYS AS IDENTITY");
			if (word_at(ddl, q, id)) {
				buf_puts(b, "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY");
				q += sizeof(id) - 1;
				has_id = true;
			} else if (word_at(ddl, q, "INTEGER")) {
				buf_puts(b, "BIGINT");
				q += 7;
			} else {
				buf_add(b, q++, 1);
			}
		}
		if (*end == '\0')
			break;
		buf_add(b, end, 1);
		p = end + 1;
	}
}

static int
pg_create(struct db *db, const char *ddl, int version)
{
	char space[4096], sql[80];
	struct buf b;
	int r;

	BUF_INIT(b, space);
	pg_ddl(ddl, &b);
	r = pg_exec(db, b.p);
	buf_free(&b);
	snprintf(sql, sizeof(sql),
	    "INSERT INTO meta VALUES ('schema_version', '%d')", version);
	return r < 0 || pg_exec(db, sql) < 0 ? -1 : 0;
}

/* sql with $N for ?N (outside quotes), and RETURNING id for an insert;
   *nparams the highest N. Freed by the caller. */
static char *
pg_sql(const char *sql, bool insert, int *nparams)
{
	static const char ret[] = " RETURNING id";
	char *out = xmalloc(strlen(sql) + sizeof(ret)), *o = out;
	bool quoted = false;
	int n;

	*nparams = 0;
	for (; *sql != '\0'; sql++) {
		if (*sql == '\'')
			quoted = !quoted;
		if (*sql == '?' && !quoted && isdigit((unsigned char)sql[1])) {
			*o++ = '$';
			if ((n = atoi(sql + 1)) > *nparams)
				*nparams = n;
			continue;
		}
		*o++ = *sql;
	}
	*o = '\0';
	if (insert)
		strcpy(o, ret);
	return out;
}

/* The statement of sql (PostgreSQL's), prepared on the connection once. */
static const struct prepared *
prepared(struct pdb *d, char *sql, int nparams)
{
	struct prepared *p;
	size_t i;

	for (i = 0; i < d->np; i++)
		if (strcmp(d->p[i]->sql, sql) == 0) {
			free(sql);
			return d->p[i];
		}
	p = xcalloc(1, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "s%zu", d->np);
	if (!ok_res(d, PQprepare(d->c, p->name, sql, 0, NULL), false)) {
		free(sql);
		free(p);
		return NULL;
	}
	p->sql = sql;
	p->nparams = nparams;
	d->p = xrealloc(d->p, (d->np + 1) * sizeof(*d->p));
	d->p[d->np++] = p;
	return p;
}

static struct db_stmt *
pg_prepare(struct db *db, const char *sql, bool insert)
{
	const struct prepared *p;
	struct pstmt *st;
	int n;
	char *text = pg_sql(sql, insert, &n);

	if ((p = prepared(pdb_of(db), text, n)) == NULL)
		return NULL;
	st = xcalloc(1, sizeof(*st));
	st->st.db = db;
	st->p = p;
	st->params = xcalloc((size_t)n + 1, sizeof(*st->params));
	return &st->st;
}

static void
pg_bind_text(struct db_stmt *st, int i, const char *v)
{
	struct pstmt *s = ps_of(st);

	if (i < 1 || i > s->p->nparams)
		return;
	free(s->params[i - 1]);
	s->params[i - 1] = v != NULL ? xstrdup(v) : NULL;
}

static void
pg_bind_int64(struct db_stmt *st, int i, int64_t v)
{
	char n[24];

	snprintf(n, sizeof(n), "%" PRId64, v);
	pg_bind_text(st, i, n);
}

/* Runs st, once until reset; false on error. */
static bool
run(struct pstmt *s)
{
	struct pdb *d = pdb_of(s->st.db);

	if (!s->ran) {
		s->ran = true;
		s->row = 0;
		s->res = PQexecPrepared(d->c, s->p->name, s->p->nparams,
		    (const char *const *)s->params, NULL, NULL, 0);
		if (!ok_res(d, s->res, true)) {
			s->res = NULL;
			s->failed = true;
		}
	}
	return !s->failed;
}

static int
pg_step(struct db_stmt *st)
{
	struct pstmt *s = ps_of(st);

	if (!run(s))
		return DB_ERROR;
	if (s->row < PQntuples(s->res)) {
		s->row++;
		return DB_ROW;
	}
	return DB_DONE;
}

static const char *
pg_column_text(struct db_stmt *st, int i)
{
	struct pstmt *s = ps_of(st);

	if (s->res == NULL || s->row < 1 || PQgetisnull(s->res, s->row - 1, i))
		return NULL;
	return PQgetvalue(s->res, s->row - 1, i);
}

static int64_t
pg_column_int64(struct db_stmt *st, int i)
{
	const char *v = pg_column_text(st, i);

	return v != NULL ? (int64_t)strtoll(v, NULL, 10) : 0;
}

static int
pg_insert(struct db_stmt *st, int64_t *id)
{
	switch (pg_step(st)) {
	case DB_ROW:
		*id = pg_column_int64(st, 0);
		return 1;
	case DB_DONE:
		return 0;
	default:
		return -1;
	}
}

static void
pg_reset(struct db_stmt *st)
{
	struct pstmt *s = ps_of(st);

	PQclear(s->res);
	s->res = NULL;
	s->ran = s->failed = false;
}

static void
pg_finalize(struct db_stmt *st)
{
	struct pstmt *s = ps_of(st);
	int i;

	pg_reset(st);
	for (i = 0; i < s->p->nparams; i++)
		free(s->params[i]);
	free(s->params);
	free(s);
}

static const struct db_ops pg_ops = {
	.close = pg_close, .errmsg = pg_errmsg, .exec = pg_exec,
	.begin = pg_begin, .version = pg_version, .create = pg_create,
	.prepare = pg_prepare, .bind_text = pg_bind_text,
	.bind_int64 = pg_bind_int64, .step = pg_step,
	.column_text = pg_column_text, .column_int64 = pg_column_int64,
	.insert = pg_insert, .reset = pg_reset, .finalize = pg_finalize,
};

/* The server's notices (an identity's sequence made, ...) are not the
   user's business. */
static void
quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

struct db *
db_open_pg(const char *url, int wait_ms, char **why)
{
	struct pdb *d = xcalloc(1, sizeof(*d));
	char sql[64];

	d->db.ops = &pg_ops;
	d->c = PQconnectdb(url);
	if (d->c == NULL || PQstatus(d->c) != CONNECTION_OK) {
		set_err(d, d->c != NULL ? PQerrorMessage(d->c) :
		    "cannot connect");
		goto fail;
	}
	PQsetNoticeProcessor(d->c, quiet, NULL);
	/* lock_timeout 0 would wait for ever; SQLite's 0 waits not at all. */
	snprintf(sql, sizeof(sql), "SET lock_timeout = %d",
	    wait_ms > 0 ? wait_ms : 1);
	if (pg_exec(&d->db, sql) < 0)
		goto fail;
	return &d->db;
fail:
	*why = xstrdup(d->err);
	pg_close(&d->db);
	return NULL;
}
#endif
