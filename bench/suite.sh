#!/bin/sh
# bench/suite.sh - elfscan over a suite of real packages: a sample of
# Debian bookworm main (amd64), made a local apt repository here, read with
# `elfscan --format=json apt:REPO:bookworm:main`, against the floor, warm
# and cold, in one run.
#
# The sample: the packages of Architecture amd64 (those that hold programs
# and libraries; "all" ones seldom hold ELF files) of the machine's mirror's
# bookworm main index whose Installed-Size is from 1,000 to 9,999 KiB,
# sorted by name, every 14th, the first 505: about 430 MB of .debs (423 MB
# the 500 of the repository, in December 2026). 500 are
# the repository; the 101st, 202nd, ... 505th are held back, to stand in for
# 1% of the repository (the 100th, 200th, ... 500th of the 500) in the rows
# of a changed index. They are fetched once with `apt-get download` through
# a private apt state (as tests/hosts/sysroot.sh does: the machine's own apt
# is left as it was) into SUITE_CACHE (default
# $XDG_CACHE_HOME/chstk/bench-suite, or ~/.cache/chstk/bench-suite), with a
# stamp: a rerun downloads nothing. The repository (pool/, and dists/ by
# dpkg-scanpackages and apt-ftparchive, as tests/elfscan/repo-apt.sh makes
# it) is made anew each run, of hard links to the cache.
#
# The floor is the least any reader of these packages could do: every
# package's data and control tar decompressed whole to /dev/null, as many
# packages at once as elfscan has workers (the CPUs):
#
#   xargs -0 -n 1 -P $(nproc) sh -c 'dpkg-deb --fsys-tarfile "$1" >/dev/null &&
#       dpkg-deb --ctrl-tarfile "$1" >/dev/null' sh
#
# and `sha256sum` of every package, one after another, is timed beside it:
# elfscan reads each package whole for its digest before it reads its
# members (elfscan-suites(7)).
#
# Warm: ROUNDS (default 3) rounds after one run of each to fill the cache;
# cold: COLD_ROUNDS (default 3), each run after `sync; echo 3
# >/proc/sys/vm/drop_caches`, which needs root (and slows the whole machine
# for a while): as another user, or with COLD_ROUNDS=0, they are left out,
# with a message. Each round runs the floor, sha256sum and elfscan, and,
# when elfscan takes --store, elfscan --store into a fresh file,
# again with the index unchanged, the suite's verdicts from that store
# (--system: the graph of every package, its services), and again after 1%
# of the packages changed (5 pool files replaced by the 5 held back, the
# index made anew);
# without --store those rows are left out, with a message. For each: the
# median wall time, its spread, CPU time (user + system), packages/s and
# MB/s of .deb, the peak resident memory (GNU time's %M; for the floor,
# the largest single process), and the ratios: elfscan to the floor, the
# store's reruns to its first run. Then, once and not timed, the pool files
# each store rerun opens (strace -f) and whether the unchanged rerun says
# what the first run said.
#
# Then the extrapolation: the count and the total Size of the packages of
# the mirror's trixie main binary-amd64 index (fetched once, through a
# private apt state, into the cache), at the measured packages/s and MB/s,
# on this machine and on N machines of its kind (--shard).
#
#   bench/suite.sh [ROUNDS]
#
# Run from the build directory after `make` (BUILDDIR=DIR times the build
# in DIR instead). The machine should be otherwise idle; the load average
# during the runs is printed with them.
set -eu
rounds=${1:-3}
cold_rounds=${COLD_ROUNDS:-3}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/elfscan.sh"
for tool in apt-get dpkg-deb dpkg-scanpackages apt-ftparchive xz sha256sum xargs; do
	command -v "$tool" >/dev/null || { echo "bench: $tool missing: ./bootstrap deps" >&2; exit 2; }
done
GNU_TIME=/usr/bin/time
[ -x "$GNU_TIME" ] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
APT_HELPER=/usr/lib/apt/apt-helper
cache=${SUITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/chstk/bench-suite}
suite=bookworm
# The sample, as the stamp records it.
lo=1000 hi=10000 every=14 count=505 spare=101
jobs=$(nproc)

