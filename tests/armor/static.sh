#!/bin/sh
# static.sh: the C fixture linked -static with ld/elf_i386_small.x: libc's
# own code (and its IFUNC resolvers, run before main) lands in the armor
# too, the PT_TLS segment is kept, and it behaves as a normal static link.
# And what elf_i386_small(7) says of -static-pie: it links, but the program
# does not start.
. "$srcdir/tests/armor/common.sh"
need_i386

cflags="-m32 -no-pie -static -O2 -pthread -I$armor_src"
compile_fixture $cflags
link_pair $cflags

if readelf -lW "$work/armored" | grep -q '^ *INTERP'; then
	fail "$work/armored: has an interpreter: not a static link"
fi
readelf -lW "$work/armored" | grep -q '^ *TLS' ||
	fail "$work/armored: lost its PT_TLS segment"
check_pair "$work/armored" "$work/normal"

$CC -m32 -static-pie -fPIE -O2 -pthread -I"$armor_src" -o "$work/spie" \
	"$armor_src/fixture.c" "$armor_src/selfmaps.c" -Wl,-T,"$armor_script"
status=0
(ulimit -c 0 2>/dev/null || :; exec "$work/spie") >/dev/null 2>&1 || status=$?
[ "$status" -gt 128 ] ||
	fail "-static-pie with the script: exit status $status, not a crash: update elf_i386_small(7)"
say "-static-pie with the script links but crashes (status $status), as documented"
pass "static C program inside the armor, same behaviour"
