#!/bin/sh
# Real programs from two linkers (GNU ld; lld without PT_GNU_STACK, packed
# and with separate code), 64- and 32-bit, PIE, non-PIE, static and static
# PIE, stripped, and rewritten by patchelf (its strings moved to a segment
# of their own),
# taken through every option in turn. After each step: readelf shows the
# state the seed's rules give, a step that changes nothing leaves the file
# untouched, the program still runs with unchanged output, the running
# kernel gives its stack the permissions of that state, the program header
# layout stays sound, and eu-elflint finds nothing new. (On a kernel that
# does not run i386 programs, the 32-bit ones run under qemu-i386.)
. "$top_srcdir/tests/lib.sh"
need gcc clang ld.lld readelf eu-elflint gawk patchelf
probe_i386


LLD="clang -fuse-ld=lld -Wl,-z,nognustack"
set -- \
	gnu-pie-64 "gcc" \
	gnu-nopie-64 "gcc -no-pie" \
	gnu-static-64 "gcc -static" \
	gnu-staticpie-64 "gcc -static-pie" \
	gnu-pie-32 "gcc -m32" \
	gnu-nopie-32 "gcc -m32 -no-pie" \
	gnu-static-32 "gcc -m32 -static" \
	lld-pie-64 "$LLD" \
	lld-nopie-64 "$LLD -no-pie" \
	lld-static-64 "$LLD -static" \
	lld-sepcode-64 "$LLD -Wl,-z,separate-code" \
	lld-pie-32 "$LLD -m32" \
	lld-nopie-32 "$LLD -m32 -no-pie" \
	lld-static-32 "$LLD -m32 -static" \
	lld-sepcode-32 "$LLD -m32 -no-pie -Wl,-z,separate-code" \
	gnu-stripped-64 "gcc -s" \
	lld-patchelf-64 "$LLD" \
	lld-patchelf-32 "$LLD -m32"
# A run path too long for the old string table makes patchelf move it.
RPATH=/opt/a/run/path/long/enough/that/patchelf/must/move/the/dynamic/strings/elsewhere

while [ $# -gt 0 ]; do
	name=$1 cc=$2
	shift 2
	p=$T/$name
	class=${name##*-}
	run= kernel=yes
	[ "$class" = 32 ] && run=run32 && ! native32 && kernel=no
	# shellcheck disable=SC2086
	if ! $cc -O1 -o "$p" "$FIX/hello.c" 2>"$p.log"; then
		fail "$name: build: $(cat "$p.log")"
		continue
	fi
	case $name in *-patchelf-*)
		loads=$(readelf -lW "$p" | grep -c '^  LOAD')
		patchelf --set-rpath "$RPATH" "$p"
		expect "$name: patchelf rewrote the layout (a segment more)" \
		    "$(readelf -lW "$p" | grep -c '^  LOAD')" $((loads + 1))
	esac
	ref=$($run "$p" | work_of)
	lint0=$(lint "$p")
	state=$(state_of_flags "$(readelf_stack "$p")")
	case $name in lld-*) expect "$name: lld wrote no PT_GNU_STACK" "$state" default ;; esac
	for opt in -E -e -E -d -D -d -e -D -E -D -e; do
		want=$(state_after "$opt" "$state")
		before=$(stamp "$p")
		"$CHSTK" "$opt" "$p" || fail "$name: chstk $opt failed"
		got=$(state_of_flags "$(readelf_stack "$p")")
		expect "$name: chstk $opt ($state -> $want), by readelf" "$got" "$want"
		if [ "$want" = "$state" ]; then
			expect "$name: chstk $opt leaves it untouched" "$(stamp "$p")" "$before"
		fi
		if [ $kernel = yes ] || qemu_loads "$p"; then
			out=$($run "$p")
			expect "$name: $opt: output unchanged" "$(echo "$out" | work_of)" "$ref"
			expect "$name: $opt: kernel gives the stack" "$(echo "$out" | stack_of)" \
			    "$(expected_stack "$want" "$class")"
		else
			echo "not checked: $name: $opt: running it (qemu-i386's loader looks for the moved program headers at e_phoff, as kernels before 5.18 did)"
		fi
		expect "$name: $opt: program headers sound" "$(check_layout "$p")" sound
		expect "$name: $opt: no new eu-elflint complaint" "$(lint "$p")" "$lint0"
		state=$want
	done
done
finish
