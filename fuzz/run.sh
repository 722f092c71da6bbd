#!/bin/sh
# run.sh SECONDS TARGET...: run each libFuzzer target for SECONDS, from the
# seed corpus (built once into fuzz/seeds), the inputs of fuzz/regress and
# the corpus grown by earlier runs (fuzz/corpus/TARGET), in the build
# directory. Prints the executions of each; a crash leaves its input in
# fuzz/crash-TARGET-* and fails. Make runs it as `make fuzz`.
set -u
seconds=$1
shift
src=$(cd "$(dirname "$0")" && pwd)
if [ ! -d fuzz/seeds ]; then
	"$src/seeds.sh" fuzz/seeds.tmp fuzz/gen-seeds || exit 2
	mv fuzz/seeds.tmp fuzz/seeds
fi
status=0
for t in "$@"; do
	mkdir -p "fuzz/corpus/$t"
	echo "fuzz-$t: $seconds s"
	"fuzz/fuzz-$t" -max_total_time="$seconds" -timeout=10 \
	    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
	    -artifact_prefix="fuzz/crash-$t-" \
	    "fuzz/corpus/$t" fuzz/seeds "$src/regress" >"fuzz/$t.log" 2>&1 ||
	    status=1
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "fuzz/$t.log")
	cov=$(grep -o 'cov: [0-9]*' "fuzz/$t.log" | tail -1)
	echo "fuzz-$t: ${runs:-?} executions, $cov, corpus $(ls "fuzz/corpus/$t" | wc -l) inputs"
	[ $status -eq 0 ] || { tail -30 "fuzz/$t.log"; exit 1; }
done
