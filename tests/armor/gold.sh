#!/bin/sh
# gold.sh: what elf_i386_small(7) says of gold.  gold cannot read the
# script (it is written in GNU ld's dialect), but -Ttext-segment=0x00C00000
# alone puts a gold link at the same base: inside the armor, behaving as a
# normal gold link, though nothing checks the limit at link time.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/armor/common.sh"
need readelf eu-elflint ld.gold
need_i386

cflags="-m32 -no-pie -O2 -pthread -I$armor_src"
gold="-fuse-ld=gold"
compile_fixture $cflags

$CC $cflags $gold -o "$work/script" $objs -Wl,-T,"$armor_script" 2>"$work/script.err" &&
	fail "gold read the script: update elf_i386_small(7)" ||
	pass "gold refuses the script: $(grep -m 1 'parse\|syntax' "$work/script.err")"

must "link with gold at 0x00C00000" \
	$CC $cflags $gold -o "$work/armored" $objs -Wl,-Ttext-segment=0x00C00000
must "link with gold" $CC $cflags $gold -o "$work/normal" $objs
check_pair "$work/armored" "$work/normal"
finish
