#!/bin/sh
# share/elfscan.schema.json describes elfscan's JSON Lines exactly: elfscan
# runs in each mode that writes JSON Lines (a tree with --hardening --code
# and --summary, an unused --allow-pattern, an unreadable file, --system,
# --diff, --proc) on programs built here, and jsonschema (not our code)
# must accept every line, with every record type of the schema seen once
# at least. The negative control: the same output against the schema with
# one field of the image record removed must fail.
. "$top_srcdir/tests/lib.sh"
need gcc readelf python3
: "${ELFSCAN:?}"
python3 -c 'import jsonschema' 2>/dev/null ||
    { echo "ERROR: python3-jsonschema is missing: run ./bootstrap deps"; exit 99; }
schema=$top_srcdir/share/elfscan.schema.json
check=$top_srcdir/tests/elfscan/check_schema.py

printf 'int main(void) { return 0; }\n' >"$T/m.c"
mkdir -p "$T/old/usr/bin" "$T/new/usr/bin" "$T/tree"
gcc -O2 -fPIE -pie -Wl,-z,relro,-z,now -Wl,-z,noexecstack -o "$T/old/usr/bin/prog" "$T/m.c" &&
    gcc -O2 -z execstack -o "$T/new/usr/bin/prog" "$T/m.c" || fail "build the programs"
expect "readelf: the new program asks for an executable stack" \
    "$(readelf -lW "$T/new/usr/bin/prog" | grep -c 'GNU_STACK.* RWE ')" 1
cp "$T/new/usr/bin/prog" "$T/tree/exec" && cp "$T/old/usr/bin/prog" "$T/tree/prog"
printf '\177ELF\002\001\001' >"$T/tree/truncated"

run() { "$ELFSCAN" --no-progress --format=json "$@" 2>>"$T/err"; }
run --summary --hardening --code --allow-pattern '/nowhere/**' "$T/tree" >"$T/tree.jsonl"
run --summary --system "$T/new" >"$T/system.jsonl"
run --summary --diff "$T/old" "$T/new" >"$T/diff.jsonl"
run --summary --proc=$$ >"$T/proc.jsonl"

if python3 "$check" "$schema" "$T"/*.jsonl >"$T/check.out"; then
	pass "every line valid, every record type seen: $(tail -1 "$T/check.out")"
else
	fail "the schema and elfscan's output differ:"; cat "$T/check.out"
fi
# The negative control: a schema without "wx" must reject every image.
python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
del s["$defs"]["image"]["properties"]["wx"]
s["$defs"]["image"]["required"].remove("wx")
json.dump(s, open(sys.argv[2], "w"))' "$schema" "$T/broken.json"
expect "a schema missing a field elfscan writes is refused" \
    "$(python3 "$check" "$T/broken.json" "$T"/*.jsonl >/dev/null; echo $?)" 1
finish
