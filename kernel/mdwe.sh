#!/bin/sh
# mdwe.sh: the MemoryDenyWriteExecute oracle. Boots a Linux 6.12 x86-64
# kernel of kernel/ under qemu and runs programs there as systemd starts a
# service with MemoryDenyWriteExecute=yes: a static wrapper
# (test/mdwe-exec.c) sets prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN)
# and execs the program, which inherits the flag. Each program runs
# twice, without the prctl (the control) and with it, and the report says
# what happened. What MDWE does is then the booted kernel's answer, not
# the host's, whatever kernel the host runs.
#
#   mdwe.sh [-r ROOT] [-t SECONDS] -o DIR PLAN
#
# PLAN, one instruction a line (words split at blanks; # starts a comment):
#   run NAME [VAR=VALUE...] PROGRAM [ARG...]
#           run PROGRAM, an absolute path in ROOT, with the ARGs and with
#           VAR=VALUE in its environment (as Environment= in a unit);
#           NAME ([A-Za-z0-9._-], unique) names it in the report
#   file PATH
#           put PATH from ROOT in the guest too (a library the program
#           dlopens, a file it reads)
#   limit SECONDS
#           the time limit of the runs that follow (instead of -t's)
# The guest holds every PROGRAM and PATH at its path in ROOT, with the
# dynamic linker and the libraries each ELF file needs, found as ld.so
# finds them in ROOT (DT_RPATH or DT_RUNPATH with $ORIGIN, ROOT's
# /etc/ld.so.cache, the default directories), and the symbolic links of
# ROOT on the way, so that paths resolve in the guest as in ROOT. A
# library found nowhere is listed in DIR/unresolved, and ld.so's own
# message about it shows in the run's output. LD_LIBRARY_PATH given to a
# run is not followed here: name what it would find with "file".
#
# Options: -r ROOT the tree the files come from (default /); -t SECONDS
# how long a run may take before it is killed and reported as "timeout"
# (default 30: a service that is still running); -o DIR where the report
# goes (made afresh):
#   DIR/results       NAME MODE VERDICT, one line per run and MODE, MODE
#                     "control" or "mdwe", VERDICT "exit N", "signal N",
#                     "timeout N" or "error TEXT"; the first run is always
#                     mdwe-exec, the wrapper printing what PR_GET_MDWE
#                     says after its own execve() ("PR_GET_MDWE 1" under
#                     MDWE: the flag was set and inherited)
#   DIR/out/NAME.MODE what the run printed on stdout and stderr
#   DIR/kernel        the guest's uname: release, version, machine
#   DIR/console.txt   the whole serial console
#
# The kernel is check-kernel.sh's, from the cache or built once (minutes;
# under a lock, so that two callers sharing a cache build it once):
#   MDWE_KERNEL        the directory under kernel/ (default 6.12)
#   MDWE_KERNEL_SERIES check-kernel.sh's KERNEL_SERIES (default none: the
#                      stock kernel, without the exec-shield series, which
#                      changes what an unmarked program's stack and
#                      READ_IMPLIES_EXEC are, the very things MDWE judges)
#   KERNEL_CACHE, KERNEL_JOBS, KERNEL_IMAGE, QEMU: as for check-kernel.sh
#   MDWE_WRAPPER=noprctl builds the wrapper without the prctl, for the
#                      negative control: then nothing is protected
# Exit status: 0 when the boot ran every run in both modes, 2 otherwise
# (a bad plan, a missing file, a failed build or boot).
# No word here is a pattern: globbing is off (-f).
set -euf

kdir=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(dirname "$kdir")
me=mdwe
: "${MDWE_KERNEL:=6.12}"
: "${MDWE_KERNEL_SERIES:=none}"
: "${MDWE_WRAPPER:=}"
: "${KERNEL_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/chstk/kernel}"
export LC_ALL=C KERNEL_CACHE
# ldconfig reads the root's cache; a user's PATH may lack the sbin ones.
PATH=$PATH:/usr/sbin:/sbin

