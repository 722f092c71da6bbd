/*
 * walk.c - the first stage: finding the files, in parallel. Worker threads
 * take directories from a shared stack (depth first, which keeps the stack
 * short), read each with getdents64, and hand regular files, known by
 * their d_type alone (no stat), to heads.c, which reads many at a time and
 * passes each to the next stage (read.c).
 *
 * Symbolic links are followed only when asked (-L), except those named on
 * the command line. Each directory is scanned once, by device and inode,
 * so link loops and bind mounts end. FIFOs, sockets and devices are never
 * opened: met in a directory they are passed over, named on the command
 * line they are an error. Paths of any length work: a directory too deep for one open is
 * opened a piece at a time. Pseudo file systems (/proc, /sys ...) met
 * during the walk are skipped.
 *
 * A file is read once under each real path: named twice (as "a" and
 * "./a", or through a symbolic link), or named and met again under a named
 * directory, it is read under the first name. The files named are known
 * by device and inode, and two names of one file by their real paths:
 * hard links are different paths, each read, as the walk reads them (a
 * program runs by each name, and chstk -E rewrites one name at a time).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "container.h"
#include "elfscan.h"
#include "report.h"
#include "system.h"
#include "xalloc.h"

struct job {
	struct job *next;
	dev_t root_dev;		/* the device of the command-line root */
	dev_t parent_dev;	/* the device of the directory it is in */
	bool root;		/* named on the command line */
	bool file;		/* a file named, or listed */
	enum named named;	/* how, for a file */
	size_t root_len;	/* path[0, root_len) stands for / in its
				   files' installed paths (struct where) */
	bool image;		/* named as an image reference (ref.c) */
	const char *ref;	/* the image it selects, or NULL */
	size_t len;
	char path[];
};

/*
 * Directories seen: open-addressing tables filled to three quarters. Those
 * of the device of the first, with inode numbers below 2^32 (nearly all
 * of a tree: /usr has 20,000 directories), by their inode number alone, 4
 * bytes, exactly; the others by a 64-bit hash of device and inode, a
 * quarter of what the pair takes: two that hash alike (odds of 1 in 10^10
 * for a million directories) would make the second look seen.
 */
struct seen_table {
	void *slot;		/* uint32_t or uint64_t; 0: free */
	size_t cap, n;
	bool wide;		/* uint64_t */
};
struct seen {
	dev_t dev;		/* of the first directory */
	bool started;
	struct seen_table ino, key;
};

/* A file named or listed, by its identity (dir_key). */
struct named_file {
	uint64_t key;
	size_t i;		/* its place among the names */
	const char *path;	/* as named */
};

struct walker {
	const struct opts *o;
	struct judge *j;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct job *stack;
	unsigned idle, workers;	/* workers: started, and main's */
	bool done;
	/* The threads started, up to o->jobs_most - 1 (grow). */
	pthread_t *thread;
	unsigned started;
	atomic_bool grown;	/* no more will start */
	atomic_llong next_look;	/* when grow looks again, in ns */
	long inblock;		/* blocks read from the disk then */
	bool reading;		/* and whether some were read before */
	struct seen seen;	/* under lock */
	/* The files named, by key: filled before the workers start, then
	   only read. */
	struct named_file *named;
	size_t nnamed;
	/* The paths named (of an image reference, its path), and the
	   images the references select; NULL for a plain path. */
	char **path, **ref;
};

static uint64_t
dir_key(dev_t dev, ino_t ino)
{
	uint64_t k = (uint64_t)ino ^ ((uint64_t)dev * 0x9e3779b97f4a7c15ULL);

	/* splitmix64's finisher: every bit of the pair reaches the low bits */
	k = (k ^ (k >> 30)) * 0xbf58476d1ce4e5b9ULL;
	k = (k ^ (k >> 27)) * 0x94d049bb133111ebULL;
	k ^= k >> 31;
	return k != 0 ? k : 1;
}

static uint64_t
seen_at(const struct seen_table *t, size_t i)
{
	return t->wide ? ((uint64_t *)t->slot)[i] : ((uint32_t *)t->slot)[i];
}

