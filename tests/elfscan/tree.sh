#!/bin/sh
# elfscan against readelf, file by file. A tree of real files: programs,
# shared objects and objects in every marking, 64- and 32-bit x86 from two
# linkers, an archive, a W^X program, foreign programs (PowerPC and s390x
# big-endian, AArch64, MIPS) whose defaults differ, a static program left
# unmarked, an i386 program in the ASCII armor, and things that are not
# ELF or are broken: a truncated program, text, an empty file, a FIFO, a
# socket, symbolic link loops. elfscan's JSON must agree with readelf on
# every field, give the verdicts of the documented rules, name every ELF
# file and member once, report the broken file, and finish (no FIFO read).
. "$top_srcdir/tests/lib.sh"
need gcc clang ld.lld nasm readelf python3 timeout ar \
    powerpc-linux-gnu-as powerpc-linux-gnu-ld s390x-linux-gnu-as s390x-linux-gnu-ld \
    aarch64-linux-gnu-as aarch64-linux-gnu-ld mips-linux-gnu-as mips-linux-gnu-ld
: "${ELFSCAN:?}"

D=$T/tree
mkdir -p "$D/bin" "$D/lib" "$D/obj" "$D/cross" "$D/junk" "$D/deep/a/b/c"
LLD="clang -fuse-ld=lld -Wl,-z,nognustack"
gcc -o "$D/bin/noexec64" "$FIX/hello.c" &&
    gcc -z execstack -o "$D/bin/exec64" "$FIX/hello.c" &&
    $LLD -o "$D/bin/absent64" "$FIX/hello.c" &&
    gcc -m32 -no-pie -o "$D/bin/noexec32" "$FIX/hello.c" &&
    $LLD -m32 -o "$D/deep/a/b/c/absent32" "$FIX/hello.c" &&
    gcc -static -o "$D/bin/static64" "$FIX/hello.c" &&
    $LLD -static -o "$D/bin/static-absent64" "$FIX/hello.c" &&
    gcc -m32 -no-pie -Wl,-Ttext-segment=0x200000 -o "$D/bin/armored32" "$FIX/hello.c" &&
    gcc -shared -fPIC -o "$D/lib/libnoexec.so" "$FIX/lib.c" &&
    gcc -shared -fPIC -z execstack -o "$D/lib/libexec.so" "$FIX/lib.c" &&
    $LLD -shared -fPIC -o "$D/lib/libabsent.so" "$FIX/lib.c" &&
    $LLD -m32 -shared -fPIC -o "$D/lib/libabsent32.so" "$FIX/lib.c" &&
    gcc -c -o "$D/obj/note.o" "$FIX/lib.c" &&
    gcc -c -Wa,--execstack -o "$D/obj/execnote.o" "$FIX/lib.c" &&
    printf '\t.text\n\tret\n' | as -o "$D/obj/nonote.o" &&
    (cd "$D/obj" && ar rc libmix.a note.o nonote.o execnote.o) &&
    nasm -f bin -DPFLAGS=7 -o "$D/bin/wx" "$FIX/tiny64.asm" ||
    fail "build the tree"
