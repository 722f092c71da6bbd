/*
 * rootfs.c - a root's files as a process of that root sees them (see
 * system.h): every path is in the root and resolved inside it, so that an
 * absolute symbolic link or a ".." never leaves it, as chroot(2) would
 * have it. What the system verdicts read of a root (its dynamic linker,
 * ld.so.cache, its configuration, the libraries the programs load) is
 * read through here, from one of two backends:
 *
 *   a directory   this machine's files, with openat2's RESOLVE_IN_ROOT
 *                 (where there is no openat2, resolved the same way
 *                 one name at a time)
 *   an image      its file system as its layers make it (tree.h): what
 *                 a path is and the bytes the layer pass kept; the bytes
 *                 of its other files went by with that pass
 *
 * Each backend gives five things (struct rootfs_ops); what is built on
 * them (reading a file whole, glob patterns) is the same for both.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "system.h"
#include "tree.h"
#include "xalloc.h"

struct rootfs_ops {
	/* What path is, its links followed; its resolved path into real
	   (cap bytes) unless NULL. */
	int (*stat)(const struct rootfs *fs, const char *path,
	    struct rootfs_stat *st, char *real, size_t cap);
	/* A regular file of at most max bytes, whole (see rootfs_read). */
	char *(*read)(const struct rootfs *fs, const char *path, size_t max,
	    size_t *len);
	/* The file's bytes, to read as it goes. */
	int (*open)(const struct rootfs *fs, const char *path);
	/* Each name in the directory at dir, a path with its links
	   resolved. */
	int (*list)(const struct rootfs *fs, const char *dir,
	    void (*fn)(void *arg, const char *name), void *arg);
	/* What path is, its last link not followed (see rootfs_lstat). */
	int (*lstat)(const struct rootfs *fs, const char *path,
	    struct rootfs_stat *st, char *target, size_t cap);
};

/* ---- a directory of this machine ---- */

/* Where openat2 is not there (Linux before 5.6, qemu-user, a seccomp
   filter that refuses it: ENOSYS), path is resolved inside the root one
   name at a time, as RESOLVE_IN_ROOT does: ".." at the root stays there,
   an absolute link starts again at the root, more than 40 links is ELOOP
   (path_resolution(7)). The result, into out, names no link. Unlike
   openat2, a tree changed while it is resolved may lead it astray; it is
   only read. 0, or -1 and errno. */
static int
resolve_in_root(int root, const char *path, char *out, size_t cap)
{
	char todo[2 * PATH_MAX], next[2 * PATH_MAX], target[PATH_MAX];
	size_t len = 0, n, before;
	const char *p = todo, *end;
	struct stat sb;
	int links = 0;
	bool dot, dotdot;
	ssize_t t;

	if (snprintf(todo, sizeof(todo), "%s", path) >= (int)sizeof(todo))
		goto toolong;
	out[0] = '\0';
	for (;;) {
		p += strspn(p, "/");
		if (*p == '\0')
			return 0;
		end = strchrnul(p, '/');
		n = (size_t)(end - p);
		dot = n == 1 && p[0] == '.';
		dotdot = n == 2 && p[0] == '.' && p[1] == '.';
		if (dotdot) {
			while (len > 0 && out[len - 1] != '/')
				len--;
			len -= len > 0;
			out[len] = '\0';
		}
		before = len;
		if (!dot && !dotdot) {
			if (len + 1 + n >= cap)
				goto toolong;
			if (len > 0)
				out[len++] = '/';
			memcpy(out + len, p, n);
			out[len += n] = '\0';
		}
		p = end;
		if (len == before)
			continue;
		if (fstatat(root, out, &sb, AT_SYMLINK_NOFOLLOW) == -1)
			return -1;
		if (!S_ISLNK(sb.st_mode))
			continue;
		if (++links > 40) {
			errno = ELOOP;
			return -1;
		}
		if ((t = readlinkat(root, out, target, sizeof(target) - 1)) < 0)
			return -1;
		target[t] = '\0';
		if (snprintf(next, sizeof(next), "%s/%s", target, p) >=
		    (int)sizeof(next))
			goto toolong;
		memcpy(todo, next, strlen(next) + 1);
		p = todo;
		len = target[0] == '/' ? 0 : before;
		out[len] = '\0';
	}
toolong:
	errno = ENAMETOOLONG;
	return -1;
}

/* open(2) of the in-root path, resolved inside the root. This machine's
   root ("/") has nothing to be resolved inside: a plain openat, which
   every system call tracer knows (valgrind 3.19 does not know openat2),
   and which every scan makes when it reads what the machine runs. */
