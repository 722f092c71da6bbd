/*
 * sarif.h - elfscan's findings as one SARIF 2.1.0 log (OASIS), the format
 * code-scanning dashboards read: one run, one rule per kind of finding,
 * one result per finding.
 *
 * The log is written as the scan goes: sarif_begin writes the tool, its
 * rules and the base URIs of the scanned roots; each sarif_result writes
 * one result at once; sarif_end closes the results and writes the
 * invocation with its notifications (the files that could not be read,
 * the --allow patterns that allowed nothing), which wait in a temporary
 * file meanwhile. Memory does not grow with the number of results or
 * notifications.
 *
 * The calls are not serialized here: the caller holds its output lock.
 */
#ifndef SARIF_H
#define SARIF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "where.h"

struct sarif;

/* The bytes a finding is about, as offsets in the file that holds them:
   used only where those are the file's offsets (not in a member read out
   of a compressed container; see struct where). */
struct region {
	uint64_t offset, length;
};

/*
 * Start the log on out (which stays the caller's) for a scan of roots[0,
 * n), the paths as given on the command line, each the base of the
 * relative URIs of what is found under it; an empty path is the current
 * directory, the base of every relative path (the names of a
 * --files-from list). Returns NULL when out of memory or when no
 * temporary file can be made (errno says why).
 */
struct sarif *sarif_begin(FILE *out, char *const *roots, size_t n);

/* One finding at w (region: its bytes, or NULL for the whole file): bit
   is its enum finding bit index; why says why in one sentence (lowercase,
   no final period). justification is NULL, or the reason the finding was
   allowed: then it is written as suppressed. */
void sarif_result(struct sarif *s, unsigned bit, const struct where *w,
    const struct region *region, const char *why, const char *justification);

/* A file or member that could not be scanned, msg saying why. */
void sarif_notification(struct sarif *s, const struct where *w,
    const char *msg);

/* An --allow pattern that allowed nothing: a warning of the run, located
   at line of file (file NULL: given on the command line). */
void sarif_unused_pattern(struct sarif *s, const char *pattern,
    const char *file, unsigned line);

/* Close the log, the run's execution successful or not, and free s.
   Returns 0, or -1 when the notifications could not be read back. */
int sarif_end(struct sarif *s, bool successful);

#endif
