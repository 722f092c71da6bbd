#!/bin/sh
# elfscan --hardening on string tables bigger than the library reads whole
# (lib/hardening.c: over 16 MiB, read through a 64 KiB window that only
# goes forward over each block of symbols): an object (its .strtab), a
# shared object (.dynstr in hash order, and .strtab) and the same stripped
# (.dynstr alone), built here from 6000 generated functions with names of
# 200 to 5800 bytes around tests/fixtures/hardening.c. check_names.py
# checks that the deciding names lie far apart and across blocks, and
# judges canary, fortified, unfortified and symbols by readelf, and the
# reads by strace; check_hardening.py judges the rest by checksec and
# hardening-check. Then the same files as members of a tarball, read as a
# stream.
. "$top_srcdir/tests/lib.sh"
need gcc ld strip readelf python3 strace tar checksec hardening-check
: "${ELFSCAN:?}"

D=$T/tree
mkdir -p "$D/obj" "$D/lib"
# Names that share no suffix (the linker would store a suffix once), of
# lengths that put their ends anywhere in a window.
python3 - "$T" <<'PY' || fail "generate the functions"
import sys
for part in range(2):
    with open(f"{sys.argv[1]}/names{part}.c", "w") as f:
        for i in range(part * 3000, part * 3000 + 3000):
            pad = "x" * (200 + i * 7919 % 5600)
            f.write(f"int f{i:05d}_{pad}_{i:05d}(int x) {{ return x + {i}; }}\n")
PY
cc() { gcc -O0 -fPIC -c "$@" || fail "compile $*"; }
cc -o "$T/names0.o" "$T/names0.c"
cc -o "$T/names1.o" "$T/names1.c"
cc -O2 -DLIB -fstack-protector-strong -D_FORTIFY_SOURCE=2 -o "$T/work.o" \
    "$FIX/hardening.c"
# The references between the two halves: far into the string tables.
set -- "$T/names0.o" "$T/work.o" "$T/names1.o"
ld -r -o "$D/obj/names.o" "$@" || fail "ld -r"
gcc -shared -o "$D/lib/libnames.so" "$@" || fail "link the library"
strip -o "$D/lib/libnames-stripped.so" "$D/lib/libnames.so" || fail "strip"
echo "note: fixtures: $(cd "$D" && du -k obj/names.o lib/*.so | tr '\t\n' '  ')(KiB)"

# LeakSanitizer cannot work under ptrace: in a sanitizer build the leak
# check is left to the runs that strace does not trace. strace sees every
# read of the reader that makes one system call after another, not the
# heads an io_uring reads.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    ELFSCAN_READER=threads strace -ff -y -qq -o "$T/trace" "$ELFSCAN" --hardening --format=json \
    --no-progress -j1 "$D" >"$T/out.json" 2>"$T/err"
expect "elfscan --hardening: exit status 0" "$?" 0
expect "nothing on stderr" "$(cat "$T/err")" ""
cat "$T"/trace.* >"$T/calls"
for f in obj/names.o lib/libnames.so lib/libnames-stripped.so; do
	grep "^pread64([0-9]*<$D/$f>" "$T/calls" |
	    awk -v f="$f" '{ n++; s += $NF } END { print f, n + 0, s + 0 }'
done >"$T/reads"
python3 "$top_srcdir/tests/elfscan/check_names.py" "$D" "$T/out.json" "$T/reads" \
    >"$T/names.log"
s=$?
cat "$T/names.log"
expect "check_names.py: the window's path, judged by readelf and strace" "$s" 0
python3 "$top_srcdir/tests/elfscan/check_hardening.py" "$D" "$T/out.json" \
    >"$T/check.log"
s=$?
cat "$T/check.log"
expect "check_hardening.py: elfscan agrees with checksec and hardening-check, or the tool is wrong as explained" "$s" 0

# A stream is read once, front to back: the window cannot go back there
# but through what the stream keeps.
(cd "$D" && tar cf "$T/t.tar" obj/names.o lib/libnames.so lib/libnames-stripped.so) ||
    fail "tar"
"$ELFSCAN" --hardening --format=json --no-progress -j1 "$T/t.tar" >"$T/tar.json"
expect "the tarball: exit status 0" "$?" 0
verdicts() { python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    name = r.get("member") or r["path"][len(sys.argv[2]) + 1:]
    print(name, r["canary"], r["fortified"], r["unfortified"], r["symbols"])' "$@" | sort; }
expect "the members of a tarball judged as the files" "$(verdicts "$T/tar.json" "$T/t.tar")" \
    "$(verdicts "$T/out.json" "$D")"
finish
