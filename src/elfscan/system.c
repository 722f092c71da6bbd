/*
 * system.c - the verdicts of one root (see system.h): its rules, read from
 * its own files (the dynamic linker of each machine, /etc/ld.so.cache, the
 * glibc.rtld.execstack tunable /etc/environment sets), then every
 * dynamically linked program the walk met under it, loaded as its ld.so
 * would load it (closure.c), and what glibc will do to it:
 *
 *   a library of its closure asks for an executable stack
 *     glibc.rtld.execstack=0 (2.41 and later)     startup-refused
 *     else, the program not already executable     stack-made-exec
 *   the program itself asks, and the tunable is 0  startup-refused
 *   a needed library found nowhere                 unresolved-library
 *   the tunable is 2 (where the value exists)      tunable-exec-stack
 *
 * and what each program and the root's libc dlopen (plugins.c):
 * plugin-refused, plugin-exec-stack;
 *
 * and then the root's systemd services (units.c), each command's program
 * loaded the same way in the service's own environment (LD_LIBRARY_PATH,
 * the tunable: a service does not see /etc/environment), judged as
 * above where it sets either, and under MemoryDenyWriteExecute=yes by
 * what that does to a program and its libraries (mdwe.c):
 *
 *   it breaks the program                          mdwe-breaks
 *
 * after glibc's elf/dl-load.c (_dl_map_object_from_fd: a library that
 * wants PF_X while the process's stack is not believed executable makes it
 * so at start-up, or is refused under dlopen or with the tunable at 0) and
 * elf/rtld.c (a program that asks, refused with the tunable at 0). "Asks"
 * is the rules table's: marked exec, or unmarked where glibc's default is
 * executable (verdict.c). Verdicts come out grouped by what is at fault,
 * with every program it breaks.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "debug.h"
#include "elfscan.h"
#include "buf.h"
#include "report.h"
#include "system.h"
#include "xalloc.h"

/* The verdicts found so far, one per (kind, subject, why), with their
   hosts. */
struct group {
	unsigned finding;
	char *subject;
	const char *why;
	struct sys_host *hosts;
	size_t n;
	char *cause;		/* what made the subject ask, or NULL */
	enum ev_safe safe;	/* whether chstk -E is safe on it */
	const char *safe_why;
};

struct system {
	const struct opts *o;
	struct report *r;
	struct rootfs fs;
	struct pathset dirs;	/* its system directories, in the root, by
				   their real names: where its programs are */
	struct objects objs;
	struct memo memo;	/* the searches by name alone */
	pthread_mutex_t lock;	/* over ld and the rules */
	struct ldso **ld;	/* one per interpreter, each allocated once */
	size_t nld;
	bool rules;		/* the cache and tunable are read */
	struct cache *cache;
	const char *cache_why;
	char *tunables;		/* GLIBC_TUNABLES of /etc/environment */
	struct group *g;
	size_t ng;
	struct plugins plugins;	/* what processes dlopen */
	struct runs runs;	/* read when opened, then read-only */
	struct systemd sd;	/* the root's services */
	unsigned ways;		/* how its MemoryDenyWriteExecute= works:
				   MDWE_* bits, all that may be */
};

static void verdict(struct system *s, unsigned finding, const char *subject,
    const char *why, const char *host, const char *via);

/* plugins.c's verdicts, and its files that do not parse. */
static void
plugin_verdict(void *arg, unsigned finding, const char *subject,
    const char *why, const char *host, const char *via)
{
	verdict(arg, finding, subject, why, host, via);
}

/* The in-root path as a file is named: DIR/PATH, or FILE[!IMAGE]!PATH;
   the caller frees it. */
static char *
named(const struct system *s, const char *path)
{
	char *p;
	int n;

	if (s->fs.tree != NULL)
		n = asprintf(&p, "%s%s%s!%s", s->fs.name, s->fs.image != NULL ?
		    "!" : "", s->fs.image != NULL ? s->fs.image : "", path);
	else
		n = asprintf(&p, "%.*s%s", (int)s->fs.len, s->fs.name, path);
	if (n < 0)
		oom();
	return p;
}

static void
plugin_malformed(void *arg, const char *path, const char *msg)
{
	struct system *s = arg;
	struct where w = { NULL };
	char *p = named(s, path);

	w.path = p;
	report_error(s->r, &w, UNREAD_ELF, false, msg);
	free(p);
}

