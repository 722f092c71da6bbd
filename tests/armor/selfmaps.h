/* selfmaps.h: the armor fixtures' look at their own address space. */
#ifndef SELFMAPS_H
#define SELFMAPS_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Print to OUT one line "self START-END PERMS" for each executable mapping
 * of the running program's own file, as /proc/self/maps shows it.  Returns
 * 0, or -1 if /proc could not be read.
 */
int print_self_exec_maps(FILE *out);

#ifdef __cplusplus
}
#endif

#endif
