/*
 * cslimit-init: the /init of the i386 test initramfs (static, 32-bit), for
 * the code segment limit that stands in for NX on CPUs without it.
 *
 * The kernel command line says what to do:
 *   chstk.test=cslimit  run the probes (cslimit.c) at the level given by
 *                       exec-shield=N, also under a uprobe (tracefs),
 *                       and judge what they report
 *   chstk.test=bench    time pipe round trips and mmap()/munmap() in a
 *                       protected (noexec) and a flat (exec) program,
 *                       five rounds, and print each measure's median
 *   chstk.near=checked  this CPU checks the limit on near calls and
 *                       jumps as a processor does (Bochs; not qemu's
 *                       TCG): the near calls and the trampoline are
 *                       checks from the first program on, never notes
 *
 * Each check prints one line
 *   RESULT PASS|FAIL <scenario> <level> <subject> <aspect> <want> <got>
 * and the run ends with "DONE <scenario>", then reboot() once the console
 * has sent it: qemu -no-reboot exits, Bochs stops at the triple fault of
 * reboot=t. What a check wants comes from the rules in "The policy" below;
 * whether NX is in use from two facts the emulation does not touch: the
 * CPU has it (/proc/cpuinfo reports what CPUID says) and the kernel's
 * page tables are PAE's, the only 32-bit ones with an NX bit
 * (/proc/meminfo).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "initlib.h"

#define ARMOR_END 0x01000000UL
#define FLAT 0xffffffffUL
#define PAGE 4096UL

/* The programs: /bin/<kind>-<mark> */
struct kind {
	const char *name;
	bool low;	/* linked or loaded below 16 MiB */
};
static const struct kind kinds[] = {
	{ "cs", false },	/* static, at 0x08048000 */
	{ "cssmall", true },	/* static, ld/elf_i386_small.x */
	{ "cspie", true },	/* dynamic PIE: the kernel loads it at 4 MiB */
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))
static const char *const marks[] = { "exec", "noexec" };

static int level = 2;
static bool nx;
static struct tally tally;

/* ---- The policy ---- */

/* What a process runs with: the limit, NX, or neither (flat, no NX). */
enum mode { LIMIT, NX, FLAT_NONX };

static bool exec_stack(const char *mark)
{
	return level == 0 || (level < 3 && strcmp(mark, "exec") == 0);
}

static enum mode mode_of(const char *mark)
{
	if (nx)
		return NX;
	return exec_stack(mark) ? FLAT_NONX : LIMIT;
}

/*
 * Whether code in a page runs: with NX when the page is executable; with
 * the limit when the page lies below the highest executable mapping
 * (covered); without either, always.
 */
static bool want_run(enum mode m, bool page_exec, bool covered)
{
	switch (m) {
	case NX: return page_exec;
	case LIMIT: return covered;
	default: return true;
	}
}

/* ---- Reporting ---- */

static const char *runs(bool run)
{
	return run ? "run" : "segv";
}

static unsigned long hex(const char *s)
{
	return strtoul(s, NULL, 16);
}

/* "STEP limit 0x... NAME run|segv": the limit and the outcome. */
static bool step(const char *out, const char *key, const char *name,
		 unsigned long *limit, char *outcome, size_t size)
{
	char pat[64], word[16];
	const char *p;

	snprintf(pat, sizeof(pat), "%s limit ", key);
	for (p = out; (p = strstr(p, pat)) != NULL; p++) {
		char nm[16];

		if (p != out && p[-1] != '\n')
			continue;
		if (sscanf(p + strlen(pat), "%lx %15s %15s", limit, nm,
			   word) == 3 && strcmp(nm, name) == 0) {
			snprintf(outcome, size, "%s", word);
			return true;
		}
	}
	snprintf(outcome, size, "missing");
	*limit = 0;
	return false;
}

/* ---- The checks ---- */

/*
 * Whether this CPU checks the limit on near calls: a processor does, qemu's
 * TCG emulator does not (it checks far calls and jumps only). Set by
 * chstk.near=checked; else learnt from the first protected program, at
 * level 2: its stack copy, refused through a far call, is called near too.
 */
static int near_enforced = -1;

