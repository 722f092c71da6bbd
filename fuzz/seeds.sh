#!/bin/sh
# seeds.sh OUT GEN-SEEDS: the seed corpus, built from the test fixtures into
# directory OUT: programs, shared objects and objects from gcc (64- and
# 32-bit, each marking), hand-made x86 programs (nasm), big-endian and
# other foreign programs and objects from the cross binutils, archives
# (GNU with a symbol index and long names, BSD, thin, mixed byte orders),
# the byte-by-byte images of gen-seeds, and packages and tarballs of them.
# Programs are stripped: small seeds mutate faster (names.o and names.so
# keep their symbol tables, which are their point).
set -eu
out=$1 gen=$2
fix=$(cd "$(dirname "$0")/../tests/fixtures" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
w=$(mktemp -d "${TMPDIR:-/tmp}/chstk-seeds.XXXXXX")
trap 'rm -rf "$w"' EXIT

"$gen" "$out"

cc() { name=$1; shift; gcc -o "$w/$name" "$@" && strip -o "$out/$name" "$w/$name"; }
cc prog-pie "$fix/hello.c"
cc prog-nopie -no-pie "$fix/hello.c"
cc prog-exec -z execstack "$fix/hello.c"
cc prog-32 -m32 "$fix/hello.c"
cc lib.so -shared -fPIC "$fix/lib.c"
cc lib32.so -m32 -shared -fPIC "$fix/lib.c"
# systemd's dlopen notes (lib/hardening.c reads them): two, in the PT_NOTE
# segment of the build ID.
cc dlnote.so -shared -fPIC "$fix/system/dlnote.c" \
    -DNOTE1='"[{\"soname\":[\"liba.so.1\",\"libb.so.2\"]}]"'
gcc -c -o "$out/lib.o" "$fix/lib.c"
gcc -c -Wa,--execstack -o "$out/lib-exec.o" "$fix/lib.c"
gcc -m32 -c -o "$out/lib32.o" "$fix/lib.c"
printf '\t.text\n\tret\n' | as -o "$out/nonote.o"
# Variables (no code: small seeds) with names of many lengths, in hash
# order in .dynsym, and a .symtab (not stripped): some 12 KiB of names and
# 360 symbols a table, which fuzz/scan.c also reads through a window of
# 1 KiB, 170 symbols at a time.
awk 'BEGIN { for (i = 0; i < 360; i++) {
	n = sprintf("v%03d_", i)
	for (j = 0; j < i * 37 % 60; j++) n = n "x"
	printf "int %s_%03d = %d;\n", n, i, i } }' >"$w/names.c"
gcc -c -o "$out/names.o" "$w/names.c"
gcc -shared -fPIC -o "$out/names.so" "$w/names.c"
# The evidence (CHSTK_READ_EVIDENCE, CHSTK_READ_CODE_SEARCH): DWARF of gcc and
# clang (DWARF 5's indexed strings), compressed both ways, an assembler's
# unit, a separate debug file, annobin's notes in both forms, and code
# with a trampoline and stack probes.
gcc -g -O2 -o "$out/dwarf-prog" "$fix/hello.c"
gcc -g -O2 -gz=zlib -o "$out/dwarf-gz" "$fix/lib.c" -shared -fPIC
gcc -g -O2 -gz=zlib-gnu -o "$out/dwarf-zdebug" "$fix/lib.c" -shared -fPIC
clang -g -gdwarf-5 -O2 -grecord-command-line -D_FORTIFY_SOURCE=3 -shared \
    -fPIC -o "$out/dwarf5-clang.so" "$fix/lib.c"
gcc -g -shared -fPIC -Wl,--no-warn-execstack -o "$out/dwarf-asm.so" \
    "$fix/system/asm-answer.S"
objcopy --only-keep-debug "$out/dwarf-prog" "$out/dwarf-prog.debug"
as -o "$out/annobin-notes.o" "$fix/evidence/annobin-notes.s"
as -o "$out/annobin-strings.o" "$fix/evidence/annobin-strings.s"
cc tramp -O2 -Wl,--no-warn-execstack "$fix/trampoline.c"
cc probes -O2 -fstack-clash-protection "$fix/evidence/frames.c"
nasm -f bin -o "$out/tiny64" "$fix/tiny64.asm"
nasm -f bin -o "$out/tiny32" "$fix/tiny32.asm"
nasm -f bin -DPFLAGS=7 -o "$out/tiny64-wx" "$fix/tiny64.asm"

for m in ppc:powerpc-linux-gnu s390x:s390x-linux-gnu \
    aarch64:aarch64-linux-gnu mips:mips-linux-gnu; do
	n=${m%%:*} t=${m#*:}
	"$t-as" -o "$out/$n.o" "$fix/cross/$n.s"
	"$t-ld" -o "$out/$n" "$out/$n.o" 2>/dev/null
	"$t-ld" -T "$fix/cross/noheaders.ld" -o "$out/$n-packed" "$out/$n.o"
done

cd "$w"
cp "$out/lib.o" a_member_name_longer_than_sixteen.o
cp "$out/nonote.o" short.o
cp "$out/gen-64be-obj-exec.o" big.o
printf 'not elf\n' >text.txt
ar rcs "$out/gnu.a" a_member_name_longer_than_sixteen.o short.o text.txt
ar rcs "$out/mixed.a" big.o short.o "$out/ppc.o"
ar rcS "$out/noindex.a" short.o a_member_name_longer_than_sixteen.o
ar rcT "$out/thin.a" short.o
llvm-ar --format=bsd rcs "$out/bsd.a" short.o a_member_name_longer_than_sixteen.o

# Containers, for the container target: tar (plain and compressed) and
# cpio holding an object, a program and an .a, a zip, and a .deb whose
# data.tar holds an .a.
mkdir pkg
cp "$out/lib.o" "$out/tiny64" "$out/gnu.a" "$out/bsd.a" pkg/
tar -cf "$out/pkg.tar" pkg
gzip -9 -c "$out/pkg.tar" >"$out/pkg.tar.gz"
zstd -q -19 -c "$out/pkg.tar" >"$out/pkg.tar.zst"
find pkg | cpio -o -H newc --quiet >"$out/pkg.cpio"
python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for f in sys.argv[2:]: z.write(f)' "$out/pkg.zip" pkg/lib.o pkg/gnu.a
printf '2.0\n' >debian-binary
tar -czf control.tar.gz text.txt
tar -cJf data.tar.xz pkg/gnu.a pkg/tiny64
ar rc "$out/pkg.deb" debian-binary control.tar.gz data.tar.xz
