#!/bin/sh
# c-program.sh: a dynamically linked C program (static constructors with
# priorities, thread-local storage in two threads, stdio, qsort through a
# function pointer) linked with ld/elf_i386_small.x has all its code inside
# the armor, on disk (readelf) and running (/proc/self/maps), and behaves as
# the same program linked normally.
. "$srcdir/tests/armor/common.sh"
need_i386

cflags="-m32 -no-pie -O2 -pthread -I$armor_src"
$CC $cflags -c -o "$work/selfmaps.o" "$armor_src/selfmaps.c"
$CC $cflags -c -o "$work/fixture.o" "$armor_src/fixture.c"
$CC $cflags -o "$work/armored" "$work/fixture.o" "$work/selfmaps.o" \
	-Wl,-T,"$armor_script"
$CC $cflags -o "$work/normal" "$work/fixture.o" "$work/selfmaps.o"

check_pair "$work/armored" "$work/normal"
pass "C program inside the armor, same behaviour as a normal link"