static void near_check(const char *subject, const char *where, enum mode m,
		       bool page_exec, bool covered, const char *out)
{
	char key[32];
	const char *got;

	snprintf(key, sizeof(key), "near-%s", where);
	got = field(out, key);
	if (m == LIMIT && near_enforced < 0 && strcmp(where, "stack") == 0 &&
	    strcmp(field(out, "copy-stack"), "segv") == 0)
		near_enforced = strcmp(got, "segv") == 0;
	if (m == LIMIT && near_enforced != 1) {
		/*
		 * Not a check: this CPU cannot say. The far call above is
		 * judged against the same limit instead.
		 */
		printf("NOTE %s %s: %s, this CPU does not check the limit on "
		       "near calls\n", subject, key, got);
		return;
	}
	check_eq(&tally, level, subject, key,
		 runs(want_run(m, page_exec, covered)), got);
}

/* The four copies of `ret', and the limit, in what `copies' printed. */
static void judge_copies(const char *subject, const char *mark,
			 const struct kind *k, const char *out)
{
	static const char *const where[] = { "stack", "heap", "anon", "data" };
	enum mode m = mode_of(mark);
	unsigned long limit = hex(field(out, "limit"));
	unsigned long end = hex(field(out, "exec-end"));
	char key[32], want[32], got[64];
	size_t i;

	if (strcmp(field(out, "limit"), "missing") == 0)
		printf("OUTPUT %s: %.300s\n", subject, out);
	for (i = 0; i < 4; i++) {
		bool page_exec = i == 0 && exec_stack(mark);
		/*
		 * A program loaded below 16 MiB (PIE, elf_i386_small.x) can
		 * have a library or the vdso above its .data: then the limit
		 * covers .data, which a limit cannot help.
		 */
		bool covered = i == 3 && hex(field(out, "data")) < limit;

		snprintf(key, sizeof(key), "copy-%s", where[i]);
		check_eq(&tally, level, subject, key,
			 runs(want_run(m, page_exec, covered)),
			 field(out, key));
		near_check(subject, where[i], m, page_exec, covered, out);
	}
	if (m == LIMIT) {
		/* The limit is the end of the highest executable mapping. */
		snprintf(want, sizeof(want), "0x%08lx", end - 1);
		check_eq(&tally, level, subject, "limit=exec-end", want,
			 field(out, "limit"));
		snprintf(got, sizeof(got), "0x%08lx", limit);
		if (k->low)
			check(&tally, limit < ARMOR_END, level, subject,
			      "limit<16MiB", "yes", got);
		else
			check(&tally, limit < 0x08048000UL + 0x00200000UL,
			      level, subject, "limit<text+2MiB", "yes", got);
		snprintf(got, sizeof(got), "%s", field(out, "heap"));
		check(&tally, hex(got) > limit, level, subject, "heap>limit",
		      "yes", got);
	} else {
		check_eq(&tally, level, subject, "limit", "0xffffffff",
			 field(out, "limit"));
	}
}

static void copies(void)
{
	size_t i, j;
	char prog[64], subject[64];

	for (i = 0; i < NKINDS; i++)
		for (j = 0; j < 2; j++) {
			char *out;

			snprintf(prog, sizeof(prog), "/bin/%s-%s",
				 kinds[i].name, marks[j]);
			snprintf(subject, sizeof(subject), "%s-%s",
				 kinds[i].name, marks[j]);
			out = run(prog, "copies", NULL);
			judge_copies(subject, marks[j], &kinds[i], out);
			free(out);
		}
}

/*
 * Run /bin/cs-MARK with command (and arg, or NULL); subject gets "cs-MARK",
 * the name its checks report under. Returns the output, as run() does.
 */
static char *run_cs(const char *mark, const char *command, const char *arg,
		    char subject[64])
{
	char prog[64];

	snprintf(prog, sizeof(prog), "/bin/cs-%s", mark);
	snprintf(subject, 64, "cs-%s", mark);
	return run(prog, command, arg, NULL);
}

/*
 * mprotect(): which page runs after each step, and the limit. "covered"
 * is where the highest executable mapping then is; see cslimit.c.
 */
