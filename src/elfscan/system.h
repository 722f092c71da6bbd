/*
 * system.h - the verdicts per root: what will break on a system, judged
 * from what the root itself holds (--system, and the audit of this machine
 * without a path). A root is a file system seen as "/" by its processes:
 * a directory (this machine's own, a sysroot, a chroot), or a container
 * image, whose layers make its file system (tree.h). While the walk goes
 * (over the root's system directories, or the image's layers), the judge
 * hands over each program and library it meets in the root (system_add);
 * after it, system_judge() reads the root's rules and judges the programs
 * and what they load:
 *
 *   system.c    the session: the root, its rules, the verdicts reported
 *   plugins.c   what processes dlopen (python3 modules, PAM, NSS and gconv
 *               modules, Node addons, JNI libraries, what .note.dlopen
 *               names), paired with the programs that load it
 *   units.c     the root's systemd: its version, its services, what each
 *               runs and in what environment
 *   mdwe.c      what MemoryDenyWriteExecute=yes does to a program and its
 *               libraries
 *   closure.c   each program's libraries, loaded as its ld.so would, and
 *               what it dlopens
 *   runs.c      the machines the root runs, and its binfmt_misc handlers
 *   ldso.c      the root's dynamic linker read as a file: which glibc, what
 *               it does with an executable stack, where it looks
 *   env.c       the glibc.rtld.execstack tunable the root sets
 *   objects.c   the programs and libraries, once each, by file identity
 *   rootfs.c    the root's files, resolved inside it: a directory's, or
 *               an image's (tree.c)
 *
 * A package or a tarball is no root: it holds no glibc of its own, and
 * its files are judged by glibc's rule since 2.41 (judge.c).
 *
 * Facts, with their sources: elfscan(1), SYSTEM VERDICTS.
 */
#ifndef SYSTEM_H
#define SYSTEM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "chstk.h"

struct report;
struct opts;
struct tree;

/* system.c */
struct system;
/* A session for the root directory dir (an absolute, real path; "/" for
   this machine). NULL with *why set (static) when the root cannot be
   opened. */
struct system *system_open(const char *dir, const struct opts *o,
    struct report *r, const char **why);
/* A session for the image image (NULL: the only one) of the image file
   file, whose file system t, lent until system_close(), its layers made.
   Its system directories are known at once: t is complete. */
struct system *system_open_image(const char *file, const char *image,
    const struct tree *t, const struct opts *o, struct report *r);
/* The most read of each file a root's rules come from: more is no such
   file (ld.so itself is some 250 KiB; a cache of 5000 libraries, some
   400 KiB). */
#define RULES_FILE_MAX (1u << 20)	/* /etc/environment, ld.so.conf */
#define LDSO_MAX (16u << 20)
#define CACHE_MAX (64u << 20)
#define UNIT_MAX (16u << 20)	/* a unit file, a drop-in */
#define ENV_FILE_MAX (4u << 20)	/* a file of EnvironmentFile= */
/* The bytes to keep of an image's file at the in-root path, read before
   the rules are (the layer pass, oci.c): at most this many, or 0 for
   none. */
size_t system_keeps(const char *path);
/* The root's in-root path of a path the walk named, or NULL when it lies
   outside the root. */
const char *system_inside(const struct system *s, const char *path);
/* The root's files (for its separate debug files). */
const struct rootfs *system_fs(const struct system *s);
/* Does the root's glibc refuse to dlopen a library of this machine and
   class that asks for an executable stack? */
bool system_refuses_dlopen(struct system *s, unsigned machine,
    unsigned elf_class);
/* Paths of this machine, each once. */
struct pathset {
	char **v;
	size_t n;
};
/* Where the root keeps its programs and libraries, as paths of this
   machine, into p: the directories of path_env (a PATH, or NULL), of the
   root's /etc/ld.so.conf, and the usual ones, each by its real name in
   the root. The programs judged are those the walk meets there (an
   image's, those of its files there). */
void system_paths(struct system *s, const char *path_env,
    struct pathset *p);
/* A program or shared object the walk met at path (the walk's name: a
   path of this machine, or an image's member), the file (dev, ino) of the
   root, with its dynamic linking read (info->hardening). Any thread. */
void system_add(struct system *s, const char *path, dev_t dev, ino_t ino,
    const struct chstk_info *info);
