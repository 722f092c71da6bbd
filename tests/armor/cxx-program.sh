#!/bin/sh
# cxx-program.sh: a C++ program that throws exceptions through frames with
# destructors, catches them by type and rethrows, and catches one thrown by
# libstdc++, linked with ld/elf_i386_small.x: its unwind tables still find
# the code at its new address (the same output as a normal link), and all
# its code is inside the armor on disk and running.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/armor/common.sh"
need readelf eu-elflint
need_i386

flags="-m32 -no-pie -O2 -I$armor_src"
must "compile the maps reader" $CC $flags -c -o "$work/selfmaps.o" "$armor_src/selfmaps.c"
must "$CXX -m32 builds C++ (install g++-multilib)" \
	$CXX $flags -c -o "$work/fixture-cxx.o" "$armor_src/fixture-cxx.cc"
must "link with the script" $CXX $flags -o "$work/armored" "$work/fixture-cxx.o" \
	"$work/selfmaps.o" -Wl,-T,"$armor_script"
must "link normally" $CXX $flags -o "$work/normal" "$work/fixture-cxx.o" "$work/selfmaps.o"

check_pair "$work/armored" "$work/normal"
grep -q '^caught logic_error: rethrown: armor error 7$' "$work/out.armored" &&
	pass "the exception travelled as expected" ||
	fail "the exception did not travel as expected"
finish
