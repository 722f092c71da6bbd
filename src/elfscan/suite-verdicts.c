/*
 * suite-verdicts.c - the verdicts of a suite (elfscan --system --store
 * FILE REPOSITORY: suite.h), the rules of a root applied to the suite as
 * if every package were installed. From the store's images of the index
 * (store_images) and what each needs: each soname resolved to the images
 * of the suite that bear it, of the same class and machine, those of the
 * needing package itself first, then those of the packages its Depends
 * names, else every one. Then, for each library that asks for an
 * executable stack, everything that loads it, however far down: the
 * programs get an executable stack at start, with every glibc
 * (stack-made-exec); the plugins (shared objects without a soname, which
 * a host loads with dlopen) are refused by the dlopen of glibc 2.41 and
 * later (plugin-refused), and make their host's stack executable before
 * (plugin-exec-stack): which, the suite's own glibc says (its libc6 or
 * glibc package's version).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "store.h"
#include "suite.h"
#include "xalloc.h"

/* A package of the images. */
struct pkg {
	char *name, *version, *path;
	char **deps;		/* the package names its Depends give */
	size_t ndeps;
};

/* An image, a node of the graph. */
struct node {
	long long id;
	struct pkg *pkg;
	char *member, *soname;
	enum chstk_kind kind;
	unsigned elf_class, machine;
	bool exec;
	char **needs;
	size_t nneeds;
	size_t *by;		/* the nodes that load this one */
	size_t nby;
	size_t parent;		/* in a search: toward the library */
	unsigned seen;		/* the search that reached it */
};

struct graph {
	struct pkg **pkgs;
	size_t npkgs;
	struct node *v;
	size_t n;
	size_t *by_id;		/* node indices, by id */
};

/* The package names of a Depends field: each alternative's name, without
   its version, architecture qualifier or build profile. */
static void
parse_depends(struct pkg *p, const char *depends)
{
	const char *c = depends;
	size_t len;

	while (*c != '\0') {
		c += strspn(c, " \t\n,|");
		len = strcspn(c, " \t\n,|(:[<");
		if (len > 0) {
			p->deps = xrealloc(p->deps, (p->ndeps + 1) *
			    sizeof(*p->deps));
			p->deps[p->ndeps] = xmalloc(len + 1);
			memcpy(p->deps[p->ndeps], c, len);
			p->deps[p->ndeps++][len] = '\0';
		}
		c += len;
		/* The rest of the alternative: "(>= 1)", ":any", "[amd64]". */
		c += strcspn(c, ",|");
	}
}

static bool
depends_on(const struct pkg *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->ndeps; i++)
		if (strcmp(p->deps[i], name) == 0)
			return true;
	return false;
}

static void
add_image(void *ctx, const struct store_image *im)
{
	struct graph *g = ctx;
	struct pkg *p = g->npkgs > 0 ? g->pkgs[g->npkgs - 1] : NULL;
	struct node *n;

	if (im->malformed)
		return;
	if (p == NULL || strcmp(p->path, im->path) != 0) {
		p = xcalloc(1, sizeof(*p));
		p->name = xstrdup(im->package);
		p->version = xstrdup(im->version);
		p->path = xstrdup(im->path);
		parse_depends(p, im->depends != NULL ? im->depends : "");
		g->pkgs = xrealloc(g->pkgs, (g->npkgs + 1) * sizeof(*g->pkgs));
		g->pkgs[g->npkgs++] = p;
	}
	g->v = xrealloc(g->v, (g->n + 1) * sizeof(*g->v));
	n = &g->v[g->n++];
	memset(n, 0, sizeof(*n));
	n->id = im->id;
	n->pkg = p;
	n->member = xstrdup(im->member != NULL ? im->member : "");
	n->soname = im->soname != NULL ? xstrdup(im->soname) : NULL;
	n->kind = im->kind;
	n->elf_class = im->elf_class;
	n->machine = im->machine;
	n->exec = im->effective == EFF_EXEC;
}

static const struct graph *sorting;

static int
by_id(const void *a, const void *b)
{
	long long x = sorting->v[*(const size_t *)a].id,
	    y = sorting->v[*(const size_t *)b].id;

	return x < y ? -1 : x > y;
}

