# elfscan, the bulk audit: main.c, and its stages in libelfscan.a, which
# the program, the unit tests (tests/elfscan/unit/) and the fuzz targets
# link, so that each file is compiled once. The stages, top to bottom:
# a file calls only files listed after it (tests/elfscan/layers.sh).
elfscan_layers = \
	src/elfscan/walk.c \
	src/elfscan/heads.c \
	src/elfscan/read.c \
	src/elfscan/oci.c \
	src/elfscan/suite.c \
	src/elfscan/suite-verdicts.c \
	src/elfscan/repo.c \
	src/elfscan/repo-apt.c \
	src/elfscan/repo-rpm.c \
	src/elfscan/repo-arch.c \
	src/elfscan/fetch.c \
	src/elfscan/repo-gpgv.c \
	src/elfscan/index.c \
	src/elfscan/container.c \
	src/elfscan/lazy.c \
	src/elfscan/batch.c \
	src/elfscan/judge.c \
	src/elfscan/store.c \
	src/elfscan/db.c \
	src/elfscan/db-sqlite.c \
	src/elfscan/db-pg.c \
	src/elfscan/diff.c \
	src/elfscan/system.c \
	src/elfscan/plugins.c \
	src/elfscan/units.c \
	src/elfscan/mdwe.c \
	src/elfscan/proc.c \
	src/elfscan/closure.c \
	src/elfscan/runs.c \
	src/elfscan/ldso.c \
	src/elfscan/env.c \
	src/elfscan/objects.c \
	src/elfscan/debug.c \
	src/elfscan/rootfs.c \
	src/elfscan/tree.c \
	src/elfscan/progress.c \
	src/elfscan/report.c \
	src/elfscan/sarif.c \
	src/elfscan/ref.c \
	src/elfscan/buf.c \
	src/elfscan/profiles.c \
	src/elfscan/hardening.c \
	src/elfscan/evidence.c \
	src/elfscan/verdict.c \
	src/elfscan/scope.c \
	src/elfscan/allow.c \
	src/elfscan/findings.c \
	src/elfscan/sha256.c \
	src/elfscan/xalloc.c
elfscan_headers = \
	src/elfscan/elfscan.h src/elfscan/container.h src/elfscan/batch.h \
	src/elfscan/report.h src/elfscan/sarif.h src/elfscan/buf.h \
	src/elfscan/verdict.h src/elfscan/where.h src/elfscan/lazy.h \
	src/elfscan/xalloc.h src/elfscan/system.h src/elfscan/diff.h \
	src/elfscan/proc.h src/elfscan/tree.h src/elfscan/evidence.h \
	src/elfscan/debug.h src/elfscan/repo.h src/elfscan/sha256.h \
	src/elfscan/store.h src/elfscan/suite.h src/elfscan/index.h \
	src/elfscan/fetch.h src/elfscan/db.h
elfscan_cflags = $(AM_CFLAGS) $(PTHREAD_CFLAGS) $(LIBARCHIVE_CFLAGS) \
	$(JSON_C_CFLAGS) $(LIBURING_CFLAGS) $(SQLITE3_CFLAGS) $(LIBCURL_CFLAGS) \
	$(LIBXML2_CFLAGS) $(LIBPQ_CFLAGS)
# What links libelfscan.a links these too. libarchive and libxml2 are not
# among them: lazy.c loads them when a container, or an rpm-md repository,
# is met.
elfscan_libs = src/elfscan/libelfscan.a lib/libchstk.la $(JSON_C_LIBS) \
	$(LIBURING_LIBS) $(SQLITE3_LIBS) $(LIBCURL_LIBS) $(LIBPQ_LIBS) -ldl -lpthread

noinst_LIBRARIES += src/elfscan/libelfscan.a
src_elfscan_libelfscan_a_SOURCES = $(elfscan_layers) $(elfscan_headers)
src_elfscan_libelfscan_a_CFLAGS = $(elfscan_cflags)

bin_PROGRAMS += src/elfscan/elfscan
src_elfscan_elfscan_SOURCES = src/elfscan/main.c
src_elfscan_elfscan_CFLAGS = $(elfscan_cflags)
src_elfscan_elfscan_LDADD = $(elfscan_libs)
