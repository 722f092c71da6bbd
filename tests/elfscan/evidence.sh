#!/bin/sh
# What elfscan says of how an image was built (--hardening --code) and of
# why it asks for an executable stack, against binutils and elfutils:
# readelf --debug-dump=info for the compilation units, their producers and
# languages, objdump -d for GCC's trampolines and the stack probes,
# readelf -n and -p for annobin's notes, eu-readelf -n for build-ids
# (check_evidence.py). The fixtures are built here with gcc and clang, one
# for each option: -O0 and -O2, -fstack-clash-protection, -fcf-protection,
# -ftrivial-auto-var-init, -flto, the stack protectors, clang's
# -grecord-command-line with -D_FORTIFY_SOURCE=3 and -D_GLIBCXX_ASSERTIONS,
# a library of an assembly source without .note.GNU-stack, nested
# functions (trampolines) at -O0 and -O2, annobin's notes in both forms.
# Then the causes in a static library's members (readelf -S shows which
# has no .note.GNU-stack, objdump the trampoline), --require's new words, a stripped program whose debug file lies in
# a root's .build-id tree, one whose debug file there is another build's,
# the same in a package and its -dbgsym package named together (and in a
# -debuginfo rpm), and DWARF
# that lies about its sizes: a clear message, the image still judged.
. "$top_srcdir/tests/lib.sh"
need gcc clang readelf objdump objcopy strip eu-readelf python3 dpkg-deb \
    ar rpmbuild
: "${ELFSCAN:?}"

D=$T/tree
E=$FIX/evidence
mkdir -p "$D"
build() { out=$1; shift; "$@" -o "$D/$out" 2>>"$T/build.log" || fail "build $out"; }
F=$E/frames.c

build g-O0 gcc -g -O0 "$F"
build g-O2 gcc -g -O2 "$F"
build g-clash gcc -g -O2 -fstack-clash-protection "$F"
build g-cf gcc -g -O2 -fcf-protection=full "$F"
build g-avi gcc -g -O2 -ftrivial-auto-var-init=zero "$F"
build g-lto gcc -g -O2 -flto "$F" "$FIX/lib.c"
build g-sp gcc -g -O2 -fstack-protector "$F"
build g-spstrong gcc -g -O2 -fstack-protector-strong "$F"
build g-fortify3 gcc -g -O2 -D_FORTIFY_SOURCE=3 "$F"
# Two units, one with stack clash protection and one without: 1/2.
gcc -g -O2 -fstack-clash-protection -c -o "$T/frames.o" "$F" &&
    gcc -g -O2 -c -o "$T/lib.o" "$FIX/lib.c" ||
    fail "build the units of g-mixed"
build g-mixed gcc "$T/frames.o" "$T/lib.o"
build c-rec clang -g -O2 -grecord-command-line -fstack-clash-protection \
    -D_FORTIFY_SOURCE=3 -D_GLIBCXX_ASSERTIONS "$F"
build c-norec clang -g -O2 "$F"
build c-clash clang -O2 -fstack-clash-protection "$F"
build c-O0 clang -g -O0 -grecord-command-line "$F"
build libasm.so gcc -g -shared -fPIC -Wl,--no-warn-execstack \
    "$FIX/system/asm-answer.S" "$FIX/lib.c"
build tramp gcc -g -O2 -Wl,--no-warn-execstack "$FIX/trampoline.c"
build tramp-O0 gcc -g -O0 -Wl,--no-warn-execstack "$FIX/trampoline.c"
build tramp-clang-lib.so clang -g -O2 -shared -fPIC "$FIX/lib.c"
as -o "$D/annobin-notes.o" "$E/annobin-notes.s" &&
    as -o "$D/annobin-strings.o" "$E/annobin-strings.s" ||
    fail "build the annobin fixtures"
[ -s "$T/build.log" ] && sed 's/^/  build: /' "$T/build.log"

