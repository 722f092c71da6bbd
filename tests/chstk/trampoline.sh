#!/bin/sh
# The marking does what the kernel enforces: a program that runs code on its
# stack (a GCC nested-function trampoline) faults once chstk -E marks it
# noexec, and runs again after chstk -e. Returned to the default, a 64-bit
# program faults and a 32-bit one runs (READ_IMPLIES_EXEC on i386; i386
# programs run through run32).
. "$top_srcdir/tests/lib.sh"
need gcc readelf
probe_i386

# run PROG: its output, or "signal N" when a signal killed it (i386
# programs through run32)
run() {
	( $r "$1" 2>/dev/null ); s=$?
	[ $s -gt 128 ] && echo "signal $((s - 128))"
}

for class in 64 32; do
	r=
	[ $class = 32 ] && r=run32
	p=$T/trampoline$class
	gcc -m$class -o "$p" "$FIX/trampoline.c" 2>/dev/null ||
	    { fail "build $class-bit trampoline"; continue; }
	expect "$class: gcc marked it exec" "$(readelf_stack "$p")" RWE
	expect "$class: runs as built" "$(run "$p")" "trampoline: 42"
	"$CHSTK" -E "$p"
	expect "$class: -E marks noexec" "$(readelf_stack "$p")" RW
	expect "$class: faults with a non-executable stack" "$(run "$p")" "signal 11"
	"$CHSTK" -e "$p"
	expect "$class: -e marks exec" "$(readelf_stack "$p")" RWE
	expect "$class: runs again with -e" "$(run "$p")" "trampoline: 42"
	"$CHSTK" -d "$p"
	expect "$class: -d returns it to the default" "$(readelf_stack "$p")" none
	if [ "$(expected_stack default $class)" = rwxp ]; then
		expect "$class: the default stack is executable" "$(run "$p")" "trampoline: 42"
	else
		expect "$class: the default stack is not executable" "$(run "$p")" "signal 11"
	fi
done
finish
