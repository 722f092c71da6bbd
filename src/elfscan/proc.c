/*
 * proc.c - the running processes (see proc.h). A process's main stack is
 * executable when the kernel made it so at exec (its program asks, by
 * PT_GNU_STACK or by being unmarked where the kernel's default is
 * executable, or READ_IMPLIES_EXEC), when glibc made it so (a library it
 * loads asks: elf/dl-load.c _dl_map_object_from_fd calls
 * _dl_make_stack_executable, which makes the page of __libc_stack_end and
 * all below it executable, and every thread's stack with it; or
 * glibc.rtld.execstack=2, glibc 2.42: elf/dl-execstack-tunable.c), or when
 * something in the process called mprotect. Thread stacks are glibc's
 * anonymous mappings (nptl/allocate_stack.c), executable when
 * GL(dl_stack_flags) has PF_X: the program's PT_GNU_STACK, or glibc's
 * default where it has none, or what a library's request turned it to.
 *
 * All but the last is what the files and the environment say: each is a
 * cause, and a process whose memory is what its causes make it "matches";
 * an executable stack without a cause is "unasked". The stages of one
 * process: read (stat, maps, root, exe, threads, environment), load (the
 * files mapped executable, by identity), judge, report.
 */
#include <dirent.h>
#include <elf.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "buf.h"
#include "elfscan.h"
#include "proc.h"
#include "report.h"
#include "system.h"
#include "xalloc.h"

#define PF_EXITING 0x00000004		/* include/linux/sched.h */
#define PF_KTHREAD 0x00200000
#define READ_IMPLIES_EXEC 0x0400000	/* include/uapi/linux/personality.h */
/* What is read of a process's maps at most (at vm.max_map_count's 65530
   mappings, a line each, a process stays under it) and of its
   environment (with its arguments at most a quarter of the stack limit,
   fs/exec.c: 8 MiB covers a 32 MiB limit). */
#define MAPS_MAX (64u << 20)
#define ENV_MAX (8u << 20)
#define DELETED " (deleted)"

/* A dynamic linker a process maps, by identity. */
struct known {
	dev_t dev;
	ino_t ino;
	struct ldso l;
};

struct proc {
	struct report *r;
	struct objects objs;	/* every file mapped executable */
	struct known *ld;
	size_t nld;
};

/* A line of /proc/PID/maps. */
struct map {
	unsigned long start, end;
	char perms[5];
	dev_t dev;
	ino_t ino;
	const char *path;	/* as maps gives it: this machine's path,
				   a [name], or "" */
	const char *name;	/* as the process names it: in its root */
	const struct obj *o;	/* its file, read */
	int tid;		/* the thread whose stack pointer is in it */
	bool main;		/* part of the main stack */
};

/* What is read of one process. */
struct task {
	int pid, dfd;
	char comm[64], state;
	unsigned long flags;
	char root[PATH_MAX];	/* its root, as this machine's path */
	size_t rootlen;		/* 0 for "/" */
	struct rootfs fs;
	char exe[PATH_MAX];	/* its program, as maps names it, or "" */
	off_t exe_size;		/* its size, 0 when unknown */
	char *maps;		/* maps' text, which the paths point into */
	struct map *m;
	size_t nm;
	bool unknown_sp;	/* a thread whose stack pointer is unknown */
	char *env;		/* environ, NUL-separated */
	size_t envlen;
	char *auxv;
	size_t auxvlen;
	unsigned long personality;
	struct proc_cause *unread;
	size_t nunread;
};

static bool
gone(int e)
{
	return e == ENOENT || e == ESRCH;
}

/* The file name under /proc/PID, whole and NUL-terminated (its length in
   *len); NULL and errno. A file of /proc has no size to read by. */
static char *
slurp(int dfd, const char *name, size_t max, size_t *len)
{
	size_t cap = 4096, n = 0;
	ssize_t got;
	char *buf;
	int fd, saved;

	if ((fd = openat(dfd, name, O_RDONLY | O_CLOEXEC)) == -1)
		return NULL;
	buf = xmalloc(cap);
	while ((got = read(fd, buf + n, cap - n - 1)) > 0) {
		n += (size_t)got;
		if (n + 1 < cap)
			continue;
		if (cap >= max) {
			got = -1;
			errno = EFBIG;
			break;
		}
		buf = xrealloc(buf, cap *= 2);
	}
	saved = errno;
	close(fd);
	if (got == -1) {
		free(buf);
		errno = saved;
		return NULL;
	}
	buf[n] = '\0';
	if (len != NULL)
		*len = n;
	return buf;
}

