/*
 * replay.c - runs a fuzz target's checks on given inputs, without
 * libFuzzer: any compiler builds it, so every build replays the seed corpus
 * and the inputs that once broke the library (fuzz/regress/). Each argument
 * is a file or a directory of files. A broken promise aborts.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static unsigned long replayed;

static int
replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (f == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			if (buf == NULL) {
				fprintf(stderr, "replay: out of memory\n");
				exit(2);
			}
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	replayed++;
	return 0;
}

static int
replay(const char *path)
{
	struct dirent **names;
	struct stat st;
	char sub[4096];
	int i, n, r = 0;

	if (stat(path, &st) == -1) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path);
	n = scandir(path, &names, NULL, alphasort);
	if (n == -1) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s/%s", path,
			    names[i]->d_name);
			r |= replay(sub);
		}
		free(names[i]);
	}
	free(names);
	return r;
}

int
main(int argc, char **argv)
{
	int i, r = 0;

	for (i = 1; i < argc; i++)
		r |= replay(argv[i]);
	printf("replayed %lu inputs\n", replayed);
	return r ? 2 : 0;
}
