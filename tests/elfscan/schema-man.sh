#!/bin/sh
# The manual names the members of elfscan's JSON Lines that the schema
# (share/elfscan.schema.json) defines: the "JSON LINES" section of
# elfscan-output(7), and the fields of elfscan-hardening(7) it points to;
# and JSON LINES names no others. The negative controls: a page naming a
# member the schema lacks, and one leaving a member out, are refused.
. "$top_srcdir/tests/lib.sh"
need python3
page=$top_srcdir/man/elfscan-output.7
fields=$top_srcdir/man/elfscan-hardening.7
schema=$top_srcdir/share/elfscan.schema.json
check=$top_srcdir/tests/elfscan/check_schema_man.py

if python3 "$check" "$schema" "$page" "$fields" >"$T/out"; then
	pass "$page names every member of the schema: $(tail -1 "$T/out")"
else
	fail "$page and the schema differ:"; cat "$T/out"
fi
printf '%s\n' '.Sh JSON LINES' '.Li path , bogus_member' '.Sh SEE ALSO' >"$T/bad.7"
expect "a page naming a member the schema lacks is refused" \
    "$(python3 "$check" "$schema" "$T/bad.7" | grep -c 'names bogus_member, not a member')" 1
expect "a manual without the hardening page leaves members out" \
    "$(python3 "$check" "$schema" "$page" | grep -c 'does not name the member relro$')" 1
finish
