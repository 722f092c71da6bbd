/*
 * fuzz.h - what the fuzz targets share: a check that aborts (so that
 * libFuzzer, or the replay driver, reports the input), and a record of the
 * images one scan reported.
 */
#ifndef CHSTK_FUZZ_H
#define CHSTK_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chstk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken promise of the library: print it and abort. */
#define must(cond) \
	((cond) ? (void)0 : fuzz_broken(#cond, __FILE__, __LINE__))
void fuzz_broken(const char *what, const char *file, int line)
    __attribute__((noreturn));

/* What one scan reported, image by image. */
#define FUZZ_MAX_IMAGES 4096
struct fuzz_scan {
	int r;			/* the scanner's return */
	struct chstk_error err;
	unsigned images;	/* calls of the callback */
	unsigned bad;		/* of those, images that did not read */
	unsigned overflow;	/* images beyond what state[] holds */
	unsigned char state[FUZZ_MAX_IMAGES];	/* enum chstk_state, or
						   0xff for a bad image */
};

/* Does data start as an ar archive? Only an archive may report images and
   then fail: a damaged member header ends the scan of the members after it. */
int fuzz_is_archive(const void *data, size_t size);
/* Scan size bytes at data from memory, checking every report. */
void fuzz_scan_mem(const void *data, size_t size, struct fuzz_scan *s);
/* The same as a stream read in pieces, of known size or not. */
void fuzz_scan_stream(const void *data, size_t size, bool sized,
    struct fuzz_scan *s);
/* The same through a file descriptor. */
void fuzz_scan_fd(int fd, struct fuzz_scan *s);
/* The same with options: a head lent, a size not asked (elfscan's way). */
void fuzz_scan_fd_with(int fd, const struct chstk_scan_opts *o,
    struct fuzz_scan *s);
/* size bytes at data read as a stream (a chstk_read_fn, with a struct
   fuzz_pieces from fuzz_pieces() as its argument): in pieces of piece
   bytes each, or, when piece is 0, of changing sizes (1 to 4099 bytes,
   from a generator seeded with size), as a decompressor gives them. */
struct fuzz_pieces {
	const unsigned char *p;
	size_t left, piece;
	uint32_t seed;
};
struct fuzz_pieces fuzz_pieces(const void *data, size_t size, size_t piece);
ssize_t fuzz_read_piece(void *arg, void *buf, size_t len);
/* Is err a well-formed error for the negative return r? */
void fuzz_check_error(int r, const struct chstk_error *err);
/* A memfd holding size bytes of data; aborts when it cannot. */
int fuzz_memfd(const void *data, size_t size);
/* The size of what fd holds. */
uint64_t fuzz_size(int fd);

#endif
