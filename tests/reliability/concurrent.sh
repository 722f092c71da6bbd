#!/bin/sh
# Two chstk at once on one file, CONCURRENT_ROUNDS times (200 by default),
# half with O_TMPFILE and half with named temporary files: one asks for
# exec (-e), the other for noexec (-E), on a program that has neither, so
# both must write. Each round the file ends as exactly one of the two
# results (byte for byte what either alone writes), readelf reads the
# state that result has, the program runs with the stack that state gives,
# each chstk either succeeded or refused with "the file changed while it
# was being rewritten" (and at least one succeeded), and no temporary file
# is left. How the rounds ended is printed as "figure:" lines.
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
[ $won_e -gt 0 ] && [ $won_E -gt 0 ] && pass "both orders happened" ||
    fail "one side always won: the two never raced"
finish
