/*
 * db-pg.c - db.h's PostgreSQL side: to come; for now, opening a
 * postgresql:// store says elfscan was built without libpq.
 */
#include <stddef.h>

#include "db.h"
#include "xalloc.h"

struct db *
db_open_pg(const char *url, int wait_ms, char **why)
{
	(void)url;
	(void)wait_ms;
	*why = xstrdup("built without libpq");
	return NULL;
}
