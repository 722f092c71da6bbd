#!/bin/sh
# elfscan --hardening against checksec 2.6.0 (Debian's), devscripts'
# hardening-check and readelf, field by field, on a tree built here: gcc
# and clang programs and libraries with and without each defence (canary,
# _FORTIFY_SOURCE=2 and 3, RELRO with and without immediate binding, PIE,
# no PIE, static, static PIE, RPATH and RUNPATH safe and unsafe, CET and
# AArch64 BTI/PAC property notes), 32-bit, stripped, objects and an
# archive. check_hardening.py holds the disagreements and why each is the
# other tool's; the text columns, --summary, --require and the SARIF rules
# of --require's findings (by the official validator) are checked here.
. "$top_srcdir/tests/lib.sh"
need gcc clang ld.lld readelf python3 strip ar checksec hardening-check
: "${ELFSCAN:?}"
tool=${SARIF_MULTITOOL:-${XDG_CACHE_HOME:-$HOME/.cache}/chstk/sarif-multitool/node_modules/.bin/sarif-multitool}
[ -x "$tool" ] || { echo "ERROR: $tool is missing: run ./bootstrap deps"; exit 99; }

D=$T/tree
mkdir -p "$D/bin" "$D/lib" "$D/obj"
S=$FIX/hardening.c
B=$D/bin
tiny='void _start(void) { for (;;); }'
build() { out=$1; shift; "$@" -o "$out" || fail "build $out"; }

build "$B/default" gcc -O2 "$S"
build "$B/hardened" gcc -O2 -fstack-protector-strong -D_FORTIFY_SOURCE=2 \
    -fPIE -pie -Wl,-z,relro,-z,now "$S"
build "$B/canary" gcc -O2 -fstack-protector-strong "$S"
build "$B/nocanary" gcc -O2 -fno-stack-protector "$S"
build "$B/fortify2" gcc -O2 -D_FORTIFY_SOURCE=2 "$S"
build "$B/fortify3" gcc -O2 -D_FORTIFY_SOURCE=3 -fstack-protector-strong "$S"
build "$B/norelro" gcc -O2 -Wl,-z,norelro "$S"
build "$B/now" gcc -O2 -Wl,-z,relro,-z,now "$S"
build "$B/nopie" gcc -O2 -fno-pie -no-pie "$S"
build "$B/nopie-now" gcc -O2 -fno-pie -no-pie -Wl,-z,now "$S"
build "$B/static" gcc -O2 -static "$S"
build "$B/static-pie" gcc -O2 -static-pie -fstack-protector-strong "$S"
build "$B/rpath" gcc -O2 -Wl,--disable-new-dtags,-rpath,/opt/x/lib "$S"
build "$B/runpath" gcc -O2 -Wl,--enable-new-dtags,-rpath,'$ORIGIN/../lib' "$S"
build "$B/rpath-unsafe" gcc -O2 -Wl,--disable-new-dtags,-rpath,/tmp/x:.:lib "$S"
build "$B/runpath-unsafe" gcc -O2 -Wl,--enable-new-dtags,-rpath,/usr/lib::/var/tmp "$S"
build "$B/rpath-empty" gcc -O2 -Wl,--disable-new-dtags,-rpath,'' "$S"
build "$B/m32" gcc -m32 -O2 -fstack-protector-strong -D_FORTIFY_SOURCE=2 "$S"
build "$B/m32-nopie" gcc -m32 -O2 -fno-pie -no-pie "$S"
build "$B/clang" clang -O2 -fstack-protector-strong -D_FORTIFY_SOURCE=2 "$S"
build "$B/clang-lld" clang -fuse-ld=lld -O2 -fcf-protection=full -Wl,-z,now "$S"
build "$B/cet" gcc -O2 -fcf-protection=full "$S"
printf '%s\n' "$tiny" >"$T/tiny.c"
build "$B/cet-tiny" gcc -O2 -fcf-protection=full -nostdlib -static "$T/tiny.c"
build "$B/ibt-tiny" gcc -O2 -fcf-protection=branch -nostdlib -static "$T/tiny.c"
# AArch64 by clang: Debian 12's gcc-aarch64-linux-gnu conflicts with
# gcc-multilib, which the suite needs, and no AArch64 libc is needed here.
A64="clang --target=aarch64-linux-gnu -fuse-ld=lld -nostdlib -static -O2"
build "$B/aarch64-bti" $A64 -mbranch-protection=standard "$T/tiny.c"
build "$B/aarch64-pac" $A64 -mbranch-protection=pac-ret "$T/tiny.c"
cp "$B/canary" "$B/stripped" && strip "$B/stripped" || fail "strip"
cp "$B/static" "$B/static-stripped" && strip "$B/static-stripped" || fail "strip static"
build "$D/lib/libplain.so" gcc -O2 -shared -fPIC -DLIB "$S"
build "$D/lib/libhard.so" gcc -O2 -shared -fPIC -DLIB -fstack-protector-strong \
    -D_FORTIFY_SOURCE=2 -Wl,-z,now "$S"
