/*
 * fetch.c - a URL into a file (fetch.h): one libcurl easy handle an
 * attempt, its body streamed into a temporary file beside the destination
 * and hashed as it comes, so that the digest wanted is checked without
 * reading the file again; the file renamed into place only when whole and
 * right. Its inputs: the URL, the destination, the bound on its size and
 * the digest wanted. Its output: the file, or one line saying why not.
 *
 * Built without libcurl, only fetch_cache() works and fetch_file() says
 * FETCH_UNSUPPORTED: repo-apt.c says so before it fetches anything.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_LIBCURL
#include <curl/curl.h>
#endif

#include "fetch.h"
#include "xalloc.h"

#define STALL_ENV "ELFSCAN_FETCH_STALL"
#define STALL_DEFAULT 30	/* seconds of less than 1 byte/s */
#define CONNECT_TIMEOUT 30	/* seconds */

char *
fetch_escape(const char *s, bool flat)
{
	static const char keep[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.~+";
	char *out = xmalloc(3 * strlen(s) + 1), *o = out;

	for (; *s != '\0'; s++)
		if (strchr(keep, *s) != NULL ||
		    (strchr("/_", *s) != NULL && !flat) || (*s == ':' && flat))
			*o++ = *s;
		else if (*s == '/')
			*o++ = '_';
		else
			o += sprintf(o, "%%%02X", (unsigned char)*s);
	*o = '\0';
	return out;
}

/* Each missing directory of path, as mkdir -p: 0, or -1 with errno. */
static int
make_dirs(char *path)
{
	char *slash;

	for (slash = strchr(path + 1, '/');; slash = strchr(slash + 1, '/')) {
		if (slash != NULL)
			*slash = '\0';
		if (mkdir(path, 0700) == -1 && errno != EEXIST)
			return -1;
		if (slash == NULL)
			return 0;
		*slash = '/';
	}
}

char *
fetch_cache(const char *sub)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *dir;

	/* The XDG base directory spec: a relative path is to be ignored. */
	if (xdg != NULL && xdg[0] == '/') {
		if (asprintf(&dir, "%s/elfscan/%s", xdg, sub) < 0)
			oom();
	} else if (home != NULL && home[0] == '/') {
		if (asprintf(&dir, "%s/.cache/elfscan/%s", home, sub) < 0)
			oom();
	} else {
		errno = ENOENT;
		return NULL;
	}
	if (make_dirs(dir) == -1) {
		free(dir);
		return NULL;
	}
	return dir;
}

#ifndef HAVE_LIBCURL
bool
fetch_supported(void)
{
	return false;
}

int
fetch_file(const char *url, const char *path, uint64_t max,
    const char *sha256, struct fetch_got *got)
{
	(void)url, (void)path, (void)max, (void)sha256;
	memset(got, 0, sizeof(*got));
	snprintf(got->why, sizeof(got->why), "%s", FETCH_UNSUPPORTED);
	return -1;
}
#else
bool
fetch_supported(void)
{
	return true;
}

/* The temporary file an attempt's body goes to, and what it received. */
struct sink {
	int fd;
	uint64_t max;
	struct sha256 c;
	struct fetch_got *got;
	bool over;		/* more than max bytes came */
	int error;		/* errno of a write that failed */
};

/* libcurl's write callback: a short count ends the transfer. */
static size_t
sink_write(char *data, size_t size, size_t n, void *ctx)
{
	struct sink *s = ctx;
	size_t len = size * n, done = 0;
	ssize_t w;

	if (len > s->max - s->got->size) {
		s->over = true;
		return 0;
	}
	while (done < len)
		if ((w = write(s->fd, data + done, len - done)) > 0)
			done += (size_t)w;
		else if (errno != EINTR) {
			s->error = errno;
			return 0;
		}
	sha256_update(&s->c, data, len);
	s->got->size += len;
	return len;
}

/* The stall bound, in seconds: STALL_ENV's, or -1 when it is not one. */
static long
stall_bound(void)
{
	const char *env = getenv(STALL_ENV);
	char *end;
	long v;

	if (env == NULL || *env == '\0')
		return STALL_DEFAULT;
	errno = 0;
	v = strtol(env, &end, 10);
	return *end != '\0' || errno != 0 || v < 1 || v > 3600 ? -1 : v;
}

/* The handle for url into s, its bounds set; NULL with got->why. One
   for the run, reset for each fetch: it keeps its connections, so that
   a suite's packages from one mirror do not each cost a TCP and TLS
   handshake. */
static CURL *
handle(const char *url, struct sink *s, char errbuf[CURL_ERROR_SIZE])
{
	static CURL *h;
	long stall = stall_bound();

	if (stall < 0) {
		snprintf(s->got->why, sizeof(s->got->why), "%s=%s: not a number of seconds from 1 to 3600",
		    STALL_ENV, getenv(STALL_ENV));
		return NULL;
	}
	if (h != NULL)
		curl_easy_reset(h);
	else if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		snprintf(s->got->why, sizeof(s->got->why), "libcurl cannot start");
		return NULL;
	} else if ((h = curl_easy_init()) == NULL)
		oom();
	curl_easy_setopt(h, CURLOPT_URL, url);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
	curl_easy_setopt(h, CURLOPT_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS);
	curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS);
