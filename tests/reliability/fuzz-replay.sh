#!/bin/sh
# The fuzz targets' promises (fuzz/scan.c, fuzz/rewrite.c,
# fuzz/container.c) hold on every
# seed of the corpus, built now from the fixtures (real programs, objects
# and archives of several machines and both byte orders, and images made
# byte by byte), and on every input that once broke the library
# (fuzz/regress/, one file per bug, named for it). A broken promise aborts
# the target; in a --enable-sanitizers build, ASan and UBSan watch too.
. "$top_srcdir/tests/lib.sh"
need gcc clang as objcopy nasm ar strip llvm-ar tar gzip zstd xz cpio python3 \
    powerpc-linux-gnu-as s390x-linux-gnu-as \
    aarch64-linux-gnu-as mips-linux-gnu-as

"$top_srcdir/fuzz/seeds.sh" "$T/seeds" "$top_builddir/fuzz/gen-seeds" ||
    fail "build the seed corpus"
n=$(ls "$T/seeds" | wc -l)
[ "$n" -gt 50 ] && pass "the seed corpus has $n inputs" ||
    fail "the seed corpus has only $n inputs"
for t in scan rewrite container; do
	out=$("$top_builddir/fuzz/replay-$t" "$T/seeds" 2>"$T/err")
	expect "replay-$t: every seed keeps the promises" "$?" 0
	expect "replay-$t: every seed replayed" "$out" "replayed $n inputs"
	for f in "$top_srcdir"/fuzz/regress/*; do
		[ -f "$f" ] || continue
		"$top_builddir/fuzz/replay-$t" "$f" >/dev/null 2>"$T/err"
		expect "replay-$t: $(basename "$f")" "$?" 0
	done
done
finish
