/*
 * update.c - chstk_update(): changing a file on disk without ever leaving it
 * half-written.
 *
 * The new contents go to a temporary file in the same directory: an
 * unnamed O_TMPFILE where the file system has it (a crash leaves nothing
 * behind), otherwise a hidden ".NAME.chstk-XXXXXX". The temporary file gets
 * the original's owner and group first (chown clears set-user-ID bits and
 * capabilities), then its mode, then every extended attribute; it is
 * synced and renamed over the original, and the directory is synced. Each
 * step names itself in the error message if it fails, and every failure
 * removes the temporary file. A file or directory that the rename would
 * fail on for its attributes (chattr +i, +a) is refused before any of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* The file being replaced. */
struct target {
	char *path;		/* the resolved path, owned */
	const char *base;	/* its last component, inside path */
	int dirfd;
	bool dir_readable;	/* dirfd can be synced */
	int fd;
	struct stat st;
	int tmp;		/* the temporary file, or -1 */
	char tmpname[NAME_MAX + 1];	/* its name once it has one, or "" */
};

static int
open_target(struct target *t, const char *path, struct chstk_error *err)
{
	char *slash;

	/* One message for a path that leads nowhere, whichever step finds
	   it out: "cannot open", as chstk_scan_path() says. */
	t->path = realpath(path, NULL);
	if (t->path == NULL)
		return chstk__syserror(err, "cannot open");
	slash = strrchr(t->path, '/');
	t->base = slash + 1;
	*slash = '\0';
	t->dirfd = open(t->path[0] ? t->path : "/",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	t->dir_readable = t->dirfd != -1;
	if (t->dirfd == -1 && errno == EACCES)
		t->dirfd = open(t->path[0] ? t->path : "/",
		    O_PATH | O_DIRECTORY | O_CLOEXEC);
	*slash = '/';
	if (t->dirfd == -1)
		return chstk__syserror(err, "cannot open directory");
	/* Look before opening: opening a device can have effects. */
	if (fstatat(t->dirfd, t->base, &t->st, AT_SYMLINK_NOFOLLOW) == -1)
		return chstk__syserror(err, "cannot open");
	if (!S_ISREG(t->st.st_mode))
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "not a regular file");
	/* O_NONBLOCK: a FIFO must not hang the open. */
	t->fd = openat(t->dirfd, t->base,
	    O_RDONLY | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (t->fd == -1)
		return chstk__syserror(err, "cannot open");
	if (fstat(t->fd, &t->st) == -1)
		return chstk__syserror(err, "cannot stat");
	return 0;
}

/* The inode flags chattr sets on fd; none where the file system has
   none (ENOTTY, EOPNOTSUPP) or fd cannot be asked (an O_PATH directory):
   then the rename is the judge. */
static int
inode_flags(int fd)
{
	int flags = 0;

	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == -1)
		return 0;
	return flags;
}

static int
refuse(struct chstk_error *err, const char *why)
{
	chstk__error(err, CHSTK_ERR_SYS, "cannot rewrite: %s", why);
	if (err != NULL)
		err->sys_errno = EPERM;	/* what the rename would fail with */
	return CHSTK_ERR_SYS;
}

/* An immutable or append-only file cannot be renamed over, nor can a
   name in an immutable or append-only directory: say so before the
   rewrite, not after it. */
static int
renamable(const struct target *t, struct chstk_error *err)
{
	int file = inode_flags(t->fd);
	int dir = t->dir_readable ? inode_flags(t->dirfd) : 0;

	if (file & FS_IMMUTABLE_FL)
		return refuse(err, "the file is immutable (chattr +i)");
	if (file & FS_APPEND_FL)
		return refuse(err, "the file is append-only (chattr +a)");
	if (dir & FS_IMMUTABLE_FL)
		return refuse(err, "its directory is immutable (chattr +i)");
	if (dir & FS_APPEND_FL)
		return refuse(err, "its directory is append-only (chattr +a)");
	return 0;
}

/* Does anything in the file need to change? Fills res. */
struct need {
	enum chstk_op op;
	struct chstk_result *res;
	struct chstk_error *err;
	int r;
};

static int
need_image(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *ierr)
{
	struct need *n = arg;

	if (info == NULL) {
		n->r = chstk__error(n->err, ierr->code, "member %s: %s",
		    member ? member : "?", ierr->msg);
		return n->r;
	}
	n->res->images++;
	if (chstk_op_result(n->op, info->state) != info->state)
		n->res->changed++;
	return 0;
}

