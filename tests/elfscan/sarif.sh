#!/bin/sh
# elfscan --format=sarif, judged by the official SARIF validator
# (sarif-multitool, installed by ./bootstrap deps) and by readelf. A tree of
# real files (an executable-stack program, allowed; an executable-stack
# library; an unmarked object; a W+X program; a truncated program; a name
# that needs %-encoding) and a .deb holding an executable-stack library are
# scanned. The validator must report no error and no warning on either log
# (nor on an image's, in images.sh); each result must be one elfscan's JSON
# output has as a finding, with the byte region of the marking readelf
# shows, the file relative to its root, the member named; the allowed
# finding must be a suppressed result with its pattern, a pattern that
# allowed nothing a warning of the run at its line; the fingerprints
# must not change when the same tree is scanned from elsewhere. Members of
# uncompressed tar and cpio files have regions in those files.
. "$top_srcdir/tests/lib.sh"
need gcc nasm as ar readelf python3 dpkg-deb tar cpio gzip
: "${ELFSCAN:?}"
tool=${SARIF_MULTITOOL:-${XDG_CACHE_HOME:-$HOME/.cache}/chstk/sarif-multitool/node_modules/.bin/sarif-multitool}
[ -x "$tool" ] || { echo "ERROR: $tool is missing: run ./bootstrap deps"; exit 99; }
S() { "$ELFSCAN" --no-progress "$@"; }

D=$T/tree
mkdir -p "$D/bin" "$D/lib" "$D/obj" "$T/deb/usr/lib" "$T/deb/DEBIAN" "$T/pkg"
gcc -z execstack -o "$D/bin/allowed" "$FIX/hello.c" &&
    gcc -o "$D/bin/clean" "$FIX/hello.c" &&
    gcc -shared -fPIC -z execstack -o "$D/lib/lib exec:é.so" "$FIX/lib.c" &&
    printf '\t.text\n\tret\n' | as -o "$D/obj/nonote.o" &&
    nasm -f bin -DPFLAGS=7 -o "$D/bin/wx" "$FIX/tiny64.asm" &&
    head -c 300 "$D/bin/clean" >"$D/bin/truncated" &&
    gcc -shared -fPIC -z execstack -o "$T/deb/usr/lib/libexec.so" "$FIX/lib.c" &&
    printf 'Package: t\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
    >"$T/deb/DEBIAN/control" &&
    dpkg-deb --root-owner-group -Zxz --build "$T/deb" "$T/pkg/t.deb" >/dev/null ||
    fail "build the tree"
printf '%s/bin/allowed\n/nothing/**\n' "$D" >"$T/allow"

validate() { sarif_errors "$1"; }

S --format=sarif --allow "$T/allow" "$D" >"$T/tree.sarif" 2>"$T/err"
expect "tree: findings: exit status 1" "$?" 1
expect "tree: the malformed file is a result, not an error" "$(cat "$T/err")" ""
expect "tree: the validator finds no error or warning" "$(validate "$T/tree.sarif")" ""
expect "tree: the unused pattern is a warning, at its line of the list" "$(python3 -c '
import json, sys
for n in json.load(open(sys.argv[1]))["runs"][0]["invocations"][0]["toolExecutionNotifications"]:
    print(n["level"], n["locations"][0]["physicalLocation"]["region"]["startLine"], n["message"]["text"])' "$T/tree.sarif")" \
    "warning 2 The --allow pattern '/nothing/**' allowed nothing: no image with an executable stack matched it."
S --format=sarif "$T/pkg/t.deb" >"$T/deb.sarif"
expect "package: findings: exit status 1" "$?" 1
expect "package: the validator finds no error or warning" "$(validate "$T/deb.sarif")" ""
S --format=json --allow "$T/allow" "$D" >"$T/tree.json"
S --format=json "$T/pkg/t.deb" >"$T/deb.json"

# The kinds of finding, from their one table (its first column).
sed -nE 's/^[[:space:]]*\{ "([a-z-]+)", "[A-Za-z]+",.*/\1/p' \
    "$top_srcdir/src/elfscan/findings.c" >"$T/kinds"
