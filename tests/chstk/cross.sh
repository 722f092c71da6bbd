#!/bin/sh
# Other machines and byte orders: programs for PowerPC and MIPS (32-bit,
# big-endian), s390x (64-bit, big-endian) and AArch64, built by the cross
# binutils with the default layout and with linker scripts that leave out
# PT_GNU_STACK (data packed after the text, or a page away); and hand-made
# x86 programs without section headers. chstk marks each in turn; readelf
# and eu-elflint check the files, and each program still runs (under
# qemu-user for the foreign ones) and exits as before. Objects of each
# machine get a .note.GNU-stack that the cross linker then honours.
. "$top_srcdir/tests/lib.sh"
need readelf eu-elflint gawk nasm qemu-ppc qemu-s390x qemu-aarch64 qemu-mips
probe_i386

X=$FIX/cross
# run QEMU PROG: the exit status
run() { "$@" >/dev/null 2>&1; echo $?; }

try_all() {	# NAME PROG RUNNER...: every option, checked after each
	name=$1 p=$2
	shift 2
	lint0=$(lint "$p")
	for opt in -E -e -D -d -E -D; do
		"$CHSTK" "$opt" "$p" || fail "$name: chstk $opt"
		case $opt in
		-E) want=RW ;;
		-e) want=RWE ;;
		-d|-D) [ "$want" = "$(state_flags_cleared "$opt")" ] && want=none ;;
		esac
		expect "$name: $opt by readelf" "$(readelf_stack "$p")" "$want"
		expect "$name: $opt: program headers sound" "$(check_layout "$p")" sound
		expect "$name: $opt: no new eu-elflint complaint" "$(lint "$p")" "$lint0"
		expect "$name: $opt: still runs" "$(run "$@" "$p")" "$status0"
	done
}
# The flags that -d (exec) or -D (noexec) clears.
state_flags_cleared() { [ "$1" = -d ] && echo RWE || echo RW; }

for m in ppc:powerpc-linux-gnu:qemu-ppc s390x:s390x-linux-gnu:qemu-s390x \
    aarch64:aarch64-linux-gnu:qemu-aarch64 mips:mips-linux-gnu:qemu-mips; do
	n=${m%%:*} rest=${m#*:}
	t=${rest%%:*} q=${rest#*:}
	need "$t-as" "$t-ld"
	"$t-as" -o "$T/$n.o" "$X/$n.s" || { fail "$n: assemble"; continue; }
	"$t-ld" -o "$T/$n" "$T/$n.o" 2>/dev/null &&
	    "$t-ld" -T "$X/noheaders.ld" -o "$T/$n-packed" "$T/$n.o" &&
	    "$t-ld" -T "$X/noheaders-gap.ld" -o "$T/$n-gap" "$T/$n.o" ||
	    { fail "$n: link"; continue; }
	status0=$(run "$q" "$T/$n")
	expect "$n: runs as built" "$status0" 7
	expect "$n-packed: no PT_GNU_STACK as linked" "$(readelf_stack "$T/$n-packed")" none
	for v in "" -packed -gap; do
		want=$(readelf_stack "$T/$n$v")
		try_all "$n$v" "$T/$n$v" "$q"
	done
	# The object: the note is added in the machine's byte order, and the
	# cross linker reads it.
	lint0=$(lint "$T/$n.o")
	"$CHSTK" -E "$T/$n.o" || fail "$n.o: chstk -E"
	expect "$n.o: note by readelf" "$(readelf_note "$T/$n.o")" -
	expect "$n.o: no new eu-elflint complaint" "$(lint "$T/$n.o")" "$lint0"
	"$t-ld" -o "$T/$n-linked" "$T/$n.o" || fail "$n: link the marked object"
	expect "$n: the linker honours the note" "$(readelf_stack "$T/$n-linked")" RW
	"$CHSTK" -e "$T/$n.o"
	"$t-ld" -o "$T/$n-linked" "$T/$n.o" 2>/dev/null || fail "$n: link"
	expect "$n: the linker honours an exec note" "$(readelf_stack "$T/$n-linked")" RWE
done

for b in 64 32; do
	r=env
	[ $b = 32 ] && r=run32
	nasm -f bin -o "$T/tiny$b" "$FIX/tiny$b.asm" && chmod +x "$T/tiny$b" ||
	    { fail "nasm tiny$b"; continue; }
	expect "tiny$b: no section headers" \
	    "$(readelf -hW "$T/tiny$b" | awk '/Number of section headers/ { print $5 }')" 0
	expect "tiny$b: runs as built" "$($r "$T/tiny$b")" tiny
	status0=0
	want=none
	try_all "tiny$b" "$T/tiny$b" $r
	expect "tiny$b: prints as before" "$($r "$T/tiny$b")" tiny
done
finish
