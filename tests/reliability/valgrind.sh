#!/bin/sh
# chstk and elfscan under valgrind's memcheck: every option of chstk on a
# program, a shared object, objects with and without a note (the rebuild
# through libelf), an archive, a hand-made program without sections and a
# truncated file; elfscan with two threads on all of them, and over this
# machine's processes (--proc); and the fuzz targets' replay drivers over
# the seed corpus. Any invalid read or write, use of uninitialised memory
# or definite leak makes valgrind exit 99, and each run must otherwise end
# as it does without valgrind (or, over the processes, which vary, as any
# scan may).
. "$top_srcdir/tests/lib.sh"
need gcc as ar nasm valgrind
[ "${SANITIZERS:-no}" = yes ] &&
    skip "valgrind cannot run programs built with AddressSanitizer"

vg() {
	"$top_builddir/libtool" --mode=execute valgrind -q --error-exitcode=99 \
	    --leak-check=full --errors-for-leak-kinds=definite,indirect \
	    --show-leak-kinds=definite,indirect "$@"
}

F=$T/files
mkdir "$F"
gcc -o "$F/prog" "$FIX/hello.c" &&
    gcc -shared -fPIC -o "$F/lib.so" "$FIX/lib.c" &&
    gcc -c -o "$F/note.o" "$FIX/lib.c" &&
    printf '\t.text\n\tret\n' | as -o "$F/nonote.o" &&
    (cd "$F" && ar rc lib.a note.o nonote.o) &&
    nasm -f bin -o "$F/tiny64" "$FIX/tiny64.asm" ||
    fail "build the fixtures"
head -c 300 "$F/prog" >"$F/truncated"

for f in prog lib.so note.o nonote.o lib.a tiny64 truncated; do
	for opt in -v -q -e -E -d -D -e; do
		cp "$F/$f" "$T/plain"
		"$CHSTK" $opt "$T/plain" >/dev/null 2>&1
		want=$?
		cp "$F/$f" "$T/vg"
		vg "$CHSTK" $opt "$T/vg" >/dev/null 2>"$T/err"
		expect "chstk $opt $f: clean, status $want" "$?" "$want"
		cmp -s "$T/vg" "$T/plain" && pass "chstk $opt $f: the same result" ||
		    fail "chstk $opt $f: not what it writes without valgrind"
		grep -q '^==' "$T/err" && cat "$T/err"
	done
done

"$ELFSCAN" --no-progress -j2 "$F" >/dev/null 2>&1
want=$?
vg "$ELFSCAN" --no-progress -j2 --format=json --summary "$F" >"$T/out" 2>"$T/err"
expect "elfscan -j2: clean, status $want" "$?" "$want"
grep -q '^==' "$T/err" && cat "$T/err"

# --proc over this machine's processes, in each format: which processes
# there are varies, so the status is any a scan may end with, not 99.
for format in text json sarif; do
	vg "$ELFSCAN" --no-progress --proc --summary --format=$format >"$T/out" 2>"$T/err"
	expect_match "elfscan --proc --format=$format: clean" "$?" "[012]"
	grep -q '^==' "$T/err" && cat "$T/err"
done

"$top_srcdir/fuzz/seeds.sh" "$T/seeds" "$top_builddir/fuzz/gen-seeds" >/dev/null 2>&1 ||
    fail "build the seed corpus"
for t in scan rewrite; do
	vg "$top_builddir/fuzz/replay-$t" "$T/seeds" "$top_srcdir/fuzz/regress" \
	    >"$T/out" 2>"$T/err"
	expect "replay-$t over the seeds and regressions: clean" "$?" 0
	grep -q '^==' "$T/err" && cat "$T/err"
done
finish