die() {
	echo "$me: $*" >&2
	exit 2
}

usage() {
	echo "usage: mdwe.sh [-r ROOT] [-t SECONDS] -o DIR PLAN" >&2
	exit 2
}

root=/ seconds=30 dir=
while getopts r:t:o: opt; do
	case $opt in
	r) root=$OPTARG ;;
	t) seconds=$OPTARG ;;
	o) dir=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] && [ -n "$dir" ] || usage
plan=$1
case $seconds in '' | *[!0-9]* | 0) die "-t $seconds: not a number of seconds" ;; esac
[ -d "$root" ] || die "$root: not a directory"
[ -f "$plan" ] || die "$plan: no such file"
root=$(cd "$root" && pwd -P)
[ "$root" = / ] && root=
stage=$dir/initramfs

# ---- The guest's files ----

# Resolve PATH inside ROOT as the guest will, following ROOT's symbolic
# links (an absolute one from ROOT, not from the host's /); with LINKS
# "links", make the same links in the stage on the way. Sets resolved to
# the path in ROOT without links; fails if a component is missing.
resolve() {
	rest=${1#/} links=$2 resolved= hops=0
	while [ -n "$rest" ]; do
		comp=${rest%%/*}
		case $rest in */*) rest=${rest#*/} ;; *) rest= ;; esac
		case $comp in
		'' | .) continue ;;
		..) resolved=${resolved%/*}; continue ;;
		esac
		cur=$resolved/$comp
		if [ -L "$root$cur" ]; then
			hops=$((hops + 1))
			[ "$hops" -le 40 ] || return 1
			target=$(readlink "$root$cur")
			if [ "$links" = links ]; then
				mkdir -p "$stage$resolved"
				[ -L "$stage$cur" ] || ln -s "$target" "$stage$cur"
			fi
			case $target in /*) resolved= ;; esac
			rest=${target#/}${rest:+/$rest}
			continue
		fi
		[ -e "$root$cur" ] || return 1
		resolved=$cur
	done
}

# Whether PATH is a file in ROOT.
exists() {
	resolve "$1" nolinks && [ -f "$root$resolved" ]
}

# Put PATH from ROOT in the stage at PATH; queue it for its closure.
put() {
	resolve "$1" links || die "${root:-/}: $1: no such file"
	[ -f "$root$resolved" ] || die "${root:-/}: $1: not a regular file"
	if [ ! -f "$stage$resolved" ]; then
		mkdir -p "$stage${resolved%/*}"
		cp "$root$resolved" "$stage$resolved"
		printf '%s %s\n' "$1" "$resolved" >>"$dir/queue"
	fi
}

# The directories ld.so searches by default for a 32- or 64-bit object:
# Debian's multiarch ones first, then the classic ones.
default_dirs() {
	if [ "$1" = ELF32 ]; then
		echo /lib/i386-linux-gnu /usr/lib/i386-linux-gnu /lib32 /usr/lib32 /lib /usr/lib
	else
		echo /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 /usr/lib64 /lib /usr/lib
	fi
}

# The paths ROOT's ld.so.cache gives NAME for an object of CLASS, every
# one of them: which the guest's ld.so takes among equals is its business.
cache_paths() {
	[ -f "$dir/ldcache" ] || return 0
	awk -v name="$1" -v class="$2" '
		$1 == name && $NF ~ /^\// {
			flags = $0
			sub(/^[^(]*\(/, "", flags); sub(/\).*/, "", flags)
			if (flags ~ /x32/) next
			if ((class == "ELF64") != (flags ~ /x86-64/)) next
			print $NF
		}' "$dir/ldcache"
}