/* A file the walk met at path (as system_add) that the library could not
   read (why): the search that finds it says so. Any thread. */
void system_unread(struct system *s, const char *path, dev_t dev, ino_t ino,
    const char *why);
/* What the root runs (struct runs, verdict.h): ELF files of no such
   machine are no Linux programs there (scope.c). */
const struct runs *system_runs(const struct system *s);
/* After the walk: judge the root and report its verdicts. */
void system_judge(struct system *s);
void system_close(struct system *s);

/* rootfs.c: a root's files, as its processes see them. Paths are in the
   root ("/etc/ld.so.cache") and resolved inside it: a symbolic link,
   absolute or not, or a ".." never leaves it. Two backends: a directory
   of this machine (rootfs_open_dir); an image's file system, as its
   layers make it (rootfs_open_tree, tree.h), whose files' bytes went by
   with the layer pass but for the few system_keeps() names. */
struct rootfs_ops;
struct rootfs {
	const struct rootfs_ops *ops;
	char *name;		/* the directory ("/" for this machine's),
				   or the image's file */
	char *image;		/* of an image file holding several, the
				   one's name; else NULL */
	size_t len;		/* a directory: name's length ("/": 0) */
	int fd;			/* a directory: it, O_PATH; else -1 */
	const struct tree *tree;	/* an image: lent, NULL for a
					   directory */
};
/* The root directory dir; -1 and errno. */
int rootfs_open_dir(struct rootfs *fs, const char *dir);
/* The image image (NULL: the only one) of file, its file system t. */
void rootfs_open_tree(struct rootfs *fs, const char *file, const char *image,
    const struct tree *t);
void rootfs_close(struct rootfs *fs);
/* The in-root path of a path the walk named (under a directory; an
   image's member), or NULL when it lies outside the root. */
const char *rootfs_inside(const struct rootfs *fs, const char *path);
/* The path of this machine the walk finds the in-root path at (the
   caller frees it), or NULL: an image's files are met as its members. */
char *rootfs_host(const struct rootfs *fs, const char *in);
/* What a path is, its links followed. */
struct rootfs_stat {
	mode_t type;		/* S_IFREG, S_IFDIR, ... */
	dev_t dev;		/* its identity in the root, as the walk */
	ino_t ino;		/* or the layer pass tells it */
};
/* 0, with the in-root path with its links resolved in real (cap bytes)
   unless real is NULL; -1 and errno. */
int rootfs_stat(const struct rootfs *fs, const char *path,
    struct rootfs_stat *st, char *real, size_t cap);
/* The regular file's bytes, open(2)ed for reading as they go; -1 and
   errno (ENODATA: an image's, which went by with its layer pass). */
int rootfs_open(const struct rootfs *fs, const char *path);
/* A regular file of at most max bytes, whole, NUL-terminated, its length
   in *len; the caller frees it. NULL and errno (EFBIG: too big; EINVAL:
   not a regular file; ENODATA, ENOBUFS: an image's, not kept). */
char *rootfs_read(const struct rootfs *fs, const char *path, size_t max,
    size_t *len);
/* The same of the regular file open on fd. */
char *rootfs_read_fd(int fd, size_t max, size_t *len);
/* What an errno of rootfs_read or rootfs_open says, for a message. */
const char *rootfs_strerror(int e);
/* What path is, its last component's link not followed: 0, with a
   link's target into target (cap bytes; "" for no link) unless target is
   NULL; -1 and errno. */
int rootfs_lstat(const struct rootfs *fs, const char *path,
    struct rootfs_stat *st, char *target, size_t cap);
/* fn(arg, name) for each entry of the directory at the in-root path dir
   (its links resolved), in no order: 0, or -1 and errno (ENOENT: none
   there; on a directory's read error, after the names read). */
int rootfs_list(const struct rootfs *fs, const char *dir,
    void (*fn)(void *arg, const char *name), void *arg);
/* fn(arg, path) for each in-root path matching the glob(3) pattern (an
   absolute one), sorted, each component's links resolved in the root. */
void rootfs_glob(const struct rootfs *fs, const char *pattern,
    void (*fn)(void *arg, const char *path), void *arg);

/* runs.c: what the root fs runs: this machine's kernel's machines too
   when it is this machine's root. */
