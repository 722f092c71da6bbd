/*
 * plugins.c - the objects a process dlopens, each paired with its host
 * (see system.h): what lies where a host looks for its modules, met by the
 * walk (python3 extension modules, PAM and gconv modules, Node addons, JNI
 * libraries), what the root's files name (the NSS modules of
 * /etc/nsswitch.conf, the gconv modules of gconv-modules), and the
 * libraries an object's .note.dlopen names. Each is loaded on top of its
 * host's closure as the host's dlopen would load it (closure.c: the
 * plugin's own RPATH chain, then the main program's RPATH), and what glibc
 * does with a plugin that asks for an executable stack, itself or through
 * a library it needs (elf/dl-load.c, _dl_map_object_from_fd; a dlopened
 * object's DT_NEEDED are loaded under its __RTLD_DLOPEN, elf/dl-open.c):
 *
 *   the host's stack is executable already       nothing changes
 *   glibc 2.41 and later, the tunable 0 or 1     plugin-refused
 *   the tunable 2                                it loads (the stack is
 *                                                executable from the start:
 *                                                tunable-exec-stack)
 *   glibc before 2.41                            plugin-exec-stack
 *
 * "Executable already": the host or a library it loads at start-up asks,
 * which glibc's GL(dl_stack_flags) then says; hosts not known (NSS, gconv,
 * the process of a .note.dlopen) are taken not to.
 */
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "system.h"
#include "verdict.h"
#include "xalloc.h"

/*
 * What each kind of plugin is, who loads it when no program can be named,
 * and what its host does when glibc refuses it.
 */
static const struct plugin_kind {
	const char *what;
	const char *host;
	const char *refused;
} kinds[] = {
	/* Python/dynload_shlib.c: dlopen, and ImportError(dlerror());
	   [run] tests/system/glibc-roots.sh */
	[PLUGIN_PYTHON] = { "a python3 extension module", NULL,
	  "the import fails with ImportError and glibc's message" },
	/* libpam/pam_dynamic.c _pam_dlopen: dlopen(RTLD_NOW); what is
	   logged is the error of its fallback path; [run] glibc-roots.sh */
	[PLUGIN_PAM] = { "a PAM module", NULL,
	  "PAM hides why: the service fails with 'Module is unknown', and its log names only a missing file" },
	/* nss/nss_module.c module_load: __libc_dlopen; a module that does
	   not load is unavailable; [run] glibc-roots.sh */
	[PLUGIN_NSS] = { "an NSS module",
	  "every program that looks these up loads it",
	  "the failure is silent: glibc skips the module, and what only it knows is not found" },
	/* iconv/gconv_dl.c __gconv_find_shlib: __libc_dlopen; no module, no
	   conversion: iconv_open fails with EINVAL */
	[PLUGIN_GCONV] = { "a gconv module",
	  "every program that converts this character set with iconv(3) loads it",
	  "iconv_open fails with EINVAL, as for a conversion that does not exist" },
	/* node src/node_binding.cc DLOpen: ERR_DLOPEN_FAILED with
	   dlerror(); [run] tests/system/plugins.sh */
	[PLUGIN_NODE] = { "a Node addon", NULL,
	  "require() throws ERR_DLOPEN_FAILED with glibc's message" },
	/* hotspot os_linux.cpp os::dll_load: UnsatisfiedLinkError with
	   dlerror() */
	[PLUGIN_JNI] = { "a JNI library", NULL,
	  "System.loadLibrary throws UnsatisfiedLinkError with glibc's message" },
	/* systemd src/basic/dlfcn-util.h dlopen_many_sym_or_warn: the
	   feature is off, the error logged */
	[PLUGIN_NOTE] = { "a library", NULL, "the feature it brings is off" },
};

void
plugins_init(struct plugins *p, const struct rootfs *fs, struct objects *objs,
    struct memo *memo, const struct plugin_out *out)
{
	memset(p, 0, sizeof(*p));
	pthread_mutex_init(&p->lock, NULL);
	p->fs = fs;
	p->objs = objs;
	p->memo = memo;
	p->out = *out;
}

