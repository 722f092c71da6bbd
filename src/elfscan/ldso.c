/*
 * ldso.c - a root's dynamic linker, read as a file, never run: which glibc
 * it is, what it does with a library that asks for an executable stack,
 * and where it looks for the libraries a program needs (see system.h).
 *
 * What it does is told by its own strings, not by a version number (which
 * distributions patch): glibc 2.41 brought the tunable glibc.rtld.execstack
 * and with it the refusal to dlopen such a library (elf/dl-tunables.list,
 * commit 0ca8785a28); the value 2, which makes every stack executable
 * instead, came with "cannot enable executable stack as tunable requires"
 * (elf/dl-execstack-tunable.c: glibc 2.42, the 2.41 branch, Debian's
 * 2.41-7). Its default directories are its system_dirs, the list of
 * NUL-separated directories each ending in "/" built into it
 * (elf/dl-load.c; Debian adds the multiarch ones). The search order is
 * _dl_map_object's (elf/dl-load.c, 2.36 to 2.43): the RPATHs of the
 * loaders when the loader has no RUNPATH, LD_LIBRARY_PATH, the loader's
 * RUNPATH, /etc/ld.so.cache, the default directories; each directory with
 * its glibc-hwcaps subdirectories first. ld.so never reads ld.so.conf:
 * ldconfig turns it into the cache, which is read here as ld.so reads it
 * (sysdeps/generic/dl-cache.h, format 1.1).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system.h"
#include "xalloc.h"

/*
 * Per machine: the interpreter its glibc programs name, the ld.so.cache
 * flags of its libraries (sysdeps/generic/ldconfig.h FLAG_*; accepted by
 * each port's _dl_cache_check_flags, sysdeps/unix/sysv/linux/ * /dl-cache.h),
 * what $PLATFORM stands for (the kernel's AT_PLATFORM) and the
 * glibc-hwcaps subdirectories (sysdeps/ * /dl-hwcaps-subdirs.c, 2.41).
 */
static const struct machine {
	unsigned machine, elf_class;
	const char *interp;
	unsigned flags[2];
	const char *platform;
	const char *hwcaps;
} machines[] = {
	{ 62 /* EM_X86_64 */, 2, "/lib64/ld-linux-x86-64.so.2",
	  { 0x0303, 0x0303 }, "x86_64", "x86-64-v4:x86-64-v3:x86-64-v2" },
	{ 62 /* x32 */, 1, "/libx32/ld-linux-x32.so.2", { 0x0803, 0x0803 },
	  "x86_64", "" },
	{ 3 /* EM_386 */, 1, "/lib/ld-linux.so.2", { 0x0001, 0x0003 }, "i686",
	  "" },
	{ 183 /* EM_AARCH64 */, 2, "/lib/ld-linux-aarch64.so.1",
	  { 0x0a03, 0x0a03 }, "aarch64", "" },
	{ 40 /* EM_ARM */, 1, "/lib/ld-linux-armhf.so.3", { 0x0903, 0x0003 },
	  "v7l", "" },
	{ 21 /* EM_PPC64 */, 2, "/lib64/ld64.so.2", { 0x0503, 0x0503 },
	  "power9", "power10:power9" },
	{ 22 /* EM_S390 */, 2, "/lib/ld64.so.1", { 0x0403, 0x0403 }, "z13",
	  "z16:z15:z14:z13" },
	{ 243 /* EM_RISCV */, 2, "/lib/ld-linux-riscv64-lp64d.so.1",
	  { 0x1003, 0x1003 }, "", "" },
	{ 258 /* EM_LOONGARCH */, 2, "/lib64/ld-linux-loongarch-lp64d.so.1",
	  { 0x1203, 0x1203 }, "", "" },
	{ 8 /* EM_MIPS */, 2, "/lib64/ld.so.1", { 0x0703, 0x0e03 }, "", "" },
	{ 2 /* EM_SPARC */, 2, "/lib64/ld-linux.so.2", { 0x0103, 0x0103 },
	  "sparc64", "" },
};

static const struct machine *
machine_of(unsigned machine, unsigned elf_class)
{
	size_t i;

	for (i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (machines[i].machine == machine &&
		    machines[i].elf_class == elf_class)
			return &machines[i];
	return NULL;
}

const char *
ldso_default_interp(unsigned machine, unsigned elf_class)
{
	const struct machine *m = machine_of(machine, elf_class);

	return m != NULL ? m->interp : NULL;
}

/* ld.so.cache: its entries, sorted by name. */
struct cache_entry {
	const char *name, *path;
	unsigned flags;
	uint64_t hwcap;
};
struct cache {
	char *data;
	size_t n;
	struct cache_entry *v;
};

static uint32_t
get32(const unsigned char *p, bool msb)
{
	return msb ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3] : (uint32_t)p[3] << 24 |
	    (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct cache_entry *)a)->name,
	    ((const struct cache_entry *)b)->name);
}

