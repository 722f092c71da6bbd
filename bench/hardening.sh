#!/bin/sh
# bench/hardening.sh - elfscan --hardening against checksec --dir (Debian's
# checksec 2.6.0, one file at a time through readelf) and plain elfscan, in
# one run, warm cache, on each TREE: the median wall time of ROUNDS runs of
# each elfscan, one run of checksec (it takes minutes), and the ratios.
# checksec on /usr takes tens of minutes: it runs there only with
# CHECKSEC_USR=1, else it is timed on /usr/bin alone.
#
#   bench/hardening.sh [ROUNDS [TREE...]]   default: 5 rounds, /usr/bin /usr
#
# Run from the build directory after `make`, on an otherwise idle machine.
set -eu
rounds=${1:-5}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- /usr/bin /usr
. "$(cd "$(dirname "$0")" && pwd)/elfscan.sh"
command -v checksec >/dev/null || { echo "bench: checksec missing: ./bootstrap deps" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# secs CMD...: the wall time of one run, output dropped.
secs() {
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || true
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f\n", e - s }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "machine: $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
for tree in "$@"; do
	images=$("$elfscan" --summary --no-progress -q "$tree" 2>/dev/null | tail -1 |
	    sed 's/.* directories, \([0-9]*\) ELF images.*/\1/')
	"$elfscan" --hardening --no-progress "$tree" >/dev/null 2>&1 || true
	: >"$out/plain"
	: >"$out/hard"
	i=0
	while [ "$i" -lt "$rounds" ]; do
		secs "$elfscan" --no-progress "$tree" >>"$out/plain"
		secs "$elfscan" --hardening --no-progress "$tree" >>"$out/hard"
		i=$((i + 1))
	done
	p=$(median <"$out/plain")
	h=$(median <"$out/hard")
	c=-
	if [ "$tree" != /usr ] || [ "${CHECKSEC_USR:-0}" = 1 ]; then
		c=$(secs checksec --output=json --dir="$tree")
	fi
	awk -v t="$tree" -v n="$images" -v p="$p" -v h="$h" -v c="$c" -v r="$rounds" 'BEGIN {
		printf "%s: %s ELF images\n", t, n
		printf "  elfscan:             %.3f s (median of %d)\n", p, r
		printf "  elfscan --hardening: %.3f s (median of %d), %.2f times plain\n", h, r, h / p
		if (c != "-")
			printf "  checksec --dir:      %.1f s (one run), %.0f times elfscan --hardening\n", c, c / h
		else
			printf "  checksec --dir:      not run (CHECKSEC_USR=1)\n"
	}'
done