/* A hidden name beside the original, short enough for any file name. */
static void
temp_name(struct target *t)
{
	unsigned long r = (unsigned long)random() ^ (unsigned long)getpid() ^
	    (unsigned long)time(NULL);

	snprintf(t->tmpname, sizeof(t->tmpname), ".%.200s.chstk-%06lx",
	    t->base, r & 0xffffff);
}

static int
open_temp(struct target *t, struct chstk_error *err)
{
	unsigned i;

	t->tmp = openat(t->dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (t->tmp != -1)
		return 0;
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return chstk__syserror(err, "cannot create temporary file");
	for (i = 0; i < 100; i++) {
		temp_name(t);
		t->tmp = openat(t->dirfd, t->tmpname,
		    O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (t->tmp != -1)
			return 0;
		if (errno != EEXIST)
			break;
	}
	t->tmpname[0] = '\0';
	return chstk__syserror(err, "cannot create temporary file");
}

/* The names of fd's extended attributes, NUL-separated; *names owned. */
static int
list_xattrs(int fd, char **names, size_t *len, struct chstk_error *err)
{
	ssize_t n;

	*names = NULL;
	*len = 0;
	for (;;) {
		n = flistxattr(fd, NULL, 0);
		if (n == -1 && errno == ENOTSUP)
			return 0;
		if (n == -1)
			break;
		free(*names);
		*names = malloc(n ? (size_t)n : 1);
		if (*names == NULL)
			break;
		n = flistxattr(fd, *names, (size_t)n);
		if (n >= 0) {
			*len = (size_t)n;
			return 0;
		}
		if (errno != ERANGE)	/* ERANGE: one was added meanwhile */
			break;
	}
	return chstk__syserror(err, "cannot list extended attributes");
}

static int
has_name(const char *names, size_t len, const char *name)
{
	const char *p;

	for (p = names; p < names + len; p += strlen(p) + 1)
		if (strcmp(p, name) == 0)
			return 1;
	return 0;
}

static int
copy_xattr(struct target *t, const char *name, struct chstk_error *err)
{
	ssize_t len = fgetxattr(t->fd, name, NULL, 0);
	void *value = len >= 0 ? malloc(len ? (size_t)len : 1) : NULL;
	int r = 0;

	if (value == NULL ||
	    (len = fgetxattr(t->fd, name, value, (size_t)len)) < 0)
		r = chstk__syserror(err, "cannot read extended attribute %s",
		    name);
	else if (fsetxattr(t->tmp, name, value, (size_t)len, 0) == -1)
		r = chstk__syserror(err, "cannot copy extended attribute %s",
		    name);
	free(value);
	return r;
}

/* The temporary file gets the original's attributes and only those: it
   may have inherited a default ACL the original does not have. */
static int
copy_xattrs(struct target *t, struct chstk_error *err)
{
	char *names, *tnames = NULL, *p;
	size_t len, tlen = 0;
	int r;

	r = list_xattrs(t->fd, &names, &len, err);
	for (p = names; r == 0 && p < names + len; p += strlen(p) + 1)
		r = copy_xattr(t, p, err);
	if (r == 0)
		r = list_xattrs(t->tmp, &tnames, &tlen, err);
	for (p = tnames; r == 0 && p < tnames + tlen; p += strlen(p) + 1)
		if (!has_name(names, len, p) && fremovexattr(t->tmp, p) == -1)
			r = chstk__syserror(err,
			    "cannot drop extended attribute %s", p);
	free(names);
	free(tnames);
	return r;
}

/* chown before chmod: chown clears set-user-ID bits and capabilities. */
static int
keep_metadata(struct target *t, struct chstk_error *err)
{
	struct stat tst;

	if (fstat(t->tmp, &tst) == -1)
		return chstk__syserror(err, "cannot stat temporary file");
	if ((tst.st_uid != t->st.st_uid || tst.st_gid != t->st.st_gid) &&
	    fchown(t->tmp, t->st.st_uid, t->st.st_gid) == -1)
		return chstk__syserror(err, "cannot keep owner and group");
	if (fchmod(t->tmp, t->st.st_mode & 07777) == -1)
		return chstk__syserror(err, "cannot keep mode");
	return copy_xattrs(t, err);
}

/* Refuse to overwrite a file that someone else replaced or changed. */
static int
unchanged(const struct target *t, struct chstk_error *err)
{
	struct stat now, fd_now;

	if (fstatat(t->dirfd, t->base, &now, AT_SYMLINK_NOFOLLOW) == -1)
		return errno == ENOENT ? chstk__error(err, CHSTK_ERR_CHANGED,
		    "the file was removed while it was being rewritten") :
		    chstk__syserror(err, "cannot stat the file again");
	if (fstat(t->fd, &fd_now) == -1)
		return chstk__syserror(err, "cannot stat the file again");
	if (now.st_dev != t->st.st_dev || now.st_ino != t->st.st_ino ||
	    fd_now.st_size != t->st.st_size ||
	    fd_now.st_mtim.tv_sec != t->st.st_mtim.tv_sec ||
	    fd_now.st_mtim.tv_nsec != t->st.st_mtim.tv_nsec)
		return chstk__error(err, CHSTK_ERR_CHANGED,
		    "the file changed while it was being rewritten");
	return 0;
}

/* Give an O_TMPFILE a name, then rename it over the original. */
static int
install(struct target *t, struct chstk_error *err)
{
	char proc[64];
	unsigned i;

	for (i = 0; t->tmpname[0] == '\0' && i < 100; i++) {
		temp_name(t);
		if (linkat(t->tmp, "", t->dirfd, t->tmpname, AT_EMPTY_PATH) ==
		    0)
			break;
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", t->tmp);
		if (errno != EEXIST && linkat(AT_FDCWD, proc, t->dirfd,
		    t->tmpname, AT_SYMLINK_FOLLOW) == 0)
			break;
		t->tmpname[0] = '\0';
		if (errno != EEXIST)
			return chstk__syserror(err,
			    "cannot name temporary file");
	}
	if (t->tmpname[0] == '\0')
		return chstk__error(err, CHSTK_ERR_SYS,
		    "cannot name temporary file: no free name");
	if (renameat(t->dirfd, t->tmpname, t->dirfd, t->base) == -1)
		return chstk__syserror(err,
		    "cannot rename temporary file over the original");
	t->tmpname[0] = '\0';
	return 0;
}

static int
replace(struct target *t, enum chstk_op op, struct chstk_result *res,
    struct chstk_error *err)
{
	struct chstk_src src;
	int r;

	r = renamable(t, err);
	if (r == 0)
		r = chstk__src_file(&src, t->fd, err);
	if (r == 0)
		r = open_temp(t, err);
	if (r == 0) {
		memset(res, 0, sizeof(*res));
		r = chstk__rewrite(&src, t->tmp, op, res, err);
	}
	if (r == 0)
		return chstk__error(err, CHSTK_ERR_CHANGED,
		    "the file changed while it was being rewritten");
	if (r == 1)
		r = keep_metadata(t, err);
	if (r == 0 && fsync(t->tmp) == -1)
		r = chstk__syserror(err, "cannot sync temporary file");
	if (r == 0)
		r = unchanged(t, err);
	if (r == 0)
		r = install(t, err);
	if (r == 0 && t->dir_readable)
		(void)fsync(t->dirfd);	/* the rename is done either way */
	return r;
}

int
chstk_update(const char *path, enum chstk_op op, struct chstk_result *res,
    struct chstk_error *err)
{
	struct chstk_result local;
	struct target t = { .dirfd = -1, .fd = -1, .tmp = -1 };
	struct need need = { .op = op, .err = err };
	int r;

	if (res == NULL)
		res = &local;
	memset(res, 0, sizeof(*res));
	chstk__clear_error(err);
	if (!chstk__valid_op(op))
		return chstk__error(err, CHSTK_ERR_INVAL, "unknown operation");
	need.res = res;
	r = open_target(&t, path, err);
	if (r == 0) {
		res->links = (unsigned long)t.st.st_nlink;
		r = chstk_scan_fd(t.fd, need_image, &need, err);
		if (r == 0 && need.r < 0)
			r = need.r;
	}
	if (r == 0 && res->changed > 0) {
		r = replace(&t, op, res, err);
		res->written = r == 0;
		res->links = (unsigned long)t.st.st_nlink;
	}
	if (t.tmpname[0] != '\0')
		unlinkat(t.dirfd, t.tmpname, 0);
	if (t.tmp != -1)
		close(t.tmp);
	if (t.fd != -1)
		close(t.fd);
	if (t.dirfd != -1)
		close(t.dirfd);
	free(t.path);
	return r;
}
