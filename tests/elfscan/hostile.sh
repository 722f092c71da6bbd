#!/bin/sh
# elfscan on broken and hostile containers: each gives one clear error
# naming the file (and the member), the members before it are reported,
# the files after it are scanned, and the scan ends in bounded processor
# time and memory with exit status 2; an ELF member that does not parse is a
# "malformed" finding (status 1), as a plain file is. The inputs: a .tar.gz
# truncated in the middle and at its start, a .deb with a corrupt data.tar,
# one cut before its data.tar, a zip bomb whose sizes are not declared, a
# .tar.zst of 1.1 GiB of zeros, a tar member declaring a terabyte it does
# not hold, members named ../../etc/x, /abs and 5000 bytes long, a zip name
# holding a NUL, the longest names nesting allows (an object in an .a in a
# tar in a tar, 4000 bytes each), an object too big to buffer (with and
# without a declared size), truncated and lying ELF members, and more
# entries than allowed.
# Valgrind watches the small ones.
. "$top_srcdir/tests/lib.sh"
need gcc python3 timeout tar gzip zstd dpkg-deb as valgrind /usr/bin/time
: "${ELFSCAN:?}"
S() { timeout $hang "$ELFSCAN" --no-progress "$@"; }

H=$T/h
mkdir -p "$H" "$T/good/usr/lib" "$T/debroot/DEBIAN" "$T/debroot/usr/lib"
gcc -shared -fPIC -z execstack -o "$T/good/usr/lib/libexec.so" "$FIX/lib.c" &&
    gcc -o "$T/prog" "$FIX/hello.c" || fail "build"
tar -C "$T/good" -czf "$T/good.tar.gz" usr || fail "good.tar.gz"

# Truncated: in the middle, after a first member; and at the start.
mkdir -p "$T/big"
cp "$T/good/usr/lib/libexec.so" "$T/big/a.so" &&
    head -c 3000000 /dev/urandom >"$T/big/noise" &&
    cp "$T/good/usr/lib/libexec.so" "$T/big/z.so" &&
    tar -C "$T/big" -czf "$T/whole.tar.gz" a.so noise z.so || fail "whole.tar.gz"
head -c 1500000 "$T/whole.tar.gz" >"$H/cut.tar.gz"
head -c 100 "$T/whole.tar.gz" >"$H/start.tar.gz"
S "$H/cut.tar.gz" "$T/good.tar.gz" >"$T/out" 2>"$T/err"
expect "a truncated .tar.gz: exit 2" "$?" 2
expect_match "a truncated .tar.gz: the error names it" "$(cat "$T/err")" \
    "elfscan: $H/cut.tar.gz*: cannot read archive: *"
expect "a truncated .tar.gz: one line of error" "$(wc -l <"$T/err")" 1
expect_match "a truncated .tar.gz: the member before the cut is reported" \
    "$(cat "$T/out")" "*cut.tar.gz!a.so*"
expect_match "a truncated .tar.gz: the next file is scanned" "$(cat "$T/out")" \
    "*good.tar.gz!usr/lib/libexec.so*"
S "$H/start.tar.gz" >/dev/null 2>"$T/err"
expect "cut at its start: exit 2" "$?" 2
expect_match "cut at its start: said" "$(cat "$T/err")" "*start.tar.gz: cannot read archive: *"

# .deb: a corrupt data.tar.xz, and one that ends before its data.tar.
cp "$T/good/usr/lib/libexec.so" "$T/debroot/usr/lib/" &&
    head -c 200000 /dev/urandom >"$T/debroot/usr/lib/noise" &&
    printf 'Package: t\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
    >"$T/debroot/DEBIAN/control" &&
    dpkg-deb --root-owner-group -Zxz --build "$T/debroot" "$T/t.deb" >/dev/null ||
    fail "t.deb"