static int
dir_openat(const struct rootfs *fs, const char *path, int flags)
{
	static bool no_openat2;
	/* openat2 refuses O_PATH with any flag but these. */
	struct open_how how = {
		.flags = (unsigned)flags | O_CLOEXEC |
		    (flags & O_PATH ? 0 : O_NOCTTY),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	char real[PATH_MAX];
	int fd;

	while (*path == '/')
		path++;
	if (fs->len == 0)
		return openat(fs->fd, *path != '\0' ? path : ".",
		    (int)how.flags);
	if (!__atomic_load_n(&no_openat2, __ATOMIC_RELAXED)) {
		fd = (int)syscall(SYS_openat2, fs->fd,
		    *path != '\0' ? path : ".", &how, sizeof(how));
		if (fd != -1 || errno != ENOSYS)
			return fd;
		__atomic_store_n(&no_openat2, true, __ATOMIC_RELAXED);
	}
	if (resolve_in_root(fs->fd, path, real, sizeof(real)) == -1)
		return -1;
	return openat(fs->fd, real[0] != '\0' ? real : ".",
	    (int)how.flags | O_NOFOLLOW);
}

/* The in-root path of the file open on fd, its links resolved. */
static int
dir_where(const struct rootfs *fs, int fd, char *out, size_t len)
{
	char proc[64], host[PATH_MAX];
	const char *in;
	ssize_t n;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, host, sizeof(host) - 1);
	if (n <= 0)
		return -1;
	host[n] = '\0';
	if (fs->len == 0)
		in = host;
	else if ((in = rootfs_inside(fs, host)) == NULL)
		return -1;
	if (strlen(in) >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(out, in);
	return 0;
}

static int
dir_stat(const struct rootfs *fs, const char *path, struct rootfs_stat *st,
    char *real, size_t cap)
{
	struct stat sb;
	int fd, r = -1, saved;

	if ((fd = dir_openat(fs, path, O_PATH)) == -1)
		return -1;
	if (fstat(fd, &sb) == 0 && (real == NULL ||
	    dir_where(fs, fd, real, cap) == 0)) {
		st->type = sb.st_mode & S_IFMT;
		st->dev = sb.st_dev;
		st->ino = sb.st_ino;
		r = 0;
	}
	saved = errno;
	close(fd);
	errno = saved;
	return r;
}

static int
dir_open(const struct rootfs *fs, const char *path)
{
	return dir_openat(fs, path, O_RDONLY | O_NONBLOCK);
}

static char *
dir_read(const struct rootfs *fs, const char *path, size_t max, size_t *len)
{
	char *buf;
	int fd, saved;

	fd = dir_open(fs, path);
	if (fd == -1)
		return NULL;
	buf = rootfs_read_fd(fd, max, len);
	saved = errno;
	close(fd);
	errno = saved;
	return buf;
}

char *
rootfs_read_fd(int fd, size_t max, size_t *len)
{
	struct stat st;
	size_t got = 0;
	char *buf;
	ssize_t n = 0;

	if (fstat(fd, &st) == -1)
		return NULL;
	errno = !S_ISREG(st.st_mode) ? EINVAL : (uint64_t)st.st_size > max ?
	    EFBIG : 0;
	if (errno != 0)
		return NULL;
	buf = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size && (n = pread(fd, buf + got,
	    (size_t)st.st_size - got, (off_t)got)) > 0)
		got += (size_t)n;
	if (n == -1) {
		n = errno;
		free(buf);
		errno = (int)n;
		return NULL;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

static int
dir_list(const struct rootfs *fs, const char *dir,
    void (*fn)(void *arg, const char *name), void *arg)
{
	struct dirent *e;
	DIR *d;
	int fd, saved;

	if ((fd = dir_openat(fs, dir, O_RDONLY | O_DIRECTORY)) == -1)
		return -1;
	if ((d = fdopendir(fd)) == NULL) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	while ((errno = 0, e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			fn(arg, e->d_name);
	saved = errno;
	closedir(d);
	errno = saved;
	return saved != 0 ? -1 : 0;
}

static int
dir_lstat(const struct rootfs *fs, const char *path, struct rootfs_stat *st,
    char *target, size_t cap)
{
	const char *base = strrchr(path, '/');
	char *parent;
	struct stat sb;
	ssize_t n = 0;
	int pfd, r, saved;

	if (base == NULL || base[1] == '\0')
		return dir_stat(fs, path, st, NULL, 0);
	parent = xstrdup(path);
	parent[base - path] = '\0';
	pfd = dir_openat(fs, parent, O_PATH | O_DIRECTORY);
	free(parent);
	if (pfd == -1)
		return -1;
	r = fstatat(pfd, base + 1, &sb, AT_SYMLINK_NOFOLLOW);
	if (r == 0 && S_ISLNK(sb.st_mode) && target != NULL &&
	    (n = readlinkat(pfd, base + 1, target, cap - 1)) < 0)
		r = -1;
	saved = errno;
	close(pfd);
	errno = saved;
	if (r < 0)
		return -1;
	if (target != NULL)
		target[S_ISLNK(sb.st_mode) ? n : 0] = '\0';
	st->type = sb.st_mode & S_IFMT;
	st->dev = sb.st_dev;
	st->ino = sb.st_ino;
	return 0;
}

static const struct rootfs_ops dir_ops = {
	dir_stat, dir_read, dir_open, dir_list, dir_lstat,
};

/* ---- an image's file system ---- */

static void
tree_fill(const struct tree_file *f, struct rootfs_stat *st)
{
	st->type = f->type == TREE_DIR ? S_IFDIR : f->type == TREE_FILE ?
	    S_IFREG : f->type == TREE_LINK ? S_IFLNK : S_IFIFO;
	st->dev = 0;
	st->ino = f->id;
}

static int
tree_stat(const struct rootfs *fs, const char *path, struct rootfs_stat *st,
    char *real, size_t cap)
{
	struct tree_file f;

	if (tree_resolve(fs->tree, path, true, &f, real, cap) < 0)
		return -1;
	tree_fill(&f, st);
	return 0;
}

static int
tree_lstat(const struct rootfs *fs, const char *path, struct rootfs_stat *st,
    char *target, size_t cap)
{
	struct tree_file f;

	if (tree_resolve(fs->tree, path, false, &f, NULL, 0) < 0)
		return -1;
	if (target != NULL && f.type == TREE_LINK && f.len >= cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (target != NULL)
		strcpy(target, f.type == TREE_LINK ? f.data : "");
	tree_fill(&f, st);
	return 0;
}

static char *
tree_read(const struct rootfs *fs, const char *path, size_t max, size_t *len)
{
	struct tree_file f;
	char *buf;

	if (tree_resolve(fs->tree, path, true, &f, NULL, 0) < 0)
		return NULL;
	errno = f.type != TREE_FILE ? EINVAL : f.kept == TREE_NOT_KEPT ?
	    ENODATA : f.kept == TREE_OVER ? ENOBUFS : f.kept == TREE_TOO_BIG ||
	    f.len > max ? EFBIG : 0;
	if (errno != 0)
		return NULL;
	buf = xmalloc(f.len + 1);
	memcpy(buf, f.data, f.len + 1);
	*len = f.len;
	return buf;
}

static int
tree_open(const struct rootfs *fs, const char *path)
{
	struct tree_file f;

	if (tree_resolve(fs->tree, path, true, &f, NULL, 0) == 0)
		errno = f.type == TREE_DIR ? EISDIR : ENODATA;
	return -1;
}

static int
tree_names(const struct rootfs *fs, const char *dir,
    void (*fn)(void *arg, const char *name), void *arg)
{
	tree_list(fs->tree, dir, fn, arg);
	return 0;
}

static const struct rootfs_ops tree_ops = {
	tree_stat, tree_read, tree_open, tree_names, tree_lstat,
};

/* ---- the interface ---- */

int
rootfs_open_dir(struct rootfs *fs, const char *dir)
{
	memset(fs, 0, sizeof(*fs));
	fs->fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fs->fd == -1)
		return -1;
	fs->ops = &dir_ops;
	fs->name = xstrdup(dir);
	fs->len = strlen(dir);
	while (fs->len > 0 && fs->name[fs->len - 1] == '/')
		fs->name[--fs->len] = '\0';
	if (fs->len == 0)
		strcpy(fs->name, "/");
	return 0;
}

void
rootfs_open_tree(struct rootfs *fs, const char *file, const char *image,
    const struct tree *t)
{
	memset(fs, 0, sizeof(*fs));
	fs->ops = &tree_ops;
	fs->fd = -1;
	fs->name = xstrdup(file);
	fs->image = image != NULL ? xstrdup(image) : NULL;
	fs->tree = t;
}

void
rootfs_close(struct rootfs *fs)
{
	if (fs->ops == NULL)
		return;
	if (fs->fd != -1)
		close(fs->fd);
	free(fs->name);
	free(fs->image);
	memset(fs, 0, sizeof(*fs));
}

const char *
rootfs_inside(const struct rootfs *fs, const char *path)
{
	if (fs->tree != NULL)
		return path[0] == '/' ? path : NULL;
	if (fs->len > 0 && (strncmp(path, fs->name, fs->len) != 0 ||
	    (path[fs->len] != '\0' && path[fs->len] != '/')))
		return NULL;
	path += fs->len;
	return *path != '\0' ? path : "/";
}

char *
rootfs_host(const struct rootfs *fs, const char *in)
{
	char *host;

	if (fs->tree != NULL)
		return NULL;
	if (asprintf(&host, "%.*s%s", (int)fs->len, fs->name,
	    strcmp(in, "/") == 0 && fs->len > 0 ? "" : in) < 0)
		oom();
	return host;
}

int
rootfs_stat(const struct rootfs *fs, const char *path, struct rootfs_stat *st,
    char *real, size_t cap)
{
	return fs->ops->stat(fs, path, st, real, cap);
}

int
rootfs_open(const struct rootfs *fs, const char *path)
{
	return fs->ops->open(fs, path);
}

char *
rootfs_read(const struct rootfs *fs, const char *path, size_t max,
    size_t *len)
{
	return fs->ops->read(fs, path, max, len);
}

int
rootfs_lstat(const struct rootfs *fs, const char *path,
    struct rootfs_stat *st, char *target, size_t cap)
{
	return fs->ops->lstat(fs, path, st, target, cap);
}

int
rootfs_list(const struct rootfs *fs, const char *dir,
    void (*fn)(void *arg, const char *name), void *arg)
{
	struct rootfs_stat st;
	char real[PATH_MAX];

	if (rootfs_stat(fs, dir, &st, real, sizeof(real)) < 0)
		return -1;
	if (st.type != S_IFDIR) {
		errno = ENOTDIR;
		return -1;
	}
	return fs->ops->list(fs, real, fn, arg);
}

const char *
rootfs_strerror(int e)
{
	switch (e) {
	case ENODATA:
		return "the image's layer pass kept no copy of it";
	case ENOBUFS:
		return "not kept: the image's kept files would pass 128 MiB";
	case EFBIG:
		return "larger than such a file can be";
	case EINVAL:
		return "not a regular file";
	default:
		return strerror(e);
	}
}

/* ---- glob patterns, a component at a time ---- */

#define GLOB_MAX 4096		/* paths a pattern may match */

struct matches {
	char **v;
	size_t n;
};

struct listing {
	const char *pat;	/* the component */
	char **v;
	size_t n;
};

static void
listed(void *arg, const char *name)
{
	struct listing *l = arg;

	/* A leading "." is matched only by one, as glob(3) has it. */
	if (fnmatch(l->pat, name, FNM_PERIOD) != 0 || l->n >= GLOB_MAX)
		return;
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(name);
}

/* The paths matching rest under dir (an in-root path, "" for the root). */
static void
glob_under(const struct rootfs *fs, const char *dir, const char *rest,
    struct matches *m, int depth)
{
	struct rootfs_stat st;
	struct listing l = { NULL, NULL, 0 };
	char *comp, *next;
	size_t i, len;

	rest += strspn(rest, "/");
	if (*rest == '\0' || depth > 64 || m->n >= GLOB_MAX) {
		if (*rest == '\0' && m->n < GLOB_MAX &&
		    rootfs_stat(fs, dir[0] != '\0' ? dir : "/", &st, NULL,
		    0) == 0) {
			m->v = xrealloc(m->v, (m->n + 1) * sizeof(*m->v));
			m->v[m->n++] = xstrdup(dir[0] != '\0' ? dir : "/");
		}
		return;
	}
	len = strcspn(rest, "/");
	comp = xmalloc(len + 1);
	memcpy(comp, rest, len);
	comp[len] = '\0';
	if (strpbrk(comp, "*?[") == NULL) {
		l.v = xmalloc(sizeof(*l.v));
		l.v[l.n++] = xstrdup(comp);
	} else {
		l.pat = comp;
		(void)rootfs_list(fs, dir[0] != '\0' ? dir : "/", listed, &l);
	}
	for (i = 0; i < l.n; i++) {
		if (asprintf(&next, "%s/%s", dir, l.v[i]) < 0)
			oom();
		glob_under(fs, next, rest + len, m, depth + 1);
		free(next);
		free(l.v[i]);
	}
	free(l.v);
	free(comp);
}

static int
by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
rootfs_glob(const struct rootfs *fs, const char *pattern,
    void (*fn)(void *arg, const char *path), void *arg)
{
	struct matches m = { NULL, 0 };
	size_t i;

	if (pattern[0] != '/')
		return;
	glob_under(fs, "", pattern, &m, 0);
	if (m.n > 1)
		qsort(m.v, m.n, sizeof(*m.v), by_path);
	for (i = 0; i < m.n; i++) {
		fn(arg, m.v[i]);
		free(m.v[i]);
	}
	free(m.v);
}