/* Its name, state and flags (proc(5): the name, in parentheses, may hold
   any byte; the fields follow the last ')'). 0, or -1 and errno. */
static int
read_stat(struct task *t)
{
	char *s = slurp(t->dfd, "stat", 1 << 16, NULL), *open, *close;
	int r = -1;

	if (s == NULL)
		return -1;
	open = strchr(s, '(');
	close = strrchr(s, ')');
	errno = EINVAL;
	if (open != NULL && close != NULL && close > open &&
	    sscanf(close + 1, " %c %*d %*d %*d %*d %*d %lu", &t->state,
	    &t->flags) == 2) {
		snprintf(t->comm, sizeof(t->comm), "%.*s",
		    (int)(close - open - 1), open + 1);
		r = 0;
	}
	free(s);
	return r;
}

/* Has it exited, or begun to (its memory going)? */
static bool
exited(struct task *t)
{
	return read_stat(t) == -1 ? gone(errno) : t->state == 'Z' ||
	    t->state == 'X' || (t->flags & PF_EXITING) != 0;
}

/* The path as the process names it: in its root. */
static const char *
in_root(const struct task *t, const char *path)
{
	if (t->rootlen == 0 || path[0] != '/')
		return path;
	if (strncmp(path, t->root, t->rootlen) == 0 && path[t->rootlen] == '/')
		return path + t->rootlen;
	return path;
}

/* One line of maps, NUL-terminated, into m. */
static bool
parse_map(char *line, struct map *m)
{
	unsigned maj, min;
	unsigned long ino;
	int at = -1;

	memset(m, 0, sizeof(*m));
	if (sscanf(line, "%lx-%lx %4s %*x %x:%x %lu %n", &m->start, &m->end,
	    m->perms, &maj, &min, &ino, &at) < 6 || at < 0 ||
	    strlen(m->perms) != 4)
		return false;
	m->dev = makedev(maj, min);
	m->ino = (ino_t)ino;
	m->path = line + at;
	return true;
}

/* Its mappings. 0, or -1 and errno. */
static int
read_maps(struct task *t)
{
	char *line, *next;
	size_t cap = 0;

	if ((t->maps = slurp(t->dfd, "maps", MAPS_MAX, NULL)) == NULL)
		return -1;
	for (line = t->maps; *line != '\0'; line = next) {
		next = line + strcspn(line, "\n");
		if (*next != '\0')
			*next++ = '\0';
		if (t->nm == cap)
			t->m = xrealloc(t->m, (cap = cap ? cap * 2 : 64) *
			    sizeof(*t->m));
		if (parse_map(line, &t->m[t->nm]))
			t->nm++;
	}
	return 0;
}

/* Its root and program. 0, or -1 and errno (its root unreadable). */
static int
read_root(struct task *t)
{
	char path[64];
	struct stat st;
	ssize_t n;

	n = readlinkat(t->dfd, "root", t->root, sizeof(t->root) - 1);
	if (n <= 0)
		return -1;
	t->root[n] = '\0';
	t->rootlen = strcmp(t->root, "/") == 0 ? 0 : (size_t)n;
	snprintf(path, sizeof(path), "/proc/%d/root", t->pid);
	if (rootfs_open_dir(&t->fs, path) < 0)
		return -1;
	n = readlinkat(t->dfd, "exe", t->exe, sizeof(t->exe) - 1);
	t->exe[n > 0 ? n : 0] = '\0';
	/* The link reaches the file in any mount namespace. */
	if (fstatat(t->dfd, "exe", &st, 0) == 0)
		t->exe_size = st.st_size;
	return 0;
}

/* The thread tid's stack pointer, from its task/TID/syscall: "NR ARGS...
   SP PC" in a system call, "-1 SP PC" blocked outside one, "running"
   (proc(5)). 0, or -1 when it is not known. */
