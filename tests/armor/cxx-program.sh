#!/bin/sh
# cxx-program.sh: a C++ program that throws exceptions through frames with
# destructors, catches them by type and rethrows, and catches one thrown by
# libstdc++, linked with ld/elf_i386_small.x: its unwind tables still find
# the code at its new address (the same output as a normal link), and all
# its code is inside the armor on disk and running.
. "$srcdir/tests/armor/common.sh"
need_i386

flags="-m32 -no-pie -O2 -I$armor_src"
$CC $flags -c -o "$work/selfmaps.o" "$armor_src/selfmaps.c"
$CXX $flags -c -o "$work/fixture-cxx.o" "$armor_src/fixture-cxx.cc" ||
	fail "$CXX -m32 cannot build C++ (install g++-multilib)"
$CXX $flags -o "$work/armored" "$work/fixture-cxx.o" "$work/selfmaps.o" \
	-Wl,-T,"$armor_script"
$CXX $flags -o "$work/normal" "$work/fixture-cxx.o" "$work/selfmaps.o"

check_pair "$work/armored" "$work/normal"
grep -q '^caught logic_error: rethrown: armor error 7$' "$work/out.armored" ||
	fail "the exception did not travel as expected"
pass "C++ program with exceptions inside the armor, same behaviour"
