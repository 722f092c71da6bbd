/*
 * closure.c - the libraries one program loads at start-up, found as its
 * ld.so finds them (see system.h): breadth first from the program, each
 * DT_NEEDED name satisfied by a library already loaded under that name or
 * that SONAME, else searched for with the needing object as the loader
 * (its RPATH chain, LD_LIBRARY_PATH, its RUNPATH, the cache, the default
 * directories: ldso.c), a file of another class or machine passed over as
 * ld.so's open_verify passes it over (elf/dl-load.c). A name found nowhere
 * is reported, never guessed.
 *
 * Then what the process dlopens, loaded the same way on top of what it
 * holds: the object searched for as its caller would search (or opened by
 * its path), and its DT_NEEDED, whose RPATH chain starts afresh at the
 * dlopened object, the main program's RPATH still searched after it
 * (_dl_map_object drops the caller as the loader, __RTLD_CALLMAP;
 * "NB: we do this for lookups in any namespace").
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "system.h"
#include "xalloc.h"

/* A search in progress: what was found. A candidate must be of the
   class and machine of the closure's ld.so. */
struct candidate {
	struct closure *c;
	const struct obj *found;
	char *path;		/* as opened: its $ORIGIN */
	const char *other;	/* a file of another class or machine */
};

static bool
accept(void *arg, const char *path)
{
	struct candidate *k = arg;
	const struct obj *o = objects_at(k->c->objs, k->c->fs, path);

	if (o == NULL)
		return false;
	/* ld.so would take it; what it would do is not guessed. */
	if (o->error != NULL) {
		if (o->elf)
			k->other = o->error;
		return false;
	}
	if (o->info.elf_class != k->c->l->elf_class ||
	    o->info.machine != k->c->l->machine ||
	    o->info.kind != CHSTK_KIND_SHARED) {
		k->other = "a file of another class or machine";
		return false;
	}
	k->found = o;
	k->path = xstrdup(path);
	return true;
}

/* The directory of path, for $ORIGIN. */
static char *
dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash == NULL ? 0 : slash == path ? 1 :
	    (size_t)(slash - path);
	char *d = xmalloc(len + 1);

	memcpy(d, path, len);
	d[len] = '\0';
	return d;
}

static size_t
add_node(struct closure *c, const struct obj *o, size_t parent, char *path,
    const char *name)
{
	struct cnode *n;

	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->v = xrealloc(c->v, c->cap * sizeof(*c->v));
	}
	n = &c->v[c->n];
	n->o = o;
	n->parent = parent;
	n->path = path;
	n->origin = dir_of(path);
	n->name = xstrdup(name);
	return c->n++;
}

/* Is name loaded already: requested by that name, or a SONAME? glibc's
   _dl_name_match_p and the SONAME check of _dl_map_object. */
static const struct cnode *
loaded(const struct closure *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->v[i].name, name) == 0 ||
		    strcmp(c->v[i].o->soname, name) == 0)
			return &c->v[i];
	return NULL;
}

/* Is the object loaded already, under another name? (ld.so compares
   the file's device and inode: _dl_file_id_match_p.) */
static bool
loaded_file(const struct closure *c, const struct obj *o)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->v[i].o == o)
			return true;
	return false;
}

/* The RPATH of node k, when it has one and no RUNPATH. */
static void
rpath_of(const struct closure *c, size_t k, struct search *s,
    struct pathlist *rp, size_t cap)
{
	const struct cnode *m = &c->v[k];

	if (m->o->runpath == NULL && m->o->rpath != NULL && s->nrpath < cap)
		rp[s->nrpath++] = (struct pathlist){ m->o->rpath, m->origin };
}

/* The search for a name needed by node i: the RPATHs of i and of those
   that loaded it while none has a RUNPATH, up to the program or the
   dlopened object that started the chain; then the program's. */
static void
search_of(const struct closure *c, size_t i, struct search *s,
    struct pathlist *rp, size_t cap)
{
	const struct cnode *n = &c->v[i];
	size_t k = i;