static void
seen_put(struct seen_table *t, size_t i, uint64_t v)
{
	if (t->wide)
		((uint64_t *)t->slot)[i] = v;
	else
		((uint32_t *)t->slot)[i] = (uint32_t)v;
}

/* Where v's probe starts: the hash's low bits (an inode number's own are
   spread first). */
static size_t
seen_home(const struct seen_table *t, uint64_t v)
{
	return (size_t)(t->wide ? v : dir_key(0, (ino_t)v)) & (t->cap - 1);
}

/* Add v (not 0) to t; false if it was there. */
static bool
seen_add(struct seen_table *t, uint64_t v)
{
	size_t i, h;
	uint64_t x;

	if (4 * (t->n + 1) > 3 * t->cap) {
		struct seen_table big = { NULL, t->cap ? 2 * t->cap : 1024,
		    t->n, t->wide };

		big.slot = xcalloc(big.cap, t->wide ? 8 : 4);
		for (i = 0; i < t->cap; i++) {
			if ((x = seen_at(t, i)) == 0)
				continue;
			for (h = seen_home(&big, x); seen_at(&big, h) != 0;)
				h = (h + 1) & (big.cap - 1);
			seen_put(&big, h, x);
		}
		free(t->slot);
		*t = big;
	}
	for (h = seen_home(t, v); (x = seen_at(t, h)) != 0;
	    h = (h + 1) & (t->cap - 1))
		if (x == v)
			return false;
	seen_put(t, h, v);
	t->n++;
	return true;
}

/* Record a directory; false if it was seen before. */
static bool
first_visit(struct walker *w, dev_t dev, ino_t ino)
{
	struct seen *s = &w->seen;
	bool first;

	pthread_mutex_lock(&w->lock);
	if (!s->started) {
		s->started = true;
		s->dev = dev;
		s->key.wide = true;
	}
	if (dev == s->dev && ino != 0 && ino <= UINT32_MAX)
		first = seen_add(&s->ino, ino);
	else
		first = seen_add(&s->key, dir_key(dev, ino));
	pthread_mutex_unlock(&w->lock);
	return first;
}

static struct job *
job_new(const char *path, size_t len, dev_t root_dev, dev_t parent_dev,
    bool root, bool file, enum named named)
{
	struct job *j = xcalloc(1, sizeof(*j) + len + 1);

	memcpy(j->path, path, len);
	j->path[len] = '\0';
	j->len = len;
	j->root_dev = root_dev;
	j->parent_dev = parent_dev;
	j->root = root;
	j->file = file;
	j->named = named;
	return j;
}

/* A directory met in the walk, in the directory of job in, on device
   dev. */