void
plugins_free(struct plugins *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->v[i].path);
	for (i = 0; i < p->nwhy; i++)
		free(p->why[i]);
	free(p->v);
	free(p->carrier);
	free(p->why);
	pthread_mutex_destroy(&p->lock);
}

/* Does s start with prefix? Then what follows it. */
static const char *
after(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(s, prefix, n) == 0 ? s + n : NULL;
}

static bool
ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Is dir (len bytes) a library directory of a glibc system: /lib,
   /usr/lib, their 64 and 32 variants, and a multiarch directory in
   them (/usr/lib/x86_64-linux-gnu)? */
static bool
lib_dir(const char *dir, size_t len)
{
	static const char *const base[] = { "/usr/lib64", "/usr/lib32",
	    "/usr/lib", "/lib64", "/lib32", "/lib" };
	const char *rest;
	size_t i, k;

	for (i = 0; i < sizeof(base) / sizeof(base[0]); i++) {
		k = strlen(base[i]);
		if (len < k || strncmp(dir, base[i], k) != 0)
			continue;
		rest = dir + k;
		if (len == k)
			return true;
		return rest[0] == '/' && memchr(rest + 1, '/', len - k - 1) ==
		    NULL && memmem(rest, len - k, "-linux", 6) != NULL;
	}
	return false;
}

/* A module of the directory named name in a library directory
   (/usr/lib/x86_64-linux-gnu/security/pam_unix.so)? */
static bool
module_of(const char *path, const char *name)
{
	const char *file = strrchr(path, '/'), *dir;
	size_t n = strlen(name);

	if (file == NULL || !ends(file, ".so"))
		return false;
	for (dir = file; dir > path && dir[-1] != '/'; dir--)
		;
	return dir > path && (size_t)(file - dir) == n &&
	    strncmp(dir, name, n) == 0 && lib_dir(path, (size_t)(dir - 1 -
	    path));
}

/*
 * The python3 a module at path is for: "3.11", "" for any, NULL when it is
 * none. Where Debian's python3 looks (sys.path of /usr/bin/python3.X:
 * lib-dynload, /usr/local/lib/python3.X/dist-packages,
 * /usr/lib/python3/dist-packages), other systems' site-packages, and a
 * venv's (lib/python3.X/site-packages beside a pyvenv.cfg, checked when
 * judged). The file's name ends in one of the suffixes the host accepts
 * (importlib.machinery.EXTENSION_SUFFIXES: .cpython-311-x86_64-linux-gnu.so,
 * .abi3.so, .so): a versioned one names its python. Libraries that wheels
 * bring along (pkg.libs/, auditwheel's) are no modules.
 */
static bool
python_module(const char *path, char *ver, size_t len, bool *venv)
{
	const char *p, *tag;
	size_t n;

	*venv = false;
	ver[0] = '\0';
	if (!ends(path, ".so") || strstr(path, ".libs/") != NULL)
		return false;
	if (after(path, "/usr/lib/python3/dist-packages/") == NULL) {
		p = strstr(path, "/lib/python3.");
		if (p == NULL)
			p = strstr(path, "/lib64/python3.");
		if (p == NULL)
			return false;
		p = strchr(p + 1, '/') + strlen("/python");
		n = strcspn(p, "/");
		if (n >= len || (after(p + n, "/lib-dynload/") == NULL &&
		    after(p + n, "/site-packages/") == NULL &&
		    after(p + n, "/dist-packages/") == NULL))
			return false;
		*venv = after(path, "/usr/") == NULL;
		memcpy(ver, p, n);
		ver[n] = '\0';
	}
	if ((tag = strstr(strrchr(path, '/'), ".cpython-3")) == NULL)
		return true;
	tag += strlen(".cpython-");
	n = strcspn(tag, "-.");
	if (n < 2 || n + 1 >= len || (ver[0] != '\0' &&
	    (strlen(ver) != n + 1 || ver[0] != tag[0] ||
	    strncmp(ver + 2, tag + 1, n - 1) != 0)))
		return false;
	snprintf(ver, len, "%c.%.*s", tag[0], (int)(n - 1), tag + 1);
	return true;
}

