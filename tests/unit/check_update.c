/*
 * check_update.c - chstk_update() on real files in a scratch directory:
 * untouched when nothing changes, mode and link kept when something does,
 * and on every error the file as it was with no temporary file beside it.
 */
#include <check.h>
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chstk.h"
#include "elfgen.h"

static char dir[] = "/tmp/check_update.XXXXXX";
static char path[64];
static unsigned char image[0x400];

static const struct gen g = { 64, 0, ET_EXEC, EM_X86_64 };

static void
setup(void)
{
	struct gen_phdr ph[2] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0x10000, 0x400, 0x400, 0x1000 },
		{ PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 16 },
	};
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/prog", dir);
	gen_program(&g, image, sizeof(image), ph, 2);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0751);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, image, sizeof(image)), sizeof(image));
	close(fd);
}

static void
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* How many entries the scratch directory holds. */
static int
entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.' || (strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0);
	closedir(d);
	return n;
}

static int
same_file(void)
{
	unsigned char buf[sizeof(image) + 1];
	int fd = open(path, O_RDONLY);
	ssize_t n = read(fd, buf, sizeof(buf));

	close(fd);
	return n == (ssize_t)sizeof(image) && memcmp(buf, image, n) == 0;
}

START_TEST(leaves_a_file_already_as_asked_untouched)
{
	struct chstk_result res;
	struct chstk_error err;
	struct stat before, after;

	stat(path, &before);
	ck_assert_int_eq(chstk_update(path, CHSTK_OP_SET_NOEXEC, &res, &err),
	    0);
	ck_assert(!res.written);
	ck_assert_uint_eq(res.images, 1);
	ck_assert_uint_eq(res.changed, 0);
	stat(path, &after);
	ck_assert_uint_eq(before.st_ino, after.st_ino);
	ck_assert_int_eq(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
	ck_assert(same_file());
}
END_TEST

START_TEST(replaces_a_changed_file_keeping_its_mode)
{
	struct chstk_result res;
	struct chstk_error err;
	struct stat before, after;
	struct gen_phdr ph[2];
	unsigned char buf[sizeof(image)];
	uint64_t phoff;
	int fd;

	stat(path, &before);
	ck_assert_int_eq(chstk_update(path, CHSTK_OP_SET_EXEC, &res, &err), 0);
	ck_assert(res.written);
	ck_assert_uint_eq(res.changed, 1);
	ck_assert_uint_eq(res.links, 1);
	stat(path, &after);
	ck_assert_uint_ne(before.st_ino, after.st_ino);
	ck_assert_uint_eq(after.st_mode & 07777, 0751);
	fd = open(path, O_RDONLY);
	ck_assert_int_eq(read(fd, buf, sizeof(buf)), sizeof(buf));
	close(fd);
	gen_read_phdrs(&g, buf, sizeof(buf), ph, 2, &phoff);
	ck_assert_uint_eq(ph[1].flags, PF_R | PF_W | PF_X);
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(follows_a_symbolic_link_and_keeps_it)
{
	char link[80];
	struct stat st;

	snprintf(link, sizeof(link), "%s/link", dir);
	ck_assert_int_eq(symlink("prog", link), 0);
	ck_assert_int_eq(chstk_update(link, CHSTK_OP_SET_EXEC, NULL, NULL), 0);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert(!same_file());
	ck_assert_int_eq(entries(), 2);
}
END_TEST

START_TEST(refuses_what_is_not_a_regular_file)
{
	struct chstk_error err;
	char fifo[80];

	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(chstk_update(fifo, CHSTK_OP_SET_EXEC, NULL, &err),
	    CHSTK_ERR_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "not a regular file");
	ck_assert_int_eq(chstk_update(dir, CHSTK_OP_SET_EXEC, NULL, &err),
	    CHSTK_ERR_UNSUPPORTED);
	ck_assert_int_eq(chstk_update("/nonexistent/x", CHSTK_OP_SET_EXEC, NULL,
	    &err), CHSTK_ERR_SYS);
	ck_assert_str_eq(err.msg,
	    "cannot open: No such file or directory");
}
END_TEST

START_TEST(fails_cleanly_on_a_file_it_cannot_change)
{
	struct chstk_error err;
	int fd;

	/* Made into a core file: readable, but not to be marked. */
	image[16] = ET_CORE;
	fd = open(path, O_WRONLY);
	ck_assert_int_eq(pwrite(fd, image + 16, 1, 16), 1);
	close(fd);
	ck_assert_int_eq(chstk_update(path, CHSTK_OP_SET_EXEC, NULL, &err),
	    CHSTK_ERR_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "cannot mark a core file");
	ck_assert(same_file());
	ck_assert_int_eq(entries(), 1);
	image[16] = ET_EXEC;
}
END_TEST

START_TEST(refuses_an_unknown_operation_before_reading)
{
	struct chstk_error err;

	ck_assert_int_eq(chstk_update(path, (enum chstk_op)-1, NULL, &err),
	    CHSTK_ERR_INVAL);
	ck_assert(same_file());
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("update");
	TCase *tc = tcase_create("update");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, leaves_a_file_already_as_asked_untouched);
	tcase_add_test(tc, replaces_a_changed_file_keeping_its_mode);
	tcase_add_test(tc, follows_a_symbolic_link_and_keeps_it);
	tcase_add_test(tc, refuses_what_is_not_a_regular_file);
	tcase_add_test(tc, fails_cleanly_on_a_file_it_cannot_change);
	tcase_add_test(tc, refuses_an_unknown_operation_before_reading);
	suite_add_tcase(s, tc);
	return gen_run(s);
}
