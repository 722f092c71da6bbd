#!/bin/sh
# elfscan inside packages, wheels and tarballs, against readelf on what the
# packaging tools unpack. One tree of real files (an executable-stack
# library, an unmarked one from lld, a clean one, a 32-bit one, an ar
# archive of objects with and without .note.GNU-stack, a static PIE whose
# dynamic section lies 5 MB in, so that telling it from a library needs a
# read far into the stream, and files that are not ELF) is packed with the
# real tools: dpkg-deb (xz, zstd, none), rpmbuild (gzip and zstd payloads),
# python3's zipfile (a wheel with declared sizes, a jar written as a stream
# without them), tar (plain, gzip, xz, zstd, bzip2), cpio (plain, gzip), and
# a tarball holding a wheel, the jar and a .deb. Each container is unpacked
# with the tool that reads it (dpkg-deb -x, rpm2cpio | cpio, zipfile, tar,
# cpio) and every record elfscan gives for a member must agree with readelf
# on the unpacked file, every ELF file unpacked must have its record
# (check_json.py). Then: names as container!member, an ar archive bigger
# than what a member may buffer read object by object, -A in directories, a
# .deb is not taken for an ar archive, -0 and --allow on members.
. "$top_srcdir/tests/lib.sh"
need gcc clang ld.lld readelf python3 timeout ar as dpkg-deb rpmbuild \
    rpm2cpio cpio tar gzip xz zstd bzip2 /usr/bin/time
: "${ELFSCAN:?}"
S() { "$ELFSCAN" --no-progress "$@"; }

R=$T/root
mkdir -p "$R/usr/lib" "$R/usr/bin" "$R/usr/share/doc/t" "$T/obj" "$T/c"
LLD="clang -fuse-ld=lld -Wl,-z,nognustack"
printf 'const char big[5 << 20] = { 1 };\n' >"$T/big.c"
gcc -shared -fPIC -z execstack -o "$R/usr/lib/libexec.so" "$FIX/lib.c" &&
    $LLD -shared -fPIC -o "$R/usr/lib/libabsent.so" "$FIX/lib.c" &&
    gcc -shared -fPIC -o "$R/usr/lib/libclean.so" "$FIX/lib.c" &&
    gcc -m32 -shared -fPIC -z execstack -o "$R/usr/lib/libexec32.so" "$FIX/lib.c" &&
    gcc -static-pie -o "$R/usr/bin/bigpie" "$T/big.c" "$FIX/hello.c" &&
    gcc -c -o "$T/obj/note.o" "$FIX/lib.c" &&
    printf '\t.text\n\tret\n' | as -o "$T/obj/nonote.o" &&
    ar rc "$R/usr/lib/libmix.a" "$T/obj/note.o" "$T/obj/nonote.o" ||
    fail "build the tree"
printf 'not ELF\n' >"$R/usr/share/doc/t/README"
# data to be skipped, more than a read's worth, and not compressible
head -c 300000 /dev/urandom >"$R/usr/share/doc/t/data"
printf 'a changelog\n' | gzip -9n >"$R/usr/share/doc/t/changelog.gz"
off=$(readelf -lW "$R/usr/bin/bigpie" | awk '$1 == "DYNAMIC" { print $2 }')
expect "the static PIE's dynamic section is past 4 MB" "$((${off:-0} > 0x400000))" 1

# .deb
for z in xz zstd none; do
	pack_deb "$R" "$T/c/t-$z.deb" -Z"$z" || fail "dpkg-deb -Z$z"
done
# .rpm
for p in gzip:w9.gzdio zstd:w19.zstdio; do
	pack_rpm "$R" "$T/c/t-${p%%:*}.rpm" --define "_binary_payload ${p#*:}" ||
	    fail "rpmbuild ${p%%:*}"
done
# zip: a wheel, and a jar written to a pipe (no sizes before the data)
python3 - "$R" "$T/c/t-1.0-py3-none-any.whl" "$T/c/t.jar" <<'PY' || fail "zip"
import io, os, sys, zipfile
root, whl, jar = sys.argv[1:]
def files():
    for top, dirs, names in os.walk(root):
        for n in sorted(names):
            p = os.path.join(top, n)
            yield p, os.path.relpath(p, root)
with zipfile.ZipFile(whl, "w", zipfile.ZIP_DEFLATED) as z:
    for p, n in files():
        z.write(p, n)
class Pipe(io.RawIOBase):
    def __init__(self, f): self.f = f
    def writable(self): return True
    def seekable(self): return False
    def write(self, b): return self.f.write(b)
