/*
 * initlib: what the two /init programs of the kernel harness share, the
 * x86-64 one (init.c) and the i386 one (cslimit-init.c). check-kernel.sh
 * compiles each of them with initlib.c.
 *
 * Only the plumbing lives here: starting and ending a boot, running a
 * probe and reading what it printed, and the RESULT lines that
 * kernel/matrix.awk and check-kernel.sh parse. What a check wants (the
 * policy) stays in each init, beside the rules it restates.
 *
 * Nothing here fails silently: a probe that cannot be started or that
 * prints nothing leaves fields "missing", which fail the checks that read
 * them; running out of memory ends /init, and check-kernel.sh reports a
 * boot that did not reach DONE.
 */
#ifndef INITLIB_H
#define INITLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* ---- A boot: its start, its checks, its end ---- */

/*
 * Line-buffered stdout, /proc mounted, and the kernel command line in
 * cmdline (size bytes, NUL-terminated; empty if unreadable).
 */
void boot_begin(char *cmdline, size_t size);

/* The counts of one boot, for its DONE line. */
struct tally {
	const char *scenario;	/* the RESULT and DONE lines' scenario */
	bool counts_skips;	/* DONE says skip=N; the i386 init skips none */
	int pass, fail, skip;
};

enum verdict { VERDICT_PASS, VERDICT_FAIL, VERDICT_SKIP };

/*
 * Print one line and count it:
 *   RESULT PASS|FAIL|SKIP <scenario> <level> <subject> <aspect> <want> <got>
 * subject, aspect and want must be single words; got is made one (each
 * space or newline becomes '_', an empty one "empty", at most 159 bytes).
 */
void report(struct tally *t, enum verdict v, int level, const char *subject,
	    const char *aspect, const char *want, const char *got);

/* report() a PASS if ok, else a FAIL. */
void check(struct tally *t, bool ok, int level, const char *subject,
	   const char *aspect, const char *want, const char *got);

/* check() that got is want. */
void check_eq(struct tally *t, int level, const char *subject,
	      const char *aspect, const char *want, const char *got);

/*
 * Print "DONE <scenario> pass=N fail=N[ skip=N]", wait until the console
 * has sent it (a slow serial port, Bochs's, loses the tail at reboot),
 * sync and reboot: qemu -no-reboot exits, Bochs stops at the triple fault
 * of reboot=t.
 */
void boot_end(const struct tally *t) __attribute__((noreturn));

/* ---- Running a probe ---- */

/* A started program and our ends of its stdin and stdout. */
struct child {
	pid_t pid;
	int in, out;	/* its stderr goes to out too */
};

/*
 * Start argv[0] with argv, its stdin and stdout (and stderr) pipes to us.
 * Returns 0, or -1 with errno set (nothing is left open).
 */
int spawn(struct child *ch, char *const argv[]);

/*
 * Close the child's stdin, read its output to the end and reap it; its
 * wait status goes to *status unless status is NULL. Returns the output,
 * malloc'd and NUL-terminated: the caller frees it.
 */
char *finish(struct child *ch, int *status);

/*
 * finish() for a program that may never end (a service): if it has not
 * closed its output after seconds seconds, its process group and it are
 * killed (SIGKILL), what it printed so far is kept, and *timed_out is set
 * (else cleared). The wait status is then that of the kill.
 */
char *finish_within(struct child *ch, int seconds, int *status,
		    bool *timed_out);

/*
 * Run prog with the arguments that follow it, up to the NULL that ends
 * them (at most 6); its wait status goes to *status unless status is
 * NULL. Returns its output as finish() does, or "error ..." (malloc'd
 * too) if it could not be started.
 */
char *run_status(int *status, const char *prog, ...)
	__attribute__((sentinel));

/* run_status() for a program whose output is all that counts. */
#define run(...) run_status(NULL, __VA_ARGS__)

/* ---- What a probe printed ---- */

/* The line after the one p points into; NULL after the last. */
const char *next_line(const char *p);

/* The longest value field() returns; a longer one is cut. */
#define FIELD_MAX 160

/*
 * The rest of the first line of out (NULL: none) that starts with
 * "key ", copied to val (size bytes), or "missing" if no line does.
 * Returns val.
 */
const char *field_copy(const char *out, const char *key, char *val,
		       size_t size);

/*
 * field_copy() into a buffer of the enclosing block (a compound literal),
 * so that several values can be used in one expression and each stays
 * valid until the block ends.
 */
#define field(out, key) \
	field_copy((out), (key), (char[FIELD_MAX]){ 0 }, FIELD_MAX)

/* ---- The kernel, and figures ---- */

/* The kernel's log buffer, malloc'd and NUL-terminated ("" if unread). */
char *klog(void);

/* Sort n doubles in increasing order, for medians and spreads. */
void sort_doubles(double *v, size_t n);

#endif
