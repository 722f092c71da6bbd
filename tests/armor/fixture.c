/*
 * fixture.c: a C program for the armor tests.  Without arguments it prints
 * what static constructors, thread-local storage, stdio and calls through
 * function pointers did: the same whatever address it was linked at.  With
 * "maps" it prints its own executable mappings instead.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selfmaps.h"

static char ctor_order[8];
static int nctor;

/* Priorities run first, lowest first, through .init_array.NNNNN. */
__attribute__((constructor(102))) static void ctor_second(void)
{
	ctor_order[nctor++] = '2';
}

__attribute__((constructor(101))) static void ctor_first(void)
{
	ctor_order[nctor++] = '1';
}

__attribute__((constructor)) static void ctor_plain(void)
{
	ctor_order[nctor++] = 'p';
}

__attribute__((destructor)) static void dtor(void)
{
	printf("destructor ran\n");
}

static __thread int tls_counter = 40;
static __thread char tls_name[16] = "main";

static void *worker(void *arg)
{
	char *report = arg;

	tls_counter += 2;
	strcpy(tls_name, "worker");
	snprintf(report, 64, "%s sees %d", tls_name, tls_counter);
	return NULL;
}

static int by_value(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int stdio_roundtrip(void)
{
	FILE *f = tmpfile();
	char word[32];
	double x;
	int n = -1;

	if (f == NULL)
		return -1;
	fprintf(f, "armor %d %.3f\n", 16, 0.125);
	rewind(f);
	if (fscanf(f, "%31s %d %lf", word, &n, &x) == 3)
		printf("stdio read back: %s %d %.3f\n", word, n, x);
	fclose(f);
	return n == 16 ? 0 : -1;
}

int main(int argc, char **argv)
{
	int v[] = { 5, 3, 9, 1, 7 };
	char report[64] = "";
	pthread_t t;

	if (argc > 1 && strcmp(argv[1], "maps") == 0)
		return print_self_exec_maps(stdout) == 0 ? 0 : 1;

	printf("constructors ran in order %.*s\n", nctor, ctor_order);

	if (pthread_create(&t, NULL, worker, report) != 0 ||
	    pthread_join(t, NULL) != 0)
		return 1;
	printf("tls: %s; %s still sees %d\n", report, tls_name, tls_counter);

	qsort(v, sizeof v / sizeof v[0], sizeof v[0], by_value);
	printf("qsort: %d %d %d %d %d\n", v[0], v[1], v[2], v[3], v[4]);

	return stdio_roundtrip() == 0 ? 0 : 1;
}
