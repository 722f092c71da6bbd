/*
 * init: the /init of the exec-shield test initramfs (static, 64-bit).
 *
 * The kernel command line says what to do:
 *   chstk.test=boot     check the level given by exec-shield=N (2 without
 *                       one, or with a value outside 0-3)
 *   chstk.test=switch   check the default, then set each level through
 *                       /proc/sys/kernel/exec-shield and check it, refused
 *                       writes, and programs that outlive a change
 *   chstk.test=bench    time exec and mmap at level 0 and at level 2
 *
 * Each check prints one line
 *   RESULT PASS|FAIL|SKIP <scenario> <level> <subject> <aspect> <want> <got>
 * and the run ends with "DONE <scenario>", then reboot(): qemu -no-reboot
 * exits. What a check wants comes from the rules in "The policy" below,
 * which restate the seed's levels; the probes only report what they got.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "initlib.h"

#define ARMOR_START 0x00110000UL /* 1 MiB + 64 KiB */
#define ARMOR_END   0x01000000UL /* 16 MiB */
#define READ_IMPLIES_EXEC 0x0400000
#define SYSCTL "/proc/sys/kernel/exec-shield"
#define RANDOMIZE "/proc/sys/kernel/randomize_va_space"
#define BLOB "/data/blob"
#define BLOB_SIZE (1024 * 1024)
#define RATELIMIT_BURST 10	/* printk_ratelimit defaults: 10 lines ... */
#define RATELIMIT_SECONDS 5	/* ... in 5 seconds */

enum mark { MARK_EXEC, MARK_NOEXEC, MARK_DEFAULT, NMARKS };
static const char *const mark_name[NMARKS] = { "exec", "noexec", "default" };

