/*
 * rootfs.c - a root's files as a process of that root sees them (see
 * system.h): every path is resolved inside the root with openat2's
 * RESOLVE_IN_ROOT, so an absolute symbolic link or a ".." never leaves it,
 * as chroot(2) would have it. What the system verdicts read of a root
 * (its dynamic linker, ld.so.cache, unit files, libraries the walk did
 * not meet) is read through here.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "system.h"
#include "xalloc.h"

int
rootfs_open(struct rootfs *fs, const char *dir)
{
	memset(fs, 0, sizeof(*fs));
	fs->fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fs->fd == -1)
		return -1;
	fs->dir = xstrdup(dir);
	fs->len = strlen(dir);
	while (fs->len > 0 && fs->dir[fs->len - 1] == '/')
		fs->dir[--fs->len] = '\0';
	return 0;
}

void
rootfs_close(struct rootfs *fs)
{
	if (fs->dir == NULL)
		return;
	close(fs->fd);
	free(fs->dir);
	fs->dir = NULL;
}

const char *
rootfs_inside(const struct rootfs *fs, const char *path)
{
	if (strncmp(path, fs->dir, fs->len) != 0)
		return NULL;
	path += fs->len;
	if (*path == '\0')
		return "/";
	return *path == '/' ? path : NULL;
}

int
rootfs_openat(const struct rootfs *fs, const char *path, int flags)
{
	/* openat2 refuses O_PATH with any flag but these. */
	struct open_how how = {
		.flags = (unsigned)flags | O_CLOEXEC |
		    (flags & O_PATH ? 0 : O_NOCTTY),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	while (*path == '/')
		path++;
	fd = syscall(SYS_openat2, fs->fd, *path != '\0' ? path : ".", &how,
	    sizeof(how));
	return (int)fd;
}

char *
rootfs_read(const struct rootfs *fs, const char *path, size_t max,
    size_t *len)
{
	char *buf;
	int fd, saved;

	fd = rootfs_openat(fs, path, O_RDONLY | O_NONBLOCK);
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

int
rootfs_where(const struct rootfs *fs, int fd, char *out, size_t len)
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
	if (strlen(in) >= len)
		return -1;
	strcpy(out, in);
	return 0;
}
