# Fuzzing. Three targets, fuzz/scan.c (the read path, from memory, a file
# and a stream), fuzz/rewrite.c (the rewrite path) and fuzz/container.c
# (elfscan's packages and tarballs: libarchive, then the library's stream),
# check their promises on whatever bytes they get.
# Every build links them with fuzz/replay.c, a driver that replays given
# inputs, so make check runs them over the seed corpus and the inputs that
# once broke the library (fuzz/regress/). Built with
# CC=clang ./configure --enable-fuzzing they are also libFuzzer programs,
# and `make fuzz` runs each for FUZZ_SECONDS (see fuzz/run.sh).
fuzz_common = fuzz/fuzz.h fuzz/common.c
fuzz_ldadd = lib/libchstk-core.la $(LIBDW_LIBS) $(LIBELF_LIBS)

# The container target drives elfscan's reading of packages, in its
# library.
fuzz_container_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/src/elfscan
fuzz_container_libs = $(LIBDW_LIBS) $(LIBELF_LIBS) $(JSON_C_LIBS) -ldl -lpthread

check_PROGRAMS += fuzz/replay-scan fuzz/replay-rewrite fuzz/replay-container \
	fuzz/gen-seeds
fuzz_replay_scan_SOURCES = $(fuzz_common) fuzz/scan.c fuzz/replay.c
fuzz_replay_scan_LDADD = $(fuzz_ldadd)
fuzz_replay_rewrite_SOURCES = $(fuzz_common) fuzz/rewrite.c fuzz/replay.c
fuzz_replay_rewrite_LDADD = $(fuzz_ldadd)
fuzz_replay_container_SOURCES = $(fuzz_common) fuzz/container.c fuzz/replay.c
fuzz_replay_container_CPPFLAGS = $(fuzz_container_cppflags)
fuzz_replay_container_LDADD = src/elfscan/libelfscan.a $(fuzz_ldadd) \
	$(fuzz_container_libs)
fuzz_gen_seeds_SOURCES = fuzz/gen-seeds.c
fuzz_gen_seeds_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
fuzz_gen_seeds_LDADD = tests/unit/libelfgen.a

EXTRA_DIST += fuzz/seeds.sh fuzz/run.sh fuzz/regress

FUZZ_SECONDS = 300

if FUZZING
# The targets carry a copy of the library, and of elfscan's, built with
# libFuzzer's coverage instrumentation and the sanitizers.
noinst_LIBRARIES += fuzz/libchstk-fuzz.a fuzz/libelfscan-fuzz.a
fuzz_libchstk_fuzz_a_SOURCES = $(lib_libchstk_core_la_SOURCES)
fuzz_libchstk_fuzz_a_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS) $(LIBELF_CFLAGS) $(FUZZ_CFLAGS)
fuzz_libelfscan_fuzz_a_SOURCES = $(src_elfscan_libelfscan_a_SOURCES)
fuzz_libelfscan_fuzz_a_CFLAGS = $(elfscan_cflags) $(FUZZ_CFLAGS)

noinst_PROGRAMS += fuzz/fuzz-scan fuzz/fuzz-rewrite fuzz/fuzz-container
fuzz_fuzz_scan_SOURCES = $(fuzz_common) fuzz/scan.c
fuzz_fuzz_scan_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
fuzz_fuzz_scan_LDFLAGS = $(FUZZ_LDFLAGS)
fuzz_fuzz_scan_LDADD = fuzz/libchstk-fuzz.a $(LIBDW_LIBS) $(LIBELF_LIBS)
fuzz_fuzz_rewrite_SOURCES = $(fuzz_common) fuzz/rewrite.c
fuzz_fuzz_rewrite_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
fuzz_fuzz_rewrite_LDFLAGS = $(FUZZ_LDFLAGS)
fuzz_fuzz_rewrite_LDADD = fuzz/libchstk-fuzz.a $(LIBDW_LIBS) $(LIBELF_LIBS)

fuzz_fuzz_container_SOURCES = $(fuzz_common) fuzz/container.c
fuzz_fuzz_container_CPPFLAGS = $(fuzz_container_cppflags)
fuzz_fuzz_container_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
fuzz_fuzz_container_LDFLAGS = $(FUZZ_LDFLAGS)
fuzz_fuzz_container_LDADD = fuzz/libelfscan-fuzz.a fuzz/libchstk-fuzz.a \
	$(fuzz_container_libs)

fuzz: fuzz/fuzz-scan$(EXEEXT) fuzz/fuzz-rewrite$(EXEEXT) \
    fuzz/fuzz-container$(EXEEXT) fuzz/gen-seeds$(EXEEXT)
	$(SHELL) $(srcdir)/fuzz/run.sh $(FUZZ_SECONDS) scan rewrite container
else
fuzz:
	@echo "make fuzz: configure with CC=clang ./configure --enable-fuzzing" >&2
	@exit 2
endif
.PHONY: fuzz

# The corpus the fuzzers grew, and what they found.
clean-local: clean-local-fuzz
clean-local-fuzz:
	-rm -rf fuzz/seeds fuzz/corpus fuzz/crash-* fuzz/check-* fuzz/leak-* fuzz/oom-* \
	    fuzz/timeout-* fuzz/slow-unit-* fuzz/*.log
.PHONY: clean-local-fuzz
