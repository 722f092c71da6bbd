/*
 * system.h - the verdicts per root: what will break on a system, judged
 * from what the root itself holds (--system, and the audit of this machine
 * without a path). A root is a directory seen as "/" by its processes: this
 * machine's own, a sysroot, a chroot. While the walk goes, the judge hands
 * over each program and library it meets under the root (system_add);
 * after it, system_judge() reads the root's rules and judges the programs
 * and what they load:
 *
 *   system.c    the session: the root, its rules, the verdicts reported
 *   units.c     the root's systemd: its version, its services, what each
 *               runs and in what environment
 *   mdwe.c      what MemoryDenyWriteExecute=yes does to a program and its
 *               libraries
 *   closure.c   each program's libraries, loaded as its ld.so would, and
 *               which of them asks for an executable stack
 *   ldso.c      the root's dynamic linker read as a file: which glibc, what
 *               it does with an executable stack, where it looks
 *   env.c       the glibc.rtld.execstack tunable the root sets
 *   objects.c   the programs and libraries, once each, by file identity
 *   rootfs.c    the root's files, resolved inside it
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

/* system.c */
struct system;
/* A session for the root directory dir (an absolute, real path; "/" for
   this machine). NULL with *why set (static) when the root cannot be
   opened. */
struct system *system_open(const char *dir, const struct opts *o,
    struct report *r, const char **why);
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
   the root. */
void system_paths(struct system *s, const char *path_env,
    struct pathset *p);
/* A program or shared object the walk met at path (the walk's name), the
   file (dev, ino), with its dynamic linking read (info->hardening). Any
   thread. */
void system_add(struct system *s, const char *path, dev_t dev, ino_t ino,
    const struct chstk_info *info);
/* After the walk: judge the root and report its verdicts. */
void system_judge(struct system *s);
void system_close(struct system *s);

/* rootfs.c: a root's files. */
struct rootfs {
	int fd;			/* the root directory, O_PATH */
	char *dir;		/* its path, no trailing slash ("" for /) */
	size_t len;
};
int rootfs_open(struct rootfs *fs, const char *dir);
void rootfs_close(struct rootfs *fs);
/* The in-root path of path (a path on this machine), or NULL. */
const char *rootfs_inside(const struct rootfs *fs, const char *path);
/* open(2) of the in-root path, resolved inside the root; -1 and errno. */
int rootfs_openat(const struct rootfs *fs, const char *path, int flags);
/* A regular file of at most max bytes, whole, NUL-terminated, its length
   in *len; the caller frees it. NULL and errno (EFBIG: too big). */
char *rootfs_read(const struct rootfs *fs, const char *path, size_t max,
    size_t *len);
/* The same of the regular file open on fd. */
char *rootfs_read_fd(int fd, size_t max, size_t *len);
/* The in-root path of the file open on fd, its links resolved. */
int rootfs_where(const struct rootfs *fs, int fd, char *out, size_t len);

/* objects.c: each program and library once, by file identity. */
struct obj {
	dev_t dev;
	ino_t ino;
	char *path;		/* the in-root path it was first met at */
	char *error;		/* could not be read: why; else NULL */
	bool elf;		/* an ELF file (false: error says it is
				   none, and there is nothing to judge) */
	struct chstk_info info;	/* info.hardening NULL: see below */
	bool textrel, nodeflib;
	char *soname;		/* "" when none */
	char *needed;		/* the DT_NEEDED names, "a\0b\0\0" */
	char *rpath, *runpath;	/* NULL when absent */
	char *interp;		/* "" when none */
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
/* Record what the library read of the file (dev, ino) at path; info NULL
   with why when it could not be read, and with why NULL when it is no ELF
   file; program: a dynamically linked program the walk met, to be judged.
   Returns the object, which may have been there already (then made a
   program too, if program). Any thread. */
struct obj *objects_put(struct objects *t, dev_t dev, ino_t ino,
    const char *path, const struct chstk_info *info, const char *why,
    bool program);
/* Read the file open on fd (at the in-root path) and record it. */
struct obj *objects_read(struct objects *t, int fd, const char *path);
/* The same, the file known as (dev, ino): a running process's mapping,
   as /proc/PID/maps names it (proc.c). */
struct obj *objects_read_as(struct objects *t, int fd, const char *path,
    dev_t dev, ino_t ino);
/* Call fn for each object (one thread, after the walk). */
void objects_each(struct objects *t, void (*fn)(void *arg, struct obj *o),
    void *arg);

/* ldso.c: the dynamic linker of one machine of the root. */
struct cache;
struct ldso {
	unsigned machine, elf_class;
	char *interp;		/* its in-root path, as programs name it */
	bool present;		/* the root holds it */
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

/* closure.c: the libraries one program loads at start-up. */
struct cnode {
	const struct obj *o;
	size_t parent;		/* the node that needed it (the program: 0) */
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
	struct cnode *v;	/* in the order ld.so loads them */
	size_t n, cap;
	struct cmiss *miss;
	size_t nmiss;
};
/* The closure of program, whose $ORIGIN is origin, under l, with
   LD_LIBRARY_PATH library_path (list NULL: unset). */
void closure_of(struct closure *c, const struct obj *program,
    const char *origin, const struct ldso *l, const struct rootfs *fs,
    struct objects *objs, struct memo *memo, struct pathlist library_path);
void closure_free(struct closure *c);

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
   by EnvironmentFile=. */
void systemd_read(struct systemd *sd, const struct rootfs *fs,
    struct objects *objs, units_say *say, void *arg);
void systemd_free(struct systemd *sd);

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
/* The faults of program, whose libraries are closure c (NULL: it is
   static), under the ways mech (bits: all that may be in force) with
   glibc.rtld.execstack at t (2: where the value exists): fn(arg, fault)
   for each, in the order the process meets them. */
void mdwe_faults(const struct obj *program, const struct closure *c,
    unsigned mech, int t, void (*fn)(void *arg, const struct mdwe_fault *f),
    void *arg);

#endif