expect "findings.c's table read: a kind per line, exec-stack first" \
    "$(head -1 "$T/kinds") $(wc -l <"$T/kinds" | awk '$1 > 20 { print "many" }')" "exec-stack many"
# Every finding of the JSON output is a result, and no other; regions are
# those readelf shows.
python3 - "$D" "$T/tree.json" "$T/tree.sarif" "$T/pkg" "$T/deb.json" "$T/deb.sarif" "$T/kinds" \
    >"$T/check.log" 2>&1 <<'PY'
import json, os, subprocess, sys, urllib.parse

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def marking(path):
    """(offset, length) of PT_GNU_STACK's entry, or of .note.GNU-stack's
    section header, or of the table where it is missing, by readelf."""
    h = subprocess.run(["readelf", "-hW", path], capture_output=True,
                       text=True).stdout
    def num(key):
        for line in h.splitlines():
            if line.strip().startswith(key):
                return int(line.split(":")[1].split()[0], 0)
    typ = [l for l in h.splitlines() if "Type:" in l][0]
    if "REL" in typ:
        s = subprocess.run(["readelf", "-SW", path], capture_output=True,
                           text=True).stdout
        for line in s.splitlines():
            if ".note.GNU-stack" in line:
                i = int(line.split("[")[1].split("]")[0])
                return (num("Start of section headers") +
                        i * num("Size of section headers"),
                        num("Size of section headers"))
        return (num("Start of section headers"),
                num("Number of section headers") * num("Size of section headers"))
    l = subprocess.run(["readelf", "-lW", path], capture_output=True,
                       text=True).stdout
    rows = [x.split()[0] for x in l.splitlines()
            if x.startswith("  ") and x.split() and x.split()[0].isupper()
            and x.split()[0] not in ("Type",)]
    es = num("Size of program headers")
    if "GNU_STACK" in rows:
        i = len(rows) - 1 - rows[::-1].index("GNU_STACK")
        return (num("Start of program headers") + i * es, es)
    return (num("Start of program headers"), num("Number of program headers") * es)

kinds = open(sys.argv[7]).read().split()

def check(root, jsonl, sarif, allowed):
    want = set()
    for line in open(jsonl):
        rec = json.loads(line)
        for f in rec.get("findings", []):
            want.add((rec["path"], rec.get("member"), f, False))
        if rec.get("allowed"):
            want.add((rec["path"], rec.get("member"), "exec-stack", True))
    log = json.load(open(sarif))
    run = log["runs"][0]
    bases = run["originalUriBaseIds"]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    if rules != kinds:
        fail("the rules are not findings.c's kinds, in order: %s" % rules)
    got = set()
    fps = {}
    for res in run["results"]:
        loc = res["locations"][0]
        art = loc["physicalLocation"]["artifactLocation"]
        base = urllib.parse.unquote(bases[art["uriBaseId"]]["uri"][len("file://"):])
        path = os.path.join(base, urllib.parse.unquote(art["uri"]))
        if not os.path.isfile(path):
            fail("no file at %s" % path)
        if rules[res["ruleIndex"]] != res["ruleId"]:
            fail("ruleIndex of %s" % res["ruleId"])
        member = loc.get("properties", {}).get("member")
        sup = bool(res.get("suppressions"))
        if sup and "--allow" not in res["suppressions"][0]["justification"]:
            fail("justification: %s" % res["suppressions"][0])
        got.add((path, member, res["ruleId"], sup))
        fps[(path, member, res["ruleId"])] = res["partialFingerprints"]
        reg = loc["physicalLocation"]["region"]
        if member is None and res["ruleId"] in ("exec-stack", "dlopen-refused",
                                                "no-gnu-stack-note"):
            if (reg["byteOffset"], reg["byteLength"]) != marking(path):
                fail("%s %s: region %s, readelf %s" % (path, res["ruleId"],
                     reg, marking(path)))
            print("ok: %s %s: the region of the marking" % (os.path.basename(path), res["ruleId"]))
    want = {(os.path.realpath(p), m, f, s) for p, m, f, s in want}
    if got != want:
        fail("results %s, JSON findings %s" % (sorted(got - want), sorted(want - got)))
    print("ok: %s: %d results, one for each finding" % (os.path.basename(sarif), len(got)))
    return fps