static int
stack_pointer(const char *s, unsigned long *sp)
{
	const char *w[9];
	size_t n = 0;

	while (*s != '\0' && n < 9) {
		s += strspn(s, " \n");
		if (*s == '\0')
			break;
		w[n++] = s;
		s += strcspn(s, " \n");
	}
	if (n < 3 || strncmp(w[0], "running", 7) == 0)
		return -1;
	return sscanf(w[n - 2], "%lx", sp) == 1 ? 0 : -1;
}

/* Which mapping is each thread's stack: where its stack pointer is. */
static void
read_threads(struct task *t)
{
	struct dirent *e;
	char name[64], *s;
	unsigned long sp;
	size_t i;
	DIR *d;
	int fd, tid;

	fd = openat(t->dfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd == -1 || (d = fdopendir(fd)) == NULL) {
		if (fd != -1)
			close(fd);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if ((tid = atoi(e->d_name)) <= 0 || tid == t->pid)
			continue;
		snprintf(name, sizeof(name), "task/%d/syscall", tid);
		s = slurp(t->dfd, name, 4096, NULL);
		if (s == NULL || stack_pointer(s, &sp) < 0)
			t->unknown_sp = true;
		else
			for (i = 0; i < t->nm; i++)
				if (t->m[i].start <= sp && sp < t->m[i].end &&
				    t->m[i].tid == 0)
					t->m[i].tid = tid;
		free(s);
	}
	closedir(d);
}

static void
add_unread(struct task *t, const char *path, const char *why)
{
	t->unread = xrealloc(t->unread, (t->nunread + 1) *
	    sizeof(*t->unread));
	t->unread[t->nunread++] = (struct proc_cause){ .path = path,
	    .why = xstrdup(why) };
}

static bool
deleted(const char *path)
{
	size_t n = strlen(path), d = strlen(DELETED);

	return n > d && strcmp(path + n - d, DELETED) == 0;
}

/* The file m maps, opened: through map_files, or by its path in the
   process's root while that still holds the file mapped. -1 with why. */
static int
open_mapped(struct task *t, const struct map *m, char *why, size_t len)
{
	char name[64];
	struct stat st;
	int fd;

	snprintf(name, sizeof(name), "map_files/%lx-%lx", m->start, m->end);
	if ((fd = openat(t->dfd, name, O_RDONLY | O_CLOEXEC)) != -1)
		return fd;
	if (deleted(m->path)) {
		snprintf(why, len, "deleted, and /proc/%d/%s cannot be opened: %s",
		    t->pid, name, strerror(errno));
		return -1;
	}
	/* A path anyone may have replaced: a FIFO there must not block
	   (rootfs_open opens with O_NONBLOCK). */
	if ((fd = rootfs_open(&t->fs, m->name)) == -1) {
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	/* Only the inode: the device a file system reports to stat may not
	   be the one maps gives (btrfs subvolumes, overlayfs). */
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_ino != m->ino) {
		close(fd);
		snprintf(why, len, "the file at its path is not the one mapped (replaced since)");
		return -1;
	}
	return fd;
}

/* The files it maps executable, each read once (by identity). */
static void
load(struct proc *s, struct task *t)
{
	char why[512];
	size_t i, k;
	int fd;

	for (i = 0; i < t->nm; i++) {
		struct map *m = &t->m[i];

		if (m->perms[2] != 'x' || m->ino == 0 || m->path[0] != '/')
			continue;
		if ((m->o = objects_get(&s->objs, m->dev, m->ino)) != NULL)
			continue;
		for (k = 0; k < t->nunread && strcmp(t->unread[k].path,
		    m->name) != 0; k++)
			;
		if (k < t->nunread)
			continue;
		if ((fd = open_mapped(t, m, why, sizeof(why))) == -1) {
			add_unread(t, m->name, why);
			continue;
		}
		m->o = objects_read_as(&s->objs, fd, m->name, m->dev, m->ino);
		close(fd);
	}
}

/* Read what is judged of t, after its maps. */
static void
read_rest(struct task *t)
{
	char *p;
	size_t i;

	for (i = 0; i < t->nm; i++)
		t->m[i].name = in_root(t, t->m[i].path);
	read_threads(t);
	t->env = slurp(t->dfd, "environ", ENV_MAX, &t->envlen);
	t->auxv = slurp(t->dfd, "auxv", 1 << 16, &t->auxvlen);
	if ((p = slurp(t->dfd, "personality", 64, NULL)) != NULL)
		t->personality = strtoul(p, NULL, 16);
	free(p);
}

