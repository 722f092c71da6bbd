#!/bin/sh
# Why a library makes the stack of the programs that load it executable,
# and whether 'chstk -E' is safe on it (elfscan --system), against what a
# real glibc and this kernel do in a debootstrap'd Debian 12 root (glibc
# 2.36, which makes the stack executable for such a library). Two
# libraries, each loaded by a program of its own:
#
#   libasmx.so.1   lib.c and an assembly source without .note.GNU-stack,
#                  stripped, its debug file in the root's .build-id tree:
#                  the verdict names the assembly source and says chstk -E
#                  is likely safe
#   libtramp.so.1  a nested function whose address escapes (GCC's
#                  trampoline on the stack), with its DWARF: the verdict
#                  says chstk -E is not safe
#
# readelf and objdump show what each is built from. Then chstk -E on both,
# and each program is run in the root: the assembly library's runs with a
# non-executable stack, the trampoline's dies of SIGSEGV, as predicted.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/system/roots.sh"
need gcc readelf objdump objcopy strip eu-readelf python3 debootstrap \
    unshare chroot flock mount
: "${ELFSCAN:?}"
[ "$(id -u)" = 0 ] ||
    { echo "ERROR: the glibc roots need root (debootstrap, mount, chroot)"; exit 99; }

B=$T/build
E=$FIX/evidence
mkdir -p "$B"
cc() { gcc -Wall -O2 -I"$FIX" "$@" 2>>"$B/build.log"; }
cc -g -shared -fPIC -Wl,--no-warn-execstack -Wl,-soname,libasmx.so.1 \
    -o "$B/libasmx.so.1.dbg" "$FIX/lib.c" "$FIX/system/asm-answer.S" &&
    cc -g -shared -fPIC -Wl,--no-warn-execstack -Wl,-soname,libtramp.so.1 \
	-o "$B/libtramp.so.1" "$E/tramplib.c" &&
    cc -o "$B/uses-asm" "$FIX/hello.c" -Wl,--no-as-needed -L"$B" \
	-l:libasmx.so.1.dbg &&
    cc -DTRAMP_MAIN -o "$B/uses-tramp" "$E/tramplib.c" -L"$B" \
	-l:libtramp.so.1 ||
    { cat "$B/build.log"; fail "build the fixtures"; finish; }
