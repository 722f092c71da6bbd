/*
 * index.h - an index file of a repository (apt's Packages, rpm-md's
 * primary metadata): read whole, so that its size and SHA256 are known
 * before any byte of it is used, then decompressed (gzip, bzip2, xz,
 * zstd or none: libarchive's raw format, loaded by lazy.c) whole or as a
 * stream, never past a bound the caller sets. Used by repo-apt.c and
 * repo-rpm.c, which each vouch for the file against their own index.
 */
#ifndef INDEX_H
#define INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sha256.h"

/*
 * The whole of the file path, at most max bytes, ended by a NUL (not
 * counted in *len), its SHA256 into hex unless hex is NULL. Returns the
 * bytes, which the caller frees, or NULL with errno set (EFBIG: larger
 * than max).
 */
char *index_read(const char *path, size_t max, size_t *len,
    char hex[SHA256_HEX]);

/* A decompression of bytes lent by the caller, who keeps them until
   index_close(). */
struct index_stream;
/* Never NULL: what fails, the loading of libarchive included, fails the
   first index_stream_read(). At most max bytes come out. */
struct index_stream *index_open(const char *text, size_t len, uint64_t max);
/* Up to n decompressed bytes into buf: how many, 0 at the end, or -1,
   index_error() saying why. */
ssize_t index_stream_read(struct index_stream *s, void *buf, size_t n);
/* Why the last read failed, one line (libarchive's words, or the bound);
   the stream's, until index_close(). */
const char *index_error(const struct index_stream *s);
void index_close(struct index_stream *s);

/* The decompressed bytes of text (len of them) read whole, at most max,
   ended by a NUL not counted in *out; the caller frees them. NULL with
   why (one line) when they cannot be had. */
char *index_decompress(const char *text, size_t len, size_t max,
    size_t *out, char why[256]);

/* Are the n bytes of s lowercase hex digits? */
bool index_hex(const char *s, size_t n);
/* Does the path p, as an index names a file, stay below the repository's
   root: relative, and no ".." in it? */
bool index_path_ok(const char *p);

#endif
