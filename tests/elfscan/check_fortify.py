#!/usr/bin/env python3
"""_FORTIFY_SOURCE's level per compilation unit, by binutils' readelf, against
elfscan --hardening --format=json (fortify-level.sh).

usage: check_fortify.py ELFSCAN_JSON FILE...

For each FILE, readelf --debug-dump=info gives each unit's DW_AT_producer
and the offset of its macro table (DW_AT_macros, DW_AT_GNU_macros,
DW_AT_macro_info); readelf --debug-dump=macro gives the tables, their
entries and imports. A unit's level is the last define or undefine of
_FORTIFY_SOURCE in its table, imports followed in place, those within a
source file over those outside any (the command line's; 0 when none);
without a table, clang's recorded -D and -U (-grecord-command-line), the
last winning; else unknown. Prints "ok:"/"FAIL:" lines; exits 1 on a
failure.

A table whose strings are by index (DW_MACRO_define_strx, clang's DWARF 5)
is read with LLVM's llvm-dwarfdump --debug-macro instead: binutils 2.40's
readelf looks the index up without the unit's DW_AT_str_offsets_base, and
prints the string two entries before (the section's header is 8 bytes).
"""
import json
import re
import subprocess
import sys

FS = "_FORTIFY_SOURCE"


def readelf(what, path):
    return subprocess.run(["readelf", "--debug-dump=" + what, path],
                          check=True, capture_output=True,
                          text=True).stdout


def units(path):
    """[(producer, macro offset or None, macinfo)] of each unit."""
    out, cur = [], None
    for line in readelf("info", path).splitlines():
        if "(DW_TAG_compile_unit)" in line:
            cur = {"producer": "", "macros": None, "macinfo": False}
            out.append(cur)
        elif re.match(r"\s*<1>", line):
            cur = None
        elif cur is not None:
            m = re.search(r"DW_AT_producer\s*:.*?: (.*)$", line) or \
                re.search(r"DW_AT_producer\s*:\s*(.*)$", line)
            if m:
                cur["producer"] = m.group(1)
            m = re.search(r"DW_AT_(macros|GNU_macros|macro_info)\s*:\s*"
                          r"(0x[0-9a-f]+|\d+)", line)
            if m:
                cur["macros"] = int(m.group(2), 0)
                cur["macinfo"] = m.group(1) == "macro_info"
    return out


def tables_llvm(path):
    """tables() by llvm-dwarfdump: "0x...:" starts a table."""
    out = subprocess.run(["llvm-dwarfdump", "--debug-macro", path],
                         check=True, capture_output=True, text=True).stdout
    tabs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"(0x[0-9a-f]+):$", line)
        if m:
            cur = tabs.setdefault(int(m.group(1), 16), [])
            continue
        if cur is None:
            continue
        if re.match(r"\s*DW_MACRO_start_file", line):
            cur.append(("start", None))
        elif re.match(r"\s*DW_MACRO_end_file", line):
            cur.append(("end", None))
        else:
            m = re.match(r"\s*DW_MACRO_(define|undef)\w* - lineno: \d+ "
                         r"macro: (.*)$", line)
            if m:
                cur.append((m.group(1), m.group(2)))
                continue
            m = re.match(r"\s*DW_MACRO_import\w* - import offset: "
                         r"(0x[0-9a-f]+)", line)
            if m:
                cur.append(("import", int(m.group(1), 16)))
    return tabs, []