static void
task_free(struct task *t)
{
	size_t i;

	for (i = 0; i < t->nunread; i++)
		free((char *)t->unread[i].why);
	free(t->unread);
	free(t->m);
	free(t->maps);
	free(t->env);
	free(t->auxv);
	rootfs_close(&t->fs);
	if (t->dfd != -1)
		close(t->dfd);
}

/* The process's dynamic linker: the file it maps whose DT_SONAME is the
   last name of its program's PT_INTERP, read once. NULL: none (a static
   program), or not read. */
static const struct ldso *
ldso_of(struct proc *s, struct task *t, const struct obj *prog)
{
	const char *base;
	char why[512];
	size_t i, k;
	int fd;

	if (prog == NULL || prog->interp[0] == '\0')
		return NULL;
	base = strrchr(prog->interp, '/');
	base = base != NULL ? base + 1 : prog->interp;
	for (i = 0; i < t->nm; i++) {
		const struct map *m = &t->m[i];

		if (m->o == NULL || m->o->error != NULL ||
		    strcmp(m->o->soname, base) != 0)
			continue;
		for (k = 0; k < s->nld; k++)
			if (s->ld[k].dev == m->dev && s->ld[k].ino == m->ino)
				return &s->ld[k].l;
		if ((fd = open_mapped(t, m, why, sizeof(why))) == -1)
			return NULL;
		s->ld = xrealloc(s->ld, (s->nld + 1) * sizeof(*s->ld));
		s->ld[s->nld].dev = m->dev;
		s->ld[s->nld].ino = m->ino;
		ldso_read_fd(&s->ld[s->nld].l, fd, prog->interp,
		    m->o->info.machine, m->o->info.elf_class);
		close(fd);
		return &s->ld[s->nld++].l;
	}
	return NULL;
}

/* AT_SECURE in its auxiliary vector: the kernel's words, of the
   program's class. */
static bool
secure(const struct task *t, const struct obj *prog)
{
	size_t w = prog != NULL && prog->info.elf_class == ELFCLASS32 ? 4 : 8,
	    i;
	uint64_t type, val;
	uint32_t t32, v32;

	for (i = 0; t->auxv != NULL && i + 2 * w <= t->auxvlen; i += 2 * w) {
		if (w == 4) {
			memcpy(&t32, t->auxv + i, 4);
			memcpy(&v32, t->auxv + i + 4, 4);
			type = t32;
			val = v32;
		} else {
			memcpy(&type, t->auxv + i, 8);
			memcpy(&val, t->auxv + i + 8, 8);
		}
		if (type == AT_NULL)
			break;
		if (type == AT_SECURE)
			return val != 0;
	}
	return false;
}

/* glibc.rtld.execstack as the process's glibc read it: each
   GLIBC_TUNABLES of its environment in turn, the last setting winning
   (elf/dl-tunables.c __tunables_init); none where glibc has no such
   tunable, and none under AT_SECURE, where glibc 2.39 and later ignore
   GLIBC_TUNABLES (every glibc that has the value 2 is later). */
static int
tunable_of(const struct task *t, const struct ldso *l, bool sec)
{
	const char *p;
	int v = TUNABLE_UNSET, x;

	if (t->env == NULL || l == NULL || !l->glibc || !l->refuses || sec)
		return TUNABLE_UNSET;
	for (p = t->env; p < t->env + t->envlen; p += strlen(p) + 1)
		if (strncmp(p, "GLIBC_TUNABLES=", 15) == 0 &&
		    (x = tunable_execstack(p + 15, l->force ? 2 : 1)) !=
		    TUNABLE_UNSET)
			v = x;
	return v;
}

/* The judgement of one process, for its record. */
struct judgement {
	struct proc_cause *causes;
	size_t ncauses;
	struct proc_area *areas;
	size_t nareas;
	bool main_x, threads_x;	/* what the causes make executable */
	char *thread_why;	/* why its threads' stacks are */
	char *maybe_why;	/* what an unknown thread's might be */
	struct buf differs;
	char space[512];
	char stack[64];
};

static void
add_cause(struct judgement *j, const char *path, const char *why,
    bool main, bool threads)
{
	j->causes = xrealloc(j->causes, (j->ncauses + 1) * sizeof(*j->causes));
	j->causes[j->ncauses++] = (struct proc_cause){ .path = path,
	    .why = why, .main = main, .threads = threads };
	j->main_x |= main;
	j->threads_x |= threads;
}

