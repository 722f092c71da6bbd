/*
 * fetch.h - a URL into a file, for the repositories named by URL
 * (repo-apt.c, repo.c), with libcurl where elfscan was built with it.
 *
 * The body is written under a temporary name beside the file and renamed
 * to it only when whole (and, when a digest is wanted, only when it is
 * that one), so that a run however it ends never leaves part of a file,
 * or a file not the one wanted, under the name.
 *
 * Bounded: at most FETCH_TRIES attempts, 1 s then 2 s apart, for what may
 * pass (a connection refused or lost, a timeout, a stall, HTTP 5xx); an
 * answer such as HTTP 404 is final. An attempt gives up when it cannot
 * connect in 30 s, or when less than 1 byte/s arrives for the stall bound:
 * 30 s, or ELFSCAN_FETCH_STALL seconds (1 to 3600). The CA store is the
 * system's (libcurl's default); the proxy is the environment's.
 *
 * One fetch at a time: fetch_file() keeps one libcurl handle for the run,
 * and elfscan fetches before its threads start (repo_packages()).
 */
#ifndef FETCH_H
#define FETCH_H

#include <stdbool.h>
#include <stdint.h>

#include "sha256.h"

#define FETCH_TRIES 3

/* What an attempt received, or why it failed. */
struct fetch_got {
	uint64_t size;		/* bytes of the body */
	char sha256[SHA256_HEX];	/* their digest */
	long http;		/* the answer's HTTP status, or 0 */
	char why[256];		/* why it failed, one line: "HTTP 404" */
};

/* Can URLs be fetched: was elfscan built with libcurl? */
bool fetch_supported(void);
/* Why they cannot, when fetch_supported() is false. */
#define FETCH_UNSUPPORTED "elfscan was built without libcurl: name a directory"

/*
 * Fetch url into the file path, its directory there, at most max bytes.
 * With sha256 (64 lowercase hex digits), only a body of max bytes and that
 * digest is kept. Returns 0 when path holds the body; 1 when a whole
 * body came that is not the one wanted, and path is untouched; -1 when it
 * could not be fetched, path untouched, got->why saying why (got->http 404
 * when the server says there is no such file). got is filled in each case.
 */
int fetch_file(const char *url, const char *path, uint64_t max,
    const char *sha256, struct fetch_got *got);

/* s with what a URL's path may not hold as %XX; for a file's name
   (flat), its '/' as '_' and the '_' of s escaped, so two stay two. The
   caller frees it. */
char *fetch_escape(const char *s, bool flat);

/*
 * The directory sub of elfscan's cache, $XDG_CACHE_HOME/elfscan/sub or
 * else ~/.cache/elfscan/sub, made when missing; the caller frees it.
 * NULL with errno set when there is none (no HOME) or it cannot be made.
 */
char *fetch_cache(const char *sub);

#endif