cp "$T/t.deb" "$H/corrupt.deb"
size=$(stat -c %s "$H/corrupt.deb")
head -c 4096 /dev/zero | dd of="$H/corrupt.deb" bs=1 seek=$((size - 50000)) conv=notrunc status=none
head -c 100 "$T/t.deb" >"$H/nodata.deb"
S "$H/corrupt.deb" >/dev/null 2>"$T/err"
expect "a corrupt .deb: exit 2" "$?" 2
expect_match "a corrupt .deb: said" "$(cat "$T/err")" \
    "elfscan: $H/corrupt.deb*: cannot read archive: *"
S "$H/nodata.deb" >/dev/null 2>"$T/err"
expect "a .deb without data.tar: exit 2" "$?" 2
expect "a .deb without data.tar: said" "$(cat "$T/err")" \
    "elfscan: $H/nodata.deb: cannot read package: no data.tar member"

# Bombs: a zip member inflating to 1.1 GiB of zeros, its sizes in a data
# descriptor after the data (so declared nowhere before it), and a .tar.zst
# of as many zeros, which skipping would decompress. Both stop at the
# expansion limit. A tar member declaring a terabyte it does not hold costs
# nothing: it is malformed, and the archive truncated.
python3 - "$H/bomb.zip" <<'PY' || fail "bomb.zip"
import struct, sys, zlib
c = zlib.compressobj(9, zlib.DEFLATED, -15)
block = c.compress(bytes(1 << 20)) + c.flush(zlib.Z_FULL_FLUSH)
n = 1100
crc = 0
for i in range(n):
    crc = zlib.crc32(bytes(1 << 20), crc)
data = block * n + b"\x03\x00"
name = b"bomb.so"
local = struct.pack("<IHHHHHIIIHH", 0x04034b50, 20, 8, 8, 0, 0, 0, 0, 0, len(name), 0)
desc = struct.pack("<IIII", 0x08074b50, crc, len(data), n << 20)
central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 20, 20, 8, 8, 0, 0, crc,
                      len(data), n << 20, len(name), 0, 0, 0, 0, 0, 0) + name
off = len(local) + len(name) + len(data) + len(desc)
end = struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, 1, 1, len(central), off, 0)
open(sys.argv[1], "wb").write(local + name + data + desc + central + end)
PY
(python3 -c '
import sys, tarfile
t = tarfile.TarInfo("zero")
t.size = 1100 << 20
sys.stdout.buffer.write(t.tobuf(format=tarfile.GNU_FORMAT))'
    head -c 1100M /dev/zero; head -c 1024 /dev/zero) | zstd -q -1 >"$H/zeros.tar.zst" ||
    fail "zeros.tar.zst"
python3 - "$H/tera.tar" <<'PY' || fail "tera.tar"
import sys, tarfile
t = tarfile.TarInfo("huge.so")
t.size = 1 << 40
with open(sys.argv[1], "wb") as f:
    f.write(t.tobuf(format=tarfile.GNU_FORMAT) + b"\x7fELF" + bytes(508))
PY
# The bound is on processor time (user and system), not on the time that
# passes, which the machine's other work decides.
/usr/bin/time -f '%U %S %M' -o "$T/time" "$ELFSCAN" --no-progress -j 1 "$H/bomb.zip" \
    "$H/zeros.tar.zst" "$H/tera.tar" "$T/good.tar.gz" >"$T/out" 2>"$T/err"
expect "bombs: exit 2" "$?" 2
expect_match "bombs: one error each" "$(sed "s|$H/||" "$T/err")" \
    "elfscan: bomb.zip!bomb.so: stopped: the file expands past 1073741824 bytes (a decompression bomb?)
elfscan: zeros.tar.zst!zero: stopped: the file expands past 1073741824 bytes (a decompression bomb?)
elfscan: tera.tar!huge.so: malformed ELF: invalid ELF class 0
elfscan: tera.tar: cannot read archive: Truncated*"
expect_match "bombs: the next file is scanned" "$(cat "$T/out")" "*good.tar.gz!usr/lib/libexec.so*"
expect "bombs: in under 30 s of processor time and 64 MiB" \
    "$(tail -1 "$T/time" | awk '{ print ($1 + $2 < 30 && $3 < 65536) ? "yes" : $0 }')" yes