/* The buffer of what differs from what the files say, ready for one
   more sentence. */
static struct buf *
differ(struct judgement *j)
{
	if (j->differs.len > 0)
		buf_puts(&j->differs, "; ");
	return &j->differs;
}

/* Is the file at path a cause already? */
static bool
known_cause(const struct judgement *j, const char *path)
{
	size_t i;

	for (i = 0; i < j->ncauses; i++)
		if (j->causes[i].path != NULL &&
		    strcmp(j->causes[i].path, path) == 0)
			return true;
	return false;
}

/* What each file it maps executable asks: the program of its main stack
   by the kernel's rule and of its threads' by glibc's, any other file of
   both (glibc's: a library that asks makes both). */
static void
file_causes(const struct task *t, const struct obj *prog,
    struct judgement *j)
{
	const char *why;
	enum effective mx, tx;
	struct verdict v;
	size_t i;

	for (i = 0; i < t->nm; i++) {
		const struct obj *o = t->m[i].o;

		if (o == NULL || o->error != NULL ||
		    (i > 0 && t->m[i - 1].o == o))
			continue;
		if (o == prog) {
			verdict_stacks(&o->info, &mx, &tx, &why);
		} else {
			verdict_of(&o->info, 0, &v);
			mx = tx = v.effective;
			why = v.why;
		}
		if ((mx == EFF_EXEC || tx == EFF_EXEC) &&
		    !known_cause(j, t->m[i].name))
			add_cause(j, t->m[i].name, why, mx == EFF_EXEC,
			    tx == EFF_EXEC);
	}
}

/* Everything that asks for executable stacks in t. */
static void
causes_of(struct proc *s, struct task *t, const struct obj *prog,
    struct judgement *j)
{
	struct verdict v;
	size_t i;

	file_causes(t, prog, j);
	if (tunable_of(t, ldso_of(s, t, prog), secure(t, prog)) == 2)
		add_cause(j, NULL, "GLIBC_TUNABLES=glibc.rtld.execstack=2 in its environment",
		    true, true);
	if (t->personality & READ_IMPLIES_EXEC) {
		add_cause(j, NULL, "READ_IMPLIES_EXEC: the kernel makes every readable mapping executable",
		    true, true);
		if (prog != NULL && prog->error == NULL)
			verdict_of(&prog->info, 0, &v);
		if (prog == NULL || prog->error != NULL ||
		    !(v.findings & F_READ_IMPLIES_EXEC))
			buf_puts(differ(j), "it runs with READ_IMPLIES_EXEC, which its program does not ask for (setarch -X)");
	}
	for (i = 0; i < j->ncauses && !j->causes[i].threads; i++)
		;
	if (i < j->ncauses && asprintf(&j->thread_why, "%s%s%s%s%s",
	    j->causes[i].path ? "executable as " : "executable: ",
	    j->causes[i].path ? j->causes[i].path : "",
	    j->causes[i].path ? " asks (" : "", j->causes[i].why,
	    j->causes[i].path ? ")" : "") < 0)
		oom();
	if (j->thread_why != NULL && t->unknown_sp && asprintf(&j->maybe_why,
	    "not known: it may be the stack of a thread that was running (its stack pointer unknown), %s",
	    j->thread_why) < 0)
		oom();
}

/* The main stack: [stack], and the anonymous mappings right beside it,
   the rest of the same mapping split by mprotect (no other mapping can be
   there: the kernel keeps stack_guard_gap free below it). Its permissions
   into j->stack; returns whether any part is executable. */
static bool
main_stack(struct task *t, struct judgement *j)
{
	size_t i, at;
	bool x = false;

	for (at = 0; at < t->nm && strcmp(t->m[at].path, "[stack]") != 0; at++)
		;
	if (at == t->nm)
		return false;
	t->m[at].main = true;
	if (at > 0 && t->m[at - 1].end == t->m[at].start &&
	    t->m[at - 1].ino == 0 && t->m[at - 1].path[0] == '\0')
		t->m[at - 1].main = true;
	if (at + 1 < t->nm && t->m[at + 1].start == t->m[at].end &&
	    t->m[at + 1].ino == 0 && t->m[at + 1].path[0] == '\0')
		t->m[at + 1].main = true;
	for (i = at > 0 ? at - 1 : at; i <= at + 1 && i < t->nm; i++)
		x |= t->m[i].main && t->m[i].perms[2] == 'x';
	snprintf(j->stack, sizeof(j->stack), "%s%s", t->m[at].perms,
	    x && t->m[at].perms[2] != 'x' ? ", executable in part" : "");
	return x;
}

