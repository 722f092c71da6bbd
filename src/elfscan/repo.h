/*
 * repo.h - software repositories as inputs (repo-apt.c): a repository
 * named on the command line becomes the list of its packages' files,
 * each read first for its digest, then handed to the walk, which reads a
 * package file as it reads one named (container.c). What the index does
 * not vouch for is said and left out; the rest goes on.
 */
#ifndef REPO_H
#define REPO_H

#include <stdbool.h>

/* Is arg a repository, apt:ROOT:SUITE[:COMPONENT[,COMPONENT...]]? */
bool repo_apt_named(const char *arg);
/* The dpkg name of the architecture of an OCI platform, OS/ARCH[/VARIANT]
   (--platform), or NULL when dpkg has none; this machine's for NULL. */
const char *repo_apt_arch(const char *platform);
/*
 * The packages of the repository arg (repo_apt_named) for the dpkg
 * architecture arch whose bytes match the index: add(ctx, path) for each,
 * path lent for the call. Every index or package that does not match, or
 * cannot be read, is said on stderr in one line and skipped. Returns 0,
 * or -1 when something was skipped.
 */
int repo_apt_packages(const char *arg, const char *arch,
    void (*add)(void *ctx, const char *path), void *ctx);

#endif
