#!/bin/sh
# pie.sh: what elf_i386_small(7) says of -pie with GNU ld.  ld makes a PIE
# whose base is not zero an ET_EXEC: the program is no longer
# position-independent, but it runs and its code is inside the armor.
. "$srcdir/tests/armor/common.sh"
need_i386

cflags="-m32 -fPIE -O2 -pthread -I$armor_src"
compile_fixture $cflags
link_pair $cflags -pie

readelf -hW "$work/normal" | grep -q 'Type: *DYN' ||
	fail "$work/normal: a normal -pie link is not ET_DYN"
readelf -hW "$work/armored" | grep -q 'Type: *EXEC' ||
	fail "$work/armored: -pie with the script is not ET_EXEC: update elf_i386_small(7)"
say "$work/armored: -pie with the script gave an ET_EXEC"
check_pair "$work/armored" "$work/normal"
pass "-pie with the script: a fixed-address ET_EXEC inside the armor"
