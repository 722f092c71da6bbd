# Benchmarks: not part of make check (they measure, they do not test).
# `make bench` compares elfscan with scanelf on /usr; see bench/run.sh.
EXTRA_DIST += bench/run.sh bench/gentree.sh bench/README.md bench/hardening.sh
bench: all
	$(SHELL) $(srcdir)/bench/run.sh $(BENCH_TREE) $(BENCH_ROUNDS)
.PHONY: bench
# `make bench-hardening`: elfscan --hardening against checksec --dir and
# plain elfscan on /usr/bin and /usr; see bench/hardening.sh.
bench-hardening: all
	$(SHELL) $(srcdir)/bench/hardening.sh $(BENCH_ROUNDS)
.PHONY: bench-hardening