static struct system *
system_new(const struct opts *o, struct report *r)
{
	struct system *s = xcalloc(1, sizeof(*s));

	s->o = o;
	s->r = r;
	objects_init(&s->objs);
	pthread_mutex_init(&s->lock, NULL);
	plugins_init(&s->plugins, &s->fs, &s->objs, &s->memo,
	    &(struct plugin_out){ plugin_verdict, plugin_malformed, s });
	return s;
}

struct system *
system_open(const char *dir, const struct opts *o, struct report *r,
    const char **why)
{
	struct system *s = system_new(o, r);

	if (rootfs_open_dir(&s->fs, dir) < 0) {
		*why = strerror(errno);
		system_close(s);
		return NULL;
	}
	runs_read(&s->runs, &s->fs, strcmp(dir, "/") == 0);
	return s;
}

struct system *
system_open_image(const char *file, const char *image, const struct tree *t,
    const struct opts *o, struct report *r)
{
	struct system *s = system_new(o, r);

	rootfs_open_tree(&s->fs, file, image, t);
	runs_read(&s->runs, &s->fs, false);
	system_paths(s, NULL, NULL);
	return s;
}

const struct runs *
system_runs(const struct system *s)
{
	return &s->runs;
}

const char *
system_inside(const struct system *s, const char *path)
{
	return rootfs_inside(&s->fs, path);
}

const struct rootfs *
system_fs(const struct system *s)
{
	return &s->fs;
}

/*
 * The files a root's rules come from, which an image's layer pass keeps
 * for them: the tunable's environment, ld.so.conf and the directory its
 * includes name on Debian, Fedora and Arch (an include elsewhere is not
 * followed in an image), the cache, and the dynamic linkers where glibc
 * installs them (its slibdir, multiarch or not: ld-linux*.so.*,
 * ld64.so.*, ld.so.1, ld-2.31.so). An interpreter elsewhere is said to be
 * unreadable.
 */
static const struct {
	const char *glob;
	size_t max;
} kept[] = {
	{ "/etc/environment", RULES_FILE_MAX },
	{ "/etc/ld.so.conf", RULES_FILE_MAX },
	{ "/etc/ld.so.conf.d/*", RULES_FILE_MAX },
	{ "/etc/ld.so.cache", CACHE_MAX },
	/* plugins.c: the NSS modules named, the gconv modules' table. */
	{ "/etc/nsswitch.conf", RULES_FILE_MAX },
	{ "/usr/lib*/gconv/gconv-modules", RULES_FILE_MAX },
	{ "/usr/lib*/gconv/gconv-modules.d/*", RULES_FILE_MAX },
	{ "/usr/lib*/*/gconv/gconv-modules", RULES_FILE_MAX },
	{ "/usr/lib*/*/gconv/gconv-modules.d/*", RULES_FILE_MAX },
	{ "/lib*/ld[-.6]*", LDSO_MAX },
	{ "/lib*/*/ld[-.6]*", LDSO_MAX },
	{ "/usr/lib*/ld[-.6]*", LDSO_MAX },
	{ "/usr/lib*/*/ld[-.6]*", LDSO_MAX },
};

size_t
system_keeps(const char *path)
{
	size_t i, max;

	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		if (fnmatch(kept[i].glob, path, FNM_PATHNAME) == 0)
			return kept[i].max;
	if ((max = runs_keeps(path)) != 0)
		return max;
	return units_keeps(path);
}

/* The cache and /etc/environment, once; under the lock. */
static void
read_rules(struct system *s)
{
	size_t len;
	char *env;

	if (s->rules)
		return;
	s->rules = true;
	s->cache = cache_read(&s->fs, &s->cache_why);
	env = rootfs_read(&s->fs, "/etc/environment", RULES_FILE_MAX, &len);
	if (env != NULL)
		s->tunables = env_file_value(env, "GLIBC_TUNABLES");
	free(env);
}

/* The dynamic linker at interp, read once; under the lock. */
static struct ldso *
ldso_at(struct system *s, const char *interp, unsigned machine,
    unsigned elf_class)
{
	size_t i;

	read_rules(s);
	for (i = 0; i < s->nld; i++)
		if (strcmp(s->ld[i]->interp, interp) == 0 &&
		    s->ld[i]->machine == machine &&
		    s->ld[i]->elf_class == elf_class)
			return s->ld[i];
	/* Each once, where it stays: the closures' memo keys by it. */
	s->ld = xrealloc(s->ld, (s->nld + 1) * sizeof(*s->ld));
	s->ld[s->nld] = xmalloc(sizeof(**s->ld));
	ldso_read(s->ld[s->nld], &s->fs, interp, machine, elf_class,
	    s->cache);
	return s->ld[s->nld++];
}