/* The test programs: /bin/<name>-<mark>, all built from probe.c. */
struct variant {
	const char *name;
	int bits;
	bool dynamic;
	bool low;	/* linked below 16 MiB (ld/elf_i386_small.x) */
	bool pie;	/* ET_DYN: PIE, or static-pie without ld.so */
	bool big;	/* too large for the armor (24 MiB .bss) */
};
static const struct variant variants[] = {
	{ "s64", 64, false, false, false, false },
	{ "s32", 32, false, false, false, false },
	{ "d64", 64, true, false, true, false },
	{ "d32", 32, true, false, true, false },
	{ "d32small", 32, true, true, false, false },
	{ "sp32", 32, false, false, true, false },
	{ "d32big", 32, true, false, true, true },
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

struct ctx {
	struct tally tally;
	bool level3_seen;	/* a level-3 exec of the exec programs ran */
};

/* ---- The policy: what the seed's levels promise ---- */

/* The stack: 0 all, 1 all but noexec, 2 only exec, 3 none. */
static bool want_exec_stack(int level, enum mark m)
{
	switch (level) {
	case 0: return true;
	case 1: return m != MARK_NOEXEC;
	case 2: return m == MARK_EXEC;
	default: return false;
	}
}

/*
 * READ_IMPLIES_EXEC: Linux gives it to unmarked 32-bit x86 programs; the
 * patch keeps that only while such a program still gets an executable stack
 * (levels 0 and 1).
 */
static bool want_rie(int level, enum mark m, int bits)
{
	return bits == 32 && m == MARK_DEFAULT && want_exec_stack(level, m);
}

/* The ASCII armor: 32-bit processes with a non-executable stack. */
static bool want_armor(int level, enum mark m, int bits)
{
	return bits == 32 && !want_exec_stack(level, m);
}

/*
 * The main program: a 32-bit PIE goes to the armor with its libraries when
 * its whole span fits; every other program stays where Linux puts it.
 */
static bool want_program_armor(int level, enum mark m, const struct variant *v)
{
	return want_armor(level, m, v->bits) && v->pie && !v->big;
}

/* Making the stack executable later: refused only at level 3. */
static bool want_mprotect_ok(int level)
{
	return level != 3;
}

/* ---- What a probe said ---- */

struct area {
	unsigned long start, end;
	bool found;
};

/*
 * Walk the "map" lines; for each mapping whose path ends with name (NULL:
 * every executable mapping), widen the area.
 */
static struct area find_area(const char *out, const char *name)
{
	struct area a = { -1UL, 0, false };
	const char *p;

	for (p = out; p != NULL && *p != '\0'; p = next_line(p)) {
		unsigned long s, e;
		char perms[8], path[256] = "";
		size_t pl, nl;

		if (sscanf(p, "map %lx-%lx %7s %*s %*s %*s %255s", &s, &e,
			   perms, path) < 3)
			continue;
		if (name == NULL ? perms[2] != 'x' :
		    ((pl = strlen(path)) < (nl = strlen(name)) ||
		     strcmp(path + pl - nl, name) != 0))
			continue;
		a.found = true;
		if (s < a.start)
			a.start = s;
		if (e > a.end)
			a.end = e;
	}
	return a;
}

static const char *stack_perm(const char *out)
{
	const char *p = strstr(out, "[stack]");

	if (p == NULL)
		return "missing";
	while (p > out && p[-1] != '\n')
		p--;
	p = strchr(p, ' ');
	p = p ? strchr(p + 1, ' ') : NULL;	/* skip "map" and the range */
	return p != NULL && p[3] == 'x' ? "X" : "-";
}

/* Where an area lies: in the armor, above it, or elsewhere. */
static const char *place(struct area a)
{
	if (!a.found)
		return "missing";
	if (a.start >= ARMOR_START && a.end <= ARMOR_END)
		return "armor";
	if (a.start >= ARMOR_END)
		return "high";
	return "other";
}

static void check_place_as(struct ctx *c, int level, const char *subject,
			   const char *aspect, const char *out, const char *name,
			   bool armor)
{
	struct area a = find_area(out, name);
	char got[64];

	snprintf(got, sizeof(got), "%s@%#lx", place(a), a.start);
	check(&c->tally, strcmp(place(a), armor ? "armor" : "high") == 0, level,
	      subject, aspect, armor ? "armor" : "high", got);
}

static void check_place(struct ctx *c, int level, const char *subject,
			const char *out, const char *name, bool armor)
{
	char aspect[64];

	snprintf(aspect, sizeof(aspect), "place-%s", name);
	check_place_as(c, level, subject, aspect, out, name, armor);
}

/* The highest executable address, below 16 MiB. */
static void check_highest_exec(struct ctx *c, int level, const char *subject,
			       const char *out)
{
	struct area x = find_area(out, NULL);
	char got[64];

	snprintf(got, sizeof(got), "%#lx", x.found ? x.end - 1 : 0);
	check(&c->tally, x.found && x.end <= ARMOR_END, level, subject,
	      "highest-exec-address", "<0x01000000", got);
}

/* ---- Small system helpers ---- */

static int read_int(const char *path, int *val)
{
	char buf[32];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	*val = atoi(buf);
	return 0;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		err = -errno;
	close(fd);
	return err;
}

static int set_level(int level)
{
	char s[8];

	snprintf(s, sizeof(s), "%d\n", level);
	return write_str(SYSCTL, s);
}

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY);
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t n = -1;

	if (in >= 0 && out >= 0)
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n) {
				n = -1;
				break;
			}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return n == 0 ? 0 : -1;
}

static bool exists(const char *path)
{
	return access(path, X_OK) == 0;
}

static void prog_path(char *buf, size_t size, const struct variant *v,
		      enum mark m)
{
	snprintf(buf, size, "/bin/%s-%s", v->name, mark_name[m]);
}

/* ---- The checks of one level ---- */

/* Stack, READ_IMPLIES_EXEC, mprotect and, for 32 bits, the armor. */
static void check_program(struct ctx *c, int level, const struct variant *v,
			  enum mark m)
{
	char prog[64], subject[64];
	const char *pers;
	char *out;
	bool armor = want_armor(level, m, v->bits);

