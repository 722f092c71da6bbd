/*
 * xalloc.c - out of memory, handled one way everywhere in elfscan: said,
 * and exit status 2. A scan that cannot allocate cannot say what it missed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void
oom(void)
{
	fputs("elfscan: out of memory\n", stderr);
	exit(2);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		oom();
	return p;
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		oom();
	return p;
}

char *
xlistdup(const char *l)
{
	const char *p = l;
	char *copy;

	while (*p != '\0')
		p += strlen(p) + 1;
	copy = xmalloc((size_t)(p - l) + 1);
	memcpy(copy, l, (size_t)(p - l) + 1);
	return copy;
}
