/*
 * failshim.c - an LD_PRELOAD library that makes one step of chstk's write
 * path fail, or runs a command at that step, so that the tests can check
 * what each failure leaves behind. It acts only on calls that concern the
 * temporary file (the descriptor an O_TMPFILE or ".NAME.chstk-XXXXXX" open
 * returned, or a name containing ".chstk-"), never on anything else the
 * process does. Set in the environment:
 *
 *   FAILSHIM_CALL   the call: openat, pwrite, copy_file_range, fsync,
 *                   fchown, fchmod, fsetxattr, linkat, renameat, ftruncate
 *   FAILSHIM_NTH    which matching call acts (1, the first, by default)
 *   FAILSHIM_COUNT  how many matching calls in a row fail (1; 0: all)
 *   FAILSHIM_ERRNO  the error: EIO (the default), ENOSPC, EDQUOT, EPERM,
 *                   EROFS, ENOSYS, EXDEV, EOPNOTSUPP, EFBIG
 *   FAILSHIM_RUN    instead of failing, run this shell command just before
 *                   the call, then make it
 *   FAILSHIM_NO_TMPFILE  if set, O_TMPFILE opens fail with EOPNOTSUPP, as
 *                   on a file system without them
 *   FAILSHIM_NO_COPY_FILE_RANGE  if set, copy_file_range() fails with
 *                   ENOSYS, as on an old kernel: copies go through pwrite
 *   FAILSHIM_LOG    a file that gets a line as the temporary file is
 *                   created ("create") and renamed into place ("rename")
 *   FAILSHIM_HOLD   a file name: an openat of a path whose last component
 *                   it is waits, before it opens, until the file
 *                   FAILSHIM_HOLD_UNTIL exists; FAILSHIM_HOLD_UNTIL.held
 *                   is made as the wait begins. This one acts on any file,
 *                   so that a test can hold a program (elfscan) at a point
 *                   of its own choosing for as long as it needs.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <unistd.h>

static int temp_fd = -1;
static unsigned long calls;

static void *
real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (f == NULL) {
		fprintf(stderr, "failshim: no %s\n", name);
		abort();
	}
	return f;
}

static unsigned long
env_num(const char *name, unsigned long def)
{
	const char *v = getenv(name);

	return v != NULL && *v != '\0' ? strtoul(v, NULL, 10) : def;
}

static int
env_errno(void)
{
	static const struct { const char *name; int e; } names[] = {
		{ "EIO", EIO }, { "ENOSPC", ENOSPC }, { "EDQUOT", EDQUOT },
		{ "EPERM", EPERM }, { "EROFS", EROFS }, { "ENOSYS", ENOSYS },
		{ "EXDEV", EXDEV }, { "EOPNOTSUPP", EOPNOTSUPP },
		{ "EFBIG", EFBIG },
	};
	const char *v = getenv("FAILSHIM_ERRNO");
	size_t i;

	for (i = 0; v != NULL && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(v, names[i].name) == 0)
			return names[i].e;
	return EIO;
}

static void
log_step(const char *step)
{
	const char *path = getenv("FAILSHIM_LOG");
	char line[32];
	int fd, n;

	if (path == NULL)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd == -1)
		return;
	n = snprintf(line, sizeof(line), "%s\n", step);
	if (write(fd, line, (size_t)n) != n)
		abort();
	close(fd);
}

/*
 * A call of the named kind on the temporary file is about to be made:
 * returns -1 with errno set when it must fail, 0 when it goes ahead (after
 * running FAILSHIM_RUN, when this is the call for it).
 */
static int
step(const char *name)
{
	const char *want = getenv("FAILSHIM_CALL");
	const char *cmd = getenv("FAILSHIM_RUN");
	unsigned long nth = env_num("FAILSHIM_NTH", 1);
	unsigned long count = env_num("FAILSHIM_COUNT", 1);

	if (want == NULL || strcmp(want, name) != 0)
		return 0;
	calls++;
	if (calls < nth || (count != 0 && calls >= nth + count))
		return 0;
	if (cmd != NULL) {
		if (calls == nth) {
			unsetenv("LD_PRELOAD");
			if (system(cmd) != 0)
				fprintf(stderr, "failshim: %s: failed\n", cmd);
		}
		return 0;
	}
	errno = env_errno();
	return -1;
}

static int
is_temp_name(const char *path)
{
	return path != NULL && strstr(path, ".chstk-") != NULL;
}

