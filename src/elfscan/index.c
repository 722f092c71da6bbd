/*
 * index.c - an index file read whole and decompressed (index.h). The
 * file is read whole before anything else so that the caller can check
 * its size and digest against the index above it first; its decompressed
 * form can be far larger (Fedora's primary metadata is hundreds of MB), so
 * it comes out as a stream, or whole for the small ones.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "index.h"
#include "lazy.h"
#include "xalloc.h"

struct index_stream {
	struct archive *a;	/* NULL when libarchive failed to load */
	uint64_t max, out;	/* the bound, and the bytes given so far */
	bool failed;
	char why[256];
};

char *
index_read(const char *path, size_t max, size_t *len, char hex[SHA256_HEX])
{
	struct sha256 c;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	ssize_t got;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) == -1)
		return NULL;
	sha256_init(&c);
	do {
		if (cap - n < 65536 + 1)
			buf = xrealloc(buf, cap = cap * 2 + 65536 + 1);
		got = read(fd, buf + n, cap - n - 1);
		if (got > 0) {
			sha256_update(&c, buf + n, (size_t)got);
			n += (size_t)got;
		}
	} while ((got > 0 || (got == -1 && errno == EINTR)) && n <= max);
	if (got == -1 || n > max) {
		if (n > max)
			errno = EFBIG;
		free(buf);
		buf = NULL;
	} else {
		buf[n] = '\0';
		*len = n;
		if (hex != NULL)
			sha256_hex(&c, hex);
	}
	close(fd);
	return buf;
}

struct index_stream *
index_open(const char *text, size_t len, uint64_t max)
{
	struct index_stream *s = xcalloc(1, sizeof(*s));
	struct archive_entry *ae;
	const char *no;

	s->max = max;
	if (lazy_archive_load(&no) < 0) {
		snprintf(s->why, sizeof(s->why), "%s", no);
		s->failed = true;
		return s;
	}
	if ((s->a = libarchive.archive_read_new()) == NULL)
		oom();
	libarchive.archive_read_support_filter_gzip(s->a);
	libarchive.archive_read_support_filter_bzip2(s->a);
	libarchive.archive_read_support_filter_xz(s->a);
	libarchive.archive_read_support_filter_zstd(s->a);
	libarchive.archive_read_support_format_raw(s->a);
	if (libarchive.archive_read_open_memory(s->a, text, len) !=
	    ARCHIVE_OK ||
	    libarchive.archive_read_next_header(s->a, &ae) != ARCHIVE_OK) {
		no = libarchive.archive_error_string(s->a);
		snprintf(s->why, sizeof(s->why), "%s", no != NULL ? no :
		    "cannot decompress");
		s->failed = true;
	}
	return s;
}

ssize_t
index_stream_read(struct index_stream *s, void *buf, size_t n)
{
	const char *no;
	la_ssize_t got;

	if (s->failed)
		return -1;
	if ((got = libarchive.archive_read_data(s->a, buf, n)) < 0) {
		no = libarchive.archive_error_string(s->a);
		snprintf(s->why, sizeof(s->why), "%s", no != NULL ? no :
		    "cannot decompress");
		s->failed = true;
		return -1;
	}
	if ((uint64_t)got > s->max - s->out) {
		snprintf(s->why, sizeof(s->why),
		    "larger than %" PRIu64 " MiB decompressed", s->max >> 20);
		s->failed = true;
		return -1;
	}
	s->out += (uint64_t)got;
	return got;
}

const char *
index_error(const struct index_stream *s)
{
	return s->why;
}

void
index_close(struct index_stream *s)
{
	if (s == NULL)
		return;
	if (s->a != NULL)
		libarchive.archive_read_free(s->a);
	free(s);
}

char *
index_decompress(const char *text, size_t len, size_t max, size_t *out,
    char why[256])
{
	struct index_stream *s = index_open(text, len, max);
	char *buf = NULL;
	size_t cap = 0, n = 0;
	ssize_t got;

	do {
		if (cap - n < 65536 + 1)
			buf = xrealloc(buf, cap = cap * 2 + 65536 + 1);
		got = index_stream_read(s, buf + n, cap - n - 1);
		if (got > 0)
			n += (size_t)got;
	} while (got > 0);
	if (got < 0) {
		snprintf(why, 256, "%s", index_error(s));
		free(buf);
		buf = NULL;
	} else {
		buf[n] = '\0';
		*out = n;
	}
	index_close(s);
	return buf;
}

bool
index_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

bool
index_path_ok(const char *p)
{
	const char *c;

	if (*p == '/' || *p == '\0')
		return false;
	for (c = p; c != NULL; c = strchr(c, '/'), c = c != NULL ? c + 1 : c)
		if (strncmp(c, "..", 2) == 0 && (c[2] == '/' || c[2] == '\0'))
			return false;
	return true;
}
