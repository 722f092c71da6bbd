/* selfmaps.c: the armor fixtures' look at their own address space. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "selfmaps.h"

int print_self_exec_maps(FILE *out)
{
	char exe[PATH_MAX], line[PATH_MAX + 128], path[PATH_MAX];
	char range[64], perms[8];
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
		if (perms[2] == 'x' && strcmp(path, exe) == 0)
			fprintf(out, "self %s %s\n", range, perms);
	}
	fclose(maps);
	return 0;
}
