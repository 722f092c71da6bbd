#!/bin/sh
# elfscan on trees built to hurt it: symbolic link loops (with and without
# -L), FIFOs in the tree and on the command line, a directory 10,000 levels
# deep (paths of 20,000 bytes), a directory of 100,000 entries, files that
# are truncated, regrown, removed and replaced by FIFOs, directories and
# links while elfscan scans them, and sparse files of 8 GiB whose headers
# claim gigabytes: a program, an object whose section name table is 3 GiB,
# a program whose dynamic segment is, an object claiming 30 million
# sections, one claiming 30 million program headers, and archives with a
# 3 GiB long-name table or an 8 GiB member. Each time elfscan finishes well within
# its timeout, reports each file (and each problem) once, and stays within
# a memory bound (GNU time's maximum resident size): a scan must never read
# what a header claims, only what it needs.
. "$top_srcdir/tests/lib.sh"
need gcc python3 timeout mkfifo /usr/bin/time
: "${ELFSCAN:?}"
# The bound is far below the 3 GiB a claimed region would take if it were
# read, and the limits let such a read happen (so that it shows) without
# taking the machine's memory; the sanitizers' runtime needs more memory
# for itself, and cannot run under ulimit -v.
if [ "${SANITIZERS:-no}" = yes ]; then
	maxkb=1048576
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:max_allocation_size_mb=4096"
else
	maxkb=102400
	ulimit -v 6291456
fi

gcc -o "$T/exec" -z execstack "$FIX/hello.c" &&
    gcc -o "$T/prog" "$FIX/hello.c" &&
    gcc -c -o "$T/obj.o" "$FIX/lib.c" || fail "build the fixtures"
head -c 200 "$T/prog" >"$T/truncated"

# scan NAME ELFSCAN-ARGS...: run elfscan with JSON output into $T/out, its
# errors into $T/err, its status into $status and its peak memory into $kb.
scan() {
	name=$1
	shift
	timeout $hang /usr/bin/time -o "$T/time" -f %M \
	    "$ELFSCAN" --no-progress --format=json "$@" >"$T/out" 2>"$T/err"
	status=$?
	kb=$(tail -1 "$T/time")
	[ "$status" -le 2 ] && pass "$name: finished (status $status)" ||
	    { fail "$name: status $status"; cat "$T/err"; }
	[ "${kb:-0}" -le "$maxkb" ] && pass "$name: $kb KB at most" ||
	    fail "$name: $kb KB, more than $maxkb"
}
# How many records (an image, or a file that does not read) name a path
# ending in $1; the records (path and member) that come more than once.
records() { grep -c "\"path\":\"[^\"]*$1\"" "$T/out"; }
twice() {
	sed -n 's/.*\("path":"[^"]*"\(,"member":"[^"]*"\)\{0,1\}\).*/\1/p' \
	    "$T/out" | sort | uniq -d
	sort "$T/err" | uniq -d
}
once() {	# NAME SUFFIX: that path is reported once, and no other twice
	expect "$1: reported once" "$(records "$2")" 1
	expect "$1: nothing reported twice" "$(twice)" ""
}

# Symbolic link loops, FIFOs.
L=$T/loops
mkdir -p "$L/a/b"
cp "$T/exec" "$L/a/b/exec"
ln -s . "$L/self"
ln -s ../.. "$L/a/b/up"
ln -s loop2 "$L/loop1"
ln -s loop1 "$L/loop2"
ln -s "$L" "$L/a/absolute"
mkfifo "$L/fifo" "$L/a/fifo"
for follow in "" -L; do
	scan "links${follow:+ $follow}" $follow "$L"
	once "links${follow:+ $follow}: the program" /exec
	expect "links${follow:+ $follow}: silent" "$(cat "$T/err")" ""
done
scan "a FIFO named on the command line" "$L/fifo"
# Reported as chstk does, an error (status 2); never opened, or the scan
# would wait for a writer that never comes.
expect "a FIFO named on the command line: reported, not opened" "$(cat "$T/out")" \
    "{\"path\":\"$L/fifo\",\"error\":\"not a regular file or directory\",\"findings\":[]}"
expect "a FIFO named on the command line: an error" "$status" 2

# 10,000 levels: paths of 20,000 bytes, twice PATH_MAX over.
python3 -c '
import os, shutil, sys
os.chdir(sys.argv[1])
for i in range(10000):
    if i == 5000:
        shutil.copy(sys.argv[3], "halfway")
    os.mkdir("d")
    os.chdir("d")