#endif
	/* Mirrors redirect to their nearest copy (deb.debian.org). */
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(h, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, (long)CONNECT_TIMEOUT);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, stall);
	curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)s->max);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "elfscan/" PACKAGE_VERSION);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink_write);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, s);
	return h;
}

/* May another attempt fare better than one that ended with rc? */
static bool
passing(CURLcode rc, long http)
{
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_PARTIAL_FILE:
	case CURLE_GOT_NOTHING:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
		return true;
	case CURLE_HTTP_RETURNED_ERROR:
		return http >= 500 || http == 408 || http == 429;
	default:
		return false;
	}
}

/* Why an attempt that ended with rc failed, in got->why. */
static void
say_why(CURL *h, CURLcode rc, const struct sink *s, const char *errbuf)
{
	struct fetch_got *got = s->got;
	curl_off_t connect = 0;

	curl_easy_getinfo(h, CURLINFO_CONNECT_TIME_T, &connect);
	if (rc == CURLE_HTTP_RETURNED_ERROR)
		snprintf(got->why, sizeof(got->why), "HTTP %ld", got->http);
	else if (s->over || rc == CURLE_FILESIZE_EXCEEDED)
		snprintf(got->why, sizeof(got->why), "larger than %" PRIu64 " bytes",
		    s->max);
	else if (s->error != 0)
		snprintf(got->why, sizeof(got->why), "cannot write: %s",
		    strerror(s->error));
	else if (rc == CURLE_OPERATION_TIMEDOUT && connect > 0)
		snprintf(got->why, sizeof(got->why), "stalled: less than 1 byte/s for %ld s",
		    stall_bound());
	else
		snprintf(got->why, sizeof(got->why), "%s",
		    errbuf[0] != '\0' ? errbuf : curl_easy_strerror(rc));
}

/* One attempt into s, from an empty file: 0, or -1 with got->why. */
static int
attempt(CURL *h, struct sink *s, const char *errbuf)
{
	CURLcode rc;

	if (ftruncate(s->fd, 0) == -1 || lseek(s->fd, 0, SEEK_SET) == -1) {
		snprintf(s->got->why, sizeof(s->got->why), "cannot write: %s",
		    strerror(errno));
		return -1;
	}
	s->got->size = 0;
	s->got->http = 0;
	s->over = false;
	s->error = 0;
	sha256_init(&s->c);
	rc = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &s->got->http);
	if (rc == CURLE_OK) {
		sha256_hex(&s->c, s->got->sha256);
		return 0;
	}
	say_why(h, rc, s, errbuf);
	return passing(rc, s->got->http) ? -2 : -1;
}

/* The attempts, at most FETCH_TRIES: 0, or -1 with got->why. */
static int
attempts(const char *url, struct sink *s)
{
	static char errbuf[CURL_ERROR_SIZE];	/* as long as the handle */
	size_t len;
	CURL *h;
	int tries, r;

	if ((h = handle(url, s, errbuf)) == NULL)
		return -1;
	for (tries = 1;; tries++) {
		errbuf[0] = '\0';
		if ((r = attempt(h, s, errbuf)) != -2 || tries == FETCH_TRIES)
			break;
		sleep(1u << (tries - 1));
	}
	if (r == -2 && (len = strlen(s->got->why)) < sizeof(s->got->why))
		snprintf(s->got->why + len, sizeof(s->got->why) - len,
		    ", %d tries", tries);
	return r == 0 ? 0 : -1;
}

int
fetch_file(const char *url, const char *path, uint64_t max,
    const char *sha256, struct fetch_got *got)
{
	struct sink s = { .max = max, .got = got };
	const char *base = strrchr(path, '/');
	char *tmp;
	int r = -1;

	memset(got, 0, sizeof(*got));
	base = base != NULL ? base + 1 : path;
	if (asprintf(&tmp, "%.*s.%s.XXXXXX", (int)(base - path), path,
	    base) < 0)
		oom();
	if ((s.fd = mkostemp(tmp, O_CLOEXEC)) == -1) {
		snprintf(got->why, sizeof(got->why), "cannot write %s: %s",
		    tmp, strerror(errno));
		goto free_tmp;
	}
	if (attempts(url, &s) < 0)
		goto unlink_tmp;
	if (sha256 != NULL && (got->size != max ||
	    strcmp(got->sha256, sha256) != 0)) {
		r = 1;
		goto unlink_tmp;
	}
	/* A cache: a rename lost in a crash is a fetch again, so the
	   directory is not synced, but the file is, before its name. */
	if (fsync(s.fd) == -1 || rename(tmp, path) == -1) {
		snprintf(got->why, sizeof(got->why), "cannot write %s: %s",
		    path, strerror(errno));
		goto unlink_tmp;
	}
	r = 0;
	goto close_fd;
unlink_tmp:
	unlink(tmp);
close_fd:
	close(s.fd);
free_tmp:
	free(tmp);
	return r;
}
#endif
