#!/bin/sh
# limits.sh: the edges of ld/elf_i386_small.x.
#  - Code that does not fit below 16 MiB fails the link with the script's
#    message, whether it is in .text or in an orphan code section, instead
#    of landing outside the armor.
#  - -Ttext-segment still moves the base: the same code links, runs and
#    stays in the armor from 4 MiB; a base below 1 MiB is refused.
#  - Data and .bss may cross 16 MiB: a program with 20 MiB of .bss links,
#    runs, and only its code is required to be inside the armor.
. "$srcdir/tests/armor/common.sh"
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
$CC -m32 -c -o "$work/pad.o" "$work/pad.s"
$CC -m32 -c -o "$work/orphan.o" "$work/orphan.s"

too_big='the code ends above 16 MiB'
for extra in pad orphan; do
	if $CC $cflags -o "$work/$extra" $objs "$work/$extra.o" \
	    -Wl,-T,"$armor_script" 2>"$work/$extra.err"; then
		segments_in_armor "$work/$extra" || true
		fail "5 MiB of code ($extra) linked with the default base"
	fi
	grep -F "$too_big" "$work/$extra.err" ||
		fail "5 MiB of code ($extra): the link failed without the script's message"
done
say "5 MiB of code, in .text or in an orphan section, fails the link"

$CC $cflags -o "$work/low" $objs "$work/pad.o" \
	-Wl,-T,"$armor_script" -Wl,-Ttext-segment=0x00400000
readelf -lW "$work/low" | grep -q '^ *LOAD *0x000000 0x00400000 ' ||
	fail "-Ttext-segment=0x00400000 did not move the base"
segments_in_armor "$work/low" || fail "$work/low: code outside the armor"
"$work/low" >/dev/null || fail "$work/low: exited with status $?"
"$work/low" maps >"$work/low.maps"
maps_in_armor "$work/low.maps" || fail "$work/low: running code outside the armor"

if $CC $cflags -o "$work/null" $objs -Wl,-T,"$armor_script" \
    -Wl,-Ttext-segment=0x00080000 2>"$work/null.err"; then
	fail "a base of 0x00080000, inside the first MiB, linked"
fi
grep -F 'the program starts below 1 MiB' "$work/null.err" ||
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
$CC $cflags -o "$work/bigbss" "$work/bigbss.c" -Wl,-T,"$armor_script"
segments_in_armor "$work/bigbss" || fail "$work/bigbss: code outside the armor"
top=$(readelf -lW "$work/bigbss" | awk '$1 == "LOAD" { print $3, $6 }' |
	while read -r vaddr memsz; do echo $((vaddr + memsz)); done | sort -n | tail -n 1)
[ "$top" -gt "$armor_hi" ] ||
	fail "$work/bigbss: its .bss was expected to end above 16 MiB"
[ "$("$work/bigbss")" = 1 ] || fail "$work/bigbss: did not run"
say "$work/bigbss: data ends at $(printf '0x%08x' "$top"), above 16 MiB, and it runs"

pass "too much code is refused, -Ttext-segment moves the base, data may cross 16 MiB"
