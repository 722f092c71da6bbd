#!/bin/sh
# c-program.sh: a dynamically linked C program (static constructors with
# priorities, thread-local storage in two threads, stdio, qsort through a
# function pointer) linked with ld/elf_i386_small.x has all its code inside
# the armor, on disk (readelf) and running (/proc/self/maps), and behaves as
# the same program linked normally.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/armor/common.sh"
need readelf eu-elflint
need_i386

cflags="-m32 -no-pie -O2 -pthread -I$armor_src"
compile_fixture $cflags
link_pair $cflags

check_pair "$work/armored" "$work/normal"
finish