	prog_path(prog, sizeof(prog), v, m);
	snprintf(subject, sizeof(subject), "%s-%s", v->name, mark_name[m]);
	out = run(prog, "maps", NULL);
	check_eq(&c->tally, level, subject, "stack",
		 want_exec_stack(level, m) ? "X" : "-", stack_perm(out));
	pers = field(out, "personality");
	check_eq(&c->tally, level, subject, "read-implies-exec",
		 want_rie(level, m, v->bits) ? "1" : "0",
		 strcmp(pers, "missing") == 0 ? "missing" :
		 strtoul(pers, NULL, 16) & READ_IMPLIES_EXEC ? "1" : "0");
	check_eq(&c->tally, level, subject, "mprotect-exec-stack",
		 want_mprotect_ok(level) ? "0" : "EACCES",
		 field(out, "mprotect"));
	if (v->bits == 32)
		check_place(c, level, subject, out, "[vdso]", armor);
	if (v->bits == 32 && v->dynamic) {
		check_place(c, level, subject, out, "ld-linux.so.2", armor);
		check_place(c, level, subject, out, "libc.so.6", armor);
	}
	if (v->bits == 64 && v->dynamic)
		check_place(c, level, subject, out, "libc.so.6", false);
	if (v->bits == 32 && v->pie) {
		/* The program itself, and its heap above the armor. */
		check_place_as(c, level, subject, "place-program", out, prog,
			       want_program_armor(level, m, v));
		check_place(c, level, subject, out, "[heap]", false);
	}
	if (v->bits == 32 && (v->low || want_program_armor(level, m, v)) &&
	    armor)
		check_highest_exec(c, level, subject, out);
	free(out);
}

/* dlopen() of a library marked exec, and of one marked noexec. */
static void check_dlopen(struct ctx *c, int level, const struct variant *v)
{
	char prog[64], lib[64], subject[64];
	const char *got;
	char *out;

	prog_path(prog, sizeof(prog), v, MARK_NOEXEC);
	snprintf(subject, sizeof(subject), "%s-noexec", v->name);
	snprintf(lib, sizeof(lib), "/lib/xstack%d-exec.so", v->bits);
	out = run(prog, "dlopen", lib, NULL);
	got = field(out, "dlopen");
	if (strstr(got, "cannot enable executable stack") != NULL)
		got = "refused";
	check_eq(&c->tally, level, subject, "dlopen-exec-lib",
		 want_mprotect_ok(level) ? "ok" : "refused", got);
	check_eq(&c->tally, level, subject, "stack-after-dlopen",
		 want_mprotect_ok(level) ? "X" : "-", stack_perm(out));
	free(out);

	snprintf(lib, sizeof(lib), "/lib/xstack%d-noexec.so", v->bits);
	out = run(prog, "dlopen", lib, NULL);
	check_eq(&c->tally, level, subject, "dlopen-noexec-lib", "ok",
		 field(out, "dlopen"));
	free(out);
}

/*
 * Map a 1 MiB file until the armor is full: the first mappings go in the
 * armor (when the process qualifies), the next ones above it; none fails.
 */
static void check_fill(struct ctx *c, int level)
{
	bool armor = want_armor(level, MARK_NOEXEC, 32);
	char *out = run("/bin/s32-noexec", "fill", BLOB, "24", NULL);
	int in = 0, high = 0, other = 0;
	bool order_ok = true;
	const char *p;
	char got[64];

	for (p = out; p != NULL && *p != '\0'; p = next_line(p)) {
		unsigned long a;

		if (strncmp(p, "fill ", 5) != 0)
			continue;
		if (sscanf(p, "fill %lx", &a) != 1) {
			other++;
		} else if (a >= ARMOR_START && a + BLOB_SIZE <= ARMOR_END) {
			in++;
			if (high > 0)	/* the armor had room after all */
				order_ok = false;
		} else if (a >= ARMOR_END) {
			high++;
		} else {
			other++;
		}
	}
	snprintf(got, sizeof(got), "%d-armor,%d-high,%d-other%s", in, high,
		 other, order_ok ? "" : ",unordered");
	check(&c->tally, other == 0 && order_ok && in + high == 24 &&
	      (armor ? in >= 1 && high >= 1 : in == 0), level, "s32-noexec",
	      "fill-1MiB-x24", armor ? "armor-then-high" : "all-high", got);
	free(out);
}

/*
 * Four runs of prog put the mappings of name at four places (not all the
 * same) in the armor, or above it.
 */