struct runs;
void runs_read(struct runs *r, const struct rootfs *fs, bool this_machine);
void runs_free(struct runs *r);
/* The bytes an image's layer pass keeps of the file at path for
   runs_read (system_keeps): the binfmt handlers registered at boot; 0 for
   none. */
size_t runs_keeps(const char *path);

/* objects.c: each program and library once, by file identity. */
struct obj {
	dev_t dev;
	ino_t ino;
	char *path;		/* the in-root path it was first met at by
				   the walk, or else by a search; NULL
				   until then (an image's file outside the
				   walk's directories) */
	char *error;		/* could not be read: why; else NULL */
	bool elf;		/* an ELF file (false: error says it is
				   none, and there is nothing to judge) */
	struct chstk_info info;	/* info.hardening NULL: see below */
	bool textrel, nodeflib;
	char *soname;		/* "" when none */
	char *needed;		/* the DT_NEEDED names, "a\0b\0\0" */
	char *rpath, *runpath;	/* NULL when absent */
	char *interp;		/* "" when none */
	char *dlopen;		/* its dlopen notes (chstk_hardening), NULL
				   when none */
	bool program;		/* a dynamically linked program met by the
				   walk: a closure to judge */
	struct obj *next;	/* in its hash chain */
};
struct objects {
	pthread_mutex_t lock;
	struct obj **slot;
	size_t cap, n;
};
void objects_init(struct objects *t);
void objects_free(struct objects *t);
/* The object of (dev, ino), or NULL. */
struct obj *objects_get(struct objects *t, dev_t dev, ino_t ino);
/* Record what the library read of the file (dev, ino) at path (NULL: not
   named yet, see obj.path); info NULL with why when it could not be read,
   and with why NULL when it is no ELF file; program: a dynamically linked
   program the walk met, to be judged. Returns the object, which may have
   been there already (then named, if it was not, and made a program too,
   if program). Any thread. */
struct obj *objects_put(struct objects *t, dev_t dev, ino_t ino,
    const char *path, const struct chstk_info *info, const char *why,
    bool program);
/* Does glibc take the object to ask for an executable stack? (Marked
   so, or unmarked where its machine's default is: verdict.c.) */
bool obj_asks(const struct obj *o);
/* Read the file open on fd (at the in-root path), known as (dev, ino): a
   running process's mapping, as /proc/PID/maps names it (proc.c); record
   it. */
struct obj *objects_read_as(struct objects *t, int fd, const char *path,
    dev_t dev, ino_t ino);
/* The object at the in-root path of fs, its links followed: known by its
   identity, or read from its bytes and recorded; NULL when it is no
   regular file or its bytes cannot be had (an image's file that was no
   ELF file). One thread. */
struct obj *objects_at(struct objects *t, const struct rootfs *fs,
    const char *path);
/* Call fn for each object (one thread, after the walk). */
void objects_each(struct objects *t, void (*fn)(void *arg, struct obj *o),
    void *arg);

/* ldso.c: the dynamic linker of one machine of the root. */
struct cache;
struct ldso {
	unsigned machine, elf_class;
	char *interp;		/* its in-root path, as programs name it */
	bool present;		/* the root holds it */
	const char *why;	/* it could not be read: why; else NULL */
	bool glibc;		/* and it is glibc's (its banner found) */
	char banner[128];	/* "ld.so (Debian GLIBC 2.41-12) stable
				   release version 2.41", or "" */
	bool refuses;		/* dlopen refuses an executable stack
				   (glibc 2.41 and later) */
	bool force;		/* glibc.rtld.execstack=2 exists */
	char lib[64];		/* what $LIB stands for */
	const char *platform;	/* what $PLATFORM stands for */
	char **dirs;		/* the default directories, each ending
				   in "/" */
	size_t ndirs;
	const struct cache *cache;	/* the root's ld.so.cache, or NULL */
	unsigned cache_flags[2];	/* the entries of this machine */
	const char *hwcaps;	/* glibc-hwcaps subdirectories, best first,
				   ':'-separated, or "" */
};
/* The root's /etc/ld.so.cache, or NULL when it has none or it cannot be
   read (*why says why, or is NULL when there is none). */
