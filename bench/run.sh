#!/bin/sh
# bench/run.sh - elfscan against the floors and scanelf (pax-utils) on the
# same trees, warm and cold, in one run. The floor (bench/floor) lists every
# directory and reads the first 64 bytes of every regular file, nothing
# else; it runs three ways:
#
#   floor            as many threads as elfscan (the CPUs): the warm floor
#   floor -j 64      a deep queue of reads in flight by threads
#   floor -j 8 -q 64 a deep queue by io_uring: 8 listing threads, 64 files
#                    in flight each
#
# and the lower median of the two deep-queue ones is the cold floor.
#
# Warm: ROUNDS alternating runs of `elfscan -q`, the same with the reader
# of plain system calls (ELFSCAN_READER=threads, what elfscan does where
# io_uring is not allowed), the three floors and
# `scanelf -qeR` after one run of each to fill the cache; then the median
# wall time and CPU time (user + system) of each, files per second, the
# peak memory (maximum resident set; warm, of the runs that read nothing
# from the disk, with those that did counted apart), and elfscan's ratios
# to the warm floor, to the cold floor and to scanelf. CPU time is the
# steadier figure on a loaded machine: wall time waits for the other
# processes, CPU time mostly does not.
#
# Cold: COLD_ROUNDS (default 3) rounds of the same, and `elfscan -q -j 64`,
# each run after `sync; echo 3 >/proc/sys/vm/drop_caches`: the medians and
# the spread (lowest to highest wall time). Dropping the caches needs root,
# and slows everything else on the machine for a while; as another user,
# or with COLD_ROUNDS=0, the cold runs are left out, with a message.
#
# Then elfscan inside a large tarball: a .tar.zst of TARBALL_DIR (default
# the multiarch library directory, /usr/lib/x86_64-linux-gnu here) made now,
# scanned ROUNDS times: the median wall time, MB/s of tar stream expanded
# and of file read, members and ELF images per second, the peak memory,
# and beside it the time `zstd -dc` alone takes, the floor.
#
#   bench/run.sh [TREE [ROUNDS]]     default: /usr and the million-file
#                                    tree, 7 rounds
#
# The million-file tree is bench/gentree.sh's, made on first use in
# MILLION_TREE (default $XDG_CACHE_HOME/chstk/million-tree, or
# ~/.cache/chstk/million-tree), which takes minutes and a million inodes.
#
# Run from the build directory after `make` (BUILDDIR=DIR times the build in
# DIR instead; BENCH_BEFORE=DIR also times the elfscan built in DIR, say
# before a change, in the same alternation; BENCH_TARBALL=no skips the
# tarball). The machine should be
# otherwise idle; the load average during the runs is printed with them.
set -eu
rounds=${2:-7}
cold_rounds=${COLD_ROUNDS:-3}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/elfscan.sh"
floor=$build/bench/floor
before=
if [ -n "${BENCH_BEFORE:-}" ]; then
	before=$BENCH_BEFORE/src/elfscan/.libs/elfscan
	[ -x "$before" ] || { echo "bench: no elfscan built in $BENCH_BEFORE" >&2; exit 2; }
fi
[ -x "$floor" ] || { echo "bench: build the floor first (make bench/floor)" >&2; exit 2; }
for tool in scanelf zstd tar python3; do
	command -v "$tool" >/dev/null || { echo "bench: $tool missing: ./bootstrap deps" >&2; exit 2; }
done
GNU_TIME=/usr/bin/time
[ -x "$GNU_TIME" ] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }

if [ -n "${1:-}" ]; then
	trees=$1
else
	million=${MILLION_TREE:-${XDG_CACHE_HOME:-$HOME/.cache}/chstk/million-tree}
	if [ ! -d "$million" ]; then
		echo "bench: making the million-file tree in $million (minutes)"
		rm -rf "$million.tmp"
		"$top/bench/gentree.sh" "$million.tmp" >/dev/null
		mv "$million.tmp" "$million"
	fi
	trees="/usr $million"
