# elfscan, the bulk audit.
bin_PROGRAMS += src/elfscan/elfscan
src_elfscan_elfscan_SOURCES = \
	src/elfscan/elfscan.h src/elfscan/main.c src/elfscan/walk.c \
	src/elfscan/verdict.c src/elfscan/hardening.c src/elfscan/report.c \
	src/elfscan/allow.c src/elfscan/progress.c src/elfscan/container.c \
	src/elfscan/read.c src/elfscan/judge.c src/elfscan/batch.c \
	src/elfscan/xalloc.c \
	src/elfscan/sarif.h src/elfscan/sarif.c src/elfscan/oci.c \
	src/elfscan/lazy.h src/elfscan/lazy.c
src_elfscan_elfscan_CFLAGS = $(AM_CFLAGS) $(PTHREAD_CFLAGS) $(LIBARCHIVE_CFLAGS) \
	$(JSON_C_CFLAGS)
# libarchive is not linked: lazy.c loads it when a container is met.
src_elfscan_elfscan_LDADD = lib/libchstk.la $(JSON_C_LIBS) -ldl -lpthread