def tables(path):
    """{offset: [("define"|"undef"|"import"|"start"|"end", text)]}, and
    the tables of .debug_macinfo in order: readelf prints no offsets
    there, so a start_file outside any file, in a table that has one
    already, starts the next."""
    tabs, macinfo, cur, depth, started = {}, [], None, 0, False
    dump = readelf("macro", path)
    if re.search(r"DW_MACRO_(define|undef)_strx", dump):
        return tables_llvm(path)
    for line in dump.splitlines():
        if "Contents of the .debug_macinfo" in line:
            macinfo.append([])
            cur = macinfo[-1]
            continue
        m = re.match(r"\s*Offset:\s+(0x[0-9a-f]+|\d+)$", line)
        if m:
            cur = tabs.setdefault(int(m.group(1), 0), [])
            continue
        if cur is not None and re.match(r"\s*DW_MAC(RO|INFO)_start_file", line):
            if macinfo and cur is macinfo[-1] and depth == 0 and started:
                macinfo.append([])
                cur = macinfo[-1]
            started, depth = True, depth + 1
            cur.append(("start", None))
            continue
        if cur is not None and re.match(r"\s*DW_MAC(RO|INFO)_end_file", line):
            depth = max(depth - 1, 0)
            cur.append(("end", None))
            continue
        m = re.match(r"\s*DW_MAC(?:RO|INFO)_(define|undef)\w*\s.*?"
                     r"macro : (.*)$", line)
        if m and cur is not None:
            cur.append((m.group(1), m.group(2)))
            continue
        m = re.match(r"\s*DW_MACRO_import\w*\s.*offset : (0x[0-9a-f]+)",
                     line)
        if m and cur is not None:
            cur.append(("import", int(m.group(1), 16)))
    return tabs, macinfo


def define_level(text):
    v = text[len(FS):].strip()
    return min(int(v), 3) if v.isdigit() else 1


def walk(tabs, entries, st, depth=0):
    """st: {"files": depth of start_file, "cmd": level outside any file,
    "src": level in the sources}; None when untouched."""
    for kind, arg in entries:
        lv = None
        if kind == "start":
            st["files"] += 1
        elif kind == "end":
            st["files"] = max(st["files"] - 1, 0)
        elif kind == "import" and depth < 8:
            walk(tabs, tabs.get(arg, []), st, depth + 1)
        elif kind == "define" and (arg == FS or arg.startswith(FS + " ")):
            lv = define_level(arg)
        elif kind == "undef" and (arg == FS or arg.startswith(FS + " ")):
            lv = 0
        if lv is not None:
            st["src" if st["files"] else "cmd"] = lv


def table_level(tabs, entries):
    """The command line comes before the sources, wherever written."""
    st = {"files": 0, "cmd": None, "src": None}
    walk(tabs, entries, st)
    return st["src"] if st["src"] is not None else st["cmd"] or 0


def producer_level(producer):
    if "clang version " not in producer:
        return None
    words, level, i = producer.split(), None, 0
    while i < len(words):
        w = words[i]
        if w in ("-D", "-U") and i + 1 < len(words):
            w, i = w + words[i + 1], i + 1
        if w == "-D" + FS or w.startswith("-D" + FS + "="):
            v = w[len(FS) + 3:]
            level = int(v) if v in ("0", "1", "2", "3") else 1
        elif w == "-U" + FS:
            level = 0
        i += 1
    # A line with options records the level even when it sets none.
    return level if level is not None else (
        0 if any(w.startswith("-") for w in words) else None)


def oracle(path):
    """(units, by macro table, [units of level 0..3]), or None."""
    tabs, macinfo = tables(path)
    us = units(path)
    n, macro, levels = 0, 0, [0, 0, 0, 0]
    info = sorted(u["macros"] for u in us if u["macinfo"])
    for u in us:
        if u["macros"] is not None:
            if u["macinfo"]:
                entries = macinfo[info.index(u["macros"])]
            else:
                entries = tabs.get(u["macros"], [])
            lv, macro = table_level(tabs, entries), macro + 1
        else:
            lv = producer_level(u["producer"])
        if lv is not None:
            n += 1
            levels[lv] += 1
    return {"units": n, "macros": macro, "levels": levels} if n else None


def main():
    got = {}
    with open(sys.argv[1]) as f:
        for line in f:
            r = json.loads(line)
            if "evidence" in r:
                got[r["path"]] = r["evidence"]["fortify_level"]
    bad = 0
    for path in sys.argv[2:]:
        want = oracle(path)
        name = path.rsplit("/", 1)[-1]
        mine = got.get(path, "missing")
        if mine == want:
            print("ok: %s: fortify_level %s as readelf's" % (name, want))
        else:
            print("FAIL: %s: fortify_level %s, readelf says %s" %
                  (name, mine, want))
            bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
