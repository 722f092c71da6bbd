#!/bin/sh
# SIGKILL during a rewrite: chstk rewrites a 6 MB program (its data random,
# so that no mix of old and new could pass for either), toggling it between
# noexec (-E) and exec (-e), and after every kill the program is byte for
# byte the old or the new version, nothing else, with O_TMPFILE and with
# named temporary files.
#  - At each step of the write path in turn, failshim.so has chstk killed
#    just before the call (the creation of the temporary file, the copy,
#    each write, fsync, fchown, fchmod, the naming of an O_TMPFILE, the
#    rename): where a kill lands is decided by the test, not by timing, so
#    the kills that matter (while the temporary file is being written) are
#    made every time. Before the rename the file must be the old version.
#  - Then KILL_ROUNDS times (400 by default) at a random moment spread over
#    the length of a whole run. failshim.so logs when the temporary file
#    is created and renamed, which tells where each kill landed; the counts
#    are printed as "figure:" lines, and no verdict rests on them.
# A kill between the naming of a temporary file and the rename leaves that
# file (for named ones, any kill after their creation does); they are
# counted, and removed.
. "$top_srcdir/tests/lib.sh"
need gcc cmp readelf od
: "${FAILSHIM:?}"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
KILLAT=$top_builddir/tests/reliability/killat
rounds=${KILL_ROUNDS:-400}

D=$T/d
mkdir "$D"
head -c 6000000 /dev/urandom >"$T/random"
printf '\t.section .rodata\n\t.incbin "%s"\n\t.section .note.GNU-stack,"",@progbits\n' \
    "$T/random" >"$T/blob.s"
gcc -o "$T/old" "$FIX/hello.c" "$T/blob.s" || fail "build the program"
cp "$T/old" "$T/new"
"$CHSTK" -e "$T/new" || fail "chstk -e"
expect "the old version: noexec" "$(readelf_stack "$T/old")" RW
expect "the new version: exec" "$(readelf_stack "$T/new")" RWE
expect "the new version runs with an executable stack" \
    "$("$T/new" | stack_of)" "$(expected_stack exec 64)"
cp "$T/new" "$D/prog"
"$CHSTK" -E "$D/prog"
cmp -s "$D/prog" "$T/old" && pass "-E gives the old version back" ||
    fail "-E does not give the old version back"
expect "the versions differ in 1 byte" "$(cmp -l "$T/old" "$T/new" | wc -l)" 1

# The kills at each step: "kill -KILL $PPID" is run by failshim.so in a
# shell whose parent is chstk, just before the call.
killed_at() {	# NAME OP VAR=VALUE...
	name=$1 op=$2
	shift 2
	cp "$T/old" "$D/prog"
	[ "$op" = -E ] && cp "$T/new" "$D/prog"
	(env "$@" FAILSHIM_RUN='kill -KILL $PPID' LD_PRELOAD="$FAILSHIM" \
	    "$CHSTK" "$op" "$D/prog") 2>/dev/null
	expect "$name: killed" "$?" 137
	if [ "$op" = -E ]; then
		cmp -s "$D/prog" "$T/new" && pass "$name: the file as it was" ||
		    fail "$name: not the file as it was"
	else
		cmp -s "$D/prog" "$T/old" && pass "$name: the file as it was" ||
		    fail "$name: not the file as it was"
	fi
	find "$D" -name '*.chstk-*' -delete
}
for mode in tmpfile named; do
	[ $mode = named ] && set -- FAILSHIM_NO_TMPFILE=1 || set --
	for op in -e -E; do
		m="$mode temp, $op"
		killed_at "$m: creating it" $op "$@" FAILSHIM_CALL=openat
		killed_at "$m: copy_file_range" $op "$@" FAILSHIM_CALL=copy_file_range
		killed_at "$m: the first write" $op "$@" FAILSHIM_NO_COPY_FILE_RANGE=1 \
		    FAILSHIM_CALL=pwrite
		killed_at "$m: the second write" $op "$@" FAILSHIM_NO_COPY_FILE_RANGE=1 \
		    FAILSHIM_CALL=pwrite FAILSHIM_NTH=2
		killed_at "$m: the write of the change" $op "$@" FAILSHIM_CALL=pwrite
		killed_at "$m: fsync" $op "$@" FAILSHIM_CALL=fsync
		killed_at "$m: fchmod" $op "$@" FAILSHIM_CALL=fchmod
		killed_at "$m: the rename" $op "$@" FAILSHIM_CALL=renameat
	done
done
killed_at "naming the O_TMPFILE" -e FAILSHIM_CALL=linkat
expect "no other file appeared" "$(ls -A "$D")" prog

# How long a whole run takes, through the same wrapper and shim.
run() {
	env LD_PRELOAD="$FAILSHIM" FAILSHIM_LOG="$T/log" $mode_env \
	    "$KILLAT" "$1" "$CHSTK" "$2" "$D/prog"
}
mode_env=
full=0
for i in 1 2 3; do
	cp "$T/old" "$D/prog"
	set -- $(run $((hang * 1000000)) -e) - - -
	[ "$1" = exited ] && [ "$2" = 0 ] || { fail "an unhurried run: $*"; finish; }
	[ "$3" -gt "$full" ] && full=$3
done
echo "figure: a whole run takes up to $full us"
span=$((full * 13 / 10))

random() { od -An -N4 -tu4 /dev/urandom | tr -d ' '; }

before=0 during=0 after=0 finished=0 bad=0 left_tmpfile=0 left_named=0
cp "$T/old" "$D/prog"
i=0
while [ $i -lt "$rounds" ]; do
	i=$((i + 1))
	if [ $((i % 2)) = 0 ]; then
		mode_env=FAILSHIM_NO_TMPFILE=1
	else
		mode_env=
	fi
	cmp -s "$D/prog" "$T/old" && op=-e || op=-E
	rm -f "$T/log"
	set -- $(run $(($(random) % span)) $op) -
	if cmp -s "$D/prog" "$T/old" || cmp -s "$D/prog" "$T/new"; then
		:
	else
		bad=$((bad + 1))
		cp "$D/prog" "$T/broken-$i"
		cp "$T/old" "$D/prog"
	fi
	if [ "$1" = exited ]; then
		finished=$((finished + 1))
	elif grep -q rename "$T/log" 2>/dev/null; then
		after=$((after + 1))
	elif grep -q create "$T/log" 2>/dev/null; then
		during=$((during + 1))
	else
		before=$((before + 1))
	fi
	n=$(find "$D" -name '*.chstk-*' | wc -l)
	if [ -n "$mode_env" ]; then
		left_named=$((left_named + n))
	else
		left_tmpfile=$((left_tmpfile + n))
	fi
	find "$D" -name '*.chstk-*' -delete
done
expect "$i kills: the file was always the old or the new version" "$bad" 0
echo "figure: $i rounds: killed before the temporary file $before, while writing it $during, after the rename $after; finished first $finished"
echo "figure: temporary files left by a kill: $left_tmpfile with O_TMPFILE, $left_named named"
expect "no other file appeared" "$(ls -A "$D")" prog
finish