# The machine's mirror of Debian, as tests/hosts/sysroot.sh finds it;
# deb.debian.org without one. Asked before APT_CONFIG points elsewhere.
mirror=$(apt-get indextargets --format '$(LABEL) $(RELEASE) $(REPO_URI)' 2>/dev/null |
    awk -v s="$suite" '$1 == "Debian" && $2 == s { print $3; exit }')
mirror=${mirror:-http://deb.debian.org/debian/}

# apt_state DIR SUITE: a private apt state in DIR that knows SUITE main of
# the mirror, amd64 only, its index fetched; APT_CONFIG set to it.
apt_state() {
	a=$1
	mkdir -p "$a/lists/partial" "$a/archives/partial" "$a/parts"
	: >"$a/status"
	echo "deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $2 main" \
	    >"$a/sources.list"
	cat >"$a/apt.conf" <<CONF
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
Dir::State "$a";
Dir::State::lists "$a/lists";
Dir::State::status "$a/status";
Dir::Cache "$a";
Dir::Cache::archives "$a/archives";
Dir::Etc::SourceList "$a/sources.list";
Dir::Etc::SourceParts "$a/parts";
Dir::Etc::preferencesparts "$a/parts";
Debug::NoLocking "true";
Acquire::Languages "none";
APT::Sandbox::User "$(id -un)";
CONF
	export APT_CONFIG="$a/apt.conf"
	apt-get -q update >"$a/update.log" 2>&1 ||
	    { cat "$a/update.log" >&2; echo "bench: apt-get update of $2 failed" >&2; return 1; }
}
# packages_index: the Packages index of the private apt state, decompressed
# (apt may keep it compressed: apt-helper cat-file reads either).
packages_index() {
	"$APT_HELPER" cat-file "$(apt-get indextargets --format '$(FILENAME)' 'Identifier: Packages' | head -1)"
}

# The sample, fetched once.
want="$suite amd64 installed-size $lo-$hi every $every count $count"
if [ ! -f "$cache/.complete" ] || [ "$(cat "$cache/.complete")" != "$want" ]; then
	echo "bench: fetching the sample ($want) into $cache"
	rm -rf "$cache/debs" "$cache/debs.tmp" "$cache/list" "$cache/.complete"
	apt_state "$cache/apt" "$suite"
	packages_index | awk -v lo="$lo" -v hi="$hi" 'BEGIN { RS = ""; FS = "\n" }
	{
		name = ver = arch = ""; size = -1
		for (i = 1; i <= NF; i++)
			if ($i ~ /^Package: /) name = substr($i, 10)
			else if ($i ~ /^Version: /) ver = substr($i, 10)
			else if ($i ~ /^Architecture: /) arch = substr($i, 15)
			else if ($i ~ /^Installed-Size: /) size = substr($i, 17) + 0
		if (arch == "amd64" && size >= lo && size < hi)
			print name, ver
	}' | LC_ALL=C sort -k1,1 |
	    awk -v k="$every" -v n="$count" '(NR - 1) % k == 0 && c < n { print $1 "=" $2; c++ }' \
	    >"$cache/wanted"
	[ "$(wc -l <"$cache/wanted")" -eq "$count" ] ||
	    { echo "bench: the index has too few packages for the sample" >&2; exit 2; }
	mkdir -p "$cache/debs.tmp"
	# shellcheck disable=SC2046 # the packages, one a word
	(cd "$cache/debs.tmp" && nice apt-get -q download $(cat "$cache/wanted")) >"$cache/apt/download.log" 2>&1 ||
	    { tail "$cache/apt/download.log" >&2; echo "bench: apt-get download failed" >&2; exit 2; }
	# The list: each package's place in the sample, and its file.
	for f in "$cache"/debs.tmp/*.deb; do
		printf '%s %s\n' "$(dpkg-deb -f "$f" Package)" "${f##*/}"
	done | LC_ALL=C sort -k1,1 >"$cache/files"
	cut -d= -f1 "$cache/wanted" | awk '{ print NR - 1, $1 }' | LC_ALL=C sort -k2,2 |
	    LC_ALL=C join -1 2 -2 1 - "$cache/files" | awk '{ print $2, $3 }' | sort -n >"$cache/list"
	[ "$(wc -l <"$cache/list")" -eq "$count" ] ||
	    { echo "bench: apt-get download gave $(wc -l <"$cache/list") of $count packages" >&2; exit 2; }
	mv "$cache/debs.tmp" "$cache/debs"
	printf '%s\n' "$want" >"$cache/.complete"