/* The tunable's value under l in an environment whose GLIBC_TUNABLES
   is tunables: 1, glibc's default, where unset. */
static int
tunable_in(const struct ldso *l, const char *tunables)
{
	int t;

	if (!l->refuses)
		return 1;
	t = tunable_execstack(tunables, l->force ? 2 : 1);
	return t == TUNABLE_UNSET ? 1 : t;
}

/* The tunable's value under l in a login's environment. */
static int
tunable(const struct system *s, const struct ldso *l)
{
	return tunable_in(l, s->tunables);
}

bool
system_refuses_dlopen(struct system *s, unsigned machine, unsigned elf_class)
{
	const char *interp = ldso_default_interp(machine, elf_class);
	const struct ldso *l;
	bool refuses;

	if (interp == NULL)
		return false;
	pthread_mutex_lock(&s->lock);
	l = ldso_at(s, interp, machine, elf_class);
	refuses = l->glibc && l->refuses && tunable(s, l) != 2;
	pthread_mutex_unlock(&s->lock);
	return refuses;
}

/* Is the in-root path in one of the system directories? */
static bool
walked(const struct system *s, const char *in)
{
	size_t i, len;

	for (i = 0; i < s->dirs.n; i++) {
		len = strlen(s->dirs.v[i]);
		if (strcmp(s->dirs.v[i], "/") == 0 || (strncmp(in, s->dirs.v[i],
		    len) == 0 && in[len] == '/'))
			return true;
	}
	return false;
}

/* A file outside the system directories (an image's: the walk of a
   directory meets none) is kept unnamed, as a library a search may find:
   the first that does names it, as in a directory. */
void
system_add(struct system *s, const char *path, dev_t dev, ino_t ino,
    const struct chstk_info *info)
{
	const char *in = rootfs_inside(&s->fs, path);
	struct obj *o;
	bool met;

	if (in == NULL || (info->kind != CHSTK_KIND_PROGRAM &&
	    info->kind != CHSTK_KIND_SHARED))
		return;
	met = walked(s, in);
	/* What ld.so could not read either: a library that fails to load. */
	if (info->hardening == NULL) {
		objects_put(&s->objs, dev, ino, met ? in : NULL, NULL,
		    "its dynamic section cannot be read", false);
		return;
	}
	o = objects_put(&s->objs, dev, ino, met ? in : NULL, info, NULL,
	    met && info->kind == CHSTK_KIND_PROGRAM &&
	    info->hardening->interp[0]);
	/* A plugin is found by its path, met by the walk or not. */
	plugins_add(&s->plugins, in, o);
}

void
system_unread(struct system *s, const char *path, dev_t dev, ino_t ino,
    const char *why)
{
	const char *in = rootfs_inside(&s->fs, path);

	if (in != NULL)
		objects_put(&s->objs, dev, ino, walked(s, in) ? in : NULL, NULL,
		    why, false);
}

/*
 * Where a root keeps its programs and libraries: the directories of a
 * login's PATH (Debian's /etc/login.defs ENV_SUPATH), the dynamic linker's
 * default directories of every port (elf/dl-load.c system_dirs) and
 * /usr/local/lib, where programs keep their helpers (/usr/libexec, the FHS
 * 4.7), and /opt.
 */
static const char *const system_dirs[] = {
	"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin",
	"/bin", "/lib", "/usr/lib", "/lib64", "/usr/lib64", "/lib32",
	"/usr/lib32", "/libx32", "/usr/libx32", "/usr/local/lib",
	"/usr/libexec", "/usr/local/libexec", "/opt",
};

static void
pathset_add(struct pathset *p, char *path)
{
	p->v = xrealloc(p->v, (p->n + 1) * sizeof(*p->v));
	p->v[p->n++] = path;
}

/* The directory in (in the root), by its real name in the root, once;
   into p as a path of this machine, when the walk finds it there. */