with open(jar, "wb") as f, zipfile.ZipFile(Pipe(f), "w") as z:
    for i, (p, n) in enumerate(files()):
        z.write(p, n, zipfile.ZIP_STORED if i % 2 else zipfile.ZIP_DEFLATED)
PY
# tar and cpio
tar -C "$R" -cf "$T/c/t.tar" . || fail "tar"
for c in gzip:gz xz:xz zstd:zst bzip2:bz2; do
	"${c%%:*}" -c <"$T/c/t.tar" >"$T/c/t.tar.${c#*:}" || fail "${c%%:*}"
done
(cd "$R" && find . | cpio -o -H newc --quiet) >"$T/c/t.cpio" &&
    gzip -c <"$T/c/t.cpio" >"$T/c/t.cpio.gz" || fail "cpio"
# a tarball of a wheel, a jar and a .deb
mkdir -p "$T/outer/wheels" "$T/outer/debs" &&
    cp "$T/c/t-1.0-py3-none-any.whl" "$T/outer/wheels/t.whl" &&
    cp "$T/c/t.jar" "$T/outer/wheels/t.jar" &&
    cp "$T/c/t-xz.deb" "$T/outer/debs/t.deb" &&
    tar -C "$T/outer" -czf "$T/c/nested.tar.gz" wheels debs || fail "nested"

# Unpacked by the tools that read them.
U=$T/u
for f in "$T"/c/*; do
	b=$(basename "$f")
	mkdir -p "$U/$b"
	case $b in
	*.deb) dpkg-deb -x "$f" "$U/$b" ;;
	*.rpm) (cd "$U/$b" && rpm2cpio "$f" | cpio -idm --quiet) ;;
	*.whl|*.jar) python3 -m zipfile -e "$f" "$U/$b" ;;
	*.cpio) (cd "$U/$b" && cpio -idm --quiet <"$f") ;;
	*.cpio.gz) (cd "$U/$b" && gzip -dc <"$f" | cpio -idm --quiet) ;;
	*) tar -C "$U/$b" -xf "$f" ;;
	esac || fail "unpack $b"
done
python3 -m zipfile -e "$U/nested.tar.gz/wheels/t.whl" "$U/nested.tar.gz/wheels/t.whl.d" &&
    python3 -m zipfile -e "$U/nested.tar.gz/wheels/t.jar" "$U/nested.tar.gz/wheels/t.jar.d" &&
    dpkg-deb -x "$U/nested.tar.gz/debs/t.deb" "$U/nested.tar.gz/debs/t.deb.d" ||
    fail "unpack the nested ones"

timeout $hang "$ELFSCAN" --no-progress --format=json "$T"/c/* >"$T/out.json" 2>"$T/err"
expect "findings: exit status 1" "$?" 1
expect "nothing on stderr" "$(cat "$T/err")" ""
expect "every container has its records" \
    "$(python3 -c 'import json, sys; print(len({json.loads(l)["path"] for l in sys.stdin}))' <"$T/out.json")" \
    "$(ls "$T/c" | wc -l)"
# Each record, moved to the unpacked file it names: container!member is
# $U/container/member; a nested container's members are in its .d.
python3 - "$T/c" "$U" "$T/out.json" >"$T/moved.json" <<'PY'
import json, os, sys
cdir, udir, records = sys.argv[1:]
for line in open(records):
    r = json.loads(line)
    parts = r["member"].split("!")
    path = os.path.join(udir, os.path.relpath(r["path"], cdir), parts.pop(0))
    if parts and path.endswith((".whl", ".jar", ".deb")):
        path = os.path.join(path + ".d", parts.pop(0))
    r["path"] = path
    if parts:
        r["member"] = parts.pop(0)
    else:
        del r["member"]
    print(json.dumps(r))
PY
python3 "$top_srcdir/tests/elfscan/check_json.py" "$U" "$T/moved.json" >"$T/check.log"
s=$?
grep -v '^ok:' "$T/check.log"
expect "check_json.py agrees on every member of every container" "$s" 0

# What a user reads: container!member, the verdicts of a plain file.
S "$T/c/t-xz.deb" "$T/c/nested.tar.gz" >"$T/out.txt"
expect_match "text: a .deb's member as a.deb!member" "$(cat "$T/out.txt")" \
    "*exec-stack,dlopen-refused*/t-xz.deb!usr/lib/libexec.so*"