for m in ppc:powerpc-linux-gnu s390x:s390x-linux-gnu aarch64:aarch64-linux-gnu mips:mips-linux-gnu; do
	n=${m%%:*} t=${m#*:}
	"$t-as" -o "$T/$n.o" "$FIX/cross/$n.s" &&
	    "$t-ld" -T "$FIX/cross/noheaders.ld" -o "$D/cross/$n-absent" "$T/$n.o" &&
	    "$t-ld" -z noexecstack -o "$D/cross/$n-noexec" "$T/$n.o" 2>/dev/null ||
	    fail "build $n"
done
head -c 300 "$D/bin/noexec64" >"$D/junk/truncated"
printf 'hello\n' >"$D/junk/text"
: >"$D/junk/empty"
mkfifo "$D/junk/fifo"
python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$D/junk/socket"
ln -s . "$D/junk/loop"
ln -s loop2 "$D/junk/loop1"
ln -s loop1 "$D/junk/loop2"
ln -s ../bin/exec64 "$D/junk/link-to-exec"

# --all: the foreign programs, linked by ld alone, carry no tag for Linux;
# on a machine that runs none of them they would not be judged (their
# class is precision.sh's to check). Here the rules judge them.
timeout $hang "$ELFSCAN" --all --format=json --no-progress "$D" >"$T/out.json" 2>"$T/err"
status=$?
expect "findings: exit status 1" "$status" 1
expect "nothing on stderr" "$(cat "$T/err")" ""
python3 "$top_srcdir/tests/elfscan/check_json.py" "$D" "$T/out.json" >"$T/check.log"
s=$?
cat "$T/check.log"
expect "check_json.py agrees" "$s" 0
expect "the symbolic link is not followed" \
    "$(grep -c '"path":"[^"]*link-to-exec"' "$T/out.json")" 0

# The same tree in text: aligned columns, a header, one line per image,
# up to the blank line before the notes on the findings.
"$ELFSCAN" --all --no-progress "$D" 2>/dev/null | sed '/^$/,$d' >"$T/out.txt"
expect "text: a header and a line for each image that reads" \
    "$(wc -l <"$T/out.txt")" "$(($(grep -vc '"error"' "$T/out.json") + 1))"
expect "text: columns aligned" \
    "$(awk 'NR > 1 && !/malformed/ { print index($0, "/") }' "$T/out.txt" | sort -u | wc -l)" 1
expect_match "text: archive members as archive!member" "$(cat "$T/out.txt")" "*libmix.a!nonote.o*"
expect_match "text: the malformed file on stderr" \
    "$("$ELFSCAN" --no-progress "$D/junk" 2>&1 >/dev/null)" "*junk/truncated: malformed ELF: *"

# A damaged ar archive is a damaged archive, a finding (exit 1), malformed,
# not an error, which --allow waives: on disk, after the members before the
# damage, and inside a tarball. ar(1) agrees that it is damaged.
A=$T/damaged
mkdir "$A"
printf '!<arch>\n%-60s' 'not a member header' >"$A/bad.a"
cp "$D/obj/libmix.a" "$A/cut.a" && printf '%-60s' 'garbage where a header goes' >>"$A/cut.a"
tar -C "$A" -cf "$T/damaged.tar" bad.a
expect "ar(1) cannot list the damaged archives" \
    "$(ar t "$A/bad.a" >/dev/null 2>&1; echo $?) $(ar t "$A/cut.a" >/dev/null 2>&1; echo $?)" "1 1"
"$ELFSCAN" --no-progress "$A/bad.a" >"$T/dmg.out" 2>"$T/dmg.err"
expect "a damaged archive: exit 1" "$?" 1
expect "a damaged archive: said so" "$(sed "s|$A/||" "$T/dmg.err")" \
    "elfscan: bad.a: damaged archive: member at offset 8: bad header"
"$ELFSCAN" --no-progress --format=json "$A/cut.a" >"$T/dmg.json" 2>/dev/null
expect "damaged after its members: exit 1" "$?" 1
expect "damaged after its members: the members before, then the error" \
    "$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l); print(r.get("member") or r.get("error"), r["findings"])' "$T/dmg.json")" \
    "note.o []
nonote.o ['exec-stack', 'no-gnu-stack-note']
execnote.o ['exec-stack']
damaged archive: member at offset $(($(stat -c %s "$D/obj/libmix.a"))): bad header ['malformed']"
"$ELFSCAN" --no-progress "$T/damaged.tar" >/dev/null 2>"$T/dmg.err"
expect "a damaged archive in a tarball: exit 1" "$?" 1
expect "a damaged archive in a tarball: said so" "$(sed "s|$T/||" "$T/dmg.err")" \
    "elfscan: damaged.tar!bad.a: damaged archive: member at offset 8: bad header"
printf '%s\n' "$A/bad.a" "$T/damaged.tar" >"$T/dmg.allow"
"$ELFSCAN" --no-progress --allow "$T/dmg.allow" "$A/bad.a" "$T/damaged.tar" \
    >/dev/null 2>"$T/dmg.err"
expect "damaged archives --allow names: exit 0" "$?" 0
expect "damaged archives --allow names: nothing said" "$(cat "$T/dmg.err")" ""

# A FIFO, socket or device named on the command line is an error, as chstk
# says too; the other paths are scanned, and nothing is opened.
timeout 60 "$ELFSCAN" --no-progress "$D/junk/fifo" "$D/junk/socket" /dev/null \
    "$D/bin/noexec64" >"$T/special.out" 2>"$T/special.err"
expect "special files named: exit 2" "$?" 2
expect "special files named: each said" "$(sed "s|$D/||" "$T/special.err")" \
    "elfscan: junk/fifo: not a regular file or directory
elfscan: junk/socket: not a regular file or directory
elfscan: /dev/null: not a regular file or directory"
expect_match "special files named: the program is scanned" "$(cat "$T/special.out")" "*bin/noexec64"
expect_match "chstk says so too" "$("$CHSTK" -v "$D/junk/fifo" 2>&1)" "*fifo: not a regular file"

# -L follows links; the loops end.
timeout $hang "$ELFSCAN" -L --format=json --no-progress "$D/junk" >"$T/follow.json" 2>/dev/null
expect "-L: finishes despite the loops" "$?" 1
expect "-L: the link to a program is followed" \
    "$(grep -c '"path":"[^"]*link-to-exec"' "$T/follow.json")" 1
finish
