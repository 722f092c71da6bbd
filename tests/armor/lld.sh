#!/bin/sh
# lld.sh: what elf_i386_small(7) says of lld.  lld reads the script: a C
# program linked with it and -no-pie is inside the armor and behaves as a
# normal link, and too much code fails with the script's message.  lld has
# no -Ttext-segment and its --image-base does not move the script's base.
# lld's own default base, 0x00400000, is already inside the armor.  With
# -pie lld makes an ET_DYN, which the kernel maps far above the armor.
. "$srcdir/tests/armor/common.sh"
need_i386
command -v ld.lld >/dev/null || skip "ld.lld is not installed (Debian: lld)"

cflags="-m32 -O2 -pthread -I$armor_src"
lld="-fuse-ld=lld"
compile_fixture $cflags -fPIE
$CC $cflags -no-pie $lld -o "$work/armored" $objs -Wl,-T,"$armor_script"
$CC $cflags -no-pie -o "$work/normal" $objs
$CC $cflags -no-pie $lld -o "$work/normal-lld" $objs
check_pair "$work/armored" "$work/normal" "$work/normal-lld"

readelf -lW "$work/normal-lld" | grep -q '^ *LOAD *0x000000 0x00400000 ' ||
	fail "lld's default base is not 0x00400000: update elf_i386_small(7)"
say "lld without the script: base 0x00400000, as documented"

printf '\t.section .text.armor_pad,"ax",@progbits\n\t.skip 5242880\n' >"$work/pad.s"
printf '\t.section .note.GNU-stack,"",@progbits\n' >>"$work/pad.s"
$CC -m32 -c -o "$work/pad.o" "$work/pad.s"
if $CC $cflags -no-pie $lld -o "$work/big" $objs "$work/pad.o" \
    -Wl,-T,"$armor_script" 2>"$work/big.err"; then
	fail "lld linked 5 MiB of code with the default base"
fi
grep -F 'the code ends above 16 MiB' "$work/big.err" ||
	fail "too much code failed without the script's message"

if $CC $cflags -no-pie $lld -o "$work/tts" $objs -Wl,-T,"$armor_script" \
    -Wl,-Ttext-segment=0x00400000 2>/dev/null; then
	fail "lld accepted -Ttext-segment: update elf_i386_small(7)"
fi
$CC $cflags -no-pie $lld -o "$work/ib" $objs -Wl,-T,"$armor_script" \
	-Wl,--image-base=0x00400000
readelf -lW "$work/ib" | grep -q '^ *LOAD *0x000000 0x00c00000 ' ||
	fail "--image-base moved the script's base: update elf_i386_small(7)"
say "no -Ttext-segment, and --image-base leaves the script's base alone"

$CC $cflags -pie $lld -o "$work/pie" $objs -Wl,-T,"$armor_script"
readelf -hW "$work/pie" | grep -q 'Type: *DYN' ||
	fail "-pie with the script is not ET_DYN: update elf_i386_small(7)"
"$work/pie" maps >"$work/pie.maps"
if maps_in_armor "$work/pie.maps"; then
	fail "the kernel mapped a PIE in the armor: update elf_i386_small(7)"
fi
say "-pie gives an ET_DYN that the kernel maps outside the armor"

pass "lld links into the armor with the script, and only without -pie"