fi

cold=yes
if [ "$cold_rounds" -eq 0 ]; then
	cold=no
elif [ "$(id -u)" != 0 ] || ! { sync && echo 3 >/proc/sys/vm/drop_caches; } 2>/dev/null; then
	echo "bench: cold runs left out: dropping the page cache (/proc/sys/vm/drop_caches) needs root"
	cold=no
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# one NAME CMD...: append "wall kilobytes cpu blocks" (seconds; the
# blocks read from the disk) of one run to $out/NAME, and the load average
# after it to $out/load
one() {
	name=$1
	shift
	"$GNU_TIME" -f '%e %M %U %S %I' -o "$out/t" "$@" >/dev/null 2>&1 || true
	# GNU time puts "Command exited with non-zero status" first when the
	# scan has findings.
	tail -1 "$out/t" | awk '{ printf "%s %s %.2f %s\n", $1, $2, $3 + $4, $5 }' >>"$out/$name"
	cut -d' ' -f1 /proc/loadavg >>"$out/load"
}

# tool NAME TREE: one run of the tool NAME on TREE
tool() {
	case $1 in
	elfscan) one "$1" "$elfscan" -q --no-progress "$2" ;;
	elfscan-j64) one "$1" "$elfscan" -q --no-progress -j 64 "$2" ;;
	elfscan-threads) one "$1" env ELFSCAN_READER=threads "$elfscan" -q \
	    --no-progress "$2" ;;
	before) one "$1" env LD_LIBRARY_PATH="$BENCH_BEFORE/lib/.libs" \
	    "$before" -q --no-progress "$2" ;;
	floor) one "$1" "$floor" "$2" ;;
	floor-j64) one "$1" "$floor" -j 64 "$2" ;;
	floor-uring) one "$1" "$floor" -j 8 -q 64 "$2" ;;
	scanelf) one "$1" scanelf -qeR "$2" ;;
	esac
}

label() {
	case $1 in
	elfscan) echo "elfscan -q" ;;
	elfscan-j64) echo "elfscan -q -j 64" ;;
	elfscan-threads) echo "elfscan -q, threads" ;;
	before) echo "elfscan before" ;;
	floor) echo "floor ($(nproc) threads)" ;;
	floor-j64) echo "floor -j 64" ;;
	floor-uring) echo "floor -j 8 -q 64" ;;
	scanelf) echo "scanelf -qeR" ;;
	esac
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
maxcol() { awk -v c="$1" '$c > m { m = $c } END { print m }'; }
wall() { cut -d' ' -f1 "$out/$1" | median; }
cpu() { cut -d' ' -f3 "$out/$1" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }

# peak WHAT FILE: the highest peak memory of the runs in FILE. A warm run
# that read from the disk (the machine's other work pushed some files out
# of the cache) is not warm: elfscan then starts more walkers (walk.c,
# grow), and their memory. Warm, the highest of the runs that read nothing
# is the figure, and those that read are counted apart.
peak() {
	awk -v warm="$([ "$1" = warm ] && echo 1)" '
	{ all = $2 > all ? $2 : all; n++ }
	$4 > 0 { read++; next }
	{ none = $2 > none ? $2 : none }
	END {
		if (!warm || read == 0)
			printf "%.1f MiB", all / 1024
		else if (read == n)
			printf "%.1f MiB (every run read the disk)", all / 1024
		else
			printf "%.1f MiB (%d of %d runs read the disk: up to %.1f MiB)", none / 1024, read, n, all / 1024
	}' "$2"
}

