/*
 * xalloc.h - out of memory, handled one way everywhere in elfscan
 * (xalloc.c): said, and exit status 2. A scan that cannot allocate cannot
 * say what it missed.
 */
#ifndef XALLOC_H
#define XALLOC_H

#include <stddef.h>

void oom(void) __attribute__((noreturn));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* A copy of a list of strings, each ending in a NUL, the list in an
   empty one: "a\0b\0\0". */
char *xlistdup(const char *l);

#endif
