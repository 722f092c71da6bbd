#!/bin/sh
# elfscan --hardening's versions of annocheck's tests of the binary alone
# (annobin 12.70, hardened.c; elfscan(1), HARDENING), on fixtures built here
# for each: text relocations (gcc, clang and lld, i386, DF_TEXTREL alone),
# two dynamic segments or sections (a linker script, a second SHT_DYNAMIC),
# the property note and each of its faults (patched copies of a CET
# library), ENDBR at the entry point of programs with their own start code
# and at the exported functions of libraries (gcc, clang, with an assembly
# function that lacks it; i386; AArch64 BTI and PAC landing pads),
# DT_AARCH64_BTI_PLT and PAC_PLT (lld, ld.bfd), an executable PT_TLS and a
# PT_GNU_STACK without write (linker scripts), GNU_RELRO's coverage (bfd,
# lld, -z now, a segment cut short), run paths in and outside /usr and
# $ORIGIN, bidirectional, zero-width, control and non-UTF-8 characters in
# symbol names, a Go and a Rust program.
#
# annocheck is not the oracle: annobin's sources cannot be fetched where
# the tests run (neither Debian nor the network CI reaches carries them).
# Each member is checked against readelf, objdump (x86 and AArch64) and
# `go version` by check_annotests.py; annocheck's verdicts on the same
# fixtures were compared by hand, and where they differ, elfscan(1) says
# why. Then --require's words and findings, the text columns, and the same
# answers from inside a tarball and a Debian package (the stream keeps the
# image whole).
. "$top_srcdir/tests/lib.sh"
need gcc clang ld.lld cpp readelf objdump aarch64-linux-gnu-objdump \
    aarch64-linux-gnu-ld python3 strip go rustc dpkg-deb zstd
: "${ELFSCAN:?}"

D=$T/tree
mkdir -p "$D/x86" "$D/i386" "$D/a64" "$D/names" "$D/paths" "$D/lang" \
    "$D/prop" "$D/seg"
F=$FIX/annocheck
build() { out=$1; shift; "$@" -o "$out" || fail "build $out"; }
# patch FILE PYTHON: edit FILE's bytes d in place, with the headers at hand:
# ph(type) the offsets of the program headers of that type, sh(name) the
# offset of the section header named name.
patch() {
	python3 - "$1" "$2" <<'PY' || fail "patch $1"
import struct, sys
path, code = sys.argv[1], sys.argv[2]
d = bytearray(open(path, "rb").read())
phoff, shoff = struct.unpack_from("<QQ", d, 0x20)
phnum, = struct.unpack_from("<H", d, 0x38)
shnum, shstrndx = struct.unpack_from("<HH", d, 0x3c)
def ph(t):
    return [phoff + 56 * i for i in range(phnum)
            if struct.unpack_from("<I", d, phoff + 56 * i)[0] == t]
names = struct.unpack_from("<Q", d, shoff + 64 * shstrndx + 24)[0]
def sh(name):
    for i in range(shnum):
        o = shoff + 64 * i
        n = names + struct.unpack_from("<I", d, o)[0]
        if d[n:n + len(name) + 1] == name.encode() + b"\0":
            return o
exec(code)
open(path, "wb").write(d)
PY
}

# Text relocations, and a library without.
build "$D/x86/libtextrel.so" gcc -O2 -fno-PIC -mcmodel=large -shared \
    -Wl,-z,notext "$F/textrel.c"
build "$D/x86/libtextrel-lld.so" clang -O2 -fno-PIC -mcmodel=large \
    -fuse-ld=lld -shared -Wl,-z,notext "$F/textrel.c"
build "$D/i386/libtextrel.so" gcc -m32 -O2 -fno-PIC -shared -Wl,-z,notext \
    "$F/textrel.c"