# Names that tar and bsdtar refuse to unpack, a long one, and a NUL.
python3 - "$H/names.tar" "$H/nul.zip" "$T/good/usr/lib/libexec.so" <<'PY' || fail "names"
import io, sys, tarfile, zipfile
data = open(sys.argv[3], "rb").read()
with tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT) as t:
    for n in ("../../etc/x", "/abs/lib.so", "a/../../b.so", "x" * 5000, "ok/lib.so"):
        i = tarfile.TarInfo(n)
        i.size = len(data)
        t.addfile(i, io.BytesIO(data))
b = io.BytesIO()
with zipfile.ZipFile(b, "w") as z:
    z.writestr("a\x01b.so", data)
    z.writestr("ok.so", data)
open(sys.argv[2], "wb").write(b.getvalue().replace(b"a\x01b.so", b"a\x00b.so"))
PY
S "$H/names.tar" >"$T/out" 2>"$T/err"
expect "unsafe names: exit 2" "$?" 2
expect "unsafe names: one error each, the safe member reported" \
    "$(sed "s|$H/||" "$T/err"; sed -n "s|.* $H/||p" "$T/out")" \
    "elfscan: names.tar!../../etc/x: not scanned: a member name with \"..\"
elfscan: names.tar!/abs/lib.so: not scanned: an absolute member name
elfscan: names.tar!a/../../b.so: not scanned: a member name with \"..\"
elfscan: names.tar!$(printf '%.64s' "$(printf 'x%.0s' $(seq 64))")...: not scanned: a member name longer than 4096 bytes
names.tar!ok/lib.so"
S --format=json "$H/nul.zip" >"$T/out" 2>"$T/err"
expect "a NUL in a zip name: read up to the NUL, no error" \
    "$(python3 -c 'import json, sys; print(sorted(json.loads(l)["member"] for l in sys.stdin))' <"$T/out"; cat "$T/err")" \
    "['a', 'ok.so']"

# The longest names: an object in an .a in a tar in a tar, each named with
# 4000 bytes (the .a's in its GNU long-name table).
gcc -c -o "$T/small.o" "$FIX/lib.c" || fail "small.o"
python3 - "$H/deep.tar" "$T/small.o" <<'PY' || fail "deep.tar"
import io, sys, tarfile
def field(v, n):
    return str(v).encode().ljust(n)
def ar(name, data):
    names = name.encode() + b"/\n"
    return (b"!<arch>\n" + field("//", 48) + field(len(names), 10) + b"`\n" +
            names + field("/0", 16) + field(0, 12) + field(0, 6) + field(0, 6) +
            field(644, 8) + field(len(data), 10) + b"`\n" + data +
            b"\n" * (len(data) % 2))
def tar(name, data):
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w", format=tarfile.PAX_FORMAT) as t:
        i = tarfile.TarInfo(name)
        i.size = len(data)
        t.addfile(i, io.BytesIO(data))
    return b.getvalue()
obj = open(sys.argv[2], "rb").read()
inner = tar("b" * 4000 + ".a", ar("c" * 4000 + ".o", obj))
open(sys.argv[1], "wb").write(tar("a" * 4000 + ".tar", inner))
PY
S --format=json "$H/deep.tar" >"$T/out" 2>"$T/err"
expect "the longest names: the object, named whole" \
    "$(python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    print(r["type"], [len(p) for p in r["member"].split("!")])' <"$T/out"; cat "$T/err")" \
    "object [4004, 4002, 4002]"

# An object too big to buffer: refused before reading when its size is
# declared (tar), at the limit when not (a zip written as a stream).
printf '\t.data\n\t.fill 70000000, 1, 0\n' | as -o "$T/big.o" || fail "big.o"
tar -C "$T" -cf - big.o prog | zstd -q -1 >"$H/bigobj.tar.zst"
python3 - "$H/bigobj.zip" "$T/big.o" "$T/prog" <<'PY' || fail "bigobj.zip"
import io, sys, zipfile
class Pipe(io.RawIOBase):
    def __init__(self, f): self.f = f
    def writable(self): return True
    def seekable(self): return False
    def write(self, b): return self.f.write(b)
