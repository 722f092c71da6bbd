#!/bin/sh
# What Linux does not run or link is not judged by its rules (elfscan(1),
# What is not judged), and the edges are told right: each class built here,
# with the independent tool that shows what makes it so, and its twin that
# lacks that one thing, judged as before (the negative control):
#   a syslinux COM32 module (one of syslinux-common's, and one built with
#   the four symbols syslinux's loader reads), a GRUB-like module
#   (.modname), separate debug files (objcopy --only-keep-debug, eu-strip
#   -f, dwz -m), an archive of a Rust-like metadata member (no global
#   symbol, no code; ld's trace shows it is never pulled), a slim LTO
#   object, a FreeBSD program, a program of a machine the root does not run
#   (and the same served by a binfmt handler of the root, in both formats,
#   the root a directory and an image,
#   or tagged for Linux);
# elfscan -q --system on a root of them all and one real exec-stack library
# names exactly the library; a program cut short is malformed (eu-elflint
# agrees), its debug file is not, and --allow waives it; a stripped static
# PIE's canary comes from its code, the count objdump's.
. "$top_srcdir/tests/lib.sh"
need gcc as ld ar objcopy elfedit readelf objdump eu-strip eu-elflint dwz \
    rustc go ghc file \
    powerpc-linux-gnu-as powerpc-linux-gnu-ld s390x-linux-gnu-as \
    s390x-linux-gnu-ld clang ld.lld nasm python3 tar umoci
: "${ELFSCAN:?}"
# bootstrap installs syslinux-common, whose modules are the real thing.
COM32=/usr/lib/syslinux/modules/bios/ldlinux.c32
[ -f "$COM32" ] || { echo "ERROR: $COM32 is missing: run ./bootstrap deps"; exit 99; }

R=$T/root
L=$R/usr/lib/fixtures
mkdir -p "$L" "$R/lib64" "$T/b"
B=$T/b

# scope FILE [MEMBER]: the class elfscan's JSON gives the image ($J).
scope() {
	python3 - "$J" "$@" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("path", "").endswith("/" + sys.argv[2]) and \
            r.get("member") == (sys.argv[3] if len(sys.argv) > 3 else None):
        print(r.get("scope"), ",".join(r.get("findings", [])) or "-")
PY
}
# The root runs x86-64 programs: it holds their dynamic linker (any
# x86-64 ELF file there is read as one).
gcc -static -o "$B/static" "$FIX/hello.c" || fail "build a static program"
cp "$B/static" "$R/lib64/ld-linux-x86-64.so.2"

# The real exec-stack library, which must be named.
gcc -shared -fPIC -z execstack -o "$L/libexecstack.so" "$FIX/lib.c" ||
    fail "build the library"

# COM32: syslinux's own, and one built: an i386 shared object without an
# interpreter, one RWE segment, an executable stack, and the four symbols.
cp "$COM32" "$L/ldlinux.c32"
# com32 OUT SYMBOL...: a module defining the symbols.
com32() {
	out=$1
	shift
	{ printf '\t.text\n\t.globl main\nmain:\tret\n\t.section .ctors,"aw"\n'
	  for s in "$@"; do printf '\t.globl %s\n%s:\n' "$s" "$s"; done; } |
	    as --32 -o "$T/com32.o" &&
	    ld -m elf_i386 -shared -N -z execstack -o "$out" "$T/com32.o" 2>/dev/null
}
com32 "$L/built.c32" __ctors_start __ctors_end __dtors_start __dtors_end ||
    fail "build the COM32 module"
com32 "$B/three.c32" __ctors_start __ctors_end __dtors_start ||
    fail "build the module with three symbols"
expect "readelf: the COM32 modules define the four symbols, the other three" \
    "$(for f in "$L/ldlinux.c32" "$L/built.c32" "$B/three.c32"; do
	readelf --dyn-syms -W "$f" | awk '$7 != "UND" && $8 ~ /^__[cd]tors_(start|end)$/' | wc -l
    done | tr '\n' ' ')" "4 4 3 "
expect "readelf: no interpreter in the COM32 modules" \
    "$(readelf -lW "$L/ldlinux.c32" "$L/built.c32" | grep -c INTERP)" 0