static void check_varies(struct ctx *c, int level, const char *prog,
			 const char *what, const char *name, bool armor)
{
	unsigned long first = 0;
	int distinct = 1, inside = 0;
	char subject[64], aspect[64], want[64], got[64];

	for (int i = 0; i < 4; i++) {
		char *out = run(prog, "maps", NULL);
		struct area a = find_area(out, name);

		inside += strcmp(place(a), armor ? "armor" : "high") == 0;
		if (i == 0)
			first = a.start;
		else if (a.start != first)
			distinct = 2;
		free(out);
	}
	snprintf(subject, sizeof(subject), "%s", prog + 5);
	snprintf(aspect, sizeof(aspect), "%s-randomized", what);
	snprintf(want, sizeof(want), "4/4-in-%s,varies", armor ? "armor" : "high");
	snprintf(got, sizeof(got), "%d/4-in-%s,%s", inside,
		 armor ? "armor" : "high", distinct > 1 ? "varies" : "fixed");
	check(&c->tally, inside == 4 && distinct > 1, level, subject, aspect,
	      want, got);
}

/* Several runs put ld.so, the PIE programs and their heaps elsewhere. */
static void check_random(struct ctx *c, int level)
{
	check_varies(c, level, "/bin/d32-noexec", "ld.so", "ld-linux.so.2",
		     true);
	check_varies(c, level, "/bin/d32-noexec", "program", "/bin/d32-noexec",
		     true);
	check_varies(c, level, "/bin/d32-noexec", "heap", "[heap]", false);
	check_varies(c, level, "/bin/sp32-noexec", "program",
		     "/bin/sp32-noexec", true);
	check_varies(c, level, "/bin/sp32-noexec", "heap", "[heap]", false);
}

/* The map lines of a probe's output, for comparing two runs. */
static char *map_lines(const char *out)
{
	size_t len = 0;
	char *m = malloc(strlen(out) + 1);
	const char *p;

	if (m == NULL)
		return NULL;
	for (p = out; p != NULL && *p != '\0'; p = next_line(p)) {
		size_t n = strcspn(p, "\n");

		if (strncmp(p, "map ", 4) == 0) {
			memcpy(m + len, p, n);
			m[len + n] = '\n';
			len += n + 1;
		}
	}
	m[len] = '\0';
	return m;
}

/*
 * Without randomization, by randomize_va_space=0 (norandmaps) and by the
 * ADDR_NO_RANDOMIZE personality (setarch -R): the armor fills from its
 * start, the PIE program first, and two runs give the same maps; the heap
 * of a program in the armor starts right above it.
 */
static void check_norandom_prog(struct ctx *c, int level,
				const struct variant *v, const char *how)
{
	enum mark m = MARK_NOEXEC;
	bool armor = want_program_armor(level, m, v);
	char prog[64], subject[64], aspect[64], got[64];
	const char *want;
	char *out[2], *maps[2];
	struct area a, h;

	prog_path(prog, sizeof(prog), v, m);
	snprintf(subject, sizeof(subject), "%s-noexec", v->name);
	for (int i = 0; i < 2; i++) {
		out[i] = run(prog, "maps", NULL);
		maps[i] = map_lines(out[i]);
	}
	a = find_area(out[0], prog);
	snprintf(aspect, sizeof(aspect), "program-%s", how);
	snprintf(got, sizeof(got), "%s@%#lx", place(a), a.start);
	check(&c->tally, armor ? a.start == ARMOR_START :
	      strcmp(place(a), "high") == 0, level, subject, aspect,
	      armor ? "armor@0x110000" : "high", got);
	if (armor) {
		h = find_area(out[0], "[heap]");
		snprintf(aspect, sizeof(aspect), "heap-%s", how);
		snprintf(got, sizeof(got), "%#lx", h.found ? h.start : 0);
		check_eq(&c->tally, level, subject, aspect, "0x1000000", got);
	}
	if (v->dynamic) {
		a = find_area(out[0], "ld-linux.so.2");
		snprintf(aspect, sizeof(aspect), "ld.so-%s", how);
		snprintf(got, sizeof(got), "%s@%#lx", place(a), a.start);
		want = want_armor(level, m, v->bits) ? "armor" : "high";
		check(&c->tally, strcmp(place(a), want) == 0, level, subject,
		      aspect, want, got);
	}
	snprintf(aspect, sizeof(aspect), "same-maps-%s", how);
	check_eq(&c->tally, level, subject, aspect, "same",
		 maps[0] != NULL && maps[1] != NULL && maps[0][0] != '\0' &&
		 strcmp(maps[0], maps[1]) == 0 ? "same" : "different");
	for (int i = 0; i < 2; i++) {
		free(out[i]);
		free(maps[i]);
	}
}