static void
add_dir(struct system *s, const char *in, struct pathset *p)
{
	struct rootfs_stat st;
	char real[4096], *host;
	size_t i;

	if (rootfs_stat(&s->fs, in, &st, real, sizeof(real)) < 0 ||
	    st.type != S_IFDIR)
		return;
	for (i = 0; i < s->dirs.n; i++)
		if (strcmp(s->dirs.v[i], real) == 0)
			return;
	pathset_add(&s->dirs, xstrdup(real));
	if (p != NULL && (host = rootfs_host(&s->fs, real)) != NULL)
		pathset_add(p, host);
}

static void add_conf(struct system *s, const char *file, struct pathset *p,
    int depth);

/* A file an include names. */
struct include {
	struct system *s;
	struct pathset *p;
	int depth;
};

static void
included(void *arg, const char *path)
{
	struct include *in = arg;

	add_conf(in->s, path, in->p, in->depth);
}

/* The directories of an ld.so.conf in the root and the files it includes
   (ldconfig's parse_conf, elf/ldconfig.c: "include" globs, relative ones
   against the including file's directory). */
static void
add_conf(struct system *s, const char *file, struct pathset *p, int depth)
{
	struct include inc = { s, p, depth + 1 };
	char *text, *line, *save = NULL, *q, *pat;
	size_t len;

	if (depth > 8 || (text = rootfs_read(&s->fs, file, RULES_FILE_MAX,
	    &len)) == NULL)
		return;
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		line[strcspn(line, "#")] = '\0';
		line += strspn(line, " \t");
		for (q = line + strlen(line); q > line && (q[-1] == ' ' ||
		    q[-1] == '\t'); )
			*--q = '\0';
		if (strncmp(line, "include", 7) != 0 || (line[7] != ' ' &&
		    line[7] != '\t')) {
			if (line[0] == '/')
				add_dir(s, line, p);
			continue;
		}
		line += 8 + strspn(line + 8, " \t");
		/* A relative pattern: from the including file's directory. */
		len = line[0] == '/' ? 0 : (size_t)(strrchr(file, '/') - file) +
		    1;
		if (asprintf(&pat, "%.*s%s", (int)len, file, line) < 0)
			oom();
		rootfs_glob(&s->fs, pat, included, &inc);
		free(pat);
	}
	free(text);
}

void
system_paths(struct system *s, const char *path_env, struct pathset *p)
{
	char *copy, *dir, *save = NULL;
	size_t i;

	if (path_env != NULL) {
		copy = xstrdup(path_env);
		for (dir = strtok_r(copy, ":", &save); dir != NULL;
		    dir = strtok_r(NULL, ":", &save))
			if (dir[0] == '/')
				add_dir(s, dir, p);
		free(copy);
	}
	add_conf(s, "/etc/ld.so.conf", p, 0);
	for (i = 0; i < sizeof(system_dirs) / sizeof(system_dirs[0]); i++)
		add_dir(s, system_dirs[i], p);
}

/* Note host under the verdict (finding, subject, why). */
static void
verdict(struct system *s, unsigned finding, const char *subject,
    const char *why, const char *host, const char *via)
{
	struct group *g;
	struct obj *o;
	size_t i;

	for (i = 0; i < s->ng; i++)
		if (s->g[i].finding == finding &&
		    strcmp(s->g[i].subject, subject) == 0 &&
		    strcmp(s->g[i].why, why) == 0)
			break;
	if (i == s->ng) {
		s->g = xrealloc(s->g, (s->ng + 1) * sizeof(*s->g));
		g = &s->g[s->ng++];
		memset(g, 0, sizeof(*g));
		g->finding = finding;
		g->subject = xstrdup(subject);
		g->why = why;
	}
	g = &s->g[i];
	if (host == NULL)
		return;
	/* One file once: its first chain, breadth first the shortest. */
	for (i = 0; i < g->n; i++)
		if (strcmp(g->hosts[i].path, host) == 0)
			return;
	o = host[0] == '/' ? objects_at(&s->objs, &s->fs, host) : NULL;
	g->hosts = xrealloc(g->hosts, (g->n + 1) * sizeof(*g->hosts));
	g->hosts[g->n].path = xstrdup(host);
	g->hosts[g->n].via = xstrdup(via);
	g->hosts[g->n].library = o != NULL && !o->program;
	g->hosts[g->n].plugin = false;
	g->hosts[g->n].service = false;
	g->n++;
}

