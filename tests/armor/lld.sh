#!/bin/sh
# lld.sh: what elf_i386_small(7) says of lld.  lld reads the script: a C
# program linked with it and -no-pie is inside the armor and behaves as a
# normal link, and too much code fails with the script's message.  lld has
# no -Ttext-segment and its --image-base does not move the script's base.
# lld's own default base, 0x00400000, is already inside the armor.  With
# -pie lld makes an ET_DYN, which the kernel maps far above the armor.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/armor/common.sh"
need readelf eu-elflint ld.lld
need_i386

cflags="-m32 -O2 -pthread -I$armor_src"
lld="-fuse-ld=lld"
compile_fixture $cflags -fPIE
must "link with lld and the script" \
	$CC $cflags -no-pie $lld -o "$work/armored" $objs -Wl,-T,"$armor_script"
must "link normally" $CC $cflags -no-pie -o "$work/normal" $objs
must "link with lld" $CC $cflags -no-pie $lld -o "$work/normal-lld" $objs
check_pair "$work/armored" "$work/normal" "$work/normal-lld"

readelf -lW "$work/normal-lld" | grep -q '^ *LOAD *0x000000 0x00400000 ' &&
	pass "lld without the script: base 0x00400000, as documented" ||
	fail "lld's default base is not 0x00400000: update elf_i386_small(7)"

printf '\t.section .text.armor_pad,"ax",@progbits\n\t.skip 5242880\n' >"$work/pad.s"
printf '\t.section .note.GNU-stack,"",@progbits\n' >>"$work/pad.s"
must "assemble the padding" $CC -m32 -c -o "$work/pad.o" "$work/pad.s"
$CC $cflags -no-pie $lld -o "$work/big" $objs "$work/pad.o" \
    -Wl,-T,"$armor_script" 2>"$work/big.err" &&
	fail "lld linked 5 MiB of code with the default base" ||
	pass "lld refuses 5 MiB of code with the default base"
grep -F 'the code ends above 16 MiB' "$work/big.err" &&
	pass "too much code: the script's message" ||
	fail "too much code failed without the script's message"

$CC $cflags -no-pie $lld -o "$work/tts" $objs -Wl,-T,"$armor_script" \
    -Wl,-Ttext-segment=0x00400000 2>/dev/null &&
	fail "lld accepted -Ttext-segment: update elf_i386_small(7)" ||
	pass "lld has no -Ttext-segment"
must "link with lld, the script and --image-base" \
	$CC $cflags -no-pie $lld -o "$work/ib" $objs -Wl,-T,"$armor_script" \
	-Wl,--image-base=0x00400000
readelf -lW "$work/ib" | grep -q '^ *LOAD *0x000000 0x00c00000 ' &&
	pass "--image-base leaves the script's base alone" ||
	fail "--image-base moved the script's base: update elf_i386_small(7)"

must "link -pie with lld and the script" \
	$CC $cflags -pie $lld -o "$work/pie" $objs -Wl,-T,"$armor_script"
expect_match "-pie with the script is ET_DYN" "$(readelf -hW "$work/pie")" "*Type: *DYN*"
# Where a PIE goes is the host kernel's choice (qemu-user maps this one at
# the base its headers give, inside the armor): a check only the kernel
# can answer, made when it runs i386 programs.
if native32; then
	"$work/pie" maps >"$work/pie.maps"
	expect "$work/pie maps: exit status" "$?" 0
	if ! grep -q '^self ' "$work/pie.maps"; then
		fail "$work/pie: the program saw no executable mapping of itself"
	elif maps_in_armor "$work/pie.maps"; then
		fail "the kernel mapped a PIE in the armor: update elf_i386_small(7)"
	else
		pass "-pie gives an ET_DYN that the kernel maps outside the armor"
	fi
else
	echo "not checked: where the kernel maps an i386 PIE (this kernel cannot exec one)"
fi
finish
