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
#include <stddef.h>
#include <stdint.h>

/* A package as its repository's index gives it; lent for the call. */
struct repo_package {
	const char *repo;	/* the repository, as named */
	const char *name, *version, *arch;
	const char *source;	/* its source package's name */
	const char *filename;	/* inside the repository, as the index
				   names it */
	const char *path;	/* where it is read: ROOT/filename, or for a
				   repository by URL the cache's copy */
	const char *url;	/* where that copy is fetched from
				   (fetch.h), or NULL: a directory's */
	const char *sha256;	/* the index's: 64 lowercase hex digits */
	uint64_t size;		/* the index's, in bytes */
	const char *depends;	/* Depends and Pre-Depends (apt), or the
				   names of the requires (rpm-md), as the
				   index gives them, or "" */
	const char *provides;	/* or "" */
};

/* How the repositories are read, from the options; lent for the call. */
struct repo_opts {
	const char *platform;	/* --platform OS/ARCH[/VARIANT], or NULL */
	const char *arch;	/* --arch, or NULL */
	const char *const *keyrings;	/* --keyring FILE, each: the keys
				   whose signature an apt Release, or an
				   rpm-md repomd.xml, must carry; none:
				   the signature is not checked */
	size_t nkeyrings;
};

/* Is arg a repository: apt:ROOT:SUITE[:COMPONENT[,COMPONENT...]], ROOT
   a directory or an http(s) URL, or rpm-md:ROOT? */
bool repo_named(const char *arg);
/*
 * The packages of the repository arg (repo_named) whose index is vouched
 * for, for the architecture o->arch, as the repository names it (dpkg's
 * for apt, rpm's for rpm-md), or else that of the OCI platform
 * o->platform, or else this machine's: add(ctx, p) for each, in the
 * index's order. With keyrings, an apt Release, or an rpm-md repomd.xml,
 * must be signed by one of their keys (repo-gpgv.c). What does not match,
 * or cannot be read, is
 * said on stderr in one line and skipped. Returns 0, or -1 when something
 * was skipped.
 */
int repo_packages(const char *arg, const struct repo_opts *o,
    void (*add)(void *ctx, const struct repo_package *p), void *ctx);
/* Read p's file whole: 0 when its size and SHA256 are the index's, else
   -1, said in one line naming the package. A package by URL is fetched
   into p->path first, unless a copy with that digest is there already;
   only a copy with it is kept. */
int repo_check(const struct repo_package *p);
/* Is the package named name in shard k of n (0 <= k < n)? Stable: by its
   name alone, so that it stays on its shard from one upload to the next
   (FNV-1a, 64 bits). */
bool repo_in_shard(const char *name, unsigned k, unsigned n);
/* An architecture's name in OCI (Go's GOARCH, with the variant where the
   repository's names differ by it) and in a kind of repository. */
struct repo_arch {
	const char *oci, *name;
};
/* The name table t (n entries) gives the architecture of an OCI platform,
   OS/ARCH[/VARIANT], or of this machine for NULL; NULL when it has none. */
const char *repo_arch_name(const char *platform, const struct repo_arch *t,
    size_t n);
/* The 31-bit number repo_in_shard() divides, for a store to keep. */
uint32_t repo_bucket(const char *name);

/* repo-apt.c: apt:ROOT:SUITE[:COMPONENTS], apt:URL:SUITE[:COMPONENTS]. */
bool repo_apt_named(const char *arg);
/* The dpkg name of the architecture of an OCI platform, OS/ARCH[/VARIANT],
   or NULL when dpkg has none; this machine's for NULL. */
const char *repo_apt_arch(const char *platform);
int repo_apt_packages(const char *arg, const struct repo_opts *o,
    void (*add)(void *ctx, const struct repo_package *p), void *ctx);

/* repo-rpm.c: rpm-md:ROOT. */
bool repo_rpm_named(const char *arg);
/* The rpm name of the architecture of an OCI platform, OS/ARCH[/VARIANT],
   or NULL when rpm has none; this machine's for NULL. */
const char *repo_rpm_arch(const char *platform);
int repo_rpm_packages(const char *arg, const struct repo_opts *o,
    void (*add)(void *ctx, const struct repo_package *p), void *ctx);

/*
 * repo-gpgv.c: is the Release text (len bytes, as read) signed by a key of
 * the keyrings (nkeyrings files, each binary or ASCII-armored), as gpgv
 * says? sig is its detached signature (Release.gpg, repomd.xml.asc;
 * siglen bytes, binary or armored), or
 * NULL when text is a clearsigned InRelease. Returns the text gpgv
 * verified (of an InRelease, the signed part alone), ended by a NUL not
 * counted in *outlen, which the caller frees; or NULL with why (one line:
 * "not signed", "bad signature: ...", "gpgv is not installed: ...").
 */
char *repo_gpgv(const char *const *keyrings, size_t nkeyrings,
    const char *text, size_t len, const char *sig, size_t siglen,
    size_t *outlen, char why[256]);

#endif
