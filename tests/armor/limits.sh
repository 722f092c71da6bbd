#!/bin/sh
# limits.sh: the edges of ld/elf_i386_small.x.
#  - Code that does not fit below 16 MiB fails the link with the script's
#    message, whether it is in .text or in an orphan code section, instead
#    of landing outside the armor.
#  - -Ttext-segment still moves the base: the same code links, runs and
#    stays in the armor from 4 MiB; a base below 1 MiB is refused.
#  - Data and .bss may cross 16 MiB: a program with 20 MiB of .bss links,
#    runs, and only its code is required to be inside the armor.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/armor/common.sh"
need readelf
need_i386

cflags="-m32 -no-pie -O2 -pthread -I$armor_src"
compile_fixture $cflags

# 5 MiB of code: more than the 4 MiB the default base leaves.
pad() {
	printf '\t.section %s,"ax",@progbits\n\t.skip 5242880\n' "$1"
	printf '\t.section .note.GNU-stack,"",@progbits\n'
}
pad .text.armor_pad >"$work/pad.s"
pad armor_orphan >"$work/orphan.s"
must "assemble the padding" $CC -m32 -c -o "$work/pad.o" "$work/pad.s"
must "assemble the orphan padding" $CC -m32 -c -o "$work/orphan.o" "$work/orphan.s"

too_big='the code ends above 16 MiB'
for extra in pad orphan; do
	if $CC $cflags -o "$work/$extra" $objs "$work/$extra.o" \
	    -Wl,-T,"$armor_script" 2>"$work/$extra.err"; then
		segments_in_armor "$work/$extra"
		fail "5 MiB of code ($extra) linked with the default base"
	else
		pass "5 MiB of code ($extra): the link fails"
	fi
	grep -F "$too_big" "$work/$extra.err" &&
		pass "5 MiB of code ($extra): the script's message" ||
		fail "5 MiB of code ($extra): the link failed without the script's message"
done

must "link 5 MiB of code from 4 MiB" $CC $cflags -o "$work/low" $objs "$work/pad.o" \
	-Wl,-T,"$armor_script" -Wl,-Ttext-segment=0x00400000
readelf -lW "$work/low" | grep -q '^ *LOAD *0x000000 0x00400000 ' &&
	pass "-Ttext-segment=0x00400000 moves the base" ||
	fail "-Ttext-segment=0x00400000 did not move the base"
segments_in_armor "$work/low" && pass "$work/low: code inside the armor" ||
	fail "$work/low: code outside the armor"
run32 "$work/low" >/dev/null
expect "$work/low: exit status" "$?" 0
run32 "$work/low" maps >"$work/low.maps"
maps_in_armor "$work/low.maps" && pass "$work/low: running code inside the armor" ||
	fail "$work/low: running code outside the armor"

$CC $cflags -o "$work/null" $objs -Wl,-T,"$armor_script" \
    -Wl,-Ttext-segment=0x00080000 2>"$work/null.err" &&
	fail "a base of 0x00080000, inside the first MiB, linked" ||
	pass "a base of 0x00080000, inside the first MiB, is refused"
grep -F 'the program starts below 1 MiB' "$work/null.err" &&
	pass "a base below 1 MiB: the script's message" ||
	fail "a base below 1 MiB: the link failed without the script's message"

cat >"$work/bigbss.c" <<'EOC'
#include <stdio.h>
char big[20 << 20];
int main(void)
{
	big[sizeof big - 1] = 1;
	printf("%d\n", big[sizeof big - 1]);
	return 0;
}
EOC
must "link 20 MiB of .bss" $CC $cflags -o "$work/bigbss" "$work/bigbss.c" -Wl,-T,"$armor_script"
segments_in_armor "$work/bigbss" && pass "$work/bigbss: code inside the armor" ||
	fail "$work/bigbss: code outside the armor"
top=$(readelf -lW "$work/bigbss" | awk '$1 == "LOAD" { print $3, $6 }' |
	while read -r vaddr memsz; do echo $((vaddr + memsz)); done | sort -n | tail -n 1)
[ "${top:-0}" -gt "$armor_hi" ] &&
	pass "$work/bigbss: data ends at $(printf '0x%08x' "$top"), above 16 MiB" ||
	fail "$work/bigbss: its .bss was expected to end above 16 MiB"
expect "$work/bigbss: runs" "$(run32 "$work/bigbss")" 1
finish