static void check_norandom(struct ctx *c, int level)
{
	static const struct variant *const progs[] = {
		&variants[3], &variants[5],	/* d32, sp32 */
	};
	int pers;

	if (write_str(RANDOMIZE, "0\n") != 0) {
		report(&c->tally, VERDICT_FAIL, level, "d32-noexec",
		       "norandom", "settable",
		       "randomize_va_space-not-writable");
		return;
	}
	for (size_t i = 0; i < 2; i++)
		check_norandom_prog(c, level, progs[i], "norandmaps");
	write_str(RANDOMIZE, "2\n");
	/* As setarch -R does: set it here, and the programs inherit it. */
	pers = personality(0xffffffff);
	if (pers == -1 ||
	    personality((unsigned long)pers | ADDR_NO_RANDOMIZE) == -1) {
		report(&c->tally, VERDICT_FAIL, level, "d32-noexec",
		       "setarch-R", "settable", strerror(errno));
		return;
	}
	for (size_t i = 0; i < 2; i++)
		check_norandom_prog(c, level, progs[i], "setarch-R");
	personality((unsigned long)pers);
}

/*
 * The log names each exec program once at level 3 and never the others.
 * Every exec program has run twice by now.
 */
static void check_log(struct ctx *c, int level)
{
	char *log = klog();

	for (size_t i = 0; i < NVARIANTS; i++) {
		for (int m = 0; m < NMARKS; m++) {
			char needle[96], subject[64], want[16], got[16];
			char prog[64];

			prog_path(prog, sizeof(prog), &variants[i], m);
			if (!exists(prog))
				continue;
			snprintf(needle, sizeof(needle), "exec-shield: %s (", prog);
			snprintf(subject, sizeof(subject), "%s-%s",
				 variants[i].name, mark_name[m]);
			snprintf(want, sizeof(want), "%d",
				 m == MARK_EXEC && c->level3_seen ? 1 : 0);
			snprintf(got, sizeof(got), "%d", count(log, needle));
			check_eq(&c->tally, level, subject, "log-lines", want,
				 got);
		}
	}
	free(log);
}

/*
 * Forty binaries asking for an executable stack at level 3, in a burst:
 * each may be named, but at most RATELIMIT_BURST lines per
 * RATELIMIT_SECONDS window that the burst overlaps.
 */
static void check_ratelimit(struct ctx *c, int level)
{
	enum { N = 40 };
	char path[32], want[32], got[32];
	double t0, secs;
	int named, bound;
	char *log;

	mkdir("/tmp", 0755);
	for (int i = 0; i < N; i++) {
		snprintf(path, sizeof(path), "/tmp/rl-%02d", i);
		copy_file("/bin/s64-exec", path);
	}
	t0 = now();
	for (int i = 0; i < N; i++) {
		snprintf(path, sizeof(path), "/tmp/rl-%02d", i);
		free(run(path, "true", NULL));
	}
	secs = now() - t0;
	log = klog();
	named = count(log, "exec-shield: /tmp/rl-");
	free(log);
	bound = RATELIMIT_BURST * ((int)(secs / RATELIMIT_SECONDS) + 2);
	snprintf(want, sizeof(want), "1..%d", bound);
	snprintf(got, sizeof(got), "%d-in-%.1fs", named, secs);
	if (bound >= N)
		report(&c->tally, VERDICT_SKIP, level, "40-exec-copies",
		       "log-ratelimit", want, "too-slow-to-exceed-the-limit");
	else
		check(&c->tally, named >= 1 && named <= bound, level,
		      "40-exec-copies", "log-ratelimit", want, got);
}

