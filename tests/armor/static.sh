#!/bin/sh
# static.sh: the C fixture linked -static with ld/elf_i386_small.x: libc's
# own code (and its IFUNC resolvers, run before main) lands in the armor
# too, the PT_TLS segment is kept, and it behaves as a normal static link.
# And what elf_i386_small(7) says of -static-pie: it links, but the program
# does not start.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/armor/common.sh"
need readelf eu-elflint
need_i386

cflags="-m32 -no-pie -static -O2 -pthread -I$armor_src"
compile_fixture $cflags
link_pair $cflags

readelf -lW "$work/armored" | grep -q '^ *INTERP' &&
	fail "$work/armored: has an interpreter: not a static link" ||
	pass "$work/armored: no interpreter, a static link"
readelf -lW "$work/armored" | grep -q '^ *TLS' &&
	pass "$work/armored: kept its PT_TLS segment" ||
	fail "$work/armored: lost its PT_TLS segment"
check_pair "$work/armored" "$work/normal"

must "link -static-pie with the script" \
	$CC -m32 -static-pie -fPIE -O2 -pthread -I"$armor_src" -o "$work/spie" \
	"$armor_src/fixture.c" "$armor_src/selfmaps.c" -Wl,-T,"$armor_script"
status=0
(ulimit -c 0 2>/dev/null || :; run32 "$work/spie") >/dev/null 2>&1 || status=$?
[ "$status" -gt 128 ] &&
	pass "-static-pie with the script links but crashes (status $status), as documented" ||
	fail "-static-pie with the script: exit status $status, not a crash: update elf_i386_small(7)"
finish