/* A string of the cache at off: within it and NUL-terminated. */
static const char *
cache_string(const char *data, size_t size, uint32_t off)
{
	return off < size && memchr(data + off, '\0', size - off) != NULL ?
	    data + off : NULL;
}

#define CACHE_MAGIC "glibc-ld.so.cache1.1"
#define CACHE_HEADER 48
#define CACHE_ENTRY 24

/* The entries of the cache in data, each range-checked: -1 when the
   header or an entry does not hold. */
static int
cache_parse(struct cache *c, size_t size)
{
	const unsigned char *d = (const unsigned char *)c->data;
	uint32_t n, i;
	bool msb;

	if (size < CACHE_HEADER || memcmp(d, CACHE_MAGIC, 20) != 0)
		return -1;
	msb = d[28] == 3;
	n = get32(d + 20, msb);
	if (n > (size - CACHE_HEADER) / CACHE_ENTRY)
		return -1;
	c->v = xcalloc(n > 0 ? n : 1, sizeof(*c->v));
	for (i = 0; i < n; i++) {
		const unsigned char *e = d + CACHE_HEADER + (size_t)i *
		    CACHE_ENTRY;
		struct cache_entry *ce = &c->v[c->n];

		ce->flags = get32(e, msb);
		ce->name = cache_string(c->data, size, get32(e + 4, msb));
		ce->path = cache_string(c->data, size, get32(e + 8, msb));
		ce->hwcap = msb ? (uint64_t)get32(e + 16, true) << 32 |
		    get32(e + 20, true) : (uint64_t)get32(e + 20, false) <<
		    32 | get32(e + 16, false);
		if (ce->name == NULL || ce->path == NULL)
			return -1;
		c->n++;
	}
	if (c->n > 1)
		qsort(c->v, c->n, sizeof(*c->v), by_name);
	return 0;
}

struct cache *
cache_read(const struct rootfs *fs, const char **why)
{
	struct cache *c = xcalloc(1, sizeof(*c));
	size_t size;

	*why = NULL;
	c->data = rootfs_read(fs, "/etc/ld.so.cache", CACHE_MAX, &size);
	if (c->data == NULL) {
		if (errno != ENOENT)
			*why = rootfs_strerror(errno);
	} else if (cache_parse(c, size) < 0) {
		*why = "not a glibc-ld.so.cache1.1 file, or damaged";
	} else {
		return c;
	}
	cache_free(c);
	return NULL;
}

void
cache_free(struct cache *c)
{
	if (c == NULL)
		return;
	free(c->v);
	free(c->data);
	free(c);
}

/* The line of ld.so's banner: "ld.so (...) ... release version 2.41". */
static void
banner(struct ldso *l, const char *d, size_t n)
{
	static const char rv[] = " release version ";
	const char *p = memmem(d, n, rv, sizeof(rv) - 1), *s, *e;

	if (p == NULL)
		return;
	for (s = p; s > d && s[-1] != '\0' && s[-1] != '\n'; s--)
		;
	for (e = p; e < d + n && *e != '\0' && *e != '\n'; e++)
		;
	while (e > p && e[-1] == '.')
		e--;
	if ((size_t)(e - s) >= sizeof(l->banner))
		e = s + sizeof(l->banner) - 1;
	memcpy(l->banner, s, (size_t)(e - s));
	l->banner[e - s] = '\0';
	l->glibc = true;
}

/* A directory of system_dirs: absolute, ending in "/", under /lib or
   /usr/lib (lib64, lib32, libx32 and the multiarch ones). */
static bool
system_dir(const char *s, size_t len)
{
	return len >= 5 && s[len - 1] == '/' && (strncmp(s, "/lib", 4) == 0 ||
	    strncmp(s, "/usr/lib", 8) == 0) && memchr(s, '\n', len) == NULL;
}

/* The first run of two or more system directories, NUL-separated. */
static void
default_dirs(struct ldso *l, const char *d, size_t n)
{
	const char *p = d, *s, *end = d + n;
	size_t len, k;

	while ((p = memmem(p, (size_t)(end - p), "\0/", 2)) != NULL) {
		s = ++p;
		for (k = 0; s < end && (len = strnlen(s, (size_t)(end - s))) <
		    (size_t)(end - s) && system_dir(s, len); k++)
			s += len + 1;
		if (k < 2)
			continue;
		l->dirs = xcalloc(k, sizeof(*l->dirs));
		for (s = p; l->ndirs < k; s += strlen(s) + 1)
			l->dirs[l->ndirs++] = xstrdup(s);
		return;
	}
}

