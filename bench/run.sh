#!/bin/sh
# bench/run.sh - elfscan against scanelf (pax-utils) on the same tree, in one
# run, with a warm cache: ROUNDS alternating runs of `elfscan -q` and
# `scanelf -qeR`, then the median wall time of each, their ratio, files per
# second, and the peak memory (maximum resident set) of each.
#
#   bench/run.sh [TREE [ROUNDS]]     default: /usr, 7 rounds
#
# Run from the build directory after `make`. The machine should be otherwise
# idle: the figures are wall times.
set -eu
tree=${1:-/usr}
rounds=${2:-7}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILDDIR:-$(pwd)}

# The real binary, not libtool's wrapper script (whose shell would be timed).
if [ -x "$build/src/elfscan/.libs/elfscan" ]; then
	elfscan=$build/src/elfscan/.libs/elfscan
	export LD_LIBRARY_PATH="$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
elif [ -x "$build/src/elfscan/elfscan" ]; then
	elfscan=$build/src/elfscan/elfscan
else
	echo "bench: build elfscan first (make)" >&2
	exit 2
fi
command -v scanelf >/dev/null || { echo "bench: scanelf missing: ./bootstrap deps" >&2; exit 2; }
GNU_TIME=/usr/bin/time
[ -x "$GNU_TIME" ] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# one NAME CMD...: append "seconds kilobytes" of one run to $out/NAME
one() {
	name=$1
	shift
	"$GNU_TIME" -f '%e %M' -o "$out/t" "$@" >/dev/null 2>&1 || true
	# GNU time puts "Command exited with non-zero status" first when the
	# scan has findings.
	tail -1 "$out/t" >>"$out/$name"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
maxcol() { awk -v c="$1" '$c > m { m = $c } END { print m }'; }

files=$("$elfscan" -q --summary --no-progress "$tree" 2>/dev/null | tail -1 |
    awk '{ print $1 }')
echo "tree: $tree ($files files)"
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -r)"
echo "elfscan: $("$elfscan" --version); scanelf: $(scanelf -V 2>&1 | head -1)"
# Warm the cache for both.
"$elfscan" -q --no-progress "$tree" >/dev/null 2>&1 || true
scanelf -qeR "$tree" >/dev/null 2>&1 || true
i=0
while [ "$i" -lt "$rounds" ]; do
	one elfscan "$elfscan" -q --no-progress "$tree"
	one scanelf scanelf -qeR "$tree"
	i=$((i + 1))
done
e=$(cut -d' ' -f1 "$out/elfscan" | median)
s=$(cut -d' ' -f1 "$out/scanelf" | median)
em=$(maxcol 2 <"$out/elfscan")
sm=$(maxcol 2 <"$out/scanelf")
awk -v e="$e" -v s="$s" -v f="$files" -v em="$em" -v sm="$sm" -v r="$rounds" 'BEGIN {
	printf "elfscan -q:   %.3f s median of %d, %.0f files/s, peak %.1f MiB\n", e, r, (e > 0 ? f / e : 0), em / 1024
	printf "scanelf -qeR: %.3f s median of %d, %.0f files/s, peak %.1f MiB\n", s, r, (s > 0 ? f / s : 0), sm / 1024
	printf "ratio elfscan/scanelf: %.3f\n", (s > 0 ? e / s : 0)
}'