/* What explains the writable and executable mapping m, or NULL. */
static const char *
explain(const struct task *t, const struct map *m, struct judgement *j)
{
	if (t->personality & READ_IMPLIES_EXEC)
		return "READ_IMPLIES_EXEC";
	if (m->tid != 0)
		return j->thread_why;
	if (m->path[0] == '/' && m->o != NULL && m->o->error == NULL &&
	    m->o->info.wx > 0)
		return "a writable and executable segment of the file";
	if (m->path[0] != '/' && m->ino == 0)
		return j->maybe_why;
	return NULL;
}

/* Its writable and executable memory beside the main stack, and its
   threads' stacks that differ from what glibc makes them. */
static void
areas_of(const struct task *t, struct judgement *j)
{
	const struct map *m;
	size_t i, unexplained = 0;

	j->areas = xcalloc(t->nm, sizeof(*j->areas));
	for (i = 0; i < t->nm; i++) {
		m = &t->m[i];
		if (m->tid != 0 && m->perms[2] != 'x' && j->threads_x)
			buf_addf(differ(j), "thread %d's stack is not executable, though glibc makes thread stacks so here", m->tid);
		if (m->main || m->perms[1] != 'w' || m->perms[2] != 'x')
			continue;
		j->areas[j->nareas] = (struct proc_area){ .start = m->start,
		    .end = m->end, .what = m->name, .tid = m->tid,
		    .why = explain(t, m, j) };
		if (j->areas[j->nareas].why == NULL && m->tid != 0)
			buf_addf(differ(j), "thread %d's stack is executable, though nothing asks for executable thread stacks", m->tid);
		else if (j->areas[j->nareas].why == NULL)
			unexplained++;
		j->nareas++;
	}
	if (unexplained == 1)
		buf_puts(differ(j), "a writable and executable mapping that nothing it loaded asks for: made so at run time (a JIT, mprotect)");
	else if (unexplained > 1)
		buf_addf(differ(j), "%zu writable and executable mappings that nothing it loaded asks for: made so at run time (a JIT, mprotect)", unexplained);
}

/* The main stack: executable as the causes make it, or not. */
static uint64_t
stack_verdict(const struct task *t, struct judgement *j, bool stack_x)
{
	if (stack_x && !j->main_x && t->nunread > 0)
		buf_puts(differ(j), "its stack is executable, though nothing that could be read asks for it");
	else if (stack_x && !j->main_x)
		buf_puts(differ(j), "its stack is executable, though nothing it loaded asks for it, nor its environment: made so at run time (mprotect, a JIT)");
	else if (!stack_x && j->main_x && j->stack[0] != '\0')
		buf_puts(differ(j), "its stack is not executable, though what it loaded asks for it");
	if (!stack_x)
		return 0;
	return j->main_x || t->nunread > 0 ? F_PROC_EXEC_STACK : F_PROC_UNASKED;
}

/* Count v, and report it. */
static void
say(struct proc *s, struct proc_verdict *v)
{
	static const unsigned counter[] = {
		[PROC_READ] = C_P_READ, [PROC_KERNEL] = C_P_KERNEL,
		[PROC_EXITED] = C_P_EXITED, [PROC_UNREADABLE] = C_P_UNREADABLE,
	};
	unsigned i;

	stat_add(s->r->st, counter[v->state]);
	if (v->state == PROC_UNREADABLE)
		stat_add(s->r->st, C_ERRORS);
	if (v->findings != 0)
		stat_add(s->r->st, C_P_FINDINGS);
	for (i = 0; i < F_COUNT; i++)
		if (v->findings & F_BIT(i))
			stat_add(s->r->st, C_KIND + i);
	if (v->findings & F_PROC_EXEC_STACK)
		stat_add(s->r->st, C_P_EXEC);
	if (v->findings & F_PROC_UNASKED)
		stat_add(s->r->st, C_P_UNASKED);
	if (v->findings & F_PROC_RWX)
		stat_add(s->r->st, C_P_RWX);
	if (v->state == PROC_READ && v->differs != NULL)
		stat_add(s->r->st, C_P_DIFFERS);
	report_process(s->r, v);
}

