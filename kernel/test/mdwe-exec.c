/*
 * mdwe-exec: start a program as systemd starts a service with
 * MemoryDenyWriteExecute=yes on a kernel that has PR_SET_MDWE (Linux 6.3
 * and later), for kernel/mdwe.sh's /init.
 *
 *   mdwe-exec [-m] [VAR=VALUE...] PROGRAM [ARG...]
 *   mdwe-exec -q
 *
 * -m sets prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) before
 * execve(), the call and the flags of systemd's
 * apply_memory_deny_write_execute() (src/core/exec-invoke.c in v255,
 * src/core/execute.c in v254), and checks with PR_GET_MDWE that it is in
 * force; without -m the program starts the same way, unprotected (the
 * control). Either way it starts a session of its own (setsid()), as
 * systemd does for a service, so that kernel/mdwe.sh's /init can end the
 * program and whatever it started. Leading VAR=VALUE words are added to
 * the environment, as a unit's Environment= does. The flag is not PR_MDWE_NO_INHERIT, so it
 * survives the execve(): -q prints what PR_GET_MDWE says in the program
 * that runs, so "mdwe-exec -m mdwe-exec -q" shows the inheritance.
 *
 * Exit status: the program's; 125 if the prctl() failed, 126 on a usage
 * error, 127 if the execve() failed (as env(1) has it).
 *
 * Built with -DMDWE_EXEC_NO_PRCTL, -m sets nothing: the negative control
 * of kernel/mdwe.sh, whose checks must then fail.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* From include/uapi/linux/prctl.h (Linux 6.3), which glibc 2.36 lacks. */
#ifndef PR_SET_MDWE
#define PR_SET_MDWE 65
#define PR_MDWE_REFUSE_EXEC_GAIN (1UL << 0)
#define PR_GET_MDWE 66
#endif

#define EXIT_PRCTL 125
#define EXIT_USAGE 126
#define EXIT_EXEC 127

static int set_mdwe(void)
{
#ifndef MDWE_EXEC_NO_PRCTL
	int got;

	if (prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0L, 0L, 0L) != 0) {
		fprintf(stderr, "mdwe-exec: prctl PR_SET_MDWE: %s\n",
			strerror(errno));
		return -1;
	}
	got = prctl(PR_GET_MDWE, 0L, 0L, 0L, 0L);
	if (got != (int)PR_MDWE_REFUSE_EXEC_GAIN) {
		fprintf(stderr, "mdwe-exec: prctl PR_GET_MDWE: %d after PR_SET_MDWE\n",
			got);
		return -1;
	}
#endif
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: mdwe-exec [-m] [VAR=VALUE...] PROGRAM [ARG...]\n"
		"       mdwe-exec -q\n");
	return EXIT_USAGE;
}

int main(int argc, char *argv[])
{
	int i = 1;

	if (argc == 2 && strcmp(argv[1], "-q") == 0) {
		int got = prctl(PR_GET_MDWE, 0L, 0L, 0L, 0L);

		if (got < 0)
			printf("PR_GET_MDWE error %s\n", strerror(errno));
		else
			printf("PR_GET_MDWE %d\n", got);
		return got < 0;
	}
	if (i < argc && strcmp(argv[i], "-m") == 0) {
		if (set_mdwe() != 0)
			return EXIT_PRCTL;
		i++;
	}
	for (; i < argc && strchr(argv[i], '=') != NULL && argv[i][0] != '/';
	     i++) {
		if (putenv(argv[i]) != 0) {
			fprintf(stderr, "mdwe-exec: %s: %s\n", argv[i],
				strerror(errno));
			return EXIT_USAGE;
		}
	}
	if (i >= argc || argv[i][0] == '-')
		return usage();
	setsid();
	execv(argv[i], argv + i);
	fprintf(stderr, "mdwe-exec: %s: exec: %s\n", argv[i], strerror(errno));
	return EXIT_EXEC;
}