build "$D/x86/libpic.so" gcc -O2 -fPIC -shared "$F/textrel.c"
# DF_TEXTREL alone, as glibc reads it too (elf/get-dynamic-info.h): the
# DT_TEXTREL entry made DT_DEBUG.
cp "$D/x86/libtextrel.so" "$D/x86/libdftextrel.so"
patch "$D/x86/libdftextrel.so" '
o = struct.unpack_from("<Q", d, ph(2)[0] + 8)[0]
while struct.unpack_from("<q", d, o)[0] != 0:
    if struct.unpack_from("<q", d, o)[0] == 0x16:
        struct.pack_into("<q", d, o, 0x15)
    o += 16'

# Two PT_DYNAMIC; a second SHT_DYNAMIC section.
build "$D/x86/libtwodyn.so" gcc -O2 -fPIC -shared -nostdlib \
    -Wl,-T,"$F/twodyn.ld" "$F/textrel.c"
build "$D/x86/libdynsec.so" gcc -O2 -fPIC -shared "$F/textrel.c" \
    "$F/dynamic2.S"

# Landing pads. Debian 12's start files lack ENDBR64 and the CET marking:
# programs with their own _start, libraries without start files.
CET="-O2 -fPIC -shared -nostartfiles -fcf-protection=full"
build "$D/x86/libcet.so" gcc $CET -Wl,-z,x86-64-v2 "$F/exports.c"
build "$D/x86/libcet-asm.so" gcc $CET "$F/exports.c" "$F/noendbr.S"
build "$D/x86/libcet-clang.so" clang -fuse-ld=lld $CET "$F/exports.c"
build "$D/x86/libplain.so" gcc -O2 -fPIC -shared -fcf-protection=none \
    "$F/exports.c"
build "$D/x86/prog-endbr" gcc -O2 -fcf-protection=full -nostartfiles \
    "$F/start.c"
build "$D/x86/prog-noendbr" gcc -O2 -fcf-protection=none -nostartfiles \
    "$F/start.c"
build "$D/x86/prog-crt1" gcc -O2 -fcf-protection=full "$FIX/hello.c"
build "$D/x86/prog-now" gcc -O2 -Wl,-z,relro,-z,now "$FIX/hello.c"
build "$D/i386/prog-endbr" gcc -m32 -O2 -fcf-protection=full -nostartfiles \
    "$F/start.c"
build "$D/i386/prog-noendbr" gcc -m32 -O2 -fcf-protection=none \
    -nostartfiles "$F/start.c"
build "$D/i386/libcet.so" gcc -m32 $CET "$F/exports.c"

# The property note: well formed (libcet.so: IBT and SHSTK, then the x86
# ISA needed), and a copy with each fault.
P=$D/prop
for f in misaligned order size feature notfirst many; do
	cp "$D/x86/libcet.so" "$P/lib$f.so"
done
cp "$D/x86/libcet.so" "$P/libok.so"
patch "$P/libmisaligned.so" 'struct.pack_into("<Q", d, ph(0x6474e553)[0] + 48, 4)'
patch "$P/liborder.so" '
o = struct.unpack_from("<Q", d, ph(0x6474e553)[0] + 8)[0] + 16
d[o:o + 32] = d[o + 16:o + 32] + d[o:o + 16]'
patch "$P/libsize.so" '
o = struct.unpack_from("<Q", d, ph(0x6474e553)[0] + 8)[0]
struct.pack_into("<I", d, o + 4, 0x1c)'
patch "$P/libfeature.so" '
o = struct.unpack_from("<Q", d, ph(0x6474e553)[0] + 8)[0]
struct.pack_into("<I", d, o + 20, 8)'
patch "$P/libnotfirst.so" '
o = struct.unpack_from("<Q", d, ph(0x6474e553)[0] + 8)[0]
struct.pack_into("<I", d, o + 8, 4)'
# The build-id note that follows made a second property note, inside the
# segment.
patch "$P/libmany.so" '
p = ph(0x6474e553)[0]
o, size = struct.unpack_from("<Q", d, p + 8)[0], struct.unpack_from("<Q", d, p + 32)[0]
assert d[o + size + 12:o + size + 16] == b"GNU\0"
struct.pack_into("<I", d, o + size + 8, 5)
struct.pack_into("<QQ", d, p + 32, size + 40, size + 40)'