with open(sys.argv[1], "wb") as f, zipfile.ZipFile(Pipe(f), "w", zipfile.ZIP_DEFLATED) as z:
    z.write(sys.argv[2], "big.o")
    z.write(sys.argv[3], "prog")
PY
/usr/bin/time -f '%M' -o "$T/time" "$ELFSCAN" --no-progress -j 1 "$H/bigobj.tar.zst" \
    "$H/bigobj.zip" >"$T/out" 2>"$T/err"
expect "too big to buffer: exit 2" "$?" 2
expect_match "too big to buffer: said, for each" "$(sed "s|$H/||" "$T/err")" \
    "elfscan: bigobj.tar.zst!big.o: cannot scan member: 700????? bytes to buffer, more than 67108864
elfscan: bigobj.zip!big.o: cannot scan member: more than 67108864 bytes to buffer"
expect "too big to buffer: the next members are scanned" "$(grep -c '!prog$' "$T/out")" 2
# AddressSanitizer's shadow memory and quarantine make the peak meaningless
# in a sanitizer build; the plain build's run of this test measures it.
if [ "${SANITIZERS:-no}" = yes ]; then
	echo "not checked: memory while refusing to buffer (a sanitizer build)"
else
	expect "too big to buffer: memory stays under 64 MiB + 32 MiB" \
	    "$(tail -1 "$T/time" | awk '{ print $1 < 98304 ? "yes" : $1 " KiB" }')" yes
fi

# ELF members that do not parse are findings (status 1), not errors.
head -c 300 "$T/prog" >"$T/cut.so"
cp "$T/prog" "$T/lying.so"
# e_phoff (offset 32, 8 bytes) far past the member's end
printf '\000\000\000\000\000\001\000\000' | dd of="$T/lying.so" bs=1 seek=32 conv=notrunc status=none
tar -C "$T" -cf "$H/malformed.tar" cut.so lying.so prog
S "$H/malformed.tar" >"$T/out" 2>"$T/err"
expect "malformed members: exit 1 (findings, no error)" "$?" 1
expect "malformed members: each said" "$(sed "s|$H/||; s|: malformed ELF: .*||" "$T/err")" \
    "elfscan: malformed.tar!cut.so
elfscan: malformed.tar!lying.so"

# More entries than allowed: a million and one, in 60 kB of zstd.
python3 -c '
import sys, tarfile
t = tarfile.TarInfo("e")
block = t.tobuf(format=tarfile.USTAR_FORMAT) * 10000
for i in range(101):
    sys.stdout.buffer.write(block)
sys.stdout.buffer.write(bytes(1024))' | zstd -q -1 >"$H/many.tar.zst"
S "$H/many.tar.zst" >/dev/null 2>"$T/err"
expect "a million and one entries: exit 2" "$?" 2
expect "a million and one entries: said" "$(sed "s|$H/||" "$T/err")" \
    "elfscan: many.tar.zst: stopped: more than 1000000 members"

# No invalid read or leak on the small ones, under valgrind; valgrind cannot
# run a program built with AddressSanitizer, which checks the same itself.
if [ "${SANITIZERS:-no}" = yes ]; then
	echo "not checked: valgrind (a sanitizer build)"
	finish
fi
real=$(dirname "$ELFSCAN")/.libs/elfscan
[ -x "$real" ] || real=$ELFSCAN
LD_LIBRARY_PATH=$top_builddir/lib/.libs timeout $((3 * hang)) valgrind -q --error-exitcode=99 \
    --leak-check=full --errors-for-leak-kinds=definite "$real" --no-progress -j 2 \
    "$H/cut.tar.gz" "$H/start.tar.gz" "$H/corrupt.deb" "$H/nodata.deb" "$H/tera.tar" \
    "$H/names.tar" "$H/nul.zip" "$H/deep.tar" "$H/malformed.tar" "$T/good.tar.gz" "$T/t.deb" \
    >/dev/null 2>"$T/vg"
expect "valgrind: no error (exit 2 is the scan's)" "$?" 2
expect "valgrind: nothing to say" "$(grep -v '^elfscan: ' "$T/vg")" ""
finish
