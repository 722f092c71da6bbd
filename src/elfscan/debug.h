/*
 * debug.h - separate debug files (debug.c): the DWARF that strip moved
 * out of a program or library, found by its build-id, in the root's
 * /usr/lib/debug/.build-id/XX/YYYY.debug, or in the debug packages named
 * on the command line beside what they are the debug files of (Debian's
 * -dbgsym .deb and .ddeb, Fedora's -debuginfo rpm), read before the
 * scan. A debug file whose own build-id is not the one its name says
 * (the path in the tree is the build-id in hexadecimal) is not used, and
 * said so.
 */
#ifndef DEBUG_H
#define DEBUG_H

#include <stdbool.h>

#include "chstk.h"
#include "evidence.h"

struct rootfs;

/* Is the file named path (its name alone) a debug package? */
bool debug_package_name(const char *path);

/* The debug files of the debug packages, by build-id. */
struct debugset;
struct debugset *debugset_new(void);
void debugset_free(struct debugset *d);
/* A member of a debug package, at where ("PACKAGE!MEMBER"), named member
   in it; info and ev what the library read of it (with the evidence).
   Members outside a .build-id tree are passed over. Any thread. */
void debugset_add(struct debugset *d, const char *where, const char *member,
    const struct chstk_info *info, const struct evidence *ev);
/* How many debug files it holds. */
size_t debugset_count(const struct debugset *d);
/* All added: sort them for debug_find (one thread). */
void debugset_ready(struct debugset *d);

/* Complete e, the evidence of an image of build-id id (len bytes) without
   DWARF of its own, from its separate debug file: the debug packages'
   (d, may be NULL, ready) first, then the root's tree (fs, may be NULL).
   len is at most CHSTK_BUILD_ID_MAX. */
void debug_find(const struct debugset *d, const struct rootfs *fs,
    const unsigned char *id, unsigned len, struct evidence *e);

/* The evidence of the program or library at path in the root fs, read
   whole (code too), its separate debug file found in the root: into e,
   and its first image's info into info (info->hardening NULL). Returns
   false when it cannot be read. */
bool debug_evidence_at(const struct rootfs *fs, const char *path,
    struct chstk_info *info, struct evidence *e);

#endif