# report WHAT ROUNDS NAME...: the medians of each tool, and the ratios
report() {
	what=$1 r=$2
	shift 2
	echo "$what, medians of $r:"
	for name in "$@"; do
		awk -v l="$(label "$name")" -v w="$(wall "$name")" -v c="$(cpu "$name")" \
		    -v lo="$(cut -d' ' -f1 "$out/$name" | sort -n | head -1)" \
		    -v hi="$(cut -d' ' -f1 "$out/$name" | sort -n | tail -1)" \
		    -v m="$(peak "$what" "$out/$name")" -v f="$files" 'BEGIN {
			printf "  %-20s %7.3f s wall (%.3f to %.3f), %6.2f s CPU, %7.0f files/s, peak %s\n", l, w, lo, hi, c, (w > 0 ? f / w : 0), m
		}'
	done
	# The cold floor: the deep-queue floor with the lower median.
	deep="floor-uring"
	awk -v u="$(wall floor-uring)" -v t="$(wall floor-j64)" 'BEGIN { exit !(t < u) }' &&
	    deep="floor-j64"
	echo "  the deep-queue floor is $(label "$deep")"
	echo "  ratio elfscan/floor ($(nproc) threads): $(ratio "$(wall elfscan)" "$(wall floor)") wall, $(ratio "$(cpu elfscan)" "$(cpu floor)") CPU"
	echo "  ratio elfscan/deep-queue floor:  $(ratio "$(wall elfscan)" "$(wall "$deep")") wall, $(ratio "$(cpu elfscan)" "$(cpu "$deep")") CPU"
	[ ! -s "$out/elfscan-j64" ] ||
	    echo "  ratio elfscan -j 64/deep-queue floor: $(ratio "$(wall elfscan-j64)" "$(wall "$deep")") wall"
	echo "  ratio elfscan, threads reader/floor ($(nproc) threads): $(ratio "$(wall elfscan-threads)" "$(wall floor)") wall; /deep-queue floor: $(ratio "$(wall elfscan-threads)" "$(wall "$deep")") wall"
	echo "  ratio elfscan/scanelf:           $(ratio "$(wall elfscan)" "$(wall scanelf)") wall, $(ratio "$(cpu elfscan)" "$(cpu scanelf)") CPU"
	[ -z "$before" ] ||
	    echo "  ratio before/floor: $(ratio "$(wall before)" "$(wall floor)") wall; after/before: $(ratio "$(wall elfscan)" "$(wall before)") wall, $(ratio "$(cpu elfscan)" "$(cpu before)") CPU"
	echo "  load average (1 min) during the runs: $(sort -n "$out/load" | awk '{ v[NR] = $1 } END { printf "%s to %s, median %s", v[1], v[NR], v[int((NR + 1) / 2)] }')"
}

echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "elfscan: $("$elfscan" --version | paste -sd, - | sed "s/,/, /g"); scanelf: $(scanelf -V 2>&1 | head -1)"
names="elfscan elfscan-threads floor floor-j64 floor-uring scanelf${before:+ before}"
cold_names="elfscan elfscan-threads elfscan-j64 floor floor-j64 floor-uring scanelf${before:+ before}"
for tree in $trees; do
	files=$("$elfscan" -q --summary --no-progress "$tree" 2>/dev/null |
	    sed -n 's/^\([0-9]*\) files\{0,1\} in .*/\1/p')
	echo
	echo "tree: $tree ($files files; floor: $("$floor" "$tree"))"
	rm -f "$out"/elfscan* "$out"/floor* "$out"/scanelf "$out"/before "$out"/load
	# Warm the cache for all of them.
	"$elfscan" -q --no-progress "$tree" >/dev/null 2>&1 || true
	scanelf -qeR "$tree" >/dev/null 2>&1 || true
	i=0
	while [ "$i" -lt "$rounds" ]; do
		for name in $names; do
			tool "$name" "$tree"
		done
		i=$((i + 1))
	done
	report "warm" "$rounds" $names
	[ "$cold" = yes ] || continue
	rm -f "$out"/elfscan* "$out"/floor* "$out"/scanelf "$out"/before "$out"/load
	i=0
	while [ "$i" -lt "$cold_rounds" ]; do
		for name in $cold_names; do
			sync
			echo 3 >/proc/sys/vm/drop_caches
			tool "$name" "$tree"
		done
		i=$((i + 1))
	done
	report "cold (after drop_caches)" "$cold_rounds" $cold_names
done
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