/* Judge t, read, and report it. */
static void
judge(struct proc *s, struct task *t)
{
	struct proc_verdict v = { .pid = t->pid, .state = PROC_READ,
	    .comm = t->comm };
	const struct obj *prog = NULL;
	struct judgement j;
	size_t i;

	memset(&j, 0, sizeof(j));
	BUF_INIT(j.differs, j.space);
	for (i = 0; i < t->nm && prog == NULL; i++)
		if (t->exe[0] != '\0' && strcmp(t->m[i].path, t->exe) == 0)
			prog = t->m[i].o;
	causes_of(s, t, prog, &j);
	v.findings = stack_verdict(t, &j, main_stack(t, &j));
	areas_of(t, &j);
	if (j.nareas > 0)
		v.findings |= F_PROC_RWX;
	v.root = t->root;
	v.exe = in_root(t, t->exe);
	v.exe_size = (unsigned long long)t->exe_size;
	v.stack = j.stack[0] != '\0' ? j.stack : NULL;
	v.causes = j.causes;
	v.ncauses = j.ncauses;
	v.areas = j.areas;
	v.nareas = j.nareas;
	v.unread = t->unread;
	v.nunread = t->nunread;
	v.differs = j.differs.len > 0 ? j.differs.p : NULL;
	say(s, &v);
	free(j.causes);
	free(j.areas);
	free(j.thread_why);
	free(j.maybe_why);
	buf_free(&j.differs);
}

/* One process: read it, load what it maps, judge it. Whatever fails to
   be read, a process that has exited by then is said to have. */
static void
proc_one(struct proc *s, int pid, bool named)
{
	char dir[32], error[512] = "";
	struct proc_verdict v = { .pid = pid, .comm = "", .error = error };
	const char *what = NULL;
	struct task t;
	int e;

	memset(&t, 0, sizeof(t));
	t.pid = pid;
	snprintf(dir, sizeof(dir), "/proc/%d", pid);
	if ((t.dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    read_stat(&t) == -1)
		what = "cannot read its state";
	else if (t.flags & PF_KTHREAD)
		v.state = PROC_KERNEL;
	else if (read_maps(&t) == -1)
		what = "cannot read its memory map";
	else if (read_root(&t) == -1)
		what = "cannot read its root directory";
	e = errno;
	v.comm = t.comm;
	if (v.state == PROC_KERNEL) {
		say(s, &v);
	} else if (what == NULL) {
		read_rest(&t);
		load(s, &t);
		v.state = exited(&t) ? PROC_EXITED : PROC_READ;
	} else if (t.dfd == -1 ? gone(e) && !named : exited(&t)) {
		v.state = PROC_EXITED;
	} else {
		v.state = PROC_UNREADABLE;
		if (t.dfd == -1 && gone(e))
			snprintf(error, sizeof(error), "no such process");
		else
			snprintf(error, sizeof(error), "%s: %s", what,
			    strerror(e));
	}
	if (v.state == PROC_READ)
		judge(s, &t);
	else if (v.state != PROC_KERNEL)
		say(s, &v);
	task_free(&t);
}

static int
pid_of(const char *name)
{
	char *end;
	long n = strtol(name, &end, 10);

	return *end == '\0' && n > 0 && n <= INT_MAX ? (int)n : 0;
}

int
proc_scan(struct report *r, const int *pids, size_t n)
{
	struct proc s = { .r = r };
	struct dirent *e;
	size_t i;
	DIR *d = NULL;
	int pid, ret = 0;

	objects_init(&s.objs);
	for (i = 0; i < n; i++)
		proc_one(&s, pids[i], true);
	if (n == 0 && (d = opendir("/proc")) == NULL) {
		warn("/proc: cannot list the processes");
		ret = -1;
	}
	while (d != NULL && (e = readdir(d)) != NULL)
		if ((pid = pid_of(e->d_name)) > 0)
			proc_one(&s, pid, false);
	if (d != NULL)
		closedir(d);
	for (i = 0; i < s.nld; i++)
		ldso_free(&s.ld[i].l);
	free(s.ld);
	objects_free(&s.objs);
	return ret;
}