shutil.copy(sys.argv[2], "bottom")
' "$T" "$T/exec" "$T/truncated" || fail "build the deep tree"
scan "10,000 levels" "$T/d"
once "10,000 levels: the program at the bottom" /bottom
once "10,000 levels: the truncated file halfway" /halfway
expect "10,000 levels: the whole path" \
    "$(sed -n 's/.*"path":"\([^"]*bottom\)".*/\1/p' "$T/out" | wc -c)" \
    "$((${#T} + 2 * 10000 + 8))"
expect "10,000 levels: the program at the bottom: exec" \
    "$(grep -c '/bottom",.*"stack":"exec"' "$T/out")" 1
expect "10,000 levels: the halfway file: malformed" \
    "$(grep -c '/halfway","error"' "$T/out")" 1
expect "10,000 levels: silent" "$(cat "$T/err")" ""

# 100,000 entries in one directory: empty files, and links to a program.
W=$T/wide
python3 -c '
import os, sys
w = sys.argv[1]
os.mkdir(w)
for i in range(100000):
    name = os.path.join(w, "f%06d" % i)
    if i % 10000 == 0:
        os.link(sys.argv[2], name)
    else:
        open(name, "w").close()
' "$W" "$T/exec" || fail "build the wide directory"
scan "100,000 entries" --summary "$W"
expect "100,000 entries: every file looked at" \
    "$(sed -n 's/.*"files":\([0-9]*\).*/\1/p' "$T/out")" 100000
expect "100,000 entries: the 10 programs, once each" \
    "$(grep -c '"path":"[^"]*/f[0-9]*0000"' "$T/out")" 10
expect "100,000 entries: silent" "$(cat "$T/err")" ""

# Files that change, vanish and change kind during the scan.
C=$T/changing
mkdir "$C"
i=0
while [ $i -lt 200 ]; do cp "$T/prog" "$C/p$i"; i=$((i + 1)); done
python3 -c '
import os, random, shutil, sys, time
c, prog, stop = sys.argv[1:4]
size = os.path.getsize(prog)
while not os.path.exists(stop):
    p = os.path.join(c, "p%d" % random.randrange(200))
    try:
        if os.path.isdir(p) and not os.path.islink(p):
            os.rmdir(p)
        elif os.path.lexists(p):
            os.unlink(p)
        k = random.randrange(6)
        if k == 0:
            os.mkfifo(p)
        elif k == 1:
            os.mkdir(p)
        elif k == 2:
            os.symlink(os.path.basename(p), p)
        else:
            shutil.copy(prog, p)
            os.truncate(p, random.randrange(size + 1))
    except OSError:
        pass
' "$C" "$T/prog" "$T/stop" &
mutator=$!
bad=0 scans=0 problems=0
while [ $scans -lt 30 ]; do
	scans=$((scans + 1))
	timeout $hang "$ELFSCAN" --no-progress --format=json -j2 "$C" >"$T/out" 2>"$T/err"
	status=$?
	if [ $status -gt 2 ] || [ -n "$(twice)" ] ||
	    grep -qv '^elfscan: ' "$T/err"; then
		bad=$((bad + 1))
		echo "scan $scans: status $status"
		cat "$T/err"
	fi
	problems=$((problems + $(grep -c '"error"' "$T/out") + $(wc -l <"$T/err")))
done
: >"$T/stop"
wait $mutator
expect "$scans scans of a changing tree: finished, each file and problem once" "$bad" 0
echo "figure: $scans scans of a changing tree: $problems problems reported"

# Sparse files of 8 GiB whose headers claim gigabytes.
S=$T/sparse
mkdir "$S"
python3 -c '
import os, struct, sys
s, prog, obj = sys.argv[1], open(sys.argv[2], "rb").read(), open(sys.argv[3], "rb").read()
G = 1 << 30
C = 3 * G
def sparse(name, size, parts):
    with open(os.path.join(s, name), "wb") as f:
        f.truncate(size)
        for off, data in parts:
            f.seek(off)
            f.write(data)
def ar(name, size):
    return ("%-16s%-12s%-6s%-6s%-8s%-10d`\n" % (name, 0, 0, 0, 644, size)).encode()
sparse("program", 8 * G, [(0, prog)])
o = bytearray(obj)
shoff, strndx = struct.unpack_from("<Q", o, 0x28)[0], struct.unpack_from("<H", o, 0x3e)[0]
struct.pack_into("<QQ", o, shoff + 64 * strndx + 24, len(obj), C)
sparse("names.o", 8 * G, [(0, o)])
p = bytearray(prog)
phoff, phnum = struct.unpack_from("<Q", p, 0x20)[0], struct.unpack_from("<H", p, 0x38)[0]
for i in range(phnum):
    if struct.unpack_from("<I", p, phoff + 56 * i)[0] == 2:
        struct.pack_into("<Q", p, phoff + 56 * i + 8, len(prog))
        struct.pack_into("<Q", p, phoff + 56 * i + 32, C)
sparse("dynamic", 8 * G, [(0, p)])
n = 30000000
e = bytearray(obj[:64])
struct.pack_into("<Q", e, 0x28, 64)
struct.pack_into("<HHH", e, 0x3a, 64, 0, 0)
sparse("sections.o", 64 + 64 * (n + 1), [(0, e), (64 + 32, struct.pack("<Q", n))])
e = bytearray(prog[:64])
struct.pack_into("<QQ", e, 0x20, 64 + 64, 64)
struct.pack_into("<HHHH", e, 0x36, 56, 0xffff, 64, 1)
sparse("phdrs", 128 + 56 * n, [(0, e), (64 + 44, struct.pack("<I", n))])
sparse("names.a", 8 + 60 + C + 60 + len(obj),
       [(0, b"!<arch>\n" + ar("//", C)), (8 + 60 + C, ar("/0", len(obj)) + obj)])
sparse("member.a", 8 + 60 + 8 * G, [(0, b"!<arch>\n" + ar("big.o/", 8 * G) + obj)])
sparse("bsd.a", 8 + 60 + 8 * G + 8,
       [(0, b"!<arch>\n" + ar("#1/8", 8 * G + 8) + b"bigbsd.o" + obj)])
sparse("claims.a", 8 + 60 + len(obj), [(0, b"!<arch>\n" + ar("short.o/", 8 * G) + obj)])
' "$S" "$T/prog" "$T/obj.o" || fail "build the sparse files"
expect "the sparse files take almost no disk" "$(du -sk "$S" | cut -f1)" \
    "$(du -sk "$S" | awk '$1 < 1024 { print $1 }')"
for f in program names.o dynamic sections.o phdrs names.a member.a bsd.a claims.a; do
	scan "sparse $f" "$S/$f"
	once "sparse $f" "/$f"
	expect "sparse $f: silent" "$(cat "$T/err")" ""
	cp "$T/out" "$T/out-$f"
done
# What each one is, by readelf where it can tell, or a clear refusal.
for f in program dynamic; do
	expect "sparse $f: the marking readelf reads" \
	    "$(sed -n 's/.*"stack":"\([a-z]*\)".*/\1/p' "$T/out-$f")" \
	    "$(state_of_flags "$(readelf_stack "$S/$f")")"
	expect "sparse $f: a PIE" "$(grep -c '"type":"pie"' "$T/out-$f")" 1
done
expect "sparse names.o: no name is .note.GNU-stack" \
    "$(grep -c '"stack":"absent"' "$T/out-names.o")" 1
expect_match "sparse sections.o: refused" "$(cat "$T/out-sections.o")" \
    '*"error":"30000000 sections, more than the 1048576 this library reads"*'
expect_match "sparse phdrs: refused" "$(cat "$T/out-phdrs")" \
    '*"error":"30000000 program headers, more than the 1048576 this library reads"*'
expect_match "sparse names.a: the member read" "$(cat "$T/out-names.a")" '*"stack":"noexec"*'
expect_match "sparse member.a: the member read" "$(cat "$T/out-member.a")" \
    '*"member":"big.o",*"stack":"noexec"*'
expect_match "sparse bsd.a: the member read in place" "$(cat "$T/out-bsd.a")" \
    '*"member":"bigbsd.o",*"stack":"noexec"*'
expect_match "sparse claims.a: refused" "$(cat "$T/out-claims.a")" \
    '*"error":"damaged archive: member at offset 8 runs past the end of the file"*'
scan "the sparse files together" -j4 "$S"
expect "the sparse files together: nothing reported twice" "$(twice)" ""
expect "the sparse files together: one record each" "$(wc -l <"$T/out")" 9
finish