/* Does glibc take the object to ask for an executable stack? */
static bool
asks(const struct obj *o)
{
	return obj_asks(o);
}

/* The DT_NEEDED names from the program down to node i, "a b c", after
   prefix (and a blank) when there is one. */
static char *
via(const struct closure *c, size_t i, const char *prefix)
{
	size_t at[64], n = 0, len = strlen(prefix) + 1, k;
	char *s;

	for (k = c != NULL ? c->v[i].parent : 0; k != 0 && n < 64;
	    k = c->v[k].parent)
		at[n++] = k;
	for (k = 0; k < n; k++)
		len += strlen(c->v[at[k]].name) + 1;
	s = xmalloc(len + 1);
	strcpy(s, prefix);
	while (n > 0) {
		if (s[0] != '\0')
			strcat(s, " ");
		strcat(s, c->v[at[--n]].name);
	}
	return s;
}

/* The closure of program p under l, with LD_LIBRARY_PATH library_path
   (NULL: unset), whose $ORIGIN is the directory of /proc/self/exe, its
   links resolved. */
static void
closure_for(struct system *s, const struct obj *p, const struct ldso *l,
    const char *library_path, struct closure *c)
{
	char where[4096], *origin;
	struct rootfs_stat st;

	if (rootfs_stat(&s->fs, p->path, &st, where, sizeof(where)) < 0)
		snprintf(where, sizeof(where), "%s", p->path);
	origin = xstrdup(where);
	*strrchr(origin, '/') = '\0';
	if (origin[0] == '\0')
		strcpy(origin, "/");
	closure_of(c, p, origin, l, &s->fs, &s->objs, &s->memo,
	    (struct pathlist){ library_path != NULL &&
	    library_path[0] != '\0' ? library_path : NULL, origin });
	free(origin);
}

/* What glibc does at start-up to the program of closure c with the
   tunable at t: verdicts naming host, the libraries between after
   prefix. */
static void
startup(struct system *s, const struct closure *c, int t, const char *host,
    const char *prefix)
{
	const struct obj *p = c->v[0].o;
	bool main_x = asks(p);
	char *chain;
	size_t i;

	if (main_x && t == 0)
		verdict(s, __builtin_ctzll(F_STARTUP_REFUSED), p->path,
		    "glibc.rtld.execstack=0: glibc refuses a program that asks for an executable stack",
		    host, prefix);
	for (i = 1; i < c->n; i++) {
		if (!asks(c->v[i].o) || (main_x && t != 0))
			continue;
		chain = via(c, i, prefix);
		if (t == 0)
			verdict(s, __builtin_ctzll(F_STARTUP_REFUSED),
			    c->v[i].o->path,
			    "glibc.rtld.execstack=0: glibc refuses a library that asks for an executable stack at start-up",
			    host, chain);
		else
			verdict(s, __builtin_ctzll(F_STACK_MADE_EXEC),
			    c->v[i].o->path,
			    "it asks for an executable stack: glibc makes the stack of every program that loads it executable",
			    host, chain);
		free(chain);
	}
	for (i = 0; i < c->nmiss; i++) {
		chain = via(c, c->miss[i].from, prefix);
		verdict(s, __builtin_ctzll(F_UNRESOLVED), c->miss[i].name,
		    c->miss[i].why, host, chain);
		free(chain);
	}
}

/* A program: what its libraries do to it under l. */
static void
judge_program(struct system *s, const struct obj *p, const struct ldso *l)
{
	struct closure c;

	closure_for(s, p, l, NULL, &c);
	stat_add(s->r->st, C_SYS_PROGRAMS);
	startup(s, &c, tunable(s, l), p->path, "");
	plugins_host(&s->plugins, &c, tunable(s, l));
	closure_free(&c);
}

static void
each_program(void *arg, struct obj *o)
{
	struct system *s = arg;
	const struct ldso *l;

	if (!o->program)
		return;
	l = ldso_at(s, o->interp, o->info.machine, o->info.elf_class);
	if (!l->present)
		verdict(s, __builtin_ctzll(F_UNRESOLVED), o->interp,
		    "the program's dynamic linker is not in the root",
		    o->path, "");
	else if (l->glibc)
		judge_program(s, o, l);
}

/* ---- The services ---- */

/* What units.c finds wrong in the root's systemd files. */
static void
say_unit(void *arg, const char *path, const char *msg)
{
	struct system *s = arg;
	char *p = named(s, path);

	report_note(s->r, p, msg);
	free(p);
}