static void run_level(struct ctx *c, int level)
{
	for (size_t i = 0; i < NVARIANTS; i++) {
		char prog[64];

		prog_path(prog, sizeof(prog), &variants[i], MARK_EXEC);
		if (!exists(prog)) {
			report(&c->tally, VERDICT_SKIP, level,
			       variants[i].name, "all", "built",
			       "not-in-initramfs");
			continue;
		}
		for (int m = 0; m < NMARKS; m++)
			check_program(c, level, &variants[i], m);
		/* Once more, for the once-per-binary log. */
		free(run(prog, "true", NULL));
		if (variants[i].dynamic && !variants[i].big)
			check_dlopen(c, level, &variants[i]);
	}
	if (level == 3)
		c->level3_seen = true;
	check_fill(c, level);
	if (want_armor(level, MARK_NOEXEC, 32))
		check_random(c, level);
	check_norandom(c, level);
	check_log(c, level);
}

/* ---- Scenarios ---- */

static void check_sysctl(struct ctx *c, int level, const char *aspect)
{
	char want[8], got[32];
	int val, err = read_int(SYSCTL, &val);

	snprintf(want, sizeof(want), "%d", level);
	if (err != 0)
		snprintf(got, sizeof(got), "%s", strerror(-err));
	else
		snprintf(got, sizeof(got), "%d", val);
	check_eq(&c->tally, level, "sysctl", aspect, want, got);
}

/* The level the command line asks for; 2 when it asks for none. */
static int boot_level(const char *cmdline)
{
	const char *p = strstr(cmdline, "exec-shield=");

	if (p == NULL || p[12] < '0' || p[12] > '3' ||
	    (p[13] != ' ' && p[13] != '\n' && p[13] != '\0'))
		return 2;
	return p[12] - '0';
}

static void scenario_boot(struct ctx *c, const char *cmdline)
{
	int level = boot_level(cmdline);

	check_sysctl(c, level, "value-at-boot");
	run_level(c, level);
	if (level == 3)
		check_ratelimit(c, level);
}

static void check_refused_write(struct ctx *c, const char *value)
{
	char aspect[32], got[64];
	int err = write_str(SYSCTL, value), val = -1;

	read_int(SYSCTL, &val);
	snprintf(aspect, sizeof(aspect), "write-%.*s", (int)strcspn(value, "\n"),
		 value);
	snprintf(got, sizeof(got), "%s,now-%d", err == -EINVAL ? "EINVAL" :
		 err == 0 ? "accepted" : strerror(-err), val);
	check_eq(&c->tally, 3, "sysctl", aspect, "EINVAL,now-3", got);
}

/*
 * A program keeps the stack it started with: start it at one level, move
 * to another, then let it look.
 */
static void check_outlives(struct ctx *c, int from, int to, const char *prog,
			   enum mark m)
{
	char *argv[] = { (char *)prog, "wait", NULL };
	char subject[64], ready[8] = "";
	struct child ch;
	char *out;

	set_level(from);
	if (spawn(&ch, argv) != 0)
		return;
	if (read(ch.out, ready, 6) != 6)	/* "ready\n": it has started */
		ready[0] = '\0';
	set_level(to);
	if (write(ch.in, "\n", 1) != 1)
		ready[0] = '\0';
	out = finish(&ch, NULL);
	snprintf(subject, sizeof(subject), "%s-started-at-%d", prog + 5, from);
	check_eq(&c->tally, to, subject, "stack",
		 want_exec_stack(from, m) ? "X" : "-", stack_perm(out));
	check_eq(&c->tally, to, subject, "mprotect-exec-stack",
		 want_mprotect_ok(from) ? "0" : "EACCES",
		 field(out, "mprotect"));
	free(out);
}

static void scenario_switch(struct ctx *c)
{
	check_sysctl(c, 2, "default");
	for (int level = 0; level <= 3; level++) {
		char got[32];
		int err = set_level(level);

		snprintf(got, sizeof(got), "%s", err ? strerror(-err) : "ok");
		check_eq(&c->tally, level, "sysctl", "write", "ok", got);
		check_sysctl(c, level, "read-back");
		run_level(c, level);
	}
	check_refused_write(c, "4\n");
	check_refused_write(c, "-1\n");
	check_outlives(c, 0, 3, "/bin/s32-default", MARK_DEFAULT);
	check_outlives(c, 3, 0, "/bin/s64-exec", MARK_EXEC);
	set_level(2);
}

