#!/bin/sh
# Two chstk at once on one file: one asks for exec (-e), the other for
# noexec (-E), on a program that has neither, so both must write. Each time
# the file ends as exactly one of the two results (byte for byte what
# either alone writes), readelf reads the state that result has, the
# program runs with the stack that state gives, each chstk either
# succeeded or refused with "the file changed while it was being
# rewritten" (and at least one succeeded), and no temporary file is left;
# with O_TMPFILE and with named temporary files.
#  - The overlaps are made on purpose first, not left to the scheduler:
#    failshim.so stops one chstk just before a step of its write path (the
#    creation of its temporary file, the write of the change, fsync, the
#    rename) and runs the other whole, in each order.
#  - Then CONCURRENT_ROUNDS times (200 by default) the two are started
#    together and the scheduler decides; how those rounds ended is printed
#    as "figure:" lines, and no verdict rests on it.
. "$top_srcdir/tests/lib.sh"
need gcc cmp readelf
: "${FAILSHIM:?}"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
rounds=${CONCURRENT_ROUNDS:-200}

D=$T/d
mkdir "$D"
gcc -o "$T/default" "$FIX/hello.c" && "$CHSTK" -D "$T/default" ||
    fail "build an unmarked program"
expect "the program starts unmarked" "$(readelf_stack "$T/default")" none
for op in -e -E; do
	cp "$T/default" "$T/result$op"
	"$CHSTK" $op "$T/result$op" || fail "chstk $op alone"
done
expect "-e alone gives exec" "$(readelf_stack "$T/result-e")" RWE
expect "-E alone gives noexec" "$(readelf_stack "$T/result-E")" RW

# A status and a message that one chstk of a pair may end with.
allowed() {
	[ "$1" = 0 ] && [ ! -s "$2" ] && return 0
	[ "$1" = 1 ] && [ "$(cat "$2")" = \
	    "chstk: $D/prog: the file changed while it was being rewritten" ]
}

# judge NAME STATUS-E ERR-E STATUS-E ERR-E: the checks of one overlap.
judge() {
	if allowed "$2" "$3" && allowed "$4" "$5" && [ "$2" = 0 -o "$4" = 0 ]; then
		pass "$1: each succeeded or refused cleanly (-e $2, -E $4)"
	else
		fail "$1: -e: $2 $(cat "$3"); -E: $4 $(cat "$5")"
	fi
	if cmp -s "$D/prog" "$T/result-e"; then
		want=RWE state=exec
	elif cmp -s "$D/prog" "$T/result-E"; then
		want=RW state=noexec
	else
		fail "$1: the file is neither result"
		cp "$D/prog" "$T/broken-$1"
		return
	fi
	expect "$1: readelf reads $state" "$(readelf_stack "$D/prog")" $want
	expect "$1: runs with the stack $state gives" "$("$D/prog" | stack_of)" \
	    "$(expected_stack $state 64)"
	expect "$1: no temporary file" "$(find "$D" -name '*.chstk-*' | wc -l)" 0
}
# inside OUTER INNER CALL MODE: chstk OUTER stopped just before CALL runs
# chstk INNER to its end.
inside() {
	cp "$T/default" "$D/prog"
	env $4 FAILSHIM_CALL=$3 LD_PRELOAD="$FAILSHIM" \
	    FAILSHIM_RUN="\"$CHSTK\" $2 \"$D/prog\" 2>\"$T/err$2\"; echo \$? >\"$T/status$2\"" \
	    "$CHSTK" $1 "$D/prog" 2>"$T/err$1"
	echo $? >"$T/status$1"
	name="$1 stopped before $3 ${4:+(named temporary files) }while $2 ran"
	[ -s "$T/status$2" ] || { fail "$name: $2 did not run"; return; }
	judge "$name" "$(cat "$T/status-e")" "$T/err-e" "$(cat "$T/status-E")" "$T/err-E"
	rm -f "$T/status-e" "$T/status-E"
}
for mode in "" FAILSHIM_NO_TMPFILE=1; do
	for call in openat pwrite fsync renameat; do
		inside -e -E $call "$mode"
		inside -E -e $call "$mode"
	done
done

won_e=0 won_E=0 both=0 one=0 bad=0 badstatus=0 left=0
i=0
while [ $i -lt "$rounds" ]; do
	i=$((i + 1))
	[ $((i % 2)) = 0 ] && mode=FAILSHIM_NO_TMPFILE=1 || mode=
	cp "$T/default" "$D/prog"
	env $mode LD_PRELOAD="$FAILSHIM" "$CHSTK" -e "$D/prog" 2>"$T/err-e" &
	a=$!
	env $mode LD_PRELOAD="$FAILSHIM" "$CHSTK" -E "$D/prog" 2>"$T/err-E" &
	b=$!
	wait $a
	sa=$?
	wait $b
	sb=$?
	if allowed $sa "$T/err-e" && allowed $sb "$T/err-E" &&
	    [ $sa = 0 -o $sb = 0 ]; then
		[ $sa = 0 ] && [ $sb = 0 ] && both=$((both + 1)) || one=$((one + 1))
	else
		badstatus=$((badstatus + 1))
		echo "round $i: -e: $sa $(cat "$T/err-e"); -E: $sb $(cat "$T/err-E")"
	fi
	if cmp -s "$D/prog" "$T/result-e"; then
		won_e=$((won_e + 1)) want=RWE state=exec
	elif cmp -s "$D/prog" "$T/result-E"; then
		won_E=$((won_E + 1)) want=RW state=noexec
	else
		bad=$((bad + 1)) want=none
		cp "$D/prog" "$T/broken-$i"
	fi
	if [ $want != none ] && { [ "$(readelf_stack "$D/prog")" != $want ] ||
	    [ "$("$D/prog" | stack_of)" != "$(expected_stack $state 64)" ]; }; then
		bad=$((bad + 1))
	fi
	left=$((left + $(find "$D" -name '*.chstk-*' | wc -l)))
done
expect "$rounds rounds: the file was always one of the two results, sound" "$bad" 0
expect "$rounds rounds: each chstk succeeded or refused cleanly" "$badstatus" 0
expect "$rounds rounds: no temporary file left" "$left" 0
echo "figure: $rounds rounds: ended exec $won_e times, noexec $won_E times; both succeeded $both times (the later rename won), one refused $one times"
finish