# GRUB: an object without .note.GNU-stack, with a .modname section.
printf '\t.text\n\t.globl grub_mod_init\ngrub_mod_init:\tret\n' |
    as -o "$B/nonote.o" || fail "assemble"
printf 'fixture' >"$T/modname"
objcopy --add-section .modname="$T/modname" "$B/nonote.o" "$L/fixture.mod" ||
    fail "add .modname"
expect "readelf: .modname in the module, no .note.GNU-stack in either" \
    "$(readelf -SW "$L/fixture.mod" | grep -c '\.modname') $(readelf -SW "$L/fixture.mod" "$B/nonote.o" | grep -c 'GNU-stack')" "1 0"

# Debug files: objcopy --only-keep-debug, eu-strip -f (which keeps the
# program headers: the segments run past the file's end), dwz -m.
cat >"$T/d.c" <<'EOF'
#include <stdio.h>
struct pair { int a; long b; };
int first(struct pair *p) { return p->a; }
int main(void) { struct pair x = { 1, 2 }; printf("%d\n", first(&x)); return 0; }
EOF
gcc -g -O2 -z execstack -o "$B/dprog" "$T/d.c" &&
    objcopy --only-keep-debug "$B/dprog" "$L/dprog.debug" &&
    eu-strip -f "$L/dprog.eu-debug" -o "$B/dprog.stripped" "$B/dprog" &&
    gcc -g -O2 -o "$B/d1" "$T/d.c" && gcc -g -O2 -o "$B/d2" "$T/d.c" &&
    dwz -m "$L/common.dwz" -M /common.dwz "$B/d1" "$B/d2" ||
    fail "build the debug files"
# Every allocated section NOBITS or a note; none in the dwz file, nor a
# symbol table.
allocated() { readelf -SW "$1" | python3 -c '
import re, sys
types = set()
for l in sys.stdin:
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+\S+\s+\S+\s+\S+\s+\S+\s+(\S*)", l)
    if m and "A" in m.group(3):
        types.add(m.group(2))
print(" ".join(sorted(types)) or "none")'; }
expect "readelf: the debug files' allocated sections" \
    "$(allocated "$L/dprog.debug"); $(allocated "$L/dprog.eu-debug"); $(allocated "$L/common.dwz")" \
    "NOBITS NOTE; NOBITS NOTE; none"
expect "readelf: the dwz file is an object without a symbol table" \
    "$(readelf -h "$L/common.dwz" | awk '/Type:/ { print $2 }') $(readelf -SW "$L/common.dwz" | grep -c SYMTAB)" \
    "REL 0"
# load_end FILE: where its furthest segment ends in the file, by readelf.
load_end() { readelf -lW "$1" 2>/dev/null | python3 -c '
import sys
print(max(int(w[1], 16) + int(w[4], 16) for w in map(str.split, sys.stdin)
          if w[:1] == ["LOAD"]))'; }
expect "readelf: the eu-strip debug file's segments run past its end" \
    "$(($(load_end "$L/dprog.eu-debug") > $(stat -c %s "$L/dprog.eu-debug")))" 1

# A Rust-like rlib: a metadata member (.rmeta, SHF_EXCLUDE as rustc
# writes it, no symbol, no note) beside code. ld pulls the code for the
# symbol main needs, never the metadata. Its twin's metadata defines a
# symbol.
R_META='\t.section .rmeta,"e"\n\t.ascii "rust metadata"\n'
mkdir "$T/rlib" "$T/twin"
printf "$R_META" | as -o "$T/rlib/lib.rmeta" &&
    printf '\t.text\n\t.globl f\nf:\tret\n' |
    as --noexecstack -o "$T/rlib/code.o" &&
    (cd "$T/rlib" && ar rcs "$L/libfixture.rlib" lib.rmeta code.o) &&
    printf "$R_META"'\t.globl meta\nmeta:\n' | as -o "$T/twin/lib.rmeta" &&
    (cd "$T/twin" && ar rcs "$B/libtwin.rlib" lib.rmeta) ||
    fail "build the rlibs"
expect "readelf: no global symbol in lib.rmeta, one in its twin's" \
    "$(for f in "$T/rlib/lib.rmeta" "$T/twin/lib.rmeta"; do
	readelf -sW "$f" | awk '$5 == "GLOBAL" || $5 == "WEAK"' | wc -l; done | tr '\n' ' ')" "0 1 "
printf 'void f(void);\nint main(void) { f(); return 0; }\n' >"$T/m.c"
gcc -o "$T/m" "$T/m.c" "$L/libfixture.rlib" -Wl,-Map="$T/m.map" ||
    fail "link against the rlib"
expect "ld's map: the code member is pulled, the metadata never" \
    "$(grep -o 'libfixture.rlib([^)]*)' "$T/m.map" | sort -u | tr '\n' ' ')" \
    "libfixture.rlib(code.o) "

# A slim LTO object whose note is gone, and a fat one likewise.
printf 'int g(int x) { return x * 3; }\n' >"$T/l.c"
gcc -O2 -flto -c -o "$T/slim.o" "$T/l.c" &&
    gcc -O2 -flto -ffat-lto-objects -c -o "$T/fat.o" "$T/l.c" &&
    objcopy -R .note.GNU-stack "$T/slim.o" "$L/slim.o" &&
    objcopy -R .note.GNU-stack "$T/fat.o" "$B/fat.o" || fail "build LTO objects"
# text FILE: whether .text holds code, by readelf.
text() { readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\]//' |
    awk '$1 == ".text" { print ($5 == "000000") ? "empty" : "code" }'; }