# The oracles show what the fixtures were built to show.
lang=$(readelf --debug-dump=info "$D/libasm.so" | grep -c 'DW_AT_language *: 32769')
expect "readelf: libasm.so has one unit in assembly (MIPS assembler)" "$lang" 1
expect "readelf: libasm.so asks for an executable stack" \
    "$(readelf_stack "$D/libasm.so")" RWE
expect "objdump: tramp builds a trampoline (movl \$0x90e3ff49)" \
    "$(objdump -d "$D/tramp" | grep -c 'movl *\$0x90e3ff49,')" 1
expect "objdump: at -O0 too, through another register" \
    "$(objdump -d "$D/tramp-O0" | grep -c 'movl *\$0x90e3ff49,0x[0-9a-f]*(%r[a-z]*)')" 1
expect "readelf: clang recorded -D _FORTIFY_SOURCE=3" \
    "$(readelf --debug-dump=info "$D/c-rec" | grep -c 'DW_AT_producer.*-D _FORTIFY_SOURCE=3')" 1
expect "readelf: gcc never records -D" \
    "$(readelf --debug-dump=info "$D/g-fortify3" | grep -c 'DW_AT_producer.*FORTIFY')" 0

"$ELFSCAN" --hardening --code --format=json --no-progress -j1 "$D" \
    >"$T/out.json" 2>"$T/err"
st=$?
expect "elfscan --hardening --code: exit status 1 (exec stacks)" "$st" 1
expect "nothing on stderr" "$(cat "$T/err")" ""
python3 "$top_srcdir/tests/elfscan/check_evidence.py" "$D" "$T/out.json" \
    >"$T/check.log"
s=$?
grep -v '^ok:' "$T/check.log"
expect "check_evidence.py: elfscan agrees with readelf, objdump and eu-readelf on every image ($(grep -c '^ok:' "$T/check.log") checks)" \
    "$s" 0

