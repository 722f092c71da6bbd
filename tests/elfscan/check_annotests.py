#!/usr/bin/env python3
"""Compare elfscan --hardening's members for annocheck's tests of the
binary alone with what binutils' readelf and objdump (x86's and
AArch64's) and go version say of each file of a tree, member by member, by the rules of
elfscan(1), HARDENING. annocheck itself is not asked: its sources are not
reachable where the tests run (the agreement with it, test by test, was
measured by hand and is in the man page's notes).

usage: check_annotests.py TREE ELFSCAN_JSON

Every ELF file of TREE is judged; each member must be what the oracles
say, and every member must see both of its answers somewhere in the tree
(a yes and a no), so that no check passes for want of a case. Prints one
line per disagreement and a count; exits 1 on a failure.
"""
import json
import os
import re
import sys

import subprocess


def run(argv):
    """(exit status, stdout, stderr) of argv in the C locale; bytes that
    are no UTF-8 (the point of some names here) kept as they are."""
    p = subprocess.run(argv, capture_output=True,
                       env=dict(os.environ, LC_ALL="C"))
    return (p.returncode, p.stdout.decode("utf-8", "surrogateescape"),
            p.stderr.decode("utf-8", "surrogateescape"))


def readelf(*args):
    """readelf -W's output."""
    return run(["readelf", "-W", *args])[1]

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def header(path):
    """(e_type, e_machine, entry) as readelf -h says."""
    out = readelf("-h", path)
    typ = re.search(r"Type:\s+(\S+)", out).group(1)
    mach = re.search(r"Machine:\s+(.*)", out).group(1).strip()
    entry = int(re.search(r"Entry point address:\s+(\S+)", out).group(1), 16)
    return typ, mach, entry


def segments(path):
    """[(type, vaddr, memsz, flags, align)] of readelf -l."""
    segs = []
    for line in readelf("-l", path).splitlines():
        f = line.split()
        if len(f) >= 7 and re.match(r"0x[0-9a-f]+$", f[1] if len(f) > 1 else ""):
            typ = f[0]
            # Flags are one to three words (R, R E, RW, RWE): what lies
            # between memsz and the alignment.
            flags = "".join(f[6:-1])
            segs.append((typ, int(f[2], 16), int(f[5], 16), flags,
                         int(f[-1], 16)))
    return segs


def sections(path):
    """[(name, type, addr, size, flags)] of readelf -S."""
    out = []
    for line in readelf("-S", path).splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+"
                     r"[0-9a-f]+\s+([0-9a-f]+)\s+[0-9a-f]+\s*(\S*)", line)
        if m:
            out.append((m.group(1), m.group(2), int(m.group(3), 16),
                        int(m.group(4), 16), m.group(5)))
    return out


def dynamic(path):
    """{tag: [value text]} of readelf -d."""
    tags = {}
    for line in readelf("-d", path).splitlines():
        m = re.match(r"\s*0x[0-9a-f]+ \((\S+)\)\s+(.*)", line)
        if m:
            tags.setdefault(m.group(1), []).append(m.group(2))
    return tags


def kind(path, typ, dyn, segs):
    """program, shared, object or other: elfscan's, by readelf."""
    if typ.startswith("REL"):
        return "object"
    if typ.startswith("EXEC"):
        return "program"
    if not typ.startswith("DYN"):
        return "other"
    if any("PIE" in v for v in dyn.get("FLAGS_1", [])):
        return "program"
    interp = any(s[0] == "INTERP" for s in segs)
    return "program" if interp and "SONAME" not in dyn else "shared"


def first_insn(path, addr, arm):
    """The mnemonic at addr, as objdump disassembles it."""
    tool = "aarch64-linux-gnu-objdump" if arm else "objdump"
    out = run([tool, "-d", "--start-address=%#x" % addr,
               "--stop-address=%#x" % (addr + 4), path])[1]
    for line in out.splitlines():
        m = re.match(r"\s*[0-9a-f]+:\s+(?:[0-9a-f]{2,8} )+\s*(\S+)\s*(\S*)",
                     line)
        if m:
            return (m.group(1) + " " + m.group(2)).strip()
    return ""


PADS = {"x86_64": ("endbr64",), "i386": ("endbr32",),
        "aarch64": ("bti c", "bti jc", "paciasp", "pacibsp")}


def machine_word(mach):
    return ("x86_64" if "X86-64" in mach else "i386" if "80386" in mach
            else "aarch64" if "AArch64" in mach else "other")


