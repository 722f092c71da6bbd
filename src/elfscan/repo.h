/*
 * repo.h - software repositories as inputs: a repository named on the
 * command line (apt:ROOT:SUITE[:COMPONENTS], repo-apt.c; rpm-md:ROOT,
 * repo-rpm.c) becomes the list of its packages as its verified index
 * gives them (repo.c dispatches by the name). The caller decides which
 * to read (a store may hold some already: store.h); repo_check() vouches
 * for a package's bytes before the walk reads it as it reads a package
 * named (container.c). What the index does not vouch for is said and left
 * out; the rest goes on.
 */
#ifndef REPO_H
#define REPO_H

#include <stdbool.h>
#include <stdint.h>

/* A package as its repository's index gives it; lent for the call. */
struct repo_package {
	const char *repo;	/* the repository, as named */
	const char *name, *version, *arch;
	const char *source;	/* its source package's name */
	const char *filename;	/* inside the repository, as the index
				   names it */
	const char *path;	/* where it is read: ROOT/filename */
	const char *sha256;	/* the index's: 64 lowercase hex digits */
	uint64_t size;		/* the index's, in bytes */
	const char *depends;	/* Depends and Pre-Depends (apt), or the
				   names of the requires (rpm-md), as the
				   index gives them, or "" */
	const char *provides;	/* or "" */
};

/* Is arg a repository: apt:ROOT:SUITE[:COMPONENT[,COMPONENT...]] or
   rpm-md:ROOT? */
bool repo_named(const char *arg);
/*
 * The packages of the repository arg (repo_named) whose index is vouched
 * for, for the architecture arch, as the repository names it (dpkg's for
 * apt, rpm's for rpm-md), or else that of the OCI platform (--platform
 * OS/ARCH), or else this machine's: add(ctx, p) for each, in the index's
 * order. What does not match, or cannot be read, is said on stderr in one
 * line and skipped. Returns 0, or -1 when something was skipped.
 */
int repo_packages(const char *arg, const char *platform, const char *arch,
    void (*add)(void *ctx, const struct repo_package *p), void *ctx);
/* Read p's file whole: 0 when its size and SHA256 are the index's, else
   -1, said in one line naming the package. */
int repo_check(const struct repo_package *p);
/* Is the package named name in shard k of n (0 <= k < n)? Stable: by its
   name alone, so that it stays on its shard from one upload to the next
   (FNV-1a, 64 bits). */
bool repo_in_shard(const char *name, unsigned k, unsigned n);
/* The 31-bit number repo_in_shard() divides, for a store to keep. */
uint32_t repo_bucket(const char *name);

/* repo-apt.c: apt:ROOT:SUITE[:COMPONENTS]. */
bool repo_apt_named(const char *arg);
/* The dpkg name of the architecture of an OCI platform, OS/ARCH[/VARIANT],
   or NULL when dpkg has none; this machine's for NULL. */
const char *repo_apt_arch(const char *platform);
int repo_apt_packages(const char *arg, const char *platform,
    const char *arch, void (*add)(void *ctx, const struct repo_package *p),
    void *ctx);

/* repo-rpm.c: rpm-md:ROOT. */
bool repo_rpm_named(const char *arg);
/* The rpm name of the architecture of an OCI platform, OS/ARCH[/VARIANT],
   or NULL when rpm has none; this machine's for NULL. */
const char *repo_rpm_arch(const char *platform);
int repo_rpm_packages(const char *arg, const char *platform,
    const char *arch, void (*add)(void *ctx, const struct repo_package *p),
    void *ctx);

#endif