/* What the file d[0, n) says of the dynamic linker; d NULL: it could not
   be read, for the reason err. */
static void
ldso_take(struct ldso *l, const char *d, size_t n, int err)
{
	size_t len;

	/* A link that leads nowhere, or in a loop, the kernel cannot load
	   either. */
	l->present = d != NULL || (err != ENOENT && err != ENOTDIR &&
	    err != ELOOP);
	if (d == NULL && l->present)
		l->why = rootfs_strerror(err);
	if (d != NULL) {
		banner(l, d, n);
		l->refuses = memmem(d, n, "glibc.rtld.execstack", 20) != NULL;
		l->force = memmem(d, n, "as tunable requires", 19) != NULL;
		if (l->glibc)
			default_dirs(l, d, n);
	}
	/* $LIB: the first default directory, without its slashes. */
	if (l->ndirs > 0 && (len = strlen(l->dirs[0])) - 2 < sizeof(l->lib)) {
		memcpy(l->lib, l->dirs[0] + 1, len - 2);
		l->lib[len - 2] = '\0';
	}
}

static void
ldso_init(struct ldso *l, const char *interp, unsigned machine,
    unsigned elf_class, const struct cache *cache)
{
	const struct machine *m = machine_of(machine, elf_class);

	memset(l, 0, sizeof(*l));
	l->machine = machine;
	l->elf_class = elf_class;
	l->interp = xstrdup(interp);
	l->cache = cache;
	l->platform = m != NULL ? m->platform : "";
	l->hwcaps = m != NULL ? m->hwcaps : "";
	if (m != NULL)
		memcpy(l->cache_flags, m->flags, sizeof(l->cache_flags));
}

void
ldso_read(struct ldso *l, const struct rootfs *fs, const char *interp,
    unsigned machine, unsigned elf_class, const struct cache *cache)
{
	size_t n = 0;
	char *d;

	ldso_init(l, interp, machine, elf_class, cache);
	d = rootfs_read(fs, interp, LDSO_MAX, &n);
	ldso_take(l, d, n, errno);
	free(d);
}

void
ldso_read_fd(struct ldso *l, int fd, const char *interp, unsigned machine,
    unsigned elf_class)
{
	size_t n = 0;
	char *d;

	ldso_init(l, interp, machine, elf_class, NULL);
	d = rootfs_read_fd(fd, LDSO_MAX, &n);
	ldso_take(l, d, n, errno);
	free(d);
}

void
ldso_free(struct ldso *l)
{
	size_t i;

	for (i = 0; i < l->ndirs; i++)
		free(l->dirs[i]);
	free(l->dirs);
	free(l->interp);
	memset(l, 0, sizeof(*l));
}

/* One search: the name, where the candidates go, and a buffer. */
struct look {
	const struct ldso *l;
	const char *name;
	bool (*fn)(void *arg, const char *path);
	void *arg;
	bool found;
};

static bool
try(struct look *k, const char *dir, size_t len, const char *sub)
{
	char path[4096];
	int n;

	if (k->found)
		return true;
	n = snprintf(path, sizeof(path), "%.*s%s%s%s", (int)len, dir,
	    len > 0 && dir[len - 1] == '/' ? "" : "/", sub, k->name);
	if (n > 0 && (size_t)n < sizeof(path) && k->fn(k->arg, path))
		k->found = true;
	return k->found;
}

/* A directory: its glibc-hwcaps subdirectories, best first, then itself.
   Which of them ld.so uses depends on the CPU: every one the root holds
   is taken as if the CPU supported it. */
static bool
try_dir(struct look *k, const char *dir, size_t len)
{
	const char *h = k->l->hwcaps, *e;
	char sub[64];

	for (; *h != '\0'; h = *e != '\0' ? e + 1 : e) {
		e = strchrnul(h, ':');
		snprintf(sub, sizeof(sub), "glibc-hwcaps/%.*s/", (int)(e - h), h);
		if (try(k, dir, len, sub))
			return true;
	}
	return try(k, dir, len, "");
}

/* The token that "$" at s (len bytes) starts: 0 $ORIGIN, 1 $LIB, 2
   $PLATFORM, braced or not, followed by no identifier character; -1 when
   none (ld.so keeps it as it is). *skip: its length. */
