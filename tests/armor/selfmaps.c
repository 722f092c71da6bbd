/* selfmaps.c: the armor fixtures' look at their own address space. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "selfmaps.h"

int print_self_exec_maps(FILE *out)
{
	char exe[PATH_MAX], line[PATH_MAX + 128], path[PATH_MAX];
	char range[64], perms[8];
	unsigned long code = (unsigned long)(uintptr_t)&print_self_exec_maps;
	unsigned long lo, hi;
	ssize_t n;
	FILE *maps;

	/* Mappings name the file by its resolved path, as /proc/self/exe does. */
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n < 0)
		return -1;
	exe[n] = '\0';
	maps = fopen("/proc/self/maps", "r");
	if (maps == NULL)
		return -1;
	while (fgets(line, sizeof line, maps) != NULL) {
		path[0] = '\0';
		if (sscanf(line, "%63s %7s %*s %*s %*s %4095[^\n]", range, perms,
		    path) < 2)
			continue;
		/* qemu-user shows no mapping executable: there the one
		   holding this function is the program's code. */
		if (strcmp(path, exe) == 0 && (perms[2] == 'x' ||
		    (sscanf(range, "%lx-%lx", &lo, &hi) == 2 &&
		    lo <= code && code < hi)))
			fprintf(out, "self %s %s\n", range, perms);
	}
	fclose(maps);
	return 0;
}