expect "readelf: LTO sections in both, code only in the fat one" \
    "$(readelf -SW "$L/slim.o" | grep -c '\.gnu\.lto_' | awk '$1 > 0 { print "lto" }') $(readelf -SW "$B/fat.o" | grep -c '\.gnu\.lto_' | awk '$1 > 0 { print "lto" }') $(text "$L/slim.o") $(text "$B/fat.o")" \
    "lto lto empty code"

# A FreeBSD program: the static program with an executable stack, its
# EI_OSABI changed.
gcc -static -z execstack -o "$B/execstatic" "$FIX/hello.c" &&
    cp "$B/execstatic" "$L/freebsd" &&
    elfedit --output-osabi FreeBSD "$L/freebsd" || fail "build the FreeBSD program"
expect "readelf: OS/ABI FreeBSD" "$(readelf -h "$L/freebsd" | awk -F: '/OS.ABI/ { sub(/^ */, "", $2); print $2 }')" \
    "UNIX - FreeBSD"

# A PowerPC program with an executable stack, no ABI tag: the root holds
# no PowerPC dynamic linker and no handler.
powerpc-linux-gnu-as -o "$T/ppc.o" "$FIX/cross/ppc.s" &&
    powerpc-linux-gnu-ld -z execstack -o "$L/ppc-exec" "$T/ppc.o" ||
    fail "build the PowerPC program"
expect "readelf: the PowerPC program has no note" \
    "$(readelf -nW "$L/ppc-exec" | grep -c 'NT_GNU_ABI_TAG')" 0

J=$T/root.json
"$ELFSCAN" --system --format=json --no-progress "$R" >"$J" 2>"$T/err"
expect "the root: exit 1 (the library)" "$?" 1
expect "the root: nothing on stderr" "$(cat "$T/err")" ""
for f in ldlinux.c32:boot-loader built.c32:boot-loader fixture.mod:boot-loader \
    dprog.debug:debug dprog.eu-debug:debug common.dwz:debug slim.o:lto \
    freebsd:foreign-os ppc-exec:foreign-machine; do
	expect "${f%%:*}: ${f#*:}, no finding" "$(scope "${f%%:*}")" "${f#*:} -"
done
expect "lib.rmeta: unlinked, no finding; code.o judged" \
    "$(scope libfixture.rlib lib.rmeta); $(scope libfixture.rlib code.o)" \
    "unlinked -; linux -"
"$ELFSCAN" -q --system --no-progress "$R" >"$T/q" 2>&1
expect "elfscan -q on the root names exactly the library" \
    "$(sed '/^$/,$d; s|.* ||' "$T/q")" "$L/libexecstack.so"
"$ELFSCAN" -q --summary --format=json --system --no-progress "$R" | tail -1 >"$T/sum"
expect "--summary: the classes counted" "$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(*(s[k] for k in ("boot_loader", "debug_files", "unlinked_members",
    "lto_only", "foreign_os", "foreign_machine")))' "$T/sum")" "3 3 1 1 1 1"

