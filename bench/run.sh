#!/bin/sh
# bench/run.sh - elfscan against the floor and scanelf (pax-utils) on the
# same tree, in one run, with a warm cache: ROUNDS alternating runs of
# `elfscan -q`, the floor (bench/floor: as many threads as elfscan, that list
# every directory and read the first 64 bytes of every regular file, and do
# nothing else) and `scanelf -qeR`, then the median wall time and CPU time
# (user + system) of each, elfscan's ratios to the floor and to scanelf in
# both, files per second, and the peak memory (maximum resident set) of
# each. CPU time is the steadier figure on a loaded machine: wall time
# waits for the other processes, CPU time mostly does not.
#
# Then elfscan inside a large tarball: a .tar.zst of TARBALL_DIR (default
# the multiarch library directory, /usr/lib/x86_64-linux-gnu here) made now,
# scanned ROUNDS times: the median wall time, MB/s of tar stream expanded
# and of file read, members and ELF images per second, the peak memory,
# and beside it the time `zstd -dc` alone takes, the floor.
#
#   bench/run.sh [TREE [ROUNDS]]     default: /usr, 7 rounds
#
# Run from the build directory after `make` (BUILDDIR=DIR times the build in
# DIR instead; BENCH_BEFORE=DIR also times the elfscan built in DIR, say
# before a change, in the same alternation; BENCH_TARBALL=no skips the
# tarball). The machine should be
# otherwise idle; the load average during the runs is printed with them.
set -eu
tree=${1:-/usr}
rounds=${2:-7}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/elfscan.sh"
floor=$build/bench/floor
before=
if [ -n "${BENCH_BEFORE:-}" ]; then
	before=$BENCH_BEFORE/src/elfscan/.libs/elfscan
	[ -x "$before" ] || { echo "bench: no elfscan built in $BENCH_BEFORE" >&2; exit 2; }
fi
[ -x "$floor" ] || { echo "bench: build the floor first (make bench/floor)" >&2; exit 2; }
for tool in scanelf zstd tar; do
	command -v "$tool" >/dev/null || { echo "bench: $tool missing: ./bootstrap deps" >&2; exit 2; }
done
GNU_TIME=/usr/bin/time
[ -x "$GNU_TIME" ] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# one NAME CMD...: append "wall kilobytes cpu" (seconds) of one run to
# $out/NAME, and the load average after it to $out/load
one() {
	name=$1
	shift
	"$GNU_TIME" -f '%e %M %U %S' -o "$out/t" "$@" >/dev/null 2>&1 || true
	# GNU time puts "Command exited with non-zero status" first when the
	# scan has findings.
	tail -1 "$out/t" | awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' >>"$out/$name"
	cut -d' ' -f1 /proc/loadavg >>"$out/load"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
maxcol() { awk -v c="$1" '$c > m { m = $c } END { print m }'; }

files=$("$elfscan" -q --summary --no-progress "$tree" 2>/dev/null | tail -1 |
    awk '{ print $1 }')
echo "tree: $tree ($files files)"
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "elfscan: $("$elfscan" --version); scanelf: $(scanelf -V 2>&1 | head -1)"
echo "floor: $("$floor" "$tree")"
# Warm the cache for all three.
"$elfscan" -q --no-progress "$tree" >/dev/null 2>&1 || true
scanelf -qeR "$tree" >/dev/null 2>&1 || true
i=0
while [ "$i" -lt "$rounds" ]; do
	one elfscan "$elfscan" -q --no-progress "$tree"
	one floor "$floor" "$tree"
	one scanelf scanelf -qeR "$tree"
	[ -z "$before" ] || one before env LD_LIBRARY_PATH="$BENCH_BEFORE/lib/.libs" \
	    "$before" -q --no-progress "$tree"
	i=$((i + 1))
done
e=$(cut -d' ' -f1 "$out/elfscan" | median)
fl=$(cut -d' ' -f1 "$out/floor" | median)
s=$(cut -d' ' -f1 "$out/scanelf" | median)
ec=$(cut -d' ' -f3 "$out/elfscan" | median)
flc=$(cut -d' ' -f3 "$out/floor" | median)
sc=$(cut -d' ' -f3 "$out/scanelf" | median)
em=$(maxcol 2 <"$out/elfscan")
fm=$(maxcol 2 <"$out/floor")
sm=$(maxcol 2 <"$out/scanelf")
awk -v e="$e" -v fl="$fl" -v s="$s" -v f="$files" -v em="$em" -v fm="$fm" \
    -v sm="$sm" -v r="$rounds" -v ec="$ec" -v flc="$flc" -v sc="$sc" 'BEGIN {
	printf "elfscan -q:   %.3f s wall, %.2f s CPU, medians of %d, %.0f files/s, peak %.1f MiB\n", e, ec, r, (e > 0 ? f / e : 0), em / 1024
	printf "floor:        %.3f s wall, %.2f s CPU, medians of %d, %.0f files/s, peak %.1f MiB\n", fl, flc, r, (fl > 0 ? f / fl : 0), fm / 1024
	printf "scanelf -qeR: %.3f s wall, %.2f s CPU, medians of %d, %.0f files/s, peak %.1f MiB\n", s, sc, r, (s > 0 ? f / s : 0), sm / 1024
	printf "ratio elfscan/floor:   %.3f wall, %.3f CPU\n", (fl > 0 ? e / fl : 0), (flc > 0 ? ec / flc : 0)
	printf "ratio elfscan/scanelf: %.3f wall, %.3f CPU\n", (s > 0 ? e / s : 0), (sc > 0 ? ec / sc : 0)
}'
if [ -n "$before" ]; then
	b=$(cut -d' ' -f1 "$out/before" | median)
	bc=$(cut -d' ' -f3 "$out/before" | median)
	awk -v b="$b" -v bc="$bc" -v e="$e" -v ec="$ec" -v fl="$fl" -v flc="$flc" \
	    -v bm="$(maxcol 2 <"$out/before")" -v r="$rounds" 'BEGIN {
		printf "elfscan before: %.3f s wall, %.2f s CPU, medians of %d, peak %.1f MiB\n", b, bc, r, bm / 1024
		printf "ratio before/floor:    %.3f wall, %.3f CPU; after/before: %.3f wall, %.3f CPU\n", b / fl, bc / flc, e / b, ec / bc
	}'