# The fractions, for the record (check_evidence.py compared them).
field() { python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("path", "").endswith("/" + sys.argv[2]) and "member" not in r:
        v = r
        for k in sys.argv[3].split("."):
            v = v[k] if v is not None else None
        print(json.dumps(v))' "$T/out.json" "$@"; }
expect "g-mixed: stack clash protection in 1 of 2 units" \
    "$(field g-mixed evidence.options.stack_clash)/$(field g-mixed evidence.recorded)" 1/2
expect "g-O0: -O0" "$(field g-O0 evidence.options.O0)" 1
expect "c-rec: FORTIFY 3 and _GLIBCXX_ASSERTIONS recorded" \
    "$(field c-rec evidence.options.fortify) $(field c-rec evidence.options.glibcxx_assertions)" \
    "[0, 0, 0, 1] 1"
expect "g-fortify3: gcc's FORTIFY level is unknown" \
    "$(field g-fortify3 evidence.options.fortify)" null
expect "c-norec: clang without -grecord-command-line records nothing" \
    "$(field c-norec evidence.unrecorded) $(field c-norec evidence.recorded)" "1 0"
expect "g-lto: LTO's unit and the -flto units" \
    "$(field g-lto evidence.gimple) $(field g-lto evidence.options.lto)" "1 2"
expect "stack clash: by the code, probed or not; by the units" \
    "$(field g-clash stack_clash) $(field g-O2 stack_clash) $(field c-clash stack_clash)" \
    "true false true"
expect "annobin's notes, both forms" \
    "$(field annobin-notes.o evidence.annobin.fortify) $(field annobin-strings.o evidence.annobin.stack_protector)" \
    "[2, 3] [0, 3]"

# Why they ask, and whether chstk -E is safe.
expect "libasm.so: from its assembly source, likely safe" \
    "$(field libasm.so cause) $(field libasm.so exec_safe)" \
    '"from the assembly source '"$FIX"'/system/asm-answer.S" "likely"'
expect "tramp: trampolines, not safe" "$(field tramp exec_safe) $(field tramp trampolines)" '"no" 1'
expect "tramp-O0: the same" "$(field tramp-O0 exec_safe)" '"no"'
expect_match "the cause is in why" "$(field libasm.so why)" '*asm-answer.S; chstk -E: likely safe*'

# The objects of a static library, each judged as a member: the one
# assembled without .note.GNU-stack, the one whose note asks (a nested
# function's trampoline), the one that asks nothing. readelf -S on the
# archive shows each member's note, objdump the trampoline.
mkdir -p "$T/ar"
gcc -g -c -o "$T/ar/asm.o" "$FIX/system/asm-answer.S" &&
    gcc -g -O2 -c -o "$T/ar/tramp.o" "$FIX/trampoline.c" &&
    gcc -g -O2 -c -o "$T/ar/lib.o" "$FIX/lib.c" &&
    (cd "$T/ar" && ar rc libx.a asm.o tramp.o lib.o) || fail "build libx.a"
notes=$(readelf -SW "$T/ar/libx.a" | awk '
    /^File: / { m = $2; sub(/.*\(/, "", m); sub(/\)$/, "", m); seen[m] = "none" }
    /\.note\.GNU-stack/ { seen[m] = ($0 ~ / X /) ? "X" : "-" }
    END { print seen["asm.o"], seen["tramp.o"], seen["lib.o"] }')
expect "readelf: asm.o has no .note.GNU-stack, tramp.o's asks (X), lib.o's not" \
    "$notes" "none X -"
expect "objdump: tramp.o builds a trampoline" \
    "$(objdump -d "$T/ar/tramp.o" | grep -c 'movl *\$0x90e3ff49,')" 1
"$ELFSCAN" --format=json --no-progress -j1 "$T/ar/libx.a" >"$T/ar.json"
expect "libx.a: exit status 1 (exec stacks)" "$?" 1
arm() { python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("member") == sys.argv[2]:
        print(" ".join(json.dumps(r.get(k)) for k in sys.argv[3:]))' "$T/ar.json" "$@"; }
expect "libx.a!asm.o: no .note.GNU-stack, named as the cause" \
    "$(arm asm.o cause exec_safe)" \
    '"it has no .note.GNU-stack: an assembly source, or a tool that does not write the note" "unknown"'
expect "libx.a!tramp.o: its note asks, and its code builds a trampoline: not safe" \
    "$(arm tramp.o cause exec_safe trampolines)" \
    '"its .note.GNU-stack asks for an executable stack: its compiler asked; GCC nested-function trampolines (1 built on the stack in its code)" "no" 1'
expect "libx.a!lib.o: no cause, nothing asked" "$(arm lib.o cause effective)" 'null "noexec"'
# The members come judged as they are read: the one that asks nothing
# first, before those read again for why, in the archive's order (ar t).
(cd "$T/ar" && ar rc liby.a lib.o tramp.o asm.o) || fail "build liby.a"
"$ELFSCAN" --format=json --no-progress -j1 "$T/ar/liby.a" >"$T/ar.json"
expect "liby.a: the records in ar t's order" \
    "$(python3 -c 'import json, sys
print(" ".join(json.loads(l).get("member") or "-" for l in open(sys.argv[1])))' "$T/ar.json")" \
    "$(cd "$T/ar" && ar t liby.a | tr '\n' ' ' | sed 's/ $//')"
expect "liby.a!tramp.o, after a member judged: its cause" \
    "$(arm tramp.o exec_safe trampolines)" '"no" 1'
expect "liby.a!asm.o: its cause" "$(arm asm.o exec_safe cause)" \
    '"unknown" "it has no .note.GNU-stack: an assembly source, or a tool that does not write the note"'

# The text: records one line each, the causes and builds after them,
# wrapped as the notes are (the words compared, not where lines break).
"$ELFSCAN" --hardening --no-progress -j1 "$D/libasm.so" "$D/tramp" "$D/g-mixed" >"$T/text"
expect "text: one record a line" "$(sed -n '2,4p' "$T/text" | grep -vc '^[a-z]')" 0
words=$(tr -s ' \n' '  ' <"$T/text")
expect_match "text: why each asks" "$words" \
    "* Why they get an executable stack, and whether 'chstk -E' is safe: $D/libasm.so: from the assembly source $FIX/system/asm-answer.S; chstk -E: likely safe: no sign the code runs code on its stack $D/tramp: GCC nested-function trampolines (1 built on the stack in its code); chstk -E: not safe: GCC trampolines *"
expect_match "text: how they were built" "$words" \
    "* How they were built, by their DWARF and annobin's notes: $D/g-mixed: 2 units (GNU C17 *): -O2+ 2/2, stack-clash 1/2, *"
expect "text: the lines fit in 79 columns, but for a path longer" \
    "$(awk 'length($0) > 79 && !/^(exec|noexec|absent|STACK) /' "$T/text" | grep -v "[^ ]\{40\}")" ""

# --require's words: a finding where the evidence shows the option missing.
"$ELFSCAN" -q --no-progress -j1 --format=json \
    --require stack-clash,optimized,auto-var-init "$D" >"$T/req.json"
expect "--require: findings, exit status 1" "$?" 1
findings() { python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("path", "").endswith("/" + sys.argv[2]) and "member" not in r:
        print(" ".join(f for f in r["findings"] if f in
              ("no-stack-clash", "not-optimized", "no-auto-var-init")))' "$T/req.json" "$1"; }
expect "--require: g-O0 lacks all three" "$(findings g-O0)" \
    "no-stack-clash not-optimized no-auto-var-init"
expect "--require: g-avi lacks stack clash protection only" "$(findings g-avi)" "no-stack-clash"
expect "--require: g-clash lacks auto-var-init only" "$(findings g-clash)" "no-auto-var-init"
expect "--require: c-clash (no DWARF): the code shows the probes" "$(findings c-clash)" ""
expect "--require: annobin-notes.o: the notes say a function lacks two" \
    "$(findings annobin-notes.o)" "no-stack-clash not-optimized"

# Separate debug files in a root's .build-id tree: a stripped program
# whose debug file is there, and one whose file there is another build's.
R=$T/root
id() { eu-readelf -n "$1" | sed -n 's/.*Build ID: //p'; }
mkdir -p "$R/usr/bin"
cp "$D/g-mixed" "$R/usr/bin/prog" && strip "$R/usr/bin/prog" &&
    cp "$D/g-avi" "$R/usr/bin/other" && strip "$R/usr/bin/other" ||
    fail "strip the programs"
expect "eu-readelf: strip kept the build-id" "$(id "$R/usr/bin/prog")" "$(id "$D/g-mixed")"
expect "readelf: the stripped program has no DWARF" \
    "$(readelf -S "$R/usr/bin/prog" | grep -c debug_info)" 0
p=$(id "$R/usr/bin/prog") o=$(id "$R/usr/bin/other")
mkdir -p "$R/usr/lib/debug/.build-id/$(echo "$p" | cut -c1-2)" \
    "$R/usr/lib/debug/.build-id/$(echo "$o" | cut -c1-2)"
pdbg=/usr/lib/debug/.build-id/$(echo "$p" | cut -c1-2)/$(echo "$p" | cut -c3-).debug
odbg=/usr/lib/debug/.build-id/$(echo "$o" | cut -c1-2)/$(echo "$o" | cut -c3-).debug
objcopy --only-keep-debug "$D/g-mixed" "$R$pdbg" &&
    objcopy --only-keep-debug "$D/g-cf" "$R$odbg" || fail "make the debug files"
expect "eu-readelf: the debug file is the program's build" "$(id "$R$pdbg")" "$p"
expect "eu-readelf: the other's is not" "$(test "$(id "$R$odbg")" != "$o" && echo yes)" yes
"$ELFSCAN" --system --hardening --format=json --no-progress -j1 "$R" \
    >"$T/root.json" 2>"$T/root.err"
rec() { python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("path") == sys.argv[2]:
        print(json.dumps(r["evidence"][sys.argv[3]]))' "$T/root.json" "$R$1" "$2"; }
expect "root: the debug file found by build-id" "$(rec /usr/bin/prog debug_file)" "\"$pdbg\""
expect "root: its units read" "$(rec /usr/bin/prog units) $(rec /usr/bin/prog recorded)" "2 2"
expect "root: another build's debug file: said, not used" \
    "$(rec /usr/bin/other debug_problem) $(rec /usr/bin/other units)" \
    "\"the debug file $odbg has build-id $(id "$R$odbg"), not $o: not used\" 0"
python3 "$top_srcdir/tests/elfscan/check_evidence.py" "$R" "$T/root.json" \
    >"$T/check-root.log"
s=$?
grep -v "^ok:" "$T/check-root.log"
expect "check_evidence.py: the units of the debug file found are readelf's" "$s" 0

# The same in packages: a program's package and its -dbgsym package named
# together; the -dbgsym package is read first, not scanned itself.
mkdir -p "$T/pkg/usr/bin" "$T/dbg/usr/lib/debug/.build-id/$(echo "$p" | cut -c1-2)" \
    "$T/dbg/usr/lib/debug/.build-id/$(echo "$o" | cut -c1-2)"
cp "$R/usr/bin/prog" "$R/usr/bin/other" "$T/pkg/usr/bin/"
cp "$R$pdbg" "$T/dbg$pdbg" && cp "$R$odbg" "$T/dbg$odbg"
pack_deb "$T/pkg" "$T/prog_1.0_amd64.deb" -Zxz &&
    pack_deb "$T/dbg" "$T/prog-dbgsym_1.0_amd64.deb" -Zxz ||
    fail "build the .deb packages"
"$ELFSCAN" --hardening --format=json --no-progress -j1 \
    "$T/prog_1.0_amd64.deb" "$T/prog-dbgsym_1.0_amd64.deb" >"$T/pkg.json" 2>"$T/pkg.err"
member() { python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("member", "").endswith(sys.argv[2]):
        v = r["evidence"]
        for k in sys.argv[3].split("."):
            v = v[k]
        print(json.dumps(v))' "$T/${json:-pkg}.json" "$1" "$2"; }
expect "deb: the program's debug file from the -dbgsym package" \
    "$(member usr/bin/prog debug_file)" "\"$T/prog-dbgsym_1.0_amd64.deb!${pdbg#/}\""
expect "deb: its units" "$(member usr/bin/prog recorded) $(member usr/bin/prog options.stack_clash)" "2 1"
expect "deb: another build's debug file: said, not used" \
    "$(member usr/bin/other debug_problem)" "\"the debug file $T/prog-dbgsym_1.0_amd64.deb!${odbg#/} has build-id $(id "$R$odbg"), not $o: not used\""
records_of() { python3 -c '
import json, sys
print(sum(json.loads(l).get("path", "").endswith(sys.argv[2]) for l in open(sys.argv[1])))' "$@"; }
expect "deb: the -dbgsym package is not scanned itself" \
    "$(records_of "$T/pkg.json" prog-dbgsym_1.0_amd64.deb)" 0
expect "deb: exit status 0, nothing on stderr" "$(cat "$T/pkg.err")" ""
# And Fedora's pair: a -debuginfo rpm beside the program's rpm.
pack_rpm "$T/pkg" "$T/prog-1-1.x86_64.rpm" &&
    pack_rpm "$T/dbg" "$T/prog-debuginfo-1-1.x86_64.rpm" ||
    fail "build the rpm packages"
"$ELFSCAN" --hardening --format=json --no-progress -j1 \
    "$T/prog-1-1.x86_64.rpm" "$T/prog-debuginfo-1-1.x86_64.rpm" >"$T/rpm.json" 2>"$T/rpm.err"
json=rpm
expect_match "rpm: the program's debug file from the -debuginfo rpm" \
    "$(member usr/bin/prog debug_file)" "\"$T/prog-debuginfo-1-1.x86_64.rpm!*${pdbg#/}\""
expect "rpm: its units" "$(member usr/bin/prog recorded) $(member usr/bin/prog options.stack_clash)" "2 1"
expect_match "rpm: another build's debug file: said, not used" \
    "$(member usr/bin/other debug_problem)" "\"the debug file $T/prog-debuginfo-1-1.x86_64.rpm!*${odbg#/} has build-id $(id "$R$odbg"), not $o: not used\""
expect "rpm: the -debuginfo rpm is not scanned itself" \
    "$(records_of "$T/rpm.json" prog-debuginfo-1-1.x86_64.rpm)" 0
expect "rpm: exit status 0, nothing on stderr" "$(cat "$T/rpm.err")" ""
json=

# DWARF that lies: a .debug_info past the end of the file, a unit longer
# than its section, a unit whose abbreviations lie beyond .debug_abbrev, a
# compressed section claiming a terabyte, a string section without its
# last NUL. Each: a clear message, the image still judged, the scan goes
# on; and no run of elfscan takes long (timeout, a bound only a hang meets).
python3 - "$D/g-O2" "$T/hostile" <<'PY' || fail "make the hostile files"
import os, struct, sys, zlib
src, out = sys.argv[1], sys.argv[2]
os.makedirs(out)
data = bytes(open(src, "rb").read())
shoff, = struct.unpack_from("<Q", data, 0x28)
shnum, shstrndx = struct.unpack_from("<HH", data, 0x3c)
def shdr(d, i):
    return struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * 64)
names = shdr(data, shstrndx)[4]
def find(name):
    for i in range(shnum):
        h = shdr(data, i)
        n = data[names + h[0]:data.index(b"\0", names + h[0])].decode()
        if n == name:
            return i, h
def write(name, d):
    open(os.path.join(out, name), "wb").write(d)
i, h = find(".debug_info")
d = bytearray(data)
struct.pack_into("<Q", d, shoff + i * 64 + 32, len(data) * 4)      # sh_size
write("info-past-end", d)
d = bytearray(data)
struct.pack_into("<I", d, h[4], 0xfffffff0)                         # unit_length
write("unit-too-long", d)
d = bytearray(data)
struct.pack_into("<I", d, h[4] + 6, 0x7ffffff0)                     # debug_abbrev_offset (DWARF 5)
write("abbrev-beyond", d)
d = bytearray(data)
struct.pack_into("<Q", d, shoff + i * 64 + 8, h[2] | 0x800)         # SHF_COMPRESSED
struct.pack_into("<IIQQ", d, h[4], 1, 0, 1 << 40, 1)                # Elf64_Chdr: zlib, a terabyte
write("compressed-terabyte", d)
i, h = find(".debug_str")
d = bytearray(data)
d[h[4] + h[5] - 1] = ord("x")                                       # the last NUL
write("strings-unended", d)
PY
for f in info-past-end unit-too-long abbrev-beyond compressed-terabyte strings-unended; do
	timeout "$hang" "$ELFSCAN" --hardening --no-progress -j1 "$T/hostile/$f" "$D/g-clash" \
	    >"$T/h.out" 2>"$T/h.err"
	st=$?
	expect "hostile $f: exit status 0 (not an error: the image was read)" "$st" 0
	expect_match "hostile $f: one clear message" "$(cat "$T/h.err")" \
	    "elfscan: $T/hostile/$f: cannot read its DWARF: *"
	expect "hostile $f: one line of it" "$(wc -l <"$T/h.err" | tr -d ' ')" 1
	expect "hostile $f: both images judged" "$(grep -c '^noexec' "$T/h.out")" 2
	sed 's/^/  /' "$T/h.err"
done
"$ELFSCAN" --hardening --format=json --no-progress -j1 "$T/hostile" >"$T/h.json"
expect "hostile: in JSON, each record carries its reason" \
    "$(grep -c '"evidence_error":"' "$T/h.json")" 5
finish
