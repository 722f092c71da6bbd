#!/usr/bin/env python3
"""Judge elfscan --hardening on files whose string tables are bigger than
the library reads whole (lib/hardening.c: NAMES_WHOLE, 16 MiB), so that it
reads their names through a window (NAMES_WIN, 64 KiB), by readelf.

usage: check_names.py TREE ELFSCAN_JSON READS

First that the files do take that path, where the test means them to:
each string table over 16 MiB, the names that decide the verdicts more
than a window past the table's first name, and, in some table, in more
than one block (64 KiB) of symbols, so that the window must go back
between blocks. Then elfscan's canary, fortified and unfortified
functions and symbols, each against what readelf's symbol tables give.
READS holds "FILE PREADS BYTES" for each file, from strace: a window that
only goes forward over each block's names reads a string table at most
once per block; one moved to each name in turn reads once per symbol.
Prints one line per check; exits 1 on a failure.
"""
import json
import os
import sys

from elfview import section, strings, symbols

WHOLE = 16 << 20
WIN = 1 << 16
BLOCK = 1 << 16
# What tests/fixtures/hardening.c calls that _FORTIFY_SOURCE fortifies.
CALLS = ("memcpy", "printf", "read", "strcpy")
CANARY = "__stack_chk_fail"
DECIDING = (CANARY,) + CALLS + tuple(f"__{c}_chk" for c in CALLS)
TABLES = ((True, ".dynsym", ".dynstr"), (False, ".symtab", ".strtab"))

failures = 0
checks = 0


def check(what, ok, detail=""):
    global failures, checks
    checks += 1
    if ok:
        print(f"ok: {what}")
    else:
        failures += 1
        print(f"FAIL: {what}{': ' + detail if detail else ''}")


def layout(rel, path, dynamic, symtab, strtab):
    """Check that the table takes the window's path; its references."""
    syms = symbols(path, dynamic)
    size = section(path, strtab)[1]
    check(f"{rel}: {strtab} of {size} bytes, over {WHOLE}", size > WHOLE)
    offs = strings(path, strtab)
    first = min(offs.values())
    where = {}
    for idx, name, ndx in syms:
        if ndx == "UND" and name in DECIDING:
            at = [o for s, o in offs.items() if s.split("@")[0] == name]
            where[name] = (min(at) if at else None, idx * 24 // BLOCK)
    near = sorted(n for n, (o, _) in where.items()
                  if o is None or o - first < WIN)
    check(f"{rel}: {symtab}: {len(where)} deciding names, each more than "
          f"{WIN} bytes past the first name ({first})",
          len(where) >= 5 and not near, f"near: {near}")
    print(f"note: {rel}: {symtab}: " + ", ".join(
        f"{n} at {o} in block {b}" for n, (o, b) in sorted(where.items())))
    return syms, len({b for _, b in where.values()})


def main():
    tree, out, reads = sys.argv[1:4]
    recs = {}
    with open(out) as f:
        for line in f:
            r = json.loads(line)
            if "member" not in r:
                recs[os.path.relpath(r["path"], tree)] = r
    cost = {}
    with open(reads) as f:
        for line in f:
            name, n, nbytes = line.split()
            cost[name] = (int(n), int(nbytes))
    spread = 0
    for rel in sorted(recs):
        r, path = recs[rel], os.path.join(tree, rel)
        und, nsyms, sweeps = set(), 0, 0
        has_symtab = section(path, ".symtab") is not None
        for dynamic, symtab, strtab in TABLES:
            if section(path, symtab) is None:
                continue
            syms, blocks = layout(rel, path, dynamic, symtab, strtab)
            spread = max(spread, blocks)
            und |= {n for _, n, ndx in syms if ndx == "UND"}
            nsyms += len(syms)
            ents = section(path, symtab)[1] // 24
            sweeps += -(-ents * 24 // BLOCK) * section(path, strtab)[1]
        check(f"{rel}: canary, as readelf's references say",
              r["canary"] == (CANARY in und), f"elfscan {r['canary']}")
        want = sorted(c for c in CALLS if f"__{c}_chk" in und)
        check(f"{rel}: fortified {want}, as readelf's references say",
              r["fortified"] == want, f"elfscan {r['fortified']}")
        want = sorted(c for c in CALLS if c in und)
        check(f"{rel}: unfortified {want}, as readelf's references say",
              r["unfortified"] == want, f"elfscan {r['unfortified']}")
        check(f"{rel}: symbols {has_symtab}, as readelf's sections say",
              r["symbols"] == has_symtab, f"elfscan {r['symbols']}")
        n, nbytes = cost.get(rel, (None, None))
        if n is None:
            check(f"{rel}: its reads were counted", False)
            continue
        size = os.path.getsize(path)
        check(f"{rel}: {n} reads for {nsyms} named symbols: fewer than one "
              "for four", 0 < n < nsyms / 4)
        check(f"{rel}: {nbytes} bytes read, at most the file ({size}) and "
              f"each string table once per block of symbols ({sweeps})",
              nbytes <= size + sweeps)
    check(f"the deciding names of some table lie in {spread} blocks of "
          "symbols, more than one", spread > 1)
    print(f"{checks} checks, {failures} failed")
    sys.exit(1 if failures or not checks else 0)


main()