/* How the root's systemd sets MemoryDenyWriteExecute= (mdwe.c): by its
   version, and for this machine's root by the kernel running; another
   root may boot any kernel. A root without a systemd that says its
   version may do either. */
static unsigned
mdwe_ways(const struct system *s)
{
	struct utsname u;
	bool here = s->fs.tree == NULL && s->fs.len == 0 && uname(&u) == 0;

	return mdwe_ways_of(s->sd.version, here ? u.release : NULL);
}

/* The program the kernel runs for path: a script's interpreter ("#!",
   its first word, binfmt_script), a few deep; the interpreters are
   added to prefix. NULL when it cannot be read (said). */
static const struct obj *
program_at(struct system *s, const char *path, struct buf *prefix)
{
	char head[256], name[256], msg[256];
	const struct obj *o;
	int fd, depth;
	ssize_t n;

	for (depth = 0; depth < 4; depth++) {
		if ((fd = rootfs_open(&s->fs, path)) == -1) {
			/* An image's file: its bytes went by with the layer
			   pass, an ELF file's recorded by its identity. */
			if (errno == ENODATA && (o = objects_at(&s->objs,
			    &s->fs, path)) != NULL)
				return o;
			if (errno == ENODATA) {
				say_unit(s, path, "no ELF file of the image, and its bytes went by with the layer pass (a script's interpreter is not known): the command is not judged");
				return NULL;
			}
			snprintf(msg, sizeof(msg), "cannot be read: %s: the command is not judged", rootfs_strerror(errno));
			say_unit(s, path, msg);
			return NULL;
		}
		n = pread(fd, head, sizeof(head), 0);
		close(fd);
		if (n < 0 || !script_interpreter(head, (size_t)n, name,
		    sizeof(name))) {
			if ((o = objects_at(&s->objs, &s->fs, path)) == NULL)
				say_unit(s, path, "not a regular file: the command is not judged");
			return o;
		}
		buf_puts(prefix, " ");
		buf_puts(prefix, name);
		if (name[0] != '/')
			break;
		path = name;
	}
	say_unit(s, path, "a script whose interpreter is not an absolute path to a program, or a script again: not judged");
	return NULL;
}

/* A command of a service, judged. */
struct cmd_judge {
	struct system *s;
	const struct service *svc;
	const char *path;	/* the program the command names */
	const struct closure *c;	/* NULL: static */
	const char *prefix;	/* "ExecStart=/usr/bin/foo" */
};

static void
on_fault(void *arg, const struct mdwe_fault *f)
{
	struct cmd_judge *j = arg;
	const char *subject = f->node == MDWE_TUNABLE ?
	    j->svc->env[SVC_TUNABLES].from : f->node == 0 ? j->path :
	    j->c->v[f->node].o->path;
	char *chain = via(j->c, f->node == MDWE_TUNABLE ? 0 : f->node,
	    j->prefix);

	verdict(j->s, __builtin_ctzll(F_MDWE_BREAKS), subject, f->why,
	    j->svc->name, chain);
	free(chain);
}

/* The program of a dynamically linked command in the service's own
   environment: at start-up, as a program is judged, where the service
   sets the tunable or LD_LIBRARY_PATH; then under MemoryDenyWriteExecute=
   unless "+". */
static void
judge_dynamic(struct cmd_judge *j, const struct obj *p, bool mdwe)
{
	const struct service *svc = j->svc;
	const struct ldso *l;
	struct closure c;
	int t;

	l = ldso_at(j->s, p->interp, p->info.machine, p->info.elf_class);
	if (!l->present) {
		verdict(j->s, __builtin_ctzll(F_UNRESOLVED), p->interp,
		    "the program's dynamic linker is not in the root",
		    svc->name, j->prefix);
		return;
	}
	if (!l->glibc) {
		/* Another C library: what the kernel does to the program
		   still holds. */
		if (mdwe)
			mdwe_faults(p, NULL, j->s->ways, 1, on_fault, j);
		return;
	}
	t = tunable_in(l, svc->env[SVC_TUNABLES].value);
	closure_for(j->s, p, l, svc->env[SVC_LIBRARY_PATH].value, &c);
	j->c = &c;
	if (svc->env[SVC_TUNABLES].value != NULL ||
	    svc->env[SVC_LIBRARY_PATH].value != NULL)
		startup(j->s, &c, t, svc->name, j->prefix);
	if (t == 2 && !mdwe)
		verdict(j->s, __builtin_ctzll(F_TUNABLE_EXEC_STACK),
		    svc->env[SVC_TUNABLES].from,
		    "it sets GLIBC_TUNABLES=glibc.rtld.execstack=2 for the service",
		    svc->name, j->prefix);
	if (mdwe)
		mdwe_faults(p, &c, j->s->ways, t, on_fault, j);
	closure_free(&c);
}

