#!/bin/sh
# A short bounded fuzzing pass, for every build configured with
# --enable-fuzzing: each libFuzzer target runs FUZZ_CHECK_SECONDS from the
# seed corpus and fuzz/regress, and must find nothing (no broken promise,
# no sanitizer report, no leak, no input slower than 10 s or using 2 GB).
. "$top_srcdir/tests/lib.sh"
need gcc as nasm ar strip llvm-ar tar gzip zstd xz cpio python3 \
    powerpc-linux-gnu-as s390x-linux-gnu-as \
    aarch64-linux-gnu-as mips-linux-gnu-as
: "${FUZZ_CHECK_SECONDS:=30}"

"$top_srcdir/fuzz/seeds.sh" "$T/seeds" "$top_builddir/fuzz/gen-seeds" ||
    fail "build the seed corpus"
for t in scan rewrite container; do
	mkdir "$T/corpus-$t"
	# libarchive sizes its read-ahead buffer by what a header claims (a
	# cpio name of up to 4 GiB): one malloc that large, of which it
	# touches no more than the input holds (elfscan's peak RSS on such a
	# 7 KiB cpio: 5.7 MiB). The RSS limit still judges what is used.
	malloc_limit=2048
	[ "$t" = container ] && malloc_limit=8192
	"$top_builddir/fuzz/fuzz-$t" -max_total_time="$FUZZ_CHECK_SECONDS" \
	    -timeout=60 -rss_limit_mb=2048 -malloc_limit_mb="$malloc_limit" \
	    -max_len=65536 -print_final_stats=1 \
	    -artifact_prefix="$top_builddir/fuzz/check-$t-" "$T/corpus-$t" "$T/seeds" \
	    "$top_srcdir/fuzz/regress" >"$T/$t.log" 2>&1
	status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$T/$t.log")
	expect "fuzz-$t: ${runs:-no} executions in $FUZZ_CHECK_SECONDS s, nothing found" "$status" 0
	[ "$status" -eq 0 ] || { tail -40 "$T/$t.log"; ls "$top_builddir"/fuzz/check-$t-* 2>/dev/null; }
done
finish