/*
 * The JVM a JNI library at path belongs to: its own directory
 * (/usr/lib/jvm/NAME/), "" for any JVM when it lies in a directory of
 * Debian's java.library.path (/usr/java/packages/lib,
 * /usr/lib/MULTIARCH/jni, /usr/lib/jni; the others of that path are the
 * system's library directories, whose libraries are no JNI libraries).
 */
static bool
jni_library(const char *path, char *jvm, size_t len)
{
	const char *p = after(path, "/usr/lib/jvm/"), *file;
	size_t n;

	jvm[0] = '\0';
	if (!ends(path, ".so"))
		return false;
	if (p != NULL) {
		n = (size_t)(p - path) + strcspn(p, "/") + 1;
		if (n >= len || strstr(path + n - 1, "/lib/") == NULL)
			return false;
		snprintf(jvm, len, "%.*s", (int)n, path);
		return true;
	}
	file = strrchr(path, '/');
	return (after(path, "/usr/java/packages/lib/") != NULL &&
	    strchr(path + 23, '/') == NULL) || module_of(path, "jni") ||
	    (file - path == 12 && after(path, "/usr/lib/jni/") != NULL);
}

void
plugins_add(struct plugins *p, const char *path, const struct obj *o)
{
	struct plugin g = { .o = o };

	size_t i;

	/* A file the walk meets twice (hard links) is one object. */
	if (o->dlopen != NULL) {
		pthread_mutex_lock(&p->lock);
		for (i = 0; i < p->ncarrier && p->carrier[i] != o; i++)
			;
		if (i == p->ncarrier) {
			p->carrier = xrealloc(p->carrier, (p->ncarrier + 1) *
			    sizeof(*p->carrier));
			p->carrier[p->ncarrier++] = o;
		}
		pthread_mutex_unlock(&p->lock);
	}
	if (o->info.kind != CHSTK_KIND_SHARED)
		return;
	if (python_module(path, g.version, sizeof(g.version), &g.venv))
		g.kind = PLUGIN_PYTHON;
	else if (module_of(path, "security"))
		g.kind = PLUGIN_PAM;
	else if (module_of(path, "gconv"))
		g.kind = PLUGIN_GCONV;
	else if (ends(path, ".node"))
		g.kind = PLUGIN_NODE;
	else if (jni_library(path, g.version, sizeof(g.version)))
		g.kind = PLUGIN_JNI;
	else
		return;
	pthread_mutex_lock(&p->lock);
	for (i = 0; i < p->n && (p->v[i].o != o || p->v[i].kind != g.kind);
	    i++)
		;
	if (i == p->n) {
		g.path = xstrdup(path);
		p->v = xrealloc(p->v, (p->n + 1) * sizeof(*p->v));
		p->v[p->n++] = g;
	}
	pthread_mutex_unlock(&p->lock);
}

/* A sentence kept until the verdicts are out: the groups point at it. */
static const char *
keep(struct plugins *p, char *why)
{
	size_t i;

	for (i = 0; i < p->nwhy; i++)
		if (strcmp(p->why[i], why) == 0) {
			free(why);
			return p->why[i];
		}
	p->why = xrealloc(p->why, (p->nwhy + 1) * sizeof(*p->why));
	p->why[p->nwhy++] = why;
	return why;
}

/* One pair being judged. */
struct pair {
	enum plugin_which kind;
	const char *what;	/* the kind's words, or more: "an NSS module
				   /etc/nsswitch.conf names for passwd" */
	const char *host;	/* the host's path, or NULL */
	int t;			/* the tunable in the host */
	bool x;			/* the host's stack is executable already */
	bool secure;		/* it ignores the tunable the root sets */
};

/* The verdict on node at, the plugin loaded on top of closure c, whose
   first node that asks is asker. */