static void
push(struct walker *w, const struct job *in, const char *path, size_t len,
    dev_t dev)
{
	struct job *j = job_new(path, len, in->root_dev, dev, false, false,
	    NAMED_NO);

	j->root_len = in->root_len;
	pthread_mutex_lock(&w->lock);
	j->next = w->stack;
	w->stack = j;
	if (w->idle > 0)
		pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/* The next job; NULL when every worker is idle and nothing is left. A
   worker reads the files it has in flight before it waits. */
static struct job *
pop(struct walker *w, struct heads *h)
{
	struct job *j;

	pthread_mutex_lock(&w->lock);
	while (w->stack == NULL && !w->done) {
		if (heads_busy(h)) {
			pthread_mutex_unlock(&w->lock);
			heads_drain(h);
			pthread_mutex_lock(&w->lock);
			continue;
		}
		if (++w->idle == w->workers) {
			w->done = true;
			pthread_cond_broadcast(&w->cond);
			break;
		}
		pthread_cond_wait(&w->cond, &w->lock);
		w->idle--;
	}
	j = w->stack;
	if (j != NULL)
		w->stack = j->next;
	pthread_mutex_unlock(&w->lock);
	return j;
}

/* An error of the walk itself, about a directory or a root. */
static void
walk_error(struct walker *w, const char *path, const char *what, int e)
{
	struct where where = { .path = path };
	char msg[256];

	snprintf(msg, sizeof(msg), "%s: %s", what, strerror(e));
	report_error(w->j->r, &where, UNREAD_ERROR, false, msg);
}

/* Open a directory whose path may be longer than PATH_MAX. */
static int
open_dir(const char *path, size_t len, bool follow)
{
	int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (follow ? 0 :
	    O_NOFOLLOW);
	int dirfd = AT_FDCWD, fd;
	char piece[PATH_MAX];

	while (len >= PATH_MAX) {
		size_t cut = PATH_MAX - 1;

		while (cut > 0 && path[cut] != '/')
			cut--;
		if (cut == 0) {
			errno = ENAMETOOLONG;
			fd = -1;
			break;
		}
		memcpy(piece, path, cut);
		piece[cut] = '\0';
		fd = openat(dirfd, piece, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dirfd != AT_FDCWD)
			close(dirfd);
		if (fd == -1)
			return -1;
		dirfd = fd;
		path += cut + 1;
		len -= cut + 1;
	}
	fd = openat(dirfd, path, flags);
	if (dirfd != AT_FDCWD) {
		int e = errno;

		close(dirfd);
		errno = e;
	}
	return fd;
}

/* Kernel file systems that hold no programs and may not be read freely. */
static bool
pseudo_fs(int fd)
{
	static const long magics[] = {
		PROC_SUPER_MAGIC, SYSFS_MAGIC, DEVPTS_SUPER_MAGIC,
		CGROUP_SUPER_MAGIC, CGROUP2_SUPER_MAGIC, DEBUGFS_MAGIC,
		TRACEFS_MAGIC, SECURITYFS_MAGIC, PSTOREFS_MAGIC, BPF_FS_MAGIC,
		EFIVARFS_MAGIC, 0x62656570 /* configfs */,
		0x65735543 /* fusectl */, 0x19800202 /* mqueue */,
	};
	struct statfs sf;
	size_t i;

	if (fstatfs(fd, &sf) == -1)
		return false;
	for (i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if ((long)sf.f_type == magics[i])
			return true;
	return false;
}

/* May this directory be scanned? Takes fd's ownership when not. */
static bool
enter(struct walker *w, const struct job *j, int fd, dev_t *dev)
{
	struct stat st;

	if (fstat(fd, &st) == -1)
		return false;
	*dev = st.st_dev;
	if (w->o->one_fs && st.st_dev != j->root_dev)
		return false;
	if (!j->root && st.st_dev != j->parent_dev && pseudo_fs(fd))
		return false;
	return first_visit(w, st.st_dev, st.st_ino);
}

/* The entry's type from d_type, or from a stat when d_type cannot say. */
static unsigned char
entry_type(int dirfd, const struct dirent64 *e, bool follow, bool *link)
{
	struct stat st;

	*link = e->d_type == DT_LNK;
	if (e->d_type != DT_UNKNOWN && !(follow && *link))
		return e->d_type;
	if (fstatat(dirfd, e->d_name, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW))
		return DT_UNKNOWN;
	*link = *link || (!follow && S_ISLNK(st.st_mode));
	return S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG :
	    DT_UNKNOWN;
}

/* Do two paths name one file by the same real path? */
static bool
same_path(const char *a, const char *b)
{
	char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
	bool same = ra != NULL && rb != NULL && strcmp(ra, rb) == 0;

	free(ra);
	free(rb);
	return same;
}

static int
by_key(const void *a, const void *b)
{
	const struct named_file *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int
key_only(const void *a, const void *b)
{
	const struct named_file *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* Was the file name in dirfd, met at path in the walk, named too? */
static bool
named_too(struct walker *w, int dirfd, const char *name, const char *path)
{
	struct named_file key = { 0, 0, NULL }, *n;
	struct stat st;

	if (fstatat(dirfd, name, &st, 0) == -1)
		return false;
	key.key = dir_key(st.st_dev, st.st_ino);
	n = bsearch(&key, w->named, w->nnamed, sizeof(*n), key_only);
	if (n == NULL)
		return false;
	/* bsearch found one of the run of this key: go to its start. */
	while (n > w->named && n[-1].key == key.key)
		n--;
	for (; n < w->named + w->nnamed && n->key == key.key; n++)
		if (same_path(path, n->path))
			return true;
	return false;
}

/* A worker's buffers: directory entries, and the path being built. */
struct scratch {
	char dents[32768];
	char *path;
	size_t cap;
};

static void
entry(struct walker *w, const struct job *j, int fd, dev_t dev,
    const struct dirent64 *e, struct scratch *s, struct heads *h)
{
	size_t nlen = strlen(e->d_name), len;
	unsigned char type;
	bool link;

	if (e->d_name[0] == '.' && (nlen == 1 ||
	    (nlen == 2 && e->d_name[1] == '.')))
		return;
	type = entry_type(fd, e, w->o->follow, &link);
	if (type != DT_DIR && type != DT_REG)
		return;
	len = j->len + (j->path[j->len - 1] != '/') + nlen;
	if (len + 1 > s->cap) {
		s->cap = 2 * (len + 1);
		free(s->path);
		s->path = xmalloc(s->cap);
	}
	snprintf(s->path, s->cap, "%s%s%s", j->path,
	    j->path[j->len - 1] == '/' ? "" : "/", e->d_name);
	if (type == DT_DIR) {
		push(w, j, s->path, len, dev);
	} else if (w->nnamed == 0 || !named_too(w, fd, e->d_name, s->path)) {
		struct met m = { .path = s->path, .root = j->root_len,
		    .follow = link, .named = NAMED_NO };

		heads_file(h, fd, e->d_name, &m);
	}
}

/* getdents64 straight into the worker's buffer: no DIR to allocate, and
   none of fdopendir's extra system calls. */
static void
scan_dir(struct walker *w, const struct job *j, struct scratch *s,
    struct heads *h)
{
	int fd = open_dir(j->path, j->len, j->root || w->o->follow);
	/* A layout named is its own root, as a file named is. */
	struct met m = { .path = j->path, .root = j->root ? 0 : j->root_len,
	    .named = j->root ? NAMED_ARG : NAMED_NO, .image = j->image,
	    .ref = j->ref };
	ssize_t n, off;
	dev_t dev;

	if (fd == -1) {
		if (errno != ENOENT && !(errno == ELOOP && !j->root))
			walk_error(w, j->path, "cannot open directory", errno);
		return;
	}
	if (!enter(w, j, fd, &dev)) {
		close(fd);
		return;
	}
	/* An image layout is one container: named, or with -A. */
	if ((j->root || w->o->archives) && oci_is_layout(fd)) {
		read_layout(w->j, fd, &m);
		close(fd);
		return;
	}
	if (j->image) {
		struct where where = { .path = j->path };

		report_error(w->j->r, &where, UNREAD_ERROR, false,
		    "not an OCI image layout");
		close(fd);
		return;
	}
	stat_add(w->j->st, C_DIRS);
	if (w->j->prog != NULL)
		progress_dir(w->j->prog, j->path);
	while ((n = getdents64(fd, s->dents, sizeof(s->dents))) > 0)
		for (off = 0; off < n;) {
			const struct dirent64 *e =
			    (const struct dirent64 *)(s->dents + off);

			off += e->d_reclen;
			entry(w, j, fd, dev, e, s, h);
		}
	if (n == -1)
		walk_error(w, j->path, "cannot read directory", errno);
	heads_dir_done(h, fd);
}

static void *worker(void *arg);

static long long
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * With a cold cache the walkers wait for the disk, to list a directory or
 * to read a file for the library, and as many as the CPUs keep too few of
 * those reads in flight. Whenever the process read from the disk in the
 * last two of the times grow looks, GROW_EVERY apart, one more walker
 * joins, up to o->jobs_most. A warm walk reads nothing from the disk, or
 * a few files gone from the cache now and then, and keeps o->jobs, and
 * their memory.
 */
#define GROW_EVERY 20000000	/* ns */
static void
grow(struct walker *w)
{
	struct rusage ru;
	long long now;

	if (atomic_load_explicit(&w->grown, memory_order_relaxed))
		return;
	now = now_ns();
	if (now < atomic_load_explicit(&w->next_look, memory_order_relaxed))
		return;
	pthread_mutex_lock(&w->lock);
	if (now >= atomic_load(&w->next_look) && !w->done &&
	    getrusage(RUSAGE_SELF, &ru) == 0) {
		atomic_store(&w->next_look, now + GROW_EVERY);
		if (ru.ru_inblock > w->inblock && w->reading) {
			if (pthread_create(&w->thread[w->started], NULL,
			    worker, w) == 0) {
				w->started++;
				w->workers++;
			} else {
				atomic_store(&w->grown, true);
			}
		}
		w->reading = ru.ru_inblock > w->inblock;
		w->inblock = ru.ru_inblock;
		if (w->started + 1 >= w->o->jobs_most)
			atomic_store(&w->grown, true);
	}
	pthread_mutex_unlock(&w->lock);
}

static void *
worker(void *arg)
{
	struct walker *w = arg;
	struct scratch *s = xmalloc(sizeof(*s));
	struct heads *h = heads_new(w->j);
	struct job *j;

	s->cap = 4096;
	s->path = xmalloc(s->cap);
	while ((j = pop(w, h)) != NULL) {
		struct met m = { .path = j->path, .root = j->root_len,
		    .follow = true, .named = j->named, .image = j->image,
		    .ref = j->ref };

		if (j->file)
			read_file(w->j, AT_FDCWD, j->path, &m);
		else
			scan_dir(w, j, s, h);
		free(j);
		grow(w);
	}
	heads_free(h);
	free(s->path);
	free(s);
	return NULL;
}

/* What a named path is to the walk. */
enum root_kind { ROOT_SKIP, ROOT_DIR, ROOT_FILE };
struct root {
	enum root_kind kind;
	dev_t dev;
};

/* Stat path, the i-th name (an argument if arg, else a name of the list,
   whose directories are passed over: their files are listed), into r;
   a file joins the files named. Returns -1 when it cannot be scanned
   (reported). */
static int
look(struct walker *w, const char *path, size_t i, bool arg, struct root *r)
{
	struct where where = { .path = path };
	struct stat st;

	r->kind = ROOT_SKIP;
	if (stat(path, &st) == -1) {
		walk_error(w, path, "cannot stat", errno);
		return -1;
	}
	r->dev = st.st_dev;
	if (S_ISREG(st.st_mode)) {
		r->kind = ROOT_FILE;
		w->named[w->nnamed++] = (struct named_file){
		    dir_key(st.st_dev, st.st_ino), i, path };
	} else if (S_ISDIR(st.st_mode)) {
		r->kind = arg ? ROOT_DIR : ROOT_SKIP;
	} else {
		report_error(w->j->r, &where, UNREAD_ERROR, false,
		    "not a regular file or directory");
		return -1;
	}
	return 0;
}

/* Do names i and k select the same images of their file (ref.c)? */
static bool
same_ref(const struct walker *w, size_t i, size_t k)
{
	const char *a = w->ref[i], *b = w->ref[k];

	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Of the files named twice by one real path (and for the same image),
   skip all but the first. */
static void
drop_renamed(struct walker *w, struct root *r)
{
	const struct named_file *a, *b;
	size_t k, m;

	qsort(w->named, w->nnamed, sizeof(*w->named), by_key);
	for (k = 1; k < w->nnamed; k++) {
		b = &w->named[k];
		for (m = k; m-- > 0 && w->named[m].key == b->key;) {
			a = &w->named[m];
			if (r[a->i].kind == ROOT_FILE &&
			    same_ref(w, a->i, b->i) &&
			    same_path(a->path, b->path)) {
				r[b->i].kind = ROOT_SKIP;
				break;
			}
		}
	}
}

/* What of a root's path, path[0, len), stands for / in its files'
   installed paths: of a directory of a system root (the default audit,
   --system: system.h), that root's; of a directory named, itself; of a
   file named, nothing. */
static size_t
root_len(const struct walker *w, const char *path, size_t len, bool dir)
{
	const char *in;

	if (!w->o->system || w->j->sys == NULL)
		return dir ? len : 0;
	if ((in = system_inside(w->j->sys, path)) == NULL)
		return 0;
	/* the root itself: its in-root path is "/" */
	return strcmp(in, "/") == 0 && len > 1 ? len : len - strlen(in);
}

/*
 * Look at the paths named, arguments then the list, in the order given
 * (an image reference by its path), then put those to scan on the stack,
 * the first on top: the workers take them in the given order. Returns -1
 * when one cannot be scanned (reported).
 */
static int
push_roots(struct walker *w, char **args, size_t nargs, char **listed,
    size_t nlisted)
{
	size_t n = nargs + nlisted, i, len;
	struct root *r = xcalloc(n, sizeof(*r));
	struct job *first = NULL, **tail = &first;
	const char *name;
	int ret = 0;

	w->named = xcalloc(n, sizeof(*w->named));
	w->path = xcalloc(n, sizeof(*w->path));
	w->ref = xcalloc(n, sizeof(*w->ref));
	for (i = 0; i < n; i++) {
		name = i < nargs ? args[i] : listed[i - nargs];
		if (!image_ref(name, &w->path[i], &w->ref[i]))
			w->path[i] = xstrdup(name);
		if (look(w, w->path[i], i, i < nargs, &r[i]) < 0)
			ret = -1;
	}
	drop_renamed(w, r);
	for (i = 0; i < n; i++) {
		if (r[i].kind == ROOT_SKIP)
			continue;
		name = i < nargs ? args[i] : listed[i - nargs];
		len = strlen(w->path[i]);
		while (len > 1 && w->path[i][len - 1] == '/')
			len--;
		*tail = job_new(w->path[i], len, r[i].dev, r[i].dev, i < nargs,
		    r[i].kind == ROOT_FILE, i < nargs ? NAMED_ARG :
		    NAMED_LISTED);
		(*tail)->root_len = root_len(w, w->path[i], len,
		    r[i].kind == ROOT_DIR);
		/* a reference's path is its name without the transport */
		(*tail)->image = strcmp(name, w->path[i]) != 0;
		(*tail)->ref = w->ref[i];
		tail = &(*tail)->next;
	}
	*tail = NULL;
	w->stack = first;	/* no worker runs yet */
	free(r);
	return ret;
}

int
walk(struct judge *j, char **args, size_t nargs, char **listed,
    size_t nlisted)
{
	struct walker w = { .o = j->o, .j = j };
	struct rusage ru;
	unsigned i;
	size_t k;
	int ret;

	pthread_mutex_init(&w.lock, NULL);
	pthread_cond_init(&w.cond, NULL);
	ret = push_roots(&w, args, nargs, listed, nlisted);
	w.thread = xmalloc(j->o->jobs_most * sizeof(*w.thread));
	w.inblock = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_inblock : 0;
	atomic_init(&w.next_look, now_ns() + GROW_EVERY);
	atomic_init(&w.grown, j->o->jobs >= j->o->jobs_most);
	/* The main thread is a worker too. The threads wait for the lock
	   until all are started. */
	pthread_mutex_lock(&w.lock);
	for (i = 0; i + 1 < j->o->jobs; i++)
		if (pthread_create(&w.thread[w.started], NULL, worker, &w) == 0)
			w.started++;
	w.workers = w.started + 1;
	pthread_mutex_unlock(&w.lock);
	worker(&w);
	/* Every worker is idle or gone: none starts another. */
	for (i = 0; i < w.started; i++)
		pthread_join(w.thread[i], NULL);
	free(w.thread);
	free(w.seen.ino.slot);
	free(w.seen.key.slot);
	free(w.named);
	for (k = 0; k < nargs + nlisted; k++) {
		free(w.path[k]);
		free(w.ref[k]);
	}
	free(w.path);
	free(w.ref);
	pthread_mutex_destroy(&w.lock);
	pthread_cond_destroy(&w.cond);
	return ret;
}
