/*
 * debug.c - separate debug files (debug.h). The debuggers' convention
 * (gdb's "Separate Debug Files", elfutils' dwfl_build_id_find_elf): the
 * debug file of an image whose build-id is the bytes b0 b1 ... bn lies at
 * /usr/lib/debug/.build-id/b0/b1...bn.debug, in hexadecimal, lowercase;
 * Debian's dh_strip and Fedora's find-debuginfo put it there, and their
 * debug packages hold it at that path. The path is a claim: the file's
 * own build-id note must agree, or it is another build's and says nothing
 * of this one.
 */
#include <fcntl.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
#include "system.h"
#include "xalloc.h"

#define TREE "/usr/lib/debug/.build-id/"

bool
debug_package_name(const char *path)
{
	static const char *const pat[] = {
		"*-dbgsym_*.deb", "*-dbgsym_*.ddeb", "*.ddeb", "*-dbg_*.deb",
		"*-debuginfo-*.rpm",
	};
	const char *base = strrchr(path, '/');
	size_t i;

	base = base != NULL ? base + 1 : path;
	for (i = 0; i < sizeof(pat) / sizeof(pat[0]); i++)
		if (fnmatch(pat[i], base, 0) == 0)
			return true;
	return false;
}

/* src into dst (len bytes), cut to fit. */
static void
cut_copy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* id in hexadecimal into out (2 * len + 1 bytes). */
static void
hex(const unsigned char *id, unsigned len, char *out)
{
	unsigned i;

	for (i = 0; i < len; i++)
		snprintf(out + 2 * i, 3, "%02x", id[i]);
	out[2 * len] = '\0';
}

/* The build-id a path in a .build-id tree names, into id; its length, or
   0 when the path is not one ("XX/YYYY.debug" after ".build-id/"). */
static unsigned
id_of_path(const char *path, unsigned char *id)
{
	const char *p = strstr(path, "/.build-id/"), *q;
	char digits[2 * CHSTK_BUILD_ID_MAX + 1];
	size_t n = 0;
	unsigned i;

	if (p == NULL && strncmp(path, ".build-id/", 10) == 0)
		p = path - 1;
	if (p == NULL)
		return 0;
	for (q = p + 11; *q != '\0' && strcmp(q, ".debug") != 0; q++) {
		if (q == p + 13 && *q == '/')
			continue;
		if (n == sizeof(digits) - 1 || !((*q >= '0' && *q <= '9') ||
		    (*q >= 'a' && *q <= 'f')))
			return 0;
		digits[n++] = *q;
	}
	if (*q == '\0' || n < 4 || n % 2 != 0 || p[13] != '/')
		return 0;
	for (i = 0; i < n / 2; i++) {
		unsigned v;

		sscanf(digits + 2 * i, "%2x", &v);
		id[i] = (unsigned char)v;
	}
	return (unsigned)(n / 2);
}

struct debug_entry {
	unsigned char id[CHSTK_BUILD_ID_MAX];
	unsigned len;
	char *where;
	char *problem;		/* not used, and why; or NULL */
	struct evidence ev;
};

struct debugset {
	pthread_mutex_t lock;
	struct debug_entry *v;
	size_t n;
};

struct debugset *
debugset_new(void)
{
	struct debugset *d = xcalloc(1, sizeof(*d));

	pthread_mutex_init(&d->lock, NULL);
	return d;
}

void
debugset_free(struct debugset *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->n; i++) {
		free(d->v[i].where);
		free(d->v[i].problem);
	}
	free(d->v);
	pthread_mutex_destroy(&d->lock);
	free(d);
}

size_t
debugset_count(const struct debugset *d)
{
	return d != NULL ? d->n : 0;
}

/* The problem of a debug file named for want whose build-id is have, or
   NULL when they agree. */
static char *
mismatch(const char *where, const unsigned char *want, unsigned wlen,
    const unsigned char *have, unsigned hlen)
{
	char w[2 * CHSTK_BUILD_ID_MAX + 1], h[2 * CHSTK_BUILD_ID_MAX + 1];
	char *s;

	if (wlen == hlen && memcmp(want, have, wlen) == 0)
		return NULL;
	hex(want, wlen, w);
	hex(have, hlen, h);
	if (asprintf(&s, "the debug file %s has build-id %s, not %s: not used",
	    where, hlen ? h : "none", w) < 0)
		oom();
	return s;
}

void
debugset_add(struct debugset *d, const char *where, const char *member,
    const struct chstk_info *info, const struct evidence *ev)
{
	const struct chstk_hardening *h = info->hardening;
	struct debug_entry e = { .ev = *ev };

	if (h == NULL || (e.len = id_of_path(member, e.id)) == 0)
		return;
	e.where = xstrdup(where);
	e.problem = mismatch(where, e.id, e.len, h->build_id, h->build_id_len);
	pthread_mutex_lock(&d->lock);
	d->v = xrealloc(d->v, (d->n + 1) * sizeof(*d->v));
	d->v[d->n++] = e;
	pthread_mutex_unlock(&d->lock);
}