static void
hold(const char *path, int (*open_next)(int, const char *, int, ...))
{
	const char *name = getenv("FAILSHIM_HOLD");
	const char *until = getenv("FAILSHIM_HOLD_UNTIL");
	const char *base;
	char held[4096];
	int fd;

	if (name == NULL || until == NULL || path == NULL)
		return;
	base = strrchr(path, '/');
	base = base != NULL ? base + 1 : path;
	if (strcmp(base, name) != 0)
		return;
	snprintf(held, sizeof(held), "%s.held", until);
	fd = open_next(AT_FDCWD, held, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd != -1)
		close(fd);
	while (access(until, F_OK) != 0)
		usleep(100000);
}

int
openat(int dirfd, const char *path, int flags, ...)
{
	static int (*next)(int, const char *, int, ...);
	mode_t mode = 0;
	int creating, fd;
	va_list ap;

	if (next == NULL)
		next = real("openat");
	if (flags & O_CREAT || (flags & O_TMPFILE) == O_TMPFILE) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	creating = (flags & O_TMPFILE) == O_TMPFILE ||
	    (flags & O_CREAT && is_temp_name(path));
	if ((flags & O_TMPFILE) == O_TMPFILE &&
	    getenv("FAILSHIM_NO_TMPFILE") != NULL) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (creating && step("openat") == -1)
		return -1;
	hold(path, next);
	fd = next(dirfd, path, flags, mode);
	if (creating && fd != -1) {
		temp_fd = fd;
		log_step("create");
	}
	return fd;
}

int
close(int fd)
{
	static int (*next)(int);

	if (next == NULL)
		next = real("close");
	if (fd == temp_fd && fd != -1)
		temp_fd = -1;
	return next(fd);
}

static ssize_t
do_pwrite(const char *name, int fd, const void *buf, size_t len, off_t off)
{
	static ssize_t (*next)(int, const void *, size_t, off_t);

	if (next == NULL)
		next = real(name);
	if (fd == temp_fd && step("pwrite") == -1)
		return -1;
	return next(fd, buf, len, off);
}

ssize_t
pwrite(int fd, const void *buf, size_t len, off_t off)
{
	return do_pwrite("pwrite", fd, buf, len, off);
}

ssize_t
pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	return do_pwrite("pwrite64", fd, buf, len, off);
}

ssize_t
copy_file_range(int in, loff_t *in_off, int out, loff_t *out_off,
    size_t len, unsigned flags)
{
	static ssize_t (*next)(int, loff_t *, int, loff_t *, size_t, unsigned);

	if (next == NULL)
		next = real("copy_file_range");
	if (getenv("FAILSHIM_NO_COPY_FILE_RANGE") != NULL) {
		errno = ENOSYS;
		return -1;
	}
	if (out == temp_fd && step("copy_file_range") == -1)
		return -1;
	return next(in, in_off, out, out_off, len, flags);
}

int
ftruncate(int fd, off_t len)
{
	static int (*next)(int, off_t);

	if (next == NULL)
		next = real("ftruncate");
	if (fd == temp_fd && step("ftruncate") == -1)
		return -1;
	return next(fd, len);
}

int
fsync(int fd)
{
	static int (*next)(int);

	if (next == NULL)
		next = real("fsync");
	if (fd == temp_fd && step("fsync") == -1)
		return -1;
	return next(fd);
}

int
fchown(int fd, uid_t uid, gid_t gid)
{
	static int (*next)(int, uid_t, gid_t);

	if (next == NULL)
		next = real("fchown");
	if (fd == temp_fd && step("fchown") == -1)
		return -1;
	return next(fd, uid, gid);
}

int
fchmod(int fd, mode_t mode)
{
	static int (*next)(int, mode_t);

	if (next == NULL)
		next = real("fchmod");
	if (fd == temp_fd && step("fchmod") == -1)
		return -1;
	return next(fd, mode);
}

int
fsetxattr(int fd, const char *name, const void *value, size_t size,
    int flags)
{
	static int (*next)(int, const char *, const void *, size_t, int);

	if (next == NULL)
		next = real("fsetxattr");
	if (fd == temp_fd && step("fsetxattr") == -1)
		return -1;
	return next(fd, name, value, size, flags);
}

int
linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
    int flags)
{
	static int (*next)(int, const char *, int, const char *, int);

	if (next == NULL)
		next = real("linkat");
	if (is_temp_name(newpath) && step("linkat") == -1)
		return -1;
	return next(olddirfd, oldpath, newdirfd, newpath, flags);
}

int
renameat(int olddirfd, const char *oldpath, int newdirfd,
    const char *newpath)
{
	static int (*next)(int, const char *, int, const char *);
	int r;

	if (next == NULL)
		next = real("renameat");
	if (is_temp_name(oldpath) && step("renameat") == -1)
		return -1;
	r = next(olddirfd, oldpath, newdirfd, newpath);
	if (r == 0 && is_temp_name(oldpath))
		log_step("rename");
	return r;
}
