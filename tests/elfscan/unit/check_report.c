/*
 * check_report.c - what elfscan prints (src/elfscan/report.c): a message
 * erases the progress line first, so that it never lands on the end of
 * it; errors are counted and malformed files are not; each message is
 * one line, "elfscan: FILE[!MEMBER]: what failed: why".
 */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "report.h"
#include "elfgen.h"

static struct opts o;
static struct stats st;
static struct report r;
static int saved_err, capture;

static void
setup(void)
{
	memset(&o, 0, sizeof(o));
	memset(&st, 0, sizeof(st));
	memset(&r, 0, sizeof(r));
	r.o = &o;
	r.st = &st;
	pthread_mutex_init(&r.lock, NULL);
	pthread_mutex_init(&r.err_lock, NULL);
	fflush(stderr);
	saved_err = dup(STDERR_FILENO);
	capture = memfd_create("stderr", 0);
	ck_assert_int_ne(capture, -1);
	dup2(capture, STDERR_FILENO);
}

static void
teardown(void)
{
	fflush(stderr);
	dup2(saved_err, STDERR_FILENO);
	close(saved_err);
	close(capture);
	pthread_mutex_destroy(&r.lock);
	pthread_mutex_destroy(&r.err_lock);
}

/* What went to the standard error so far. */
static const char *
captured(void)
{
	static char buf[4096];
	ssize_t n;

	fflush(stderr);
	n = pread(capture, buf, sizeof(buf) - 1, 0);
	ck_assert_int_ge(n, 0);
	buf[n] = '\0';
	return buf;
}

START_TEST(a_message_erases_the_progress_line)
{
	r.line = true;
	report_error(&r, &(struct where){ .path = "/d/f" }, UNREAD_ERROR, false, "cannot read: Permission denied");
	ck_assert_str_eq(captured(),
	    "\r\033[Kelfscan: /d/f: cannot read: Permission denied\n");
	ck_assert(!r.line);
	report_error(&r, &(struct where){ .path = "/d/g", .member = "m.o" }, UNREAD_ELF, false, "invalid ELF class 0");
	ck_assert_str_eq(captured(),
	    "\r\033[Kelfscan: /d/f: cannot read: Permission denied\n"
	    "elfscan: /d/g!m.o: malformed ELF: invalid ELF class 0\n");
}
END_TEST

START_TEST(errors_are_counted_findings_are_not)
{
	report_error(&r, &(struct where){ .path = "/d/f" }, UNREAD_ERROR, false, "cannot read: Input/output error");
	report_error(&r, &(struct where){ .path = "/d/g" }, UNREAD_ELF, false, "invalid ELF class 0");
	report_error(&r, &(struct where){ .path = "/d/h.a" }, UNREAD_ARCHIVE, false, "damaged archive: bad header");
	ck_assert_uint_eq(atomic_load(&st.c[C_ERRORS]), 1);
	ck_assert_str_eq(captured(),
	    "elfscan: /d/f: cannot read: Input/output error\n"
	    "elfscan: /d/g: malformed ELF: invalid ELF class 0\n"
	    "elfscan: /d/h.a: damaged archive: bad header\n");
}
END_TEST

/* A finding --allow waived is no message. */
START_TEST(a_waived_finding_says_nothing)
{
	report_error(&r, &(struct where){ .path = "/d/h.a" }, UNREAD_ARCHIVE, true, "damaged archive: bad header");
	report_error(&r, &(struct where){ .path = "/d/g" }, UNREAD_ELF, true, "invalid ELF class 0");
	ck_assert_str_eq(captured(), "");
	ck_assert_uint_eq(atomic_load(&st.c[C_ERRORS]), 0);
}
END_TEST

START_TEST(a_name_stays_on_one_line)
{
	report_error(&r, &(struct where){ .path = "/d/a\nb" }, UNREAD_ERROR, false, "cannot open: No such file");
	ck_assert_str_eq(captured(),
	    "elfscan: /d/a\\nb: cannot open: No such file\n");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("messages");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, a_message_erases_the_progress_line);
	tcase_add_test(tc, errors_are_counted_findings_are_not);
	tcase_add_test(tc, a_waived_finding_says_nothing);
	tcase_add_test(tc, a_name_stays_on_one_line);
	suite_add_tcase(s, tc);
	return gen_run(s);
}