# AArch64: landing pads, DT_AARCH64_BTI_PLT and PAC_PLT, by lld and bfd.
A64="clang --target=aarch64-linux-gnu -O2 -fPIC -c"
$A64 -mbranch-protection=standard -o "$T/a64-bti.o" "$F/exports.c" ||
    fail "build a64-bti.o"
$A64 -mbranch-protection=none -o "$T/a64-none.o" "$F/exports.c" ||
    fail "build a64-none.o"
build "$D/a64/libbti.so" ld.lld -shared "$T/a64-bti.o"
build "$D/a64/libbti-pacplt.so" ld.lld -shared -z pac-plt "$T/a64-bti.o"
build "$D/a64/libbti-bfd.so" aarch64-linux-gnu-ld -shared "$T/a64-bti.o"
build "$D/a64/libnone.so" ld.lld -shared "$T/a64-none.o"

# Segments: an executable PT_TLS, a PT_GNU_STACK read-only, neither.
for s in tls-exec:5:6 stack-r:4:4 plain:4:6; do
	n=${s%%:*} fl=${s#*:}
	cpp -P -DTLSFLAGS="${fl%:*}" -DSTACKFLAGS="${fl#*:}" "$F/segments.ld" \
	    >"$T/$n.ld" || fail "cpp $n.ld"
	build "$D/seg/$n" gcc -O2 -static -nostdlib -Wl,-T,"$T/$n.ld" \
	    "$F/tls.c" 2>/dev/null
done

# GNU_RELRO: bfd and lld, lazy and immediate binding, and a segment cut
# short before .got.
build "$D/x86/librelro.so" gcc -O2 -fPIC -shared "$F/exports.c"
build "$D/x86/librelro-lld.so" clang -O2 -fPIC -shared -fuse-ld=lld \
    -Wl,-z,now "$F/exports.c"
cp "$D/x86/librelro.so" "$D/x86/librelro-cut.so"
patch "$D/x86/librelro-cut.so" '
p = ph(0x6474e552)[0]
got = struct.unpack_from("<Q", d, sh(".got") + 16)[0]
start = struct.unpack_from("<Q", d, p + 16)[0]
struct.pack_into("<QQ", d, p + 32, got - start, got - start)'

# Run paths.
i=0
for p in /opt/x/lib '$ORIGIN/lib' '$ORIGIN/../lib' /usr/lib/x /usrx/lib \
    '${ORIGIN}/lib' /usr/lib:/opt/y; do
	i=$((i + 1))
	build "$D/paths/runpath$i" gcc -O2 -Wl,--enable-new-dtags,-rpath,"$p" \
	    "$FIX/hello.c"
done
build "$D/paths/rpath" gcc -O2 -Wl,--disable-new-dtags,-rpath,/srv/lib \
    "$FIX/hello.c"

# Symbol names: right-to-left override, zero-width space, a byte no
# UTF-8 starts with, a harmless é, é then an override (annocheck stops
# reading at the é), a control character and a space (patched in).
i=0
for n in 'user\342\200\256nimda' 'zero\342\200\213width' 'bad\377utf8' \
    'caf\303\251' 'caf\303\251\342\200\256evil' 'ctlXname' 'withXspace'; do
	i=$((i + 1))
	build "$D/names/lib$i.so" gcc -O2 -shared -fPIC -DNAME="\"$n\"" \
	    "$F/names.c"
done
patch "$D/names/lib6.so" 'd[:] = d.replace(b"ctlXname", b"ctl\x01name")'
patch "$D/names/lib7.so" 'd[:] = d.replace(b"withXspace", b"with space")'

# Go and Rust, and Rust stripped (no trace left).
mkdir -p "$T/go"
(cd "$T/go" && HOME=$T/go GOCACHE=$T/go/cache GOPATH=$T/go/path \
    GO111MODULE=off GOFLAGS= go build -o "$D/lang/go-hello" "$F/hello.go") ||
    fail "build go-hello"
build "$D/lang/rust-hello" rustc -O "$F/hello.rs"
strip -o "$D/lang/rust-stripped" "$D/lang/rust-hello" || fail "strip rust"

"$ELFSCAN" --hardening --format=json --no-progress -j1 "$D" >"$T/out.json" 2>"$T/err"
expect "elfscan --hardening: exit status 0" "$?" 0
expect "nothing on stderr" "$(cat "$T/err")" ""
python3 "$top_srcdir/tests/elfscan/check_annotests.py" "$D" "$T/out.json" >"$T/check.log"
s=$?
cat "$T/check.log"
expect "check_annotests.py: elfscan agrees with readelf, objdump and go version" "$s" 0

# What no oracle above says in a word: the faults' texts, the entries
# outside, the first suspicious name.
field() { python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("path", "").endswith("/" + sys.argv[2]):
        print(json.dumps(r[sys.argv[3]]))' "$T/out.json" "$@"; }
expect "the override, escaped" "$(field names/lib1.so suspicious_symbol)" \
    '"user\\xe2\\x80\\xaenimda"'
expect "the control character, escaped" "$(field names/lib6.so suspicious_symbol)" \
    '"ctl\\x01name"'
expect "a harmless é" "$(field names/lib4.so suspicious_symbols)" 0
expect "the entries outside" "$(field paths/runpath7 outside_paths)" '"/opt/y"'
expect "a cut RELRO" "$(field x86/librelro-cut.so relro_gaps)" '".got"'
# glibc ignores a note out of order or misaligned, and the IBT it asks for.
expect "IBT of a note glibc ignores, and of one it reads" \
    "$(field prop/liborder.so ibt) $(field prop/libmisaligned.so ibt) $(field prop/libok.so ibt)" \
    "false false true"
expect "Go's version" "$(field lang/go-hello go_version)" \
    "\"$(go version "$D/lang/go-hello" | sed 's/.*: //')\""

# Text: the TEXTREL and ENDBR columns.
"$ELFSCAN" --hardening --no-progress -j1 "$D/x86/libtextrel.so" \
    "$D/x86/libcet-asm.so" "$D/x86/prog-endbr" >"$T/text"
expect "text columns TEXTREL and ENDBR" \
    "$(awk 'NR > 1 { print $14, $15 }' "$T/text")" \
"yes 0/1
no 2/3
no yes"
expect "the header names them" "$(head -1 "$T/text" | awk '{ print $14, $15 }')" \
    "TEXTREL ENDBR"

# --require: each word gives its finding where the oracles said so, and
# only there.
"$ELFSCAN" --no-progress --format=json -j1 \
    --require textrel,one-dynamic,property-note,endbr,bti-plt,segments,relro-coverage,run-path,unicode \
    "$D" >"$T/req.json"
expect "--require: findings, exit status 1" "$?" 1
expect "--require: each finding where the members say" "$(python3 - "$T/req.json" <<'PY'
import json, sys
rules = {
    "text-relocations": lambda r: r["textrel"] is True,
    "multiple-dynamic": lambda r: r["dynamic_segments"] > 1 or r["dynamic_sections"] > 1,
    "bad-property-note": lambda r: r["property_note"] not in (None, "ok"),
    "no-endbr": lambda r: r["entry_endbr"] is False or
        (r["exported_endbr"] or 0) < (r["exported_functions"] or 0),
    "no-bti-plt": lambda r: r["bti_plt"] is False,
    "odd-segment": lambda r: r["odd_segments"] != [],
    "relro-gap": lambda r: r["relro_gaps"] not in (None, ""),
    "run-path-outside": lambda r: r["outside_paths"] not in (None, ""),
    "suspicious-symbol": lambda r: (r["suspicious_symbols"] or 0) > 0,
}
n = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "findings" not in r or "textrel" not in r:
        continue
    for f, rule in rules.items():
        if (f in r["findings"]) != rule(r):
            print(r["path"], f)
        n += f in r["findings"]
print(n > 9)
PY
)" "True"
"$ELFSCAN" --no-progress --require textrel "$D/x86/libpic.so" >/dev/null
expect "--require textrel: a PIC library passes" "$?" 0

# Lying sizes: a clear message for the file, nothing read outside it, the
# other files reported. .go.buildinfo placed past the end; a Go version
# of 200 bytes, not kept (not an error: earlier Go writes pointers there);
# a static program's code cut off below its entry point (its section
# headers dropped, so that the entry is what fails).
H=$T/hostile
mkdir "$H"
cp "$D/lang/go-hello" "$H/go-offset"
patch "$H/go-offset" 'struct.pack_into("<Q", d, sh(".go.buildinfo") + 24, 1 << 40)'
cp "$D/lang/go-hello" "$H/go-length"
patch "$H/go-length" '
o = struct.unpack_from("<Q", d, sh(".go.buildinfo") + 24)[0]
d[o + 32:o + 34] = bytes([0xc8, 0x01])'
cp "$D/seg/plain" "$H/entry-cut"
patch "$H/entry-cut" '
struct.pack_into("<Q", d, 0x28, 0)
struct.pack_into("<HH", d, 0x3c, 0, 0)
entry = struct.unpack_from("<Q", d, 0x18)[0]
t = ph(1)[0]
off = struct.unpack_from("<Q", d, t + 8)[0] + entry - struct.unpack_from("<Q", d, t + 16)[0]
d[:] = d[:off + 2]'
cp "$D/x86/libcet.so" "$H/good.so"
"$ELFSCAN" --hardening --format=json --no-progress -j1 "$H" >"$T/h.json" 2>"$T/h.err"
expect "hostile: a malformed file is a finding, exit status 1" "$?" 1
expect "hostile: what failed, for each" "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    cut = "malformed" in r.get("findings", [])
    print(r["path"].split("/")[-1], r.get("error", "cut short" if cut else
        r.get("go_version", "-")))' "$T/h.json" | sort)" \
"entry-cut cut short
go-length None
go-offset Go build information runs past the end of the file
good.so None"
expect "hostile: nothing on stderr" "$(cat "$T/h.err")" ""

# The same answers from a tarball and a Debian package, read as streams.
mkdir -p "$T/pkg/DEBIAN" "$T/pkg/usr/lib"
cp -r "$D/x86" "$D/a64" "$D/names" "$D/prop" "$T/pkg/usr/lib/" || fail "stage"
printf 'Package: annotests\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@example.org>\nDescription: t\n' \
    >"$T/pkg/DEBIAN/control"
dpkg-deb --root-owner-group -Zzstd --build "$T/pkg" "$T/a.deb" >/dev/null ||
    fail "dpkg-deb"
tar -C "$T/pkg/usr/lib" -cf - . | zstd -q >"$T/a.tar.zst" || fail "tar"
"$ELFSCAN" --hardening --format=json --no-progress -j1 "$T/a.deb" \
    "$T/a.tar.zst" >"$T/pk.json"
staged=$(find "$T/pkg/usr/lib" -type f | wc -l)
expect "packages: the members judged as the files" "$(python3 - "$T/out.json" "$T/pk.json" <<'PY'
import json, os, sys
keys = ["textrel", "dynamic_segments", "dynamic_sections", "property_note",
        "entry_endbr", "exported_functions", "exported_endbr", "bti_plt",
        "pac_plt", "odd_segments", "relro_gaps", "suspicious_symbols"]
files = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    if "textrel" in r:
        parts = r["path"].split("/")
        files["/".join(parts[-2:])] = r
n = bad = 0
for l in open(sys.argv[2]):
    r = json.loads(l)
    if "textrel" not in r:
        continue
    key = "/".join(r["member"].split("/")[-2:])
    f = files[key]
    n += 1
    for k in keys:
        if r[k] != f[k]:
            bad += 1
            print(r["path"], r["member"], k, r[k], f[k])
print(n, bad)
PY
)" "$((2 * staged)) 0"
finish
