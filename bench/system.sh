#!/bin/sh
# bench/system.sh - what the verdicts of a root cost (issue 23: at most
# 1.5 times a plain scan): elfscan --system ROOT against a plain elfscan of
# the very directories --system walks there (read from the SARIF log's
# scanned roots), ROUNDS alternating runs each, warm cache; the median wall
# and CPU times (user + system), their ratio, and the peak memory of each.
#
#   bench/system.sh [ROUNDS [ROOT]]     default: 7 rounds, /
#
# Run from the build directory after `make`, on an otherwise idle machine.
set -eu
rounds=${1:-7}
root=${2:-/}
. "$(cd "$(dirname "$0")" && pwd)/elfscan.sh"
GNU_TIME=/usr/bin/time
[ -x "$GNU_TIME" ] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The directories --system walks in ROOT: the bases of its SARIF log.
"$elfscan" --no-progress --system --format=sarif "$root" 2>/dev/null |
    python3 -c 'import json, sys, urllib.parse
for v in json.load(sys.stdin)["runs"][0]["originalUriBaseIds"].values():
    print(urllib.parse.unquote(v["uri"][len("file://"):]).rstrip("/") or "/")' >"$out/dirs"
[ -s "$out/dirs" ] || { echo "bench: elfscan --system $root walked nothing" >&2; exit 2; }

# one NAME CMD...: "wall cpu kilobytes" of one run, appended to $out/NAME.
one() {
	name=$1
	shift
	"$GNU_TIME" -f '%e %U %S %M' -o "$out/t" "$@" >/dev/null 2>&1 || true
	tail -1 "$out/t" | awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' >>"$out/$name"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# shellcheck disable=SC2046 # the directories, one a word
set -- $(cat "$out/dirs")
"$elfscan" -q --no-progress "$@" >/dev/null 2>&1 || true
i=0
while [ "$i" -lt "$rounds" ]; do
	one plain "$elfscan" -q --no-progress "$@"
	one system "$elfscan" -q --no-progress --system "$root"
	i=$((i + 1))
done
echo "machine: $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "root $root: $# directories walked; $("$elfscan" --no-progress --summary -q --system "$root" 2>/dev/null | sed -n 's/^system: //p')"
for name in plain system; do
	printf '%-7s wall %6.3f s  cpu %6.2f s  peak %6d KiB\n' "$name" \
	    "$(cut -d' ' -f1 "$out/$name" | median)" "$(cut -d' ' -f2 "$out/$name" | median)" \
	    "$(cut -d' ' -f3 "$out/$name" | sort -n | tail -1)"
done
awk -v pw="$(cut -d' ' -f1 "$out/plain" | median)" -v sw="$(cut -d' ' -f1 "$out/system" | median)" \
    -v pc="$(cut -d' ' -f2 "$out/plain" | median)" -v sc="$(cut -d' ' -f2 "$out/system" | median)" \
    'BEGIN { printf "system / plain: wall %.2f, cpu %.2f (median of the rounds)\n", sw / pw, sc / pc }'
