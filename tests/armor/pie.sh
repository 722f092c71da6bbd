#!/bin/sh
# pie.sh: what elf_i386_small(7) says of -pie with GNU ld.  ld makes a PIE
# whose base is not zero an ET_EXEC: the program is no longer
# position-independent, but it runs and its code is inside the armor.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/armor/common.sh"
need readelf eu-elflint
need_i386

cflags="-m32 -fPIE -O2 -pthread -I$armor_src"
compile_fixture $cflags
link_pair $cflags -pie

expect_match "$work/normal: a normal -pie link is ET_DYN" \
	"$(readelf -hW "$work/normal")" "*Type: *DYN*"
expect_match "$work/armored: -pie with the script gives an ET_EXEC (elf_i386_small(7))" \
	"$(readelf -hW "$work/armored")" "*Type: *EXEC*"
check_pair "$work/armored" "$work/normal"
finish
