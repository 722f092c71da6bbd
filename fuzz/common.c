/*
 * common.c - the checks both fuzz targets make on what the library reports.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

void
fuzz_broken(const char *what, const char *file, int line)
{
	fprintf(stderr, "%s:%d: broken promise: %s\n", file, line, what);
	abort();
}

void
fuzz_check_error(int r, const struct chstk_error *err)
{
	size_t len = strnlen(err->msg, sizeof(err->msg));

	must(r >= CHSTK_ERR_INVAL && r <= CHSTK_ERR_SYS);
	must(err->code == r);
	must((r == CHSTK_ERR_SYS) == (err->sys_errno != 0) ||
	    r == CHSTK_ERR_NOMEM);
	must(len > 0 && len < sizeof(err->msg));
	must(strchr(err->msg, '\n') == NULL);
	must(err->msg[len - 1] != '.');
}

/* The callback: every report must be possible. */
static int
on_image(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct fuzz_scan *s = arg;
	unsigned char st;

	if (info == NULL) {
		must(err != NULL && member != NULL);
		fuzz_check_error(err->code, err);
		s->bad++;
		st = 0xff;
	} else {
		must(err == NULL);
		must(info->state <= CHSTK_NOEXEC);
		must(info->kind <= CHSTK_KIND_OBJECT);
		must(info->elf_class == 1 || info->elf_class == 2);
		must(info->data == 1 || info->data == 2);
		must(!info->pie || info->kind == CHSTK_KIND_PROGRAM);
		must(info->kind == CHSTK_KIND_OBJECT || info->wx <= info->loads);
		must(info->has_exec_code || info->exec_limit == 0);
		must((info->state == CHSTK_DEFAULT) <= (info->stack_flags == 0));
		must(info->exec_in_file <= info->has_exec_code ||
		    info->kind == CHSTK_KIND_OBJECT);
		must(info->abi_tag >= -1);
		must((info->kind == CHSTK_KIND_OBJECT) <=
		    (info->sections != NULL));
		must(info->sections == NULL ||
		    (info->sections->alloc <= info->sections->count &&
		    info->sections->alloc_bytes + info->sections->alloc_nobits <=
		    info->sections->alloc));
		st = (unsigned char)info->state;
	}
	if (s->images < FUZZ_MAX_IMAGES)
		s->state[s->images] = st;
	else
		s->overflow++;
	s->images++;
	return 0;
}

static void
finish_scan(struct fuzz_scan *s)
{
	if (s->r < 0) {
		fuzz_check_error(s->r, &s->err);
	} else {
		must(s->r == 0);
		must(s->err.code == CHSTK_OK);
	}
}

int
fuzz_is_archive(const void *data, size_t size)
{
	return size >= 8 && memcmp(data, "!<arch>\n", 8) == 0;
}

void
fuzz_scan_mem(const void *data, size_t size, struct fuzz_scan *s)
{
	memset(s, 0, sizeof(*s));
	s->r = chstk_scan_mem(data, size, on_image, s, &s->err);
	finish_scan(s);
}

void
fuzz_scan_fd(int fd, struct fuzz_scan *s)
{
	fuzz_scan_fd_with(fd, NULL, s);
}

void
fuzz_scan_fd_with(int fd, const struct chstk_scan_opts *o,
    struct fuzz_scan *s)
{
	memset(s, 0, sizeof(*s));
	s->r = chstk_scan_fd_with(fd, o, on_image, s, &s->err);
	finish_scan(s);
}

struct fuzz_pieces
fuzz_pieces(const void *data, size_t size, size_t piece)
{
	struct fuzz_pieces c = { data, size, piece, (uint32_t)size };

	return c;
}

ssize_t
fuzz_read_piece(void *arg, void *buf, size_t len)
{
	struct fuzz_pieces *c = arg;
	size_t n = c->piece;

	if (n == 0) {
		c->seed = c->seed * 1103515245u + 12345u;
		n = 1 + (c->seed >> 16) % 4099;
	}
	if (n > len)
		n = len;
	if (n > c->left)
		n = c->left;
	memcpy(buf, c->p, n);
	c->p += n;
	c->left -= n;
	return (ssize_t)n;
}

void
fuzz_scan_stream(const void *data, size_t size, bool sized,
    struct fuzz_scan *s)
{
	struct fuzz_pieces c = fuzz_pieces(data, size, 0);

	memset(s, 0, sizeof(*s));
	s->r = chstk_scan_stream(fuzz_read_piece, &c, sized ? size : UINT64_MAX,
	    on_image, s, &s->err);
	finish_scan(s);
}

int
fuzz_memfd(const void *data, size_t size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	must(fd != -1);
	must(size == 0 || write(fd, data, size) == (ssize_t)size);
	return fd;
}

uint64_t
fuzz_size(int fd)
{
	struct stat st;

	must(fstat(fd, &st) == 0);
	return (uint64_t)st.st_size;
}
