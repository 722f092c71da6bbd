/*
 * buf.h - a growing output buffer (buf.c), with the two ways elfscan
 * writes a name it did not choose: as a JSON string and as text for
 * people. A record is built in one and written with one call, so that the
 * workers' records never interleave.
 */
#ifndef BUF_H
#define BUF_H

#include <stdbool.h>
#include <stddef.h>

/* Starts on the caller's space (BUF_INIT), moves to the heap when it must
   grow; buf_free frees what it took. Always NUL-terminated. */
struct buf {
	char *p;
	size_t len, cap;
	bool heap;
};
#define BUF_INIT(b, space) \
	do { (b).p = (space); (b).cap = sizeof(space); (b).len = 0; \
	    (b).heap = false; (space)[0] = '\0'; } while (0)

void buf_add(struct buf *b, const char *s, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_addf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* s as the characters of a JSON string, without the quotes: bytes that
   are not UTF-8 become \u00XX (as Latin-1). */
void buf_json_chars(struct buf *b, const char *s);
/* s as a JSON string, quoted. */
void buf_json(struct buf *b, const char *s);
/* s for people: control characters and backslashes escaped as \n, \t or
   \ooo. */
void buf_text(struct buf *b, const char *s);
void buf_free(struct buf *b);

/* Is s (len bytes) UTF-8: no overlong form, surrogate or code point past
   U+10FFFF? */
bool utf8_valid(const unsigned char *s, size_t len);

#endif