static void
say(struct plugins *p, const struct closure *c, size_t at, size_t asker,
    const struct pair *w)
{
	const struct plugin_kind *k = &kinds[w->kind];
	char *why, *chain = asker != at ? closure_via(c, asker, true) : NULL;
	bool refused = c->l->refuses;

	if (asprintf(&why, "%s%s%s%s: it asks for an executable stack%s%s%s: %s%s",
	    w->what, w->host == NULL && k->host != NULL ? "; " : "",
	    w->host == NULL && k->host != NULL ? k->host : "", w->secure ?
	    "; in a program that runs setuid, setgid or with capabilities, which ignores GLIBC_TUNABLES" :
	    "",
	    chain != NULL ? " through " : "", chain != NULL ? chain : "",
	    chain != NULL ? ", which it needs" : "", refused ?
	    "glibc 2.41 and later refuse to dlopen it: " :
	    "glibc before 2.41 loads it and makes the stack of the process executable, and of its threads",
	    refused ? k->refused : "") < 0)
		oom();
	p->out.verdict(p->out.arg, (unsigned)__builtin_ctz(refused ?
	    F_PLUGIN_REFUSED : F_PLUGIN_EXEC_STACK), c->v[at].o->path,
	    keep(p, why), w->host, "");
	free(chain);
}

static void
found_one(void *arg, const char *path)
{
	(void)path;
	*(bool *)arg = true;
}

/* Does a file named name lie in the install tree of the plugin at
   path: in its directory, its parent, or one level below either (a
   JDK's lib/server/libjvm.so for lib/libjava.so, LibreOffice's
   program/, Firefox's lib*.so, libpython beside a module's tree)?
   Such a runtime is not missing: the host that loads the plugin
   dlopens its runtime by path first (the java launcher's
   LoadJavaVM), and ld.so then finds the soname loaded already
   (elf/dl-load.c, _dl_map_object matches l_soname). */
static bool
in_own_tree(const struct plugins *p, const char *path, const char *name)
{
	static const char *const below[] = { "", "*/" };
	const char *slash = strrchr(path, '/');
	size_t dir[2], i, k;
	bool found = false;
	char pat[4096];

	if (slash == NULL || slash == path || strpbrk(name, "*?[\\/"))
		return false;
	dir[0] = dir[1] = (size_t)(slash - path);
	while (dir[1] > 0 && path[--dir[1]] != '/')
		;
	for (i = 0; i < 2 && !found; i++)
		for (k = 0; k < 2 && !found; k++)
			if (snprintf(pat, sizeof(pat), "%.*s/%s%s",
			    (int)dir[i], path, below[k], name) <
			    (int)sizeof(pat))
				rootfs_glob(p->fs, pat, found_one, &found);
	return found;
}

/* dlopen(name) from node caller of closure c, judged; c as it was
   after. Was it found? */
static bool
judge(struct plugins *p, struct closure *c, const char *name, size_t caller,
    const struct pair *w)
{
	size_t n = c->n, nmiss = c->nmiss, at, i, asker = SIZE_MAX;
	char *chain;

	at = closure_dlopen(c, name, caller);
	/* Found nowhere, or loaded already: the host's own verdicts. */
	if (at == SIZE_MAX || at < n)
		goto out;
	for (i = at; i < c->n && asker == SIZE_MAX; i++)
		if (obj_asks(c->v[i].o))
			asker = i;
	if (asker != SIZE_MAX && !w->x && (!c->l->refuses || w->t != 2))
		say(p, c, at, asker, w);
	for (i = nmiss; i < c->nmiss; i++) {
		if (in_own_tree(p, c->v[c->miss[i].from].o->path,
		    c->miss[i].name))
			continue;
		chain = closure_via(c, c->miss[i].from, c->miss[i].from != at);
		p->out.verdict(p->out.arg,
		    (unsigned)__builtin_ctz(F_UNRESOLVED), c->miss[i].name,
		    c->miss[i].why, c->v[at].o->path, chain);
		free(chain);
	}
out:
	closure_truncate(c, n, nmiss);
	return at != SIZE_MAX;
}

