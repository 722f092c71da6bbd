#!/usr/bin/env python3
"""Compare the JSON members the manual names with those of the schema.

usage: check_schema_man.py SCHEMA PAGE [FIELDS-PAGE...]

PAGE's section "JSON LINES" names the members of each record with .Li
(mdoc); a FIELDS-PAGE names the fields it describes (elfscan-hardening(7),
to which JSON LINES points for the --hardening members) as the heads of
its lists and text, .It Li NAME and Li NAME. Both ways: every member of the schema must be
named in one of them, and every .Li word that opens a line or a list item
of JSON LINES must be a member of the schema (a value is marked up there
otherwise: .Cm, or inside .Pq). Prints one line per difference; exits 1
if any.
"""
import json
import re
import sys


def members(node, out):
    if isinstance(node, dict):
        for k in node.get("properties", {}):
            out.add(k)
        for v in node.values():
            members(v, out)
    elif isinstance(node, list):
        for v in node:
            members(v, out)
    return out


def li_words(words):
    """The names of a run of .Li arguments: NAME [, NAME]..."""
    for w in words:
        w = w.removeprefix("\\&")
        if w in ",;.":
            continue
        if not re.fullmatch(r"[a-z_][\w$]*|O[0-3sg]|Ofast", w):
            return
        yield w


def json_lines(path):
    lines = open(path).read().splitlines()
    start = next((i for i, l in enumerate(lines) if l.strip() == ".Sh JSON LINES"), None)
    if start is None:
        sys.exit(f"{path}: no section JSON LINES")
    end = next((j for j in range(start + 1, len(lines))
                if lines[j].startswith(".Sh ")), len(lines))
    return lines[start + 1:end]


def heads(lines, anywhere):
    """The .Li words of lines that begin with .Li or .It Li (and, where
    anywhere, after every Li of the line)."""
    out = set()
    for line in lines:
        words = line.split()
        if words[:1] == [".Li"]:
            out.update(li_words(words[1:]))
        elif words[:2] == [".It", "Li"]:
            out.update(li_words(words[2:]))
        if anywhere:
            for j, w in enumerate(words):
                if w == "Li" and j > 0:
                    out.update(li_words(words[j + 1:]))
    return out


schema = members(json.load(open(sys.argv[1])), set())
section = json_lines(sys.argv[2])
named = heads(section, anywhere=False)
documented = set(named) | heads(section, anywhere=True)
for page in sys.argv[3:]:
    documented |= heads(open(page).read().splitlines(), anywhere=True)
failures = 0
for m in sorted(schema - documented):
    failures += 1
    print(f"FAIL: the manual does not name the member {m}")
for m in sorted(named - schema):
    failures += 1
    print(f"FAIL: {sys.argv[2]} names {m}, not a member of the schema")
print(f"{len(schema)} members in the schema, {len(documented)} names in the "
      f"manual, {failures} differences")
sys.exit(1 if failures else 0)