# Where ld.so finds the library NAME needed by the object at PATH (as the
# guest sees it; ORIGIN its directory for $ORIGIN): its DT_RUNPATH, or its
# DT_RPATH if it has none, then ROOT's cache, then the default
# directories. Prints every candidate the cache names, else the first hit.
find_lib() {
	name=$1 origin=$2 class=$3 search=$4
	case $name in */*) echo "$name"; return 0 ;; esac
	for d in $(echo "$search" | tr ':' ' '); do
		d=$(echo "$d" | sed "s|\\\$ORIGIN|$origin|g; s|\\\${ORIGIN}|$origin|g")
		if exists "$d/$name"; then
			echo "$d/$name"
			return 0
		fi
	done
	hits=$(cache_paths "$name" "$class")
	if [ -n "$hits" ]; then
		echo "$hits"
		return 0
	fi
	for d in $(default_dirs "$class"); do
		if exists "$d/$name"; then
			echo "$d/$name"
			return 0
		fi
	done
	return 1
}

# The closure of the queued files: each ELF file's interpreter and needed
# libraries, theirs in turn.
closure() {
	n=0
	while [ "$n" -lt "$(wc -l <"$dir/queue")" ]; do
		n=$((n + 1))
		# shellcheck disable=SC2046
		set -- $(sed -n "${n}p" "$dir/queue")
		path=$1 file=$root$2
		class=$(readelf -hW "$file" 2>/dev/null |
			awk '$1 == "Class:" { print $2 }') || true
		[ -n "$class" ] || continue
		interp=$(readelf -lW "$file" |
			sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
		[ -n "$interp" ] && put "$interp"
		dyn=$(readelf -dW "$file")
		search=$(echo "$dyn" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]$/\1/p')
		[ -n "$search" ] ||
			search=$(echo "$dyn" | sed -n 's/.*(RPATH).*\[\(.*\)\]$/\1/p')
		# $ORIGIN: the real directory of a program (ld.so reads
		# /proc/self/exe), the directory it was found in for a library.
		origin=${path%/*}
		[ -n "$interp" ] && origin=${2%/*}
		for lib in $(echo "$dyn" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
			if hits=$(find_lib "$lib" "$origin" "$class" "$search"); then
				for h in $hits; do put "$h"; done
			else
				echo "$path: $lib" >>"$dir/unresolved"
				echo "$me: $path: $lib: found nowhere in ${root:-/}, ld.so will say so" >&2
			fi
		done
	done
}

# ---- The plan ----

# The guest's plan: NAME, seconds and argv, tab-separated, the wrapper's
# self-report first.
read_plan() {
	printf 'mdwe-exec\t%s\t/.mdwe/exec\t-q\n' "$seconds" >"$stage/.mdwe/plan"
	names=" mdwe-exec "
	lineno=0
	while read -r verb rest; do
		lineno=$((lineno + 1))
		case $verb in '' | '#'*) continue ;; esac
		# shellcheck disable=SC2086
		set -- $rest
		case $verb in
		run)
			[ $# -ge 2 ] || die "$plan:$lineno: run needs NAME and PROGRAM"
			name=$1
			shift
			case $name in *[!A-Za-z0-9._-]*) die "$plan:$lineno: $name: not a name" ;; esac
			case $names in *" $name "*) die "$plan:$lineno: $name: named twice" ;; esac
			names="$names$name "
			prog=
			for w in "$@"; do
				case $w in /*) prog=$w; break ;; *=*) ;; *) break ;; esac
			done
			[ -n "$prog" ] || die "$plan:$lineno: $name: no absolute PROGRAM"
			put "$prog"
			line=$(printf '%s\t%s' "$name" "$seconds")
			for w in "$@"; do line=$(printf '%s\t%s' "$line" "$w"); done
			printf '%s\n' "$line" >>"$stage/.mdwe/plan"
			;;
		limit)
			[ $# -eq 1 ] || die "$plan:$lineno: limit needs SECONDS"
			case $1 in '' | *[!0-9]* | 0) die "$plan:$lineno: $1: not a number of seconds" ;; esac
			seconds=$1
			;;
		file)
			[ $# -eq 1 ] || die "$plan:$lineno: file needs one PATH"
			case $1 in /*) ;; *) die "$plan:$lineno: $1: not an absolute path" ;; esac
			put "$1"
			;;
		*) die "$plan:$lineno: $verb: not run, file or limit" ;;
		esac
	done <"$plan"
}

# ---- The boot ----

build_guest() {
	cflags="-O2 -Wall -Wextra -Werror -z noexecstack -static"
	wrapper=
	[ "$MDWE_WRAPPER" = noprctl ] && wrapper=-DMDWE_EXEC_NO_PRCTL
	# shellcheck disable=SC2086
	gcc $cflags -o "$stage/init" "$kdir/test/mdwe-init.c" \
		"$kdir/test/initlib.c" || die "mdwe-init.c: does not build"
	# shellcheck disable=SC2086
	gcc $cflags $wrapper -o "$stage/.mdwe/exec" "$kdir/test/mdwe-exec.c" ||
		die "mdwe-exec.c: does not build"
}

# check-kernel.sh with this kernel's settings; the kernel is built for gcc,
# make's default, which is what its cache key names.
check_kernel() {
	env top_srcdir="$top_srcdir" workdir="$dir/work" CC=gcc \
		KERNEL_VERSIONS="$MDWE_KERNEL" KERNEL_SERIES="$MDWE_KERNEL_SERIES" \
		sh "$kdir/check-kernel.sh" "$@"
}

# The console's MDWE lines into DIR/results, DIR/out and DIR/kernel; fails
# unless the boot reached DONE with every run ended in both modes.
report() {
	log=$1
	cp "$log" "$dir/console.txt"
	mkdir -p "$dir/out"
	awk -v dir="$dir" '
		$1 == "MDWE-KERNEL" { sub(/^MDWE-KERNEL /, ""); print > (dir "/kernel") }
		$1 == "MDWE-OUT" {
			f = dir "/out/" $2 "." $3
			if (!(f in seen)) { seen[f] = 1; printf "" > f }
			sub(/^MDWE-OUT [^ ]* [^ ]* ?/, "")
			print >> f
		}
		$1 == "MDWE-END" { sub(/^MDWE-END /, ""); print > (dir "/results") }
	' "$log"
	: >>"$dir/results"
	grep -q '^DONE mdwe pass=[0-9]* fail=0$' "$log" ||
		die "the boot did not finish its runs, see $dir/console.txt"
	cut -f 1 "$stage/.mdwe/plan" | while read -r name; do
		for mode in control mdwe; do
			grep -q "^$name $mode " "$dir/results" ||
				die "$name $mode: no verdict, see $dir/console.txt"
		done
	done
}

rm -rf "$dir"
mkdir -p "$stage/.mdwe" "$stage/proc"
: >"$dir/queue"
if [ -f "$root/etc/ld.so.cache" ]; then
	ldconfig -p -C "$root/etc/ld.so.cache" >"$dir/ldcache" ||
		die "${root:-/}/etc/ld.so.cache: ldconfig cannot read it"
	put /etc/ld.so.cache
fi
read_plan
closure
build_guest
(cd "$stage" && find . | sort | cpio -o -H newc -R 0:0 --quiet) \
	>"$dir/initramfs.cpio"
mkdir -p "$KERNEL_CACHE"
# The build under the lock; the boot, from the cache, outside it.
(
	flock 9 || die "$KERNEL_CACHE/.mdwe.lock: cannot lock"
	check_kernel image >"$dir/image"
) 9>"$KERNEL_CACHE/.mdwe.lock" || die "$MDWE_KERNEL: no kernel"
log=$(check_kernel boot "$dir/initramfs.cpio" mdwe) || die "the boot failed"
report "$log"