fi

# trixie main amd64, counted once: its packages and their bytes, those of
# Architecture amd64 apart (the rest are "all"), and the date of its Release.
trixie=$cache/trixie-main-amd64
if [ ! -s "$trixie" ]; then
	if apt_state "$cache/apt-trixie" trixie; then
		packages_index | awk 'BEGIN { RS = ""; FS = "\n" }
		{
			for (i = 1; i <= NF; i++)
				if ($i ~ /^Size: /) size = substr($i, 7)
				else if ($i ~ /^Architecture: /) arch = substr($i, 15)
			s += size
			if (arch == "amd64") { na++; sa += size }
		}
		END { printf "%d %.0f %d %.0f", NR, s, na, sa }' >"$trixie.tmp"
		printf ' %s\n' "$(sed -n 's/^Date: //p' "$cache"/apt-trixie/lists/*_trixie_*Release | head -1 | tr ' ' _)" \
		    >>"$trixie.tmp"
		mv "$trixie.tmp" "$trixie"
	else
		echo "bench: the mirror has no trixie index: no extrapolation"
	fi
fi
unset APT_CONFIG

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The sets: a, the repository (all but the held back); b, a with its 100th,
# 200th, ... replaced by the held back, 1% of it changed.
awk -v s="$spare" '$1 % s != s - 1 { print $2 }' "$cache/list" >"$out/a"
awk -v s="$spare" '$1 % s == s - 1 { print $2 }' "$cache/list" >"$out/spare"
awk 'NR % 100 != 0' "$out/a" | cat - "$out/spare" >"$out/b"
n=$(wc -l <"$out/a")
changed=$(wc -l <"$out/spare")