def exported(path):
    """Addresses of the functions the dynamic symbol table exports."""
    out = readelf("--dyn-syms", path)
    addrs = []
    for line in out.splitlines():
        f = line.split()
        if (len(f) >= 8 and f[3] == "FUNC" and f[4] in ("GLOBAL", "WEAK")
                and f[5] in ("DEFAULT", "PROTECTED")
                and f[6] not in ("UND", "ABS")):
            addrs.append(int(f[1], 16))
    return addrs


def property_view(path, segs):
    """(present, fault words) of the property note, by readelf: the
    segment's alignment, the notes of the sections it spans (an object's
    .note.gnu.property), their data size and the properties' order and
    sizes as readelf -n decodes them."""
    prop = [s for s in segs if s[0] == "GNU_PROPERTY"]
    secs = sections(path)
    if prop:
        lo, hi = prop[0][1], prop[0][1] + prop[0][2]
        inside = [s[0] for s in secs if s[1] == "NOTE" and lo <= s[2] < hi]
    else:
        inside = [s[0] for s in secs if s[0] == ".note.gnu.property"]
    notes = []
    for block in readelf("-n", path).split("Displaying notes found in: ")[1:]:
        name = block.split("\n")[0].strip()
        if name in inside:
            notes += re.findall(r"\n  (\S+)\s+0x([0-9a-f]+)\s+(\S+)(.*)",
                                block)
    if not notes:
        return False, None
    faults = []
    want = 8 if "ELF64" in readelf("-h", path) else 4
    if prop and prop[0][4] != want:
        faults.append("misaligned")
    if notes[0][2] != "NT_GNU_PROPERTY_TYPE_0":
        faults.append("not the first note of its segment")
    gnu = [n for n in notes if n[0] == "GNU"
           and n[2] == "NT_GNU_PROPERTY_TYPE_0"]
    if not gnu:
        return True, faults
    size = int(gnu[0][1], 16)
    if size < 8 or size % want:
        faults.append("descriptor size not a multiple of the alignment")
    text = gnu[0][3]
    rank = {"x86 feature": 0xc0000002, "AArch64 feature": 0xc0000000,
            "x86 ISA needed": 0xc0008002}
    ranks = [rank[w] for w in re.findall(r"(x86 feature|x86 ISA needed|"
                                         r"AArch64 feature)", text)]
    if any(b <= a for a, b in zip(ranks, ranks[1:])):
        faults.append("properties out of order")
    if re.search(r"feature: <corrupt length", text):
        faults.append("a feature property not of 4 bytes")
    if len(gnu) > 1:
        faults.append("more than one property note")
    return True, faults


def relro_view(path, segs, dyn, secs):
    """The sections GNU_RELRO should cover and does not, by readelf."""
    relro = [s for s in segs if s[0] == "GNU_RELRO"]
    if not relro:
        return None
    lo, hi = relro[-1][1], relro[-1][1] + relro[-1][2]
    now = ("BIND_NOW" in dyn or any("BIND_NOW" in v for v in dyn.get("FLAGS", []))
           or any("NOW" in v.split() for v in dyn.get("FLAGS_1", [])))
    order = [(".dynamic", lambda s: s[1] == "DYNAMIC"),
             (".got", lambda s: s[0] == ".got"),
             (".got.plt", lambda s: s[0] == ".got.plt" and now),
             (".init_array", lambda s: s[1] == "INIT_ARRAY"),
             (".fini_array", lambda s: s[1] == "FINI_ARRAY"),
             (".preinit_array", lambda s: s[1] == "PREINIT_ARRAY"),
             (".data.rel.ro", lambda s: s[0] == ".data.rel.ro")]
    gaps = []
    for name, match in order:
        for s in secs:
            if match(s) and "A" in s[4] and s[3] > 0 and (
                    s[2] < lo or s[2] + s[3] > hi):
                gaps.append(name)
                break
    return ":".join(gaps)


def outside(path_string):
    """annocheck's run-path rule as elfscan(1) reads it."""
    bad = []
    for e in path_string.split(":"):
        ok = (e == "/usr" or e.startswith("/usr/") or
              re.match(r"(\$ORIGIN|\$\{ORIGIN\})(/|$)", e))
        if e and (not ok or ".." in e.split("/")):
            bad.append(e)
    return ":".join(bad)


BIDI = re.compile(r"\\u(200[bcd]|202[a-e]|206[6-9])")


