#!/usr/bin/env python3
"""Compare elfscan --hardening's JSON, field by field, with Debian's checksec
2.6.0 (--output=json), devscripts' hardening-check where it answers, and
readelf -n for the property notes (which checksec 2.6.0 does not read).

usage: check_hardening.py TREE ELFSCAN_JSON

Every disagreement must be one of EXPLAINED below, with its reason, and
every one listed there for a fixture the tree holds must still happen: an
explanation that no longer holds fails the test too. Prints one line per
check; exits 1 on a failure.
"""
import json
import os
import re
import sys

from elfview import readelf, run

# (fixture glob, tool, field): why elfscan and the tool differ there. Each
# is a case where the tool's rule, read in its script, is the one that is
# wrong or cannot know (see elfscan(1), HARDENING).
STATIC = ("static", "static-stripped", "cet-tiny", "ibt-tiny", "aarch64-bti",
          "aarch64-pac")
EXPLAINED = [
    (STATIC, "checksec", "fortify_source",
     "a static program has no dynamic symbol table: checksec counts none "
     "and says no; its .symtab holds libc's own functions, used or not, "
     "so elfscan says unknown (null)"),
    (("static-stripped",), "checksec", "canary",
     "no symbol table at all: checksec says no canary; the checks of the "
     "guard in its code (canary_checks, which precision.sh counts with "
     "objdump) make elfscan say yes"),
    (("object", "object-aarch64", "names"), "checksec", "relro",
     "RELRO is made by the linker: an object has no program headers, "
     "checksec says no, elfscan null (not applicable)"),
    (("object", "names"), "checksec", "fortify_source",
     "an object's references are the undefined symbols of its .symtab; "
     "checksec reads only --dyn-syms, which an object lacks"),
    (("rpath-empty",), "checksec", "rpath",
     "DT_RPATH is the empty string (the current directory for glibc's "
     "loader); checksec's read -a of an empty list makes no entries and "
     "says no RPATH"),
    (("static", "static-pie"), "hardening-check", "canary",
     "hardening-check looks only at undefined symbols; in a static "
     "program __stack_chk_fail is defined (linked in)"),
]


def explained(fixture, tool, field):
    for e in EXPLAINED:
        if fixture in e[0] and e[1] == tool and e[2] == field:
            return e[3]
    return None


def checksec(path):
    out = run(["checksec", "--output=json", "--file=" + path])[1]
    return json.loads(out)[path]


def hardening_check(path):
    """The answers of hardening-check, by field, for the lines it gives."""
    out = run(["hardening-check", path])[1]
    got = {}
    for line in out.splitlines():
        m = re.match(r"\s+(.*?): (.*)", line)
        if m:
            got[m.group(1)] = m.group(2)
    return got


def notes(path):
    """(ibt, shstk, bti, pac) from readelf -n."""
    out = readelf("-n", path)
    x86 = re.search(r"x86 feature: (.*)", out)
    arm = re.search(r"AArch64 feature: (.*)", out)
    xf = x86.group(1) if x86 else ""
    af = arm.group(1) if arm else ""
    return ("IBT" in xf, "SHSTK" in xf, "BTI" in af, "PAC" in af)


def kind(rel):
    """The fixture's category for EXPLAINED: its file name's stem."""
    return os.path.basename(rel).split(".")[0]


class Checker:
    def __init__(self):
        self.failures = 0
        self.checks = 0
        self.seen = set()

    def compare(self, rel, tool, field, ours, theirs):
        self.checks += 1
        key = (kind(rel), tool, field)
        why = explained(*key)
        if ours == theirs:
            print(f"ok: {rel}: {field}: {tool} agrees ({ours})")
            return
        if why is not None:
            self.seen.add(key)
            print(f"ok: {rel}: {field}: elfscan {ours}, {tool} {theirs}: "
                  f"explained: {why}")
            return
        self.failures += 1
        print(f"FAIL: {rel}: {field}: elfscan {ours}, {tool} {theirs}")


def pie_word(rec):
    if rec["type"] in ("pie", "exec"):
        return "yes" if rec["pie"] in ("yes", "static") else "no"
    return {"shared": "dso", "object": "rel"}[rec["type"]]