# --all judges them: each gives the findings its marking gives.
J=$T/all.json
"$ELFSCAN" --all --system --format=json --no-progress "$R" >"$J" 2>/dev/null
expect "--all: the classes judged, and kept" \
    "$(scope built.c32); $(scope fixture.mod); $(scope freebsd); $(scope ppc-exec)" \
    "boot-loader exec-stack,wx-segment; boot-loader exec-stack,no-gnu-stack-note; foreign-os exec-stack; foreign-machine exec-stack"

# The twins, each without the one thing, are judged.
J=$T/twins.json
cp "$B/three.c32" "$B/nonote.o" "$B/dprog" "$B/fat.o" "$B/execstatic" \
    "$B/libtwin.rlib" "$L/" || fail "copy the twins"
"$ELFSCAN" --system --format=json --no-progress "$R" >"$J" 2>/dev/null
expect "the twins: judged, with their findings" \
    "$(scope three.c32); $(scope nonote.o); $(scope dprog); $(scope fat.o); $(scope execstatic); $(scope libtwin.rlib lib.rmeta)" \
    "linux exec-stack,wx-segment; linux exec-stack,no-gnu-stack-note; linux exec-stack; linux exec-stack,no-gnu-stack-note; linux exec-stack; linux exec-stack,no-gnu-stack-note"
(cd "$L" && rm three.c32 nonote.o dprog fat.o execstatic libtwin.rlib)

# What a root runs: a binfmt handler it registers serves a machine (the
# systemd format for PowerPC, binfmt-support's for s390x, as qemu-user's
# packages write them), and a program tagged for Linux is judged wherever.
S=$T/served
mkdir -p "$S/usr/lib/fixtures" "$S/usr/lib/binfmt.d" "$S/var/lib/binfmts" "$S/lib64"
cp "$B/static" "$S/lib64/ld-linux-x86-64.so.2"
cp "$L/ppc-exec" "$S/usr/lib/fixtures/"
s390x-linux-gnu-as -o "$T/s390x.o" "$FIX/cross/s390x.s" &&
    s390x-linux-gnu-ld -z execstack -o "$S/usr/lib/fixtures/s390x-exec" "$T/s390x.o" &&
    cp "$S/usr/lib/fixtures/s390x-exec" "$L/" ||
    fail "build the s390x program"
printf '\t.section .note.ABI-tag,"a",@note\n\t.p2align 2\n\t.long 4, 16, 1\n\t.asciz "GNU"\n\t.long 0, 3, 2, 0\n' |
    powerpc-linux-gnu-as -o "$T/tag.o" &&
    powerpc-linux-gnu-ld -z execstack -o "$L/ppc-tagged" "$T/ppc.o" "$T/tag.o" ||
    fail "build the tagged PowerPC program"
expect "readelf: the tagged program's note says Linux" \
    "$(readelf -nW "$L/ppc-tagged" | grep -c 'OS: Linux')" 1
printf '%s\n' ':qemu-ppc:M::\x7fELF\x01\x02\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x14:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff:/usr/bin/qemu-ppc-static:F' \
    >"$S/usr/lib/binfmt.d/qemu-ppc.conf"
printf '%s\n' qemu-user-static magic 0 \
    '\x7fELF\x02\x02\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x16' \
    '\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff' \
    /usr/bin/qemu-s390x-static '' >"$S/var/lib/binfmts/qemu-s390x"
J=$T/served.json
"$ELFSCAN" --system --format=json --no-progress "$S" >"$J" 2>/dev/null
served="$(scope ppc-exec); $(scope s390x-exec)"
J=$T/unserved.json
"$ELFSCAN" --system --format=json --no-progress "$R" >"$J" 2>/dev/null
expect "served by the root's handlers: judged; in the other root not; tagged: judged" \
    "$served; $(scope s390x-exec); $(scope ppc-tagged)" \
    "linux exec-stack; linux exec-stack; foreign-machine -; linux exec-stack"
# The same root as a container image: the handlers are read from what its
# layer pass kept.
tar -C "$S" -cf "$T/served.tar" . && umoci init --layout "$T/img" &&
    umoci new --image "$T/img:s" &&
    umoci raw add-layer --image "$T/img:s" "$T/served.tar" ||
    fail "stack the image"
J=$T/served-img.json
"$ELFSCAN" --system --format=json --no-progress "$T/img" >"$J" 2>/dev/null
expect "an image of the root: served by its handlers alike" \
    "$(python3 - "$J" <<'PY'