static void
judge_command(struct system *s, const struct service *svc,
    const struct command *cmd)
{
	struct cmd_judge j = { s, svc, cmd->path, NULL, NULL };
	bool mdwe = svc->mdwe && !(cmd->flags & CMD_FULL);
	const struct obj *p;
	char space[512];
	struct buf prefix;

	BUF_INIT(prefix, space);
	buf_addf(&prefix, "%s=%s", cmd->setting, cmd->path);
	if ((p = program_at(s, cmd->path, &prefix)) == NULL)
		goto out;
	j.prefix = prefix.p;
	if (p->error != NULL || p->info.kind != CHSTK_KIND_PROGRAM) {
		say_unit(s, p->path, p->error != NULL ? p->error :
		    "not a program: not judged");
		goto out;
	}
	if (strcmp(prefix.p + strlen(cmd->setting) + 1, cmd->path) != 0)
		j.path = p->path;
	stat_add(s->r->st, C_SYS_PROGRAMS);
	if (p->interp[0] != '\0')
		judge_dynamic(&j, p, mdwe);
	else if (mdwe)
		mdwe_faults(p, NULL, s->ways, 1, on_fault, &j);
out:
	buf_free(&prefix);
}

static void
judge_services(struct system *s)
{
	size_t i, k;

	systemd_read(&s->sd, &s->fs, &s->objs, false, say_unit, s);
	s->ways = mdwe_ways(s);
	for (i = 0; i < s->sd.n; i++)
		for (k = 0; k < s->sd.svc[i].ncmd; k++)
			judge_command(s, &s->sd.svc[i], &s->sd.svc[i].cmd[k]);
}

/* How the root's systemd sets MemoryDenyWriteExecute=, for people. */
static void
report_systemd(const struct system *s, char *line, size_t len,
    const char *sep)
{
	char version[64];

	if (s->sd.version != 0)
		snprintf(version, sizeof(version), "systemd %u", s->sd.version);
	else
		snprintf(version, sizeof(version), "%s", s->sd.binary != NULL ?
		    "systemd of unknown version" : "no systemd manager");
	snprintf(line, len, "%s%s: MemoryDenyWriteExecute= by %s", sep,
	    version, mdwe_ways_said(s->ways, s->sd.version));
}

/* The root's rules, said once for people. */
static void
report_rules(struct system *s)
{
	char line[1024];
	size_t i, n = 0;

	for (i = 0; i < s->nld && n < sizeof(line); i++) {
		const struct ldso *l = s->ld[i];

		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s: %s%s%s",
		    n ? "; " : "", l->interp, !l->present ? "absent" :
		    l->why != NULL ? "cannot read: " : !l->glibc ?
		    "not glibc's" : l->banner, l->why != NULL ? l->why : "",
		    !l->glibc ? "" :
		    l->refuses ? ", dlopen refuses an executable stack" :
		    ", dlopen makes the stack executable");
		if (n < sizeof(line) && l->glibc && l->refuses)
			n += (size_t)snprintf(line + n, sizeof(line) - n,
			    ", glibc.rtld.execstack=%d%s", tunable(s, l),
			    tunable_execstack(s->tunables, l->force ? 2 : 1) ==
			    TUNABLE_UNSET ? " (the default)" :
			    " (/etc/environment)");
	}
	if (n < sizeof(line) && s->cache == NULL)
		n += (size_t)snprintf(line + n, sizeof(line) - n,
		    "%sno ld.so.cache%s%s", n ? "; " : "", s->cache_why ? ": " :
		    "", s->cache_why ? s->cache_why : "");
	if (n < sizeof(line) && s->sd.n > 0)
		report_systemd(s, line + n, sizeof(line) - n, n ? "; " : "");
	report_root(s->r, s->fs.name, s->fs.image, line);
}