static void mprotect_steps(const char *mark)
{
	static const struct {
		const char *key, *name;
		bool page_exec, covered;
	} steps[] = {
		{ "start", "heap", false, false },
		{ "heap-x", "heap", true, true },
		{ "heap-nox", "heap", false, false },
		{ "a-x", "a", true, true },
		{ "a-x", "b", false, true },	/* below a: the limit covers it */
		{ "a-nox", "b", false, false },
		{ "a-x2", "b", false, true },
		{ "a-unmapped", "b", false, false },
		{ "x-armor", "x", true, true },
		{ "x-armor", "b", false, false },
		{ "a-x3", "b", false, true },
		{ "a-moved", "b", false, false },	/* now below b */
		{ "a-moved", "c", true, true },
	};
	enum mode m = mode_of(mark);
	char subject[64], aspect[64], outcome[16], want[32], got[32];
	unsigned long base, a, c, limit;
	char *out;
	size_t i;

	out = run_cs(mark, "mprotect", NULL, subject);
	base = hex(field(out, "base"));
	sscanf(field(out, "pages"), "heap %*x a %lx b %*x c %lx", &a, &c);
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		snprintf(aspect, sizeof(aspect), "mprotect:%s:%s",
			 steps[i].key, steps[i].name);
		step(out, steps[i].key, steps[i].name, &limit, outcome,
		     sizeof(outcome));
		check_eq(&tally, level, subject, aspect,
			 runs(want_run(m, steps[i].page_exec,
				       steps[i].covered)), outcome);
	}
	/* The limit itself: up to a's end, back to the base, down to c's. */
	step(out, "a-x", "a", &limit, outcome, sizeof(outcome));
	snprintf(want, sizeof(want), "0x%08lx", m == LIMIT ? a + PAGE - 1 : FLAT);
	snprintf(got, sizeof(got), "0x%08lx", limit);
	check_eq(&tally, level, subject, "mprotect:a-x:limit", want, got);
	step(out, "a-unmapped", "b", &limit, outcome, sizeof(outcome));
	snprintf(want, sizeof(want), "0x%08lx", m == LIMIT ? base : FLAT);
	snprintf(got, sizeof(got), "0x%08lx", limit);
	check_eq(&tally, level, subject, "munmap:limit", want, got);
	step(out, "a-moved", "c", &limit, outcome, sizeof(outcome));
	snprintf(want, sizeof(want), "0x%08lx", m == LIMIT ? c + PAGE - 1 : FLAT);
	snprintf(got, sizeof(got), "0x%08lx", limit);
	check_eq(&tally, level, subject, "mremap:limit", want, got);
	free(out);
}

/* The second thread, on CPU 1, sees the limit rise and fall. */
static void smp(const char *mark)
{
	enum mode m = mode_of(mark);
	char subject[64];
	char *out;

	out = run_cs(mark, "smp", NULL, subject);
	check_eq(&tally, level, subject, "smp:main-cpu", "0",
		 field(out, "main-cpu"));
	check(&tally, strncmp(field(out, "start"), "thread-cpu 1 ", 13) == 0,
	      level, subject, "smp:thread-cpu", "1", field(out, "start"));
	check_eq(&tally, level, subject, "smp:start:b",
		 runs(want_run(m, false, false)),
		 strrchr(field(out, "start"), ' ') + 1);
	check_eq(&tally, level, subject, "smp:raised:b",
		 runs(want_run(m, false, true)),
		 strrchr(field(out, "raised"), ' ') + 1);
	check_eq(&tally, level, subject, "smp:lowered:b",
		 runs(want_run(m, false, false)),
		 strrchr(field(out, "lowered"), ' ') + 1);
	check_eq(&tally, level, subject, "smp:iret-handler", "1",
		 field(out, "iret handled"));
	free(out);
}

static void fork_exec(const char *mark)
{
	char subject[64];
	char *out;
	const struct kind *k = &kinds[0];

	out = run_cs(mark, "fork", NULL, subject);
	/* The child reports like a process of its own: the same rules. */
	snprintf(subject, sizeof(subject), "cs-%s-child", mark);
	judge_copies(subject, mark, k, out);
	check_eq(&tally, level, subject, "fork:limit=parent's",
		 field(out, "parent-limit"), field(out, "limit"));
	check_eq(&tally, level, subject, "fork:status", "0",
		 field(out, "child-status"));
	free(out);

	/* exec after raising the limit: the new program starts afresh. */
	out = run_cs(mark, "exec", "/bin/cs-noexec", subject);
	snprintf(subject, sizeof(subject), "cs-%s-exec-noexec", mark);
	judge_copies(subject, "noexec", k, out);
	free(out);
	out = run_cs(mark, "exec", "/bin/cs-exec", subject);
	snprintf(subject, sizeof(subject), "cs-%s-exec-exec", mark);
	judge_copies(subject, "exec", k, out);
	free(out);
}