check(*sys.argv[1:4], True)
check(*sys.argv[4:7], False)
PY
s=$?
cat "$T/check.log"
expect "the results are the findings, with readelf's regions" "$s" 0
expect_match "the allowed program is a suppressed result" \
    "$(grep -c '"suppressions"' "$T/tree.sarif")" "[1-9]*"
expect_match "the member is named" "$(cat "$T/deb.sarif")" '*"name":"usr/lib/libexec.so"*'
expect_match "relative URIs with a base" "$(cat "$T/tree.sarif")" \
    '*"uri":"lib/lib%20exec%3A%C3%A9.so","uriBaseId":"SCANROOT"*'

# The same tree elsewhere: the same fingerprints.
cp -a "$D" "$T/moved"
fp() { grep -o '"elfscanFinding/v1":"[0-9a-f]*"' "$1" | sort; }
S --format=sarif "$T/moved" >"$T/moved.sarif"
S --format=sarif "$D" >"$T/again.sarif"
expect "fingerprints stay when the tree moves" "$(fp "$T/moved.sarif")" "$(fp "$T/again.sarif")"
expect "fingerprints differ between findings" \
    "$(fp "$T/again.sarif" | sort -u | wc -l)" "$(grep -c '"ruleId"' "$T/again.sarif")"

# A damaged package: a notification, the run not successful, still valid.
head -c 2000 "$T/pkg/t.deb" >"$T/pkg/cut.deb"
S --format=sarif -A "$T/pkg" >"$T/cut.sarif" 2>"$T/err"
expect "damaged package: exit status 2" "$?" 2
expect_match "damaged package: a notification" "$(cat "$T/cut.sarif")" \
    '*"executionSuccessful":false,"toolExecutionNotifications":*cut.deb*'
expect "damaged package: the validator finds no error or warning" "$(validate "$T/cut.sarif")" ""

# Members read straight from an uncompressed tar or cpio file: their
# regions are offsets in that file, where Python's tarfile and the cpio and
# ar headers put the member, plus the marking readelf shows inside it. A
# compressed file's members have no offsets of their own: the whole file.
A=$T/arch
long=dir-$(printf '%0120d' 0)
mkdir -p "$A/in/$long" "$A/in/lib" "$A/out"
gcc -z execstack -o "$A/in/$long/prog" "$FIX/hello.c" &&
    gcc -z execstack -o "$A/in/short" "$FIX/hello.c" &&
    gcc -c -o "$T/note.o" "$FIX/lib.c" &&
    printf '\t.text\n\tret\n' | as -o "$T/nonote.o" &&
    ar rc "$A/in/lib/libmix.a" "$T/note.o" "$T/nonote.o" &&
    tar -C "$A/in" --format=gnu -cf "$A/out/gnu.tar" . &&
    tar -C "$A/in" --format=pax -cf "$A/out/pax.tar" . &&
    (cd "$A/in" && find . -type f | cpio --quiet -o -H newc) >"$A/out/files.cpio" &&
    gzip -c "$A/out/gnu.tar" >"$A/out/gnu.tar.gz" ||
    fail "build the archives"
S --format=sarif -A "$A/out" >"$T/arch.sarif"
expect "archives: findings: exit status 1" "$?" 1
expect "archives: the validator finds no error or warning" "$(validate "$T/arch.sarif")" ""
python3 - "$T/arch.sarif" "$T/member" >"$T/arch.log" 2>&1 <<'PY'
import json, os, subprocess, sys, tarfile, urllib.parse

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def marking(path):
    """Offset and length of PT_GNU_STACK's entry, or of the section header
    table of an object without .note.GNU-stack, by readelf."""
    h = subprocess.run(["readelf", "-hW", path], capture_output=True, text=True).stdout
    num = lambda k: [int(l.split(":")[1].split()[0], 0) for l in h.splitlines() if l.strip().startswith(k)][0]
    if "REL" in [l for l in h.splitlines() if "Type:" in l][0]:
        return (num("Start of section headers"),
                num("Number of section headers") * num("Size of section headers"))
    rows = [x.split()[0] for x in subprocess.run(["readelf", "-lW", path], capture_output=True,
            text=True).stdout.splitlines() if x.startswith("  ") and x.split() and x.split()[0].isupper()
            and x.split()[0] != "Type"]
    i = len(rows) - 1 - rows[::-1].index("GNU_STACK")
    return (num("Start of program headers") + i * num("Size of program headers"),
            num("Size of program headers"))

