#!/usr/bin/env python3
"""Compare what elfscan --hardening --code says of how each image was built
(its JSON "evidence" member) with what binutils shows of the same file:

  units         readelf --debug-dump=info: the compilation units, each
                unit's DW_AT_producer and DW_AT_language (32769, MIPS
                assembler, for an assembly source), read from readelf's
                text and counted here: assembly units, LTO's (GNU GIMPLE),
                those whose producer records options (gcc's; clang's with
                a command line), and of those, the options each had (the
                last of its kind on the line)
  code          objdump -d: the instructions GCC writes a trampoline with
                (movl $0x90e3ff49 to memory), stack allocations probed a
                page at a time (sub $0x1000,%rsp then orq or movq
                $0x0,(%rsp); a run of them counts once) and those of a page
                or more at once (sub $N,%rsp, N >= 0x1000, with no probe
                after or before)
  annobin       readelf -n (.gnu.build.attributes, decoded by readelf) and
                readelf -p .annobin.notes (the strings): each setting's
                lowest and highest value
  build-id      eu-readelf -n (elfutils, not binutils): the build-id

usage: check_evidence.py ROOT ELFSCAN_JSON

Images are looked up under ROOT by the JSON's path (a member of a package
is skipped: its bytes are not on disk). An image whose units came from a
separate debug file (evidence.debug_file) has that file's units compared,
the file being ROOT + its path when it starts with '/'. Prints one line per
check; exits 1 on a failure.
"""
import json
import os
import re
import sys

from elfview import readelf, run

ASSEMBLER = 32769
OPTS = ("O0", "O1", "O2", "O3", "Os", "Og", "Ofast")


def value(line, attr):
    """The value readelf -W shows for attr on line, without the form and
    offset it puts first: "(strp) (offset: 0x37): GNU C17 ..." or
    "(data1) 29\t(C11)"."""
    text = line.split(attr, 1)[1].split(":", 1)[1].lstrip()
    while text.startswith("("):
        text = text[text.index(")") + 1:].lstrip()
        if text.startswith(":"):
            text = text[1:].lstrip()
    return text.rstrip()


def units_of(path):
    """[(producer, language)] of each compile or skeleton unit."""
    units, cur = [], None
    for line in readelf("--debug-dump=info", path).splitlines():
        if "DW_TAG_compile_unit" in line or "DW_TAG_skeleton_unit" in line:
            cur = ["", 0]
            units.append(cur)
        elif "Abbrev Number" in line and "(DW_TAG_" in line:
            cur = None
        elif cur is not None and "DW_AT_producer" in line:
            cur[0] = value(line, "DW_AT_producer")
        elif cur is not None and "DW_AT_language" in line:
            cur[1] = int(value(line, "DW_AT_language").split()[0])
    return [tuple(u) for u in units]


def options(producer):
    """What one recorded producer's options set; None when none are
    recorded."""
    words = producer.split()
    if not any(w.startswith("-") for w in words):
        return None
    o = dict(opt="O0", clash=False, cf=False, avi=False, lto=False, sp=0,
             fortify=0, glibcxx=False)
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("-D", "-U") and i + 1 < len(words):
            w = w + words[i + 1]
            i += 1
        i += 1
        m = re.fullmatch(r"-O(\d*|s|z|g|fast)", w)
        if m:
            v = m.group(1)
            o["opt"] = ("O1" if v == "" else "Os" if v in "sz" else
                        "Og" if v == "g" else "Ofast" if v == "fast" else
                        "O" + str(min(int(v), 3)))
        elif w in ("-fstack-clash-protection", "-fno-stack-clash-protection"):
            o["clash"] = w == "-fstack-clash-protection"
        elif w.startswith("-fcf-protection"):
            o["cf"] = w in ("-fcf-protection", "-fcf-protection=full")
        elif w.startswith("-ftrivial-auto-var-init="):
            o["avi"] = w.split("=")[1] in ("zero", "pattern")
        elif w == "-flto" or w.startswith("-flto="):
            o["lto"] = True
        elif w == "-fno-lto":
            o["lto"] = False
        elif w in ("-fstack-protector-strong", "-fstack-protector-all"):
            o["sp"] = 2
        elif w == "-fstack-protector":
            o["sp"] = 1
        elif w in ("-fno-stack-protector", "-fstack-protector-explicit"):
            o["sp"] = 0
        elif re.fullmatch(r"-D_FORTIFY_SOURCE(=\d)?", w):
            o["fortify"] = int(w[-1]) if "=" in w else 1
        elif w == "-U_FORTIFY_SOURCE":
            o["fortify"] = 0
        elif re.fullmatch(r"-D_GLIBCXX_ASSERTIONS(=.*)?", w):
            o["glibcxx"] = True
    return o