expect_match "text: an ar archive in a .deb as a.deb!lib.a!object" "$(cat "$T/out.txt")" \
    "*no-gnu-stack-note*/t-xz.deb!usr/lib/libmix.a!nonote.o*"
expect_match "text: a wheel in a tarball as tarball!wheel!member" "$(cat "$T/out.txt")" \
    "*dlopen-refused*/nested.tar.gz!wheels/t.whl!usr/lib/libabsent.so*"
expect "the same verdicts in every container" \
    "$(python3 -c '
import json, sys
v = {}
for l in sys.stdin:
    r = json.loads(l)
    v.setdefault(r["member"].split("!", 1)[-1] if r["member"].startswith(("wheels/", "debs/")) else r["member"], set()).add((r["type"], r["effective"], ",".join(r["findings"])))
print(sorted(k for k, s in v.items() if len(s) != 1))' <"$T/out.json")" "[]"

# An .a of 80 MB in a tarball, over the 64 MiB a member may buffer: read
# object by object, every object there, in little memory.
mkdir -p "$T/bigar"
for i in $(seq 20); do
	printf '\t.data\n\t.fill 4000000, 1, %d\n' "$i" | as -o "$T/bigar/o$i.o" || fail "o$i.o"
done
(cd "$T/bigar" && ar rc libbig.a o*.o && tar -cf - libbig.a | zstd -q -1 >"$T/bigar.tar.zst") ||
    fail "libbig.a"
/usr/bin/time -f '%M' -o "$T/time" "$ELFSCAN" --no-progress --format=json "$T/bigar.tar.zst" \
    >"$T/bigar.json" 2>"$T/err"
expect "a big .a: exit 1 (objects without .note.GNU-stack), no error" "$?:$(cat "$T/err")" "1:"
expect "a big .a: every object" \
    "$(python3 -c 'import json, sys; print(" ".join(sorted(json.loads(l)["member"] for l in sys.stdin)))' <"$T/bigar.json")" \
    "$(ar t "$T/bigar/libbig.a" | sed 's/^/libbig.a!/' | sort | tr '\n' ' ' | sed 's/ $//')"
# AddressSanitizer's shadow memory and quarantine make the peak meaningless
# in a sanitizer build; the plain build's run of this test measures it.
if [ "${SANITIZERS:-no}" = yes ]; then
	echo "not checked: a big .a's memory (a sanitizer build)"
else
	expect "a big .a: under 32 MiB of memory" \
	    "$(tail -1 "$T/time" | awk '{ print $1 < 32768 ? "yes" : $1 " KiB" }')" yes
fi

# In directories: only with -A; a .deb is never scanned as an ar archive.
D=$T/dir
mkdir -p "$D" && cp "$T/c/t-xz.deb" "$T/c/t.tar.zst" "$R/usr/lib/libmix.a" "$D/"
S --format=json "$D" >"$T/noA.json"
expect "without -A: only the ar archive" \
    "$(python3 -c 'import json, sys; print(sorted({json.loads(l)["path"].split("/")[-1] for l in sys.stdin}))' <"$T/noA.json")" \
    "['libmix.a']"
expect "with -A: the containers too" \
    "$(S -A --format=json "$D" | python3 -c 'import json, sys; print(sorted({json.loads(l)["path"].split("/")[-1] for l in sys.stdin}))')" \
    "['libmix.a', 't-xz.deb', 't.tar.zst']"
expect "a container named on the command line is looked into without -A" \
    "$(S -q "$D/t-xz.deb" | grep -c 't-xz.deb!')" 4
expect "-0: each container with findings, once" \
    "$(S -A -0 "$D" | tr '\0' '\n' | sort | sed 's|.*/||' | tr '\n' ' ')" \
    "libmix.a t-xz.deb t.tar.zst "

# --allow: a container's path waives all its members; container!member one.
printf '%s\n' "$D/t.tar.zst" "$D/t-xz.deb!usr/lib/libexec.so" >"$T/allow"
S -A --allow "$T/allow" --format=json "$D" >"$T/allowed.json"
expect "--allow: by container, and by container!member" "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["allowed"]:
        print(r["path"].split("/")[-1] + "!" + r["member"])' "$T/allowed.json" | sort | tr '\n' ' ')" \
    "t-xz.deb!usr/lib/libexec.so t.tar.zst!usr/lib/libabsent.so t.tar.zst!usr/lib/libexec.so t.tar.zst!usr/lib/libexec32.so t.tar.zst!usr/lib/libmix.a!nonote.o "
finish
