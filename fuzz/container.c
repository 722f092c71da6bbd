/*
 * container.c - fuzz target for elfscan's container path: any bytes, on a
 * memfd, are read as a package, wheel or tarball by libarchive, and each
 * ELF member or .a inside goes to the library as a stream, as elfscan does
 * (src/elfscan/container.c), with the hardening read (--hardening: the
 * stream kept whole, the dynamic section, property note and symbol tables
 * read in bounded pieces). Whatever the input, nothing may crash, hang,
 * leak or touch memory it does not own, and every batch handed on must be
 * possible: named for the file, an image with a name and a sane info, a
 * message of one line. A file that is no container is read as a tarball,
 * so that libarchive's format detection sees every input.
 */
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "container.h"

static const char path[] = "input";

static void
check_batch(void *arg, const struct batch *b)
{
	unsigned long *seen = arg;
	size_t i;

	must(b->at.path == path);
	must(b->n > 0);
	for (i = 0; i < b->n; i++) {
		const struct found *f = &b->v[i];

		(*seen)++;
		if (f->kind == FOUND_IMAGE) {
			must(f->member != NULL && f->member[0] != '\0');
			must(f->msg == NULL);
			must(f->info.state <= CHSTK_NOEXEC);
			must(f->info.kind <= CHSTK_KIND_OBJECT);
			must(f->info.elf_class == 1 || f->info.elf_class == 2);
			must(!f->info.pie ||
			    f->info.kind == CHSTK_KIND_PROGRAM);
			/* A member cut short: without what is gone. */
			must(f->info.hardening != NULL || f->info.cut);
			must(f->info.hardening == NULL ||
			    (strlen(f->info.hardening->rpath) <
			    CHSTK_PATH_LEN && strlen(f->info.hardening->runpath) <
			    CHSTK_PATH_LEN));
			continue;
		}
		must(f->kind == FOUND_MALFORMED || f->kind == FOUND_DAMAGED ||
		    f->kind == FOUND_ERROR);
		must(f->kind == FOUND_ERROR || f->member != NULL);
		must(f->msg != NULL && f->msg[0] != '\0');
		must(strchr(f->msg, '\n') == NULL);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long seen = 0;
	struct container_out out = { .found = check_batch, .arg = &seen,
	    .hardening = true };
	enum container kind;
	int fd;

	kind = size > 0 ? container_kind(data, size < 512 ? size : 512) :
	    CONTAINER_NONE;
	fd = fuzz_memfd(data, size);
	must(lseek(fd, 0, SEEK_SET) == 0);
	container_scan(fd, path, kind != CONTAINER_NONE ? kind : CONTAINER_TAR,
	    &out);
	close(fd);
	return 0;
}
