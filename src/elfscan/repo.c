/*
 * repo.c - the repositories named on the command line (repo.h): each kind
 * by its prefix, and what is the same for every kind: a package's bytes
 * checked against its index (fetched first for a repository by URL),
 * and the share of a suite a shard takes.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "fetch.h"
#include "repo.h"
#include "sha256.h"

bool
repo_named(const char *arg)
{
	return repo_apt_named(arg) || repo_rpm_named(arg);
}

int
repo_packages(const char *arg, const struct repo_opts *o,
    void (*add)(void *ctx, const struct repo_package *p), void *ctx)
{
	if (!repo_rpm_named(arg))
		return repo_apt_packages(arg, o, add, ctx);
	return repo_rpm_packages(arg, o, add, ctx);
}

/* The size of the file path and the SHA256 of its first size bytes
   (enough to judge it): 0, or -1 with errno and *what failed. */
static int
hash_file(const char *path, uint64_t size, uint64_t *got,
    char hex[SHA256_HEX], const char **what)
{
	unsigned char buf[65536];
	struct sha256 c;
	ssize_t n;
	int fd, error;

	*got = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) == -1) {
		*what = "cannot open";
		return -1;
	}
	sha256_init(&c);
	while ((n = read(fd, buf, sizeof(buf))) > 0 ||
	    (n == -1 && errno == EINTR))
		if (n > 0 && (*got += (uint64_t)n) <= size)
			sha256_update(&c, buf, (size_t)n);
	error = errno;
	close(fd);
	if (n == -1) {
		*what = "cannot read";
		errno = error;
		return -1;
	}
	sha256_hex(&c, hex);
	return 0;
}

/* Are got bytes of digest hex p's? Said, naming where, when not. */
static int
judge(const struct repo_package *p, const char *where, uint64_t got,
    const char *hex)
{
	if (got < p->size)
		warnx("%s: package %s %s: cut short: %" PRIu64 " bytes of the index's %" PRIu64,
		    where, p->name, p->version, got, p->size);
	else if (got > p->size)
		warnx("%s: package %s %s: %" PRIu64 " bytes, not the index's %" PRIu64,
		    where, p->name, p->version, got, p->size);
	else if (strcmp(hex, p->sha256) != 0)
		warnx("%s: package %s %s: its SHA256 is not the index's",
		    where, p->name, p->version);
	else
		return 0;
	return -1;
}

/* A package by URL: the cache's copy when it is the index's, else
   fetched, and kept only when it is. */
static int
fetch_package(const struct repo_package *p)
{
	char hex[SHA256_HEX];
	struct fetch_got got;
	const char *what;
	uint64_t size;

	if (hash_file(p->path, p->size, &size, hex, &what) == 0 &&
	    size == p->size && strcmp(hex, p->sha256) == 0)
		return 0;
	switch (fetch_file(p->url, p->path, p->size, p->sha256, &got)) {
	case 0:
		return 0;
	case 1:
		return judge(p, p->url, got.size, got.sha256);
	default:
		warnx("%s: package %s %s: cannot fetch: %s", p->url, p->name,
		    p->version, got.why);
		return -1;
	}
}

int
repo_check(const struct repo_package *p)
{
	char hex[SHA256_HEX];
	const char *what;
	uint64_t got;

	if (p->url != NULL)
		return fetch_package(p);
	if (hash_file(p->path, p->size, &got, hex, &what) == -1) {
		warnx("%s: package %s %s: %s: %s", p->path, p->name,
		    p->version, what, strerror(errno));
		return -1;
	}
	return judge(p, p->path, got, hex);
}

uint32_t
repo_bucket(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)*name) * 0x100000001b3ull;
	return (uint32_t)(h >> 33);
}

bool
repo_in_shard(const char *name, unsigned k, unsigned n)
{
	return n <= 1 || repo_bucket(name) % n == k;
}
