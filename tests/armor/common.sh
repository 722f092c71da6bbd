# common.sh: what the ASCII-armor tests share; sourced by each of them.
#
# The tests run from the build directory (automake exports $srcdir), build
# their programs from the sources in $srcdir/tests/armor into a directory of
# their own, and check them with readelf, eu-elflint and the running kernel.
#
# Exit codes follow automake: 0 pass, 1 fail, 77 skip.

set -eu

: "${srcdir:=.}"
armor_script=$srcdir/ld/elf_i386_small.x
armor_src=$srcdir/tests/armor
armor_lo=$((0x00100000))
armor_hi=$((0x01000000))

# CC and CXX as configure and make found them.
. tests/armor/armor-env.sh
: "${CC:=cc}"
: "${CXX:=c++}"

test_name=$(basename "$0" .sh)
work=tests/armor/$test_name.dir
rm -rf "$work"
mkdir -p "$work"

say() { printf '%s: %s\n' "$test_name" "$*"; }
fail() { say "FAIL: $*" >&2; exit 1; }
skip() { say "SKIP: $*"; exit 77; }
pass() { rm -rf "$work"; say "PASS: $*"; exit 0; }

# compile_fixture FLAGS...: the C fixture and the maps reader compiled with
# FLAGS; sets $objs to the two objects.
compile_fixture() {
	$CC "$@" -c -o "$work/selfmaps.o" "$armor_src/selfmaps.c"
	$CC "$@" -c -o "$work/fixture.o" "$armor_src/fixture.c"
	objs="$work/fixture.o $work/selfmaps.o"
}

# link_pair FLAGS...: $objs linked with FLAGS twice, $work/armored with the
# script and $work/normal without, for check_pair.
link_pair() {
	$CC "$@" -o "$work/armored" $objs -Wl,-T,"$armor_script"
	$CC "$@" -o "$work/normal" $objs
}

# The one thing that excuses a skip: a machine that cannot run i386
# programs at all.  A static probe needs no 32-bit libraries, so when it
# builds but does not run, the kernel is the reason (no IA32_EMULATION, or
# ia32_emulation=0 on the command line).
need_i386() {
	case $(uname -m) in
	x86_64 | i?86) ;;
	*) skip "$(uname -m) is not an x86 machine: it cannot run i386 programs" ;;
	esac
	printf 'int main(void) { return 0; }\n' >"$work/probe.c"
	$CC -m32 -static -o "$work/probe" "$work/probe.c" ||
		fail "$CC -m32 -static cannot build an i386 program (install gcc-multilib)"
	"$work/probe" 2>/dev/null ||
		skip "this kernel cannot run i386 programs (a static i386 probe did not start)"
}

# exec_segments FILE: "VADDR MEMSZ" of every PT_LOAD with PF_X, as readelf
# shows it.  The flags column is one to three words ("R E", "RWE").
exec_segments() {
	readelf -lW "$1" | awk '$1 == "LOAD" {
		flags = ""
		for (i = 7; i < NF; i++)
			flags = flags $i
		if (flags ~ /E/)
			print $3, $6
	}'
}

# in_armor START END: whether [START, END) lies inside [1 MiB, 16 MiB).
in_armor() {
	[ "$(($1))" -ge "$armor_lo" ] && [ "$(($2))" -le "$armor_hi" ] &&
		[ "$(($1))" -lt "$(($2))" ]
}

# segments_in_armor FILE: every executable segment inside the armor, and at
# least one of them.  Prints what it saw.
segments_in_armor() {
	exec_segments "$1" >"$work/segments"
	[ -s "$work/segments" ] || { say "$1: no executable segment"; return 1; }
	ok=0
	while read -r vaddr memsz; do
		end=$(printf '0x%08x' $((vaddr + memsz)))
		if in_armor "$vaddr" "$end"; then
			say "$1: executable segment $vaddr-$end inside the armor"
		else
			say "$1: executable segment $vaddr-$end outside the armor"
			ok=1
		fi
	done <"$work/segments"
	return $ok
}

# maps_in_armor FILE: given what a fixture printed with "maps" (its own
# executable mappings, from /proc/self/maps, as "self START-END PERMS"),
# whether all of them are inside the armor.  Other objects' mappings (ld.so,
# libc, the vdso) are not the program's: on a kernel without chstk's patch
# they are placed high, and this test does not judge them.
maps_in_armor() {
	grep '^self ' "$1" >"$work/self-maps" ||
		{ say "$1: the program saw no executable mapping of itself"; return 1; }
	ok=0
	while read -r _ range perms; do
		if in_armor "0x${range%-*}" "0x${range#*-}"; then
			say "running: own mapping $range $perms inside the armor"
		else
			say "running: own mapping $range $perms outside the armor"
			ok=1
		fi
	done <"$work/self-maps"
	return $ok
}

# elflint_complaints FILE: what eu-elflint --gnu-ld says, section and
# symbol numbers blanked and sorted, so that two links of the same objects
# compare.
elflint_complaints() {
	eu-elflint --gnu-ld "$1" 2>&1 |
		sed 's/section \[ *[0-9]*\]/section [N]/; s/symbol [0-9]*/symbol N/' |
		sort || true
}

# check_pair ARMORED NORMAL [SAME_LINKER]: the checks every armored program
# gets, each against the same program linked normally (by GNU ld).
#  1. readelf: every executable segment of ARMORED is inside the armor; the
#     same check rejects NORMAL, so it can fail.
#  2. eu-elflint finds nothing in ARMORED that it does not find in NORMAL,
#     or in SAME_LINKER, a normal link by ARMORED's linker if not GNU ld.
#  3. Both run and print the same thing.
#  4. In the running ARMORED, /proc/self/maps shows its own code inside the
#     armor; for NORMAL the same check fails.
check_pair() {
	segments_in_armor "$1" || fail "$1: code outside the armor"
	if segments_in_armor "$2" >/dev/null; then
		fail "$2: the segment check accepts a normal link: it cannot fail"
	fi
	say "$2: the segment check rejects the normal link, as it must"

	elflint_complaints "$1" >"$work/elflint.armored"
	elflint_complaints "${3:-$2}" >"$work/elflint.normal"
	diff -u "$work/elflint.normal" "$work/elflint.armored" ||
		fail "$1: eu-elflint complains about the armored link only"

	"$1" >"$work/out.armored" || fail "$1: exited with status $?"
	"$2" >"$work/out.normal" || fail "$2: exited with status $?"
	[ -s "$work/out.normal" ] || fail "$2: printed nothing"
	diff -u "$work/out.normal" "$work/out.armored" ||
		fail "$1: prints something else than the normal link"
	say "$1: runs and prints the same $(wc -l <"$work/out.normal") lines as the normal link"

	"$1" maps >"$work/maps.armored" || fail "$1 maps: exited with status $?"
	maps_in_armor "$work/maps.armored" ||
		fail "$1: running, its code is mapped outside the armor"
	"$2" maps >"$work/maps.normal" || fail "$2 maps: exited with status $?"
	if maps_in_armor "$work/maps.normal" >/dev/null; then
		fail "$2: the maps check accepts a normal link: it cannot fail"
	fi
	say "$2: the maps check rejects the running normal link, as it must"
}
