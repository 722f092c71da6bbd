#!/bin/sh
# check.sh SRCDIR DIR CACHE HOST...: for each HOST (s390x, i386), build
# chstk from the unconfigured SRCDIR in DIR/HOST (build.sh), run the Check
# unit tests there (under qemu-user where this kernel cannot run them), the
# equivalence test against this machine's build (equiv.sh) and, on i386,
# the large-file test (largefile.sh), and say how long each step took.
# The environment is tests/local.mk's (CHSTK, ELFSCAN, top_srcdir, ...) with
# GEN_SEEDS and UNIT_TESTS. Exits 1 if any step failed.
set -u
src=$1 dir=$2 cache=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
status=0
summary=

# step NAME LOG COMMAND...: run COMMAND, its output into LOG, and time it
step() {
	name=$1 log=$2
	shift 2
	t0=$(date +%s)
	if "$@" >"$log" 2>&1; then r=ok; else r=FAILED status=1; fi
	t=$(($(date +%s) - t0))
	line="$name: $r in ${t}s"
	echo "$line"
	[ "$r" = ok ] || tail -n 40 "$log"
	summary="$summary$line
"
}

unit() {	# BUILDDIR: the Check unit tests, through BUILDDIR/run
	# Only the unit tests: the rest of the suite is for this machine.
	make -C "$1" check-TESTS TESTS="$UNIT_TESTS" LOG_COMPILER="$1/run" \
	    check_PROGRAMS="$UNIT_TESTS" check_LTLIBRARIES= check_SCRIPTS= \
	    dist_check_SCRIPTS= &&
	    grep -q "^# PASS: *$(echo $UNIT_TESTS | wc -w)\$" "$1/test-suite.log"
}

for host in "$@"; do
	b=$dir/$host
	step "$host: build" "$dir/$host-build.log" \
	    sh "$here/build.sh" "$host" "$src" "$b" "$cache" || continue
	[ -x "$b/run" ] || continue
	step "$host: unit tests" "$dir/$host-unit.log" unit "$b"
	step "$host: equivalence" "$dir/$host-equiv.log" \
	    env HOST="$host" HOST_RUN="$b/run" sh "$here/equiv.sh"
	[ "$host" = i386 ] &&
	    step "$host: large files" "$dir/$host-largefile.log" \
	    env HOST="$host" HOST_RUN="$b/run" sh "$here/largefile.sh"
done
printf '\n%s' "$summary"
exit "$status"
