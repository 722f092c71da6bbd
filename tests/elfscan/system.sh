#!/bin/sh
# On this machine's own programs (/usr/bin, /usr/sbin, /usr/libexec): every
# file readelf shows with an executable GNU_STACK is reported exec, nothing
# else is, and every ELF file readelf reads is reported with the marking
# readelf shows.
. "$top_srcdir/tests/lib.sh"
need readelf python3
: "${ELFSCAN:?}"

"$ELFSCAN" --no-progress --format=json /usr/bin /usr/sbin /usr/libexec >"$T/out.json" 2>"$T/err"
expect "no errors reading the system's programs" "$(cat "$T/err")" ""
python3 - "$T/out.json" <<'PY'
import json, os, subprocess, sys
ours = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "member" not in r:
        ours[r["path"]] = r.get("stack", "error")
theirs = {}
for d in ("/usr/bin", "/usr/sbin", "/usr/libexec"):
    for top, dirs, files in os.walk(d):
        for f in files:
            p = os.path.join(top, f)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            try:
                with open(p, "rb") as fh:
                    if fh.read(4) != b"\x7fELF":
                        continue
            except OSError:
                continue
            out = subprocess.run(["readelf", "-lW", p], capture_output=True, text=True).stdout
            stacks = [l for l in out.splitlines() if l.split()[:1] == ["GNU_STACK"]]
            flags = "".join(stacks[-1].split()[6:-1]) if stacks else None
            theirs[p] = "absent" if flags is None else ("exec" if "E" in flags else "noexec")
fails = 0
for p, s in sorted(theirs.items()):
    got = ours.get(p, "missing")
    if got != s:
        fails += 1
        print(f"FAIL: {p}: elfscan says {got}, readelf {s}")
for p in sorted(set(ours) - set(theirs)):
    fails += 1
    print(f"FAIL: {p}: elfscan reports a file readelf does not see as ELF")
print(f"{len(theirs)} ELF files, {sum(1 for s in theirs.values() if s == 'exec')} exec by readelf; {fails} disagreements")
sys.exit(1 if fails or not theirs else 0)
PY
expect "elfscan and readelf agree on every program" "$?" 0
finish