struct cache *cache_read(const struct rootfs *fs, const char **why);
void cache_free(struct cache *c);
/* The ld.so at the in-root path interp, for machine and class. */
void ldso_read(struct ldso *l, const struct rootfs *fs, const char *interp,
    unsigned machine, unsigned elf_class, const struct cache *cache);
/* The same, of the file open on fd (a running process's ld.so, which
   may be deleted), without a cache. */
void ldso_read_fd(struct ldso *l, int fd, const char *interp,
    unsigned machine, unsigned elf_class);
void ldso_free(struct ldso *l);
/* The interpreter path the machine's glibc programs use, or NULL. */
const char *ldso_default_interp(unsigned machine, unsigned elf_class);

/* One list of directories and the directory $ORIGIN stands for there. */
struct pathlist {
	const char *list;	/* ':'-separated; ';' too for
				   LD_LIBRARY_PATH */
	const char *origin;	/* NULL: $ORIGIN is unknown */
};
/* What the search for one needed library depends on (glibc's
   _dl_map_object): the RPATHs of the loader and the objects that loaded
   it, the main program's last, used only when the loader has no RUNPATH;
   LD_LIBRARY_PATH; the loader's own RUNPATH; its DF_1_NODEFLIB. */
struct search {
	const struct pathlist *rpath;
	size_t nrpath;
	struct pathlist library_path;	/* list NULL: unset */
	struct pathlist runpath;	/* list NULL: none */
	bool nodeflib;
	const char *origin;	/* the loader's $ORIGIN, for a name with a
				   slash */
};
/* Each place ld.so would look for name, in its order: fn(arg, path)
   with an in-root path, until fn returns true (found). A name with a
   slash is the one place. Returns whether fn found it. */
bool ldso_search(const struct ldso *l, const char *name,
    const struct search *s, bool (*fn)(void *arg, const char *path),
    void *arg);

/* closure.c: the libraries one program loads at start-up, and what it
   dlopens. */
struct cnode {
	const struct obj *o;
	size_t parent;		/* the node that needed it; its own index for
				   the program (0) and what was dlopened:
				   an RPATH chain starts there */
	char *path;		/* the in-root path ld.so opened it by */
	char *origin;		/* what $ORIGIN stands for in it */
	char *name;		/* the DT_NEEDED name it was loaded by */
};
/* A needed library found nowhere. */
struct cmiss {
	char *name;
	size_t from;		/* the node that needs it */
	const char *why;	/* static */
};
/* The libraries found by the search that depends on nothing but the
   name (no RPATH, RUNPATH or LD_LIBRARY_PATH, no DF_1_NODEFLIB: the
   cache and the default directories), by ld.so and name: most needed
   names of most programs, searched once. */
struct found_lib {
	const struct ldso *l;
	char *name, *path;	/* path: as ld.so opened it */
	const struct obj *o;	/* NULL: found nowhere */
	struct found_lib *next;
};
struct memo {
	struct found_lib **slot;
	size_t cap, n;
};
void memo_free(struct memo *m);
struct closure {
	const struct ldso *l;
	const struct rootfs *fs;
	struct objects *objs;
	struct memo *memo;	/* may be NULL */
	struct pathlist library_path;
	bool main;		/* node 0 is the main program */
	struct cnode *v;	/* in the order ld.so loads them */
	size_t n, cap;
	struct cmiss *miss;
	size_t nmiss;
};
/* A closure of nothing yet, under l, with LD_LIBRARY_PATH library_path
   (list NULL: unset). */
void closure_init(struct closure *c, const struct ldso *l,
    const struct rootfs *fs, struct objects *objs, struct memo *memo,
    struct pathlist library_path);
/* The first object and what it needs, o's $ORIGIN being origin: the main
   program (main), or a library of a process not known. */
void closure_start(struct closure *c, const struct obj *o,
    const char *origin, bool main);
/* closure_init and closure_start of program. */
void closure_of(struct closure *c, const struct obj *program,
    const char *origin, const struct ldso *l, const struct rootfs *fs,
    struct objects *objs, struct memo *memo, struct pathlist library_path);
/* dlopen(name) called from the object of node caller (SIZE_MAX: by glibc
   itself, from libc.so.6, which has no search path of its own): the object
   and what it needs loaded on top of the closure. Its node, the node of
   the object when it was loaded already, or SIZE_MAX when it is found
   nowhere (what it needs and is found nowhere goes to miss). */