def expected_units(path):
    """The "evidence" counts readelf's units give."""
    e = dict(units=0, assembler=0, gimple=0, recorded=0, unrecorded=0,
             opt={k: 0 for k in OPTS}, stack_clash=0, cf=0, avi=0, lto=0,
             sp_strong=0, sp_basic=0, defines=0, fortify=[0, 0, 0, 0],
             glibcxx=0, asm=[])
    for producer, lang in units_of(path):
        e["units"] += 1
        if lang == ASSEMBLER or producer.startswith("GNU AS"):
            e["assembler"] += 1
            continue
        if producer.startswith("GNU GIMPLE"):
            e["gimple"] += 1
            continue
        clang = "clang version " in producer
        if not producer.startswith("GNU ") and not clang:
            continue
        o = options(producer)
        if o is None:
            e["unrecorded"] += 1
            continue
        e["recorded"] += 1
        e["opt"][o["opt"]] += 1
        e["stack_clash"] += o["clash"]
        e["cf"] += o["cf"]
        e["avi"] += o["avi"]
        e["lto"] += o["lto"]
        e["sp_strong"] += o["sp"] == 2
        e["sp_basic"] += o["sp"] == 1
        if clang:
            e["defines"] += 1
            e["fortify"][o["fortify"]] += 1
            e["glibcxx"] += o["glibcxx"]
    return e


def expected_code(path):
    """(trampolines, probed, unprobed) from objdump -d."""
    out = run(["objdump", "-d", "--no-show-raw-insn", path])[1]
    insns = []
    for line in out.splitlines():
        m = re.match(r"\s*[0-9a-f]+:\s+(\S+)\s*(.*)", line)
        if m:
            insns.append((m.group(1), m.group(2).replace(" ", "")))

    def probe(i):
        return 0 <= i < len(insns) and insns[i][0] in ("orq", "movq") and \
            insns[i][1] == "$0x0,(%rsp)"

    tramp = probed = unprobed = 0
    for i, (op, args) in enumerate(insns):
        if op == "movl" and args.startswith("$0x90e3ff49,"):
            tramp += 1
        m = re.fullmatch(r"\$0x([0-9a-f]+),%rsp", args)
        if op != "sub" or not m or int(m.group(1), 16) < 0x1000 or \
                int(m.group(1), 16) >= 0x80000000:
            continue
        if int(m.group(1), 16) == 0x1000 and probe(i + 1):
            probed += not probe(i - 1)
        elif not probe(i + 1) and not probe(i - 1):
            unprobed += 1
    return tramp, probed, unprobed


STRENGTH = {0: 0, 1: 2, 2: 4, 3: 3, 4: 1}
SP_WORD = {"none": 0, "on": 1, "all": 2, "strong": 3, "explicit": 4}