/* ---- Benchmark ---- */

static double time_execs(const char *prog, int n)
{
	double t0 = now();

	for (int i = 0; i < n; i++)
		free(run(prog, "true", NULL));
	return (now() - t0) / n * 1e6;
}

static double mmap_ns(const char *prog)
{
	char *out = run(prog, "bench-mmap", BLOB, "20000", NULL);
	double ns = atof(field(out, "ns"));

	free(out);
	return ns;
}

/*
 * Rounds alternate between the levels, so that drift hits both alike. The
 * noexec programs get the armor at level 2 and not at level 0 (the PIE
 * ones, sp32 and d32, with the program itself in it); the exec program and
 * the 64-bit one get the same at both levels: they are the control.
 */
static void scenario_bench(void)
{
	enum { ROUNDS = 5, KINDS = 7 };
	static const char *const kind[KINDS] = {
		"exec-static32-noexec-us", "exec-staticpie32-noexec-us",
		"exec-dynamic32-noexec-us",
		"exec-dynamic32-exec-us", "exec-dynamic64-noexec-us",
		"mmap-file32-noexec-ns", "mmap-file64-noexec-ns"
	};
	double r[2][KINDS][ROUNDS];

	for (int round = 0; round < ROUNDS; round++) {
		for (int l = 0; l < 2; l++) {
			set_level(l * 2);
			r[l][0][round] = time_execs("/bin/s32-noexec", 200);
			r[l][1][round] = time_execs("/bin/sp32-noexec", 200);
			r[l][2][round] = time_execs("/bin/d32-noexec", 100);
			r[l][3][round] = time_execs("/bin/d32-exec", 100);
			r[l][4][round] = time_execs("/bin/d64-noexec", 100);
			r[l][5][round] = mmap_ns("/bin/s32-noexec");
			r[l][6][round] = mmap_ns("/bin/s64-noexec");
		}
	}
	for (int k = 0; k < KINDS; k++) {
		sort_doubles(r[0][k], ROUNDS);
		sort_doubles(r[1][k], ROUNDS);
		printf("BENCH %s level0 %.1f level2 %.1f\n", kind[k],
		       r[0][k][ROUNDS / 2], r[1][k][ROUNDS / 2]);
	}
	set_level(2);
}

/* ---- Setup ---- */

static int make_blob(void)
{
	static char zero[BLOB_SIZE];
	int fd;

	mkdir("/data", 0755);
	fd = open(BLOB, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, zero, sizeof(zero)) != (ssize_t)sizeof(zero))
		return -1;
	return close(fd);
}

static void print_picture(const char *prog)
{
	char *out = run(prog, "maps", NULL);

	for (char *l = strtok(out, "\n"); l != NULL; l = strtok(NULL, "\n"))
		if (strncmp(l, "map ", 4) == 0)
			printf("PICTURE %s %s\n", prog + 5, l + 4);
	free(out);
}

int main(void)
{
	struct ctx c = {
		.tally = { .scenario = "none", .counts_skips = true },
	};
	char cmdline[1024];

	boot_begin(cmdline, sizeof(cmdline));
	if (make_blob() != 0)
		printf("error %s: %s\n", BLOB, strerror(errno));

	if (strstr(cmdline, "chstk.test=boot") != NULL) {
		c.tally.scenario = "boot";
		scenario_boot(&c, cmdline);
		if (boot_level(cmdline) == 2) {
			print_picture("/bin/d32-noexec");
			if (exists("/bin/d32small-noexec"))
				print_picture("/bin/d32small-noexec");
		}
	} else if (strstr(cmdline, "chstk.test=switch") != NULL) {
		c.tally.scenario = "switch";
		scenario_switch(&c);
	} else if (strstr(cmdline, "chstk.test=bench") != NULL) {
		c.tally.scenario = "bench";
		scenario_bench();
	}
	boot_end(&c.tally);
}