# The index of every package of the cache, once; then each set's.
mkdir -p "$out/all/pool/main" "$out/repo/pool/main"
for f in "$cache"/debs/*.deb; do
	ln "$f" "$out/all/pool/main/" 2>/dev/null || cp "$f" "$out/all/pool/main/"
done
(cd "$out/all" && dpkg-scanpackages -m pool /dev/null 2>/dev/null) >"$out/Packages"
for set in a b; do
	awk 'NR == FNR { want["pool/main/" $1] = 1; next }
	    { for (i = 1; i <= NF; i++) if ($i ~ /^Filename: /) f = substr($i, 11) }
	    f in want { print; print "" }' "$out/$set" RS= FS='\n' "$out/Packages" \
	    >"$out/Packages.$set"
	[ "$(grep -c '^Package: ' "$out/Packages.$set")" -eq "$(wc -l <"$out/$set")" ] ||
	    { echo "bench: the index of set $set is not its packages" >&2; exit 2; }
done
# use SET: the repository's pool and index are SET's.
use() {
	find "$out/repo/pool/main" -type f -delete
	while read -r f; do
		ln "$out/all/pool/main/$f" "$out/repo/pool/main/" 2>/dev/null ||
		    cp "$out/all/pool/main/$f" "$out/repo/pool/main/"
	done <"$out/$1"
	d=$out/repo/dists/$suite/main/binary-amd64
	mkdir -p "$d"
	cp "$out/Packages.$1" "$d/Packages"
	xz -kf "$d/Packages"
	(cd "$out/repo/dists/$suite" &&
	    apt-ftparchive -o APT::FTPArchive::Release::Components=main \
	    release . >Release.new && mv Release.new Release)
}
use a
repo="apt:$out/repo:$suite:main"
debs=$(awk '$1 == "Size:" { s += $2 } END { printf "%.0f", s }' "$out/Packages.a")

store=no
# Asked of elfscan itself: the short list of --help need not name it. An
# elfscan without it refuses the option before --version.
if "$elfscan" --store "$out/probe" --version >/dev/null 2>&1; then
	store=yes
else
	echo "bench: this elfscan has no --store: the store rows are left out"
fi
cold=yes
if [ "$cold_rounds" -eq 0 ]; then
	cold=no
elif [ "$(id -u)" != 0 ] || ! { sync && echo 3 >/proc/sys/vm/drop_caches; } 2>/dev/null; then
	echo "bench: cold runs left out: dropping the page cache (/proc/sys/vm/drop_caches) needs root"
	cold=no
fi

# one NAME CMD...: append "wall kilobytes cpu blocks" (seconds; the blocks
# read from the disk) of one run to $out/t.NAME, the load average after it
# to $out/load; before it, in a cold round, drop the page cache. A run that
# fails ends the benchmark.
one() {
	name=$1
	shift
	if [ "$mode" = cold ]; then
		sync
		echo 3 >/proc/sys/vm/drop_caches
	fi
	st=0
	"$GNU_TIME" -f '%e %M %U %S %I' -o "$out/time" "$@" >/dev/null 2>"$out/err" || st=$?
	# elfscan's 1 is findings; 2, or any failure of the others, is not a
	# run to time.
	case $name in floor | sha256) most=0 ;; *) most=1 ;; esac
	if [ "$st" -gt "$most" ]; then
		echo "bench: $name: exit $st: $(head -1 "$out/err")" >&2
		exit 2
	fi
	# GNU time puts "Command exited with non-zero status" first when the
	# scan has findings.
	tail -1 "$out/time" | awk '{ printf "%s %s %.2f %s\n", $1, $2, $3 + $4, $5 }' >>"$out/t.$name"
	cut -d' ' -f1 /proc/loadavg >>"$out/load"
}
# The floor and the digests, as commands for GNU time: sh -c "$floor" POOL
# JOBS, sh -c "$digests" POOL.
floor='find "$0" -name "*.deb" -print0 | xargs -0 -n 1 -P "$1" sh -c '\''dpkg-deb --fsys-tarfile "$1" >/dev/null && dpkg-deb --ctrl-tarfile "$1" >/dev/null'\'' sh'
digests='find "$0" -name "*.deb" -print0 | xargs -0 sha256sum'
pool=$out/repo/pool/main
# round: one run of each; the store rows on a fresh store, then unchanged,
# then after set b replaced set a (put back after).
round() {
	one floor sh -c "$floor" "$pool" "$jobs"
	one sha256 sh -c "$digests" "$pool"
	one elfscan "$elfscan" --no-progress --format=json "$repo"
	[ "$store" = yes ] || return 0
	rm -f "$out/store" "$out/store"-*
	one store-first "$elfscan" --no-progress --format=json --store "$out/store" "$repo"
	one store-same "$elfscan" --no-progress --format=json --store "$out/store" "$repo"
	one store-system "$elfscan" --no-progress --format=json --system --store "$out/store" "$repo"
	use b
	one store-changed "$elfscan" --no-progress --format=json --store "$out/store" "$repo"
	use a
}

# opened: the pool files the run in $out/strace opened, one a line.
opened() {
	sed -n 's/^[0-9]* *openat([^"]*"\([^"]*\.deb\)".*/\1/p' "$out/strace" |
	    grep -F "$pool/" | sort -u | sed 's,.*/,,'
}
# check: once, not timed, what the store's reruns read and say: the pool
# files each opens (strace -f, a count elfscan does not make itself), and
# the records of the unchanged rerun against the first run's.
check() {
	if ! command -v strace >/dev/null; then
		echo "  (strace missing: what the reruns read is not counted)"
		return 0
	fi
	rm -f "$out/store" "$out/store"-*
	"$elfscan" --no-progress --format=json --store "$out/store" "$repo" >"$out/first.json" 2>/dev/null || true
	strace -f -qq -e trace=openat -o "$out/strace" \
	    "$elfscan" --no-progress --format=json --store "$out/store" "$repo" >"$out/same.json" 2>/dev/null || true
	opened >"$out/opened.same"
	use b
	strace -f -qq -e trace=openat -o "$out/strace" \
	    "$elfscan" --no-progress --format=json --store "$out/store" "$repo" >/dev/null 2>/dev/null || true
	opened >"$out/opened.changed"
	use a
	sort "$out/first.json" >"$out/first.sorted"
	sort "$out/same.json" >"$out/same.sorted"
	echo "  packages the unchanged rerun opened (strace): $(wc -l <"$out/opened.same")$(sed 's/_.*//' "$out/opened.same" | paste -sd' ' - | sed 's/^./ (&/; s/.$/&)/')"
	echo "  packages the $changed changed rerun opened: $(wc -l <"$out/opened.changed") ($(grep -cxFf "$out/spare" "$out/opened.changed") of the $changed new)"
	echo "  the unchanged rerun's JSON Lines against the first run's: $(comm -13 "$out/first.sorted" "$out/same.sorted" | wc -l) records more, $(comm -23 "$out/first.sorted" "$out/same.sorted" | wc -l) fewer"
}