size_t closure_dlopen(struct closure *c, const char *name, size_t caller);
/* Back to the first n nodes and nmiss misses: what a dlopen added goes. */
void closure_truncate(struct closure *c, size_t n, size_t nmiss);
/* The DT_NEEDED names that led to node i from the program or dlopened
   object that started its chain, "a b", and i's own when self; the
   caller frees it. */
char *closure_via(const struct closure *c, size_t i, bool self);
void closure_free(struct closure *c);

/* plugins.c: what processes dlopen, paired with their hosts. */
enum plugin_which {
	PLUGIN_PYTHON,		/* a python3 extension module */
	PLUGIN_PAM,		/* a PAM module */
	PLUGIN_NSS,		/* an NSS module nsswitch.conf names */
	PLUGIN_GCONV,		/* a gconv module */
	PLUGIN_NODE,		/* a Node addon */
	PLUGIN_JNI,		/* a JNI library */
	PLUGIN_NOTE,		/* what a .note.dlopen names */
};
struct plugin {
	enum plugin_which kind;
	const struct obj *o;
	char *path;		/* in the root, where the walk met it */
	char version[64];	/* python: "3.11", or "" for any python3;
				   JNI: its JVM's directory, or "" */
	bool venv;		/* python: a venv's */
};
/* Where the verdicts go (system.c's): finding a bit index; host NULL
   when no program can be named. */
struct plugin_out {
	void (*verdict)(void *arg, unsigned finding, const char *subject,
	    const char *why, const char *host, const char *via);
	/* A file whose dlopen notes do not parse (path in the root). */
	void (*malformed)(void *arg, const char *path, const char *msg);
	void *arg;
};
struct plugins {
	pthread_mutex_t lock;	/* over v and carrier, while the walk goes */
	const struct rootfs *fs;
	struct objects *objs;
	struct memo *memo;
	struct plugin_out out;
	struct plugin *v;	/* met by the walk where hosts look */
	size_t n;
	const struct obj **carrier;	/* objects with dlopen notes */
	size_t ncarrier;
	char **why;		/* the verdicts' sentences, kept */
	size_t nwhy;
};
void plugins_init(struct plugins *p, const struct rootfs *fs,
    struct objects *objs, struct memo *memo, const struct plugin_out *out);
void plugins_free(struct plugins *p);
/* A program or shared object the walk met at path (in the root): kept
   when it lies where a host looks for plugins, or has dlopen notes. Any
   thread. */
void plugins_add(struct plugins *p, const char *path, const struct obj *o);
/* The plugins the program of closure c (its start-up closure) loads,
   judged with the tunable at t. c is as it was after. */
void plugins_host(struct plugins *p, struct closure *c, int t);
/* The plugins no program of the root can be named for (NSS and gconv
   modules, what dlopen notes name), judged under l with the tunable at
   t. */
void plugins_root(struct plugins *p, const struct ldso *l, int t);

/* env.c: the tunable's value a root's processes see. */
enum { TUNABLE_UNSET = -1 };
/* The value of glibc.rtld.execstack in a GLIBC_TUNABLES string, as glibc
   reads it (maxval: 1, or 2 where the value exists): TUNABLE_UNSET when
   absent or ignored. */
int tunable_execstack(const char *tunables, int maxval);
/* GLIBC_TUNABLES as set in an environment file (/etc/environment's
   form: NAME=VALUE lines, optionally quoted), or NULL; the caller frees
   it. */
char *env_file_value(const char *text, const char *name);

/* units.c: the root's systemd, its files read as systemd reads them. */
/* One command a service runs (ExecStart= and the other Exec*=). */
enum {
	CMD_FULL = 1,		/* "+": without the sandboxing, so without
				   MemoryDenyWriteExecute= */
	CMD_IGNORE = 2,		/* "-": its failure is ignored */
};
struct command {
	const char *setting;	/* "ExecStart" (static) */
	char *path;		/* the program, found in the root */
	unsigned flags;
};
/* A variable of the environment a service's processes get, and the file
   (in the root) that set it. */
