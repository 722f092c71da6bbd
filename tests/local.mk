# The test suite: Check unit tests for the library's modules, and shell
# tests that build real fixtures and check chstk's work with independent
# tools (readelf, eu-elflint, the running kernel).
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; \
	top_builddir='$(abs_top_builddir)'; \
	CHSTK='$(abs_top_builddir)/src/chstk/chstk'; \
	ELFSCAN='$(abs_top_builddir)/src/elfscan/elfscan'; \
	export top_srcdir top_builddir CHSTK ELFSCAN;

elfscan_shell_tests = \
	tests/elfscan/tree.sh \
	tests/elfscan/options.sh \
	tests/elfscan/system.sh \
	tests/elfscan/containers.sh \
	tests/elfscan/hostile.sh \
	tests/elfscan/hardening.sh
TESTS += $(elfscan_shell_tests)
EXTRA_DIST += $(elfscan_shell_tests) tests/elfscan/check_json.py \
	tests/elfscan/check_hardening.py tests/fixtures/hardening.c

TESTS += tests/man.sh tests/repo.sh tests/lib-layers.sh
EXTRA_DIST += tests/man.sh tests/repo.sh tests/lib-layers.sh

chstk_shell_tests = \
	tests/chstk/programs.sh \
	tests/chstk/trampoline.sh \
	tests/chstk/shared.sh \
	tests/chstk/objects.sh \
	tests/chstk/metadata.sh \
	tests/chstk/errors.sh \
	tests/chstk/cli.sh \
	tests/chstk/cross.sh
TESTS += $(chstk_shell_tests)
EXTRA_DIST += $(chstk_shell_tests) tests/lib.sh \
	tests/fixtures/hello.c tests/fixtures/trampoline.c \
	tests/fixtures/lib.c tests/fixtures/dlopen.c tests/fixtures/stack_perms.h \
	tests/fixtures/tiny64.asm tests/fixtures/tiny32.asm \
	tests/fixtures/cross/ppc.s tests/fixtures/cross/s390x.s \
	tests/fixtures/cross/aarch64.s tests/fixtures/cross/mips.s \
	tests/fixtures/cross/noheaders.ld tests/fixtures/cross/noheaders-gap.ld

# Check unit tests, one program per library module; they reach the
# library's internals through the convenience library.
unit_tests = \
	tests/unit/check_image \
	tests/unit/check_rewrite \
	tests/unit/check_archive \
	tests/unit/check_update \
	tests/unit/check_verdict
check_PROGRAMS += $(unit_tests)
TESTS += $(unit_tests)
unit_cflags = $(AM_CFLAGS) $(CHECK_CFLAGS)
unit_ldadd = tests/unit/libelfgen.a lib/libchstk-core.la $(CHECK_LIBS) \
	$(LIBELF_LIBS)
check_LIBRARIES = tests/unit/libelfgen.a
tests_unit_libelfgen_a_SOURCES = tests/unit/elfgen.c tests/unit/elfgen.h \
	tests/unit/run.c
tests_unit_libelfgen_a_CFLAGS = $(unit_cflags)
tests_unit_check_image_CFLAGS = $(unit_cflags)
tests_unit_check_image_LDADD = $(unit_ldadd)
tests_unit_check_rewrite_CFLAGS = $(unit_cflags)
tests_unit_check_rewrite_LDADD = $(unit_ldadd)
tests_unit_check_archive_CFLAGS = $(unit_cflags)
tests_unit_check_archive_LDADD = $(unit_ldadd)
tests_unit_check_update_CFLAGS = $(unit_cflags)
tests_unit_check_update_LDADD = $(unit_ldadd)
tests_unit_check_verdict_SOURCES = tests/unit/check_verdict.c \
	src/elfscan/verdict.c
tests_unit_check_verdict_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/elfscan
tests_unit_check_verdict_CFLAGS = $(unit_cflags)
tests_unit_check_verdict_LDADD = $(unit_ldadd)
