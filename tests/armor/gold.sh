#!/bin/sh
# gold.sh: what elf_i386_small(7) says of gold.  gold cannot read the
# script (it is written in GNU ld's dialect), but -Ttext-segment=0x00C00000
# alone puts a gold link at the same base: inside the armor, behaving as a
# normal gold link, though nothing checks the limit at link time.
. "$srcdir/tests/armor/common.sh"
need_i386
command -v ld.gold >/dev/null || skip "ld.gold is not installed (Debian: binutils)"

cflags="-m32 -no-pie -O2 -pthread -I$armor_src"
gold="-fuse-ld=gold"
compile_fixture $cflags

if $CC $cflags $gold -o "$work/script" $objs -Wl,-T,"$armor_script" \
    2>"$work/script.err"; then
	fail "gold read the script: update elf_i386_small(7)"
fi
say "gold refuses the script: $(grep -m 1 'parse\|syntax' "$work/script.err" || true)"

$CC $cflags $gold -o "$work/armored" $objs -Wl,-Ttext-segment=0x00C00000
$CC $cflags $gold -o "$work/normal" $objs
check_pair "$work/armored" "$work/normal"
pass "gold cannot read the script; -Ttext-segment=0x00C00000 does the placement"
