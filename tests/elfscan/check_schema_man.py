#!/usr/bin/env python3
"""Compare the JSON members a manual page names with those of a schema.

usage: check_schema_man.py SCHEMA PAGE

The members are the words of .Li macros (mdoc). When PAGE has a section
"JSON LINES", only it is read, and the check goes both ways: every member
of the schema must be named there, and every word named there must be a
member of the schema. Without that section (elfscan.1 before the output
moved to elfscan-output.7) the whole page is read, and only the first way
is checked, since .Li also names values and paths elsewhere. Prints one
line per difference; exits 1 if any.
"""
import json
import re
import sys


def members(node, out):
    if isinstance(node, dict):
        for k, v in node.get("properties", {}).items():
            out.add(k)
        for v in node.values():
            members(v, out)
    elif isinstance(node, list):
        for v in node:
            members(v, out)
    return out


schema = members(json.load(open(sys.argv[1])), set())
lines = open(sys.argv[2]).read().splitlines()
section = None
for i, line in enumerate(lines):
    if line.strip() == ".Sh JSON LINES":
        section = i
if section is not None:
    end = next((j for j in range(section + 1, len(lines))
                if lines[j].startswith(".Sh ")), len(lines))
    lines = lines[section + 1:end]
named = set()
for line in lines:
    words = line.split()
    for j, w in enumerate(words):
        if w in ("Li", ".Li"):
            k = j + 1
            while k < len(words) and re.fullmatch(r"[\w$]+|[,;.]", words[k]):
                if words[k] not in ",;.":
                    named.add(words[k])
                k += 1
failures = 0
for m in sorted(schema - named):
    failures += 1
    print(f"FAIL: {sys.argv[2]} does not name the member {m}")
if section is not None:
    for m in sorted(named - schema):
        failures += 1
        print(f"FAIL: {sys.argv[2]} names {m}, not a member of the schema")
print(f"{len(schema)} members in the schema, {len(named)} words named, "
      f"{failures} differences")
sys.exit(1 if failures else 0)