def main():
    tree, out = sys.argv[1], sys.argv[2]
    recs = {}
    with open(out) as f:
        for line in f:
            r = json.loads(line)
            if "summary" in r or "member" in r:
                continue
            recs[os.path.relpath(r["path"], tree)] = r
    c = Checker()
    for rel in sorted(recs):
        r = recs[rel]
        path = os.path.join(tree, rel)
        if "error" in r:
            c.failures += 1
            print(f"FAIL: {rel}: elfscan could not read it: {r['error']}")
            continue
        cs = checksec(path)
        c.compare(rel, "checksec", "relro",
                  {None: "n/a", "none": "no"}.get(r["relro"], r["relro"]),
                  cs["relro"])
        c.compare(rel, "checksec", "canary",
                  {None: "unknown", True: "yes", False: "no"}[r["canary"]],
                  cs["canary"])
        c.compare(rel, "checksec", "pie", pie_word(r), cs["pie"])
        c.compare(rel, "checksec", "rpath",
                  "no" if r["rpath"] is None else "yes", cs["rpath"])
        c.compare(rel, "checksec", "runpath",
                  "no" if r["runpath"] is None else "yes", cs["runpath"])
        c.compare(rel, "checksec", "symbols",
                  "yes" if r["symbols"] else "no", cs["symbols"])
        fort = r["fortified"] or []
        unfort = r["unfortified"] or []
        c.compare(rel, "checksec", "fortify_source",
                  ("unknown" if r["fortified"] is None else
                   "yes" if r["fortify"] else "no", len(fort),
                   len(fort) + len(unfort)),
                  (cs["fortify_source"], int(cs["fortified"]),
                   int(cs["fortify-able"])))
        ibt, shstk, bti, pac = notes(path)
        c.compare(rel, "readelf -n", "cfi",
                  (bool(r["ibt"]), bool(r["shstk"]), bool(r["bti"]),
                   bool(r["pac"])), (ibt, shstk, bti, pac))
        if r["machine"] != "x86_64" and r["machine"] != "i386" or \
                r["type"] == "object":
            continue
        hc = hardening_check(path)
        pie = hc.get("Position Independent Executable", "")
        if not pie.startswith("no, regular shared"):
            c.compare(rel, "hardening-check", "pie",
                      "yes" if r["pie"] in ("yes", "static") else "no",
                      "yes" if pie == "yes" else "no")
        sp = hc.get("Stack protected", "")
        if not sp.startswith("unknown"):
            c.compare(rel, "hardening-check", "canary",
                      "yes" if r["canary"] else "no",
                      "yes" if sp == "yes" else "no")
        fs = hc.get("Fortify Source functions", "")
        if not fs.startswith("unknown") and r["fortify"] is not None:
            c.compare(rel, "hardening-check", "fortify",
                      "yes" if r["fortify"] else "no", fs[:3].rstrip(","))
        c.compare(rel, "hardening-check", "relro",
                  "no" if r["relro"] == "none" else "yes",
                  hc.get("Read-only relocations", "")[:3].rstrip(","))
        c.compare(rel, "hardening-check", "bind_now",
                  "yes" if r["bind_now"] else "no",
                  hc.get("Immediate binding", "")[:3].rstrip(","))
        c.compare(rel, "hardening-check", "cfi",
                  "yes" if r["ibt"] and r["shstk"] else "no",
                  hc.get("Control flow integrity", "")[:3].rstrip(","))
    # Of the fixtures the tree holds (hardening-names.sh's holds others).
    kinds = {kind(rel) for rel in recs}
    for k in [(f, e[1], e[2]) for e in EXPLAINED for f in e[0] if f in kinds]:
        c.checks += 1
        if k in c.seen:
            print(f"ok: the disagreement {k} happened, as explained")
        else:
            c.failures += 1
            print(f"FAIL: the disagreement {k} did not happen: "
                  "the explanation is stale")
    print(f"{c.checks} comparisons, {c.failures} failed")
    sys.exit(1 if c.failures or c.checks == 0 else 0)


main()