static int
by_subject(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	int d;

	if (x->finding != y->finding)
		return x->finding < y->finding ? -1 : 1;
	d = strcmp(x->subject, y->subject);
	return d != 0 ? d : strcmp(x->why, y->why);
}

static int
by_host(const void *a, const void *b)
{
	return strcmp(((const struct sys_host *)a)->path,
	    ((const struct sys_host *)b)->path);
}

/*
 * A verdict on a file that asks for an executable stack (a library, or
 * the program itself): what made it ask and whether chstk -E is safe on
 * it, from the file read again whole, code and DWARF, and its separate
 * debug file in the root (evidence.h).
 */
static void
group_cause(struct system *s, struct group *g)
{
	uint64_t f = F_BIT(g->finding);
	struct chstk_info info;
	struct evidence ev;
	char cause[1024];

	if (!(f & (F_STACK_MADE_EXEC | F_STARTUP_REFUSED | F_PLUGIN_REFUSED |
	    F_PLUGIN_EXEC_STACK)) || g->subject[0] != '/' ||
	    !debug_evidence_at(&s->fs, g->subject, &info, &ev))
		return;
	g->safe = ev_cause(&info, &ev, cause, sizeof(cause));
	g->cause = xstrdup(cause);
	g->safe_why = ev_safe_phrase(g->safe, &info, &ev);
}

/* After the walk, in one thread: the lock is not taken. */
void
system_judge(struct system *s)
{
	struct sys_verdict v;
	size_t i, k;
	int t;

	read_rules(s);
	objects_each(&s->objs, each_program, s);
	judge_services(s);
	for (i = 0; i < s->nld; i++) {
		t = tunable(s, s->ld[i]);
		plugins_root(&s->plugins, s->ld[i], t);
		if (t == 2)
			verdict(s, __builtin_ctzll(F_TUNABLE_EXEC_STACK),
			    "/etc/environment",
			    "it sets GLIBC_TUNABLES=glibc.rtld.execstack=2 for every session",
			    NULL, NULL);
	}
	report_rules(s);
	if (s->ng > 1)
		qsort(s->g, s->ng, sizeof(*s->g), by_subject);
	for (i = 0; i < s->ng; i++) {
		struct group *g = &s->g[i];

		if (g->n > 1)
			qsort(g->hosts, g->n, sizeof(*g->hosts), by_host);
		group_cause(s, g);
		v = (struct sys_verdict){ .finding = g->finding,
		    .root = s->fs.name, .image = s->fs.image,
		    .in_image = s->fs.tree != NULL, .subject = g->subject,
		    .why = g->why, .cause = g->cause,
		    .exec_safe = ev_safe_word(g->safe),
		    .exec_safe_why = g->safe_why, .hosts = g->hosts,
		    .nhosts = g->n };
		report_verdict(s->r, &v);
		stat_add(s->r->st, C_VERDICTS);
		stat_add(s->r->st, C_KIND + g->finding);
		for (k = 0; k < g->n; k++)
			stat_add(s->r->st, C_V_STACK + g->finding -
			    F_FIRST_SYSTEM);
	}
}
_Static_assert(C_V_MDWE - C_V_STACK ==
    __builtin_ctzll(F_MDWE_BREAKS) - F_FIRST_SYSTEM,
    "the verdicts' counters are in the order of their findings");

void
system_close(struct system *s)
{
	size_t i, k;

	if (s == NULL)
		return;
	for (i = 0; i < s->ng; i++) {
		for (k = 0; k < s->g[i].n; k++) {
			free((char *)s->g[i].hosts[k].path);
			free((char *)s->g[i].hosts[k].via);
		}
		free(s->g[i].hosts);
		free(s->g[i].subject);
		free(s->g[i].cause);
	}
	free(s->g);
	plugins_free(&s->plugins);
	for (i = 0; i < s->nld; i++) {
		ldso_free(s->ld[i]);
		free(s->ld[i]);
	}
	free(s->ld);
	cache_free(s->cache);
	memo_free(&s->memo);
	free(s->tunables);
	runs_free(&s->runs);
	systemd_free(&s->sd);
	objects_free(&s->objs);
	pthread_mutex_destroy(&s->lock);
	rootfs_close(&s->fs);
	for (i = 0; i < s->dirs.n; i++)
		free(s->dirs.v[i]);
	free(s->dirs.v);
	free(s);
}
