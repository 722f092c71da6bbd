/*
 * killat.c - run a program and send it SIGKILL after a number of
 * microseconds, for the kill tests. Usage: killat USEC PROGRAM [ARG...]
 * Prints "killed USEC" when the signal found the program running, or
 * "exited STATUS USEC" when it had finished first, USEC being how long it
 * ran. Exits 2 when the program cannot be started.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long
since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000000L +
	    (t.tv_nsec - t0->tv_nsec) / 1000;
}

int
main(int argc, char **argv)
{
	struct timespec t0, delay;
	sigset_t chld;
	long usec;
	pid_t pid;
	int status;

	if (argc < 3) {
		fprintf(stderr, "usage: killat USEC PROGRAM [ARG...]\n");
		return 2;
	}
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	usec = strtol(argv[1], NULL, 10);
	delay.tv_sec = usec / 1000000;
	delay.tv_nsec = usec % 1000000 * 1000;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == -1) {
		perror("killat: fork");
		return 2;
	}
	if (pid == 0) {
		sigprocmask(SIG_UNBLOCK, &chld, NULL);
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	/* Wait for the delay or the program's end, whichever comes first. */
	while (sigtimedwait(&chld, NULL, &delay) == -1 && errno == EINTR)
		;
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR) {
			perror("killat: waitpid");
			return 2;
		}
	usec = since(&t0);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		printf("killed %ld\n", usec);
	else
		printf("exited %d %ld\n", WIFEXITED(status) ?
		    WEXITSTATUS(status) : 128 + WTERMSIG(status), usec);
	return 0;
}