import json, sys
v = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    v[r.get("member", "").rsplit("/", 1)[-1]] = r
print("; ".join("%s %s" % (v[n]["scope"], ",".join(v[n]["findings"]) or "-")
                for n in ("ppc-exec", "s390x-exec")))
PY
)" "$served"
rm "$S/usr/lib/binfmt.d/qemu-ppc.conf" "$S/var/lib/binfmts/qemu-s390x"
J=$T/served.json
"$ELFSCAN" --system --format=json --no-progress "$S" >"$J" 2>/dev/null
expect "without the handlers, neither is" \
    "$(scope ppc-exec); $(scope s390x-exec)" "foreign-machine -; foreign-machine -"

# Cut short: the last segment, the section header table. eu-elflint sees
# each; elfscan says malformed, with the image read; --allow waives it.
C=$T/cut
mkdir "$C"
gcc -o "$B/prog" "$FIX/hello.c" || fail "build the program"
head -c $(($(load_end "$B/prog") - 16)) "$B/prog" >"$C/segment-cut"
head -c $(($(stat -c %s "$B/prog") - 8)) "$B/prog" >"$C/shdr-cut"
cp "$B/prog" "$C/whole"
for f in segment-cut shdr-cut whole; do
	eu-elflint --gnu-ld "$C/$f" >/dev/null 2>&1
	printf '%s ' "$?"
done >"$T/elflint"
expect "eu-elflint: both cut files are damaged, the whole one is not" \
    "$(cat "$T/elflint")" "1 1 0 "
J=$T/cut.json
"$ELFSCAN" --format=json --no-progress "$C" "$L/dprog.eu-debug" >"$J" 2>/dev/null
expect "cut short: exit 1" "$?" 1
expect "cut short: malformed, the whole one and the debug file not" \
    "$(scope segment-cut); $(scope shdr-cut); $(scope whole); $(scope dprog.eu-debug)" \
    "linux malformed; linux malformed; linux -; debug -"
printf '%s\n' "$C/*-cut" >"$T/allow"
"$ELFSCAN" -q --no-progress --allow "$T/allow" "$C" >"$T/q" 2>&1
expect "--allow waives what is cut short: exit 0, nothing said" "$? $(cat "$T/q")" "0 "

# A stripped static PIE with the stack protector: its canary is its
# code's, counted as objdump counts the guard's reads; x86-64 and i386. A
# static program without a protected function: none, a no. An AArch64 one:
# unknown, never a no.
printf '#include <string.h>\nint f(const char *s) { char b[64]; strcpy(b, s); return b[1]; }\nint main(int c, char **v) { return f(c > 1 ? v[1] : "x"); }\n' >"$T/sp.c"
P=$T/pie
mkdir "$P"
gcc -O2 -static-pie -fstack-protector-strong -o "$P/sp64" "$T/sp.c" &&
    gcc -m32 -O2 -static-pie -fstack-protector-strong -o "$P/sp32" "$T/sp.c" &&
    strip "$P/sp64" "$P/sp32" &&
    nasm -f bin -o "$P/tiny" "$FIX/tiny64.asm" &&
    clang --target=aarch64-linux-gnu -fuse-ld=lld -nostdlib -static -O2 \
	-Wl,-e,g,--strip-all -o "$P/aarch64" "$T/l.c" ||
    fail "build the static programs"
expect "readelf: the PIEs are stripped and static" \
    "$(readelf -SW "$P/sp64" "$P/sp32" | grep -c ' SYMTAB') $(readelf -lW "$P/sp64" "$P/sp32" | grep -c INTERP)" "0 0"
guards() { objdump -d "$1" | grep -cE "$2"; }
J=$T/pie.json
"$ELFSCAN" --all --hardening --format=json --no-progress "$P" >"$J" 2>/dev/null
canary() { python3 - "$J" "$1" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("path", "").endswith("/" + sys.argv[2]):
        print(r["canary"], r["canary_checks"])
PY
}
expect "sp64: the canary, as many checks as objdump's reads of %fs:0x28" \
    "$(canary sp64)" "True $(guards "$P/sp64" '%fs:0x28,%')"
expect "sp32: the canary, as many checks as objdump's reads of %gs:0x14" \
    "$(canary sp32)" "True $(guards "$P/sp32" '%gs:0x14,%')"
