# Benchmarks: not part of make check (they measure, they do not test).
# `make bench` compares elfscan with scanelf on /usr; see bench/run.sh.
EXTRA_DIST += bench/run.sh bench/gentree.sh bench/README.md
bench: all
	$(SHELL) $(srcdir)/bench/run.sh $(BENCH_TREE) $(BENCH_ROUNDS)
.PHONY: bench
