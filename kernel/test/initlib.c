/*
 * initlib.c: the plumbing shared by the harness's two /init programs; the
 * API and its contracts are in initlib.h.
 */
#define _GNU_SOURCE
#include "initlib.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define RUN_MAX_ARGS 6

/*
 * /init has nothing to fall back on: it says what ran out, and the boot
 * ends without DONE, which check-kernel.sh reports as a failure.
 */
static void *xrealloc(void *p, size_t size, const char *what)
{
	void *q = realloc(p, size);

	if (q == NULL) {
		printf("error %s: %s\n", what, strerror(ENOMEM));
		exit(1);
	}
	return q;
}

/* ---- A boot ---- */

void boot_begin(char *cmdline, size_t size)
{
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("\n");	/* a kernel message may still hold the line */
	mkdir("/proc", 0555);
	mount("proc", "/proc", "proc", 0, NULL);
	cmdline[0] = '\0';
	fd = open("/proc/cmdline", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, cmdline, size - 1);

		cmdline[n > 0 ? n : 0] = '\0';
		close(fd);
	}
}

void report(struct tally *t, enum verdict v, int level, const char *subject,
	    const char *aspect, const char *want, const char *got)
{
	static const char *const name[] = { "PASS", "FAIL", "SKIP" };
	char g[160];
	size_t i;

	/* got is the last field: it must be one word, and present. */
	snprintf(g, sizeof(g), "%s", got[0] != '\0' ? got : "empty");
	for (i = 0; g[i] != '\0'; i++)
		if (g[i] == ' ' || g[i] == '\n')
			g[i] = '_';
	printf("RESULT %s %s %d %s %s %s %s\n", name[v], t->scenario, level,
	       subject, aspect, want, g);
	if (v == VERDICT_PASS)
		t->pass++;
	else if (v == VERDICT_FAIL)
		t->fail++;
	else
		t->skip++;
}

void check(struct tally *t, bool ok, int level, const char *subject,
	   const char *aspect, const char *want, const char *got)
{
	report(t, ok ? VERDICT_PASS : VERDICT_FAIL, level, subject, aspect,
	       want, got);
}

void check_eq(struct tally *t, int level, const char *subject,
	      const char *aspect, const char *want, const char *got)
{
	check(t, strcmp(want, got) == 0, level, subject, aspect, want, got);
}

void boot_end(const struct tally *t)
{
	if (t->counts_skips)
		printf("DONE %s pass=%d fail=%d skip=%d\n", t->scenario,
		       t->pass, t->fail, t->skip);
	else
		printf("DONE %s pass=%d fail=%d\n", t->scenario, t->pass,
		       t->fail);
	tcdrain(STDOUT_FILENO);
	sync();
	reboot(RB_AUTOBOOT);
	exit(0);	/* reboot() failed: the kernel panics, as good an end */
}

/* ---- Running a probe ---- */

/* Close both ends of pipe p, keeping errno for the caller. */
static void close_pipe(const int p[2])
{
	int err = errno;

	close(p[0]);
	close(p[1]);
	errno = err;
}

int spawn(struct child *ch, char *const argv[])
{
	int in[2], out[2];

	if (pipe(in) != 0)
		return -1;
	if (pipe(out) != 0)
		goto close_in;
	ch->pid = fork();
	if (ch->pid < 0)
		goto close_out;
	if (ch->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(out[1], 2);
		close(in[0]); close(in[1]); close(out[0]); close(out[1]);
		execv(argv[0], argv);
		/* Not stdio: _exit() would not flush its copy of stdout. */
		dprintf(1, "error exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	ch->in = in[1];
	ch->out = out[0];
	return 0;

close_out:
	close_pipe(out);
close_in:
	close_pipe(in);
	return -1;
}

char *finish(struct child *ch, int *status)
{
	size_t len = 0, cap = 65536;
	char *buf = xrealloc(NULL, cap + 1, "finish");
	ssize_t n;
	int st;

	close(ch->in);
	while ((n = read(ch->out, buf + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len == cap)
			buf = xrealloc(buf, (cap *= 2) + 1, "finish");
	}
	close(ch->out);
	waitpid(ch->pid, &st, 0);
	if (status != NULL)
		*status = st;
	buf[len] = '\0';
	return buf;
}

/* Milliseconds from now until the CLOCK_MONOTONIC time end, at least 0. */
static int ms_until(const struct timespec *end)
{
	struct timespec now;
	long long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (end->tv_sec - now.tv_sec) * 1000LL +
	     (end->tv_nsec - now.tv_nsec) / 1000000;
	return ms > 0 ? (int)ms : 0;
}

char *finish_within(struct child *ch, int seconds, int *status,
		    bool *timed_out)
{
	size_t len = 0, cap = 65536;
	char *buf = xrealloc(NULL, cap + 1, "finish_within");
	struct pollfd pfd = { .fd = ch->out, .events = POLLIN };
	struct timespec end;
	ssize_t n;
	int st;

	*timed_out = false;
	close(ch->in);
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += seconds;
	for (;;) {
		int r = poll(&pfd, 1, ms_until(&end));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (r == 0) {
			*timed_out = true;
			kill(-ch->pid, SIGKILL);
			kill(ch->pid, SIGKILL);
			break;
		}
		n = read(ch->out, buf + len, cap - len);
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len == cap)
			buf = xrealloc(buf, (cap *= 2) + 1, "finish_within");
	}
	close(ch->out);
	waitpid(ch->pid, &st, 0);
	if (status != NULL)
		*status = st;
	buf[len] = '\0';
	return buf;
}

char *run_status(int *status, const char *prog, ...)
{
	char *argv[RUN_MAX_ARGS + 2] = { (char *)prog };
	size_t n = 1;
	struct child ch;
	const char *a;
	char *out;
	va_list ap;

	va_start(ap, prog);
	while ((a = va_arg(ap, const char *)) != NULL && n <= RUN_MAX_ARGS)
		argv[n++] = (char *)a;
	va_end(ap);
	if (a != NULL) {
		out = xrealloc(NULL, 64, "run");
		snprintf(out, 64, "error run: more than %d arguments",
			 RUN_MAX_ARGS);
		return out;
	}
	if (spawn(&ch, argv) != 0) {
		out = xrealloc(NULL, 64, "run");
		snprintf(out, 64, "error spawn: %s", strerror(errno));
		return out;
	}
	return finish(&ch, status);
}

/* ---- What a probe printed ---- */

const char *next_line(const char *p)
{
	p = strchr(p, '\n');
	return p != NULL ? p + 1 : NULL;
}

const char *field_copy(const char *out, const char *key, char *val,
		       size_t size)
{
	size_t k = strlen(key);
	const char *p;

	for (p = out; p != NULL && *p != '\0'; p = next_line(p)) {
		if (strncmp(p, key, k) == 0 && p[k] == ' ') {
			size_t n = strcspn(p + k + 1, "\n");

			snprintf(val, size, "%.*s", (int)n, p + k + 1);
			return val;
		}
	}
	snprintf(val, size, "missing");
	return val;
}

/* ---- The kernel, and figures ---- */

char *klog(void)
{
	int size = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf = xrealloc(NULL, size > 0 ? (size_t)size + 1 : 1, "klog");
	int n = size > 0 ? klogctl(3, buf, size) : 0;	/* READ_ALL */

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void sort_doubles(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}