def name_flaw(name):
    """readelf --unicode=escape shows the name: what elfscan counts."""
    if BIDI.search(name) or "{0x" in name or re.search(r"\^[@-_?]", name):
        return "bad"
    return "space" if " " in name else ""


def suspicious(path, go):
    """Symbol entries of both tables (readelf --syms shows both) with a
    suspicious name; bytes that are no UTF-8 kept as they are."""
    n = 0
    out = readelf("--syms", "--unicode=escape", path)
    for line in out.splitlines():
        m = re.match(r"\s*\d+: [0-9a-f]+\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+"
                     r" (.*)$", line)
        if not m or not m.group(1):
            continue
        flaw = name_flaw(m.group(1).split("@")[0])
        if flaw == "bad" or (flaw == "space" and not go):
            n += 1
    return n


def oracle(path):
    """What the oracles say of each member elfscan gives."""
    typ, mach, entry = header(path)
    segs = segments(path)
    secs = sections(path)
    dyn = dynamic(path)
    k = kind(path, typ, dyn, segs)
    linked = k in ("program", "shared")
    m = machine_word(mach)
    rc, gv, _ = run(["go", "version", path])
    go = rc == 0 and ": go" in gv
    o = {}
    o["textrel"] = (None if not linked else "TEXTREL" in dyn or
                    any("TEXTREL" in v for v in dyn.get("FLAGS", [])))
    o["dynamic_segments"] = sum(1 for s in segs if s[0] == "DYNAMIC")
    o["dynamic_sections"] = sum(1 for s in secs if s[1] == "DYNAMIC")
    present, faults = property_view(path, segs)
    o["property_note"] = (None if not present else
                          faults[0] if faults else "ok")
    o["entry_endbr"] = None
    if k == "program" and m in ("x86_64", "i386"):
        o["entry_endbr"] = first_insn(path, entry, False) in PADS[m]
    pads = linked and m in PADS
    funcs = exported(path) if pads else []
    o["exported_functions"] = len(funcs) if pads else None
    o["exported_endbr"] = (sum(1 for a in funcs if first_insn(
        path, a, m == "aarch64") in PADS[m]) if pads else None)
    arm_dyn = linked and m == "aarch64" and "DYNAMIC" in [s[0] for s in segs]
    o["bti_plt"] = "AARCH64_BTI_PLT" in dyn if arm_dyn else None
    o["pac_plt"] = "AARCH64_PAC_PLT" in dyn if arm_dyn else None
    odd = []
    if any(s[0] == "TLS" and "E" in s[3] and s[2] > 0 for s in segs):
        odd.append("tls-exec")
    if linked and any(s[0] == "GNU_STACK" and not ("R" in s[3] and "W" in s[3])
                      for s in segs):
        odd.append("stack-not-rw")
    o["odd_segments"] = odd
    o["relro_gaps"] = relro_view(path, segs, dyn, secs) if linked else None
    paths = [re.search(r"\[(.*)\]", v).group(1) for t in ("RPATH", "RUNPATH")
             for v in dyn.get(t, [])]
    o["outside_paths"] = (None if not paths else
                          ":".join(x for x in map(outside, paths) if x))
    o["suspicious_symbols"] = suspicious(path, go)
    rust = re.search(r" (rust_begin_unwind|rust_eh_personality)$",
                     readelf("--syms", path), re.M)
    o["language"] = "go" if go else "rust" if rust else None
    o["go_version"] = gv.split(": ")[1].strip() if go else None
    return o


def main():
    tree, jsonl = sys.argv[1], sys.argv[2]
    got = {}
    for line in open(jsonl):
        r = json.loads(line)
        if "member" not in r and "error" not in r and "summary" not in r:
            got[r["path"]] = r
    seen = {}
    checks = 0
    for root, _, files in os.walk(tree):
        for f in sorted(files):
            path = os.path.join(root, f)
            with open(path, "rb") as fh:
                if fh.read(4) != b"\x7fELF":
                    continue
            if path not in got:
                fail("%s: no record" % path)
                continue
            o = oracle(path)
            for key, want in o.items():
                have = got[path].get(key)
                checks += 1
                if have != want:
                    fail("%s: %s: elfscan %r, the oracles %r" % (
                        os.path.relpath(path, tree), key, have, want))
                seen.setdefault(key, set()).add(json.dumps(want))
    for key, values in sorted(seen.items()):
        if len(values) < 2:
            fail("%s: the tree shows only %s" % (key, values))
    print("%d checks, %d disagreements" % (checks, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