enum { SVC_TUNABLES, SVC_LIBRARY_PATH, SVC_NVARS };
struct svc_var {
	char *value;		/* NULL: unset */
	char *from;
};
struct service {
	char *name;		/* "foo.service"; a template "foo@.service" */
	char *file;		/* its unit file, in the root */
	bool mdwe;		/* MemoryDenyWriteExecute=yes */
	struct command *cmd;
	size_t ncmd;
	struct svc_var env[SVC_NVARS];	/* GLIBC_TUNABLES, LD_LIBRARY_PATH */
};
struct systemd {
	char *binary;		/* the manager, in the root, or NULL */
	unsigned version;	/* its version, 0 when not known */
	struct service *svc;	/* sorted by name */
	size_t n;
};
/* Called with what is wrong in the root's systemd files (path in the
   root, with ":LINE" where a line is at fault): said, and the rest goes
   on. */
typedef void units_say(void *arg, const char *path, const char *msg);
/* The root's systemd and every service it can load: its unit files,
   their drop-ins, system.conf's DefaultEnvironment= and the files named
   by EnvironmentFile=. The manager and its version are found through
   objs; with objs NULL, they are not looked for (sd->binary NULL,
   sd->version 0: the caller's to say). packages: fs holds only what a
   suite's packages ship, so that a file it lacks may yet be made by a
   maintainer script: said so, and not judged. */
void systemd_read(struct systemd *sd, const struct rootfs *fs,
    struct objects *objs, bool packages, units_say *say, void *arg);
void systemd_free(struct systemd *sd);
/* The interpreter the kernel runs for a file whose first n bytes are
   head (binfmt_script): the first word after "#!", into name (cap bytes),
   and true; false when head is no script. */
bool script_interpreter(const char *head, size_t n, char *name,
    size_t cap);
/* The bytes an image's layer pass keeps of the file at path for the
   above (system_keeps): the unit files and their drop-ins, system.conf
   and its, and the files of /etc, where EnvironmentFile= finds them
   (Debian's /etc/default, Fedora's /etc/sysconfig, a package's own); 0
   for none. */
size_t units_keeps(const char *path);

/* mdwe.c: MemoryDenyWriteExecute=yes. systemd sets it two ways, which
   differ on a program the kernel maps. */
enum {
	MDWE_PRCTL = 1,		/* prctl(PR_SET_MDWE): systemd 254 and later
				   on Linux 6.3 and later */
	MDWE_SECCOMP = 2,	/* a seccomp filter: systemd before 254, or
				   an older kernel */
};
/* What breaks a program under it. */
struct mdwe_fault {
	size_t node;		/* the node of the closure at fault (0: the
				   program); MDWE_TUNABLE: the environment */
	const char *why;	/* static */
	bool fatal;		/* the program does not start */
};
#define MDWE_TUNABLE ((size_t)-1)
/* What the rules read of a program or library. */
struct mdwe_obj {
	unsigned wx;		/* its writable and executable segments */
	bool asks;		/* glibc takes it to ask for an executable
				   stack (obj_asks) */
	bool rie;		/* the kernel gives it READ_IMPLIES_EXEC */
	bool textrel;		/* DT_TEXTREL */
};
/* The faults of a program v[0] and the libraries v[1, n) it loads at
   start (dynamic false: it is static, n 1), as mdwe_faults(); a fault's
   node is its index in v. */
void mdwe_faults_of(const struct mdwe_obj *v, size_t n, bool dynamic,
    unsigned mech, int t, void (*fn)(void *arg, const struct mdwe_fault *f),
    void *arg);
/* The faults of program, whose libraries are closure c (NULL: it is
   static), under the ways mech (bits: all that may be in force) with
   glibc.rtld.execstack at t (2: where the value exists): fn(arg, fault)
   for each, in the order the process meets them. */
void mdwe_faults(const struct obj *program, const struct closure *c,
    unsigned mech, int t, void (*fn)(void *arg, const struct mdwe_fault *f),
    void *arg);
/* The ways (MDWE_* bits, all that may be in force) a systemd of that
   version (0: not known) sets it, on the kernel of that release
   ("6.12.1"; NULL: any kernel may run). */
unsigned mdwe_ways_of(unsigned systemd, const char *kernel);
/* The ways, for people ("PR_SET_MDWE", ...); systemd as above. */
const char *mdwe_ways_said(unsigned ways, unsigned systemd);

#endif