def in_tar(path, name):
    with tarfile.open(path) as t:
        for m in t.getmembers():
            if m.name.lstrip("./") == name:
                return m.offset_data, m.size
    fail("%s: no member %s" % (path, name))

def in_cpio(path, name):
    data, at = open(path, "rb").read(), 0
    while True:
        h = data[at:at + 110]
        nsize, fsize = int(h[94:102], 16), int(h[54:62], 16)
        n = data[at + 110:at + 110 + nsize - 1].decode()
        start = (at + 110 + nsize + 3) & ~3
        if n.lstrip("./") == name:
            return start, fsize
        if n == "TRAILER!!!":
            fail("%s: no member %s" % (path, name))
        at = (start + fsize + 3) & ~3

def in_ar(data, name):
    at = 8
    while at < len(data):
        size = int(data[at + 48:at + 58])
        if data[at:at + 16].decode().rstrip().rstrip("/") == name:
            return at + 60, size
        at += 60 + size + (size & 1)
    fail("no ar member %s" % name)

log = json.load(open(sys.argv[1]))
run = log["runs"][0]
bases = run["originalUriBaseIds"]
seen = set()
for res in run["results"]:
    loc = res["locations"][0]
    art = loc["physicalLocation"]["artifactLocation"]
    path = os.path.join(urllib.parse.unquote(bases[art["uriBaseId"]]["uri"][len("file://"):]),
                        urllib.parse.unquote(art["uri"]))
    member = loc["properties"]["member"]
    reg = loc["physicalLocation"]["region"]
    got = (reg["byteOffset"], reg["byteLength"])
    if path.endswith(".gz"):
        want = (0, os.path.getsize(path))
    else:
        outer, _, inner = member.partition("!")
        off, size = (in_cpio if path.endswith(".cpio") else in_tar)(path, outer)
        data = open(path, "rb").read()[off:off + size]
        if inner:
            ioff, isize = in_ar(data, inner)
            off, data = off + ioff, data[ioff:ioff + isize]
        open(sys.argv[2], "wb").write(data)
        moff, mlen = marking(sys.argv[2])
        want = (off + moff, mlen)
    if got != want:
        fail("%s %s %s: region %s, want %s" % (os.path.basename(path), member, res["ruleId"], got, want))
    seen.add((os.path.basename(path), res["ruleId"]))
    print("ok: %s %s %s: region %s" % (os.path.basename(path), member, res["ruleId"], got))
for f in ("gnu.tar", "pax.tar", "files.cpio", "gnu.tar.gz"):
    for r in ("exec-stack", "no-gnu-stack-note"):
        if (f, r) not in seen:
            fail("no %s result in %s" % (r, f))
PY
s=$?
cat "$T/arch.log"
expect "archives: regions in the uncompressed files are the members' markings there" "$s" 0
# --diff: a regression is a result at the new file, and the log is valid.
mkdir -p "$T/dold" "$T/dnew"
gcc -Wl,-z,relro,-z,now -o "$T/dold/prog" "$FIX/hello.c" &&
    gcc -Wl,-z,norelro -z execstack -o "$T/dnew/prog" "$FIX/hello.c" ||
    fail "build the diff's programs"
S --diff --format=sarif "$T/dold" "$T/dnew" >"$T/diff.sarif" 2>"$T/err"
expect "diff: a regression: exit status 1" "$?" 1
expect "diff: the validator finds no error or warning" "$(validate "$T/diff.sarif")" ""
expect "diff: one result a lost defence, at the new file" "$(python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    print(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["message"]["text"].split("(")[1].split(":")[0])
' "$T/diff.sarif" | sort | tr '\n' ' ')" "regression prog relro regression prog stack "
finish
