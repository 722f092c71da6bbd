/*
 * repo.c - the repositories named on the command line (repo.h): each kind
 * by its prefix, and what is the same for every kind: a package's bytes
 * checked against its index, and the share of a suite a shard takes.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "repo.h"
#include "sha256.h"

bool
repo_named(const char *arg)
{
	return repo_apt_named(arg) || repo_rpm_named(arg);
}

int
repo_packages(const char *arg, const char *platform, const char *arch,
    void (*add)(void *ctx, const struct repo_package *p), void *ctx)
{
	if (repo_rpm_named(arg))
		return repo_rpm_packages(arg, platform, arch, add, ctx);
	return repo_apt_packages(arg, platform, arch, add, ctx);
}

int
repo_check(const struct repo_package *p)
{
	unsigned char buf[65536];
	char hex[SHA256_HEX] = "";
	struct sha256 c;
	uint64_t got = 0;
	ssize_t n;
	int fd;

	if ((fd = open(p->path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) == -1) {
		warnx("%s: package %s %s: cannot open: %s", p->path, p->name,
		    p->version, strerror(errno));
		return -1;
	}
	sha256_init(&c);
	while ((n = read(fd, buf, sizeof(buf))) > 0 ||
	    (n == -1 && errno == EINTR))
		if (n > 0 && (got += (uint64_t)n) <= p->size)
			sha256_update(&c, buf, (size_t)n);
	if (n == -1)
		warnx("%s: package %s %s: cannot read: %s", p->path, p->name,
		    p->version, strerror(errno));
	else if (got < p->size)
		warnx("%s: package %s %s: cut short: %" PRIu64 " bytes of the index's %" PRIu64,
		    p->path, p->name, p->version, got, p->size);
	else if (got > p->size)
		warnx("%s: package %s %s: %" PRIu64 " bytes, not the index's %" PRIu64,
		    p->path, p->name, p->version, got, p->size);
	else if (sha256_hex(&c, hex), strcmp(hex, p->sha256) != 0)
		warnx("%s: package %s %s: its SHA256 is not the index's",
		    p->path, p->name, p->version);
	close(fd);
	return n == -1 || got != p->size || strcmp(hex, p->sha256) != 0 ?
	    -1 : 0;
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