label() {
	case $1 in
	floor) echo "floor (dpkg-deb, -P $jobs)" ;;
	sha256) echo "sha256sum, serial" ;;
	elfscan) echo "elfscan" ;;
	store-first) echo "--store, first run" ;;
	store-same) echo "--store, unchanged" ;;
	store-system) echo "--system --store" ;;
	store-changed) echo "--store, $changed changed" ;;
	esac
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
wall() { cut -d' ' -f1 "$out/t.$1" | median; }
cpu() { cut -d' ' -f3 "$out/t.$1" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }

# peak WHAT FILE: the highest peak memory of the runs in FILE; warm, of
# the runs that read nothing from the disk, those that did counted apart
# (elfscan starts more walkers while the disk is read: run.sh).
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

# report WHAT ROUNDS NAME...: the medians of each, and the ratios
report() {
	what=$1 r=$2
	shift 2
	echo "$what, medians of $r:"
	for name in "$@"; do
		[ -s "$out/t.$name" ] || continue
		awk -v l="$(label "$name")" -v w="$(wall "$name")" -v c="$(cpu "$name")" \
		    -v lo="$(cut -d' ' -f1 "$out/t.$name" | sort -n | head -1)" \
		    -v hi="$(cut -d' ' -f1 "$out/t.$name" | sort -n | tail -1)" \
		    -v m="$(peak "$what" "$out/t.$name")" -v n="$n" -v b="$debs" 'BEGIN {
			printf "  %-24s %8.3f s wall (%.3f to %.3f), %7.2f s CPU, %6.1f packages/s, %6.1f MB/s of .deb, peak %s\n", l, w, lo, hi, c, (w > 0 ? n / w : 0), (w > 0 ? b / w / 1e6 : 0), m
		}'
	done
	echo "  ratio elfscan/floor: $(ratio "$(wall elfscan)" "$(wall floor)") wall, $(ratio "$(cpu elfscan)" "$(cpu floor)") CPU"
	if [ "$store" = yes ]; then
		echo "  ratio --store first run/elfscan: $(ratio "$(wall store-first)" "$(wall elfscan)") wall"
		echo "  ratio --store unchanged/first run: $(ratio "$(wall store-same)" "$(wall store-first)") wall, $(ratio "$(cpu store-same)" "$(cpu store-first)") CPU"
		echo "  ratio --system --store/first run: $(ratio "$(wall store-system)" "$(wall store-first)") wall"
		echo "  ratio --store $changed changed/first run: $(ratio "$(wall store-changed)" "$(wall store-first)") wall, $(ratio "$(cpu store-changed)" "$(cpu store-first)") CPU"
	fi
	echo "  load average (1 min) during the runs: $(sort -n "$out/load" | awk '{ v[NR] = $1 } END { printf "%s to %s, median %s", v[1], v[NR], v[int((NR + 1) / 2)] }')"
}

