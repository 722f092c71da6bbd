# What the reliability tests need (they are registered in tests/local.mk):
# the length of fuzz-short.sh's runs, failshim.so and killat.
FUZZ_CHECK_SECONDS = 30
AM_TESTS_ENVIRONMENT += \
	FUZZ_CHECK_SECONDS='$(FUZZ_CHECK_SECONDS)'; \
	export FUZZ_CHECK_SECONDS;

# failshim.so, preloaded by the tests to make one step of the write path
# fail. It is built without the sanitizers: it is preloaded into shells and
# other programs that are not.
check_LTLIBRARIES = tests/reliability/failshim.la
tests_reliability_failshim_la_SOURCES = tests/reliability/failshim.c
tests_reliability_failshim_la_CFLAGS = -std=gnu11 $(WARN_CFLAGS)
tests_reliability_failshim_la_LDFLAGS = -module -avoid-version -shared \
	-rpath '$(abs_builddir)/tests/reliability'
tests_reliability_failshim_la_LIBADD = -ldl
AM_TESTS_ENVIRONMENT += \
	FAILSHIM='$(abs_top_builddir)/tests/reliability/.libs/failshim.so'; \
	export FAILSHIM;

# readshim.so, preloaded by readfaults.sh to make the open or the read of
# one file's head go wrong in elfscan's readers, io_uring's and the C
# library's. liburing's header only: it calls the library elfscan loaded.
check_LTLIBRARIES += tests/reliability/readshim.la
tests_reliability_readshim_la_SOURCES = tests/reliability/readshim.c
tests_reliability_readshim_la_CFLAGS = -std=gnu11 $(WARN_CFLAGS) \
	$(LIBURING_CFLAGS) $(PTHREAD_CFLAGS)
tests_reliability_readshim_la_LDFLAGS = -module -avoid-version -shared \
	-rpath '$(abs_builddir)/tests/reliability'
tests_reliability_readshim_la_LIBADD = -ldl -lpthread
AM_TESTS_ENVIRONMENT += \
	READSHIM='$(abs_top_builddir)/tests/reliability/.libs/readshim.so'; \
	export READSHIM;
if SANITIZERS
AM_TESTS_ENVIRONMENT += SANITIZERS=yes; export SANITIZERS;
else
AM_TESTS_ENVIRONMENT += SANITIZERS=no; export SANITIZERS;
endif

# killat runs a program and kills it after a given delay (kill.sh).
check_PROGRAMS += tests/reliability/killat
tests_reliability_killat_SOURCES = tests/reliability/killat.c