static int
token(const char *s, size_t len, size_t *skip)
{
	static const char *const names[] = { "ORIGIN", "LIB", "PLATFORM" };
	bool brace = len > 1 && s[1] == '{';
	size_t at = brace ? 2 : 1, n;
	int t;
	char c;

	for (t = 0; t < 3; t++) {
		n = strlen(names[t]);
		if (at + n > len || strncmp(s + at, names[t], n) != 0)
			continue;
		c = at + n < len ? s[at + n] : '\0';
		if (brace ? c != '}' : c == '_' || (c >= 'A' && c <= 'Z') ||
		    (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			continue;
		*skip = at + n + (brace ? 1 : 0);
		return t;
	}
	return -1;
}

/* Expand the dynamic string tokens of one directory into out (glibc's
   _dl_dst_substitute); false when it cannot be known (no origin) or is not
   absolute (the process's working directory, which a file cannot tell). */
static bool
expand(const struct ldso *l, const char *dir, size_t len, const char *origin,
    char *out, size_t cap)
{
	const char *val;
	size_t o = 0, i = 0, skip, vlen;
	int t;

	while (i < len) {
		t = dir[i] == '$' ? token(dir + i, len - i, &skip) : -1;
		if (t < 0) {
			if (o + 1 >= cap)
				return false;
			out[o++] = dir[i++];
			continue;
		}
		val = t == 0 ? origin : t == 1 ? l->lib : l->platform;
		if (val == NULL || *val == '\0' ||
		    o + (vlen = strlen(val)) >= cap)
			return false;
		memcpy(out + o, val, vlen);
		o += vlen;
		i += skip;
	}
	out[o] = '\0';
	return out[0] == '/';
}

/* Each directory of a list. */
static bool
try_list(struct look *k, const struct pathlist *p, const char *seps)
{
	const char *s = p->list, *e;
	char dir[4096];

	for (; *s != '\0' && !k->found; s = *e != '\0' ? e + 1 : e) {
		e = s + strcspn(s, seps);
		if (e > s && expand(k->l, s, (size_t)(e - s), p->origin, dir,
		    sizeof(dir)))
			try_dir(k, dir, strlen(dir));
	}
	return k->found;
}

/* The cache's entries of name for this machine: the one for any CPU
   last, as ld.so prefers the glibc-hwcaps ones it can use. */
static bool
try_cache(struct look *k, bool nodeflib)
{
	const struct cache *c = k->l->cache;
	struct cache_entry key = { .name = k->name };
	const struct cache_entry *e, *lo, *hi;
	size_t i;
	int pass;

	if (c == NULL || c->n == 0)
		return false;
	e = bsearch(&key, c->v, c->n, sizeof(*c->v), by_name);
	if (e == NULL)
		return false;
	for (lo = e; lo > c->v && strcmp(lo[-1].name, k->name) == 0; lo--)
		;
	for (hi = e; hi + 1 < c->v + c->n && strcmp(hi[1].name, k->name) == 0;
	    hi++)
		;
	for (pass = 0; pass < 2; pass++)
		for (e = lo; e <= hi && !k->found; e++) {
			if ((e->hwcap == 0) != (pass == 1))
				continue;
			if (e->flags != k->l->cache_flags[0] &&
			    e->flags != k->l->cache_flags[1])
				continue;
			/* DF_1_NODEFLIB: not from the default directories. */
			for (i = 0; nodeflib && i < k->l->ndirs; i++)
				if (strncmp(e->path, k->l->dirs[i],
				    strlen(k->l->dirs[i])) == 0 &&
				    strchr(e->path + strlen(k->l->dirs[i]),
				    '/') == NULL)
					break;
			if (!nodeflib || i == k->l->ndirs)
				k->found = k->fn(k->arg, e->path);
		}
	return k->found;
}

bool
ldso_search(const struct ldso *l, const char *name, const struct search *s,
    bool (*fn)(void *arg, const char *path), void *arg)
{
	struct look k = { .l = l, .name = name, .fn = fn, .arg = arg };
	char path[4096];
	size_t i;

	/* A name with a slash is no search: opened as it is, its dynamic
	   string tokens expanded (relative, from the working directory,
	   which no file tells). */
	if (strchr(name, '/') != NULL)
		return expand(l, name, strlen(name), s->origin, path,
		    sizeof(path)) && fn(arg, path);
	if (s->runpath.list == NULL)
		for (i = 0; i < s->nrpath && !k.found; i++)
			try_list(&k, &s->rpath[i], ":");
	if (!k.found && s->library_path.list != NULL)
		try_list(&k, &s->library_path, ":;");
	if (!k.found && s->runpath.list != NULL)
		try_list(&k, &s->runpath, ":");
	if (!k.found)
		try_cache(&k, s->nodeflib);
	for (i = 0; i < l->ndirs && !k.found && !s->nodeflib; i++)
		try_dir(&k, l->dirs[i], strlen(l->dirs[i]));
	return k.found;
}