static void pingpong(const char *mark)
{
	enum mode m = mode_of(mark);
	char subject[64];
	unsigned long pl, cl;
	char *out;

	out = run_cs(mark, "pingpong", "2000", subject);
	check_eq(&tally, level, subject, "pingpong:parent-bad", "0",
		 field(out, "pingpong parent-bad"));
	check_eq(&tally, level, subject, "pingpong:child-bad", "0",
		 field(out, "pingpong child-bad"));
	if (sscanf(field(out, "pingpong"), "parent-limit %lx child-limit %lx",
		   &pl, &cl) != 2)
		pl = cl = 0;
	check(&tally, (m == LIMIT) == (pl != cl), level, subject,
	      "pingpong:limits-differ", m == LIMIT ? "yes" : "no",
	      field(out, "pingpong"));
	free(out);
}

static void signals(const char *mark)
{
	char subject[64], got[64];
	char *out;

	out = run_cs(mark, "signal", NULL, subject);
	sscanf(field(out, "signal"), "caught %63s", got);
	check_eq(&tally, level, subject, "signal:caught", "3", got);
	free(out);
}

/*
 * The segments the limit leaves alone keep working: a flat code segment
 * in the LDT runs the heap copy (unless NX refuses the page), vm86 mode
 * runs; and the limit is still in force after each.
 */
static void segments(const char *mark)
{
	enum mode m = mode_of(mark);
	char subject[64];
	char *out;

	out = run_cs(mark, "segments", NULL, subject);
	check_eq(&tally, level, subject, "ldt:set", "ok",
		 field(out, "ldt-set"));
	check_eq(&tally, level, subject, "ldt:heap",
		 runs(want_run(m, false, true)), field(out, "ldt-heap"));
	check_eq(&tally, level, subject, "ldt:then-heap",
		 runs(want_run(m, false, false)), field(out, "ldt-then-heap"));
	check_eq(&tally, level, subject, "vm86", "run", field(out, "vm86"));
	check_eq(&tally, level, subject, "vm86:then-heap",
		 runs(want_run(m, false, false)),
		 field(out, "vm86-then-heap"));
	check(&tally, strcmp(field(out, "limit"), "missing") != 0 &&
		      strcmp(field(out, "limit"), field(out, "limit-after")) == 0,
	      level, subject, "limit:kept", "yes", field(out, "limit-after"));
	free(out);
}

/* A GCC nested function: its trampoline is on the stack. */
static void trampoline(const char *mark)
{
	enum mode m = mode_of(mark);
	char prog[64], subject[64], got[64];
	bool want = want_run(m, exec_stack(mark), false);
	int status;
	char *out;

	snprintf(prog, sizeof(prog), "/bin/tramp-%s", mark);
	snprintf(subject, sizeof(subject), "tramp-%s", mark);
	out = run_status(&status, prog, NULL);
	if (WIFSIGNALED(status))
		snprintf(got, sizeof(got), "signal-%d", WTERMSIG(status));
	else
		snprintf(got, sizeof(got), "%s", field(out, "tramp"));
	if (m == LIMIT) {
		/* The trampoline, on the stack, lies above the limit. */
		unsigned long at = 0, lim = 0;

		sscanf(field(out, "tramp-at"), "%lx limit %lx", &at, &lim);
		check(&tally, at > lim && lim != 0, level, subject,
		      "trampoline>limit", "yes", field(out, "tramp-at"));
	}
	if (m == LIMIT && near_enforced != 1) {
		/* The trampoline is called near: see near_check(). */
		printf("NOTE %s trampoline: %s, this CPU does not check the "
		       "limit on near calls\n", subject, got);
		free(out);
		return;
	}
	check_eq(&tally, level, subject, "trampoline",
		 want ? "42" : "signal-11", got);
	free(out);
}

/* ---- uprobes ---- */

#define TRACEFS "/tracing"
#define UPROBE_HITS 100

/* Write s to a tracefs file; false (and a FAIL) if the kernel refused. */
static bool tracefs_write(const char *file, const char *s, int flags)
{
	char path[160], err[64], line[256];
	FILE *f;
	int fd;
	ssize_t n = -1;

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	fd = open(path, O_WRONLY | flags);
	if (fd >= 0) {
		n = write(fd, s, strlen(s));
		close(fd);
	}
	if (n == (ssize_t)strlen(s))
		return true;
	snprintf(err, sizeof(err), "%s", strerror(errno));
	check(&tally, false, level, file, "tracefs-write", "ok", err);
	/* What the kernel's parser said, and what it was given. */
	printf("NOTE %s: wrote %s", file, s);
	f = fopen(TRACEFS "/error_log", "r");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		printf("NOTE error_log: %s", line);
	if (f != NULL)
		fclose(f);
	return false;
}

