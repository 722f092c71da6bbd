/*
 * allow.c - the allowlist: paths that may have an executable stack, as
 * glob patterns, one a line; blank lines and lines starting with # are
 * skipped. A pattern matches the whole path, and * does not cross /.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

/* Returns 0, or -1 with errno set. */
int
allow_load(struct allow *a, const char *file)
{
	FILE *f = fopen(file, "r");
	char *line = NULL, *p, **np;
	size_t cap = 0;
	ssize_t len;
	int r = 0, saved;

	if (f == NULL)
		return -1;
	while (r == 0 && (len = getline(&line, &cap, f)) > 0) {
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == ' ' || line[len - 1] == '\t'))
			line[--len] = '\0';
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p == '\0' || *p == '#')
			continue;
		np = realloc(a->pat, (a->n + 1) * sizeof(*np));
		if (np != NULL)
			a->pat = np;
		if (np == NULL || (np[a->n] = strdup(p)) == NULL)
			r = -1;
		else
			a->n++;
	}
	if (r == 0 && ferror(f))
		r = -1;
	saved = errno;
	free(line);
	fclose(f);
	errno = saved;
	return r;
}

const char *
allow_which(const struct allow *a, const char *path)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (fnmatch(a->pat[i], path, FNM_PATHNAME) == 0)
			return a->pat[i];
	return NULL;
}

bool
allow_match(const struct allow *a, const char *path)
{
	return allow_which(a, path) != NULL;
}

void
allow_free(struct allow *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->pat[i]);
	free(a->pat);
	a->pat = NULL;
	a->n = 0;
}
