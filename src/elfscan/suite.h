/*
 * suite.h - the repositories named, as one suite (suite.c): their
 * packages listed by their indices (repo.h), the share of this shard
 * (--shard) taken, and with --store only what the store does not hold
 * yet read; after the walk, the suite said from the store (store.h), each
 * index's packages in its order, as the walk would have said them.
 */
#ifndef SUITE_H
#define SUITE_H

#include <stdbool.h>

#include "elfscan.h"
#include "system.h"

struct suite;
struct report;

/* --shard's argument, K/N or auto/N, into *k and *n (K from 0); auto
   takes K from the engine that runs this one (a Kubernetes Indexed Job,
   a Slurm array, GNU parallel). Returns -1 when it is not one, or when
   no engine says K (said). */
int suite_shard(const char *arg, unsigned *k, unsigned *n);
/* The suite of o, with its store when o names one; NULL when the store
   cannot be opened (said). */
struct suite *suite_open(const struct opts *o);
/* The paths of arg[0, n) to read into out: a repository's packages, a
   path itself. Returns -1 when something could not be listed or read
   (said); the rest is there. */
int suite_expand(struct suite *s, char **arg, int n, struct pathset *out);
/* Are repositories named? */
bool suite_any(const struct suite *s);
/* The paths of the packages the indices list, read or kept. */
const struct pathset *suite_paths(const struct suite *s);
/* The store the judge hands records to, or NULL. */
struct store *suite_store(const struct suite *s);
/* After the walk: the records the store keeps of the suite, said and
   counted. Returns -1 when the store failed (said). */
int suite_say(struct suite *s, struct report *r);
void suite_close(struct suite *s);

#endif