static struct node *
node_of(struct graph *g, long long id)
{
	size_t lo = 0, hi = g->n, mid;

	if (g->by_id == NULL) {
		g->by_id = xcalloc(g->n > 0 ? g->n : 1, sizeof(*g->by_id));
		for (mid = 0; mid < g->n; mid++)
			g->by_id[mid] = mid;
		sorting = g;
		qsort(g->by_id, g->n, sizeof(*g->by_id), by_id);
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (g->v[g->by_id[mid]].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->n && g->v[g->by_id[lo]].id == id ?
	    &g->v[g->by_id[lo]] : NULL;
}

static void
add_needed(void *ctx, long long id, const char *soname)
{
	struct node *n = node_of(ctx, id);

	if (n == NULL)
		return;
	n->needs = xrealloc(n->needs, (n->nneeds + 1) * sizeof(*n->needs));
	n->needs[n->nneeds++] = xstrdup(soname);
}

/* The providers of each soname: node indices sorted by soname, class and
   machine. */
static int
by_key(const void *a, const void *b)
{
	const struct node *x = &sorting->v[*(const size_t *)a],
	    *y = &sorting->v[*(const size_t *)b];
	int d = strcmp(x->soname, y->soname);

	if (d != 0)
		return d;
	if (x->elf_class != y->elf_class)
		return x->elf_class < y->elf_class ? -1 : 1;
	return x->machine < y->machine ? -1 : x->machine > y->machine;
}

/* [*lo, *hi) of prov: the providers of soname for n's class and
   machine. */
static void
providers(const struct graph *g, const size_t *prov, size_t nprov,
    const struct node *n, const char *soname, size_t *lo, size_t *hi)
{
	struct node key = { .soname = (char *)soname,
	    .elf_class = n->elf_class, .machine = n->machine };
	size_t a = 0, b = nprov, mid;

	while (a < b) {
		mid = a + (b - a) / 2;
		{
			const struct node *m = &g->v[prov[mid]];
			int d = strcmp(m->soname, key.soname);

			if (d == 0 && m->elf_class != key.elf_class)
				d = m->elf_class < key.elf_class ? -1 : 1;
			if (d == 0 && m->machine != key.machine)
				d = m->machine < key.machine ? -1 : 1;
			if (d < 0)
				a = mid + 1;
			else
				b = mid;
		}
	}
	*lo = a;
	for (b = a; b < nprov; b++) {
		const struct node *m = &g->v[prov[b]];

		if (strcmp(m->soname, soname) != 0 ||
		    m->elf_class != n->elf_class || m->machine != n->machine)
			break;
	}
	*hi = b;
}

static void
edge(struct graph *g, size_t from, size_t to)
{
	struct node *p = &g->v[to];

	p->by = xrealloc(p->by, (p->nby + 1) * sizeof(*p->by));
	p->by[p->nby++] = from;
}

/* Each need resolved: the node that needs an image is among its by. */
static void
resolve(struct graph *g)
{
	size_t *prov = xcalloc(g->n > 0 ? g->n : 1, sizeof(*prov));
	size_t nprov = 0, i, k, j, lo, hi;
	int pass;

	for (i = 0; i < g->n; i++)
		if (g->v[i].soname != NULL)
			prov[nprov++] = i;
	sorting = g;
	qsort(prov, nprov, sizeof(*prov), by_key);
	for (i = 0; i < g->n; i++) {
		struct node *n = &g->v[i];

		for (k = 0; k < n->nneeds; k++) {
			bool any = false;

			providers(g, prov, nprov, n, n->needs[k], &lo, &hi);
			/* Its own package's, then a package it depends on,
			   else all. */
			for (pass = 0; pass < 3 && !any; pass++)
				for (j = lo; j < hi; j++) {
					const struct pkg *p = g->v[prov[j]].pkg;

					if ((pass == 0 && p != n->pkg) ||
					    (pass == 1 &&
					    !depends_on(n->pkg, p->name)))
						continue;
					if (prov[j] != i)
						edge(g, i, prov[j]);
					any = true;
				}
		}
	}
	free(prov);
}

/* The version of the suite's glibc, "2.41-7", from its package. */
static bool
glibc_of(struct store *st, const char *repo, const char *arch, char *out,
    size_t len, char *name, size_t nlen)
{
	static const char *const names[] = { "libc6", "libc6.1", "libc0.1",
	    "libc0.3", "glibc" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (store_version(st, repo, arch, names[i], out, len) == 1) {
			snprintf(name, nlen, "%s", names[i]);
			return true;
		}
	return false;
}

/* Does the glibc of that version refuse to dlopen a library that asks
   for an executable stack (2.41 and later)? */
static bool
refuses(const char *version)
{
	unsigned major = 0, minor = 0;
	const char *v = strchr(version, ':');

	v = v != NULL ? v + 1 : version;
	if (sscanf(v, "%u.%u", &major, &minor) != 2)
		return true;
	return major > 2 || (major == 2 && minor >= 41);
}

/* The path a verdict names an image by: its package's file, its member. */
static char *
name_of(const struct node *n)
{
	char *s;

	if (asprintf(&s, "%s!%s", n->pkg->path, n->member) < 0)
		oom();
	return s;
}

/* The sonames between host h and the library l, "a b". */
static char *
via_of(const struct graph *g, size_t h, size_t l)
{
	char *s = xstrdup(""), *t;
	size_t p = g->v[h].parent;

	while (p != l) {
		const struct node *n = &g->v[p];

		if (asprintf(&t, "%s%s%s", s, *s != '\0' ? " " : "",
		    n->soname != NULL ? n->soname : n->member) < 0)
			oom();
		free(s);
		s = t;
		p = n->parent;
	}
	return s;
}

struct hosts {
	struct sys_host *v;
	size_t n;
	size_t packages;
	const struct pkg *last;
};

static void
host_add(struct hosts *h, const struct graph *g, size_t at, size_t lib,
    bool plugin)
{
	const struct node *n = &g->v[at];

	h->v = xrealloc(h->v, (h->n + 1) * sizeof(*h->v));
	h->v[h->n].path = name_of(n);
	h->v[h->n].via = at == lib ? xstrdup("") : via_of(g, at, lib);
	h->v[h->n].library = false;
	h->v[h->n++].plugin = plugin;
}

static void
hosts_free(struct hosts *h)
{
	size_t i;

	for (i = 0; i < h->n; i++) {
		free((char *)h->v[i].path);
		free((char *)h->v[i].via);
	}
	free(h->v);
	memset(h, 0, sizeof(*h));
}

/* The packages of the hosts, each counted once. */
static size_t
packages_of(const struct sys_host *v, size_t n)
{
	size_t i, k, count = 0;

	for (i = 0; i < n; i++) {
		size_t len = strcspn(v[i].path, "!");

		for (k = 0; k < i; k++)
			if (strncmp(v[k].path, v[i].path, len) == 0 &&
			    v[k].path[len] == '!')
				break;
		count += k == i;
	}
	return count;
}

static void
say(struct report *r, const char *repo, unsigned finding,
    const char *subject, const char *why, struct hosts *h)
{
	struct sys_verdict v = { .finding = finding, .root = repo,
	    .subject = subject, .why = why, .hosts = h->v, .nhosts = h->n };
	size_t k;

	report_verdict(r, &v);
	stat_add(r->st, C_VERDICTS);
	stat_add(r->st, C_KIND + finding);
	for (k = 0; k < h->n; k++)
		stat_add(r->st, C_V_STACK + finding - F_FIRST_SYSTEM);
}

/* The verdicts on the library l: what loads it, found from it. */
static void
judge_library(struct graph *g, struct report *r, const char *repo,
    size_t l, unsigned stamp, bool refusing, const char *glibc)
{
	size_t *queue = xcalloc(g->n, sizeof(*queue)), head = 0, tail = 0;
	struct hosts programs = { .v = NULL }, plugins = { .v = NULL };
	char why[512], *subject = name_of(&g->v[l]);
	size_t i;

	g->v[l].seen = stamp;
	queue[tail++] = l;
	while (head < tail) {
		struct node *n = &g->v[queue[head++]];

		for (i = 0; i < n->nby; i++) {
			struct node *m = &g->v[n->by[i]];

			if (m->seen == stamp)
				continue;
			m->seen = stamp;
			m->parent = (size_t)(n - g->v);
			queue[tail++] = n->by[i];
		}
	}
	for (i = 0; i < tail; i++) {
		const struct node *n = &g->v[queue[i]];

		if (n->kind == CHSTK_KIND_PROGRAM)
			host_add(&programs, g, queue[i], l, false);
		else if (n->kind == CHSTK_KIND_SHARED && n->soname == NULL)
			host_add(&plugins, g, queue[i], l, true);
	}
	if (programs.n > 0) {
		size_t np = packages_of(programs.v, programs.n);

		snprintf(why, sizeof(why),
		    "it asks for an executable stack: %zu program%s of %zu package%s load%s it at start and get%s one, with every glibc",
		    programs.n, programs.n == 1 ? "" : "s", np,
		    np == 1 ? "" : "s", programs.n == 1 ? "s" : "",
		    programs.n == 1 ? "s" : "");
		say(r, repo, (unsigned)__builtin_ctzll(F_STACK_MADE_EXEC),
		    subject, why, &programs);
	}
	if (plugins.n > 0) {
		size_t np = packages_of(plugins.v, plugins.n);

		if (refusing)
			snprintf(why, sizeof(why),
			    "it asks for an executable stack: %s refuses to dlopen %zu plugin%s of %zu package%s that need%s it",
			    glibc, plugins.n, plugins.n == 1 ? "" : "s", np,
			    np == 1 ? "" : "s", plugins.n == 1 ? "s" : "");
		else
			snprintf(why, sizeof(why),
			    "it asks for an executable stack: %s makes the stack of a host executable when it dlopens one of %zu plugin%s of %zu package%s that need%s it",
			    glibc, plugins.n, plugins.n == 1 ? "" : "s", np,
			    np == 1 ? "" : "s", plugins.n == 1 ? "s" : "");
		say(r, repo, (unsigned)__builtin_ctzll(refusing ?
		    F_PLUGIN_REFUSED : F_PLUGIN_EXEC_STACK), subject, why,
		    &plugins);
	}
	hosts_free(&programs);
	hosts_free(&plugins);
	free(subject);
	free(queue);
}

static void
graph_free(struct graph *g)
{
	size_t i, k;

	for (i = 0; i < g->n; i++) {
		for (k = 0; k < g->v[i].nneeds; k++)
			free(g->v[i].needs[k]);
		free(g->v[i].needs);
		free(g->v[i].by);
		free(g->v[i].member);
		free(g->v[i].soname);
	}
	free(g->v);
	for (i = 0; i < g->npkgs; i++) {
		for (k = 0; k < g->pkgs[i]->ndeps; k++)
			free(g->pkgs[i]->deps[k]);
		free(g->pkgs[i]->deps);
		free(g->pkgs[i]->name);
		free(g->pkgs[i]->version);
		free(g->pkgs[i]->path);
		free(g->pkgs[i]);
	}
	free(g->pkgs);
	free(g->by_id);
}

int
suite_judge_one(struct store *st, struct report *r, const char *repo,
    const char *arch)
{
	struct graph g = { .v = NULL };
	struct store_walk walk = { .image = add_image, .needed = add_needed,
	    .ctx = &g };
	char version[128], name[32], glibc[192], rules[512];
	size_t i, programs = 0, libraries = 0, plugins = 0;
	bool known, refusing;
	unsigned stamp = 0;

	if (store_images(st, repo, arch, &walk) < 0) {
		graph_free(&g);
		return -1;
	}
	resolve(&g);
	known = glibc_of(st, repo, arch, version, sizeof(version), name,
	    sizeof(name));
	refusing = !known || refuses(version);
	if (known)
		snprintf(glibc, sizeof(glibc), "its glibc (%s %s)", name,
		    version);
	else
		snprintf(glibc, sizeof(glibc), "glibc 2.41 and later");
	for (i = 0; i < g.n; i++) {
		programs += g.v[i].kind == CHSTK_KIND_PROGRAM;
		libraries += g.v[i].kind == CHSTK_KIND_SHARED &&
		    g.v[i].soname != NULL;
		plugins += g.v[i].kind == CHSTK_KIND_SHARED &&
		    g.v[i].soname == NULL;
	}
	if (known)
		snprintf(rules, sizeof(rules),
		    "glibc %s (%s): dlopen %s a library that asks for an executable stack; every package installed: %zu programs, %zu libraries, %zu plugins",
		    version, name, refusing ? "refuses" : "loads", programs,
		    libraries, plugins);
	else
		snprintf(rules, sizeof(rules),
		    "no glibc in the suite, judged as 2.41 and later: dlopen refuses a library that asks for an executable stack; every package installed: %zu programs, %zu libraries, %zu plugins",
		    programs, libraries, plugins);
	report_root(r, repo, NULL, rules);
	for (i = 0; i < programs; i++)
		stat_add(r->st, C_SYS_PROGRAMS);
	for (i = 0; i < g.n; i++)
		if (g.v[i].exec && g.v[i].kind == CHSTK_KIND_SHARED)
			judge_library(&g, r, repo, i, ++stamp, refusing, glibc);
	graph_free(&g);
	return 0;
}
