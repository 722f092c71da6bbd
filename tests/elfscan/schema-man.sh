#!/bin/sh
# The manual names the members of elfscan's JSON Lines that the schema
# (share/elfscan.schema.json) defines, and, in a "JSON LINES" section, no
# others. SCHEMA_MAN_PAGE is the page to read (default man/elfscan.1;
# man/elfscan-output.7 once the output has moved there). The negative
# control: a page with a JSON LINES section naming a member the schema
# lacks must be refused.
. "$top_srcdir/tests/lib.sh"
need python3
page=$top_srcdir/${SCHEMA_MAN_PAGE:-man/elfscan.1}
schema=$top_srcdir/share/elfscan.schema.json
check=$top_srcdir/tests/elfscan/check_schema_man.py

if python3 "$check" "$schema" "$page" >"$T/out"; then
	pass "$page names every member of the schema: $(tail -1 "$T/out")"
else
	fail "$page and the schema differ:"; cat "$T/out"
fi
printf '%s\n' '.Sh JSON LINES' '.Li path , bogus_member' '.Sh SEE ALSO' >"$T/bad.7"
expect "a page naming a member the schema lacks is refused" \
    "$(python3 "$check" "$schema" "$T/bad.7" | grep -c 'names bogus_member, not a member')" 1
finish
