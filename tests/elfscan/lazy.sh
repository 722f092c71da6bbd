#!/bin/sh
# elfscan loads libarchive (and the libraries it brings: libxml2, ICU, the
# compressors) only when it meets a container, as the dynamic linker's own
# trace (LD_DEBUG=files) shows: a scan of a tree of programs never loads it,
# a scan of a tarball does, once.
. "$top_srcdir/tests/lib.sh"
need gcc tar
: "${ELFSCAN:?}"

mkdir -p "$T/tree/bin"
gcc -o "$T/tree/bin/hello" "$FIX/hello.c" && printf 'text\n' >"$T/tree/readme" &&
    tar -C "$T/tree" -cf "$T/tree.tar" . || fail "build the tree"
LD_DEBUG=files "$ELFSCAN" --no-progress "$T/tree" >/dev/null 2>"$T/trace"
expect "a tree: scanned" "$?" 0
expect "a tree: libarchive is not loaded" "$(grep -c 'file=libarchive' "$T/trace")" 0
expect "a tree: nor libxml2" "$(grep -c 'file=libxml2' "$T/trace")" 0
LD_DEBUG=files "$ELFSCAN" --no-progress "$T/tree.tar" >"$T/out" 2>"$T/trace"
expect "a tarball: scanned" "$?" 0
expect_match "a tarball: its program reported" "$(cat "$T/out")" "*tree.tar!bin/hello*"
expect "a tarball: libarchive loaded once" \
    "$(grep -c 'file=libarchive.so.*dynamically loaded' "$T/trace")" 1
finish
