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
 *
 * And the suite's systemd services, read from the unit files its packages
 * hold (the store's files table) as units.c reads a root's, on the file
 * system the packages make installed together on a merged /usr (as
 * Debian 12 and later, and Fedora, install them): each command of a
 * service with MemoryDenyWriteExecute=yes, its program found there
 * (through links and scripts' interpreters) with the libraries it loads,
 * judged by mdwe.c's rules under the ways the suite's systemd (its
 * systemd package's version) sets it (mdwe-breaks).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "container.h"
#include "report.h"
#include "store.h"
#include "suite.h"
#include "system.h"
#include "tree.h"
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
	struct mdwe_obj facts;	/* what MemoryDenyWriteExecute= reads */
	char **needs;
	size_t nneeds;
	size_t *by;		/* the nodes that load this one */
	size_t nby;
	size_t *to;		/* and those this one loads */
	size_t nto;
	size_t parent;		/* in a search: toward the library */
	unsigned seen;		/* the search that reached it */
};

/* A package's file that is no ELF file, in the suite installed. */
struct pfile {
	char *package;		/* its package's file */
	char *member;
	char *in;		/* its in-root path */
};

struct graph {
	struct pkg **pkgs;
	size_t npkgs;
	struct node *v;
	size_t n;
	size_t *by_id;		/* node indices, by id */
	/* The file system of every package installed: its ELF images'
	   nodes by their identity in it (index + 1; 0 none), its other
	   files by in-root path. */
	struct tree *t;
	size_t *node_at;
	size_t nat;
	struct pfile *files;
	size_t nfiles;
	/* The searches' space, n each, made once: a library's loaders
	   (judge_library), a command's closure (struct cmd). */
	size_t *queue, *from;
};

/* Where a member of a package is installed, on a merged /usr; the caller
   frees it. */
static char *
installed(const char *member)
{
	static const char *const merged[] = { "bin/", "sbin/", "lib/",
	    "lib32/", "lib64/", "libx32/" };
	size_t i;
	char *in;

	for (i = 0; i < sizeof(merged) / sizeof(merged[0]); i++)
		if (strncmp(member, merged[i], strlen(merged[i])) == 0)
			break;
	if (asprintf(&in, "/%s%s", i < sizeof(merged) / sizeof(merged[0]) ?
	    "usr/" : "", member) < 0)
		oom();
	return in;
}

/* The image at (a node), put in the suite's file system. */
static void
install_image(struct graph *g, size_t at)
{
	const struct node *n = &g->v[at];
	struct tree_entry e = { .type = TREE_FILE };
	char *in;
	uint32_t id;

	if (strchr(n->member, '!') != NULL || (n->kind != CHSTK_KIND_PROGRAM &&
	    n->kind != CHSTK_KIND_SHARED))
		return;
	e.path = in = installed(n->member);
	if (tree_add(g->t, 0, &e) && (id = tree_id(g->t, in)) != 0) {
		if (id >= g->nat) {
			g->node_at = xrealloc(g->node_at, (id + 1) *
			    sizeof(*g->node_at));
			memset(g->node_at + g->nat, 0, (id + 1 - g->nat) *
			    sizeof(*g->node_at));
			g->nat = id + 1;
		}
		if (g->node_at[id] == 0)
			g->node_at[id] = at + 1;
	}
	free(in);
}

static void
add_file(void *ctx, const struct stored_file *f)
{
	struct graph *g = ctx;
	struct tree_entry e = { .type = f->type == CFILE_LINK ? TREE_LINK :
	    TREE_FILE, .symlink = f->type == CFILE_LINK ? f->data : NULL };
	struct pfile *p;

	if (f->type == CFILE_LINK && f->data == NULL)
		return;
	g->files = xrealloc(g->files, (g->nfiles + 1) * sizeof(*g->files));
	p = &g->files[g->nfiles++];
	p->package = xstrdup(f->package);
	p->member = xstrdup(f->path);
	p->in = installed(f->path);
	e.path = p->in;
	if (tree_add(g->t, 0, &e) && e.type == TREE_FILE)
		tree_keep(g->t, p->in, f->data, f->len);
}

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
	n->facts = (struct mdwe_obj){ .wx = im->wx, .asks = n->exec,
	    .rie = (im->findings & F_READ_IMPLIES_EXEC) != 0,
	    .textrel = im->h.textrel == T_YES };
	install_image(g, g->n - 1);
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
	struct node *p = &g->v[to], *f = &g->v[from];

	p->by = xrealloc(p->by, (p->nby + 1) * sizeof(*p->by));
	p->by[p->nby++] = from;
	f->to = xrealloc(f->to, (f->nto + 1) * sizeof(*f->to));
	f->to[f->nto++] = to;
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
	h->v[h->n].service = false;
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
	size_t *queue = g->queue, head = 0, tail = 0;
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
}

/* ---- The services ---- */

/* The suite's systemd, installed. */
struct services {
	struct graph *g;
	struct report *r;
	const char *repo;
	struct rootfs fs;
	struct systemd sd;
	char version[128];	/* its systemd package's, or "" */
	unsigned ways;		/* MDWE_* bits: how it sets the setting */
	bool refusing;		/* its glibc has glibc.rtld.execstack */
	size_t nmdwe;		/* services with MemoryDenyWriteExecute=yes */
	/* The verdicts, one per (subject, why), with their services. */
	struct mgroup {
		char *subject;
		const char *why;
		struct hosts h;
	} *mg;
	size_t nmg;
};

static int
by_in(const void *a, const void *b)
{
	return strcmp(((const struct pfile *)a)->in,
	    ((const struct pfile *)b)->in);
}

/* The file of the suite at the in-root path, as a verdict names it:
   PACKAGE!MEMBER, its links resolved; else REPO!PATH. The caller frees
   it. */
static char *
named_in(const struct services *sv, const char *path)
{
	const struct graph *g = sv->g;
	struct pfile key, *p = NULL;
	struct tree_file f;
	char real[4096], *s;
	int follow;

	for (follow = 0; follow < 2 && p == NULL; follow++)
		if (tree_resolve(g->t, path, follow, &f, real,
		    sizeof(real)) == 0) {
			key.in = real;
			p = g->nfiles == 0 ? NULL : bsearch(&key, g->files,
			    g->nfiles, sizeof(*g->files), by_in);
		}
	if (p != NULL && asprintf(&s, "%s!%s", p->package, p->member) >= 0)
		return s;
	if (p == NULL && asprintf(&s, "%s!%s", sv->repo, path) >= 0)
		return s;
	oom();
}

/* What units.c finds wrong in a file (path in the root, with ":LINE"
   where a line is at fault), named as the suite's files are. */
static void
unit_said(void *arg, const char *path, const char *msg)
{
	struct services *sv = arg;
	const char *line = strrchr(path, ':');
	struct tree_file f;
	char *file, *p, *s;

	if (line == NULL || line[1] == '\0' || line[1 + strspn(line + 1,
	    "0123456789")] != '\0' || tree_resolve(sv->g->t, path, false, &f,
	    NULL, 0) == 0)
		line = path + strlen(path);
	file = xstrdup(path);
	file[line - path] = '\0';
	p = named_in(sv, file);
	if (asprintf(&s, "%s%s", p, line) < 0)
		oom();
	report_note(sv->r, s, msg);
	free(s);
	free(p);
	free(file);
}

/* The node of the program the kernel runs for path: an ELF program of
   the suite, or a script's interpreter ("#!", its first word), a few
   deep, each added to prefix. Said when there is none. */
static const struct node *
program_node(struct services *sv, const char *path, struct buf *prefix)
{
	const struct graph *g = sv->g;
	char name[CFILE_LINE + 1];
	struct tree_file f;
	size_t at;
	int depth;

	for (depth = 0; depth < 4; depth++) {
		if (tree_resolve(g->t, path, true, &f, NULL, 0) < 0 ||
		    f.type != TREE_FILE) {
			unit_said(sv, path, "no program of the suite's packages: the command is not judged");
			return NULL;
		}
		if (f.id < g->nat && (at = g->node_at[f.id]) != 0)
			return &g->v[at - 1];
		if (f.kept != TREE_KEPT || !script_interpreter(f.data, f.len,
		    name, sizeof(name))) {
			unit_said(sv, path, "neither an ELF file of the suite's packages nor a script: the command is not judged");
			return NULL;
		}
		buf_puts(prefix, " ");
		buf_puts(prefix, name);
		if (name[0] != '/')
			break;
		path = name;
	}
	unit_said(sv, path, "a script whose interpreter is not an absolute path to a program, or a script again: not judged");
	return NULL;
}

/* A command being judged: its program's closure, breadth first as ld.so
   loads it, each with the node it was reached from. */
struct cmd {
	struct services *sv;
	const struct service *svc;
	const char *prefix;	/* "ExecStart=/usr/sbin/foo" */
	size_t *v;		/* nodes, the program's first (the graph's
				   queue, lent) */
	size_t *parent;		/* of each, the index in v of the one it was
				   reached from (of v[0]: none; the graph's
				   from, lent) */
	size_t n;
};

static void
closure(struct cmd *c, const struct node *program, unsigned stamp)
{
	struct graph *g = c->sv->g;
	size_t head = 0, i;

	c->v = g->queue;
	c->parent = g->from;
	c->v[c->n++] = (size_t)(program - g->v);
	g->v[c->v[0]].seen = stamp;
	while (head < c->n) {
		const struct node *n = &g->v[c->v[head]];

		for (i = 0; i < n->nto; i++) {
			struct node *m = &g->v[n->to[i]];

			if (m->seen == stamp)
				continue;
			m->seen = stamp;
			c->parent[c->n] = head;
			c->v[c->n++] = n->to[i];
		}
		head++;
	}
}

/* The prefix, then the sonames from the program down to the k-th of the
   closure. */
static char *
chain(const struct cmd *c, size_t k)
{
	const struct graph *g = c->sv->g;
	char space[256], *s;
	size_t at[64], n = 0;
	struct buf b;

	BUF_INIT(b, space);
	buf_puts(&b, c->prefix);
	for (; k != 0 && n < 64; k = c->parent[k])
		at[n++] = k;
	while (n > 0) {
		const struct node *m = &g->v[c->v[at[--n]]];

		buf_puts(&b, " ");
		buf_puts(&b, m->soname != NULL ? m->soname : m->member);
	}
	s = xstrdup(b.p);
	buf_free(&b);
	return s;
}

static void
on_fault(void *arg, const struct mdwe_fault *f)
{
	struct cmd *c = arg;
	struct services *sv = c->sv;
	char *subject = f->node == MDWE_TUNABLE ?
	    named_in(sv, c->svc->env[SVC_TUNABLES].from) :
	    name_of(&sv->g->v[c->v[f->node]]);
	char *host = named_in(sv, c->svc->file);
	struct mgroup *m;
	size_t i;

	for (i = 0; i < sv->nmg; i++)
		if (strcmp(sv->mg[i].subject, subject) == 0 &&
		    strcmp(sv->mg[i].why, f->why) == 0)
			break;
	if (i == sv->nmg) {
		sv->mg = xrealloc(sv->mg, (sv->nmg + 1) * sizeof(*sv->mg));
		m = &sv->mg[sv->nmg++];
		memset(m, 0, sizeof(*m));
		m->subject = subject;
		m->why = f->why;
	} else {
		free(subject);
	}
	m = &sv->mg[i];
	/* A service once: its first command's chain. */
	for (i = 0; i < m->h.n; i++)
		if (strcmp(m->h.v[i].path, host) == 0) {
			free(host);
			return;
		}
	m->h.v = xrealloc(m->h.v, (m->h.n + 1) * sizeof(*m->h.v));
	m->h.v[m->h.n].path = host;
	m->h.v[m->h.n].via = chain(c, f->node == MDWE_TUNABLE ? 0 : f->node);
	m->h.v[m->h.n].library = false;
	m->h.v[m->h.n].service = true;
	m->h.v[m->h.n++].plugin = false;
}

/* A command of a service with MemoryDenyWriteExecute=yes, unless "+". */
static void
judge_command(struct services *sv, const struct service *svc,
    const struct command *cmd, unsigned stamp)
{
	struct cmd c = { .sv = sv, .svc = svc };
	const struct node *p;
	struct mdwe_obj *facts;
	char space[512];
	struct buf prefix;
	size_t k;
	int t;

	BUF_INIT(prefix, space);
	buf_addf(&prefix, "%s=%s", cmd->setting, cmd->path);
	if ((p = program_node(sv, cmd->path, &prefix)) == NULL)
		goto out;
	if (p->kind != CHSTK_KIND_PROGRAM) {
		unit_said(sv, cmd->path, "not a program: not judged");
		goto out;
	}
	stat_add(sv->r->st, C_SYS_PROGRAMS);
	c.prefix = prefix.p;
	closure(&c, p, stamp);
	facts = xcalloc(c.n, sizeof(*facts));
	for (k = 0; k < c.n; k++)
		facts[k] = sv->g->v[c.v[k]].facts;
	/* glibc.rtld.execstack, 2 among its values, came with 2.41. A
	   program that needs no library is taken to be static: the store
	   keeps no PT_INTERP. */
	t = sv->refusing ? tunable_execstack(svc->env[SVC_TUNABLES].value,
	    2) : TUNABLE_UNSET;
	mdwe_faults_of(facts, c.n, p->nneeds > 0, sv->ways,
	    t == TUNABLE_UNSET ? 1 : t, on_fault, &c);
	free(facts);
out:
	buf_free(&prefix);
}

/* The suite's systemd and its services, read from its packages'
   files. */
static void
services_read(struct services *sv, struct store *st, const char *repo,
    const char *arch)
{
	struct graph *g = sv->g;
	static const struct tree_entry merged[] = {
		{ "/bin", TREE_LINK, "usr/bin", NULL },
		{ "/sbin", TREE_LINK, "usr/sbin", NULL },
		{ "/lib", TREE_LINK, "usr/lib", NULL },
		{ "/lib32", TREE_LINK, "usr/lib32", NULL },
		{ "/lib64", TREE_LINK, "usr/lib64", NULL },
		{ "/libx32", TREE_LINK, "usr/libx32", NULL },
	};
	const char *v;
	size_t i;

	for (i = 0; i < sizeof(merged) / sizeof(merged[0]); i++)
		tree_add(g->t, 0, &merged[i]);
	if (g->nfiles > 1)
		qsort(g->files, g->nfiles, sizeof(*g->files), by_in);
	rootfs_open_tree(&sv->fs, repo, NULL, g->t);
	systemd_read(&sv->sd, &sv->fs, NULL, true, unit_said, sv);
	if (store_version(st, repo, arch, "systemd", sv->version,
	    sizeof(sv->version)) != 1)
		sv->version[0] = '\0';
	v = strchr(sv->version, ':');
	v = v != NULL ? v + 1 : sv->version;
	if (sscanf(v, "%u", &sv->sd.version) != 1 || sv->sd.version > 9999)
		sv->sd.version = 0;
	sv->ways = mdwe_ways_of(sv->sd.version, NULL);
	for (i = 0; i < sv->sd.n; i++)
		sv->nmdwe += sv->sd.svc[i].mdwe;
}

/* The services' verdicts. */
static void
services_judge(struct services *sv, unsigned *stamp)
{
	size_t i, k;

	for (i = 0; i < sv->sd.n; i++) {
		const struct service *svc = &sv->sd.svc[i];

		if (!svc->mdwe)
			continue;
		for (k = 0; k < svc->ncmd; k++)
			if (!(svc->cmd[k].flags & CMD_FULL))
				judge_command(sv, svc, &svc->cmd[k], ++*stamp);
	}
	for (i = 0; i < sv->nmg; i++) {
		say(sv->r, sv->repo, (unsigned)__builtin_ctzll(F_MDWE_BREAKS),
		    sv->mg[i].subject, sv->mg[i].why, &sv->mg[i].h);
		hosts_free(&sv->mg[i].h);
		free(sv->mg[i].subject);
	}
	free(sv->mg);
	systemd_free(&sv->sd);
	rootfs_close(&sv->fs);
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
		free(g->v[i].to);
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
	for (i = 0; i < g->nfiles; i++) {
		free(g->files[i].package);
		free(g->files[i].member);
		free(g->files[i].in);
	}
	free(g->files);
	free(g->node_at);
	free(g->queue);
	free(g->from);
	tree_free(g->t);
}

int
suite_judge_one(struct store *st, struct report *r, const char *repo,
    const char *arch)
{
	struct graph g = { .v = NULL };
	struct store_walk walk = { .image = add_image, .needed = add_needed,
	    .file = add_file, .ctx = &g };
	struct services sv = { .g = &g, .r = r, .repo = repo };
	char version[128], name[32], glibc[192], rules[1024], sd[256];
	size_t i, programs = 0, libraries = 0, plugins = 0;
	bool known, refusing;
	unsigned stamp = 0;

	g.t = tree_new();
	if (store_images(st, repo, arch, &walk) < 0) {
		graph_free(&g);
		return -1;
	}
	resolve(&g);
	g.queue = xmalloc((g.n > 0 ? g.n : 1) * sizeof(*g.queue));
	g.from = xmalloc((g.n > 0 ? g.n : 1) * sizeof(*g.from));
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
	sv.refusing = refusing;
	services_read(&sv, st, repo, arch);
	if (sv.nmdwe > 0) {
		snprintf(sd, sizeof(sd), "; %s%s: %zu service%s with MemoryDenyWriteExecute=yes, which it sets by %s",
		    sv.version[0] != '\0' ? "systemd " : "no systemd package",
		    sv.version, sv.nmdwe, sv.nmdwe == 1 ? "" : "s",
		    mdwe_ways_said(sv.ways, sv.sd.version));
		snprintf(rules + strlen(rules), sizeof(rules) - strlen(rules),
		    "%s", sd);
	}
	report_root(r, repo, NULL, rules);
	for (i = 0; i < programs; i++)
		stat_add(r->st, C_SYS_PROGRAMS);
	for (i = 0; i < g.n; i++)
		if (g.v[i].exec && g.v[i].kind == CHSTK_KIND_SHARED)
			judge_library(&g, r, repo, i, ++stamp, refusing, glibc);
	services_judge(&sv, &stamp);
	graph_free(&g);
	return 0;
}