/*
 * The hits of EVENT on PROG: the last field of its uprobe_profile line,
 * "  PROG EVENT HITS"; -1 if there is none.
 */
static long uprobe_hits(const char *prog, const char *event)
{
	char line[512], name[160];
	FILE *f = fopen(TRACEFS "/uprobe_profile", "r");
	long hits = -1;

	snprintf(name, sizeof(name), " %s %s ", prog, event);
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, name) != NULL)
			hits = atol(strrchr(line, ' ') + 1);
	if (f != NULL)
		fclose(f);
	return hits;
}

/*
 * One program under a uprobe on its uprobe_target() (cslimit.c): the
 * probe fires, the program computes what it would without it, and its
 * "[uprobes]" page, executable, sits in the armor, so that the limit, the
 * heap jump and the rest of the copies are judged as without the probe.
 */
static void uprobe_one(const struct kind *k, const char *mark)
{
	enum mode m = mode_of(mark);
	char prog[64], event[64], def[256], file[128], subject[64], got[64];
	char off[32], want[16];
	unsigned long xs = 0, xe = 0;
	long before, after;
	char *out;
	FILE *f;

	snprintf(prog, sizeof(prog), "/bin/%s-%s", k->name, mark);
	snprintf(event, sizeof(event), "%s_%s", k->name, mark);
	snprintf(subject, sizeof(subject), "%s-%s-uprobe", k->name, mark);
	snprintf(file, sizeof(file), "/bin/%s.uprobe", k->name);
	f = fopen(file, "r");
	if (f == NULL || fgets(off, sizeof(off), f) == NULL)
		snprintf(off, sizeof(off), "missing");
	if (f != NULL)
		fclose(f);
	off[strcspn(off, "\n")] = '\0';
	snprintf(def, sizeof(def), "p:cslimit/%s %s:%s\n", event, prog, off);
	if (!tracefs_write("uprobe_events", def, O_APPEND))
		return;
	snprintf(file, sizeof(file), "events/cslimit/%s/enable", event);
	if (!tracefs_write(file, "1", 0))
		return;
	before = uprobe_hits(prog, event);
	snprintf(want, sizeof(want), "%d", UPROBE_HITS);
	out = run(prog, "uprobe", want, NULL);
	after = uprobe_hits(prog, event);
	snprintf(got, sizeof(got), "%ld", before < 0 ? -1 : after - before);
	check_eq(&tally, level, subject, "uprobe:hits", want, got);
	check_eq(&tally, level, subject, "uprobe:result",
		 field(out, "uprobe-want"), field(out, "uprobe-sum"));
	sscanf(field(out, "xol"), "%lx-%lx", &xs, &xe);
	check(&tally, xe != 0, level, subject, "uprobe:xol-mapped", "yes",
	      field(out, "xol"));
	if (m == LIMIT)
		check(&tally, xe != 0 && xe <= ARMOR_END, level, subject,
		      "uprobe:xol<16MiB", "yes", field(out, "xol"));
	judge_copies(subject, mark, k, out);
	free(out);
	tracefs_write(file, "0", 0);
	snprintf(def, sizeof(def), "-:cslimit/%s\n", event);
	tracefs_write("uprobe_events", def, O_APPEND);
}

static void uprobes(void)
{
	size_t i, j;

	mkdir(TRACEFS, 0555);
	if (mount("nodev", TRACEFS, "tracefs", 0, NULL) != 0) {
		check(&tally, false, level, "kernel", "tracefs", "mounted",
		      strerror(errno));
		return;
	}
	for (i = 0; i < NKINDS; i++)
		for (j = 0; j < 2; j++)
			uprobe_one(&kinds[i], marks[j]);
}

/* The boot log names the mechanism in use. */
static void boot_log(void)
{
	char *log = klog();
	bool emu, nxmsg;

	emu = strstr(log, "using the code segment limit to approximate NX");
	nxmsg = strstr(log, "NX protection in use");
	check_eq(&tally, level, "kernel", "log:emulation", nx ? "no" : "yes",
		 emu ? "yes" : "no");
	check_eq(&tally, level, "kernel", "log:nx-in-use", nx ? "yes" : "no",
		 nxmsg ? "yes" : "no");
	free(log);
}