def expected_annobin(path):
    """{setting: [min, max]} from readelf -n and readelf -p; notes."""
    seen, notes = {}, 0

    def note(key, v):
        lo, hi = seen.get(key, (v, v))
        seen[key] = [min(lo, v), max(hi, v)]

    def gow(v):
        note("optimize", v >> 9 & 3)
        if v & 1 << 16:
            note("lto", 1)
        elif v & 1 << 17:
            note("lto", 0)
        if v >> 18 & 3:
            note("auto_var_init", (v >> 18 & 3) - 1)

    def setting(name, v):
        if name == "stack_clash":
            note("stack_clash", int(v != 0))
        elif name == "cf_protection" and 1 <= v <= 16:
            note("cf_protection_full", int((v - 1) & 3 == 3))
        elif name == "FORTIFY" and v <= 3:
            note("fortify", v)
        elif name == "GLIBCXX_ASSERTIONS":
            note("glibcxx_assertions", int(v != 0))
        elif name == "GOW":
            gow(v)

    for line in readelf("-n", path).splitlines():
        m = re.match(r"\s*GA([*+!$])(<[^>]*>\S*|[^\s:]+)(?::(\S+))?"
                     r"\s+0x[0-9a-f]+\s", line)
        if not m or m.group(1) == "$":
            continue
        notes += 1
        kind, name, value = m.groups()
        if name.startswith("<stack prot>"):
            note("stack_protector", STRENGTH[SP_WORD[name[12:]]])
            continue
        v = int(value, 16) if kind == "*" else int(kind == "+")
        setting(name, v)
    codes = {"SC": "stack_clash", "CF": "cf_protection", "FL": "FORTIFY",
             "GA": "GLIBCXX_ASSERTIONS", "GW": "GOW"}
    for line in readelf("-p", ".annobin.notes", path).splitlines():
        m = re.match(r"\s*\[\s*[0-9a-f]+\]  (..):(\S+)", line)
        if not m:
            continue
        notes += 1
        v = int(m.group(2), 0)
        if m.group(1) == "SP":
            note("stack_protector", STRENGTH[v])
        elif m.group(1) in codes:
            setting(codes[m.group(1)], v)
    return notes, seen


def build_id(path):
    out = run(["eu-readelf", "-n", path])[1]
    m = re.search(r"Build ID: ([0-9a-f]+)", out)
    return m.group(1) if m else None


failures = 0


def check(what, got, want):
    global failures
    if got == want:
        print("ok:", what)
    else:
        failures += 1
        print("FAIL: %s: elfscan %r, binutils %r" % (what, got, want))


def compare(root, rec):
    path = rec["path"]
    name = os.path.relpath(path, root) if path.startswith(root) else path
    ev = rec["evidence"]
    dwarf = path
    if ev["debug_file"]:
        dwarf = ev["debug_file"]
        if dwarf.startswith("/"):
            dwarf = os.path.join(root, dwarf.lstrip("/"))
    e = expected_units(dwarf)
    f = ev["options"]
    check(name + ": units", (ev["units"], ev["assembler"], ev["gimple"],
                             ev["recorded"], ev["unrecorded"]),
          (e["units"], e["assembler"], e["gimple"], e["recorded"],
           e["unrecorded"]))
    check(name + ": -O levels", [f[k] for k in OPTS],
          [e["opt"][k] for k in OPTS])
    check(name + ": options", (f["stack_clash"], f["cf_protection_full"],
                               f["auto_var_init"], f["lto"],
                               f["stack_protector_strong"],
                               f["stack_protector"]),
          (e["stack_clash"], e["cf"], e["avi"], e["lto"], e["sp_strong"],
           e["sp_basic"]))
    check(name + ": defines", (f["defines"], f["fortify"],
                               f["glibcxx_assertions"]),
          (e["defines"], e["fortify"] if e["defines"] else None,
           e["glibcxx"] if e["defines"] else None))
    if ev["code"] is not None:
        c = ev["code"]
        check(name + ": code", (c["trampolines"], c["probed"], c["unprobed"]),
              expected_code(path))
    notes, seen = expected_annobin(path)
    an = ev["annobin"] or {"notes": 0}
    check(name + ": annobin notes", an["notes"], notes)
    for key in seen:
        check(name + ": annobin " + key, an.get(key), seen[key])
    check(name + ": build-id", rec["build_id"], build_id(path))


def main():
    root, log = sys.argv[1], sys.argv[2]
    n = 0
    for line in open(log):
        rec = json.loads(line)
        if "evidence" not in rec or "member" in rec:
            continue
        compare(root, rec)
        n += 1
    check("images compared", n > 0, True)
    sys.exit(1 if failures else 0)


main()
