# The test suite: Check unit tests for the library's modules and elfscan's
# stages, and shell tests that build real fixtures and check the tools'
# work with independent tools (readelf, eu-elflint, objdump, qemu-user,
# checksec, the SARIF validator; the kernel's own checks are kernel/'s).
# Every test is registered here and nowhere else, and every shell test
# uses tests/lib.sh; the rules that build what the tests need stay with the
# code they concern. The Python checkers import tests/elfscan/elfview.py from the source tree,
# which must stay as it is (read-only under distcheck): no bytecode there.
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; \
	top_builddir='$(abs_top_builddir)'; \
	CHSTK='$(abs_top_builddir)/src/chstk/chstk'; \
	PYTHONDONTWRITEBYTECODE=1; \
	ELFSCAN='$(abs_top_builddir)/src/elfscan/elfscan'; \
	export top_srcdir top_builddir CHSTK ELFSCAN PYTHONDONTWRITEBYTECODE;

# chstk on programs, objects and archives it builds.
chstk_shell_tests = \
	tests/chstk/programs.sh \
	tests/chstk/trampoline.sh \
	tests/chstk/shared.sh \
	tests/chstk/objects.sh \
	tests/chstk/metadata.sh \
	tests/chstk/errors.sh \
	tests/chstk/attributes.sh \
	tests/chstk/cli.sh \
	tests/chstk/cross.sh

# elfscan on trees and containers it builds, and on the machine's programs
# judged against readelf; --hardening judged against checksec,
# hardening-check and readelf; its words (usage errors, notes, counts) and
# its lists (--files-from, duplicates); --proc on processes it starts,
# judged against their own /proc/PID/maps and readelf; apt repositories
# from a directory and by URL from a local server (repo-server.py).
elfscan_shell_tests = \
	tests/elfscan/tree.sh \
	tests/elfscan/mounts.sh \
	tests/elfscan/options.sh \
	tests/elfscan/allow.sh \
	tests/elfscan/words.sh \
	tests/elfscan/lists.sh \
	tests/elfscan/system.sh \
	tests/elfscan/unresolved.sh \
	tests/elfscan/containers.sh \
	tests/elfscan/hostile.sh \
	tests/elfscan/progress.sh \
	tests/elfscan/sarif.sh \
	tests/elfscan/images.sh \
	tests/elfscan/repo-apt.sh \
	tests/elfscan/repo-keyring.sh \
	tests/elfscan/store.sh \
	tests/elfscan/store-pg.sh \
	tests/elfscan/repo-rpm.sh \
	tests/elfscan/repo-url.sh \
	tests/elfscan/lazy.sh \
	tests/elfscan/reads.sh \
	tests/elfscan/reader.sh \
	tests/elfscan/hardening.sh \
	tests/elfscan/profiles.sh \
	tests/elfscan/annotests.sh \
	tests/elfscan/hardening-names.sh \
	tests/elfscan/evidence.sh \
	tests/elfscan/fortify-level.sh \
	tests/elfscan/proc.sh \
	tests/elfscan/precision.sh \
	tests/elfscan/layers.sh \
	tests/elfscan/diff.sh \
	tests/elfscan/schema.sh \
	tests/elfscan/schema-man.sh

# The ASCII-armor linker script (ld/): real programs built at make check
# time, judged by readelf, eu-elflint and the running kernel.
armor_tests = \
	tests/armor/c-program.sh \
	tests/armor/cxx-program.sh \
	tests/armor/static.sh \
	tests/armor/limits.sh \
	tests/armor/pie.sh \
	tests/armor/lld.sh \
	tests/armor/gold.sh

# The package hooks (packaging/): real packages built by rpmbuild and
# dpkg-buildpackage with the built tools, and files they cannot read.
packaging_tests = \
	tests/packaging/rpm.sh \
	tests/packaging/dpkg.sh \
	tests/packaging/unreadable.sh

# Reliability (doc/reliability.md): the fuzz targets replayed over the seeds
# and past crashes, every step of the write path made to fail, full and
# read-only file systems, SIGKILL during a rewrite, two chstk at once on one
# file, hostile trees for elfscan, and the tools under valgrind.
reliability_tests = \
	tests/reliability/fuzz-replay.sh \
	tests/reliability/faults.sh \
	tests/reliability/readfaults.sh \
	tests/reliability/filesystems.sh \
	tests/reliability/kill.sh \
	tests/reliability/concurrent.sh \
	tests/reliability/hostile-trees.sh \
	tests/reliability/valgrind.sh

