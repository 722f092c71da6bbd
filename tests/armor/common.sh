# common.sh: what the ASCII-armor tests share, sourced by each of them
# after tests/lib.sh (whose checks, skip and need they use). They build
# their programs from the sources in tests/armor into $T and check them
# with readelf, eu-elflint and the running kernel.

armor_script=$top_srcdir/ld/elf_i386_small.x
armor_src=$top_srcdir/tests/armor
armor_lo=$((0x00100000))
armor_hi=$((0x01000000))
work=$T

# CC and CXX as configure and make found them.
. "$top_builddir/tests/armor/armor-env.sh"
: "${CC:=cc}"
: "${CXX:=c++}"

# must WHAT COMMAND...: COMMAND builds or runs what the rest of the test
# needs; if it fails, so does the test, at once.
must() {
	what=$1
	shift
	"$@" || { fail "$what: $* failed"; finish; }
}

# compile_fixture FLAGS...: the C fixture and the maps reader compiled with
# FLAGS; sets $objs to the two objects.
compile_fixture() {
	must "compile the maps reader" $CC "$@" -c -o "$work/selfmaps.o" "$armor_src/selfmaps.c"
	must "compile the fixture" $CC "$@" -c -o "$work/fixture.o" "$armor_src/fixture.c"
	objs="$work/fixture.o $work/selfmaps.o"
}

# link_pair FLAGS...: $objs linked with FLAGS twice, $work/armored with the
# script and $work/normal without, for check_pair.
link_pair() {
	must "link with the script" $CC "$@" -o "$work/armored" $objs -Wl,-T,"$armor_script"
	must "link normally" $CC "$@" -o "$work/normal" $objs
}

# The armor is for i386 programs, which only an x86 machine's compilers
# build here; they run through run32 (tests/lib.sh).
need_i386() {
	case $(uname -m) in
	x86_64 | i?86) ;;
	*) skip "$(uname -m) is not an x86 machine: no i386 programs to build" ;;
	esac
	probe_i386
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
	[ -s "$work/segments" ] || { echo "$1: no executable segment"; return 1; }
	ok=0
	while read -r vaddr memsz; do
		end=$(printf '0x%08x' $((vaddr + memsz)))
		if in_armor "$vaddr" "$end"; then
			echo "$1: executable segment $vaddr-$end inside the armor"
		else
			echo "$1: executable segment $vaddr-$end outside the armor"
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
		{ echo "$1: the program saw no executable mapping of itself"; return 1; }
	ok=0
	while read -r _ range perms; do
		if in_armor "0x${range%-*}" "0x${range#*-}"; then
			echo "running: own mapping $range $perms inside the armor"
		else
			echo "running: own mapping $range $perms outside the armor"
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
	segments_in_armor "$1" && pass "$1: every executable segment inside the armor" ||
		fail "$1: code outside the armor"
	segments_in_armor "$2" >/dev/null &&
		fail "$2: the segment check accepts a normal link: it cannot fail" ||
		pass "$2: the segment check rejects the normal link, as it must"

	elflint_complaints "$1" >"$work/elflint.armored"
	elflint_complaints "${3:-$2}" >"$work/elflint.normal"
	diff -u "$work/elflint.normal" "$work/elflint.armored" &&
		pass "$1: eu-elflint finds nothing a normal link does not have" ||
		fail "$1: eu-elflint complains about the armored link only"

	run32 "$1" >"$work/out.armored"
	expect "$1: exit status" "$?" 0
	run32 "$2" >"$work/out.normal"
	expect "$2: exit status" "$?" 0
	[ -s "$work/out.normal" ] || fail "$2: printed nothing"
	diff -u "$work/out.normal" "$work/out.armored" &&
		pass "$1: runs and prints the same $(wc -l <"$work/out.normal") lines as the normal link" ||
		fail "$1: prints something else than the normal link"

	run32 "$1" maps >"$work/maps.armored"
	expect "$1 maps: exit status" "$?" 0
	maps_in_armor "$work/maps.armored" &&
		pass "$1: running, its own code is mapped inside the armor" ||
		fail "$1: running, its code is mapped outside the armor"
	run32 "$2" maps >"$work/maps.normal"
	expect "$2 maps: exit status" "$?" 0
	if ! grep -q '^self ' "$work/maps.normal"; then
		fail "$2: the program saw no executable mapping of itself"
	elif maps_in_armor "$work/maps.normal" >/dev/null; then
		fail "$2: the maps check accepts a normal link: it cannot fail"
	else
		pass "$2: the maps check rejects the running normal link, as it must"
	fi
}
