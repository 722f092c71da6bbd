/*
 * mdwe-init: the /init of kernel/mdwe.sh's boot, which shows what the
 * booted kernel does to programs started as systemd starts a service with
 * MemoryDenyWriteExecute=yes. It judges nothing: it runs and reports, and
 * the tests that call kernel/mdwe.sh judge.
 *
 * The plan, /.mdwe/plan, holds one run a line, its fields separated by
 * tabs: a name, a time limit in seconds, then the argv of the program
 * (VAR=VALUE words first, then an absolute path). Each run goes twice
 * through the wrapper /.mdwe/exec (test/mdwe-exec.c): first as is, the
 * control, then with -m, which sets PR_SET_MDWE before execve(). For each
 * it prints, on the console:
 *
 *   MDWE-OUT NAME MODE TEXT      a line the program printed (stdout and
 *                                stderr, in order), at most OUT_MAX bytes
 *   MDWE-CUT NAME MODE N         N more bytes were printed but not shown
 *   MDWE-END NAME MODE VERDICT   exit N, signal N, timeout N (still
 *                                running after N seconds, then killed),
 *                                or error TEXT (it could not be started)
 *
 * MODE is "control" or "mdwe". Before the runs, MDWE-KERNEL gives uname's
 * release, version and machine; at the end, initlib's DONE line counts as
 * passes the runs whose end was seen and as failures those that could
 * not be started, so that kernel/mdwe.sh knows the boot went through.
 */
#define _GNU_SOURCE
#include "initlib.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define PLAN "/.mdwe/plan"
#define WRAPPER "/.mdwe/exec"
#define ARGS_MAX 64
#define OUT_MAX 65536

/* What a service finds: a few devices, /tmp, systemd's default PATH. */
static void setup(void)
{
	static const struct { const char *path; unsigned minor; } dev[] = {
		{ "/dev/null", 3 }, { "/dev/zero", 5 }, { "/dev/full", 7 },
		{ "/dev/random", 8 }, { "/dev/urandom", 9 },
	};
	struct utsname u;
	size_t i;

	mkdir("/dev", 0755);
	for (i = 0; i < sizeof(dev) / sizeof(dev[0]); i++)
		if (mknod(dev[i].path, S_IFCHR | 0666, makedev(1, dev[i].minor))
		    != 0 && errno != EEXIST)
			printf("MDWE-SETUP %s: %s\n", dev[i].path,
			       strerror(errno));
	mkdir("/tmp", 01777);
	mkdir("/run", 0755);
	clearenv();
	setenv("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	       1);
	if (uname(&u) == 0)
		printf("MDWE-KERNEL %s %s %s\n", u.release, u.version,
		       u.machine);
}

/* Print out as MDWE-OUT lines, at most OUT_MAX bytes of it. */
static void print_output(const char *name, const char *mode, const char *out)
{
	size_t shown = 0, total = strlen(out);
	const char *p;

	for (p = out; *p != '\0' && shown < OUT_MAX; p = next_line(p)) {
		size_t n = strcspn(p, "\n");

		printf("MDWE-OUT %s %s %.*s\n", name, mode, (int)n, p);
		shown += n + 1;
		if (p[n] == '\0')
			break;
	}
	if (shown < total)
		printf("MDWE-CUT %s %s %zu\n", name, mode, total - shown);
}

/* One run in one mode: argv is the program's, mdwe says whether -m. */
static void run_one(struct tally *t, const char *name, int seconds,
		    char **argv, int argc, bool mdwe)
{
	const char *mode = mdwe ? "mdwe" : "control";
	char *wargv[ARGS_MAX + 3];
	struct child ch;
	bool timed_out;
	int i, n = 0, status;
	char *out;

	wargv[n++] = (char *)WRAPPER;
	if (mdwe)
		wargv[n++] = (char *)"-m";
	for (i = 0; i < argc; i++)
		wargv[n++] = argv[i];
	wargv[n] = NULL;
	if (spawn(&ch, wargv) != 0) {
		printf("MDWE-END %s %s error spawn: %s\n", name, mode,
		       strerror(errno));
		t->fail++;
		return;
	}
	out = finish_within(&ch, seconds, &status, &timed_out);
	print_output(name, mode, out);
	free(out);
	if (timed_out)
		printf("MDWE-END %s %s timeout %d\n", name, mode, seconds);
	else if (WIFSIGNALED(status))
		printf("MDWE-END %s %s signal %d\n", name, mode,
		       WTERMSIG(status));
	else
		printf("MDWE-END %s %s exit %d\n", name, mode,
		       WEXITSTATUS(status));
	t->pass++;
}

/* A plan line, split at tabs in place: NAME, SECONDS, argv. */
static void run_line(struct tally *t, char *line)
{
	char *field[ARGS_MAX + 2];
	int n = 0, seconds;
	char *p = line, *end;

	line[strcspn(line, "\n")] = '\0';
	while (p != NULL && n < ARGS_MAX + 2) {
		field[n++] = p;
		p = strchr(p, '\t');
		if (p != NULL)
			*p++ = '\0';
	}
	seconds = n >= 3 ? (int)strtol(field[1], &end, 10) : 0;
	if (n < 3 || p != NULL || *end != '\0' || seconds <= 0) {
		printf("MDWE-END %s plan error bad line\n",
		       n > 0 ? field[0] : "?");
		t->fail++;
		return;
	}
	run_one(t, field[0], seconds, field + 2, n - 2, false);
	run_one(t, field[0], seconds, field + 2, n - 2, true);
}

int main(void)
{
	struct tally t = { .scenario = "mdwe" };
	char cmdline[1024], *line = NULL;
	size_t size = 0;
	FILE *plan;

	boot_begin(cmdline, sizeof(cmdline));
	setup();
	plan = fopen(PLAN, "r");
	if (plan == NULL) {
		printf("MDWE-END plan - error %s: %s\n", PLAN, strerror(errno));
		t.fail++;
		boot_end(&t);
	}
	while (getline(&line, &size, plan) != -1)
		run_line(&t, line);
	free(line);
	fclose(plan);
	boot_end(&t);
}