build "$D/obj/object.o" gcc -c -O2 -fstack-protector-strong -D_FORTIFY_SOURCE=2 \
    -fcf-protection=full "$S"
build "$D/obj/object-aarch64.o" clang --target=aarch64-linux-gnu -c -O2 \
    -mbranch-protection=standard "$T/tiny.c"

# --all: the AArch64 programs, static and without a C library, carry no
# tag for Linux, and this machine may run no AArch64 program; their
# defences are judged all the same (their class: precision.sh).
"$ELFSCAN" --all --hardening --format=json --no-progress -j1 "$D" >"$T/out.json" 2>"$T/err"
expect "elfscan --hardening: exit status 0" "$?" 0
expect "nothing on stderr" "$(cat "$T/err")" ""
python3 "$top_srcdir/tests/elfscan/check_hardening.py" "$D" "$T/out.json" >"$T/check.log"
s=$?
cat "$T/check.log"
expect "check_hardening.py: elfscan agrees, or the tool is wrong as explained" "$s" 0

# Fields no other tool gives: the unsafe entries, the functions.
field() { python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("path", "").endswith("/" + sys.argv[2]):
        print(json.dumps(r[sys.argv[3]]))' "$T/out.json" "$@"; }
expect "unsafe RPATH entries" "$(field bin/rpath-unsafe unsafe_paths)" '"/tmp/x:.:lib"'
expect "an empty RUNPATH entry and /var/tmp" "$(field bin/runpath-unsafe unsafe_paths)" '":/var/tmp"'
expect "\$ORIGIN is safe" "$(field bin/runpath unsafe_paths)" '""'
expect "the empty RPATH is unsafe" "$(field bin/rpath-empty unsafe_paths)" '""'
expect "static PIE" "$(field bin/static-pie pie)" '"static"'
expect "fortified, and one memcpy the compiler could not size" \
    "$(field bin/fortify2 fortified) $(field bin/fortify2 unfortified)" \
    '["memcpy", "printf", "read", "strcpy"] ["memcpy"]'
expect "nothing fortified without _FORTIFY_SOURCE" \
    "$(field bin/default fortified) $(field bin/default unfortified)" \
    '[] ["memcpy", "printf", "read", "strcpy"]'
expect "an object's references, from .symtab" "$(field obj/object.o fortified)" \
    '["memcpy", "printf", "read", "strcpy"]'
expect "BTI and PAC of an AArch64 object" \
    "$(field obj/object-aarch64.o bti) $(field obj/object-aarch64.o pac)" 'true true'

# The text columns, and --require as a policy: one command answers "which
# programs lack full RELRO, PIE or a canary".
"$ELFSCAN" --hardening --no-progress -j1 "$B/now" >"$T/text"
expect "text columns" "$(sed -n 2p "$T/text" | awk '{print $7, $8, $9, $10, $11, $12, $13}')" \
    "full yes no 0/4 - no yes"
"$ELFSCAN" -q --no-progress --require 'pie,relro,canary' "$B" >"$T/req" 2>&1
expect "--require: exit status 1" "$?" 1
expect_match "--require: nopie lacks all three" "$(grep '/nopie$' "$T/req")" \
    "*no-pie,no-full-relro,no-canary *"
expect "--require: a hardened program passes" "$(grep -c '/hardened$' "$T/req")" 0
"$ELFSCAN" -q --no-progress --require "$B/now=relro" "$B/now" "$B/default" >"$T/req2"
expect "--require GLOB=: only where the glob matches" "$?" 0
"$ELFSCAN" --no-progress --require "$B/default=relro" "$B/default" >/dev/null
expect "--require GLOB=: the matching path fails" "$?" 1
"$ELFSCAN" --no-progress --require nonsense "$B" >/dev/null 2>"$T/bad"
expect "--require: an unknown property is a usage error" "$?" 2
"$ELFSCAN" --no-progress "$B/default" >"$T/plain"
expect "without --hardening the columns are as before" "$(head -1 "$T/plain" | awk '{print $7}')" FINDINGS

"$ELFSCAN" --all --hardening --summary --format=json --no-progress "$D" | tail -1 >"$T/sum"
expect "--summary counts" "$(python3 -c '
import json, sys
h = json.load(open(sys.argv[1]))["summary"]["hardening"]
print(h["relro_full"] > 0, h["pie"] < h["programs"], h["unsafe_paths"], h["bti_pac"])' "$T/sum")" \
    "True True 3 2"

# --format=sarif: each finding --require gives is a result of its own rule,
# which has its texts and help, and points at the whole file (no byte
# range of it is the finding's); the log is valid by the official SARIF
# validator (sarif-multitool), with no error and no warning; the results
# are the JSON output's hardening findings, one each.
# The programs, and an AArch64 one without BTI or PAC (no other has no
# PAC).
all=pie,relro,canary,fortify,rpath,ibt,shstk,bti,pac,stripped
X=$T/sarif-tree
mkdir "$X" && cp -p "$B"/* "$X/" || fail "copy the programs"
build "$X/aarch64-none" $A64 -mbranch-protection=none "$T/tiny.c"
"$ELFSCAN" --all --no-progress --format=sarif --require "$all" "$X" >"$T/h.sarif"
expect "sarif: findings: exit status 1" "$?" 1
"$ELFSCAN" --all --no-progress --format=json --require "$all" "$X" >"$T/h.json"
"$tool" validate "$T/h.sarif" -o "$T/h.v" --log ForceOverwrite >"$T/h.vlog" 2>&1 ||
    { cat "$T/h.vlog"; fail "sarif: the validator ran"; }
expect "sarif: the validator finds no error or warning" "$(python3 -c '
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    for r in run.get("results", []):
        if r.get("level", "warning") in ("error", "warning"):
            print(r["ruleId"], r["message"].get("arguments"))' "$T/h.v")" ""
expect "sarif: the hardening rules, each with its texts, and the results are the findings, each the whole file" "$(python3 - "$T/h.sarif" "$T/h.json" "$X" <<'PY'
import json, os, sys
hard = ["no-pie", "no-full-relro", "no-canary", "no-fortify", "unsafe-rpath",
        "no-ibt", "no-shstk", "no-bti", "no-pac", "not-stripped"]
run = json.load(open(sys.argv[1]))["runs"][0]
rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
for h in hard:
    r = rules.get(h)
    if r is None:
        print("no rule", h)
        continue
    for k in ("shortDescription", "fullDescription", "help"):
        if len(r.get(k, {}).get("text", "")) < 20:
            print(h, "has no", k)
    if r["defaultConfiguration"]["level"] not in ("error", "warning", "note"):
        print(h, "level")
got = set()
for res in run["results"]:
    if res["ruleId"] not in hard:
        continue
    art = res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    reg = res["locations"][0]["physicalLocation"].get("region", {})
    size = os.path.getsize(os.path.join(sys.argv[3], os.path.basename(art)))
    if (reg.get("byteOffset"), reg.get("byteLength")) != (0, size):
        print(res["ruleId"], art, "region", reg, "not the whole file")
    if len(res["message"]["text"]) < 20:
        print(res["ruleId"], art, "says nothing")
    got.add((os.path.basename(art), res["ruleId"]))
want = set()
for line in open(sys.argv[2]):
    rec = json.loads(line)
    for f in rec.get("findings", []):
        if f in hard:
            want.add((os.path.basename(rec["path"]), f))
if got != want or not got:
    print("results", sorted(got - want), "findings", sorted(want - got))
print(len({f for _, f in got}), "rules with results")
PY
)" "10 rules with results"

# Hostile sizes: a dynamic symbol table and a dynamic section claiming more
# than the file holds are clear errors, not reads past the end.
python3 - "$B/canary" "$T" <<'PY' || fail "patch the hostile files"
import struct, sys
src, out = sys.argv[1], sys.argv[2]
data = bytearray(open(src, "rb").read())
shoff, = struct.unpack_from("<Q", data, 0x28)
shnum, = struct.unpack_from("<H", data, 0x3c)
sym = bytearray(data)
for i in range(shnum):
    o = shoff + i * 64
    if struct.unpack_from("<I", sym, o + 4)[0] == 11:    # SHT_DYNSYM
        struct.pack_into("<Q", sym, o + 32, 0x7ffffffff0)  # sh_size
open(out + "/hostile-dynsym", "wb").write(sym)
phoff, = struct.unpack_from("<Q", data, 0x20)
phnum, = struct.unpack_from("<H", data, 0x38)
dyn = bytearray(data)
for i in range(phnum):
    o = phoff + i * 56
    if struct.unpack_from("<I", dyn, o)[0] == 2:         # PT_DYNAMIC
        struct.pack_into("<Q", dyn, o + 32, 0x7ffffffff0)  # p_filesz
open(out + "/hostile-dynamic", "wb").write(dyn)
PY
"$ELFSCAN" --hardening --no-progress "$T/hostile-dynsym" "$T/hostile-dynamic" >/dev/null 2>"$T/hostile"
expect "hostile sizes: findings (malformed), exit status 1" "$?" 1
expect "hostile sizes: the errors say what" "$(sed "s|$T/||" "$T/hostile" | sort)" \
"elfscan: hostile-dynamic: malformed ELF: dynamic section runs past the end of the file
elfscan: hostile-dynsym: malformed ELF: symbol table runs past the end of the file"
"$ELFSCAN" --no-progress "$T/hostile-dynsym" >/dev/null 2>&1
expect "without --hardening the symbol table is not read" "$?" 0

# The same answers from inside an archive and a tarball.
(cd "$D" && ar rc "$T/libx.a" obj/object.o && tar cf "$T/t.tar" bin/fortify2) || fail "pack"
"$ELFSCAN" --hardening --format=json --no-progress -j1 "$T/libx.a" "$T/t.tar" >"$T/pk.json"
expect "members judged alike" "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    print(r["member"], r["fortified"], r["canary"])' "$T/pk.json")" \
"object.o ['memcpy', 'printf', 'read', 'strcpy'] True
bin/fortify2 ['memcpy', 'printf', 'read', 'strcpy'] False"
finish
