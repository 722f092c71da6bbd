/*
 * probe: report what the kernel gave this process, for init.c to judge.
 *
 *   probe maps             the personality, /proc/self/maps, then whether
 *                          mprotect() can make a stack page executable
 *   probe dlopen LIB       dlopen() LIB, then the stack's permissions
 *   probe wait             like maps, but only after a line on stdin
 *   probe fill FILE N      map FILE N times without an address hint
 *   probe bench-mmap FILE N  time N mmap()/munmap() pairs of FILE
 *   probe true             nothing (to time exec)
 *
 * Every line is "key value"; probe judges nothing itself. Built static and
 * dynamic, 32- and 64-bit, and marked exec, noexec and default by chstk.
 * With PROBE_BIG, a 24 MiB .bss makes the program too large for the ASCII
 * armor (16 MiB).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef PROBE_DLOPEN
#include <dlfcn.h>
#endif

static void print_maps(const char *key)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	if (f == NULL) {
		printf("error /proc/self/maps: %s\n", strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f) != NULL)
		printf("%s %s", key, line);
	fclose(f);
}

static void try_exec_stack(void)
{
	char here;
	uintptr_t page = (uintptr_t)&here & ~(uintptr_t)(getpagesize() - 1);

	if (mprotect((void *)page, 1, PROT_READ | PROT_WRITE | PROT_EXEC) == 0)
		printf("mprotect 0\n");
	else
		printf("mprotect %s\n", errno == EACCES ? "EACCES" : strerror(errno));
}

#ifdef PROBE_BIG
static char big[24 << 20];
#endif

static int cmd_maps(void)
{
#ifdef PROBE_BIG
	/* Written, so that no compiler can drop it. */
	big[sizeof(big) - 1] = 1;
	printf("big %p\n", (void *)big);
#endif
	printf("personality 0x%x\n", (unsigned int)personality(0xffffffff));
	print_maps("map");
	try_exec_stack();
	return 0;
}

static int cmd_wait(void)
{
	char line[16];

	printf("ready\n");
	fflush(stdout);
	if (fgets(line, sizeof(line), stdin) == NULL)
		return 1;
	return cmd_maps();
}

static int cmd_dlopen(const char *lib)
{
#ifdef PROBE_DLOPEN
	if (dlopen(lib, RTLD_NOW) != NULL)
		printf("dlopen ok\n");
	else
		printf("dlopen error %s\n", dlerror());
	print_maps("map");
	return 0;
#else
	(void)lib;
	printf("error dlopen: not in a static probe\n");
	return 1;
#endif
}

static int open_size(const char *file, size_t *size)
{
	struct stat st;
	int fd = open(file, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) != 0) {
		printf("error %s: %s\n", file, strerror(errno));
		return -1;
	}
	*size = (size_t)st.st_size;
	return fd;
}

static int cmd_fill(const char *file, long n)
{
	size_t size;
	int fd = open_size(file, &size);

	if (fd < 0)
		return 1;
	for (long i = 0; i < n; i++) {
		void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (p == MAP_FAILED)
			printf("fill error %s\n", strerror(errno));
		else
			printf("fill %#lx\n", (unsigned long)(uintptr_t)p);
	}
	return 0;
}

static int cmd_bench_mmap(const char *file, long n)
{
	struct timespec t0, t1;
	size_t size;
	int fd = open_size(file, &size);

	if (fd < 0)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++) {
		void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (p == MAP_FAILED || munmap(p, size) != 0) {
			printf("error mmap: %s\n", strerror(errno));
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("ns %lld\n", ((t1.tv_sec - t0.tv_sec) * 1000000000LL +
			     (t1.tv_nsec - t0.tv_nsec)) / n);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && strcmp(argv[1], "maps") == 0)
		return cmd_maps();
	if (argc == 2 && strcmp(argv[1], "wait") == 0)
		return cmd_wait();
	if (argc == 2 && strcmp(argv[1], "true") == 0)
		return 0;
	if (argc == 3 && strcmp(argv[1], "dlopen") == 0)
		return cmd_dlopen(argv[2]);
	if (argc == 4 && strcmp(argv[1], "fill") == 0)
		return cmd_fill(argv[2], strtol(argv[3], NULL, 10));
	if (argc == 4 && strcmp(argv[1], "bench-mmap") == 0)
		return cmd_bench_mmap(argv[2], strtol(argv[3], NULL, 10));
	fprintf(stderr, "usage: probe maps|wait|true|dlopen LIB|fill FILE N|bench-mmap FILE N\n");
	return 2;
}