static bool cpu_has_nx(void)
{
	char line[2048];
	FILE *f = fopen("/proc/cpuinfo", "r");
	bool found = false;

	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "flags", 5) == 0 &&
		    (strstr(line, " nx ") || strstr(line, " nx\n")))
			found = true;
	if (f != NULL)
		fclose(f);
	return found;
}

/*
 * Whether the kernel's page tables are PAE's: /proc/meminfo counts the
 * direct map's large pages as "DirectMap2M" with PAE and "DirectMap4M"
 * without (arch_report_meminfo(), arch/x86/mm/pat/set_memory.c). -1 if it
 * says neither.
 */
static int kernel_pae(void)
{
	char line[256];
	FILE *f = fopen("/proc/meminfo", "r");
	int pae = -1;

	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "DirectMap2M:", 12) == 0)
			pae = 1;
		else if (strncmp(line, "DirectMap4M:", 12) == 0)
			pae = 0;
	}
	if (f != NULL)
		fclose(f);
	return pae;
}

static void picture(void)
{
	char *out = run("/bin/cspie-noexec", "maps", NULL);
	char *p, *nl;

	for (p = out; p != NULL && *p != '\0'; p = nl) {
		nl = strchr(p, '\n');
		if (nl != NULL)
			*nl++ = '\0';
		if (strncmp(p, "maps ", 5) == 0)
			printf("PICTURE %s\n", p + 5);
		else if (strncmp(p, "limit ", 6) == 0)
			printf("PICTURE %s\n", p);
	}
	free(out);
}

/*
 * Five rounds, each running the protected and the flat program in turn,
 * so that drift in the emulator hits both alike; each measure's median,
 * with the extremes to show the spread.
 */
static void bench(void)
{
	enum { ROUNDS = 5, PROGS = 2, MEASURES = 4 };
	static const char *const progs[PROGS] = {
		"/bin/cs-noexec", "/bin/cs-exec"
	};
	static const char *const measures[MEASURES] = {
		"pingpong-us", "mmap-rw-us", "mmap-x-us",
		"mprotect-x-munmap-us"
	};
	double r[PROGS][MEASURES][ROUNDS];
	int round, i, k;

	for (round = 0; round < ROUNDS; round++)
		for (i = 0; i < PROGS; i++) {
			char *out = run(progs[i], "bench", "20000", NULL);
			char key[32];

			for (k = 0; k < MEASURES; k++) {
				snprintf(key, sizeof(key), "bench %s",
					 measures[k]);
				/* A run that did not report: -1, visibly. */
				r[i][k][round] = strcmp(field(out, key),
							"missing") == 0 ?
					-1 : atof(field(out, key));
			}
			free(out);
		}
	for (i = 0; i < PROGS; i++)
		for (k = 0; k < MEASURES; k++) {
			double *v = r[i][k];

			sort_doubles(v, ROUNDS);
			printf("BENCH %s nx=%d %s %.2f min %.2f max %.2f rounds %d\n",
			       progs[i] + 5, nx, measures[k], v[ROUNDS / 2],
			       v[0], v[ROUNDS - 1], ROUNDS);
		}
}

int main(void)
{
	char cmdline[1024], *p;
	bool cpu_nx;
	int pae;
	size_t i;

	boot_begin(cmdline, sizeof(cmdline));
	if ((p = strstr(cmdline, "exec-shield=")) != NULL) {
		level = atoi(p + 12);
		if (level < 0 || level > 3)
			level = 2;
	}
	tally.scenario = strstr(cmdline, "chstk.test=bench") ? "bench" :
		"cslimit";
	if (strstr(cmdline, "chstk.near=checked"))
		near_enforced = 1;
	cpu_nx = cpu_has_nx();
	pae = kernel_pae();
	nx = cpu_nx && pae == 1;
	printf("cslimit-init: level %d, nx %d (cpu nx %d, pae %d)\n", level,
	       nx, cpu_nx, pae);

	if (strcmp(tally.scenario, "bench") == 0) {
		bench();
	} else {
		check(&tally, pae >= 0, level, "kernel", "meminfo:page-tables",
		      "known",
		      pae == 1 ? "pae" : pae == 0 ? "2-level" : "unknown");
		boot_log();
		copies();
		uprobes();
		for (i = 0; i < 2; i++) {
			mprotect_steps(marks[i]);
			smp(marks[i]);
			fork_exec(marks[i]);
			pingpong(marks[i]);
			signals(marks[i]);
			segments(marks[i]);
			trampoline(marks[i]);
		}
		if (level == 2 && !nx)
			picture();
	}
	boot_end(&tally);
}