# The oracles of the system verdicts (tests/system/): real glibc in
# debootstrap'd Debian roots (cached), running hosts and plugins built here
# under each glibc.rtld.execstack value; and the MDWE oracle, which boots
# Linux 6.12 (kernel/mdwe.sh) and runs its fixtures with and without
# PR_SET_MDWE (the first run builds that kernel, later ones take it from
# the kernel cache); with both, and systemd's own parser, the verdicts of
# MemoryDenyWriteExecute= per service. Container images built from those
# roots are judged as roots, against their unpacked trees and the same glibc.
system_tests = tests/system/glibc-roots.sh tests/system/mdwe-setup.sh \
	tests/system/jdk.sh \
	tests/system/apps.sh \
	tests/system/suite-verdicts.sh tests/system/suite-mdwe.sh \
	tests/system/causes.sh \
	tests/system/closures.sh tests/system/units.sh \
	tests/system/image-roots.sh tests/system/plugins.sh

# The house rules as tests: the manual pages render, no build product is
# in git, the library's layers point one way, and no message is split
# across lines of source.
other_shell_tests = tests/man.sh tests/repo.sh tests/lib-layers.sh \
	tests/messages.sh

shell_tests = $(chstk_shell_tests) $(elfscan_shell_tests) $(armor_tests) \
	$(packaging_tests) $(reliability_tests) $(system_tests) \
	$(other_shell_tests)
TESTS += $(shell_tests)
if FUZZING
# A short bounded run of each libFuzzer target (FUZZ_CHECK_SECONDS each).
TESTS += tests/reliability/fuzz-short.sh
endif
EXTRA_DIST += $(shell_tests) tests/reliability/fuzz-short.sh tests/lib.sh \
	tests/elfscan/check_json.py tests/elfscan/check_hardening.py \
	tests/elfscan/check_schema.py tests/elfscan/check_schema_man.py \
	tests/elfscan/check_names.py tests/elfscan/elfview.py \
	tests/elfscan/apt-repo.sh tests/elfscan/repo-server.py \
	tests/elfscan/store-repo.sh \
	tests/elfscan/check_evidence.py tests/fixtures/evidence/frames.c \
	tests/elfscan/check_fortify.py tests/fixtures/fortify/main.c \
	tests/fixtures/fortify/other.c tests/fixtures/fortify/undef.c \
	tests/fixtures/fortify/header.c tests/fixtures/fortify/level1.h \
	tests/fixtures/evidence/tramplib.c \
	tests/fixtures/evidence/annobin-notes.s \
	tests/fixtures/evidence/annobin-strings.s \
	tests/elfscan/check_annotests.py tests/fixtures/hardening.c \
	tests/fixtures/annocheck/exports.c tests/fixtures/annocheck/noendbr.S \
	tests/fixtures/annocheck/start.c tests/fixtures/annocheck/textrel.c \
	tests/fixtures/annocheck/dynamic2.S tests/fixtures/annocheck/twodyn.ld \
	tests/fixtures/annocheck/segments.ld tests/fixtures/annocheck/tls.c \
	tests/fixtures/annocheck/names.c tests/fixtures/annocheck/hello.go \
	tests/fixtures/annocheck/hello.rs \
	tests/armor/common.sh tests/armor/fixture.c tests/armor/fixture-cxx.cc \
	tests/armor/selfmaps.c tests/armor/selfmaps.h \
	tests/packaging/common.sh tests/packaging/hello-spec.sh \
	tests/packaging/installed.sh tests/packaging/packages.sh \
	tests/packaging/bootstrap.sh \
	tests/fixtures/hello.c tests/fixtures/trampoline.c \
	tests/fixtures/lib.c tests/fixtures/dlopen.c tests/fixtures/stack_perms.h \
	tests/fixtures/procprog.c tests/fixtures/deny.c \
	tests/system/roots.sh tests/fixtures/system/asm-answer.S \
	tests/fixtures/system/pymod.c tests/fixtures/system/pam_stacktest.c \
	tests/fixtures/system/pamhost.c tests/fixtures/system/nss_stacktest.c \
	tests/fixtures/system/nsshost.c tests/fixtures/system/dlnote.c \
	tests/fixtures/system/dlnotehost.c tests/fixtures/system/gconv_stacktest.c \
	tests/fixtures/system/iconvhost.c tests/fixtures/system/nodeaddon.c \
	tests/fixtures/tiny64.asm tests/fixtures/tiny32.asm \
	tests/system/mdwe.sh tests/fixtures/system/mdwe-prog.c \
	tests/fixtures/system/mdwe-lib.c tests/fixtures/system/mdwe-xstack.S \
	tests/fixtures/system/mdwe-textrel.S tests/fixtures/system/mdwe-wx.S \
	tests/fixtures/system/mdwe-seccomp.c \
	tests/fixtures/cross/ppc.s tests/fixtures/cross/s390x.s \
	tests/fixtures/cross/aarch64.s tests/fixtures/cross/mips.s \
	tests/fixtures/cross/noheaders.ld tests/fixtures/cross/noheaders-gap.ld