	memset(s, 0, sizeof(*s));
	s->rpath = rp;
	if (n->o->runpath == NULL) {
		for (;;) {
			rpath_of(c, k, s, rp, cap);
			if (c->v[k].parent == k)
				break;
			k = c->v[k].parent;
		}
		if (k != 0 && c->main)
			rpath_of(c, 0, s, rp, cap);
	}
	s->library_path = c->library_path;
	if (n->o->runpath != NULL)
		s->runpath = (struct pathlist){ n->o->runpath, n->origin };
	s->nodeflib = n->o->nodeflib;
	s->origin = n->origin;
}

static void
miss(struct closure *c, const char *name, size_t from, const char *why)
{
	struct cmiss *m;

	c->miss = xrealloc(c->miss, (c->nmiss + 1) * sizeof(*c->miss));
	m = &c->miss[c->nmiss++];
	m->name = xstrdup(name);
	m->from = from;
	m->why = why;
}

/* The slot of name under l in the memo. */
static size_t
memo_hash(const struct memo *m, const struct ldso *l, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ (uintptr_t)l;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)*name) * 0x100000001b3ULL;
	return (size_t)h & (m->cap - 1);
}

static struct found_lib *
memo_get(const struct memo *m, const struct ldso *l, const char *name)
{
	struct found_lib *f;

	if (m->cap == 0)
		return NULL;
	for (f = m->slot[memo_hash(m, l, name)]; f != NULL; f = f->next)
		if (f->l == l && strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

static void
memo_put(struct memo *m, const struct ldso *l, const char *name,
    const struct candidate *k)
{
	struct found_lib *f, *next, **slot;
	size_t i, h;

	if (m->n + 1 > m->cap / 2) {
		slot = xcalloc(m->cap ? 2 * m->cap : 256, sizeof(*slot));
		for (i = 0; i < m->cap; i++)
			for (f = m->slot[i]; f != NULL; f = next) {
				next = f->next;
				h = memo_hash(&(struct memo){ slot, m->cap ?
				    2 * m->cap : 256, 0 }, f->l, f->name);
				f->next = slot[h];
				slot[h] = f;
			}
		free(m->slot);
		m->slot = slot;
		m->cap = m->cap ? 2 * m->cap : 256;
	}
	f = xcalloc(1, sizeof(*f));
	f->l = l;
	f->name = xstrdup(name);
	f->path = k->found != NULL ? xstrdup(k->path) : NULL;
	f->o = k->found;
	h = memo_hash(m, l, name);
	f->next = m->slot[h];
	m->slot[h] = f;
	m->n++;
}

void
memo_free(struct memo *m)
{
	struct found_lib *f, *next;
	size_t i;

	for (i = 0; i < m->cap; i++)
		for (f = m->slot[i]; f != NULL; f = next) {
			next = f->next;
			free(f->name);
			free(f->path);
			free(f);
		}
	free(m->slot);
	memset(m, 0, sizeof(*m));
}

/* Find name as ld.so would, through the memo where the search depends on
   the name alone. */
static bool
find(struct closure *c, const char *name, const struct search *s,
    struct candidate *k)
{
	bool plain = c->memo != NULL && s->nrpath == 0 &&
	    s->library_path.list == NULL && s->runpath.list == NULL &&
	    !s->nodeflib && strchr(name, '/') == NULL;
	const struct found_lib *f;
	bool found;

	if (plain && (f = memo_get(c->memo, c->l, name)) != NULL) {
		if (f->o == NULL)
			return false;
		k->found = f->o;
		k->path = xstrdup(f->path);
		return true;
	}
	found = ldso_search(c->l, name, s, accept, k);
	/* Only a search that found, or found nothing at all: a file of
	   another class depends on the program. */
	if (plain && (found || k->other == NULL))
		memo_put(c->memo, c->l, name, k);
	return found;
}

/* Is name the soname of the program's own dynamic linker? The kernel
   maps PT_INTERP and ld.so enters itself in the link map under the
   basename it was run as (elf/rtld.c, the _dl_rtld_libname setup), so
   a need of that name (libc.so.6 needs ld-linux-x86-64.so.2) is met
   wherever the file lies: /lib64 alone, outside every search path. */
static bool
is_interp(const struct closure *c, const char *name)
{
	const char *base;

	if (c->l->interp == NULL)
		return false;
	base = strrchr(c->l->interp, '/');
	return strcmp(base != NULL ? base + 1 : c->l->interp, name) == 0;
}

/* The DT_NEEDED names of node i, each loaded or missed. */
static void
needs(struct closure *c, size_t i)
{
	struct pathlist rp[64];
	struct search s;
	const char *name;

	search_of(c, i, &s, rp, sizeof(rp) / sizeof(rp[0]));
	for (name = c->v[i].o->needed; *name != '\0';
	    name += strlen(name) + 1) {
		struct candidate k = { .c = c };

		if (loaded(c, name) != NULL || is_interp(c, name))
			continue;
		if (!find(c, name, &s, &k)) {
			miss(c, name, i, k.other != NULL ? k.other :
			    "no such file in the places ld.so looks");
			continue;
		}
		if (loaded_file(c, k.found))
			free(k.path);
		else
			add_node(c, k.found, i, k.path, name);
	}
}

void
closure_init(struct closure *c, const struct ldso *l, const struct rootfs *fs,
    struct objects *objs, struct memo *memo, struct pathlist library_path)
{
	memset(c, 0, sizeof(*c));
	c->l = l;
	c->fs = fs;
	c->objs = objs;
	c->memo = memo;
	c->library_path = library_path;
}

void
closure_start(struct closure *c, const struct obj *o, const char *origin,
    bool main)
{
	size_t i;

	c->main = main;
	add_node(c, o, 0, xstrdup(o->path), "");
	free(c->v[0].origin);
	c->v[0].origin = xstrdup(origin);
	for (i = 0; i < c->n; i++)
		needs(c, i);
}

void
closure_of(struct closure *c, const struct obj *program, const char *origin,
    const struct ldso *l, const struct rootfs *fs, struct objects *objs,
    struct memo *memo, struct pathlist library_path)
{
	closure_init(c, l, fs, objs, memo, library_path);
	closure_start(c, program, origin, true);
}

size_t
closure_dlopen(struct closure *c, const char *name, size_t caller)
{
	struct pathlist rp[64];
	struct search s;
	struct candidate k = { .c = c };
	const struct cnode *had;
	size_t i, at;

	if ((had = loaded(c, name)) != NULL)
		return (size_t)(had - c->v);
	if (caller < c->n)
		search_of(c, caller, &s, rp, sizeof(rp) / sizeof(rp[0]));
	else
		s = (struct search){ .library_path = c->library_path };
	if (!find(c, name, &s, &k))
		return SIZE_MAX;
	for (i = 0; i < c->n; i++)
		if (c->v[i].o == k.found) {
			free(k.path);
			return i;
		}
	/* Its own parent: an RPATH chain starts at it. */
	at = add_node(c, k.found, c->n, k.path, name);
	for (i = at; i < c->n; i++)
		needs(c, i);
	return at;
}

void
closure_truncate(struct closure *c, size_t n, size_t nmiss)
{
	size_t i;

	for (i = n; i < c->n; i++) {
		free(c->v[i].path);
		free(c->v[i].origin);
		free(c->v[i].name);
	}
	for (i = nmiss; i < c->nmiss; i++)
		free(c->miss[i].name);
	if (n < c->n)
		c->n = n;
	if (nmiss < c->nmiss)
		c->nmiss = nmiss;
}

char *
closure_via(const struct closure *c, size_t i, bool self)
{
	size_t at[64], n = 0, len = 0, k;
	char *s;

	if (self)
		at[n++] = i;
	for (k = c->v[i].parent; c->v[k].parent != k && n < 64;
	    k = c->v[k].parent)
		at[n++] = k;
	if (c->v[i].parent == i)
		n = 0;
	for (k = 0; k < n; k++)
		len += strlen(c->v[at[k]].name) + 1;
	s = xmalloc(len + 1);
	s[0] = '\0';
	while (n > 0) {
		strcat(s, c->v[at[--n]].name);
		if (n > 0)
			strcat(s, " ");
	}
	return s;
}

void
closure_free(struct closure *c)
{
	closure_truncate(c, 0, 0);
	free(c->v);
	free(c->miss);
	memset(c, 0, sizeof(*c));
}