expect "objdump: hundreds of them, not a few" \
    "$(guards "$P/sp64" '%fs:0x28,%' | awk '$1 > 100 { print "yes" }')" yes
# tiny has no sections for objdump -d: the whole file disassembled.
expect "tiny: no read of the guard, no canary" \
    "$(canary tiny) $(objdump -D -b binary -m i386:x86-64 "$P/tiny" | grep -c '%fs:0x28')" \
    "False 0 0"
expect "aarch64: unknown" "$(canary aarch64)" "None None"
"$ELFSCAN" -q --all --no-progress --require canary "$P" >"$T/q" 2>&1
expect "--require canary: only the program without one" "$(sed '/^$/,$d; s|.* ||' "$T/q")" "$P/tiny"

# Toolchain output, built here by the real compilers (issue 23, item 7):
# rustc's rlib, whose lib.rmeta no link pulls; Go archives, whose
# __.PKGDEF and _go_.o are no ELF; GHC's object, and its runtime's archive
# (ghc's own, as its package installs it), whose empty assembler members
# no GHC link pulls. No finding among them; --all judges the members no
# link pulls, and finds each one's missing note.
TC=$T/toolchains
mkdir -p "$TC/x" "$TC/go/pure" "$TC/go/cg" "$TC/hs" "$TC/rts"
printf '#![no_std]\n#[no_mangle]\npub extern "C" fn triple(x: u32) -> u32 { x.wrapping_mul(3) }\n' \
    >"$TC/meta.rs"
rustc --crate-type=rlib --crate-name=meta -C panic=abort -O \
    --out-dir "$TC" "$TC/meta.rs" || fail "build the rlib"
(cd "$TC/x" && ar x ../libmeta.rlib) || fail "extract the rlib"
expect "readelf: rustc's lib.rmeta: no global symbol, no allocated section, no note" \
    "$(readelf -sW "$TC/x/lib.rmeta" | awk '$5 == "GLOBAL" || $5 == "WEAK"' | wc -l) $(allocated "$TC/x/lib.rmeta") $(readelf -SW "$TC/x/lib.rmeta" | grep -c GNU-stack)" \
    "0 none 0"
printf 'unsigned triple(unsigned);\nint main(void) { return triple(7) != 21; }\n' >"$TC/m.c"
gcc -o "$TC/m" "$TC/m.c" "$TC/libmeta.rlib" -Wl,-Map="$TC/m.map" &&
    "$TC/m" || fail "link and run against the rlib"
expect "ld's map: rustc's code member pulled, its lib.rmeta never" \
    "$(grep -o 'libmeta.rlib([^)]*)' "$TC/m.map" | sort -u | sed 's/meta\.meta\.[0-9a-f]*-cgu/meta.meta.HASH-cgu/')" \
    "libmeta.rlib(meta.meta.HASH-cgu.0.rcgu.o)"
printf 'module fixture\n\ngo 1.19\n' >"$TC/go/go.mod"
printf 'package pure\n\nfunc Triple(x int) int { return x * 3 }\n' >"$TC/go/pure/pure.go"
printf 'package cg\n\n// int triple(int x) { return x * 3; }\nimport "C"\n\nfunc Triple(x int) int { return int(C.triple(C.int(x))) }\n' \
    >"$TC/go/cg/cg.go"
(cd "$TC/go" && export GOCACHE="$TC/gocache" GOPATH="$TC/gopath" \
    GOPROXY=off GOFLAGS=-mod=mod GOTOOLCHAIN=local &&
    go build -buildmode=archive -o "$TC/pure.a" ./pure &&
    go build -buildmode=archive -o "$TC/cg.a" ./cg) || fail "build the Go archives"
mkdir "$TC/gx" && (cd "$TC/gx" && ar x ../pure.a && ar x ../cg.a) ||
    fail "extract the Go archives"
# members FILE: each member of the archive, and whether file(1) says ELF.
members() { ar t "$1" | while read -r m; do
	printf '%s:%s ' "$m" "$(file -b "$TC/gx/$m" | grep -c '^ELF')"; done; }
