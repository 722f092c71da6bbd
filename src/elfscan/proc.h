/*
 * proc.h - the running processes (--proc): which have an executable stack
 * or other writable and executable memory now, what asked for it, and
 * whether that is what the files they loaded and their environment say
 * (proc.c). All is read under /proc/PID:
 *
 *   stat          its name, its state (a zombie) and flags (a kernel
 *                 thread, an exiting process)
 *   maps          its mappings: the main stack ([stack]), the files it
 *                 maps executable, what is writable and executable
 *   root, exe     its root directory and its program, as this machine's
 *                 paths: a process of another root or mount namespace
 *                 names its files from its own root
 *   map_files     each file it maps, itself, deleted or not, in any mount
 *                 namespace (opening one takes CAP_SYS_ADMIN or
 *                 CAP_CHECKPOINT_RESTORE); without it, the path maps gives,
 *                 under root/, when it still holds the file mapped
 *   task/TID/syscall
 *                 each thread's stack pointer while it waits in a system
 *                 call: the mapping that holds it is the thread's stack
 *   environ, auxv GLIBC_TUNABLES, and AT_SECURE, under which glibc
 *                 ignores it
 *   personality   READ_IMPLIES_EXEC
 *
 * Each file mapped executable is read once, through the library, by the
 * identity maps gives it (its device and inode), and judged by the rules
 * (verdict.h): what it asks of the main stack and of the threads'.
 * Facts, with their sources: elfscan(1), Running processes.
 */
#ifndef PROC_H
#define PROC_H

#include <stddef.h>

struct report;

/* Judge the processes pids[0, n) (n 0: every process /proc lists) and
   report each to r, counted (elfscan.h). One that cannot be read is said and
   counted as an error; one that exits meanwhile, or a kernel thread, is
   said and counted, and is no error. Returns -1 when /proc cannot be
   listed (said), else 0. */
int proc_scan(struct report *r, const int *pids, size_t n);

#endif