patchelf_needed() { readelf -dW "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' '; }
# The program was linked against the unstripped copy: it needs the
# library by its SONAME.
expect "uses-asm needs libasmx.so.1" "$(patchelf_needed "$B/uses-asm" | grep -c 'libasmx.so.1 ')" 1
objcopy --only-keep-debug "$B/libasmx.so.1.dbg" "$B/libasmx.debug" &&
    strip -o "$B/libasmx.so.1" "$B/libasmx.so.1.dbg" || fail "strip libasmx"
id=$(eu-readelf -n "$B/libasmx.so.1" | sed -n 's/.*Build ID: //p')
expect "eu-readelf: the stripped library and its debug file share a build-id" \
    "$(eu-readelf -n "$B/libasmx.debug" | sed -n 's/.*Build ID: //p')" "$id"
expect "readelf: the stripped library has no DWARF" \
    "$(readelf -S "$B/libasmx.so.1" | grep -c '\.debug_info')" 0
expect "readelf: its debug file has a unit in assembly (MIPS assembler)" \
    "$(readelf --debug-dump=info "$B/libasmx.debug" | grep -c 'DW_AT_language *: 32769')" 1
expect "objdump: libtramp.so.1 writes a trampoline (movl \$0x90e3ff49)" \
    "$(objdump -d "$B/libtramp.so.1" | grep -c 'movl *\$0x90e3ff49,')" 1
for f in libasmx.so.1 libtramp.so.1; do
	expect "readelf: $f asks for an executable stack" "$(readelf_stack "$B/$f")" RWE
done

v=causes
root_new "$v" bookworm
P=$T/place
dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
mkdir -p "$P/usr/local/lib" "$P/usr/local/bin" "$P${dbg%/*}"
cp "$B/libasmx.so.1" "$B/libtramp.so.1" "$P/usr/local/lib/" &&
    cp "$B/uses-asm" "$B/uses-tramp" "$P/usr/local/bin/" &&
    cp "$B/libasmx.debug" "$P$dbg" || fail "place the fixtures"
root_put_tree "$v" "$P"
root_ldconfig "$v"

judge() {
	root_host "$v" "$ELFSCAN" --system --format=json --no-progress \
	    "$(root_dir "$v")" >"$T/$1.json" 2>"$T/$1.err"
	expect "$1: elfscan judges the root (status 0 or 1)" "$(test $? -le 1 && echo yes)" yes
}
verdict() { # FILE SUBJECT KEY: that member of the stack-made-exec verdict
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("verdict") == "stack-made-exec" and r["subject"] == sys.argv[2]:
        print(r.get(sys.argv[3]))' "$T/$1.json" "$2" "$3"
}
judge before
expect_match "before: libasmx.so.1 from its assembly source" \
    "$(verdict before /usr/local/lib/libasmx.so.1 cause)" \
    "from the assembly source *asm-answer.S"
expect "before: libasmx.so.1: chstk -E likely safe" \
    "$(verdict before /usr/local/lib/libasmx.so.1 exec_safe)" likely
expect_match "before: libtramp.so.1: GCC's trampolines" \
    "$(verdict before /usr/local/lib/libtramp.so.1 cause)" "GCC nested-function trampolines*"
expect "before: libtramp.so.1: chstk -E not safe" \
    "$(verdict before /usr/local/lib/libtramp.so.1 exec_safe)" no
expect "before: each verdict names its program" \
    "$(verdict before /usr/local/lib/libasmx.so.1 hosts | grep -c uses-asm) $(verdict before /usr/local/lib/libtramp.so.1 hosts | grep -c uses-tramp)" \
    "1 1"
root_host "$v" "$ELFSCAN" --system --no-progress "$(root_dir "$v")" >"$T/before.txt" 2>&1
expect_match "before: the text verdict says it too" "$(cat "$T/before.txt")" \
    "*stack-made-exec    /usr/local/lib/libasmx.so.1: *; from the assembly source *asm-answer.S; chstk -E: likely safe: no sign the code runs code on its stack; 1 program: /usr/local/bin/uses-asm*"

# glibc before: both programs run, with an executable stack.
out=$(root_run "$v" -- /usr/local/bin/uses-asm 2>&1)
expect "glibc: uses-asm runs, its stack executable" "$?:$(echo "$out" | stack_of)" "0:rwxp"
out=$(root_run "$v" -- /usr/local/bin/uses-tramp 2>&1)
expect "glibc: uses-tramp runs its trampoline" "$?:$out" "0:tramp: 42"

# chstk -E on both, as the verdicts' fix says; then what glibc does.
for f in libasmx.so.1 libtramp.so.1; do
	root_host "$v" "$CHSTK" -E "$(root_dir "$v")/usr/local/lib/$f" ||
	    fail "chstk -E $f"
done
out=$(root_run "$v" -- /usr/local/bin/uses-asm 2>&1)
expect "after chstk -E: uses-asm runs, its stack not executable (likely safe was right)" \
    "$?:$(echo "$out" | stack_of)" "0:rw-p"
root_run "$v" -- /usr/local/bin/uses-tramp >"$T/tramp.out" 2>&1
expect "after chstk -E: uses-tramp dies of SIGSEGV (not safe was right)" "$?" 139
judge after
expect "after: no verdict left on either" \
    "$(verdict after /usr/local/lib/libasmx.so.1 cause)$(verdict after /usr/local/lib/libtramp.so.1 cause)" ""
finish
