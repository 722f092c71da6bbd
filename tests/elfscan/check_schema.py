#!/usr/bin/env python3
"""Validate elfscan's JSON Lines against share/elfscan.schema.json.

usage: check_schema.py SCHEMA JSON-FILE...

Every line of every JSON-FILE must be valid under SCHEMA (jsonschema's
Draft 2020-12 validator, with format checking), and across all the files
every record type the schema defines ($defs) must be seen once at least,
so that a record type elfscan no longer writes cannot stay in the schema
unnoticed. Prints one line per failure; exits 1 if any.
"""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
fmt = jsonschema.Draft202012Validator.FORMAT_CHECKER
valid = jsonschema.Draft202012Validator(schema, format_checker=fmt)
kinds = {k: jsonschema.Draft202012Validator(
    {"$ref": "#/$defs/" + k, "$defs": schema["$defs"]}, format_checker=fmt)
    for k in schema["$defs"]}
seen = set()
failures = 0
lines = 0
for name in sys.argv[2:]:
    for n, line in enumerate(open(name), 1):
        lines += 1
        try:
            rec = json.loads(line)
        except ValueError as e:
            failures += 1
            print(f"FAIL: {name}:{n}: not JSON: {e}")
            continue
        errors = list(valid.iter_errors(rec))
        if errors:
            failures += 1
            best = jsonschema.exceptions.best_match(errors)
            print(f"FAIL: {name}:{n}: {best.message}: {line.strip()[:200]}")
        seen |= {k for k, v in kinds.items() if v.is_valid(rec)}
for k in sorted(set(kinds) - seen):
    failures += 1
    print(f"FAIL: record type {k} of the schema never seen")
print(f"{lines} lines, {len(seen)} of {len(kinds)} record types seen, "
      f"{failures} failures")
sys.exit(1 if failures else 0)