/* Is the host's stack executable already, at start-up? */
static bool
executable(const struct closure *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (obj_asks(c->v[i].o))
			return true;
	return false;
}

/* A venv's module: is there a pyvenv.cfg where its lib/ starts? */
static bool
in_venv(const struct plugins *p, const char *path)
{
	const char *lib = strstr(path, "/lib/python3.");
	struct rootfs_stat st;
	char cfg[4096];

	if (lib == NULL)
		lib = strstr(path, "/lib64/python3.");
	if (lib == NULL || snprintf(cfg, sizeof(cfg), "%.*s/pyvenv.cfg",
	    (int)(lib - path), path) >= (int)sizeof(cfg))
		return false;
	return rootfs_stat(p->fs, cfg, &st, NULL, 0) == 0 &&
	    st.type == S_IFREG;
}

/* The python3 version a program named base is: "3.11" of python3.11,
   "3.13t" of python3.13t (free-threaded); NULL for any other name. */
static const char *
python_version(const char *base)
{
	const char *v = after(base, "python3."), *e;

	if (v == NULL)
		return NULL;
	e = v + strspn(v, "0123456789");
	return e > v && (*e == '\0' || strcmp(e, "t") == 0) ? base + 6 : NULL;
}

/* Is plugin g for the host program at path (basename base)? */
static bool
hosts(const struct plugins *p, const struct plugin *g, const char *path,
    const char *base, bool pam)
{
	const char *v;

	switch (g->kind) {
	case PLUGIN_PYTHON:
		return (v = python_version(base)) != NULL &&
		    (g->version[0] == '\0' || strcmp(v, g->version) == 0) &&
		    (!g->venv || in_venv(p, g->path));
	case PLUGIN_PAM:
		return pam;
	case PLUGIN_NODE:
		return strcmp(base, "node") == 0 || strcmp(base, "nodejs") == 0;
	case PLUGIN_JNI:
		return strcmp(base, "java") == 0 && (g->version[0] == '\0' ||
		    after(path, g->version) != NULL);
	default:
		return false;
	}
}

/* Does the program at path run with AT_SECURE when a user other than
   its owner runs it, as setuid and setgid programs and those with file
   capabilities are (security.capability)? glibc then ignores
   GLIBC_TUNABLES (elf/dl-tunables.c __tunables_init) and the tunable
   keeps its default, 1; [run] tests/system/glibc-roots.sh. */
