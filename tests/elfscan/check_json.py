#!/usr/bin/env python3
"""Compare elfscan's JSON Lines with readelf's view of every file.

usage: check_json.py TREE JSON-FILE

For each record: the marking, class, byte order, machine, type, W^X count
and exec-limit must be what readelf (binutils) shows, and the effective
verdict what the documented rules give. Every ELF file and archive member
under TREE must have a record, and every record must name one. Prints one
line per check; exits 1 if any failed.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from elfview import readable, readelf

# readelf's machine names, and the rules of elfscan(1) for the machines the
# test tree holds: the kernel's default for an unmarked program's stack
# (exec/noexec/unknown), and glibc's for shared objects and thread stacks.
MACHINES = {
    "Advanced Micro Devices X86-64": ("x86_64", "noexec", "exec"),
    "Intel 80386": ("i386", "exec", "exec"),
    "PowerPC": ("ppc", "exec", "exec"),
    "IBM S/390": ("s390", "noexec", "exec"),
    "AArch64": ("aarch64", "noexec", "noexec"),
    "MIPS R3000": ("mips", "unknown", "exec"),
}

failures = 0
checks = 0


def check(what, got, want):
    global failures, checks
    checks += 1
    if got == want:
        print(f"ok: {what}")
    else:
        failures += 1
        print(f"FAIL: {what}: got {got!r}, want {want!r}")


def header(path):
    h = {}
    for line in readelf("-h", path).splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            h[k.strip()] = v.strip()
    return h


def segments(path):
    """(type, vaddr, memsz, flags) of each program header."""
    out = []
    for line in readelf("-l", path).splitlines():
        m = re.match(r"\s+([A-Z_]+)\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+0x[0-9a-f]+"
                     r"\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+([RWE ]+?)\s+0x", line)
        if m:
            out.append((m.group(1), int(m.group(2), 16), int(m.group(3), 16),
                        m.group(4).replace(" ", "")))
    return out


def note(path):
    for line in readelf("-S", path).splitlines():
        if ".note.GNU-stack" in line:
            fields = line.split()
            p = fields.index("PROGBITS")
            flags = fields[p + 5] if len(fields) - p == 9 else ""
            return "exec" if "X" in flags else "noexec"
    return "absent"


def expected(path):
    h = header(path)
    name, kernel, glibc = MACHINES[h["Machine"]]
    etype = h["Type"].split()[0]
    segs = segments(path)
    if etype == "REL":
        kind, stack = "object", note(path)
    else:
        stacks = [s for s in segs if s[0] == "GNU_STACK"]
        stack = "absent" if not stacks else ("exec" if "E" in stacks[-1][3] else "noexec")
        if etype == "EXEC":
            kind = "exec"
        elif "PIE" in readelf("-d", path) or any(s[0] == "INTERP" for s in segs):
            kind = "pie"
        else:
            kind = "shared"
    if stack != "absent":
        effective = stack
    elif kind == "object":
        effective = "exec"
    elif kind == "shared":
        effective = glibc
    else:
        effective = "exec" if "exec" in (kernel, glibc) else (
            "unknown" if "unknown" in (kernel, glibc) else "noexec")
    loads = [s for s in segs if s[0] == "LOAD"]
    execs = [s[1] + s[2] - 1 for s in loads if "E" in s[3] and s[2] > 0]
    # The ASCII armor of i386 kernels: only a fixed-address 32-bit x86
    # program has it, or not.
    armor = None
    if name == "i386" and etype == "EXEC" and execs:
        armor = max(execs) < 0x1000000
    return {
        "armor": armor,
        "type": kind, "stack": stack, "effective": effective, "machine": name,
        "class": 64 if h["Class"] == "ELF64" else 32,
        "endian": "little" if "little" in h["Data"] else "big",
        "wx": sum(1 for s in loads if "W" in s[3] and "E" in s[3]),
        "exec_limit": hex(max(execs)) if execs else None,
    }


def elf_files(tree):
    """Every regular ELF file and archive under tree, as elfscan would see it."""
    for top, dirs, files in os.walk(tree):
        for f in files:
            p = os.path.join(top, f)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            with open(p, "rb") as fh:
                magic = fh.read(8)
            if magic[:4] == b"\x7fELF":
                yield p, None
            elif magic == b"!<arch>\n":
                yield p, "archive"


def main():
    tree, jsonfile = sys.argv[1], sys.argv[2]
    records = {}
    with open(jsonfile) as f:
        for line in f:
            r = json.loads(line)
            records[(r["path"], r.get("member"))] = r
    work = tempfile.mkdtemp()
    seen = set()
    for path, kind in sorted(elf_files(tree)):
        if kind == "archive":
            d = os.path.join(work, str(len(seen)))
            os.mkdir(d)
            subprocess.run(["ar", "x", os.path.abspath(path)], cwd=d, check=True)
            members = [(m, os.path.join(d, m)) for m in sorted(os.listdir(d))]
            members = [(m, p) for m, p in members if open(p, "rb").read(4) == b"\x7fELF"]
        else:
            members = [(None, path)]
        for member, real in members:
            key = (path, member)
            seen.add(key)
            name = path + ("!" + member if member else "")
            r = records.get(key)
            if r is None:
                check(f"{name}: has a record", None, "a record")
                continue
            check(f"{name}: an error exactly when readelf fails",
                  "error" in r, not readable(real))
            if "error" in r:
                check(f"{name}: the error is a finding", r.get("findings"), ["malformed"])
                continue
            want = expected(real)
            for k, v in want.items():
                check(f"{name}: {k}", r.get(k), v)
            if want["type"] in ("exec", "pie") and want["stack"] == "absent" and \
                    not any(s[0] == "INTERP" for s in segments(real)):
                check(f"{name}: static, unmarked: the why claims no glibc",
                      "glibc" in r.get("why", ""), False)
    for key, r in records.items():
        if key not in seen and "error" not in r:
            check(f"{key}: names an ELF file", "a record", None)
    print(f"{checks} checks, {failures} failed")
    sys.exit(1 if failures or not checks else 0)


main()