# extrapolate WHAT: the packages of trixie main amd64 at elfscan's
# packages/s and MB/s, on one machine and on N: by the medians' wall time,
# and by their CPU time over the CPUs, what an idle machine would take.
extrapolate() {
	[ -s "$trixie" ] || return 0
	read -r tn tb _ <"$trixie"
	awk -v w="$(wall elfscan)" -v c="$(cpu elfscan)" -v j="$jobs" -v n="$n" -v b="$debs" \
	    -v tn="$tn" -v tb="$tb" -v what="$1" 'BEGIN {
		if (w <= 0)
			exit
		split("4 16 64", s, " ")
		for (k = 1; k <= 2; k++) {
			t = k == 1 ? w : c / j
			byn = tn * t / n; byb = tb * t / b
			printf "  trixie, %s, by %s: %.1f h by packages/s, %.1f h by MB/s;", what, k == 1 ? "wall time" : "CPU time / " j " CPUs", byn / 3600, byb / 3600
			for (i = 1; i <= 3; i++)
				printf " %d shards %.1f to %.1f min%s", s[i], byn / s[i] / 60, byb / s[i] / 60, i < 3 ? "," : "\n"
		}
	}'
}

echo "machine: $(nproc) CPUs ($(lscpu | sed -n 's/^Model name: *//p' | head -1)), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -r), disk $(lsblk -dno NAME,SIZE,ROTA "$(df --output=source "$out" | tail -1)" 2>/dev/null | awk '{ print $1, $2, ($3 ? "rotational" : "not rotational") }'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "elfscan: $("$elfscan" --version | paste -sd, - | sed "s/,/, /g")"
# Fill the cache; count the tar bytes and ELF images.
tars=$(find "$pool" -name '*.deb' -print0 | xargs -0 -n 1 -P "$jobs" sh -c \
    'dpkg-deb --fsys-tarfile "$1" | wc -c; dpkg-deb --ctrl-tarfile "$1" | wc -c' sh |
    awk '{ s += $1 } END { printf "%.0f", s }')
images=$("$elfscan" --no-progress --format=json --summary "$repo" 2>/dev/null | tail -1 |
    sed -n 's/.*"images":\([0-9]*\).*/\1/p')
echo "sample: $n packages of $suite main amd64 ($(awk -v b="$debs" 'BEGIN { printf "%.0f", b / 1e6 }') MB of .deb, $(awk -v b="$tars" 'BEGIN { printf "%.0f", b / 1e6 }') MB of tar, ${images:-?} ELF images; list sha256 $(sha256sum <"$out/a" | cut -c1-12)); $changed held back for the changed index"
[ ! -s "$trixie" ] || awk '{ printf "trixie main amd64: %d packages, %.1f GB (Architecture amd64: %d, %.1f GB), index of %s\n", $1, $2 / 1e9, $3, $4 / 1e9, $5 }' "$trixie" | tr _ ' '
mode=warm
: >"$out/load"
round
rm -f "$out"/t.* "$out/load"
names="floor sha256 elfscan store-first store-same store-system store-changed"
i=0
while [ "$i" -lt "$rounds" ]; do
	round
	i=$((i + 1))
done
report warm "$rounds" $names
[ "$store" = no ] || check
extrapolate warm
if [ "$cold" = yes ]; then
	mode=cold
	rm -f "$out"/t.* "$out/load"
	i=0
	while [ "$i" -lt "$cold_rounds" ]; do
		round
		i=$((i + 1))
	done
	report "cold (after drop_caches)" "$cold_rounds" $names
	extrapolate cold
fi
