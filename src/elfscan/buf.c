/*
 * buf.c - the output buffer and the escapes (see buf.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xalloc.h"

static void
grow(struct buf *b, size_t more)
{
	size_t cap = b->cap;
	char *np;

	while (cap - b->len <= more)
		cap *= 2;
	if (cap == b->cap)
		return;
	np = b->heap ? xrealloc(b->p, cap) : xmalloc(cap);
	if (!b->heap)
		memcpy(np, b->p, b->len);
	b->p = np;
	b->cap = cap;
	b->heap = true;
}

void
buf_add(struct buf *b, const char *s, size_t n)
{
	grow(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void
buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n >= b->cap - b->len) {
		grow(b, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	if (n > 0)
		b->len += (size_t)n;
}

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
   forms, no surrogates, nothing above U+10FFFF), or 0. */
static size_t
utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void
buf_json_chars(struct buf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	while (*s != '\0') {
		if (*s == '"' || *s == '\\') {
			buf_addf(b, "\\%c", *s++);
		} else if (*s < 0x20 || *s == 0x7f) {
			buf_addf(b, "\\u%04x", *s++);
		} else if ((n = utf8_len(s)) > 0) {
			buf_add(b, (const char *)s, n);
			s += n;
		} else {
			buf_addf(b, "\\u%04x", *s++);
		}
	}
}

void
buf_json(struct buf *b, const char *s)
{
	buf_add(b, "\"", 1);
	buf_json_chars(b, s);
	buf_add(b, "\"", 1);
}

void
buf_text(struct buf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	for (; *s != '\0'; s++) {
		if (*s == '\n')
			buf_add(b, "\\n", 2);
		else if (*s == '\t')
			buf_add(b, "\\t", 2);
		else if (*s < 0x20 || *s == 0x7f || *s == '\\')
			buf_addf(b, "\\%03o", *s);
		else
			buf_add(b, (const char *)s, 1);
	}
}

void
buf_free(struct buf *b)
{
	if (b->heap)
		free(b->p);
	b->heap = false;
	b->p = NULL;
	b->len = b->cap = 0;
}

/* Is s (len bytes) UTF-8: no overlong form, surrogate or code point past
   U+10FFFF? */
bool
utf8_valid(const unsigned char *s, size_t len)
{
	size_t i = 0, n, k;
	uint32_t u;

	while (i < len) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		n = s[i] >= 0xc2 && s[i] <= 0xdf ? 1 : s[i] >= 0xe0 &&
		    s[i] <= 0xef ? 2 : s[i] >= 0xf0 && s[i] <= 0xf4 ? 3 : 0;
		if (n == 0 || n >= len - i)
			return false;
		u = s[i] & (0x3fu >> n);
		for (k = 1; k <= n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			u = u << 6 | (s[i + k] & 0x3fu);
		}
		if ((n == 2 && (u < 0x800 || (u >= 0xd800 && u <= 0xdfff))) ||
		    (n == 3 && (u < 0x10000 || u > 0x10ffff)))
			return false;
		i += n + 1;
	}
	return true;
}
