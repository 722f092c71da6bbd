# Benchmarks: not part of make check (they measure, they do not test).
# `make bench` compares elfscan with the floors (bench/floor.c: list every
# directory and read 64 bytes of every file, with two threads and with a
# deep queue of reads) and with scanelf, warm and cold, on /usr and the
# million-file tree (BENCH_TREE for one tree); see bench/run.sh.
EXTRA_DIST += bench/run.sh bench/gentree.sh bench/README.md bench/hardening.sh \
	bench/system.sh bench/suite.sh \
	bench/elfscan.sh
EXTRA_PROGRAMS = bench/floor
bench_floor_SOURCES = bench/floor.c
bench_floor_CFLAGS = $(AM_CFLAGS) $(LIBURING_CFLAGS)
bench_floor_LDADD = $(LIBURING_LIBS) -lpthread
CLEANFILES += bench/floor
if HAVE_LIBURING
bench: all bench/floor
	$(SHELL) $(srcdir)/bench/run.sh $(BENCH_TREE) $(BENCH_ROUNDS)
else
bench:
	@echo "make bench: the cold-cache floor needs liburing: install it with ./bootstrap deps, then rerun configure" >&2; exit 2
endif
.PHONY: bench
# `make bench-hardening`: elfscan --hardening against checksec --dir and
# plain elfscan on /usr/bin and /usr; see bench/hardening.sh.
bench-hardening: all
	$(SHELL) $(srcdir)/bench/hardening.sh $(BENCH_ROUNDS)
.PHONY: bench-hardening
# `make bench-system`: what the verdicts of a root cost, against a plain
# scan of the same directories; see bench/system.sh.
bench-system: all
	$(SHELL) $(srcdir)/bench/system.sh $(BENCH_ROUNDS) $(BENCH_ROOT)
.PHONY: bench-system
# `make bench-suite`: elfscan over a local apt repository of 500 real
# bookworm packages (fetched once into $XDG_CACHE_HOME/chstk/bench-suite)
# against decompressing their tars, with and without --store, and what a
# whole suite would take; see bench/suite.sh.
bench-suite: all
	$(SHELL) $(srcdir)/bench/suite.sh $(BENCH_ROUNDS)
.PHONY: bench-suite