static bool
secure(const struct plugins *p, const char *path)
{
	struct stat st;
	bool yes = false;
	int fd;

	/* An image's file went by with its layer pass: taken not to be. */
	fd = rootfs_open(p->fs, path);
	if (fd == -1)
		return false;
	if (fstat(fd, &st) == 0)
		yes = (st.st_mode & S_ISUID) != 0 || (st.st_mode &
		    (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) ||
		    fgetxattr(fd, "security.capability", NULL, 0) > 0;
	close(fd);
	return yes;
}

void
plugins_host(struct plugins *p, struct closure *c, int t)
{
	const char *path = c->v[0].o->path, *base = strrchr(path, '/') + 1;
	struct pair w = { .host = path, .t = t, .x = executable(c) };
	bool pam = false;
	size_t i;

	/* Its users are who runs such a program: not its owner. */
	if (c->l->refuses && t != 1 && secure(p, path)) {
		w.secure = t == 2;
		w.t = 1;
	}
	/* A host refused at start-up loads nothing. */
	if (!c->l->glibc || (w.x && w.t == 0))
		return;
	for (i = 1; i < c->n; i++)
		pam |= strcmp(c->v[i].o->soname, "libpam.so.0") == 0;
	for (i = 0; i < p->n; i++) {
		if (!hosts(p, &p->v[i], path, base, pam))
			continue;
		w.kind = p->v[i].kind;
		w.what = kinds[w.kind].what;
		judge(p, c, p->v[i].path, 0, &w);
	}
}

/* ---- What no program can be named for ---- */

/* Is service of nsswitch.conf built into the libc of l? glibc 2.34 made
   files and dns part of libc (nss/nss_module.c module_load). */
static bool
nss_builtin(const struct ldso *l, const char *service)
{
	const char *v = strstr(l->banner, "release version ");
	unsigned major = 2, minor = 34;

	if (v != NULL)
		sscanf(v + 16, "%u.%u", &major, &minor);
	return (major > 2 || (major == 2 && minor >= 34)) &&
	    (strcmp(service, "files") == 0 || strcmp(service, "dns") == 0);
}

/* The databases of nsswitch.conf (text, its lines made words) that name
   service, "passwd, group", into out. */
static void
nss_databases(const char *text, const char *service, char *out, size_t len)
{
	const char *line, *e, *colon, *w;
	size_t n = 0, k = strlen(service), wl;

	out[0] = '\0';
	for (line = text; *line != '\0'; line = *e != '\0' ? e + 1 : e) {
		e = strchrnul(line, '\n');
		colon = memchr(line, ':', (size_t)(e - line));
		if (colon == NULL)
			continue;
		for (w = colon + 1; w < e; w += wl) {
			w += strspn(w, " \t");
			wl = strcspn(w, " \t\n");
			if (wl == k && strncmp(w, service, k) == 0 && n < len)
				n += (size_t)snprintf(out + n, len - n, "%s%.*s",
				    n > 0 ? ", " : "", (int)(colon - line),
				    line);
		}
	}
}

/* nsswitch.conf as words: comments and [STATUS=action] gone. */
static void
nss_words(char *text)
{
	char *p, *q;

	for (p = text; *p != '\0'; p++) {
		if (*p == '#')
			for (; *p != '\0' && *p != '\n'; p++)
				*p = ' ';
		if (*p == '[')
			for (q = p; *q != '\0' && *q != '\n' && *q != ']'; q++)
				*q = ' ';
		if (*p == ']')
			*p = ' ';
	}
}

/* The services of nsswitch.conf's words: each line's database name and
   colon blanked, a line without one wholly. */
static void
nss_services(char *text)
{
	char *line, *e, *colon;

	for (line = text; *line != '\0'; line = *e != '\0' ? e + 1 : e) {
		e = strchrnul(line, '\n');
		colon = memchr(line, ':', (size_t)(e - line));
		memset(line, ' ', (size_t)((colon != NULL ? colon + 1 : e) -
		    line));
	}
}

/* The NSS modules of /etc/nsswitch.conf, each loaded from libc.so.6 as
   glibc loads it: libnss_NAME.so.2 (nss/nss_module.c module_load), with
   no RPATH or RUNPATH of its caller's (the main program's, unknown, is
   taken to have none). A module found nowhere is skipped by glibc, as
   here; so is an absent nsswitch.conf, whose defaults name files, dns
   and modules Debian does not ship (nss/nss_database.c). */
static void
nss(struct plugins *p, const struct ldso *l, int t)
{
	char *text, *copy, *w, *save = NULL, name[256], dbs[512], *what;
	struct pair pw = { .kind = PLUGIN_NSS, .t = t };
	const char **done = NULL;
	struct closure c;
	size_t len, ndone = 0, i;

	if ((text = rootfs_read(p->fs, "/etc/nsswitch.conf", 1 << 20, &len)) ==
	    NULL)
		return;
	nss_words(text);
	copy = xstrdup(text);
	nss_services(copy);
	closure_init(&c, l, p->fs, p->objs, p->memo,
	    (struct pathlist){ NULL, NULL });
	for (w = strtok_r(copy, " \t\n", &save); w != NULL;
	    w = strtok_r(NULL, " \t\n", &save)) {
		for (i = 0; i < ndone && strcmp(done[i], w) != 0; i++)
			;
		if (i < ndone || nss_builtin(l, w) || strchr(w, '/') != NULL ||
		    snprintf(name, sizeof(name), "libnss_%s.so.2", w) >=
		    (int)sizeof(name))
			continue;
		done = xrealloc(done, (ndone + 1) * sizeof(*done));
		done[ndone++] = w;
		nss_databases(text, w, dbs, sizeof(dbs));
		if (asprintf(&what, "an NSS module /etc/nsswitch.conf names for %s",
		    dbs) < 0)
			oom();
		pw.what = keep(p, what);
		judge(p, &c, name, SIZE_MAX, &pw);
	}
	closure_free(&c);
	free(done);
	free(copy);
	free(text);
}

/*
 * The gconv modules a configuration names (iconv/gconv_conf.c, 2.41:
 * gconv-modules, then gconv-modules.d/ *.conf; a line "module FROM TO FILE
 * [COST]", FILE relative to the directory, ".so" added unless it ends so).
 * Is the module at path (in directory dir, len bytes) one of them? Then
 * the character set it brings, into set.
 */
static bool
gconv_named(const char *conf, const char *dir, size_t len, const char *path,
    char *set, size_t setlen)
{
	char one[2048], from[128], to[128], file[1024], full[4096];
	const char *line, *e;

	for (line = conf; *line != '\0'; line = *e != '\0' ? e + 1 : e) {
		e = strchrnul(line, '\n');
		snprintf(one, sizeof(one), "%.*s", (int)(e - line), line);
		if (sscanf(one, " module %127s %127s %1023s", from, to,
		    file) != 3)
			continue;
		if (file[0] == '/')
			snprintf(full, sizeof(full), "%s", file);
		else
			snprintf(full, sizeof(full), "%.*s/%s", (int)len, dir,
			    file);
		if (!ends(full, ".so") && strlen(full) + 3 < sizeof(full))
			strcat(full, ".so");
		if (strcmp(full, path) == 0) {
			snprintf(set, setlen, "%s", strcasecmp(from,
			    "INTERNAL") == 0 ? to : from);
			return true;
		}
	}
	return false;
}

/* A gconv directory's configuration as its files are read. */
struct gconv_text {
	const struct plugins *p;
	char *all;	/* the text of the files read */
};

/* Each file of a gconv directory's configuration, its text added. */
static void
gconv_more(void *arg, const char *path)
{
	struct gconv_text *g = arg;
	char *text, *more;
	size_t len;

	if ((text = rootfs_read(g->p->fs, path, 16 << 20, &len)) == NULL)
		return;
	if (asprintf(&more, "%s%s\n", g->all, text) < 0)
		oom();
	free(g->all);
	free(text);
	g->all = more;
}

/* The configuration of the gconv directory dir, every file of it in one
   text; the caller frees it. */
static char *
gconv_conf(struct plugins *p, const char *dir)
{
	struct gconv_text g = { p, xstrdup("") };
	char *path;

	if (asprintf(&path, "%s/gconv-modules", dir) < 0)
		oom();
	gconv_more(&g, path);
	free(path);
	if (asprintf(&path, "%s/gconv-modules.d/*.conf", dir) < 0)
		oom();
	rootfs_glob(p->fs, path, gconv_more, &g);
	free(path);
	return g.all;
}

/* The gconv modules the walk met for l's machine, each judged when its
   directory's configuration names it: loaded from libc.so.6 by its path
   (iconv/gconv_dl.c). The configuration is read, not gconv-modules.cache,
   which iconvconfig makes of it and glibc reads instead when it exists:
   the two are taken to agree. */
static void
gconv(struct plugins *p, const struct ldso *l, int t)
{
	struct pair w = { .kind = PLUGIN_GCONV, .t = t };
	char *conf = NULL, *dir = NULL, set[128], *what;
	struct closure c;
	size_t i, len;

	closure_init(&c, l, p->fs, p->objs, p->memo,
	    (struct pathlist){ NULL, NULL });
	for (i = 0; i < p->n; i++) {
		const struct plugin *g = &p->v[i];

		if (g->kind != PLUGIN_GCONV ||
		    g->o->info.machine != l->machine ||
		    g->o->info.elf_class != l->elf_class)
			continue;
		len = (size_t)(strrchr(g->path, '/') - g->path);
		if (dir == NULL || strlen(dir) != len ||
		    strncmp(dir, g->path, len) != 0) {
			free(dir);
			free(conf);
			dir = xstrdup(g->path);
			dir[len] = '\0';
			conf = gconv_conf(p, dir);
		}
		if (!gconv_named(conf, dir, len, g->path, set, sizeof(set)))
			continue;
		if (asprintf(&what, "a gconv module for %s", set) < 0)
			oom();
		w.what = keep(p, what);
		judge(p, &c, g->path, SIZE_MAX, &w);
	}
	closure_free(&c);
	free(dir);
	free(conf);
}

/* The string member key of JSON object o, or NULL. */
static const char *
member(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) &&
	    json_object_is_type(v, json_type_string) ?
	    json_object_get_string(v) : NULL;
}