fi
echo "load average (1 min) during the runs: $(sort -n "$out/load" | awk '{ v[NR] = $1 } END { printf "%s to %s, median %s", v[1], v[NR], v[int((NR + 1) / 2)] }')"
[ "${BENCH_TARBALL:-yes}" = no ] && exit 0

# elfscan in a tarball.
dir=${TARBALL_DIR:-}
if [ -z "$dir" ]; then
	multiarch=$(gcc -print-multiarch 2>/dev/null || true)
	dir=/usr/lib/${multiarch:-.}
fi
dir=$(cd "$dir" && pwd)
tarball=$out/lib.tar.zst
tar -C "$(dirname "$dir")" -cf - "$(basename "$dir")" 2>/dev/null |
    zstd -q -T0 -3 >"$tarball"
bytes=$(zstd -dc "$tarball" | wc -c)
packed=$(stat -c %s "$tarball")
members=$(find "$dir" -type f | wc -l)
images=$("$elfscan" --format=json --summary --no-progress "$tarball" 2>/dev/null |
    tail -1 | sed 's/.*"images":\([0-9]*\).*/\1/')
echo "tarball: $dir as .tar.zst -3: $(awk -v b="$packed" 'BEGIN { printf "%.0f", b / 1048576 }') MiB," \
    "$(awk -v b="$bytes" 'BEGIN { printf "%.0f", b / 1048576 }') MiB of tar, $members files, $images ELF images;" \
    "load $(cut -d' ' -f1-3 /proc/loadavg)"
zstd -dc "$tarball" >/dev/null
i=0
while [ "$i" -lt "$rounds" ]; do
	one tarball "$elfscan" -q --no-progress "$tarball"
	one zstd zstd -dc "$tarball"
	i=$((i + 1))
done
t=$(cut -d' ' -f1 "$out/tarball" | median)
z=$(cut -d' ' -f1 "$out/zstd" | median)
tm=$(maxcol 2 <"$out/tarball")
awk -v t="$t" -v z="$z" -v b="$bytes" -v p="$packed" -v m="$members" -v im="$images" \
    -v tm="$tm" -v r="$rounds" 'BEGIN {
	if (t <= 0 || z <= 0)
		exit 1
	printf "elfscan -q tarball: %.3f s median of %d, %.0f MB/s of tar (%.0f MB/s read), %.0f members/s, %.0f ELF images/s, peak %.1f MiB\n", t, r, b / t / 1e6, p / t / 1e6, m / t, im / t, tm / 1024
	printf "zstd -dc alone:     %.3f s median of %d, %.0f MB/s of tar\n", z, r, b / z / 1e6
}'