# Check unit tests, one program per library module, which reach the
# library's internals through the convenience library, and one per stage of
# elfscan.
unit_tests = \
	tests/unit/check_image \
	tests/unit/check_rewrite \
	tests/unit/check_archive \
	tests/unit/check_update \
	tests/unit/check_stream \
	tests/unit/check_source \
	tests/elfscan/unit/check_verdict \
	tests/elfscan/unit/check_report \
	tests/elfscan/unit/check_sha256 \
	tests/elfscan/unit/check_repo_rpm
unit_cflags = $(AM_CFLAGS) $(CHECK_CFLAGS)
unit_ldadd = tests/unit/libelfgen.a lib/libchstk-core.la $(CHECK_LIBS) \
	$(LIBDW_LIBS) $(LIBELF_LIBS)
check_LIBRARIES = tests/unit/libelfgen.a
tests_unit_libelfgen_a_SOURCES = tests/unit/elfgen.c tests/unit/elfgen.h
if HAVE_CHECK
check_PROGRAMS += $(unit_tests)
TESTS += $(unit_tests)
tests_unit_libelfgen_a_SOURCES += tests/unit/run.c
else
# configure found no Check (./bootstrap run does not install it): make
# check stops at once and says so, rather than at a compile error.
check-am: no-check-library
endif
no-check-library:
	@echo "make check: the unit tests need the Check library: install it with ./bootstrap check, then rerun configure" >&2; exit 1
.PHONY: no-check-library
tests_unit_libelfgen_a_CFLAGS = $(unit_cflags)
tests_unit_check_image_CFLAGS = $(unit_cflags)
tests_unit_check_image_LDADD = $(unit_ldadd)
tests_unit_check_rewrite_CFLAGS = $(unit_cflags)
tests_unit_check_rewrite_LDADD = $(unit_ldadd)
tests_unit_check_archive_CFLAGS = $(unit_cflags)
tests_unit_check_archive_LDADD = $(unit_ldadd)
tests_unit_check_update_CFLAGS = $(unit_cflags)
tests_unit_check_update_LDADD = $(unit_ldadd)
tests_unit_check_stream_CFLAGS = $(unit_cflags)
tests_unit_check_stream_LDADD = $(unit_ldadd)
tests_unit_check_source_CFLAGS = $(unit_cflags)
tests_unit_check_source_LDADD = $(unit_ldadd)
# elfscan's, one a stage, linking its library.
elfscan_unit_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/src/elfscan \
	-I$(top_srcdir)/tests/unit
elfscan_unit_ldadd = tests/unit/libelfgen.a $(elfscan_libs) $(CHECK_LIBS)
tests_elfscan_unit_check_verdict_CPPFLAGS = $(elfscan_unit_cppflags)
tests_elfscan_unit_check_verdict_CFLAGS = $(unit_cflags)
tests_elfscan_unit_check_verdict_LDADD = $(elfscan_unit_ldadd)
tests_elfscan_unit_check_report_CPPFLAGS = $(elfscan_unit_cppflags)
tests_elfscan_unit_check_report_CFLAGS = $(unit_cflags)
tests_elfscan_unit_check_report_LDADD = $(elfscan_unit_ldadd)
# Programs, not libtool's wrapper scripts (they link the shared library):
# make check-hosts runs them under qemu-user, which runs no script.
tests_elfscan_unit_check_verdict_LDFLAGS = $(AM_LDFLAGS) -no-install
tests_elfscan_unit_check_report_LDFLAGS = $(AM_LDFLAGS) -no-install
tests_elfscan_unit_check_sha256_CPPFLAGS = $(elfscan_unit_cppflags)
tests_elfscan_unit_check_sha256_CFLAGS = $(unit_cflags)
tests_elfscan_unit_check_sha256_LDADD = $(elfscan_unit_ldadd)
tests_elfscan_unit_check_sha256_LDFLAGS = $(AM_LDFLAGS) -no-install
tests_elfscan_unit_check_repo_rpm_CPPFLAGS = $(elfscan_unit_cppflags)
tests_elfscan_unit_check_repo_rpm_CFLAGS = $(unit_cflags)
tests_elfscan_unit_check_repo_rpm_LDADD = $(elfscan_unit_ldadd)
tests_elfscan_unit_check_repo_rpm_LDFLAGS = $(AM_LDFLAGS) -no-install
