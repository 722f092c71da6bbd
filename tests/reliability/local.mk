# Reliability tests (doc/reliability.md): the fuzz targets replayed over the
# seeds and past crashes, the command-line tools under valgrind, every step
# of the write path made to fail, full and read-only file systems, SIGKILL
# at random moments, two chstk at once on one file, and hostile trees for
# elfscan.
reliability_tests = \
	tests/reliability/fuzz-replay.sh
TESTS += $(reliability_tests)
EXTRA_DIST += $(reliability_tests)

if FUZZING
# A short bounded run of each libFuzzer target (FUZZ_CHECK_SECONDS each).
TESTS += tests/reliability/fuzz-short.sh
endif
EXTRA_DIST += tests/reliability/fuzz-short.sh
FUZZ_CHECK_SECONDS = 30
AM_TESTS_ENVIRONMENT += \
	FUZZ_CHECK_SECONDS='$(FUZZ_CHECK_SECONDS)'; \
	export FUZZ_CHECK_SECONDS;