/* What one scan of a file collects: its first image's. */
struct first {
	struct evidence units, ev;
	struct chstk_info info;
	unsigned char id[CHSTK_BUILD_ID_MAX];
	unsigned idlen;
	bool got;
	char error[sizeof(((struct chstk_error *)0)->msg)];
};

static int
first_unit(void *arg, const struct chstk_unit *u)
{
	ev_unit(&((struct first *)arg)->units, u);
	return 0;
}

static int
first_image(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct first *f = arg;

	(void)member;
	if (info == NULL) {
		cut_copy(f->error, sizeof(f->error), err->msg);
		return 1;
	}
	f->ev = f->units;
	ev_image(&f->ev, info->hardening);
	f->info = *info;
	f->info.hardening = NULL;
	f->idlen = info->hardening->build_id_len;
	memcpy(f->id, info->hardening->build_id, f->idlen);
	f->got = true;
	return 1;
}

/* Read the file open on fd with what, its first image into f. */
static void
read_first(int fd, unsigned what, struct first *f)
{
	struct chstk_scan_opts so = { .read = CHSTK_READ_HARDENING | what,
	    .unit = first_unit };
	struct chstk_error err;
	int r;

	memset(f, 0, sizeof(*f));
	ev_clear(&f->units);
	r = chstk_scan_fd_with(fd, &so, first_image, f, &err);
	if (r < 0)
		cut_copy(f->error, sizeof(f->error), err.msg);
}

/* The root's debug file of build-id id, if any, into e. */
static void
root_debug_file(const struct rootfs *fs, const unsigned char *id,
    unsigned len, struct evidence *e)
{
	char path[sizeof(TREE) + 2 * CHSTK_BUILD_ID_MAX + 8];
	char digits[2 * CHSTK_BUILD_ID_MAX + 1];
	char why[sizeof(path) + sizeof(((struct first *)0)->error) + 64];
	char *problem;
	struct first f;
	struct stat st;
	int fd;

	if (len < 2)
		return;
	hex(id, len, digits);
	snprintf(path, sizeof(path), TREE "%.2s/%s.debug", digits, digits + 2);
	fd = rootfs_open(fs, path);
	if (fd == -1)
		return;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		read_first(fd, CHSTK_READ_EVIDENCE, &f);
		if (!f.got) {
			snprintf(why, sizeof(why),
			    "the debug file %s cannot be read: %s: not used",
			    path, f.error);
			cut_copy(e->debug_problem, sizeof(e->debug_problem), why);
		} else if ((problem = mismatch(path, id, len, f.id,
		    f.idlen)) != NULL) {
			cut_copy(e->debug_problem, sizeof(e->debug_problem),
			    problem);
			free(problem);
		} else {
			ev_debug_file(e, &f.ev, path);
		}
	}
	close(fd);
}

static int
by_id(const void *a, const void *b)
{
	const struct debug_entry *x = a, *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->id, y->id, x->len);
}

void
debugset_ready(struct debugset *d)
{
	/* qsort takes no null array, even of none. */
	if (d != NULL && d->n > 1)
		qsort(d->v, d->n, sizeof(*d->v), by_id);
}

void
debug_find(const struct debugset *d, const struct rootfs *fs,
    const unsigned char *id, unsigned len, struct evidence *e)
{
	struct debug_entry key = { .len = len };
	const struct debug_entry *x;

	memcpy(key.id, id, len);
	if (d != NULL && d->n > 0 && (x = bsearch(&key, d->v, d->n,
	    sizeof(*d->v), by_id)) != NULL) {
		if (x->problem != NULL)
			cut_copy(e->debug_problem, sizeof(e->debug_problem),
			    x->problem);
		else
			ev_debug_file(e, &x->ev, x->where);
		return;
	}
	if (fs != NULL)
		root_debug_file(fs, id, len, e);
}

bool
debug_evidence_at(const struct rootfs *fs, const char *path,
    struct chstk_info *info, struct evidence *e)
{
	struct first f;
	int fd;

	fd = rootfs_open(fs, path);
	if (fd == -1)
		return false;
	read_first(fd, CHSTK_READ_EVIDENCE | CHSTK_READ_CODE_SEARCH, &f);
	close(fd);
	if (!f.got)
		return false;
	*info = f.info;
	*e = f.ev;
	if (!ev_has_own(e) && f.idlen > 0)
		debug_find(NULL, fs, f.id, f.idlen, e);
	return true;
}