expect "file: the Go archives' __.PKGDEF and _go_.o are no ELF, cgo's objects are" \
    "$(members "$TC/pure.a")/ $(members "$TC/cg.a")" \
    "__.PKGDEF:0 _go_.o:0 / __.PKGDEF:0 _go_.o:0 _x001.o:1 _x002.o:1 "
printf 'module Main where\nmain :: IO ()\nmain = print (3 * 7 :: Int)\n' >"$TC/hs/Main.hs"
ghc -v0 -O0 -static -outputdir "$TC/hs" -optl-Wl,-Map="$TC/hs.map" \
    -o "$TC/hs/hello" "$TC/hs/Main.hs" && "$TC/hs/hello" >"$TC/hs/out" ||
    fail "build and run the Haskell program"
expect "the Haskell program ran" "$(cat "$TC/hs/out")" 21
expect "readelf: ghc's object has .note.GNU-stack" \
    "$(readelf -SW "$TC/hs/Main.o" | grep -c GNU-stack)" 1
cp "$(ghc --print-libdir)/rts/libHSrts.a" "$TC/libHSrts.a" &&
    (cd "$TC/rts" && ar x ../libHSrts.a) || fail "copy ghc's runtime archive"
# The runtime's members that define no symbol and have no note, by
# readelf: those elfscan must not judge. ld's map of ghc's link: none of
# them is pulled, though other members are.
for m in $(ar t "$TC/libHSrts.a"); do
	[ "$(readelf -sW "$TC/rts/$m" | awk '($5 == "GLOBAL" || $5 == "WEAK") && $7 != "UND"' | wc -l)" = 0 ] &&
	    [ "$(readelf -SW "$TC/rts/$m" | grep -c GNU-stack)" = 0 ] &&
	    printf '%s\n' "$m"
done >"$TC/rts.none"
expect "readelf: ghc's runtime has members without a symbol or note" \
    "$(awk 'END { print (NR > 0) ? "some" : "none" }' "$TC/rts.none")" some
expect "ld's map: ghc's link pulls members of its runtime, none of those" \
    "$(grep -c 'libHSrts.a(' "$TC/hs.map" | awk '$1 > 0 { print "pulled" }') $(grep -o 'libHSrts.a([^)]*)' "$TC/hs.map" | sed 's/.*(//; s/)//' | sort -u | grep -cxFf "$TC/rts.none")" \
    "pulled 0"
cp "$TC/hs/Main.o" "$TC/Main.o" || fail "copy the Haskell object"
rm -r "$TC/x" "$TC/gx" "$TC/rts" "$TC/hs" "$TC/go" "$TC/m" "$TC/m.c"
chmod -R u+w "$TC/gocache" "$TC/gopath" 2>/dev/null
rm -rf "$TC/gocache" "$TC/gopath"
"$ELFSCAN" -q --no-progress "$TC" >"$T/q" 2>&1
expect "the toolchains' output: no finding, nothing said" "$? $(cat "$T/q")" "0 "
J=$T/tc.json
"$ELFSCAN" --format=json --no-progress "$TC" >"$J" 2>&1
expect "rustc's lib.rmeta and ghc's empty members: unlinked, no finding" \
    "$(scope libmeta.rlib lib.rmeta); $(for m in $(cat "$TC/rts.none"); do scope libHSrts.a "$m"; done | sort -u)" \
    "unlinked -; unlinked -"
expect "the Go archives: cgo's ELF members only, no finding" \
    "$(python3 -c 'import json, sys
print(sorted((r["path"].rsplit("/", 1)[1], r["member"], r["findings"])
    for r in map(json.loads, open(sys.argv[1]))
    if r.get("path", "").endswith(("/pure.a", "/cg.a"))))' "$J")" \
    "[('cg.a', '_x001.o', []), ('cg.a', '_x002.o', [])]"
expect "ghc's object: judged, no finding" "$(scope Main.o)" "linux -"
"$ELFSCAN" -q --all --no-progress --no-header "$TC" >"$T/q" 2>&1
expect "--all: exactly those members, each without its note" \
    "$(sed '/^$/,$d' "$T/q" | awk '{ print $(NF - 1), $NF }' | sed 's| [^ ]*/| |' | sort)" \
    "$({ echo "exec-stack,no-gnu-stack-note libmeta.rlib!lib.rmeta"
	sed 's/^/exec-stack,no-gnu-stack-note libHSrts.a!/' "$TC/rts.none"; } | sort)"
finish