/* One dlopen note of the object of closure c's node 0: each entry's
   first soname found (docs/ELF_DLOPEN_METADATA.md: "soname", required,
   alternatives in order of preference; "feature", "priority", default
   recommended; other keys tolerated), judged as dlopened from it. */
static void
note(struct plugins *p, struct closure *c, const char *text, struct pair *w)
{
	json_object *root = json_tokener_parse(text), *e, *so, *n;
	const char *bad = NULL, *feature, *priority;
	size_t i, k;
	char *what;

	if (root == NULL || !json_object_is_type(root, json_type_array))
		bad = ".note.dlopen: not a JSON array";
	for (i = 0; bad == NULL && i < json_object_array_length(root); i++) {
		e = json_object_array_get_idx(root, i);
		if (!json_object_is_type(e, json_type_object) ||
		    !json_object_object_get_ex(e, "soname", &so) ||
		    !json_object_is_type(so, json_type_array) ||
		    json_object_array_length(so) == 0) {
			bad = ".note.dlopen: an entry without a soname list";
			break;
		}
		feature = member(e, "feature");
		priority = member(e, "priority");
		if (asprintf(&what, "a library the .note.dlopen of its host names (%s%s%s%s)",
		    feature != NULL ? "feature " : "",
		    feature != NULL ? feature : "", feature != NULL ? ", " : "",
		    priority != NULL ? priority : "recommended") < 0)
			oom();
		w->what = keep(p, what);
		for (k = 0; k < json_object_array_length(so); k++) {
			n = json_object_array_get_idx(so, k);
			if (json_object_is_type(n, json_type_string) &&
			    judge(p, c, json_object_get_string(n), 0, w))
				break;
		}
	}
	if (bad != NULL)
		p->out.malformed(p->out.arg, c->v[0].o->path, bad);
	json_object_put(root);
}

