#!/bin/sh
# On this machine's own programs (/usr/bin, /usr/sbin, /usr/libexec), judged
# against readelf over the same files: every ELF file readelf reads is
# reported with the marking readelf shows (exec, noexec or absent), nothing
# else is reported, and every file elfscan says it cannot read or finds
# malformed is one readelf finds damaged too. What the machine holds is not
# assumed: a damaged file is fine as long as both see the damage. Beside
# the system's directories the scan gets a directory of files the test
# damages itself, so that the comparison of errors is made on every
# machine. Files that change while the test runs (a package being
# installed) are left out of the comparison, and counted.
. "$top_srcdir/tests/lib.sh"
need gcc readelf ar python3
: "${ELFSCAN:?}"

P=$T/planted
mkdir "$P"
gcc -o "$P/prog" "$FIX/hello.c" && gcc -z execstack -o "$P/prog-exec" "$FIX/hello.c" ||
    fail "build"
head -c 300 "$P/prog" >"$P/cut"
cp "$P/prog" "$P/lying"
poke "$P/lying" 32 '\000\000\000\000\000\001\000\000'
printf '!<arch>\nnot a member header' >"$P/broken.a"
roots="/usr/bin /usr/sbin /usr/libexec $P"

# snapshot FILE: every regular file under the roots, with what shows a
# change (inode, size, modification and change times).
snapshot() {
	python3 - "$1" $roots <<'PY'
import os, sys
with open(sys.argv[1], "w") as out:
    for d in sys.argv[2:]:
        for top, dirs, files in os.walk(d):
            for f in files:
                p = os.path.join(top, f)
                try:
                    st = os.lstat(p)
                except OSError:
                    continue
                if (st.st_mode & 0o170000) == 0o100000:
                    out.write("%d %d %d %d %s\n" % (st.st_ino, st.st_size,
                              st.st_mtime_ns, st.st_ctime_ns, p))
PY
}

snapshot "$T/before"
"$ELFSCAN" --no-progress --format=json $roots >"$T/out.json" 2>"$T/err"
status=$?
python3 - "$T/out.json" "$T/err" "$T/before" "$T/oracle" <<'PY' || fail "readelf over the same files"
# The oracle: for each file elfscan could have judged (ELF or ar magic),
# what readelf (and ar, for archives) says.
import subprocess, sys
out = open(sys.argv[4], "w")
for line in open(sys.argv[3]):
    p = line.rstrip("\n").split(" ", 4)[4]
    try:
        with open(p, "rb") as fh:
            magic = fh.read(8)
    except OSError:
        continue
    if magic[:4] == b"\x7fELF":
        r = subprocess.run(["readelf", "-lW", p], capture_output=True, text=True)
        damaged = "Error:" in r.stderr
        stacks = [l for l in r.stdout.splitlines() if l.split()[:1] == ["GNU_STACK"]]
        if stacks:
            flags = "".join(stacks[-1].split()[6:-1])
            stack = "exec" if "E" in flags else "noexec"
        elif "Program Headers:" in r.stdout or "There are no program headers" in r.stdout:
            stack = "absent"
        else:
            stack = "unread"
        out.write("%s %s %s\n" % ("damaged" if damaged else "sound", stack, p))
    elif magic == b"!<arch>\n":
        r = subprocess.run(["ar", "t", p], capture_output=True, text=True)
        e = subprocess.run(["readelf", "-lW", p], capture_output=True, text=True)
        damaged = r.returncode != 0 or "Error:" in e.stderr
        out.write("%s archive %s\n" % ("damaged" if damaged else "sound", p))
PY
snapshot "$T/after"

python3 - "$T/out.json" "$T/err" "$T/before" "$T/after" "$T/oracle" "$P" <<'PY'
import json, sys
out_json, err, before, after, oracle, planted = sys.argv[1:]
def snap(f):
    return {l.rstrip("\n").split(" ", 4)[4]: l.split(" ", 4)[:4] for l in open(f)}
b, a = snap(before), snap(after)
stable = {p for p in b if a.get(p) == b[p]}
changed = (set(b) | set(a)) - stable

ours, errors = {}, {}
for line in open(out_json):
    r = json.loads(line)
    if "member" in r:
        continue
    ours[r["path"]] = "error" if "error" in r else r.get("stack", "none")
for line in open(err):
    line = line.rstrip("\n")
    # elfscan: PATH: what failed: why (PATH may hold ": "); in JSON, a
    # malformed file is said in its record only
    path = next((p for p in b.keys() | a.keys() if line.startswith("elfscan: " + p + ": ")), None)
    errors.setdefault(path, []).append(line)

theirs = {}
for line in open(oracle):
    health, stack, p = line.rstrip("\n").split(" ", 2)
    theirs[p] = (health, stack)

fails = 0
def bad(msg):
    global fails
    fails += 1
    print("FAIL: " + msg)
for line in errors.get(None, []):
    bad("an error on a file the test did not see: " + line)
for p in sorted(stable & (set(theirs) | set(ours) | set(errors))):
    health, stack = theirs.get(p, ("not-elf", "-"))
    got = ours.get(p, "missing")
    said = p in errors
    if said or got == "error":
        if health != "damaged":
            bad(f"{p}: elfscan says it is damaged ({'; '.join(errors.get(p, [])) or 'a record with an error'}), readelf reads it whole")
    elif health == "not-elf":
        bad(f"{p}: elfscan reports {got} for a file that is neither ELF nor an archive")
    elif stack == "archive":
        if got != "missing":
            bad(f"{p}: elfscan reports the archive itself as {got}")
    elif health == "damaged" and stack == "unread":
        bad(f"{p}: readelf cannot read its program headers, elfscan says {got}")
    elif got != stack:
        bad(f"{p}: elfscan says {got}, readelf {stack}")
n = sum(1 for p in stable if p in theirs)
dmg = sorted(p for p in stable if theirs.get(p, ("",))[0] == "damaged")
print(f"{n} ELF files and archives, {sum(1 for p in stable if theirs.get(p, ('', ''))[1] == 'exec')} exec by readelf, "
      f"{len(dmg)} damaged by readelf, {sum(1 for p in stable if p in errors or ours.get(p) == 'error')} with an error from elfscan; "
      f"{len(changed)} files changed during the test, not compared; {fails} disagreements")
for p in dmg:
    print("damaged by both: " + p)
# The planted files: each damaged one must have been seen damaged by both.
for name in ("cut", "lying", "broken.a"):
    p = planted + "/" + name
    if not ((p in errors or ours.get(p) == "error") and theirs.get(p, ("",))[0] == "damaged"):
        bad(f"{p}: planted damaged, not seen so by both")
sys.exit(1 if fails or n < 100 else 0)
PY
expect "elfscan and readelf agree on every file, errors included" "$?" 0
expect_match "exit status: 1 or 2 (the planted damaged files are findings at least)" "$status" "[12]"
finish