/* The libraries the dlopen notes of each object of l's machine name,
   dlopened from it: searched with its RPATH and RUNPATH, on top of what
   it needs itself; the process it is loaded in is not known. */
static void
notes(struct plugins *p, const struct ldso *l, int t)
{
	struct pair w = { .kind = PLUGIN_NOTE, .t = t };
	const struct obj *o;
	struct closure c;
	const char *text;
	char *origin;
	size_t i;

	for (i = 0; i < p->ncarrier; i++) {
		o = p->carrier[i];
		if (o->info.machine != l->machine ||
		    o->info.elf_class != l->elf_class)
			continue;
		origin = xstrdup(o->path);
		*strrchr(origin, '/') = '\0';
		closure_init(&c, l, p->fs, p->objs, p->memo,
		    (struct pathlist){ NULL, NULL });
		closure_start(&c, o, origin[0] != '\0' ? origin : "/", false);
		w.host = o->path;
		for (text = o->dlopen; *text != '\0'; text += strlen(text) + 1)
			note(p, &c, text, &w);
		closure_free(&c);
		free(origin);
	}
}

void
plugins_root(struct plugins *p, const struct ldso *l, int t)
{
	if (!l->present || !l->glibc)
		return;
	nss(p, l, t);
	gconv(p, l, t);
	notes(p, l, t);
}
